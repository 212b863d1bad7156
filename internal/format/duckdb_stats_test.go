package format_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/format"
)

// DuckDB reads the byte-array statistics as bounds it can prune with: an
// empty min is there, truncated bounds say they are not exact, a long
// value that was the min or max for a while costs nothing, and filters on
// empty, long and multi-byte strings skip no row group that holds a match.
func TestDuckDBStringStatistics(t *testing.T) {
	long := strings.Repeat
	groups := [][]string{
		{"", "b", "", "a"},
		{"m", long("n", 300), "z", "\x00null"},
		{"a", long("x", 300), "c", "d"},
		{"q", long("ü", 200), "r", "s"},
		{"y", long("\U0010FFFF", 100), "y", "y"},
	}
	type stats struct{ min, max, minExact, maxExact string }
	want := []stats{
		{"", "b", "true", "true"},
		{"m", "z", "true", "true"},
		{"a", long("x", 255) + "y", "true", "false"},
		{"q", long("ü", 127) + "ý", "true", "false"},
		{"<nil>", "<nil>", "<nil>", "<nil>"}, // no bound above U+10FFFF…
	}
	s, err := format.NewSchema([]format.Column{{Name: "s", Type: "string"}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := format.NewFormat(s, format.Options{Format: format.Parquet, RowGroupRecords: 4})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := f.NewEncoder(&buf)
	var all []string
	for _, g := range groups {
		for _, v := range g {
			val := format.Value{Bytes: []byte(v), Token: format.TokString}
			if v == "\x00null" {
				val = format.Value{Null: true}
			} else {
				all = append(all, v)
			}
			if err := enc.Append(nil, []format.Value{val}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	filters := []struct {
		sql  string
		keep func(string) bool
	}{
		{"s = ''", func(v string) bool { return v == "" }},
		{"s > repeat('x', 300)", func(v string) bool { return v > long("x", 300) }},
		{"s = repeat('x', 300)", func(v string) bool { return v == long("x", 300) }},
		{"s >= repeat('n', 300) AND s < 'o'", func(v string) bool { return v >= long("n", 300) && v < "o" }},
		{"s = repeat('ü', 200)", func(v string) bool { return v == long("ü", 200) }},
		{"s > repeat('ü', 199)", func(v string) bool { return v > long("ü", 199) }},
		{"s = repeat(chr(1114111), 100)", func(v string) bool { return v == long("\U0010FFFF", 100) }},
	}
	sql := []string{fmt.Sprintf(`SELECT row_group_id, stats_min_value, stats_max_value, min_is_exact::VARCHAR, max_is_exact::VARCHAR
		FROM parquet_metadata('%s') ORDER BY row_group_id`, path)}
	for _, flt := range filters {
		sql = append(sql, fmt.Sprintf("SELECT count(*)::VARCHAR FROM read_parquet('%s') WHERE %s", path, flt.sql))
	}
	res := duckdb(t, sql...)
	if len(res[0].Rows) != len(groups) {
		t.Fatalf("DuckDB reads %d row groups, want %d", len(res[0].Rows), len(groups))
	}
	for g, row := range res[0].Rows {
		got := stats{fmt.Sprint(row[1]), fmt.Sprint(row[2]), fmt.Sprint(row[3]), fmt.Sprint(row[4])}
		if got != want[g] {
			t.Errorf("row group %d: DuckDB reads min %.30q max %.30q exact %s %s, want %.30q %.30q %s %s",
				g, got.min, got.max, got.minExact, got.maxExact, want[g].min, want[g].max, want[g].minExact, want[g].maxExact)
		}
	}
	for i, flt := range filters {
		n := 0
		for _, v := range all {
			if flt.keep(v) {
				n++
			}
		}
		if got := fmt.Sprint(res[i+1].Rows[0][0]); got != fmt.Sprint(n) {
			t.Errorf("WHERE %s: DuckDB counts %s rows, want %d", flt.sql, got, n)
		}
	}
}
