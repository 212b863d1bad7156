package iceberg_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/pipeline"
)

// rel is a file URL of a table under root, relative to root.
func rel(root, u string) string { return strings.TrimPrefix(u, "file://"+root+"/") }

// Expiry removes the old snapshots but the current one and the newest of
// each sink and of each sink's compactions: the batches and the compaction
// are still recognised on a retry, a retry of the expiry commits nothing,
// and References then says which files only the expired snapshots held:
// the compaction's replaced files and the expired manifest lists.
func TestExpireKeepsWhatRecoveryNeeds(t *testing.T) { eachCatalog(t, testExpireKeepsWhatRecoveryNeeds) }

func testExpireKeepsWhatRecoveryNeeds(t *testing.T, config configFunc) {
	ctx := context.Background()
	root := t.TempDir()
	small := pipeline.Layout{Columns: columns, MaxFileRecords: 40}
	b0 := writeBatch(t, root, small, 0, records(0, 100))
	b1 := writeBatch(t, root, small, 1, records(100, 150))
	into := writeBatch(t, root, pipeline.Layout{Columns: columns}, 900, records(0, 150))
	other := writeBatch(t, root, small, 7, records(150, 160))
	b2 := writeBatch(t, root, small, 2, records(160, 170))
	tb := open(t, config(root))
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(tb.Append(ctx, "orders", 0, "r", b0))
	must(tb.Append(ctx, "orders", 1, "r", b1))
	if got, err := tb.Compact(ctx, "orders", 1, append(urls(b0), urls(b1)...), into); err != nil || got != iceberg.Replaced {
		t.Fatalf("Compact = %v, %v", got, err)
	}
	must(tb.Append(ctx, "other", 0, "r", other))
	must(tb.Append(ctx, "orders", 2, "r", b2))
	expiredLists := []string{}
	for _, s := range tb.Iceberg().Metadata().Snapshots()[:2] {
		expiredLists = append(expiredLists, rel(root, s.ManifestList))
	}

	// Nothing is old enough a week after.
	if ex, err := tb.PlanExpiry(time.Now().Add(-7 * 24 * time.Hour)); err != nil || ex.Snapshots != 0 {
		t.Errorf("PlanExpiry(7 days) = %+v, %v; want nothing", ex, err)
	}
	// An hour on, everything is: the two batches before the compaction go.
	cutoff := time.Now().Add(time.Hour)
	plan, err := tb.PlanExpiry(cutoff)
	if err != nil || plan.Snapshots != 2 || plan.Oldest.After(plan.Newest) || plan.Newest.After(time.Now()) {
		t.Fatalf("PlanExpiry = %+v, %v; want the 2 snapshots before the compaction", plan, err)
	}
	// plan's view, read without writing: the same snapshots, and the
	// replaced files no longer referenced once they are gone.
	inspected, after, exists, err := iceberg.InspectExpiry(ctx, config(root), cutoff)
	if err != nil || !exists || inspected != plan || after.Data(rel(root, b0[0].URL)) || !after.Data(rel(root, into[0].URL)) {
		t.Fatalf("InspectExpiry = %+v, %v, %v; want %+v, with %s unreferenced after it", inspected, exists, err, plan, b0[0].URL)
	}
	if n := len(tb.Iceberg().Metadata().Snapshots()); n != 5 {
		t.Fatalf("%d snapshots after plan's look, want the 5 committed", n)
	}
	ex, err := tb.Expire(ctx, cutoff)
	if err != nil || ex != plan {
		t.Fatalf("Expire = %+v, %v; want %+v", ex, err, plan)
	}
	if n := len(tb.Iceberg().Metadata().Snapshots()); n != 3 {
		t.Errorf("%d snapshots after the expiry, want 3 (the compaction, other's and orders' newest)", n)
	}
	tb2 := open(t, config(root))
	if ex, err := tb2.Expire(ctx, cutoff); err != nil || ex.Snapshots != 0 {
		t.Errorf("retried Expire = %+v, %v; want nothing more", ex, err)
	}
	for _, b := range []int64{0, 1, 2} {
		if done, err := tb2.Committed(ctx, "orders", b); err != nil || !done {
			t.Errorf("Committed(orders, %d) after the expiry = %v, %v", b, done, err)
		}
	}
	if got, err := tb2.Compact(ctx, "orders", 1, append(urls(b0), urls(b1)...), into); err != nil || got != iceberg.Replaced {
		t.Errorf("retried Compact after the expiry = %v, %v; want Replaced, with nothing committed", got, err)
	}
	must(tb2.Append(ctx, "orders", 2, "r", b2)) // a retry: nothing appended
	checkOnce(t, scanRows(t, tb2.Iceberg(), nil), 170, false)

	refs, err := tb2.References(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(b0, b1...) {
		if refs.Data(rel(root, f.URL)) {
			t.Errorf("replaced file %s still referenced after the expiry", f.URL)
		}
	}
	for _, f := range append(append(into, other...), b2...) {
		if !refs.Data(rel(root, f.URL)) {
			t.Errorf("live file %s not referenced", f.URL)
		}
	}
	for _, l := range expiredLists {
		if !refs.Unreferenced(l) {
			t.Errorf("the expired manifest list %s is not unreferenced", l)
		}
	}
	for _, s := range tb2.Iceberg().Metadata().Snapshots() {
		if refs.Unreferenced(rel(root, s.ManifestList)) {
			t.Errorf("the manifest list %s of a retained snapshot is unreferenced", s.ManifestList)
		}
	}
	metaFiles, err := filepath.Glob(filepath.Join(root, "metadata", "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range metaFiles {
		r := rel(root, "file://"+m)
		if strings.HasSuffix(r, ".metadata.json") && refs.Unreferenced(r) {
			t.Errorf("metadata file %s taken for an expiry's leftover", r)
		}
	}
	// Deleting what is unreferenced leaves a table every reader reads whole.
	for _, m := range metaFiles {
		if r := rel(root, "file://"+m); refs.Unreferenced(r) {
			must(os.Remove(m))
		}
	}
	for _, f := range append(b0, b1...) {
		must(os.Remove(strings.TrimPrefix(f.URL, "file://")))
	}
	tb3 := open(t, config(root))
	checkOnce(t, scanRows(t, tb3.Iceberg(), nil), 170, false)
	if _, err := tb3.References(ctx); err != nil {
		t.Errorf("References after the deletions: %v", err)
	}
}

// An apply appends a batch between an expiry's read of the table and its
// commit: the expiry is refused, made again on top, and the batch kept; the
// sink's newest snapshot is then the appended batch's.
func TestExpireWhileAppending(t *testing.T) { eachCatalog(t, testExpireWhileAppending) }

func testExpireWhileAppending(t *testing.T, config configFunc) {
	ctx := context.Background()
	root := t.TempDir()
	small := pipeline.Layout{Columns: columns, MaxFileRecords: 20}
	var batches [][]iceberg.DataFile
	for b := range 4 {
		batches = append(batches, writeBatch(t, root, small, int64(b), records(b*30, (b+1)*30)))
	}
	tb := open(t, config(root))
	for b := range 3 {
		if err := tb.Append(ctx, "orders", int64(b), "r", batches[b]); err != nil {
			t.Fatal(err)
		}
	}
	other := open(t, config(root))
	attempts := 0
	defer iceberg.SetHookBeforeExpire(func() {
		if attempts++; attempts == 1 {
			if err := other.Append(ctx, "orders", 3, "r", batches[3]); err != nil {
				t.Error(err)
			}
		}
	})()
	ex, err := tb.Expire(ctx, time.Now().Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if attempts < 2 {
		t.Errorf("the expiry committed at its first attempt (%d): the append did not conflict", attempts)
	}
	// On top of the append, only batch 3's snapshot, the sink's newest, stays.
	if ex.Snapshots != 3 {
		t.Errorf("Expire = %+v, want the 3 snapshots before the appended batch", ex)
	}
	snaps := tb.Iceberg().Metadata().Snapshots()
	if len(snaps) != 1 || snaps[0].Summary.Properties[iceberg.PropBatch] != "3" {
		t.Errorf("%d snapshots after the expiry, want batch 3's only", len(snaps))
	}
	checkOnce(t, scanRows(t, tb.Iceberg(), nil), 120, false)
	for b := range int64(4) {
		if done, err := tb.Committed(ctx, "orders", b); err != nil || !done {
			t.Errorf("Committed(orders, %d) = %v, %v", b, done, err)
		}
	}
}
