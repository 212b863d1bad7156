package files

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hamba/avro/v2/ocf"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/internal/wire"
	"github.com/streamctl/streamctl/providers"
)

const eventSchema = `{"type": "record", "name": "Event", "fields": [
  {"name": "id", "type": "long"},
  {"name": "score", "type": "double"},
  {"name": "tags", "type": {"type": "array", "items": "string"}},
  {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
  {"name": "note", "type": ["null", "string"], "default": null}
]}`

func event(i int) map[string]any {
	var note any
	if i%3 == 0 {
		note = map[string]any{"string": fmt.Sprintf("note %d", i)}
	}
	return map[string]any{"id": int64(i), "score": float64(i) / 4, "tags": []any{"a", fmt.Sprint(i)}, "at": int64(1772600767000 + i), "note": note}
}

func eventJSON(i int) string {
	note := "null"
	if i%3 == 0 {
		note = fmt.Sprintf(`"note %d"`, i)
	}
	return fmt.Sprintf(`{"id":%d,"score":%v,"tags":["a","%d"],"at":"2026-03-04T05:06:%02d.%03dZ","note":%s}`,
		i, float64(i)/4, i, 7+(i/1000), i%1000, note)
}

// writeOCF writes records first … first+n-1 as an Object Container File with
// codec, in blocks of block records, with hamba/avro's encoder.
func writeOCF(t *testing.T, path string, codec ocf.CodecName, block, first, n int) {
	t.Helper()
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(eventSchema, &buf, ocf.WithCodec(codec), ocf.WithBlockLength(block))
	if err != nil {
		t.Fatal(err)
	}
	for i := first; i < first+n; i++ {
		if err := enc.Encode(event(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, s *Source, p string, start, end int64) ([]string, []int64) {
	t.Helper()
	var values []string
	var offsets []int64
	err := s.Read(context.Background(), p, start, end, func(r *providers.Record) error {
		if r.Invalid != nil {
			t.Errorf("record %d is invalid: %v", r.Offset, r.Invalid)
		}
		values = append(values, string(r.Value))
		offsets = append(offsets, r.Offset)
		return nil
	})
	if err != nil {
		t.Fatalf("Read(%s, [%d, %d)): %v", p, start, end, err)
	}
	return values, offsets
}

// TestAvroFiles reads Object Container Files of every codec, in ranges that
// start and end inside blocks, in any order: each record is its index in the
// file, decoded as the JSON the schema gives.
func TestAvroFiles(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "in"), 0o755)
	const n = 250
	codecs := []ocf.CodecName{ocf.Null, ocf.Deflate, ocf.Snappy, ocf.ZStandard}
	for _, c := range codecs {
		writeOCF(t, filepath.Join(dir, "in", string(c)+".avro"), c, 16, 0, n)
	}
	s := &Source{Dir: dir, Pattern: "in/*.avro", Format: FormatAvro}
	snap, err := s.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Partitions) != len(codecs) || !strings.HasSuffix(snap.Identity, "?format=avro") {
		t.Fatalf("snapshot %+v", snap)
	}
	for _, p := range snap.Partitions {
		if p.Latest != n {
			t.Errorf("%s: %d records, want %d", p.ID, p.Latest, n)
		}
		// Sequential batches (the cursor), then ranges read again out of
		// order (a replay): the same records each time.
		for _, r := range [][2]int64{{0, 7}, {7, 16}, {16, 100}, {100, 250}, {50, 51}, {3, 40}, {0, 250}, {249, 250}} {
			values, offsets := readAll(t, s, p.ID, r[0], r[1])
			if int64(len(values)) != r[1]-r[0] {
				t.Fatalf("%s [%d, %d): %d records", p.ID, r[0], r[1], len(values))
			}
			for k, v := range values {
				i := int(r[0]) + k
				if offsets[k] != int64(i) || v != eventJSON(i) {
					t.Fatalf("%s [%d, %d): record at offset %d = %s, want offset %d %s", p.ID, r[0], r[1], offsets[k], v, i, eventJSON(i))
				}
			}
		}
	}
}

// TestAvroFileGrows: a block being appended is not counted nor read until its
// sync marker is written; a file that shrinks is data loss.
func TestAvroFileGrows(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "e.avro")
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(eventSchema, &buf, ocf.WithBlockLength(10))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 25 {
		enc.Encode(event(i))
	}
	enc.Close()
	whole := buf.Bytes()
	// Cut inside the last block (records 20..24).
	os.WriteFile(path, whole[:len(whole)-20], 0o644)
	s := &Source{Dir: dir, Pattern: "*.avro", Format: FormatAvro}
	snap, err := s.Snapshot(context.Background())
	if err != nil || len(snap.Partitions) != 1 || snap.Partitions[0].Latest != 20 {
		t.Fatalf("a file with a block being written: %+v, %v; want 20 records", snap, err)
	}
	if values, _ := readAll(t, s, "e.avro", 15, 20); len(values) != 5 {
		t.Fatalf("read [15, 20): %d records", len(values))
	}
	os.WriteFile(path, whole, 0o644)
	if values, _ := readAll(t, s, "e.avro", 20, 25); len(values) != 5 || values[4] != eventJSON(24) {
		t.Fatalf("the completed block: %v", values)
	}
	os.WriteFile(path, whole[:len(whole)-200], 0o644)
	err = s.Read(context.Background(), "e.avro", 0, 25, func(*providers.Record) error { return nil })
	if !errors.Is(err, providers.ErrDataLoss) || !strings.Contains(err.Error(), "e.avro") {
		t.Fatalf("a file that shrank: %v, want data loss naming it", err)
	}
}

// TestAvroFileInvalidRecord: a record holding NaN is invalid with the reason;
// the records after it in its block are read.
func TestAvroFileInvalidRecord(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	enc, _ := ocf.NewEncoder(eventSchema, &buf)
	for i := range 3 {
		e := event(i)
		if i == 1 {
			e["score"] = math.NaN()
		}
		enc.Encode(e)
	}
	enc.Close()
	os.WriteFile(filepath.Join(dir, "e.avro"), buf.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.avro"), []byte("not avro\n"), 0o644)
	s := &Source{Dir: dir, Pattern: "e.avro", Format: FormatAvro}
	var got []string
	err := s.Read(context.Background(), "e.avro", 0, 3, func(r *providers.Record) error {
		if r.Invalid != nil {
			got = append(got, "invalid: "+r.Invalid.Error())
		} else {
			got = append(got, string(r.Value))
		}
		return nil
	})
	want := []string{eventJSON(0), "invalid: field score is NaN, which JSON cannot hold", eventJSON(2)}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
	var ie *wire.InvalidError
	if _, err := (&Source{Dir: dir, Pattern: "bad.avro", Format: FormatAvro}).Snapshot(context.Background()); err == nil || errors.As(err, &ie) || !strings.Contains(err.Error(), "bad.avro is not a valid Avro Object Container File") {
		t.Fatalf("a file that is not Avro: %v", err)
	}
}

// TestAvroFilesFromAvsc reads files written by avsc, Avro's JavaScript
// implementation, with its deflate codec: an independent writer.
func TestAvroFilesFromAvsc(t *testing.T) {
	modules := filepath.Join(testenv.ToolsDir(), "node", "node_modules")
	testenv.Require(t, filepath.Join(modules, "avsc"), "avsc (installed with @kafkajs/confluent-schema-registry)")
	dir := t.TempDir()
	records := make([]map[string]any, 40)
	for i := range records {
		records[i] = map[string]any{"id": i, "score": float64(i) / 4, "tags": []string{"a", fmt.Sprint(i)}, "at": 1772600767000 + i}
		if i%3 == 0 {
			records[i]["note"] = fmt.Sprintf("note %d", i)
		} else {
			records[i]["note"] = nil
		}
	}
	spec, _ := json.Marshal(map[string]any{"schema": json.RawMessage(eventSchema), "records": records})
	script := `
const avro = require('avsc');
const spec = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const type = avro.Type.forSchema(spec.schema);
const enc = avro.createFileEncoder(process.argv[1], type, {codec: 'deflate', blockSize: 256});
for (const r of spec.records) enc.write(r);
enc.end();
`
	cmd := exec.Command("node", "-e", script, filepath.Join(dir, "avsc.avro"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	cmd.Stdin = bytes.NewReader(spec)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("avsc: %v\n%s", err, out)
	}
	s := &Source{Dir: dir, Pattern: "*.avro", Format: FormatAvro}
	snap, err := s.Snapshot(context.Background())
	if err != nil || len(snap.Partitions) != 1 || snap.Partitions[0].Latest != 40 {
		t.Fatalf("snapshot %+v, %v", snap, err)
	}
	// avsc writes the schema of its types, which leave out the logical
	// types it was not given an implementation of: "at" is a plain long.
	values, _ := readAll(t, s, "avsc.avro", 5, 40)
	for k, v := range values {
		i := 5 + k
		want := strings.Replace(eventJSON(i), fmt.Sprintf(`"at":"2026-03-04T05:06:07.%03dZ"`, i), fmt.Sprintf(`"at":%d`, 1772600767000+i), 1)
		if v != want {
			t.Errorf("record %d = %s, want %s", i, v, want)
		}
	}
}
