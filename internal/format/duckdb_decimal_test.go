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

// DuckDB reads the nested columns of Parquet and JSONL as the declared
// structs, lists and maps, with the values normalised to their types, nulls
// at every level and empty lists and maps apart from null.
func TestDuckDBReadsNested(t *testing.T) {
	for _, f := range []string{"parquet", "jsonl"} {
		t.Run(f, func(t *testing.T) { testDuckDBReadsNested(t, f) })
	}
}

func testDuckDBReadsNested(t *testing.T, fileFormat string) {
	dir := t.TempDir()
	cols := []format.Column{
		{Name: "id", Type: "int64"},
		{Name: "addr", Type: "struct<city:string,zip:int32,geo:struct<lat:double,lon:double>>", From: "customer.address"},
		{Name: "items", Type: "list<struct<sku:string,qty:int32,price:decimal(10,2)>>"},
		{Name: "attrs", Type: "map<string,int64>"},
		{Name: "tags", Type: "list<string>"},
	}
	w, err := pipeline.New(pipeline.Layout{Format: fileFormat, Columns: cols}, 0, []int{0}, dirOutput{dir})
	if err != nil {
		t.Fatal(err)
	}
	records := []string{
		`{"id":1,"customer":{"address":{"zip":10115,"city":"Berlin","geo":{"lon":13.4,"lat":52.5},"x":1}},"items":[{"sku":"a","qty":2,"price":"9.5"},{"sku":"b","qty":1,"price":0.05}],"attrs":{"z":1,"a":2},"tags":["x","y"]}`,
		`{"id":2,"customer":{"address":{"city":"Köln"}},"items":[],"attrs":{},"tags":[]}`,
		`{"id":3}`,
		`{"id":4,"customer":{"address":{"geo":{"lat":null}}},"items":[null,{"sku":null}],"attrs":{"k":null},"tags":[null,"z"]}`,
	}
	for i, r := range records {
		if err := w.Write(&providers.Record{Partition: "0", Offset: int64(i), Value: []byte(r)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	src := "read_parquet('" + filepath.Join(dir, "*.parquet") + "')"
	if fileFormat == "jsonl" {
		src = "read_json('" + filepath.Join(dir, "*.jsonl") + "', columns={'id':'BIGINT','addr':'STRUCT(city VARCHAR, zip INTEGER, geo STRUCT(lat DOUBLE, lon DOUBLE))'," +
			"'items':'STRUCT(sku VARCHAR, qty INTEGER, price DECIMAL(10,2))[]','attrs':'MAP(VARCHAR, BIGINT)','tags':'VARCHAR[]'})"
	}
	res := duckdb(t, "SELECT typeof(addr), typeof(items), typeof(attrs), typeof(tags) FROM "+src+" LIMIT 1", "SELECT id::VARCHAR, addr.city, addr.zip::VARCHAR, addr.geo.lat::VARCHAR, len(items)::VARCHAR, items[1].sku, items[1].price::VARCHAR, items[2].price::VARCHAR,"+
		" attrs['a']::VARCHAR, map_keys(attrs)::VARCHAR, tags::VARCHAR, addr IS NULL, items IS NULL FROM "+src+" ORDER BY id")
	want := fmt.Sprint([][]any{
		{"1", "Berlin", "10115", "52.5", "2", "a", "9.50", "0.05", "2", "[z, a]", "[x, y]", false, false},
		{"2", "Köln", nil, nil, "0", nil, nil, nil, nil, "[]", "[]", false, false},
		{"3", nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, true, true},
		{"4", nil, nil, nil, "2", nil, nil, nil, nil, "[k]", "[NULL, z]", false, false},
	})
	if got, want := fmt.Sprint(res[0].Rows), "[[STRUCT(city VARCHAR, zip INTEGER, geo STRUCT(lat DOUBLE, lon DOUBLE)) STRUCT(sku VARCHAR, qty INTEGER, price DECIMAL(10,2))[] MAP(VARCHAR, BIGINT) VARCHAR[]]]"; got != want {
		t.Errorf("DuckDB reads the types %s, want %s", got, want)
	}
	if got := fmt.Sprint(res[1].Rows); got != want {
		t.Errorf("DuckDB reads\n%s\nwant\n%s", got, want)
	}
}
