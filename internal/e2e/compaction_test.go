package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compactionConfig is a generated stream of 4,000 records as Parquet in
// country folders, in batches of 250 (small files), with maintenance that
// compacts them into files of 48 KB an hour after their commit.
func compactionConfig(destination string) string {
	return `
source "generate" "orders" {
  partitions            = 4
  records_per_partition = 1000
  payload_bytes         = 8
}

sink "orders" {
  source       = source.generate.orders
  format       = "parquet"
  partition_by = ["country"]

  batch {
    max_records = 250
  }

  maintenance {
    target_file_size = "48KB"
    compact_after    = "1h"
  }

  column "id"          { type = "int64" }
  column "partition"   { type = "int32" }
  column "offset"      { type = "int64" }
  column "ts"          { type = "timestamp" }
  column "customer_id" { type = "int64" }
  column "country"     { type = "string" }
  column "amount"      { type = "double" }
  column "note"        { type = "string" }
` + destination + `}
`
}

// later is the environment of a run two hours on: the batches are due.
var later = []string{"STREAMCTL_TEST_CLOCK_SKEW=2h"}

// listedFiles is what `streamctl files -json` lists: the files readers
// through the manifests read.
func listedFiles(t *testing.T, dir string) []string {
	t.Helper()
	r := mustRun(t, dir, 0, nil, "files", "-json", "orders")
	var files []struct{ Path string }
	if err := json.Unmarshal([]byte(r.stdout), &files); err != nil {
		t.Fatalf("files -json: %v\n%s", err, r.stdout)
	}
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Path
	}
	return out
}

// readListed has DuckDB count the records and distinct ids of the files
// listed, under root (relative to dir).
func readListed(t *testing.T, dir, root string, files []string) string {
	t.Helper()
	quoted := make([]string, len(files))
	for i, f := range files {
		quoted[i] = "'" + filepath.Join(root, f) + "'"
	}
	return fmt.Sprint(duckdb(t, dir, fmt.Sprintf("SELECT count(*), count(DISTINCT id) FROM read_parquet([%s], hive_partitioning = true)", strings.Join(quoted, ", "))))
}

// TestCompactionCrashLocal kills apply at every fault point of a
// compaction of a local destination. Right after the kill, the files the
// manifests list hold every record once; the next apply finishes the
// compaction: the manifests list only compacted files, DuckDB reads every
// record once from them and from a glob of the folders (the old files are
// deleted), verify finds nothing, and plan has nothing left to do.
func TestCompactionCrashLocal(t *testing.T) {
	for _, fp := range []string{
		"after-compaction-intent",
		"after-compaction-stage-file:2",
		"after-compaction-promote-file:3",
		"before-compaction-manifest",
		"after-compaction-manifest",
		"after-compaction-delete-file:5",
		"",
	} {
		name := strings.ReplaceAll(fp, ":", "_")
		if fp == "" {
			name = "no-fault"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := writeConfig(t, compactionConfig(localDestination("lake", "out")))
			mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
			before := listedFiles(t, dir)
			if len(before) < 40 {
				t.Fatalf("%d files before the compaction, want 16 batches' worth", len(before))
			}
			// Not due within the hour.
			if r := mustRun(t, dir, 0, nil, "plan", "-no-color", "-detailed-exitcode"); strings.Contains(r.stdout, "compact") {
				t.Fatalf("a compaction is planned before compact_after:\n%s", r.stdout)
			}
			plan := mustRun(t, dir, 2, later, "plan", "-no-color", "-detailed-exitcode")
			if !strings.Contains(plan.stdout, "compact destination lake (compaction 1)") || !strings.Contains(plan.stdout, "country=") {
				t.Fatalf("the plan two hours on does not show the compaction per folder:\n%s", plan.stdout)
			}

			if fp != "" {
				r := run(t, dir, append([]string{"STREAMCTL_FAULT=" + fp}, later...), "apply", "-auto-approve", "-no-color")
				if !r.killed {
					t.Fatalf("the fault %s was not reached: %s", fp, r)
				}
				during := listedFiles(t, dir)
				if got := readListed(t, dir, "out", during); got != "[[4000 4000]]" {
					t.Errorf("right after the kill, the listed files hold %s (want 4000 records, each once)", got)
				}
				resume := mustRun(t, dir, 2, nil, "plan", "-no-color", "-detailed-exitcode")
				if fp != "after-compaction-intent" && !strings.Contains(resume.stdout, "finish what a run that died began") {
					t.Errorf("the plan after the kill does not say it finishes the compaction:\n%s", resume.stdout)
				}
			}
			mustRun(t, dir, 0, later, "apply", "-auto-approve", "-no-color")

			after := listedFiles(t, dir)
			for _, f := range after {
				if !strings.Contains(f, "/compact-00000001-") {
					t.Errorf("listed after the compaction: %s, want compacted files only", f)
				}
			}
			if len(after) >= len(before)/2 {
				t.Errorf("%d files after, %d before: want far fewer", len(after), len(before))
			}
			if got := readListed(t, dir, "out", after); got != "[[4000 4000]]" {
				t.Errorf("the listed files hold %s (want 4000 records, each once)", got)
			}
			if got := fmt.Sprint(duckdb(t, dir, "SELECT count(*), count(DISTINCT id) FROM read_parquet('out/*/*.parquet', hive_partitioning = true)")); got != "[[4000 4000]]" {
				t.Errorf("a glob of the folders reads %s (want 4000 records, each once: the old files deleted)", got)
			}
			if _, err := os.Stat(filepath.Join(dir, "out", "_temporary")); err == nil {
				entries, _ := os.ReadDir(filepath.Join(dir, "out", "_temporary"))
				if len(entries) > 0 {
					t.Errorf("_temporary holds %d entries after the compaction", len(entries))
				}
			}
			mustRun(t, dir, 0, nil, "verify", "-no-color", "orders")
			mustRun(t, dir, 0, later, "plan", "-no-color", "-detailed-exitcode")
		})
	}
}
