package e2e

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
)

// weekOn is the environment of a run eight days on: the snapshots are
// older than expire_snapshots_after.
var weekOn = []string{"STREAMCTL_TEST_CLOCK_SKEW=192h"}

// TestIcebergExpireCrashLocal kills apply at each fault point of an expiry
// of a local destination's Iceberg table: see icebergExpireCrash.
func TestIcebergExpireCrashLocal(t *testing.T) {
	icebergExpireCrash(t, localCompactionTable)
}

// TestIcebergExpireCrashS3 is TestIcebergExpireCrashLocal with the table in
// an S3 bucket (versitygw), its catalog a SQLite file beside the
// configuration.
func TestIcebergExpireCrashS3(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	var n atomic.Int64
	icebergExpireCrash(t, func(string) compactionTable {
		bucket := bucketName("iceexpire-", int(n.Add(1)), "-", "s3")
		srv.CreateBucket(t, bucket)
		return s3CompactionTable(srv, bucket)
	})
}

// icebergExpireCrash kills apply at each fault point of an expiry of a
// destination's Iceberg table. The table holds 12 batches compacted
// (compaction 1), 2 more, then 2 batches and compaction 2 of the 2 before,
// then compaction 3 of all since. Eight days on, with
// expire_snapshots_after = "7d", plan shows the expiry; an apply killed at
// the point leaves a table iceberg-go's scan reads every record of once;
// the next apply converges: every record once in the scan and in DuckDB
// over the files it lists, the table keeps only the sink's newest snapshot
// and the compactions after it, the files compaction 1 replaced are gone,
// verify finds nothing wrong and plan has nothing left.
func icebergExpireCrash(t *testing.T, newTable func(dir string) compactionTable) {
	for _, fp := range []string{
		"before-expiry-commit",
		"table-catalog-commit",
		"after-expiry-commit",
		"during-expiry-deletes",
		"",
	} {
		name := fp
		if fp == "" {
			name = "no-fault"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tc := newTable(dir)
			env := func(extra ...string) []string { return append(append([]string{}, tc.env...), extra...) }
			store := tc.store(t, dir)
			exists := func(key string) bool {
				_, err := store.Stat(context.Background(), key)
				if err != nil && !errors.Is(err, providers.ErrNotExist) {
					t.Fatal(err)
				}
				return err == nil
			}
			hcl := compactionConfig(tc.destination)
			writeConfigIn(t, dir, hcl)
			mustRun(t, dir, 0, env(), "apply", "-auto-approve", "-no-color", "-max-batches=12")
			replaced := listedFiles(t, dir, env())
			mustRun(t, dir, 0, env(later...), "apply", "-auto-approve", "-no-color", "-max-batches=2")
			mustRun(t, dir, 0, env(weekOn...), "apply", "-auto-approve", "-no-color")
			// Compaction 3, of compaction 2's files and the last 2 batches':
			// the expiry's apply then compacts nothing.
			mustRun(t, dir, 0, env(weekOn...), "apply", "-auto-approve", "-no-color")
			for _, f := range replaced {
				if !exists(f) {
					t.Fatalf("%s, replaced by compaction 1, is gone before any expiry", f)
				}
			}
			tb := openCompactionTable(t, dir, tc)
			snapshots := len(tb.Iceberg().Metadata().Snapshots())
			tb.Close()
			if snapshots != 19 {
				t.Fatalf("%d snapshots before the expiry, want 16 batches and 3 compactions", snapshots)
			}

			writeConfigIn(t, dir, strings.Replace(hcl, `compact_after    = "1h"`, "compact_after    = \"1h\"\n    expire_snapshots_after = \"7d\"", 1))
			plan := mustRun(t, dir, 2, env(weekOn...), "plan", "-no-color", "-detailed-exitcode")
			if !strings.Contains(plan.stdout, "expire 16 snapshots of iceberg table lake.orders in destination lake") || strings.Contains(plan.stdout, "compact destination") {
				t.Fatalf("the plan a week on does not show the expiry of the 16 snapshots before the sink's newest alone:\n%s", plan.stdout)
			}
			want := expectedIDs(4, 1000)
			if fp != "" {
				r := run(t, dir, env(append([]string{"STREAMCTL_FAULT=" + fp}, weekOn...)...), "apply", "-auto-approve", "-no-color")
				if !r.killed {
					t.Fatalf("the fault %s was not reached: %s", fp, r)
				}
				checkCompactedTable(t, dir, tc, want, false)
			}
			mustRun(t, dir, 0, env(weekOn...), "apply", "-auto-approve", "-no-color")
			checkCompactedTable(t, dir, tc, want, false)

			tb = openCompactionTable(t, dir, tc)
			defer tb.Close()
			var kept []string
			for _, s := range tb.Iceberg().Metadata().Snapshots() {
				p := s.Summary.Properties
				kept = append(kept, p[iceberg.PropSink]+p[iceberg.PropBatch]+p[iceberg.PropCompactionSink]+"/"+p[iceberg.PropCompaction])
				if !exists(strings.TrimPrefix(s.ManifestList, tc.location+"/")) {
					t.Errorf("the manifest list of kept snapshot %d is gone", s.SnapshotID)
				}
			}
			if strings.Join(kept, " ") != "orders15/ orders/2 orders/3" {
				t.Errorf("snapshots after the expiry: %v, want batch 15 of orders, the newest of the sink, and the compactions after it", kept)
			}
			for _, f := range replaced {
				if exists(f) {
					t.Errorf("%s, replaced by compaction 1, is still there after the expiry", f)
				}
			}
			mustRun(t, dir, 0, env(), "verify", "-no-color", "orders")
			mustRun(t, dir, 0, env(weekOn...), "plan", "-no-color", "-detailed-exitcode")
		})
	}
}
