package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// inspectedTable is a fakeTable that plan reads, and that says its last
// batch at apply. stale makes Inspect show what it held when snapshotted,
// as a plan made before the table was rolled back does.
type inspectedTable struct {
	fakeTable
	orphans []string
	stale   []fakeSnapshot
}

func (t *inspectedTable) Inspect(_ context.Context, sink string, _ providers.Storage) (*planner.TableObservation, error) {
	snaps := t.snapshots
	if t.stale != nil {
		snaps = t.stale
	}
	o := &planner.TableObservation{Name: "table t", Exists: true, Orphans: t.orphans}
	for _, s := range snaps {
		if s.sink == sink {
			o.Batches = append(o.Batches, planner.TableBatch{ID: s.batch, Ranges: s.ranges})
		}
	}
	return o, nil
}

func (t *inspectedTable) LastBatch(_ context.Context, sink string) (int64, bool, error) {
	last, found := int64(-1), false
	for _, s := range t.snapshots {
		if s.sink == sink && s.batch > last {
			last, found = s.batch, true
		}
	}
	return last, found, nil
}

// applyTable applies w with tb as destination a's table.
func applyTable(t *testing.T, w *world, tb *inspectedTable) error {
	t.Helper()
	w.tables = map[string]Table{"a": tb}
	return w.apply(t, nil)
}

// TestTableOrphansRemoved: data files of a batch the state never committed
// that no manifest or snapshot holds, and the metadata files the table
// reports as a failed commit's, are planned and removed; a committed
// batch's files stay.
func TestTableOrphansRemoved(t *testing.T) {
	ctx := context.Background()
	w := newWorld(500)
	tb := &inspectedTable{}
	if err := applyTable(t, w, tb); err != nil {
		t.Fatal(err)
	}
	a := w.dests["a"]
	for _, k := range []string{"x=1/part-00000007-00000.jsonl", "part-00000004-00001.jsonl", "part-00000001-00009.jsonl", "notes.txt", "_streamctl/iceberg/metadata/snap-1-1-u.avro"} {
		if err := providers.Put(ctx, a, k, []byte("{}\n")); err != nil {
			t.Fatal(err)
		}
	}
	tb.orphans = []string{"_streamctl/iceberg/metadata/snap-1-1-u.avro"}
	if err := applyTable(t, w, tb); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]bool{"x=1/part-00000007-00000.jsonl": false, "part-00000004-00001.jsonl": false, "_streamctl/iceberg/metadata/snap-1-1-u.avro": false,
		"part-00000001-00009.jsonl": true, "notes.txt": true} {
		_, err := a.Stat(ctx, k)
		if got := err == nil; got != want {
			t.Errorf("%s: present %v, want %v (%v)", k, got, want, err)
		}
	}
	w.check(t)
}

// TestTableBehindRefusedAtApply: a table rolled back after the plan was
// made stops the apply before any batch.
func TestTableBehindRefusedAtApply(t *testing.T) {
	w := newWorld(500)
	tb := &inspectedTable{}
	if err := applyTable(t, w, tb); err != nil {
		t.Fatal(err)
	}
	tb.stale = tb.snapshots
	tb.snapshots = tb.snapshots[:2]
	w.src.RecordsPerPartition += 300
	err := applyTable(t, w, tb)
	if err == nil || !strings.Contains(err.Error(), "table t of destination a is behind the state: the state has committed batches up to 3 into it, and its current snapshot records batch 1 last") {
		t.Fatalf("apply over a table rolled back: %v", err)
	}
	if len(tb.snapshots) != 2 || errors.Is(err, context.Canceled) {
		t.Errorf("the table was appended to: %d snapshots", len(tb.snapshots))
	}
}

// warningTable is a fakeTable whose commit of batch 1 leaves a warning (a
// Delta checkpoint not written).
type warningTable struct {
	fakeTable
	pending []string
}

func (t *warningTable) Append(ctx context.Context, sink string, batch int64, ranges []state.Range, files []FileEntry) error {
	if batch == 1 {
		t.pending = append(t.pending, "write the checkpoint: the store is full")
	}
	return t.fakeTable.Append(ctx, sink, batch, ranges, files)
}

func (t *warningTable) TakeWarnings() []string {
	w := t.pending
	t.pending = nil
	return w
}

// TestTableWarningsAreReported: what a table's commit reports without
// failing it is a Warning event naming the batch, the destination and the
// table, and the batches go on.
func TestTableWarningsAreReported(t *testing.T) {
	w := newWorld(500)
	table := &warningTable{}
	w.tables = map[string]Table{"a": table}
	var mu sync.Mutex
	var warnings []Warning
	w.onEvent = func(ev Event) {
		if wr, ok := ev.(Warning); ok {
			mu.Lock()
			warnings = append(warnings, wr)
			mu.Unlock()
		}
	}
	if err := w.apply(t, nil); err != nil {
		t.Fatal(err)
	}
	w.check(t)
	if len(warnings) != 1 || warnings[0].Batch != 1 || warnings[0].Destination != "a" || warnings[0].Message != "table t: write the checkpoint: the store is full" {
		t.Errorf("warnings %+v", warnings)
	}
	if len(table.snapshots) < 2 {
		t.Errorf("%d snapshots: the batches after the warning were not committed", len(table.snapshots))
	}
}
