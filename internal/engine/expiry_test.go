package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// expiringTable is compactingTable that expires snapshots: pending of them
// until Expire, after which its snapshots reference the live files only,
// and the metadata files in unreferenced are an expiry's leftovers.
type expiringTable struct {
	*compactingTable
	pending, expires int
	stillLive        map[string]bool // replaced files a retained snapshot still references
	unreferenced     map[string]bool
}

type fakeRefs struct{ t *expiringTable }

func (r fakeRefs) Data(p string) bool         { return r.t.live[p] || r.t.stillLive[p] }
func (r fakeRefs) Unreferenced(p string) bool { return r.t.unreferenced[p] }

func (t *expiringTable) PlanExpiry(context.Context, time.Time) (TableExpiry, TableReferences, error) {
	return TableExpiry{Snapshots: t.pending}, fakeRefs{t}, nil
}

func (t *expiringTable) Expire(context.Context, time.Time) (TableExpiry, error) {
	t.expires++
	ex := TableExpiry{Snapshots: t.pending}
	t.pending = 0
	return ex, nil
}

func (t *expiringTable) References(context.Context) (TableReferences, error) { return fakeRefs{t}, nil }

// TestExpiryDeletesOnlyWhatExpiredSnapshotsHeld: after a table's
// compaction, the expiry deletes the files the compaction replaced that no
// snapshot references, and the table's metadata files an expiry let go
// that are older than the cutoff; not a replaced file a retained snapshot
// still references, not the table's other files, not the live files. A
// second plan has nothing left.
func TestExpiryDeletesOnlyWhatExpiredSnapshotsHeld(t *testing.T) {
	w := batchedWorld(t)
	ctx := context.Background()
	replaced := dataFiles(w.dests["a"], w.dests["a"])
	table := &expiringTable{compactingTable: liveTable(w), pending: 3, stillLive: map[string]bool{}, unreferenced: map[string]bool{}}
	if done, err := w.maintainTable(t, table.compactingTable, time.Now().Add(2*time.Hour)); err != nil || len(done) != 1 {
		t.Fatalf("Maintain: %v, %v; want one compaction", done, err)
	}
	var kept string
	for k := range replaced {
		kept = k
		break
	}
	table.stillLive[kept] = true
	store := w.dests["a"]
	const list, meta = "metadata/snap-1-1-list.avro", "metadata/00003-table.metadata.json"
	for _, k := range []string{list, meta} {
		if _, err := store.PutIfAbsent(ctx, k, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	table.unreferenced[list] = true
	info, err := store.Stat(ctx, list)
	if err != nil {
		t.Fatal(err)
	}
	sink := w.sink(func(_ string, s providers.Storage) providers.Storage { return s })
	sink.Destinations = sink.Destinations[:1]
	sink.Destinations[0].Table = table
	const after = 7 * 24 * time.Hour

	// The manifest list written at the cutoff may be a commit in progress.
	plan, err := PlanExpiries(ctx, sink, after, info.ModTime.Add(after))
	if err != nil || len(plan) != 1 || plan[0].Snapshots != 3 || plan[0].Files != len(replaced)-1 {
		t.Fatalf("PlanExpiries at the manifest list's time = %+v, %v; want 3 snapshots and the %d replaced files no snapshot references", plan, err, len(replaced)-1)
	}
	plan, err = PlanExpiries(ctx, sink, after, info.ModTime.Add(after+time.Second))
	if err != nil || len(plan) != 1 || plan[0].Files != len(replaced) {
		t.Fatalf("PlanExpiries a second later = %+v, %v; want the manifest list too", plan, err)
	}
	var events []Event
	mgr, err := state.Load(ctx, state.NewRemote(w.stateStore, "state.json"), "test")
	if err != nil {
		t.Fatal(err)
	}
	eng := &Engine{State: mgr, Version: "test", OnEvent: func(ev Event) { events = append(events, ev) }}
	if err := eng.runExpiries(ctx, sink, &planner.SinkPlan{Expiries: plan}); err != nil {
		t.Fatal(err)
	}
	if table.expires != 1 || len(events) != 1 || events[0] != (Expired{Sink: "orders", Destination: "a", Table: table.Describe(), Snapshots: 3, Files: len(replaced)}) {
		t.Errorf("the expiry committed %d times and said %+v", table.expires, events)
	}
	for k := range replaced {
		_, err := store.Stat(ctx, k)
		if gone := errors.Is(err, providers.ErrNotExist); gone == (k == kept) {
			t.Errorf("replaced file %s: gone %v (a retained snapshot references it: %v)", k, gone, k == kept)
		}
	}
	if _, err := store.Stat(ctx, list); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("the expired manifest list is still there: %v", err)
	}
	if _, err := store.Stat(ctx, meta); err != nil {
		t.Errorf("the table's metadata file was deleted: %v", err)
	}
	for p := range table.live {
		if _, err := store.Stat(ctx, p); err != nil {
			t.Errorf("live file %s: %v", p, err)
		}
	}
	seen, _ := readThroughManifests(t, store)
	checkOnce(t, "after the expiry", seen, 1000)
	if again, err := PlanExpiries(ctx, sink, after, info.ModTime.Add(after+time.Hour)); err != nil || len(again) != 0 {
		t.Errorf("PlanExpiries after the expiry = %+v, %v; want nothing", again, err)
	}
}
