package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
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
func listedFiles(t *testing.T, dir string, env []string) []string {
	t.Helper()
	var out []string
	for _, f := range listedEntries(t, dir, env) {
		out = append(out, f.Path)
	}
	return out
}

type listedEntry struct {
	Path   string
	SHA256 string
}

func listedEntries(t *testing.T, dir string, env []string) []listedEntry {
	t.Helper()
	r := mustRun(t, dir, 0, env, "files", "-json", "orders")
	var files []listedEntry
	if err := json.Unmarshal([]byte(r.stdout), &files); err != nil {
		t.Fatalf("files -json: %v\n%s", err, r.stdout)
	}
	return files
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

// compactionStore is a destination a compaction crash test runs over.
type compactionStore struct {
	destination string   // its block
	env         []string // for every run
	// fetch makes the files paths (relative to the destination) readable
	// under dir, and returns the folder they are under, relative to dir.
	fetch func(t *testing.T, dir string, paths []string) string
	// data lists the data files the destination holds, as a glob of its
	// partition folders finds them.
	data func(t *testing.T, dir string) []string
}

// TestCompactionCrashLocal kills apply at every fault point of a
// compaction of a local destination: see compactionCrash.
func TestCompactionCrashLocal(t *testing.T) {
	store := compactionStore{
		destination: localDestination("lake", "out"),
		fetch:       func(*testing.T, string, []string) string { return "out" },
		data: func(t *testing.T, dir string) []string {
			found, err := filepath.Glob(filepath.Join(dir, "out", "*", "*.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range found {
				found[i], _ = filepath.Rel(filepath.Join(dir, "out"), f)
			}
			return found
		},
	}
	compactionCrash(t, func() compactionStore { return store }, []string{
		"after-compaction-intent",
		"after-compaction-stage-file:2",
		"after-compaction-promote-file:3",
		"before-compaction-manifest",
		"after-compaction-manifest",
		"after-compaction-delete-file:5",
		"",
	})
}

// TestCompactionCrashS3 is TestCompactionCrashLocal with the destination in
// an S3 bucket (versitygw), where the new files are promoted by copy.
func TestCompactionCrashS3(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	points := []string{
		"after-compaction-intent",
		"after-compaction-stage-file:2",
		"after-promote-file:3",
		"before-compaction-manifest",
		"after-compaction-manifest",
		"after-compaction-delete-file:5",
		"",
	}
	var n atomic.Int64
	compactionCrash(t, func() compactionStore {
		bucket := bucketName("compact-", int(n.Add(1)), "-", "s3")
		srv.CreateBucket(t, bucket)
		store := s3Storage(t, srv, bucket, "lake")
		fetched := 0
		return compactionStore{
			destination: s3Destination(srv, "lake", bucket, "lake"),
			env:         srv.Env(),
			fetch: func(t *testing.T, dir string, paths []string) string {
				fetched++
				root := fmt.Sprintf("fetched-%d", fetched)
				for _, p := range paths {
					data, _, err := providers.ReadAll(context.Background(), store, p)
					if err != nil {
						t.Fatalf("read %s from the bucket: %v", p, err)
					}
					if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, root, p)), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(dir, root, p), data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return root
			},
			data: func(t *testing.T, dir string) []string {
				var keys []string
				err := store.List(context.Background(), "", func(info providers.ObjectInfo) error {
					if strings.Count(info.Key, "/") == 1 && strings.HasPrefix(info.Key, "country=") && strings.HasSuffix(info.Key, ".parquet") {
						keys = append(keys, info.Key)
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				return keys
			},
		}
	}, points)
}

// compactionCrash kills apply at each fault point of a compaction. Right
// after the kill, the files the manifests list hold every record once; the
// next apply finishes the compaction: the manifests list only compacted
// files, DuckDB reads every record once from them and from all the data
// files of the folders (the old ones are deleted), verify finds nothing,
// and plan has nothing left to do.
//
// The compacted files are the same, byte for byte, whichever step the run
// was killed at, and without a kill: they follow from the intent alone.
func compactionCrash(t *testing.T, newStore func() compactionStore, points []string) {
	var mu sync.Mutex
	compacted := map[string]string{} // case → its compacted files and their SHA-256
	t.Run("at", func(t *testing.T) { compactionCrashAt(t, newStore, points, &mu, compacted) })
	var first string
	for fp, files := range compacted {
		if first == "" {
			first = fp
		} else if files != compacted[first] {
			t.Errorf("the compacted files after %q differ from those after %q:\n%s\n%s", fp, first, files, compacted[first])
		}
	}
	if len(compacted) != len(points) && !t.Failed() {
		t.Errorf("%d cases of %d reported their files", len(compacted), len(points))
	}
}

func compactionCrashAt(t *testing.T, newStore func() compactionStore, points []string, mu *sync.Mutex, compacted map[string]string) {
	for _, fp := range points {
		name := strings.ReplaceAll(fp, ":", "_")
		if fp == "" {
			name = "no-fault"
		}
		store := newStore() // a bucket a case on S3
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env := func(extra ...string) []string { return append(slices.Clone(store.env), extra...) }
			dir := writeConfig(t, compactionConfig(store.destination))
			mustRun(t, dir, 0, env(), "apply", "-auto-approve", "-no-color")
			before := listedFiles(t, dir, env())
			if len(before) < 40 {
				t.Fatalf("%d files before the compaction, want 16 batches' worth", len(before))
			}
			// Not due within the hour.
			if r := mustRun(t, dir, 0, env(), "plan", "-no-color", "-detailed-exitcode"); strings.Contains(r.stdout, "compact") {
				t.Fatalf("a compaction is planned before compact_after:\n%s", r.stdout)
			}
			plan := mustRun(t, dir, 2, env(later...), "plan", "-no-color", "-detailed-exitcode")
			if !strings.Contains(plan.stdout, "compact destination lake (compaction 1)") || !strings.Contains(plan.stdout, "country=") {
				t.Fatalf("the plan two hours on does not show the compaction per folder:\n%s", plan.stdout)
			}

			if fp != "" {
				r := run(t, dir, env(append([]string{"STREAMCTL_FAULT=" + fp}, later...)...), "apply", "-auto-approve", "-no-color")
				if !r.killed {
					t.Fatalf("the fault %s was not reached: %s", fp, r)
				}
				during := listedFiles(t, dir, env())
				if got := readListed(t, dir, store.fetch(t, dir, during), during); got != "[[4000 4000]]" {
					t.Errorf("right after the kill, the listed files hold %s (want 4000 records, each once)", got)
				}
				resume := mustRun(t, dir, 2, env(), "plan", "-no-color", "-detailed-exitcode")
				if fp != "after-compaction-intent" && !strings.Contains(resume.stdout, "finish what a run that died began") {
					t.Errorf("the plan after the kill does not say it finishes the compaction:\n%s", resume.stdout)
				}
			}
			mustRun(t, dir, 0, env(later...), "apply", "-auto-approve", "-no-color")

			after := listedFiles(t, dir, env())
			for _, f := range after {
				if !strings.Contains(f, "/compact-00000001-") {
					t.Errorf("listed after the compaction: %s, want compacted files only", f)
				}
			}
			if len(after) >= len(before)/2 {
				t.Errorf("%d files after, %d before: want far fewer", len(after), len(before))
			}
			if got := readListed(t, dir, store.fetch(t, dir, after), after); got != "[[4000 4000]]" {
				t.Errorf("the listed files hold %s (want 4000 records, each once)", got)
			}
			all := store.data(t, dir)
			if got := readListed(t, dir, store.fetch(t, dir, all), all); got != "[[4000 4000]]" {
				t.Errorf("all the data files of the folders hold %s (want 4000 records, each once: the old files deleted)", got)
			}
			mustRun(t, dir, 0, env(), "verify", "-no-color", "orders")
			mustRun(t, dir, 0, env(later...), "plan", "-no-color", "-detailed-exitcode")
			mu.Lock()
			compacted[fp] = fmt.Sprint(listedEntries(t, dir, env()))
			mu.Unlock()
		})
	}
}

// BenchmarkCompaction: a day of minute batches (1,440 batches of 100
// records, one small Parquet file each) read with DuckDB before and after a
// compaction into one file, the compaction's time, and DuckDB writing the
// same rows into one file, for comparison. DuckDB's figures are wall
// times of one node process each, start included: duckdb-start-ms is that
// of a query reading nothing.
func BenchmarkCompaction(b *testing.B) {
	if raceEnabled {
		b.Skip("figures under the race detector mean nothing")
	}
	hcl := strings.NewReplacer(
		"partitions            = 4", "partitions            = 1",
		"records_per_partition = 1000", "records_per_partition = 144000",
		`  partition_by = ["country"]`+"\n", "",
		"max_records = 250", "max_records = 100",
		`target_file_size = "48KB"`, `target_file_size = "128MB"`,
	).Replace(compactionConfig(localDestination("lake", "out")))
	const read = "SELECT count(*), count(DISTINCT id), sum(amount) > 0 FROM read_parquet('out/*.parquet')"
	query := func(dir, sql string) time.Duration {
		start := time.Now()
		testenv.DuckDB(b, dir, sql)
		return time.Since(start)
	}
	var filesBefore, filesAfter int
	var readBefore, readAfter, compact, rewrite, startup []time.Duration
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
			b.Fatal(err)
		}
		if out, err := command(dir, nil, "apply", "-auto-approve", "-no-color").CombinedOutput(); err != nil {
			b.Fatalf("apply: %v\n%s", err, out)
		}
		before, _ := filepath.Glob(filepath.Join(dir, "out", "*.parquet"))
		filesBefore = len(before)
		startup = append(startup, query(dir, "SELECT 1"))
		readBefore = append(readBefore, query(dir, read))
		rewrite = append(rewrite, query(dir, "COPY (SELECT * FROM read_parquet('out/*.parquet')) TO 'rewritten.parquet' (FORMAT parquet, COMPRESSION zstd)"))
		b.StartTimer()
		start := time.Now()
		if out, err := command(dir, later, "apply", "-auto-approve", "-no-color").CombinedOutput(); err != nil {
			b.Fatalf("apply two hours on: %v\n%s", err, out)
		}
		compact = append(compact, time.Since(start))
		b.StopTimer()
		after, _ := filepath.Glob(filepath.Join(dir, "out", "*.parquet"))
		filesAfter = len(after)
		readAfter = append(readAfter, query(dir, read))
		if got := fmt.Sprint(testenv.DuckDB(b, dir, read)[0].Rows); got != "[[144000 144000 true]]" {
			b.Fatalf("after the compaction DuckDB reads %s", got)
		}
		b.StartTimer()
	}
	ms := func(d []time.Duration) float64 { return float64(medianDuration(d).Microseconds()) / 1000 }
	b.ReportMetric(float64(filesBefore), "files-before")
	b.ReportMetric(float64(filesAfter), "files-after")
	b.ReportMetric(ms(startup), "duckdb-start-ms")
	b.ReportMetric(ms(readBefore), "read-ms-before")
	b.ReportMetric(ms(readAfter), "read-ms-after")
	b.ReportMetric(ms(compact), "compact-apply-ms")
	b.ReportMetric(ms(rewrite), "duckdb-rewrite-ms")
	b.ReportMetric(0, "ns/op")
}
