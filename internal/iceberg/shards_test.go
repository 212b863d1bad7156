package iceberg_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/pipeline"
)

func TestShardsCommitAtOnce(t *testing.T) { eachCatalog(t, testShardsCommitAtOnce) }

// testShardsCommitAtOnce: the eight shards of one sink, each with its own
// connection to the catalog, commit their batches 0, 1 and 2 to the one
// table at once, each batch twice (a retry after a lost answer). Every
// commit another shard wins in between is retried: the table ends with one
// snapshot per shard-batch, each naming its shard and batch, and every
// record once. A shard's batch is recognised by the pair: shard 0's batch 0
// does not count as shard 1's.
func testShardsCommitAtOnce(t *testing.T, config configFunc) {
	ctx := context.Background()
	root := t.TempDir()
	const shards, batches, perBatch = 8, 3, 10
	files := make([][][]iceberg.DataFile, shards)
	for s := range shards {
		layout := pipeline.Layout{Columns: columns, Shard: "s" + strconv.Itoa(s)}
		for b := range batches {
			first := (s*batches + b) * perBatch
			files[s] = append(files[s], writeBatch(t, root, layout, int64(b), records(first, first+perBatch)))
		}
	}
	shardName := func(s int) string { return fmt.Sprintf("orders/shard-%d", s) }

	first := open(t, config(root))
	if err := first.Append(ctx, shardName(0), 0, "r", files[0][0]); err != nil {
		t.Fatal(err)
	}
	if done, err := first.Committed(ctx, shardName(1), 0); err != nil || done {
		t.Fatalf("shard 1's batch 0 is taken for committed (%v, %v) after shard 0's", done, err)
	}

	var wg sync.WaitGroup
	errs := make([]error, shards)
	for s := range shards {
		wg.Go(func() {
			tb, err := iceberg.Open(ctx, config(root))
			if err != nil {
				errs[s] = err
				return
			}
			defer tb.Close()
			for b := range int64(batches) {
				for range 2 {
					if err := tb.Append(ctx, shardName(s), b, fmt.Sprintf("r%d", b), files[s][b]); err != nil {
						errs[s] = err
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}

	tb := open(t, config(root))
	seen := map[string]int{}
	for _, snap := range tb.Iceberg().Metadata().Snapshots() {
		p := snap.Summary.Properties
		seen[p[iceberg.PropSink]+" batch "+p[iceberg.PropBatch]]++
		if p["added-records"] != strconv.Itoa(perBatch) {
			t.Errorf("snapshot %d (%s batch %s) adds %s records, want one whole batch of %d", snap.SnapshotID, p[iceberg.PropSink], p[iceberg.PropBatch], p["added-records"], perBatch)
		}
	}
	if len(seen) != shards*batches {
		t.Errorf("%d shard-batches in the snapshots, want %d: %v", len(seen), shards*batches, seen)
	}
	for s := range shards {
		for b := range batches {
			if n := seen[fmt.Sprintf("%s batch %d", shardName(s), b)]; n != 1 {
				t.Errorf("%s batch %d: %d snapshots, want 1", shardName(s), b, n)
			}
		}
		if last, found, err := tb.LastBatch(ctx, shardName(s)); err != nil || !found || last.Batch != batches-1 {
			t.Errorf("%s: last batch %d (found %v, %v), want %d", shardName(s), last.Batch, found, err, batches-1)
		}
	}
	checkOnce(t, scanRows(t, tb.Iceberg(), nil), shards*batches*perBatch, false)
}
