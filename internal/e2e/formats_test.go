package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
)

// parquetConfig writes a generated stream as Parquet partitioned by country
// and routed by customer_id across two local destinations.
func parquetConfig(format string) string {
	compression := ""
	if format == "parquet" {
		compression = `compression = "zstd"`
	}
	return fmt.Sprintf(`
source "generate" "orders" {
  partitions            = 4
  records_per_partition = 5000
  payload_bytes         = 8
}

sink "orders" {
  source       = source.generate.orders
  format       = %q
  %s
  partition_by = ["country"]
  route_by     = "customer_id"

  batch {
    max_records = 7000
  }

  column "id"          { type = "int64" }
  column "partition"   { type = "int32" }
  column "offset"      { type = "int64" }
  column "ts"          { type = "timestamp" }
  column "customer_id" { type = "int64" }
  column "country"     { type = "string" }
  column "amount"      { type = "double" }
  column "note"        { type = "string" }

  destination "local" "a" {
    path = "out/a"
  }
  destination "local" "b" {
    path = "out/b"
  }
}
`, format, compression)
}

// duckdb runs one SQL query with DuckDB, the independent reader, and returns
// its rows.
func duckdb(t *testing.T, dir, sql string) [][]any {
	t.Helper()
	return testenv.DuckDB(t, dir, sql)[0].Rows
}

// dataTree maps each data file (outside _streamctl) to its bytes.
func dataTree(t *testing.T, root string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || strings.Contains(p, "_streamctl") {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestParquetRoutedPartitionedExactlyOnceAndDeterministic(t *testing.T) {
	t.Parallel()
	dir1 := writeConfig(t, parquetConfig("parquet"))
	dir2 := writeConfig(t, parquetConfig("parquet"))
	mustRun(t, dir1, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir2, 0, nil, "apply", "-auto-approve", "-no-color")

	t1, t2 := dataTree(t, filepath.Join(dir1, "out")), dataTree(t, filepath.Join(dir2, "out"))
	if len(t1) == 0 || len(t1) != len(t2) {
		t.Fatalf("trees have %d and %d files", len(t1), len(t2))
	}
	for name, data := range t1 {
		if t2[name] != data {
			t.Errorf("%s differs between two applies of the same ranges", name)
		}
		if !strings.Contains(name, "country=") {
			t.Errorf("%s is not in a Hive partition folder", name)
		}
	}

	rows := duckdb(t, dir1, `SELECT count(*), count(DISTINCT id), count(DISTINCT country), min(amount) >= 0, max(ts) FROM read_parquet('out/*/**/*.parquet', hive_partitioning = true)`)
	if got := fmt.Sprint(rows); got != "[[20000 20000 8 true 2026-01-01 01:23:19+00]]" {
		t.Errorf("DuckDB over both destinations: %s (want 20000 records, each id once, 8 countries)", got)
	}
	rows = duckdb(t, dir1, `SELECT count(*) FROM (SELECT id FROM read_parquet('out/a/**/*.parquet') INTERSECT SELECT id FROM read_parquet('out/b/**/*.parquet'))`)
	if fmt.Sprint(rows) != "[[0]]" {
		t.Errorf("ids routed to both destinations: %v", rows)
	}
	rows = duckdb(t, dir1, `SELECT count(*) > 0 FROM read_parquet('out/a/**/*.parquet')`)
	if fmt.Sprint(rows) != "[[true]]" {
		t.Errorf("destination a got no records: routing sends everything to b")
	}
}

func TestCSVOutputReadByDuckDB(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, parquetConfig("csv"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	rows := duckdb(t, dir, `SELECT count(*), count(DISTINCT id), count(DISTINCT country) FROM read_csv('out/*/**/*.csv', hive_partitioning = true, header = true)`)
	if got := fmt.Sprint(rows); got != "[[20000 20000 8]]" {
		t.Errorf("DuckDB over the CSV output: %s", got)
	}
}

// TestParquetCrashRecovery kills apply while it writes routed, partitioned
// Parquet: the retry rewrites identical files, so each id is once in the union.
func TestParquetCrashRecovery(t *testing.T) {
	for _, fp := range []string{"after-stage-file:3", "after-promote-file:5", "after-manifest:1"} {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			dir := writeConfig(t, parquetConfig("parquet"))
			r := run(t, dir, []string{"STREAMCTL_FAULT=" + fp}, "apply", "-auto-approve", "-no-color")
			if !r.killed {
				t.Fatalf("the fault %s was not reached: %s", fp, r)
			}
			mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
			mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
			rows := duckdb(t, dir, `SELECT count(*), count(DISTINCT id) FROM read_parquet('out/*/**/*.parquet', hive_partitioning = true)`)
			if got := fmt.Sprint(rows); got != "[[20000 20000]]" {
				t.Errorf("after recovery: %s (want 20000 records, each once)", got)
			}
			for _, d := range []string{"a", "b"} {
				if _, err := os.Stat(filepath.Join(dir, "out", d, "_temporary")); !os.IsNotExist(err) {
					t.Errorf("%s: _temporary remains", d)
				}
			}
		})
	}
}
