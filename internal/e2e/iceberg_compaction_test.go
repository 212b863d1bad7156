package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
)

// compactionTable is a destination with an Iceberg table that a compaction
// crash test runs over.
type compactionTable struct {
	destination string   // its block, named "lake"
	env         []string // for every run
	// location is the table's root; props its file IO's properties.
	location string
	props    map[string]string
	// catalog is the SQL catalog's URI, under the test's folder dir.
	catalog func(dir string) string
	// store is the destination's storage, under dir.
	store func(t *testing.T, dir string) providers.Storage
}

// localCompactionTable is the destination "lake" on local disk (dir/out),
// its Iceberg table's SQLite catalog in that folder.
func localCompactionTable(dir string) compactionTable {
	root := filepath.Join(dir, "out")
	return compactionTable{
		destination: `
  destination "local" "lake" {
    path = "out"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
  }
`,
		location: "file://" + filepath.ToSlash(root),
		catalog:  func(string) string { return "" },
		store:    func(*testing.T, string) providers.Storage { return local.New(root) },
	}
}

// s3CompactionTable is the destination "lake" in bucket of srv (versitygw),
// the table under lake/orders, its catalog a SQLite file beside the
// configuration.
func s3CompactionTable(srv *testenv.S3Server, bucket string) compactionTable {
	return compactionTable{
		destination: s3TableDestination(srv, "lake", bucket, "lake/orders", remoteTableBlock),
		env:         srv.Env(),
		location:    "s3://" + bucket + "/lake/orders",
		props:       s3TableProps(srv),
		catalog:     func(dir string) string { return filepath.Join(dir, "catalog.db") },
		store: func(t *testing.T, _ string) providers.Storage {
			return s3Storage(t, srv, bucket, "lake/orders")
		},
	}
}

// compactionTableColumns are compactionConfig's columns.
var compactionTableColumns = []format.Column{
	{Name: "id", Type: "int64"}, {Name: "partition", Type: "int32"}, {Name: "offset", Type: "int64"},
	{Name: "ts", Type: "timestamp"}, {Name: "customer_id", Type: "int64"}, {Name: "country", Type: "string"},
	{Name: "amount", Type: "double"}, {Name: "note", Type: "string"},
}

// TestIcebergCompactCrashLocal kills apply at every fault point of a
// compaction of a local destination with an Iceberg table (its SQLite
// catalog in the destination's folder): see icebergCompactionCrash.
func TestIcebergCompactCrashLocal(t *testing.T) {
	icebergCompactionCrash(t, localCompactionTable, []string{
		"after-compaction-intent",
		"after-compaction-stage-file:2",
		"after-compaction-promote-file:3",
		"before-compaction-table-commit",
		"table-catalog-commit",
		"after-compaction-table-commit",
		"before-compaction-manifest",
		"after-compaction-manifest",
		"",
	})
}

// TestIcebergCompactCrashS3 is TestIcebergCompactCrashLocal with the table
// in an S3 bucket (versitygw), its catalog a SQLite file beside the
// configuration; the new files are promoted by copy.
func TestIcebergCompactCrashS3(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	var n atomic.Int64
	icebergCompactionCrash(t, func(string) compactionTable {
		bucket := bucketName("icecompact-", int(n.Add(1)), "-", "s3")
		srv.CreateBucket(t, bucket)
		return s3CompactionTable(srv, bucket)
	}, []string{
		"after-compaction-intent",
		"after-compaction-stage-file:2",
		"after-promote-file:3",
		"before-compaction-table-commit",
		"table-catalog-commit",
		"after-compaction-table-commit",
		"before-compaction-manifest",
		"after-compaction-manifest",
		"",
	})
}

// icebergCompactionCrash kills apply at each fault point of a compaction
// of a destination with an Iceberg table. Right after the kill, iceberg-go's
// scan of the table and the files the manifests list each hold every record
// once (the table has the old files or the new, never both). The next apply
// finishes the compaction: the table's last snapshot is one replace that
// records it, iceberg-go's scan and DuckDB over the files the scan lists
// read every record once, the manifests list only compacted files, verify
// finds nothing, and plan has nothing left to do.
func icebergCompactionCrash(t *testing.T, newTable func(dir string) compactionTable, points []string) {
	for _, fp := range points {
		name := strings.ReplaceAll(fp, ":", "_")
		if fp == "" {
			name = "no-fault"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tc := newTable(dir)
			env := func(extra ...string) []string { return append(append([]string{}, tc.env...), extra...) }
			writeConfigIn(t, dir, compactionConfig(tc.destination))
			mustRun(t, dir, 0, env(), "apply", "-auto-approve", "-no-color")
			before := listedFiles(t, dir, env())
			plan := mustRun(t, dir, 2, env(later...), "plan", "-no-color", "-detailed-exitcode")
			if !strings.Contains(plan.stdout, "compact destination lake (compaction 1)") || !strings.Contains(plan.stdout, "committed to iceberg table lake.orders as one replace snapshot") {
				t.Fatalf("the plan two hours on does not show the table's compaction:\n%s", plan.stdout)
			}
			want := expectedIDs(4, 1000)
			if fp != "" {
				r := run(t, dir, env(append([]string{"STREAMCTL_FAULT=" + fp}, later...)...), "apply", "-auto-approve", "-no-color")
				if !r.killed {
					t.Fatalf("the fault %s was not reached: %s", fp, r)
				}
				checkCompactedTable(t, dir, tc, want, false)
				during := listedFiles(t, dir, env())
				duckdbOverStoredFiles(t, dir, tc.store(t, dir), tc.location, prefixed(tc.location, during), len(want))
			}
			mustRun(t, dir, 0, env(later...), "apply", "-auto-approve", "-no-color")
			checkCompactedTable(t, dir, tc, want, true)
			after := listedFiles(t, dir, env())
			for _, f := range after {
				if !strings.Contains(f, "/compact-00000001-") {
					t.Errorf("listed after the compaction: %s, want compacted files only", f)
				}
			}
			if len(after) >= len(before)/2 {
				t.Errorf("%d files after, %d before: want far fewer", len(after), len(before))
			}
			mustRun(t, dir, 0, env(), "verify", "-no-color", "orders")
			if fp == "table-catalog-commit" {
				// The killed commit's manifests and manifest list, older
				// than the table's last commit and than an hour on the
				// skewed clock, are orphans now; the next apply removes
				// them, and nothing else.
				r := mustRun(t, dir, 2, env(later...), "plan", "-no-color", "-detailed-exitcode")
				for _, line := range strings.Split(r.stdout, "\n") {
					if strings.HasPrefix(strings.TrimSpace(line), "~") || strings.HasPrefix(strings.TrimSpace(line), "+") {
						t.Errorf("after the recovery, the plan does more than remove the failed commit's files: %s", line)
					}
				}
				if !strings.Contains(r.stdout, "remove orphan metadata file") {
					t.Errorf("after the recovery, the plan removes no orphan of the killed commit:\n%s", r.stdout)
				}
				mustRun(t, dir, 0, env(later...), "apply", "-auto-approve", "-no-color")
			}
			mustRun(t, dir, 0, env(later...), "plan", "-no-color", "-detailed-exitcode")
		})
	}
}

func prefixed(prefix string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = prefix + "/" + p
	}
	return out
}

// writeConfigIn writes hcl as dir's main.hcl.
func writeConfigIn(t *testing.T, dir, hcl string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkCompactedTable reads tc's table through iceberg-go: every record of
// want once, and DuckDB agrees over the files the scan lists. With done,
// the current snapshot is the compaction's replace, and every live file a
// compacted one.
func checkCompactedTable(t *testing.T, dir string, tc compactionTable, want map[int64]bool, done bool) {
	t.Helper()
	ctx := context.Background()
	tb, err := iceberg.Open(ctx, iceberg.Config{
		URI: tc.catalog(dir), Namespace: []string{"lake"}, Table: "orders",
		Location: tc.location, Properties: tc.props,
		Columns: compactionTableColumns, PartitionBy: []string{"country"},
	})
	if err != nil {
		t.Fatalf("open the table: %v", err)
	}
	defer tb.Close()
	checkIDsOnce(t, "iceberg-go's scan", scanIDs(t, tb), want)
	files, err := tb.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	duckdbOverStoredFiles(t, dir, tc.store(t, dir), tc.location, files, len(want))
	if !done {
		return
	}
	cur := tb.Iceberg().CurrentSnapshot()
	if p := cur.Summary.Properties; cur.Summary.Operation != "replace" || p[iceberg.PropCompaction] != "1" || p[iceberg.PropCompactionSink] != "orders" {
		t.Errorf("the current snapshot is %s %v, want the replace of compaction 1 of orders", cur.Summary.Operation, p)
	}
	replaces := 0
	for _, s := range tb.Iceberg().Metadata().Snapshots() {
		if s.Summary.Properties[iceberg.PropCompaction] != "" {
			replaces++
		}
	}
	if replaces != 1 {
		t.Errorf("%d snapshots record a compaction, want 1", replaces)
	}
	for _, f := range files {
		if !strings.Contains(f, "/compact-00000001-") {
			t.Errorf("the scan lists %s after the compaction, want compacted files only", f)
		}
	}
}

// TestIcebergCompactWhileAnotherProcessAppends: two processes over one
// sharded sink (2 shards, per-sink state in S3) and its one Iceberg table.
// The first is frozen in its compaction of one shard, between reading the
// table and the catalog's commit; the second, meanwhile, appends the other
// shard's new batches and commits that shard's compaction. Woken, the first
// finds its commit refused (the table moved), commits its replace again on
// top, and loses nothing: after a last apply every record is once in
// iceberg-go's scan and in DuckDB over the files it lists, and the frozen
// shard's replace is newer than the batches appended meanwhile.
func TestIcebergCompactWhileAnotherProcessAppends(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	bucket := bucketName("icecompact-two-processes")
	srv.CreateBucket(t, bucket)
	tc := s3CompactionTable(srv, bucket)
	hcl := compactionConfig(tc.destination)
	hcl = strings.Replace(hcl, "records_per_partition = 1000", "records_per_partition = 1500", 1)
	hcl = strings.Replace(hcl, `sink "orders" {`, "sink \"orders\" {\n  shards = 2", 1)
	hcl = s3StateBlock(srv, bucket) + hcl
	dir := writeConfig(t, hcl)
	one := []string{"apply", "-auto-approve", "-no-color", "-parallelism=1"}
	// 8 batches of each shard's 12, to be compacted two hours on.
	mustRun(t, dir, 0, srv.Env(), append(one, "-max-batches=8")...)

	// The first apply commits one batch of its first shard, then that
	// shard's compaction: its second table commit. Its lease outlasts the
	// other process's run: the shard stays its own.
	frozenEnv := append(srv.Env(), append([]string{"STREAMCTL_FAULT=table-catalog-commit:2", "STREAMCTL_FAULT_STOP=1",
		"STREAMCTL_TEST_LOCK_LEASE_MS=600000"}, later...)...)
	frozen := startRun(t, dir, frozenEnv, append(one, "-max-batches=1")...)
	waitFor(t, 2*time.Minute, "the first apply to stop in its compaction's table commit", func() bool {
		return processStopped(frozen.pid()) || frozen.exited()
	})
	if frozen.exited() {
		t.Fatalf("the first apply ended before its compaction's table commit: %s", frozen.wait(t, time.Second))
	}
	before := openCompactionTable(t, dir, tc)
	existing := map[int64]bool{}
	for _, s := range before.Iceberg().Metadata().Snapshots() {
		existing[s.SnapshotID] = true
	}
	before.Close()

	other := mustRun(t, dir, 0, append(srv.Env(), later...), one...)
	if !strings.Contains(other.stdout+other.stderr, "skipped") {
		t.Errorf("the second apply does not say it skipped the frozen shard:\n%s", other)
	}
	mid := openCompactionTable(t, dir, tc)
	appender := ""
	appended := map[int64]bool{} // the other shard's batches, committed while the first apply was frozen
	for _, s := range mid.Iceberg().Metadata().Snapshots() {
		p := s.Summary.Properties
		switch {
		case existing[s.SnapshotID]:
		case p[iceberg.PropCompactionSink] != "":
			appender = p[iceberg.PropCompactionSink]
		case p[iceberg.PropSink] != "":
			appended[s.SnapshotID] = true
		}
	}
	mid.Close()
	if appender == "" || len(appended) == 0 {
		t.Fatalf("while the first apply was frozen, the second committed %d batches and compacted %q:\n%s", len(appended), appender, other)
	}

	if err := syscall.Kill(frozen.pid(), syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	woken := frozen.wait(t, 2*time.Minute)
	if woken.code != 0 || woken.killed {
		t.Errorf("the woken apply: %s", woken)
	}
	// It was frozen in its shard's compaction, which it committed once woken.
	if strings.Count(woken.stdout, "compaction 1 of lake committed") != 1 || strings.Contains(woken.stdout, appender+": compaction 1 of lake committed") {
		t.Errorf("the woken apply did not commit the other shard's compaction (%s compacted meanwhile):\n%s", appender, woken.stdout)
	}
	mustRun(t, dir, 0, append(srv.Env(), later...), one...)
	mustRun(t, dir, 0, srv.Env(), "plan", "-detailed-exitcode", "-no-color")
	mustRun(t, dir, 0, srv.Env(), "verify", "-no-color", "orders")

	ctx := context.Background()
	tb := openCompactionTable(t, dir, tc)
	defer tb.Close()
	want := expectedIDs(4, 1500)
	checkIDsOnce(t, "iceberg-go's scan", scanIDs(t, tb), want)
	files, err := tb.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	duckdbOverStoredFiles(t, dir, tc.store(t, dir), tc.location, files, len(want))

	// Newest first: the woken shard's replace comes before (is newer than)
	// every batch appended while it was frozen.
	cur := tb.Iceberg().CurrentSnapshot()
	frozenReplace := false
	for _, s := range table.AncestorsOf(cur.SnapshotID, tb.Iceberg().Metadata().SnapshotByID) {
		p := s.Summary.Properties
		if c := p[iceberg.PropCompactionSink]; c != "" && c != appender {
			frozenReplace = true
		}
		if appended[s.SnapshotID] && !frozenReplace {
			t.Errorf("snapshot %d (batch %s of %s), appended while the other shard was frozen, is newer than that shard's replace", s.SnapshotID, p[iceberg.PropBatch], p[iceberg.PropSink])
		}
	}
	if !frozenReplace {
		t.Error("the frozen shard's compaction is not in the table's history")
	}
}

// openCompactionTable opens tc's table through iceberg-go.
func openCompactionTable(t *testing.T, dir string, tc compactionTable) *iceberg.Table {
	t.Helper()
	tb, err := iceberg.Open(context.Background(), iceberg.Config{
		URI: tc.catalog(dir), Namespace: []string{"lake"}, Table: "orders", Location: tc.location, Properties: tc.props,
		Columns: compactionTableColumns, PartitionBy: []string{"country"},
	})
	if err != nil {
		t.Fatalf("open the table: %v", err)
	}
	return tb
}
