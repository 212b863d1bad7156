package format_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/providers"
)

var decimalColumns = []format.Column{
	{Name: "id", Type: "int64", Nullable: new(bool)},
	{Name: "price", Type: "decimal(9,2)"},
	{Name: "total", Type: "decimal(18,4)"},
	{Name: "wide", Type: "decimal(38,6)"},
}

// decimalRecords are the records as a producer sends them (numbers, and
// strings some producers use) and the text each decimal must read back as.
var decimalRecords = []struct {
	json  string
	texts [3]any // price, total, wide; nil for null
}{
	{`{"id":0,"price":-12.30,"total":99999999999999.9999,"wide":-12345678901234567890123456789012.123456}`,
		[3]any{"-12.30", "99999999999999.9999", "-12345678901234567890123456789012.123456"}},
	{`{"id":1,"price":"0.05","total":"-0.0001","wide":"0.000001"}`, [3]any{"0.05", "-0.0001", "0.000001"}},
	{`{"id":2}`, [3]any{nil, nil, nil}},
	{`{"id":3,"price":9999999.99,"total":0,"wide":99999999999999999999999999999999.999999}`,
		[3]any{"9999999.99", "0.0000", "99999999999999999999999999999999.999999"}},
	{`{"id":4,"price":1.5e2,"total":-999999999999.99,"wide":-99999999999999999999999999999999.999999}`,
		[3]any{"150.00", "-999999999999.9900", "-99999999999999999999999999999999.999999"}},
}

func writeDecimalBatch(t *testing.T, dir, format string) {
	t.Helper()
	w, err := pipeline.New(pipeline.Layout{Format: format, Columns: decimalColumns}, 0, []int{0}, dirOutput{dir})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range decimalRecords {
		if err := w.Write(&providers.Record{Partition: "0", Offset: int64(i), Value: []byte(r.json)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// DuckDB reads decimal columns of Parquet as DECIMAL(p,s) and every digit
// back; of JSONL as the exact number literals (JSON text, not a float's
// rounding); of CSV as the exact text.
func TestDuckDBReadsDecimals(t *testing.T) {
	dirs := map[string]string{}
	for _, f := range []string{"parquet", "jsonl", "csv"} {
		dirs[f] = t.TempDir()
		writeDecimalBatch(t, dirs[f], f)
	}
	glob := func(f string) string { return filepath.Join(dirs[f], "**", "*."+f) }
	res := duckdb(t,
		"SELECT typeof(price), typeof(total), typeof(wide) FROM read_parquet('"+glob("parquet")+"') LIMIT 1",
		"SELECT id::VARCHAR, price::VARCHAR, total::VARCHAR, wide::VARCHAR FROM read_parquet('"+glob("parquet")+"') ORDER BY id",
		// The literal text of each value in each line (DuckDB's JSON
		// functions would turn the numbers into doubles), and that the
		// lines are JSON.
		"SELECT regexp_extract(line, '\"id\":([0-9]+)', 1), regexp_extract(line, '\"price\":([^,}]+)', 1), regexp_extract(line, '\"total\":([^,}]+)', 1), regexp_extract(line, '\"wide\":([^,}]+)', 1)"+
			" FROM read_csv('"+glob("jsonl")+"', columns={'line':'VARCHAR'}, header=false, delim=chr(1), quote='', escape='') WHERE json_valid(line) ORDER BY 1::INT",
		"SELECT id::VARCHAR, price, total, wide FROM read_csv('"+glob("csv")+"', all_varchar=true) ORDER BY id::INT",
		"SELECT id::VARCHAR, price::VARCHAR, total::VARCHAR, wide::VARCHAR FROM read_csv('"+glob("csv")+"', types={'price':'DECIMAL(9,2)','total':'DECIMAL(18,4)','wide':'DECIMAL(38,6)'}) ORDER BY id",
	)
	if got := fmt.Sprint(res[0].Rows[0]); got != "[DECIMAL(9,2) DECIMAL(18,4) DECIMAL(38,6)]" {
		t.Errorf("DuckDB reads the Parquet columns as %s", got)
	}
	for q, name := range []string{"parquet", "jsonl", "csv as text", "csv as decimals"} {
		rows := res[q+1].Rows
		if len(rows) != len(decimalRecords) {
			t.Fatalf("%s: DuckDB reads %d rows, want %d", name, len(rows), len(decimalRecords))
		}
		for i, r := range decimalRecords {
			want := fmt.Sprint(append([]any{fmt.Sprint(i)}, r.texts[:]...))
			if name == "jsonl" && r.texts[0] == nil {
				want = fmt.Sprint([]any{fmt.Sprint(i), "null", "null", "null"}) // JSON nulls
			}
			if got := fmt.Sprint(rows[i]); got != want {
				t.Errorf("%s row %d: DuckDB reads %s, want %s", name, i, got, want)
			}
		}
	}
}
