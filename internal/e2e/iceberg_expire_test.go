package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
)

// weekOn is the environment of a run eight days on: the snapshots are
// older than expire_snapshots_after.
var weekOn = []string{"STREAMCTL_TEST_CLOCK_SKEW=192h"}

// TestIcebergExpireCrashLocal kills apply at each fault point of an expiry
// of a local destination's Iceberg table. The table holds 12 batches
// compacted (compaction 1), 2 more, then 2 batches and compaction 2 of
// the 2 before, then compaction 3 of all since. Eight days on, with expire_snapshots_after = "7d", plan shows
// the expiry; an apply killed at the point leaves a table iceberg-go's scan
// reads every record of once; the next apply converges: every record once
// in the scan and in DuckDB over the files it lists, the table keeps only
// the sink's newest snapshot and the compactions after it, the files
// compaction 1 replaced are gone from the folder, verify finds nothing
// wrong and plan has nothing left.
func TestIcebergExpireCrashLocal(t *testing.T) {
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
			root := filepath.Join(dir, "out")
			tc := compactionTable{
				location: "file://" + filepath.ToSlash(root),
				catalog:  func(string) string { return "" },
				store:    func(*testing.T, string) providers.Storage { return local.New(root) },
			}
			dest := `
  destination "local" "lake" {
    path = "out"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
  }
`
			hcl := compactionConfig(dest)
			writeConfigIn(t, dir, hcl)
			mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-max-batches=12")
			replaced := listedFiles(t, dir, nil)
			mustRun(t, dir, 0, later, "apply", "-auto-approve", "-no-color", "-max-batches=2")
			mustRun(t, dir, 0, weekOn, "apply", "-auto-approve", "-no-color")
			// Compaction 3, of compaction 2's files and the last 2 batches':
			// the expiry's apply then compacts nothing.
			mustRun(t, dir, 0, weekOn, "apply", "-auto-approve", "-no-color")
			for _, f := range replaced {
				if _, err := os.Stat(filepath.Join(root, f)); err != nil {
					t.Fatalf("a file compaction 1 replaced is gone before any expiry: %v", err)
				}
			}
			tb := openCompactionTable(t, dir, tc)
			snapshots := len(tb.Iceberg().Metadata().Snapshots())
			tb.Close()
			if snapshots != 19 {
				t.Fatalf("%d snapshots before the expiry, want 16 batches and 3 compactions", snapshots)
			}

			writeConfigIn(t, dir, strings.Replace(hcl, `compact_after    = "1h"`, "compact_after    = \"1h\"\n    expire_snapshots_after = \"7d\"", 1))
			plan := mustRun(t, dir, 2, weekOn, "plan", "-no-color", "-detailed-exitcode")
			if !strings.Contains(plan.stdout, "expire 16 snapshots of iceberg table lake.orders in destination lake") || strings.Contains(plan.stdout, "compact destination") {
				t.Fatalf("the plan a week on does not show the expiry of the 16 snapshots before the sink's newest:\n%s", plan.stdout)
			}
			want := expectedIDs(4, 1000)
			if fp != "" {
				r := run(t, dir, append([]string{"STREAMCTL_FAULT=" + fp}, weekOn...), "apply", "-auto-approve", "-no-color")
				if !r.killed {
					t.Fatalf("the fault %s was not reached: %s", fp, r)
				}
				checkCompactedTable(t, dir, tc, want, false)
			}
			mustRun(t, dir, 0, weekOn, "apply", "-auto-approve", "-no-color")
			checkCompactedTable(t, dir, tc, want, false)

			tb = openCompactionTable(t, dir, tc)
			defer tb.Close()
			var kept []string
			for _, s := range tb.Iceberg().Metadata().Snapshots() {
				p := s.Summary.Properties
				kept = append(kept, p[iceberg.PropSink]+p[iceberg.PropBatch]+p[iceberg.PropCompactionSink]+"/"+p[iceberg.PropCompaction])
			}
			if strings.Join(kept, " ") != "orders15/ orders/2 orders/3" {
				t.Errorf("snapshots after the expiry: %v, want batch 15 of orders, the newest of the sink, and the compactions after it", kept)
			}
			for _, f := range replaced {
				if _, err := os.Stat(filepath.Join(root, f)); err == nil {
					t.Errorf("%s, replaced by compaction 1, is still in the folder after the expiry", f)
				}
			}
			for _, s := range tb.Iceberg().Metadata().Snapshots() {
				if _, err := os.Stat(strings.TrimPrefix(s.ManifestList, "file://")); err != nil {
					t.Errorf("the manifest list of a kept snapshot: %v", err)
				}
			}
			mustRun(t, dir, 0, nil, "verify", "-no-color", "orders")
			mustRun(t, dir, 0, weekOn, "plan", "-no-color", "-detailed-exitcode")
		})
	}
}
