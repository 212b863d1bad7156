package format_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
)

// dirOutput writes a batch's files under a local directory.
type dirOutput struct{ root string }

func (o dirOutput) Create(_ []int, rel string) (pipeline.File, error) {
	p := filepath.Join(o.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(p)
	if err != nil {
		return nil, err
	}
	return osFile{f}, nil
}

type osFile struct{ *os.File }

func (f osFile) Finish(int64) error { return f.Close() }
func (f osFile) Abort()             { f.Close(); os.Remove(f.Name()) }

// duckdb runs SQL statements with DuckDB and returns each one's result.
func duckdb(t *testing.T, sql ...string) []duckResult {
	t.Helper()
	return testenv.DuckDB(t, ".", sql...)
}

type duckResult = testenv.DuckDBResult

// Partition values a user might not expect to survive a path.
var hostileCountries = []any{"de", "a/b", "..", ".", "x=y", "Köln", "日本", "%2F", `a\b`, "sp ace", "q'uote", "#hash", nil, "../../etc"}

var duckColumns = []format.Column{
	{Name: "id", Type: "int64", Nullable: new(bool)},
	{Name: "i32", Type: "int32"},
	{Name: "f", Type: "float"},
	{Name: "d", Type: "double"},
	{Name: "b", Type: "bool"},
	{Name: "ts", Type: "timestamp"},
	{Name: "dt", Type: "date"},
	{Name: "raw", Type: "bytes"},
	{Name: "j", Type: "json"},
	{Name: "country", Type: "string"},
	{Name: "note", Type: "string"},
}

// duckRecord is record i; every 7th record has nulls in its nullable
// columns, and some notes need CSV quoting.
func duckRecord(i int) map[string]any {
	m := map[string]any{"id": i, "country": hostileCountries[i%len(hostileCountries)]}
	if i%7 == 3 {
		return m
	}
	m["i32"] = i - 250
	m["f"] = float32(i) + 0.5
	m["d"] = float64(i) * 0.25
	m["b"] = i%2 == 0
	m["ts"] = format.AppendTimestamp(nil, 1767225600000+int64(i)*5*3600_000+int64(i%1000))
	m["dt"] = string(format.AppendDate(nil, int64(20000+i)))
	m["raw"] = []byte{byte(i), 0, 0xff}
	m["j"] = map[string]any{"n": i, "tags": []string{"x", "y"}}
	m["note"] = []string{"plain", "comma, here", `quote " here`, "line\nbreak", "", "é"}[i%6]
	if m["ts"] != nil {
		m["ts"] = string(m["ts"].([]byte))
	}
	return m
}

const duckRecords = 500

func writeDuckBatch(t *testing.T, dir string, l pipeline.Layout) {
	t.Helper()
	w, err := pipeline.New(l, 3, []int{0}, dirOutput{dir})
	if err != nil {
		t.Fatal(err)
	}
	for i := range duckRecords {
		raw, _ := json.Marshal(duckRecord(i))
		if err := w.Write(&providers.Record{Partition: "0", Offset: int64(i), Value: raw}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func str(v any) any {
	if v == nil {
		return nil
	}
	return fmt.Sprint(v)
}

// expectedRow is what DuckDB must read for record i, as the query below
// selects it.
func expectedRow(i int) []any {
	m := duckRecord(i)
	country := m["country"]
	if country == "" {
		country = nil
	}
	var ts, tsDay, raw, j any
	if m["ts"] != nil {
		ms, _ := format.ParseTimestamp([]byte(m["ts"].(string)))
		ts = strconv.FormatInt(ms, 10)
		tsDay = m["ts"].(string)[:10]
	}
	if m["raw"] != nil {
		raw = base64.StdEncoding.EncodeToString(m["raw"].([]byte))
	}
	if m["j"] != nil {
		b, _ := json.Marshal(m["j"])
		j = string(b)
	}
	return []any{str(m["id"]), str(m["i32"]), str(m["f"]), str(m["d"]), str(m["b"]), ts, str(m["dt"]), raw, j, str(m["note"]), country, tsDay}
}

const duckSelect = `SELECT id::VARCHAR, i32::VARCHAR, f::DOUBLE, d, b::VARCHAR, epoch_ms(ts)::VARCHAR, dt::VARCHAR,
	to_base64(raw), j::VARCHAR, note, country, ts_day::VARCHAR FROM %s ORDER BY id`

func compareRows(t *testing.T, what string, got [][]any) {
	t.Helper()
	if len(got) != duckRecords {
		t.Fatalf("%s: DuckDB read %d rows, want %d", what, len(got), duckRecords)
	}
	bad := 0
	for i, row := range got {
		want := expectedRow(i)
		for c := range want {
			g := row[c]
			if n, ok := g.(json.Number); ok {
				g = n.String()
			}
			if fmt.Sprint(g) != fmt.Sprint(want[c]) {
				if bad++; bad <= 10 {
					t.Errorf("%s: row %d column %d = %#v, want %#v", what, i, c, g, want[c])
				}
			}
		}
	}
}

// DuckDB, an independent reader, reads the Parquet files of every
// compression with hive partitioning: row count, types, nulls and values,
// the hostile partition values included.
func TestDuckDBReadsParquet(t *testing.T) {
	for _, comp := range format.Compressions {
		t.Run(comp, func(t *testing.T) {
			dir := t.TempDir()
			writeDuckBatch(t, dir, pipeline.Layout{
				Format: "parquet", Compression: comp, Columns: duckColumns,
				PartitionBy: []string{"country", "day(ts)"}, RowGroupRecords: 7, MaxFileRecords: 20,
			})
			src := fmt.Sprintf("read_parquet('%s/**/*.parquet', hive_partitioning = true)", dir)
			res := duckdb(t,
				"SELECT count(*)::VARCHAR, count(DISTINCT filename)::VARCHAR FROM read_parquet('"+dir+"/**/*.parquet', filename = true)",
				"DESCRIBE SELECT * FROM "+src,
				fmt.Sprintf(duckSelect, src),
				"SELECT DISTINCT country FROM "+src+" ORDER BY country",
				"SELECT count(*) FILTER (WHERE i32 IS NULL)::VARCHAR, count(*) FILTER (WHERE ts IS NULL)::VARCHAR, count(*) FILTER (WHERE ts_day IS NULL)::VARCHAR FROM "+src,
			)
			if got := fmt.Sprint(res[0].Rows[0][0]); got != strconv.Itoa(duckRecords) {
				t.Errorf("count = %s, want %d", got, duckRecords)
			}
			if files := fmt.Sprint(res[0].Rows[0][1]); files == "1" {
				t.Errorf("only one file: the test does not exercise folders and rolling")
			}
			var types []string
			for _, r := range res[1].Rows {
				types = append(types, fmt.Sprintf("%s %s", r[0], r[1]))
			}
			want := "id BIGINT, i32 INTEGER, f FLOAT, d DOUBLE, b BOOLEAN, ts TIMESTAMP WITH TIME ZONE, dt DATE, raw BLOB, j JSON, note VARCHAR, country VARCHAR, ts_day DATE"
			if got := strings.Join(types, ", "); got != want {
				t.Errorf("types:\n%s\nwant:\n%s", got, want)
			}
			compareRows(t, comp, res[2].Rows)
			var countries []string
			for _, r := range res[3].Rows {
				countries = append(countries, fmt.Sprint(r[0]))
			}
			if got := strings.Join(countries, "|"); got != `#hash|%2F|.|..|../../etc|Köln|a/b|a\b|de|q'uote|sp ace|x=y|日本|<nil>` {
				t.Errorf("countries as DuckDB reads them: %s", got)
			}
			nulls := fmt.Sprint(res[4].Rows[0])
			n := 0
			for i := range duckRecords {
				if i%7 == 3 {
					n++
				}
			}
			if want := fmt.Sprintf("[%d %d %d]", n, n, n); nulls != want {
				t.Errorf("null counts = %s, want %s", nulls, want)
			}
		})
	}
}

// DuckDB reads the CSV files: quoting, embedded newlines, nulls (empty)
// against empty strings (""), and the hive folders.
func TestDuckDBReadsCSV(t *testing.T) {
	dir := t.TempDir()
	writeDuckBatch(t, dir, pipeline.Layout{Format: "csv", Columns: duckColumns, PartitionBy: []string{"country", "day(ts)"}})
	src := fmt.Sprintf("read_csv('%s/**/*.csv', hive_partitioning = true, header = true, allow_quoted_nulls = false, "+
		"columns = {'id': 'BIGINT', 'i32': 'INTEGER', 'f': 'FLOAT', 'd': 'DOUBLE', 'b': 'BOOLEAN', 'ts': 'TIMESTAMPTZ', 'dt': 'DATE', 'raw': 'VARCHAR', 'j': 'JSON', 'note': 'VARCHAR'})", dir)
	res := duckdb(t,
		"SELECT count(*)::VARCHAR FROM "+src,
		strings.Replace(fmt.Sprintf(duckSelect, src), "to_base64(raw)", "raw", 1),
		"SELECT count(*) FILTER (WHERE note = '')::VARCHAR, count(*) FILTER (WHERE note IS NULL)::VARCHAR FROM "+src,
	)
	if got := fmt.Sprint(res[0].Rows[0][0]); got != strconv.Itoa(duckRecords) {
		t.Errorf("count = %s, want %d", got, duckRecords)
	}
	compareRows(t, "csv", res[1].Rows)
	empty, null := 0, 0
	for i := range duckRecords {
		switch {
		case i%7 == 3:
			null++
		case i%6 == 4:
			empty++
		}
	}
	if got, want := fmt.Sprint(res[2].Rows[0]), fmt.Sprintf("[%d %d]", empty, null); got != want {
		t.Errorf("empty and null notes = %s, want %s", got, want)
	}
}

// DuckDB reads files with many pages and row groups, values larger than a
// page, nulls in every pattern and the statistics it prunes row groups with.
func TestDuckDBReadsLargeParquet(t *testing.T) {
	dir := t.TempDir()
	cols := []format.Column{{Name: "id", Type: "int64", Nullable: new(bool)}, {Name: "s", Type: "string"}, {Name: "d", Type: "double"}, {Name: "b", Type: "bool"}}
	w, err := pipeline.New(pipeline.Layout{Format: "parquet", Columns: cols, RowGroupRecords: 3000}, 0, []int{0}, dirOutput{dir})
	if err != nil {
		t.Fatal(err)
	}
	const n = 10000
	var wantLen, wantNulls int
	for i := range n {
		m := map[string]any{"id": i, "d": float64(i) / 4}
		switch {
		case i%9 == 0:
			wantNulls++
		case i == 4321:
			m["s"] = strings.Repeat("L", 200_000)
		default:
			m["s"] = fmt.Sprintf("v%d", i)
		}
		if i%2 == 1 {
			m["b"] = i%3 == 0
		}
		if s, ok := m["s"].(string); ok {
			wantLen += len(s)
		}
		raw, _ := json.Marshal(m)
		if err := w.Write(&providers.Record{Partition: "0", Offset: int64(i), Value: raw}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf("read_parquet('%s/*.parquet')", dir)
	res := duckdb(t,
		"SELECT count(*)::VARCHAR, count(s)::VARCHAR, sum(length(s))::VARCHAR, sum(id)::VARCHAR, sum(d)::VARCHAR, count(b)::VARCHAR, count(*) FILTER (WHERE b)::VARCHAR FROM "+src,
		"SELECT count(*)::VARCHAR FROM "+src+" WHERE id BETWEEN 6500 AND 6509",
		"SELECT count(DISTINCT row_group_id)::VARCHAR FROM parquet_metadata('"+dir+"/part-00000000-00000.parquet')",
	)
	want := fmt.Sprint([]any{strconv.Itoa(n), strconv.Itoa(n - wantNulls), strconv.Itoa(wantLen), strconv.Itoa(n * (n - 1) / 2), "12498750.0", strconv.Itoa(n / 2), "1667"})
	if got := fmt.Sprint(res[0].Rows[0]); got != want {
		t.Errorf("aggregates = %s, want %s", got, want)
	}
	if got := fmt.Sprint(res[1].Rows[0][0]); got != "10" {
		t.Errorf("filtered count = %s, want 10", got)
	}
	if got := fmt.Sprint(res[2].Rows[0][0]); got != "4" {
		t.Errorf("row groups = %s, want 4", got)
	}
}
