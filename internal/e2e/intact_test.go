package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 17 end to end: records whose values readers would not read back
// are rejected with the reason, the manifest counts them, and DuckDB's
// glob of the data reads only the data, every value as written.
func TestRejectedValuesStayOutOfTheData(t *testing.T) {
	dir := writeConfig(t, `
source "files" "in" {
  path = "in/*.jsonl"
}

sink "events" {
  source       = source.files.in
  format       = "jsonl"
  on_invalid   = "reject"
  partition_by = ["c"]

  column "id" {
    type     = "int64"
    nullable = false
  }
  column "c" {
    type = "string"
  }
  column "ts" {
    type = "timestamp"
  }

  destination "local" "a" {
    path = "out/a"
  }
}
`)
	lines := []string{
		`{"id":0,"c":"de","ts":"2026-01-02T03:04:05Z"}`,
		`{"id":1,"c":"d` + "\xff" + `"}`,
		`{"id":2,"c":"\ud800"}`,
		`{"id":3,"c":"fr","ts":253402300800000}`,
		`{"id":4,"c":"` + strings.Repeat("x", 201) + `"}`,
		`{"id":5,"c":"__HIVE_DEFAULT_PARTITION__"}`,
		`{"id":6,"c":"fr","ts":"9999-12-31T23:59:59.999Z"}`,
	}
	if err := os.MkdirAll(filepath.Join(dir, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "in", "a.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")

	var m struct {
		Records  int64 `json:"records"`
		Rejected int64 `json:"rejected"`
		Files    []struct {
			Path string `json:"path"`
		} `json:"files"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "out", "a", "_streamctl", "events", "0.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Records != 2 || m.Rejected != 5 {
		t.Errorf("manifest: %d records, %d rejected; want 2 and 5", m.Records, m.Rejected)
	}
	var paths []string
	for _, f := range m.Files {
		paths = append(paths, f.Path)
	}
	if got, want := strings.Join(paths, " "), "_streamctl/_rejected/part-00000000-00000.ndjson c=de/part-00000000-00000.jsonl c=fr/part-00000000-00000.jsonl"; got != want {
		t.Errorf("manifest files: %s, want %s", got, want)
	}

	rows := duckdb(t, dir, "SELECT id::VARCHAR, c, strftime(ts, '%Y-%m-%dT%H:%M:%S.%g') FROM read_json('out/a/**/*.jsonl', hive_partitioning = true, columns = {'id': 'BIGINT', 'ts': 'TIMESTAMPTZ'}) ORDER BY id")
	if got := fmt.Sprint(rows); got != "[[0 de 2026-01-02T03:04:05.000] [6 fr 9999-12-31T23:59:59.999]]" {
		t.Errorf("DuckDB reads %s", got)
	}
	rows = duckdb(t, dir, "SELECT \"offset\"::VARCHAR, reason FROM read_json('out/a/_streamctl/_rejected/*.ndjson') ORDER BY \"offset\"")
	want := []string{
		`column "c": invalid UTF-8 at byte 1 of its value`,
		`column "c": lone surrogate \ud800`,
		`column "ts": 253402300800000 is outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z`,
		`column "c": the value is 201 bytes as a folder name (escaped); a folder takes at most 200`,
		`column "c": "__HIVE_DEFAULT_PARTITION__" is the folder name of a null value`,
	}
	if len(rows) != len(want) {
		t.Fatalf("rejects %v, want %d", rows, len(want))
	}
	for i, r := range rows {
		if !strings.HasPrefix(fmt.Sprint(r[1]), want[i]) {
			t.Errorf("reject %v: want the reason %q", r, want[i])
		}
	}
}

// validate points at a column that readers would shadow with a folder.
func TestValidateRefusesAColumnNamedLikeAFolder(t *testing.T) {
	dir := writeConfig(t, `source "generate" "orders" {
  records_per_partition = 10
}

sink "orders" {
  source       = source.generate.orders
  format       = "parquet"
  partition_by = ["day(ts)"]

  column "ts"     { type = "timestamp" }
  column "ts_day" { type = "string" }

  destination "local" "a" {
    path = "out/a"
  }
}
`)
	r := mustRun(t, dir, 1, nil, "validate", "-no-color")
	for _, want := range []string{"Error: Ambiguous output name", "main.hcl line 11", `column "ts_day": partition_by "day(ts)" writes folders named ts_day`} {
		if !strings.Contains(unwrap(r.stderr), want) {
			t.Errorf("stderr lacks %q:\n%s", want, r)
		}
	}
}
