package iceberg_test

import (
	"context"
	"testing"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/pipeline"
)

func urls(files []iceberg.DataFile) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.URL
	}
	return out
}

// A compaction replaces two batches' files with one file of the same rows,
// in one replace snapshot that names it; a retry, by this handle or a new
// one, commits nothing more; every row is scanned once throughout.
func TestCompactReplacesOnce(t *testing.T) { eachCatalog(t, testCompactReplacesOnce) }

func testCompactReplacesOnce(t *testing.T, config configFunc) {
	ctx := context.Background()
	root := t.TempDir()
	small := pipeline.Layout{Columns: columns, MaxFileRecords: 40}
	b0 := writeBatch(t, root, small, 0, records(0, 100))
	b1 := writeBatch(t, root, small, 1, records(100, 150))
	// The compaction's file: the same rows, in one file, under a name of
	// its own (batch 900's).
	into := writeBatch(t, root, pipeline.Layout{Columns: columns}, 900, records(0, 150))
	tb := open(t, config(root))
	for i, b := range [][]iceberg.DataFile{b0, b1} {
		if err := tb.Append(ctx, "orders", int64(i), "r", b); err != nil {
			t.Fatal(err)
		}
	}
	old := append(urls(b0), urls(b1)...)
	got, err := tb.Compact(ctx, "orders", 1, old, into)
	if err != nil || got != iceberg.Replaced {
		t.Fatalf("Compact = %v, %v; want Replaced", got, err)
	}
	sum := tb.Iceberg().CurrentSnapshot().Summary
	if sum.Operation != "replace" || sum.Properties[iceberg.PropCompaction] != "1" || sum.Properties[iceberg.PropCompactionSink] != "orders" {
		t.Errorf("summary = %+v, want a replace naming compaction 1 of orders", sum)
	}
	if _, ok := sum.Properties[iceberg.PropSink]; ok {
		t.Errorf("the replace snapshot records %s: a streamctl older than compaction would take it for a batch", iceberg.PropSink)
	}
	files, err := tb.Files(ctx)
	if err != nil || len(files) != 1 || files[0] != into[0].URL {
		t.Errorf("live files = %v, %v; want %s only", files, err, into[0].URL)
	}
	checkOnce(t, scanRows(t, tb.Iceberg(), nil), 150, false)
	snaps := len(tb.Iceberg().Metadata().Snapshots())
	tb2 := open(t, config(root))
	for _, h := range []*iceberg.Table{tb, tb2} {
		if got, err := h.Compact(ctx, "orders", 1, old, into); err != nil || got != iceberg.Replaced {
			t.Errorf("retried Compact = %v, %v; want Replaced", got, err)
		}
	}
	if n := len(tb2.Iceberg().Metadata().Snapshots()); n != snaps {
		t.Errorf("%d snapshots after the retries, want %d", n, snaps)
	}
	// The batches are still recognised: a retried append adds nothing.
	if done, err := tb2.Committed(ctx, "orders", 1); err != nil || !done {
		t.Errorf("Committed(orders, 1) after the compaction = %v, %v", done, err)
	}
	if err := tb2.Append(ctx, "orders", 1, "r", b1); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, scanRows(t, tb2.Iceberg(), nil), 150, false)

	// A compaction of files no longer live is dropped, and commits nothing.
	again := writeBatch(t, root, pipeline.Layout{Columns: columns}, 901, records(100, 150))
	if got, err := tb2.Compact(ctx, "orders", 2, urls(b1), again); err != nil || got != iceberg.Dropped {
		t.Errorf("Compact of replaced files = %v, %v; want Dropped", got, err)
	}
	if n := len(tb2.Iceberg().Metadata().Snapshots()); n != snaps {
		t.Errorf("%d snapshots after a dropped compaction, want %d", n, snaps)
	}
	checkOnce(t, scanRows(t, tb2.Iceberg(), nil), 150, false)
}

// An apply appends a batch between a compaction's read of the table and
// its commit: the compaction commits after it, and the batch is kept.
func TestCompactWhileAppending(t *testing.T) { eachCatalog(t, testCompactWhileAppending) }

func testCompactWhileAppending(t *testing.T, config configFunc) {
	ctx := context.Background()
	root := t.TempDir()
	small := pipeline.Layout{Columns: columns, MaxFileRecords: 20}
	b0 := writeBatch(t, root, small, 0, records(0, 60))
	b1 := writeBatch(t, root, small, 1, records(60, 90))
	into := writeBatch(t, root, pipeline.Layout{Columns: columns}, 900, records(0, 60))
	tb := open(t, config(root))
	if err := tb.Append(ctx, "orders", 0, "r", b0); err != nil {
		t.Fatal(err)
	}
	other := open(t, config(root))
	appended := 0
	defer iceberg.SetHookBeforeReplace(func() {
		if appended++; appended == 1 {
			if err := other.Append(ctx, "orders", 1, "r", b1); err != nil {
				t.Error(err)
			}
		}
	})()
	if got, err := tb.Compact(ctx, "orders", 1, urls(b0), into); err != nil || got != iceberg.Replaced {
		t.Fatalf("Compact = %v, %v; want Replaced", got, err)
	}
	if appended < 2 {
		t.Errorf("the compaction committed at its first attempt (%d): the append did not conflict", appended)
	}
	checkOnce(t, scanRows(t, tb.Iceberg(), nil), 90, false)
	if last, ok, err := tb.LastBatch(ctx, "orders"); err != nil || !ok || last.Batch != 1 {
		t.Errorf("LastBatch = %+v, %v, %v; want batch 1", last, ok, err)
	}
}
