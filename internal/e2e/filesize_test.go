package e2e

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fileSizeConfig is parquetConfig's stream into one local destination,
// with files of at most maxFileSize.
func fileSizeConfig(format, maxFileSize string) string {
	cfg := strings.Replace(parquetConfig(format), `route_by     = "customer_id"`, fmt.Sprintf("max_file_size = %q", maxFileSize), 1)
	return strings.Replace(cfg, `
  destination "local" "b" {
    path = "out/b"
  }`, "", 1)
}

// TestMaxFileSize: with max_file_size, each partition folder's batch is cut
// into files near the size (Parquet: within a tenth, between row groups;
// CSV: at least the size, every file but the folder's last), DuckDB reads
// every record once from them, and a run killed while promoting them, then
// resumed, leaves the same files byte for byte as a run never killed: the
// cut depends on the records only.
func TestMaxFileSize(t *testing.T) {
	for _, tc := range []struct {
		format, size string
		bytes        int64
		read         string
	}{
		{"parquet", "16KB", 16000, "read_parquet('out/a/*/*.parquet', hive_partitioning = true)"},
		{"csv", "8KiB", 8192, "read_csv('out/a/*/*.csv', hive_partitioning = true, header = true)"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			t.Parallel()
			clean := writeConfig(t, fileSizeConfig(tc.format, tc.size))
			mustRun(t, clean, 0, nil, "apply", "-auto-approve", "-no-color")
			files := dataTree(t, filepath.Join(clean, "out", "a"))

			perFolder := map[string][]string{}
			for rel := range files {
				perFolder[filepath.Dir(rel)] = append(perFolder[filepath.Dir(rel)], rel)
			}
			if len(files) < 4*len(perFolder) {
				t.Fatalf("%d files in %d folders: want several a folder", len(files), len(perFolder))
			}
			for _, names := range perFolder {
				slices.Sort(names)
				for i, n := range names {
					last := i == len(names)-1 || !strings.HasPrefix(names[i+1], n[:len(n)-len("00000.")-len(tc.format)])
					size := int64(len(files[n]))
					switch {
					case tc.format == "parquet" && (size > tc.bytes*11/10 || !last && size < tc.bytes*9/10):
						t.Errorf("%s: %d bytes, want %d ± 10%%", n, size, tc.bytes)
					case tc.format == "csv" && !last && size < tc.bytes:
						t.Errorf("%s: %d bytes, want at least %d", n, size, tc.bytes)
					}
				}
			}
			rows := duckdb(t, clean, "SELECT count(*), count(DISTINCT id) FROM "+tc.read)
			if got := fmt.Sprint(rows); got != "[[20000 20000]]" {
				t.Errorf("DuckDB over the files: %s (want 20000 records, each once)", got)
			}

			crashed := writeConfig(t, fileSizeConfig(tc.format, tc.size))
			if r := run(t, crashed, []string{"STREAMCTL_FAULT=after-promote-file:9"}, "apply", "-auto-approve", "-no-color"); !r.killed {
				t.Fatalf("the fault was not reached: %s", r)
			}
			mustRun(t, crashed, 0, nil, "apply", "-auto-approve", "-no-color")
			again := dataTree(t, filepath.Join(crashed, "out", "a"))
			if !maps.Equal(files, again) {
				t.Errorf("after a kill and a resumed apply, %d files differ from a run never killed (%d and %d files)",
					countDiff(files, again), len(files), len(again))
			}
		})
	}
}

func countDiff(a, b map[string]string) int {
	n := 0
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			n++
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			n++
		}
	}
	return n
}
