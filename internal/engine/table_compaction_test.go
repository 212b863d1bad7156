package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// compactingTable is fakeTable that commits compactions: each one once,
// refused (dropped) when a file it replaces is not live.
type compactingTable struct {
	fakeTable
	store providers.Storage // the destination, to see what is there when the table commits
	live  map[string]bool
	// compactions are those committed; calls counts every Compact.
	compactions []int64
	calls       int
	// manifestFirst is set when a compaction's manifest was there before
	// its table commit.
	manifestFirst bool
}

func (t *compactingTable) Compact(ctx context.Context, sink string, id int64, old, files []FileEntry) (bool, error) {
	t.calls++
	if _, err := t.store.Stat(ctx, CompactionKey(sink, id)); err == nil {
		t.manifestFirst = true
	}
	for _, c := range t.compactions {
		if c == id {
			return true, nil
		}
	}
	for _, f := range old {
		if !t.live[f.Path] {
			return false, nil
		}
	}
	for _, f := range old {
		delete(t.live, f.Path)
	}
	for _, f := range files {
		t.live[f.Path] = true
	}
	t.compactions = append(t.compactions, id)
	return true, nil
}

// maintainTable runs Maintain over w's stores with table on destination a.
func (w *world) maintainTable(t *testing.T, table *compactingTable, now time.Time) ([]*state.Compaction, error) {
	t.Helper()
	ctx := context.Background()
	mgr, err := state.Load(ctx, state.NewRemote(w.stateStore, "state.json"), "test")
	if err != nil {
		return nil, err
	}
	sink := w.sink(func(_ string, s providers.Storage) providers.Storage { return s })
	sink.Destinations = sink.Destinations[:1]
	sink.Destinations[0].Table = table
	eng := &Engine{State: mgr, Version: "test", Now: func() time.Time { return now }}
	return eng.Maintain(ctx, sink, compactionPolicy)
}

func liveTable(w *world) *compactingTable {
	table := &compactingTable{store: w.dests["a"], live: map[string]bool{}}
	for k := range dataFiles(w.dests["a"], w.dests["a"]) {
		table.live[k] = true
	}
	return table
}

// TestTableCompaction: a destination whose table commits compactions is
// compacted; the table commits before the manifest, once; the replaced
// files stay (the table's older snapshots reference them), and verify does
// not take them for unlisted files.
func TestTableCompaction(t *testing.T) {
	w := batchedWorld(t)
	before := dataFiles(w.dests["a"], w.dests["a"])
	table := liveTable(w)
	later := time.Now().Add(2 * time.Hour)
	done, err := w.maintainTable(t, table, later)
	if err != nil || len(done) != 1 {
		t.Fatalf("Maintain: %v, %v; want one compaction", done, err)
	}
	if len(table.compactions) != 1 || table.manifestFirst {
		t.Errorf("the table committed compactions %v (manifest first: %v), want compaction 1 before its manifest", table.compactions, table.manifestFirst)
	}
	if _, err := w.dests["a"].Stat(context.Background(), CompactionKey("orders", 1)); err != nil {
		t.Errorf("no manifest of the compaction: %v", err)
	}
	after := dataFiles(w.dests["a"], w.dests["a"])
	for k := range before {
		if _, ok := after[k]; !ok {
			t.Errorf("the replaced file %s was deleted: the table's older snapshots reference it", k)
		}
	}
	seen, files := readThroughManifests(t, w.dests["a"])
	checkOnce(t, "after", seen, 1000)
	for _, f := range files {
		if !table.live[f.Path] {
			t.Errorf("the manifests list %s, which is not live in the table", f.Path)
		}
	}
	if len(files) != len(table.live) {
		t.Errorf("the manifests list %d files, the table has %d live", len(files), len(table.live))
	}
	sink := w.sink(func(_ string, s providers.Storage) providers.Storage { return s })
	sink.Destinations = sink.Destinations[:1]
	sink.Destinations[0].Table = table
	v, err := Verify(context.Background(), sink, true)
	if err != nil || len(v.Findings) != 0 {
		t.Errorf("verify after the compaction: %+v, %v", v.Findings, err)
	}
	if done, err := w.maintainTable(t, table, later.Add(2*time.Hour)); err != nil || len(done) != 0 || len(table.compactions) != 1 {
		t.Errorf("a second Maintain: %v, %v, table compactions %v; want nothing more", done, err, table.compactions)
	}
}

// TestTableCompactionDropped: when the table no longer holds a file the
// compaction replaces, the compaction is dropped: no manifest, its promoted
// and staged files removed, its intent cleared, the old files as they were
// and read once through the manifests.
func TestTableCompactionDropped(t *testing.T) {
	w := batchedWorld(t)
	before := dataFiles(w.dests["a"], w.dests["a"])
	table := liveTable(w)
	for k := range table.live {
		delete(table.live, k) // rewritten by something else
		break
	}
	done, err := w.maintainTable(t, table, time.Now().Add(2*time.Hour))
	if err != nil || len(done) != 1 || len(table.compactions) != 0 || table.calls != 1 {
		t.Fatalf("Maintain: %v, %v, table compactions %v in %d calls; want one compaction tried and dropped", done, err, table.compactions, table.calls)
	}
	ctx := context.Background()
	if _, err := w.dests["a"].Stat(ctx, CompactionKey("orders", 1)); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("a dropped compaction has a manifest: %v", err)
	}
	for _, k := range w.dests["a"].Keys() {
		if strings.Contains(k, "compact-") {
			t.Errorf("the dropped compaction left %s", k)
		}
	}
	if after := dataFiles(w.dests["a"], w.dests["a"]); len(after) != len(before) {
		t.Errorf("%d data files after the drop, %d before", len(after), len(before))
	}
	seen, _ := readThroughManifests(t, w.dests["a"])
	checkOnce(t, "after the drop", seen, 1000)
	mgr, err := state.Load(ctx, state.NewRemote(w.stateStore, "state.json"), "test")
	if err != nil {
		t.Fatal(err)
	}
	if c := mgr.State().Sinks["orders"].Compaction; c != nil {
		t.Errorf("the dropped compaction is still in flight: %+v", c)
	}
}
