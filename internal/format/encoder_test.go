package format

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go/format"

	"github.com/streamctl/streamctl/internal/format/parquettest"
	"github.com/streamctl/streamctl/providers"
)

// allTypes has one column of every type, all nullable.
var allTypes = []Column{
	{Name: "s", Type: "string"},
	{Name: "i32", Type: "int32"},
	{Name: "i64", Type: "int64"},
	{Name: "f", Type: "float"},
	{Name: "d", Type: "double"},
	{Name: "b", Type: "bool"},
	{Name: "ts", Type: "timestamp"},
	{Name: "dt", Type: "date"},
	{Name: "raw", Type: "bytes"},
	{Name: "j", Type: "json"},
}

var allTypesRecords = []string{
	`{"s":"plain","i32":1,"i64":9007199254740993,"f":1.5,"d":0.1,"b":true,"ts":"2026-01-02T03:04:05.678Z","dt":"2026-01-02","raw":"AAEC/w==","j":{"k":[1,"x"]}}`,
	`{"s":"comma, \"quote\"\nline","i32":-2147483648,"i64":-1,"f":-0.25,"d":1e300,"b":false,"ts":0,"dt":"1969-12-31","raw":"","j":"str"}`,
	`{"s":""}`, // every other column null
	`{"s":null,"j":null,"i32":null}`,
}

// encodeAll extracts records and encodes them with o, returning the bytes.
func encodeAll(t *testing.T, cols []Column, o Options, records []string) []byte {
	t.Helper()
	var s *Schema
	var x *Extractor
	if len(cols) > 0 {
		var err error
		if s, err = NewSchema(cols); err != nil {
			t.Fatal(err)
		}
		if x, err = NewExtractor(s.Fields()); err != nil {
			t.Fatal(err)
		}
	}
	f, err := NewFormat(s, o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := f.NewEncoder(&buf)
	var vals []Value
	if s != nil {
		vals = make([]Value, len(cols))
	}
	for i, r := range records {
		if x != nil {
			if err := x.Extract(&providers.Record{Value: []byte(r)}, vals); err != nil {
				t.Fatalf("record %d: %v", i, err)
			}
		}
		if err := enc.Append([]byte(r), vals); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestCSV(t *testing.T) {
	got := string(encodeAll(t, allTypes, Options{Format: CSV}, allTypesRecords))
	want := "s,i32,i64,f,d,b,ts,dt,raw,j\n" +
		`plain,1,9007199254740993,1.5,0.1,true,2026-01-02T03:04:05.678Z,2026-01-02,AAEC/w==,"{""k"":[1,""x""]}"` + "\n" +
		"\"comma, \"\"quote\"\"\nline\",-2147483648,-1,-0.25,1e+300,false,1970-01-01T00:00:00.000Z,1969-12-31,\"\",\"\"\"str\"\"\"\n" +
		"\"\",,,,,,,,,\n" +
		",,,,,,,,,\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Header names are quoted like values.
	got = string(encodeAll(t, []Column{{Name: "a,b", Type: "string"}, {Name: `q"`, Type: "int64"}}, Options{Format: CSV}, nil))
	if want := "\"a,b\",\"q\"\"\"\n"; got != want {
		t.Fatalf("header = %q, want %q", got, want)
	}
}

func TestJSONLTyped(t *testing.T) {
	got := string(encodeAll(t, allTypes, Options{Format: JSONL}, allTypesRecords))
	want := `{"s":"plain","i32":1,"i64":9007199254740993,"f":1.5,"d":0.1,"b":true,"ts":"2026-01-02T03:04:05.678Z","dt":"2026-01-02","raw":"AAEC/w==","j":{"k":[1,"x"]}}` + "\n" +
		`{"s":"comma, \"quote\"\nline","i32":-2147483648,"i64":-1,"f":-0.25,"d":1e+300,"b":false,"ts":"1970-01-01T00:00:00.000Z","dt":"1969-12-31","raw":"","j":"str"}` + "\n" +
		`{"s":"","i32":null,"i64":null,"f":null,"d":null,"b":null,"ts":null,"dt":null,"raw":null,"j":null}` + "\n" +
		`{"s":null,"i32":null,"i64":null,"f":null,"d":null,"b":null,"ts":null,"dt":null,"raw":null,"j":null}` + "\n"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// Nested JSON spread over lines is compacted so that a record stays one
	// line; strings inside keep their spaces.
	got = string(encodeAll(t, []Column{{Name: "j", Type: "json"}}, Options{Format: JSONL}, []string{"{\"j\": {\n  \"a\": \"x  y\",\n  \"b\": [1, 2]\n}}"}))
	if want := `{"j":{"a":"x  y","b":[1,2]}}` + "\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestJSONLPassThrough(t *testing.T) {
	recs := []string{`{"b":1,  "a" : "x"}`, `not JSON at all`, `{"é":"\u00e9"}`}
	got := string(encodeAll(t, nil, Options{Format: JSONL}, recs))
	if want := strings.Join(recs, "\n") + "\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestFormatOptions(t *testing.T) {
	s, _ := NewSchema([]Column{{Name: "a", Type: "string"}})
	tests := []struct {
		schema *Schema
		o      Options
		err    string
	}{
		{s, Options{Format: Parquet}, ""},
		{s, Options{Format: Parquet, Compression: "lz4"}, `unknown compression "lz4" (want zstd, snappy, gzip or none)`},
		{s, Options{Format: CSV, Compression: "gzip"}, `compression "gzip" applies only to parquet`},
		{s, Options{Format: CSV, Compression: "none"}, ""},
		{nil, Options{Format: CSV}, `format "csv" needs column blocks`},
		{nil, Options{Format: Parquet}, `format "parquet" needs column blocks`},
		{nil, Options{Format: JSONL}, ""},
		{s, Options{Format: "avro"}, `unknown format "avro"`},
		{s, Options{Format: Parquet, RowGroupRecords: -1}, "row_group_records must be positive"},
	}
	for _, tc := range tests {
		_, err := NewFormat(tc.schema, tc.o)
		if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%+v: error = %v, want %q", tc.o, err, tc.err)
		}
	}
}

func TestParquet(t *testing.T) {
	for _, comp := range Compressions {
		t.Run(comp, func(t *testing.T) {
			data := encodeAll(t, allTypes, Options{Format: Parquet, Compression: comp}, allTypesRecords)
			f := parquettest.Open(t, data)
			meta := f.Metadata()
			if meta.CreatedBy != CreatedBy() {
				t.Errorf("created_by = %q, want %q", meta.CreatedBy, CreatedBy())
			}
			if meta.NumRows != int64(len(allTypesRecords)) {
				t.Errorf("rows = %d, want %d", meta.NumRows, len(allTypesRecords))
			}
			wantCodec := map[string]format.CompressionCodec{"zstd": format.Zstd, "snappy": format.Snappy, "gzip": format.Gzip, "none": format.Uncompressed}[comp]
			for _, c := range meta.RowGroups[0].Columns {
				if c.MetaData.Codec != wantCodec {
					t.Errorf("column %v codec = %v, want %v", c.MetaData.PathInSchema, c.MetaData.Codec, wantCodec)
				}
			}
			// Columns keep their declared order, types and nullability.
			var got []string
			for _, c := range f.Schema().Fields() {
				got = append(got, fmt.Sprintf("%s %s optional=%v", c.Name(), c.Type(), c.Optional()))
			}
			want := []string{
				"s STRING optional=true", "i32 INT(32,true) optional=true", "i64 INT(64,true) optional=true",
				"f FLOAT optional=true", "d DOUBLE optional=true", "b BOOLEAN optional=true",
				"ts TIMESTAMP(isAdjustedToUTC=true,unit=MILLIS) optional=true", "dt DATE optional=true",
				"raw BYTE_ARRAY optional=true", "j JSON optional=true",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("schema:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			rows := parquettest.ReadRows(t, data)
			r0 := rows[0]
			checks := map[string]any{
				"s": "plain", "i32": int32(1), "i64": int64(9007199254740993), "f": float32(1.5), "d": 0.1, "b": true,
				// parquet-go's map reader gives bytes as a string and
				// decodes JSON columns.
				"dt": int32(20455), "raw": "\x00\x01\x02\xff", "j": "map[k:[1 x]]",
			}
			for k, w := range checks {
				if fmt.Sprint(r0[k]) != fmt.Sprint(w) {
					t.Errorf("row 0 %s = %#v, want %#v", k, r0[k], w)
				}
			}
			if ts := fmt.Sprint(r0["ts"]); !strings.HasPrefix(ts, "2026-01-02 03:04:05.678 +0000 UTC") && ts != "1767323045678" {
				t.Errorf("row 0 ts = %v", r0["ts"])
			}
			if rows[1]["d"] != 1e300 || rows[1]["s"] != "comma, \"quote\"\nline" {
				t.Errorf("row 1 = %#v", rows[1])
			}
			if rows[2]["s"] != "" {
				t.Errorf("row 2 s = %#v, want the empty string", rows[2]["s"])
			}
			for _, k := range []string{"i32", "i64", "f", "d", "b", "ts", "dt", "raw", "j"} {
				if rows[2][k] != nil {
					t.Errorf("row 2 %s = %#v, want null", k, rows[2][k])
				}
			}
			if rows[3]["s"] != nil || rows[3]["j"] != nil {
				t.Errorf("row 3 = %#v, want nulls", rows[3])
			}
		})
	}
}

func TestParquetRequiredColumns(t *testing.T) {
	cols := []Column{{Name: "id", Type: "int64", Nullable: boolp(false)}, {Name: "name", Type: "string"}}
	data := encodeAll(t, cols, Options{Format: Parquet}, []string{`{"id":1,"name":"a"}`, `{"id":2}`})
	f := parquettest.Open(t, data)
	if id := f.Schema().Fields()[0]; !id.Required() {
		t.Errorf("id is not required")
	}
	rows := parquettest.ReadRows(t, data)
	if len(rows) != 2 || rows[1]["id"] != int64(2) || rows[1]["name"] != nil {
		t.Fatalf("rows = %v", rows)
	}
}

func TestParquetRowGroups(t *testing.T) {
	var recs []string
	for i := range 25 {
		recs = append(recs, fmt.Sprintf(`{"id":%d,"note":"n%d"}`, i, i))
	}
	cols := []Column{{Name: "id", Type: "int64"}, {Name: "note", Type: "string"}}
	data := encodeAll(t, cols, Options{Format: Parquet, RowGroupRecords: 10}, recs)
	f := parquettest.Open(t, data)
	var sizes []int64
	for _, rg := range f.RowGroups() {
		sizes = append(sizes, rg.NumRows())
	}
	if fmt.Sprint(sizes) != "[10 10 5]" {
		t.Fatalf("row groups = %v, want [10 10 5]", sizes)
	}
	rows := parquettest.ReadRows(t, data)
	for i, r := range rows {
		if r["id"] != int64(i) || r["note"] != fmt.Sprintf("n%d", i) {
			t.Fatalf("row %d = %v", i, r)
		}
	}
}

// The same records must give the same bytes, for every format.
func TestDeterministic(t *testing.T) {
	var recs []string
	for i := range 3000 {
		recs = append(recs, fmt.Sprintf(`{"s":"v%d","i32":%d,"i64":%d,"f":%d.5,"d":%g,"b":%v,"ts":%d,"dt":"2026-01-%02d","raw":"AAE=","j":{"n":%d}}`,
			i%7, i, i*1000, i, math.Sqrt(float64(i)), i%2 == 0, 1767225600000+int64(i), i%28+1, i))
	}
	opts := []Options{{Format: CSV}, {Format: JSONL}}
	for _, c := range Compressions {
		opts = append(opts, Options{Format: Parquet, Compression: c, RowGroupRecords: 1000})
	}
	for _, o := range opts {
		a := encodeAll(t, allTypes, o, recs)
		b := encodeAll(t, allTypes, o, recs)
		if !bytes.Equal(a, b) {
			t.Errorf("%s %s: two encodings differ", o.Format, o.Compression)
		}
		if len(a) < 1000 {
			t.Errorf("%s %s: only %d bytes", o.Format, o.Compression, len(a))
		}
	}
	a := encodeAll(t, nil, Options{Format: JSONL}, recs)
	if !bytes.Equal(a, encodeAll(t, nil, Options{Format: JSONL}, recs)) {
		t.Error("pass-through: two encodings differ")
	}
}

func TestTimeConversions(t *testing.T) {
	for _, s := range []string{"1970-01-01T00:00:00.000Z", "2000-02-29T12:34:56.789Z", "1900-03-01T00:00:00.001Z", "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "1969-07-20T20:17:40.000Z"} {
		ms, ok := ParseTimestamp([]byte(s))
		if !ok {
			t.Fatalf("ParseTimestamp(%q) failed", s)
		}
		if got := string(AppendTimestamp(nil, ms)); got != s {
			t.Errorf("round trip of %q gave %q", s, got)
		}
	}
	if ms, _ := ParseTimestamp([]byte("2000-01-01T00:00:00Z")); ms != 946684800000 {
		t.Errorf("2000-01-01 = %d ms, want 946684800000", ms)
	}
	for _, bad := range []string{"2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z", "2026-01-32T00:00:00Z", "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z", "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00+0100", "2026-01-01T00:00:00Zjunk", "2026-1-01T00:00:00Z"} {
		if _, ok := ParseTimestamp([]byte(bad)); ok {
			t.Errorf("ParseTimestamp(%q) succeeded", bad)
		}
	}
}

// An extractor parses a stream's timestamps with the last date remembered:
// every result must be the one a fresh parse gives, whatever came before.
func TestTimestampDateCache(t *testing.T) {
	seq := []string{
		"2026-01-01T00:00:00.000Z", "2026-01-01T23:59:59.999Z", "2026-01-01T00:60:00Z",
		"2026-01-01X00:00:00Z", "2026-01-02T00:00:00+01:00", "2026-02-30T00:00:00Z",
		"2026-01-02T00:00:00Z", "2026-01-02", "2026-01-02T00:00:00Zjunk", "2026-01-02t01:02:03z",
		"1970-01-01 00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-02T00:00:01Z",
	}
	var c dateCache
	for _, s := range seq {
		wantMS, wantOK := ParseTimestamp([]byte(s))
		if ms, ok := c.parseTimestamp([]byte(s)); ms != wantMS || ok != wantOK {
			t.Errorf("cached parse of %q = %d, %v; fresh parse = %d, %v", s, ms, ok, wantMS, wantOK)
		}
	}
}

// The Parquet bytes of a fixed input are pinned. A batch replayed after an
// upgrade should get the bytes it had, so an encoder change that moves them
// must be deliberate: if this fails, find out why, and only then update the
// hash, saying why in the commit. A zstd upgrade moves them too. The input
// has pages without nulls, with some, and with nothing else (row groups of
// 10,000 rows, some all nulls), booleans, and a value larger than a page.
func TestParquetBytesArePinned(t *testing.T) {
	yes := true
	cols := []Column{
		{Name: "id", Type: "int64"},
		{Name: "amount", Type: "double", Nullable: &yes},
		{Name: "flag", Type: "bool", Nullable: &yes},
		{Name: "note", Type: "string", Nullable: &yes},
		{Name: "ts", Type: "timestamp", Nullable: &yes},
	}
	var recs []string
	for i := range 60_000 {
		r := fmt.Sprintf(`{"id":%d`, i)
		if i%3 != 0 && (i < 20_000 || i > 30_000) {
			r += fmt.Sprintf(`,"amount":%d.%02d`, i*7919%100_000, i%100)
		}
		if i%20_000 < 5_000 {
			r += fmt.Sprintf(`,"flag":%t`, i%7 == 0)
		}
		switch {
		case i == 33_333:
			r += `,"note":"` + strings.Repeat("xyz", 40_000) + `"`
		case i%11 != 0:
			r += fmt.Sprintf(`,"note":"n%x"`, i*2654435761%1_000_003)
		}
		recs = append(recs, r+fmt.Sprintf(`,"ts":"2026-01-%02dT%02d:00:00Z"}`, 1+i/10_000, i%24))
	}
	for _, tc := range []struct{ compression, sha256 string }{
		{"zstd", "00ca607172d8ffb7c15caf016f41d295f16c0c6be50924ffc501cf6751b83f8a"},
		{"none", "9d7e7a3d516c07e9c6cb36681fa461b85c37aa1fffa458640040cfbe44da67b4"},
	} {
		sum := sha256.Sum256(encodeAll(t, cols, Options{Format: Parquet, Compression: tc.compression, RowGroupRecords: 10_000}, recs))
		if got := hex.EncodeToString(sum[:]); got != tc.sha256 {
			t.Errorf("%s: the file's SHA-256 is %s, pinned %s", tc.compression, got, tc.sha256)
		}
	}
}
