package e2e

// Schema registry topics end to end: records registered and framed by the
// registry's JavaScript client (with kafkajs) into a kfake broker, schemas
// served by testenv's registry, read by the streamctl binary into JSONL (the
// decoded JSON, compared byte for byte with the JSON computed from what the
// producer was given) and Parquet (columns read by dotted paths, read back
// by DuckDB).

import (
	"bufio"
	"bytes"
	bigendian "encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hamba/avro/v2"
	"github.com/hamba/avro/v2/ocf"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers/local"
)

// registryOpts is one test's configuration: a source reading Topic through
// the registry at URL with value_format Format, a sink "jsonl" passing it
// through as JSONL into out/jsonl (and out/copy with Copy), in batches of
// MaxRecords (default 4), and with ParquetColumns a sink "parquet" writing
// them as Parquet into out/parquet.
type registryOpts struct {
	Brokers, Topic, URL, Format string
	OnInvalid                   string // default "fail"
	MaxRecords, MaxFileRecords  int
	Copy                        bool
	ParquetColumns              string
}

func registryConf(o registryOpts) string {
	if o.OnInvalid == "" {
		o.OnInvalid = "fail"
	}
	if o.MaxRecords == 0 {
		o.MaxRecords = 4
	}
	var b strings.Builder
	fmt.Fprintf(&b, `
variable "registry" {
  default = %q
}

source "kafka" "orders" {
  brokers      = [%q]
  topic        = %q
  timeout      = "20s"
  value_format = %q

  schema_registry {
    url = var.registry
  }
}

sink "jsonl" {
  source     = source.kafka.orders
  on_invalid = %q

  batch {
    max_records = %d
  }

  destination "local" "disk" {
    path = "out/jsonl"
  }
`, o.URL, o.Brokers, o.Topic, o.Format, o.OnInvalid, o.MaxRecords)
	if o.MaxFileRecords > 0 {
		fmt.Fprintf(&b, "  max_file_records = %d\n", o.MaxFileRecords)
	}
	if o.Copy {
		b.WriteString(`
  destination "local" "copy" {
    path = "out/copy"
  }
`)
	}
	b.WriteString("}\n")
	if o.ParquetColumns != "" {
		fmt.Fprintf(&b, `
sink "parquet" {
  source = source.kafka.orders
  format = "parquet"
%s
  destination "local" "disk" {
    path = "out/parquet"
  }
}
`, o.ParquetColumns)
	}
	return b.String()
}

// jsonlLines reads every JSONL data file under root, each line once.
func jsonlLines(t *testing.T, root string) []string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, "_streamctl") || !strings.HasSuffix(p, ".jsonl") {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// orderColumns are the Parquet columns of an order: nested fields by dotted
// paths, the lines as JSON. amountType is double where the decimal is a JSON
// number (Avro, Protobuf): the decimal column type is not there yet.
func orderColumns(amountType string) string {
	return fmt.Sprintf(`
  column "id"             { type = "int64" }
  column "status"         { type = "string" }
  column "amount"         { type = %q }
  column "at"             { type = "timestamp" }
  column "customer_name"  {
    type = "string"
    from = "customer.name"
  }
  column "customer_email" {
    type = "string"
    from = "customer.email"
  }
  column "tag_idx" {
    type = "string"
    from = "tags.idx"
  }
  column "lines"          { type = "json" }
  column "coupon"         { type = "string" }
`, amountType)
}

// TestRegistryTopicsLand lands an Avro, a Protobuf and a JSON Schema topic,
// each with a schema evolution halfway, as JSONL (the decoded JSON, byte for
// byte) and as Parquet read back by DuckDB.
func TestRegistryTopicsLand(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	byPartition := func(i int) int32 { return int32(i % 2) }
	for _, tc := range []struct {
		name, format, amountType string
		schemas                  func(subject string) []testenv.RegistrySchema
		records                  func(func(int) int32) []testenv.RegistryRecord
		want                     func(int) string
	}{
		{"avro", "avro", "double", testenv.AvroOrderSchemas, testenv.AvroOrderRecords, testenv.AvroOrderWant},
		{"protobuf", "protobuf", "double", testenv.ProtoOrderSchemas, testenv.ProtoOrderRecords, testenv.ProtoOrderWant},
		{"json_schema", "json_schema", "string", testenv.JSONOrderSchemas, testenv.JSONOrderRecords, testenv.JSONOrderWant},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			topic := kafkaTopic(t, broker, 2)
			testenv.ProduceWithRegistry(t, broker, reg, topic, tc.schemas(topic+"-value"), tc.records(byPartition))
			conf := registryConf(registryOpts{Brokers: broker.Addr, Topic: topic, URL: reg.URL, Format: tc.format, ParquetColumns: orderColumns(tc.amountType)})
			dir := writeConfig(t, conf)
			applyAndSettle(t, dir, nil)
			// Another run of the same records writes the same bytes.
			again := writeConfig(t, conf)
			applyAndSettle(t, again, nil)
			first, second := dataTree(t, filepath.Join(dir, "out")), dataTree(t, filepath.Join(again, "out"))
			if len(first) == 0 || len(first) != len(second) {
				t.Errorf("two runs wrote %d and %d files", len(first), len(second))
			}
			for name, data := range first {
				if second[name] != data {
					t.Errorf("%s differs between two runs over the same records", name)
				}
			}

			lines := jsonlLines(t, filepath.Join(dir, "out", "jsonl"))
			want := make([]string, testenv.OrderCount)
			for i := range want {
				want[i] = tc.want(i)
			}
			sort.Strings(lines)
			sort.Strings(want)
			if strings.Join(lines, "\n") != strings.Join(want, "\n") {
				t.Errorf("JSONL lines:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
			}

			rows := duckdb(t, dir, `SELECT id, status, CAST(round(CAST(amount AS DOUBLE) * 100) AS BIGINT), epoch_ms("at"), customer_name, customer_email, tag_idx, lines, coupon
				FROM read_parquet('out/parquet/**/*.parquet') ORDER BY id`)
			if len(rows) != testenv.OrderCount {
				t.Fatalf("DuckDB read %d rows, want %d: %v", len(rows), testenv.OrderCount, rows)
			}
			for i, o := range testenv.Orders() {
				wantRow := []any{o.ID, o.Status, o.Amount, o.AtMicros / 1000, o.Name, o.Email, o.Tags[1][1], nil, o.Coupon}
				got := rows[i]
				for c, w := range wantRow {
					switch w := w.(type) {
					case nil: // the lines, compared as JSON below
					case *string:
						if (w == nil) != (got[c] == nil) || (w != nil && got[c] != *w) {
							t.Errorf("order %d column %d = %v, want %v", o.ID, c, got[c], derefString(w))
						}
					default:
						if fmt.Sprint(got[c]) != fmt.Sprint(w) {
							t.Errorf("order %d column %d = %v, want %v", o.ID, c, got[c], w)
						}
					}
				}
				var gotLines, wantLines any
				json.Unmarshal([]byte(fmt.Sprint(got[7])), &gotLines)
				json.Unmarshal([]byte(orderLinesOf(t, tc.want(i))), &wantLines)
				if fmt.Sprint(gotLines) != fmt.Sprint(wantLines) {
					t.Errorf("order %d lines = %v, want %v", o.ID, got[7], wantLines)
				}
			}
		})
	}
}

func derefString(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

// orderLinesOf is the lines field of an order's JSON, as text.
func orderLinesOf(t *testing.T, order string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(order), &m); err != nil {
		t.Fatal(err)
	}
	return string(m["lines"])
}

// idSchema is the Avro schema of the records of the registry-down and kill
// tests: an id that readIDs counts.
const idSchema = `{"type": "record", "name": "Event", "fields": [{"name": "id", "type": "long"}, {"name": "note", "type": ["null", "string"], "default": null}]}`

// avroIDProducer registers idSchema through the registry's client, then
// frames records as its serializer does (magic byte, the schema id, the Avro
// datum), fast enough for thousands of records.
type avroIDProducer struct {
	id     int
	schema avro.Schema
}

func newAvroIDProducer(t *testing.T, broker *testenv.KafkaBroker, reg *testenv.SchemaRegistry, topic string) *avroIDProducer {
	t.Helper()
	ids := testenv.ProduceWithRegistry(t, broker, reg, topic, []testenv.RegistrySchema{{Subject: topic + "-value", Type: "AVRO", Schema: idSchema}}, nil)
	s, err := avro.Parse(idSchema)
	if err != nil {
		t.Fatal(err)
	}
	return &avroIDProducer{id: ids[0], schema: s}
}

func (a *avroIDProducer) produce(t *testing.T, broker *testenv.KafkaBroker, topic string, p *producedIDs, first, n int64, partitions int32) {
	t.Helper()
	var rs []*kgo.Record
	for id := first; id < first+n; id++ {
		datum, err := avro.Marshal(a.schema, map[string]any{"id": id, "note": fmt.Sprintf("event %d", id)})
		if err != nil {
			t.Fatal(err)
		}
		v := make([]byte, 5, 5+len(datum))
		bigendian.BigEndian.PutUint32(v[1:], uint32(a.id))
		rs = append(rs, &kgo.Record{Partition: int32(id % int64(partitions)), Value: append(v, datum...)})
	}
	broker.Produce(t, topic, rs...)
	for i, r := range rs {
		p.add(first+int64(i), r.Partition, r.Offset)
	}
}

// TestRegistryDown: a registry answering 503 fails apply with the reason
// before anything is written (state, destination and staging as they were);
// the next apply, with the registry back, lands every record once. A
// registry that fails during the run fails the batch before it is written.
func TestRegistryDown(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	topic := kafkaTopic(t, broker, 2)
	prod := newAvroIDProducer(t, broker, reg, topic)
	dir := writeConfig(t, registryConf(registryOpts{Brokers: broker.Addr, Topic: topic, URL: reg.URL, Format: "avro"}))
	p := newProducedIDs()
	prod.produce(t, broker, topic, p, 1, 10, 2)
	applyAndSettle(t, dir, nil)
	statePath := filepath.Join(dir, ".streamctl", "state.json")
	before, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out", "jsonl")
	filesBefore := dataTree(t, out)

	prod.produce(t, broker, topic, p, 11, 10, 2)
	reg.SetDown(true)
	r := mustRun(t, dir, 1, nil, "apply", "-auto-approve", "-no-color")
	for _, want := range []string{"schema registry " + reg.URL, "HTTP 503", "the registry's backing store is unavailable", "run again once the registry answers"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("apply with the registry down: the error lacks %q:\n%s", want, r.stderr)
		}
	}
	if after, _ := os.ReadFile(statePath); string(after) != string(before) {
		t.Errorf("a failed run changed the state")
	}
	filesAfter := dataTree(t, out)
	if len(filesAfter) != len(filesBefore) {
		t.Errorf("the failed run left files: %d before, %d after", len(filesBefore), len(filesAfter))
	}
	for name, data := range filesBefore {
		if filesAfter[name] != data {
			t.Errorf("the failed run changed %s", name)
		}
	}
	assertNoLocalTemporary(t, dir)

	reg.SetDown(false)
	applyAndSettle(t, dir, nil)
	assertExactlyOnce(t, local.New(out), p.want())
	if ss := kafkaStateFile(t, dir).Sinks["jsonl"]; ss == nil || ss.InFlight != nil || ss.CommittedRecords != 20 {
		t.Errorf("the state after the registry came back: %+v, want 20 records committed and nothing in flight", ss)
	}

	// The registry fails once the run found it up: the first batch's
	// intent is logged, its read fails on the first schema fetch, and
	// nothing of it is written; the next apply writes it once.
	prod.produce(t, broker, topic, p, 21, 10, 2)
	committed := kafkaStateFile(t, dir).Sinks["jsonl"].Offsets
	filesBefore = dataTree(t, out)
	reg.SetSchemasDown(true)
	r = mustRun(t, dir, 1, nil, "apply", "-auto-approve", "-no-color")
	for _, want := range []string{"fetch schema", "HTTP 500", "error while reading the schema"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("apply with schemas failing: the error lacks %q:\n%s", want, r.stderr)
		}
	}
	ss := kafkaStateFile(t, dir).Sinks["jsonl"]
	if ss.InFlight == nil || fmt.Sprint(ss.Offsets) != fmt.Sprint(committed) {
		t.Errorf("after the failed read: in flight %v, offsets %v (were %v); want a batch in flight and the offsets as they were", ss.InFlight, ss.Offsets, committed)
	}
	if got := dataTree(t, out); len(got) != len(filesBefore) {
		t.Errorf("the failed read left files: %d before, %d after", len(filesBefore), len(got))
	}
	assertNoLocalTemporary(t, dir)
	reg.SetSchemasDown(false)
	applyAndSettle(t, dir, nil)
	assertExactlyOnce(t, local.New(out), p.want())
	if ss := kafkaStateFile(t, dir).Sinks["jsonl"]; ss.InFlight != nil || ss.CommittedRecords != 30 {
		t.Errorf("the state at the end: %+v, want 30 records committed and nothing in flight", ss)
	}
}

// TestRegistryInvalidRecords: a record naming a schema id the registry does
// not have, and one not framed at all, are invalid records: on_invalid =
// "fail" stops apply naming the offset and the reason; "reject" lands the
// others and sets the two aside with their reasons.
func TestRegistryInvalidRecords(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	topic := kafkaTopic(t, broker, 1)
	prod := newAvroIDProducer(t, broker, reg, topic)
	p := newProducedIDs()
	prod.produce(t, broker, topic, p, 1, 3, 1)
	broker.Produce(t, topic,
		&kgo.Record{Value: []byte{0, 0, 0, 0x27, 0x0f, 2}}, // schema id 9999
		&kgo.Record{Value: []byte(`{"id":99}`)},
	)
	prod.produce(t, broker, topic, p, 4, 3, 1)

	dir := writeConfig(t, registryConf(registryOpts{Brokers: broker.Addr, Topic: topic, URL: reg.URL, Format: "avro"}))
	r := mustRun(t, dir, 1, nil, "apply", "-auto-approve", "-no-color")
	if want := "schema id 9999 is not in the schema registry " + reg.URL; !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "offset 3") {
		t.Errorf("on_invalid = fail: the error lacks %q at offset 3:\n%s", want, r.stderr)
	}

	dir = writeConfig(t, registryConf(registryOpts{Brokers: broker.Addr, Topic: topic, URL: reg.URL, Format: "avro", OnInvalid: "reject"}))
	applyAndSettle(t, dir, nil)
	out := filepath.Join(dir, "out", "jsonl")
	assertExactlyOnce(t, local.New(out), p.want())
	rows := duckdb(t, dir, `SELECT "offset"::VARCHAR, reason FROM read_json('out/jsonl/_streamctl/_rejected/*.ndjson') ORDER BY "offset"`)
	want := fmt.Sprint([][]any{
		{"3", "value: schema id 9999 is not in the schema registry " + reg.URL},
		{"4", "value: payload is not in the Confluent wire format (a 0 byte, a 4-byte schema id, the data): it starts with 7b 22 69 64 22"},
	})
	if got := fmt.Sprint(rows); got != want {
		t.Errorf("rejected records:\n%s\nwant\n%s", got, want)
	}
}

// TestRegistryAvroRandomKills kills apply with SIGKILL at random (seeded)
// moments while an Avro topic keeps growing, then lets it finish: every
// record exactly once, as TestKafkaRandomKills does for JSON.
func TestRegistryAvroRandomKills(t *testing.T) {
	t.Parallel()
	const kills = 10
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	topic := kafkaTopic(t, broker, 3)
	prod := newAvroIDProducer(t, broker, reg, topic)
	dir := writeConfig(t, registryConf(registryOpts{Brokers: broker.Addr, Topic: topic, URL: reg.URL, Format: "avro", MaxRecords: 200, MaxFileRecords: 70, Copy: true}))
	p := newProducedIDs()
	interrupted, inFlight := killKafkaApplies(t, kafkaKills{
		dir: dir, sink: "jsonl", seed: 20261204, stream: 31, kills: kills, attempts: 100,
		produce: func(first, n int64) { prod.produce(t, broker, topic, p, first, n, 3) },
	})
	applyAndSettle(t, dir, nil)
	for _, d := range []string{"jsonl", "copy"} {
		assertExactlyOnce(t, local.New(filepath.Join(dir, "out", d)), p.want())
	}
	if inFlight < 2 {
		t.Errorf("only %d of %d kills left a batch in flight: the kills missed the commit protocol", inFlight, interrupted)
	}
	t.Logf("%d kills, %d of them with a batch in flight; %d records", interrupted, inFlight, len(p.want()))
}

// TestAvroFilesLand lands an Avro Object Container File written by
// hamba/avro (deflate, in blocks of 7) with the binary, twice: first while
// its last block is still being written (it is not read), then whole (read
// on from the last committed record): every record once, each the JSON its
// schema gives.
func TestAvroFilesLand(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, `
source "files" "events" {
  path   = "in/*.avro"
  format = "avro"
}

sink "events" {
  source = source.files.events

  batch {
    max_records = 10
  }

  destination "local" "disk" {
    path = "out/disk"
  }
}
`)
	if err := os.MkdirAll(filepath.Join(dir, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc, err := ocf.NewEncoder(idSchema, &buf, ocf.WithCodec(ocf.Deflate), ocf.WithBlockLength(7))
	if err != nil {
		t.Fatal(err)
	}
	for id := 1; id <= 35; id++ {
		if err := enc.Encode(map[string]any{"id": int64(id), "note": map[string]any{"string": fmt.Sprintf("event %d", id)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "in", "events.avro")
	whole := buf.Bytes()
	// The last block (records 29 to 35) cut short, as while it is written.
	if err := os.WriteFile(path, whole[:len(whole)-20], 0o644); err != nil {
		t.Fatal(err)
	}
	applyAndSettle(t, dir, nil)
	out := filepath.Join(dir, "out", "disk")
	p := newProducedIDs()
	for id := int64(1); id <= 28; id++ {
		p.add(id, 0, id-1)
	}
	assertExactlyOnce(t, local.New(out), p.want())

	if err := os.WriteFile(path, whole, 0o644); err != nil {
		t.Fatal(err)
	}
	applyAndSettle(t, dir, nil)
	for id := int64(29); id <= 35; id++ {
		p.add(id, 0, id-1)
	}
	assertExactlyOnce(t, local.New(out), p.want())
	lines := jsonlLines(t, out)
	for _, l := range lines {
		var r struct{ ID int64 }
		json.Unmarshal([]byte(l), &r)
		if want := fmt.Sprintf(`{"id":%d,"note":"event %d"}`, r.ID, r.ID); l != want {
			t.Errorf("line %s, want %s", l, want)
		}
	}
}

// TestRegistryFromEnvironment: a registry format needs a registry; with no
// schema_registry block, SCHEMA_REGISTRY_URL is the registry, and the
// records land through it.
func TestRegistryFromEnvironment(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	topic := kafkaTopic(t, broker, 1)
	prod := newAvroIDProducer(t, broker, reg, topic)
	p := newProducedIDs()
	prod.produce(t, broker, topic, p, 1, 5, 1)
	dir := writeConfig(t, fmt.Sprintf(`
source "kafka" "orders" {
  brokers      = [%q]
  topic        = %q
  value_format = "avro"
}

sink "jsonl" {
  source = source.kafka.orders

  destination "local" "disk" {
    path = "out/jsonl"
  }
}
`, broker.Addr, topic))
	r := mustRun(t, dir, 1, []string{"SCHEMA_REGISTRY_URL="}, "validate", "-no-color")
	if want := `value_format: "avro" reads schemas from a schema registry: add a schema_registry block with its url (or set SCHEMA_REGISTRY_URL)`; !strings.Contains(strings.Join(strings.Fields(r.stderr), " "), want) {
		t.Errorf("validate without a registry: the error lacks %q:\n%s", want, r.stderr)
	}
	env := []string{"SCHEMA_REGISTRY_URL=" + reg.URL}
	mustRun(t, dir, 0, env, "validate", "-no-color")
	applyAndSettle(t, dir, env)
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "jsonl")), p.want())
}
