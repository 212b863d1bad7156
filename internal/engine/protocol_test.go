package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/faulty"
	"github.com/streamctl/streamctl/providers/generate"
	"github.com/streamctl/streamctl/providers/mem"
	"github.com/streamctl/streamctl/state"
)

// Fast tests of the commit protocol over in-memory stores with injected
// faults: each batch mode (new, resumed, adopted, repair) × a failure at a
// step × the next run without faults, then every record exactly once in
// every destination, and the state committed to the source's end. The e2e
// crash tests, which kill real processes over real stores, stay the proof.

type world struct {
	stateStore *mem.Storage
	dests      map[string]*mem.Storage
	// stagers hold the destinations when they stage uploads on their final
	// keys (as S3 does) instead of promoting copies of _temporary/<N>.
	stagers map[string]*mem.Staging
	// guard, when set for a stager, stands in for it (see intentGuard).
	guard map[string]providers.Storage
	src   *generate.Source
	fired []string // the faults the last apply met
	// tables are the destinations' tables, when they commit to one.
	tables map[string]Table
	// maxBatches bounds the batches an apply runs (0: all).
	maxBatches int64
	// stateWrites counts the writes of the sink's state document.
	stateWrites int
	// fence, when set, is the engine's Fence.
	fence func(sink string) error
	// layout, when set, is the sink's output layout instead of JSONL
	// passed through.
	layout *pipeline.Layout
	// onEvent, when set, is the engine's OnEvent.
	onEvent func(Event)
	// bound, when set, is the engine's Bound.
	bound func(ctx context.Context, sink string) (context.Context, context.CancelFunc)
	// stateView, when set, wraps the state's store as the engine sees it.
	stateView func(providers.Storage) providers.Storage
}

func (w *world) sinkLayout() pipeline.Layout {
	if w.layout != nil {
		return *w.layout
	}
	return pipeline.Layout{Format: "jsonl"}
}

// promotion names the two ways a destination promotes a batch.
type promotion string

const (
	byCopy    promotion = "copy"
	byPublish promotion = "publish"
)

func newWorld(perPartition int64) *world { return newWorldPromoting(byCopy, perPartition) }

func newWorldPromoting(p promotion, perPartition int64) *world {
	w := &world{
		stateStore: mem.New("state"),
		dests:      map[string]*mem.Storage{"a": mem.New("a"), "b": mem.New("b")},
		src:        &generate.Source{Partitions: 2, RecordsPerPartition: perPartition},
	}
	if p == byPublish {
		w.stagers = map[string]*mem.Staging{"a": mem.NewStaging("a"), "b": mem.NewStaging("b")}
		for name, st := range w.stagers {
			w.dests[name] = st.Storage
		}
	}
	return w
}

// apply plans and applies the sink once, with the faults given per store
// ("state", "a", "b").
func (w *world) apply(t *testing.T, faults map[string][]faulty.Fault) error {
	t.Helper()
	ctx := context.Background()
	w.fired = nil
	var wrapped []*faulty.Storage
	defer func() {
		for _, f := range wrapped {
			w.fired = append(w.fired, f.Fired()...)
		}
	}()
	wrap := func(name string, s providers.Storage) providers.Storage {
		st := w.stagers[name]
		fs := faults[name]
		switch {
		case st != nil && len(fs) > 0:
			f := faulty.Wrap(st, fs...)
			wrapped = append(wrapped, f)
			return f
		case w.guard[name] != nil:
			return w.guard[name]
		case st != nil:
			return st
		case len(fs) > 0:
			f := faulty.Wrap(s, fs...)
			wrapped = append(wrapped, f)
			return f
		}
		return s
	}
	var stateStore providers.Storage = &countingStore{Storage: wrap("state", w.stateStore), key: sinkDoc, n: &w.stateWrites}
	if w.stateView != nil {
		stateStore = w.stateView(stateStore)
	}
	mgr, err := state.Load(ctx, state.NewRemote(stateStore, "state.json"), "test")
	if err != nil {
		return err
	}
	sink := &Sink{Name: "orders", SourceType: "generate", SourceName: "g", Source: w.src,
		Layout: w.sinkLayout(), LayoutHash: "h"}
	for _, d := range []string{"a", "b"} {
		dest := Destination{Name: d, Storage: wrap(d, w.dests[d])}
		if t := w.tables[d]; t != nil {
			dest.Table = t
		}
		sink.Destinations = append(sink.Destinations, dest)
	}
	st := mgr.State().Sinks["orders"]
	obs, err := Observe(ctx, sink, st)
	if err != nil {
		return err
	}
	snap, err := w.src.Snapshot(ctx)
	if err != nil {
		return err
	}
	plan, err := planner.PlanSink(planner.SinkInput{Name: "orders", SourceType: "generate", SourceName: "g", MaxRecords: 300,
		Destinations: []string{"a", "b"}, Layout: "h", Lineage: mgr.State().Lineage, State: st, Snapshot: snap, Observed: obs})
	if err != nil {
		return err
	}
	eng := &Engine{State: mgr, Version: "test", Fence: w.fence, Bound: w.bound, OnEvent: w.onEvent}
	_, err = eng.ApplySink(ctx, sink, plan, w.maxBatches)
	return err
}

// countingStore counts the writes of one key.
type countingStore struct {
	providers.Storage
	key string
	n   *int
}

func (c *countingStore) PutIfMatch(ctx context.Context, key string, data []byte, version string) (string, error) {
	if key == c.key {
		*c.n++
	}
	return c.Storage.PutIfMatch(ctx, key, data, version)
}

func (c *countingStore) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	if key == c.key {
		*c.n++
	}
	return c.Storage.PutIfAbsent(ctx, key, data)
}

// check asserts every record exactly once in both destinations, counted from
// the files their manifests list, no staged leftovers, and the state
// committed up to the source's end with nothing in flight.
func (w *world) check(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	for name, d := range w.dests {
		ms, err := ReadManifests(ctx, d, "orders", 0)
		if err != nil {
			t.Fatalf("%s: read manifests: %v", name, err)
		}
		seen := map[int64]int{}
		for _, m := range ms {
			for _, f := range m.Files {
				data, _, err := providers.ReadAll(ctx, d, f.Path)
				if err != nil {
					t.Fatalf("%s: batch %d lists %s: %v", name, m.Batch, f.Path, err)
				}
				sc := bufio.NewScanner(bytes.NewReader(data))
				for sc.Scan() {
					var r struct{ ID int64 }
					if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
						t.Fatal(err)
					}
					seen[r.ID]++
				}
			}
		}
		want := int64(w.src.Partitions) * w.src.RecordsPerPartition
		if int64(len(seen)) != want {
			t.Errorf("%s: %d distinct records, want %d", name, len(seen), want)
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("%s: record %d %d times", name, id, n)
			}
		}
		for _, k := range d.Keys() {
			if strings.HasPrefix(k, TemporaryDir+"/") {
				t.Errorf("%s: leftover %s", name, k)
			}
		}
		if st := w.stagers[name]; st != nil {
			st.ListStaged(ctx, "", func(u providers.StagedUpload) error {
				t.Errorf("%s: leftover staged upload of %s", name, u.Key)
				return nil
			})
		}
	}
	mgr, err := state.Load(ctx, state.NewRemote(w.stateStore, "state.json"), "test")
	if err != nil {
		t.Fatal(err)
	}
	ss := mgr.State().Sinks["orders"]
	if ss == nil || ss.InFlight != nil || ss.Offsets["0"] != w.src.RecordsPerPartition || ss.Offsets["1"] != w.src.RecordsPerPartition {
		t.Errorf("the state is not committed to the source's end: %+v", ss)
	}
}

// sinkDoc is the document of sink orders in the remote state "state.json":
// the one the engine's writes go to.
const sinkDoc = "state.json.d/sinks/orders.json"

func TestProtocolConvergesAfterEveryFault(t *testing.T) {
	manifest := func(n int64) string { return ManifestKey("orders", n) }
	type testCase struct {
		name   string
		faults map[string][]faulty.Fault
	}
	// Faults of the promotion by copy: staged files under _temporary/<N>.
	byCopyCases := []testCase{
		{"staging a file fails", map[string][]faulty.Fault{"a": {{Op: faulty.Create, Key: TemporaryDir + "/1/", N: 1}}}},
		{"promotion fails half way", map[string][]faulty.Fault{"b": {{Op: faulty.Copy, Key: "part-00000002", N: 1}}}},
		{"promotion applied, answer lost", map[string][]faulty.Fault{"b": {{Op: faulty.Copy, Key: "part-00000002", N: 1, Applied: true}}}},
		{"cleanup after the manifest fails", map[string][]faulty.Fault{"a": {{Op: faulty.Delete, Key: TemporaryDir + "/0/", N: 1}}}},
	}
	// Faults of the promotion by publishing uploads staged on final keys.
	byPublishCases := []testCase{
		{"staging a file fails", map[string][]faulty.Fault{"a": {{Op: faulty.Stage, Key: "part-00000001", N: 1}}}},
		{"staging applied, answer lost", map[string][]faulty.Fault{"a": {{Op: faulty.Stage, Key: "part-00000001", N: 1, Applied: true}}}},
		{"publishing fails half way", map[string][]faulty.Fault{"b": {{Op: faulty.Publish, Key: "part-00000002", N: 1}}}},
		{"publishing applied, answer lost", map[string][]faulty.Fault{"b": {{Op: faulty.Publish, Key: "part-00000002", N: 1, Applied: true}}}},
		{"listing staged uploads fails", map[string][]faulty.Fault{"a": {{Op: faulty.ListStaged, N: 2}}}},
	}
	for _, p := range []promotion{byCopy, byPublish} {
		cases := byCopyCases
		if p == byPublish {
			cases = byPublishCases
		}
		for _, tc := range append(cases, []testCase{
			{"intent write fails", map[string][]faulty.Fault{"state": {{Op: faulty.PutIfMatch, Key: sinkDoc, N: 2}}}},
			{"intent answer lost", map[string][]faulty.Fault{"state": {{Op: faulty.PutIfMatch, Key: sinkDoc, N: 2, Applied: true}}}},
			{"manifest write fails in one destination", map[string][]faulty.Fault{"b": {{Op: faulty.PutIfAbsent, Key: manifest(1), N: 1}}}},
			{"manifest answer lost", map[string][]faulty.Fault{"a": {{Op: faulty.PutIfAbsent, Key: manifest(2), N: 1, Applied: true}}}},
			// Write 3 commits batch 0 and logs batch 1's intent; write 4
			// commits batch 1, the last.
			{"state commit with the next intent fails", map[string][]faulty.Fault{"state": {{Op: faulty.PutIfMatch, Key: sinkDoc, N: 3}}}},
			{"state commit with the next intent, answer lost", map[string][]faulty.Fault{"state": {{Op: faulty.PutIfMatch, Key: sinkDoc, N: 3, Applied: true}}}},
			{"state commit fails", map[string][]faulty.Fault{"state": {{Op: faulty.PutIfMatch, Key: sinkDoc, N: 4}}}},
			{"state commit answer lost", map[string][]faulty.Fault{"state": {{Op: faulty.PutIfMatch, Key: sinkDoc, N: 4, Applied: true}}}},
			{"owner record write fails", map[string][]faulty.Fault{"a": {{Op: faulty.PutIfAbsent, Key: OwnerKey, N: 1}}}},
			{"listing a destination fails", map[string][]faulty.Fault{"b": {{Op: faulty.List, Key: MetadataDir, N: 2}}}},
		}...) {
			t.Run(string(p)+"/"+tc.name, func(t *testing.T) {
				w := newWorldPromoting(p, 500)
				first := w.apply(t, tc.faults)
				if len(w.fired) != countFaults(tc.faults) {
					t.Fatalf("%d of the %d faults fired (%v; run: %v): the test tests less than it says", len(w.fired), countFaults(tc.faults), w.fired, first)
				}
				// A lost answer settled by the rule of the Storage contract may
				// let the run go on; any other fault stops it.
				if first != nil && !errors.Is(first, faulty.ErrInjected) {
					t.Fatalf("the faulty run failed on something else: %v", first)
				}
				if err := w.apply(t, nil); err != nil {
					t.Fatalf("the next run: %v", err)
				}
				w.check(t)
			})
		}
	}
}

func countFaults(faults map[string][]faulty.Fault) int {
	n := 0
	for _, fs := range faults {
		n += len(fs)
	}
	return n
}

// TestOneStateWritePerBatch: a batch's commit logs the next batch's intent,
// so a run of N batches writes the sink's state N+1 times (the first intent,
// then one commit each), and a run stopped by -max-batches leaves no batch in
// flight.
func TestOneStateWritePerBatch(t *testing.T) {
	ctx := context.Background()
	w := newWorld(1500) // 2 × 1,500 records in batches of 300: 10 batches
	w.maxBatches = 3
	if err := w.apply(t, nil); err != nil {
		t.Fatal(err)
	}
	if w.stateWrites != 3+1 {
		t.Errorf("3 batches wrote the sink's state %d times, want 4", w.stateWrites)
	}
	mgr, err := state.Load(ctx, state.NewRemote(w.stateStore, "state.json"), "test")
	if err != nil {
		t.Fatal(err)
	}
	if ss := mgr.State().Sinks["orders"]; ss.InFlight != nil || ss.CommittedBatches != 3 {
		t.Fatalf("after -max-batches 3: %d batches committed, in flight %+v; want 3 and none", ss.CommittedBatches, ss.InFlight)
	}
	w.maxBatches, w.stateWrites = 0, 0
	if err := w.apply(t, nil); err != nil {
		t.Fatal(err)
	}
	if w.stateWrites != 7+1 {
		t.Errorf("the last 7 batches wrote the sink's state %d times, want 8", w.stateWrites)
	}
	w.check(t)
}

// TestFenceStopsTheWrites: once the fence fails (the lock may be lost), at
// whichever of its checks, the sink stops with its error and the state is not
// written again; the next apply, under a lock of its own, converges.
func TestFenceStopsTheWrites(t *testing.T) {
	for _, p := range []promotion{byCopy, byPublish} {
		for k := 1; ; k++ {
			w := newWorldPromoting(p, 700) // 2 × 700 records, batches of 300: 5 batches
			var mu sync.Mutex              // promotions check it from several goroutines
			calls, writesAtFailure := 0, -1
			w.fence = func(sink string) error {
				mu.Lock()
				defer mu.Unlock()
				calls++
				if calls < k {
					return nil
				}
				if writesAtFailure < 0 {
					writesAtFailure = w.stateWrites
				}
				return fmt.Errorf("the lock of sink %q: %w", sink, state.ErrLockLost)
			}
			err := w.apply(t, nil)
			if writesAtFailure < 0 {
				if err != nil {
					t.Fatalf("%s: an apply whose fence passed failed: %v", p, err)
				}
				if k < 10 {
					t.Fatalf("%s: the fence was checked only %d times for 5 batches", p, calls)
				}
				w.check(t)
				break
			}
			if !errors.Is(err, state.ErrLockLost) {
				t.Fatalf("%s: fence failing at check %d: the apply returned %v, want the lost lock", p, k, err)
			}
			if w.stateWrites != writesAtFailure {
				t.Errorf("%s: fence failing at check %d: the state was written %d times after it failed", p, k, w.stateWrites-writesAtFailure)
			}
			w.fence = nil
			if err := w.apply(t, nil); err != nil {
				t.Fatalf("%s: after the fence failed at check %d: %v", p, k, err)
			}
			w.check(t)
		}
	}
}

// TestProtocolModes: a batch resumed from the state, adopted from a
// destination ahead of an older state, and repaired into a destination that
// lost it, each converge exactly once.
func TestProtocolModes(t *testing.T) {
	ctx := context.Background()
	t.Run("resumed", func(t *testing.T) {
		w := newWorld(500)
		if err := w.apply(t, map[string][]faulty.Fault{"a": {{Op: faulty.PutIfAbsent, Key: ManifestKey("orders", 0), N: 1}}}); !errors.Is(err, faulty.ErrInjected) {
			t.Fatalf("the faulty run: %v", err)
		}
		mgr, err := state.Load(ctx, state.NewRemote(w.stateStore, "state.json"), "test")
		if err != nil {
			t.Fatal(err)
		}
		if mgr.State().Sinks["orders"].InFlight == nil {
			t.Fatal("no batch in flight after a failed manifest")
		}
		if err := w.apply(t, nil); err != nil {
			t.Fatal(err)
		}
		w.check(t)
	})
	t.Run("adopted", func(t *testing.T) {
		w := newWorld(300)
		if err := w.apply(t, nil); err != nil {
			t.Fatal(err)
		}
		old, _, _ := providers.ReadAll(ctx, w.stateStore, sinkDoc)
		w.src.RecordsPerPartition = 600
		if err := w.apply(t, nil); err != nil {
			t.Fatal(err)
		}
		// The state restored from the older copy: the destinations are ahead.
		if err := providers.Put(ctx, w.stateStore, sinkDoc, old); err != nil {
			t.Fatal(err)
		}
		if err := w.apply(t, nil); err != nil {
			t.Fatal(err)
		}
		w.check(t)
	})
	t.Run("repair", func(t *testing.T) {
		w := newWorld(500)
		if err := w.apply(t, nil); err != nil {
			t.Fatal(err)
		}
		m, err := readManifest(ctx, w.dests["b"], "orders", 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m.Files {
			w.dests["b"].Delete(ctx, f.Path)
		}
		w.dests["b"].Delete(ctx, ManifestKey("orders", 1))
		if err := w.apply(t, nil); err != nil {
			t.Fatal(err)
		}
		w.check(t)
	})
}

// TestStagedLeftovers: an upload staged by a run that died stays stored (and
// billed) on S3 until discarded; the next run discards it before redoing the
// batch, and a failed discard only delays convergence by a run.
func TestStagedLeftovers(t *testing.T) {
	ctx := context.Background()
	w := newWorldPromoting(byPublish, 500)
	lost := map[string][]faulty.Fault{"a": {{Op: faulty.Stage, Key: "part-00000001", N: 1, Applied: true}}}
	if err := w.apply(t, lost); !errors.Is(err, faulty.ErrInjected) {
		t.Fatalf("the faulty run: %v", err)
	}
	var left []string
	w.stagers["a"].ListStaged(ctx, "", func(u providers.StagedUpload) error {
		left = append(left, u.Key)
		return nil
	})
	if len(left) == 0 {
		t.Fatal("the lost staging left no upload behind: the test tests nothing")
	}
	failDiscard := map[string][]faulty.Fault{"a": {{Op: faulty.Discard, Key: "part-00000001", N: 1}}}
	if err := w.apply(t, failDiscard); !errors.Is(err, faulty.ErrInjected) || len(w.fired) != 1 {
		t.Fatalf("the run whose discard fails: %v (faults fired: %v)", err, w.fired)
	}
	if err := w.apply(t, nil); err != nil {
		t.Fatal(err)
	}
	w.check(t)
}

// TestStagedOrphansArePlanned: an upload staged for a batch that is not in
// flight (the state moved on without it) is planned as a cleanup and
// discarded, as an orphan _temporary/<N> is.
func TestStagedOrphansArePlanned(t *testing.T) {
	ctx := context.Background()
	w := newWorldPromoting(byPublish, 300)
	if err := w.apply(t, nil); err != nil {
		t.Fatal(err)
	}
	sw, err := w.stagers["b"].Stage(ctx, "part-00000000-00007.jsonl", providers.StageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sw.Write([]byte("{}\n"))
	if _, err := sw.Finish(); err != nil {
		t.Fatal(err)
	}
	obs, err := observe(ctx, &Sink{Name: "orders"}, w.stagers["b"], 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(obs.Temporaries, 0) {
		t.Fatalf("the staged orphan of batch 0 is not observed: %v", obs.Temporaries)
	}
	if err := w.apply(t, nil); err != nil {
		t.Fatal(err)
	}
	w.check(t)
	if _, err := w.dests["b"].Stat(ctx, "part-00000000-00007.jsonl"); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("the discarded orphan became visible: %v", err)
	}
}

// fakeTable is a table format in memory, for the engine's side of the table
// commit (the Iceberg implementation has its own tests against iceberg-go):
// snapshots that record their batch, and injected failures.
type fakeTable struct {
	snapshots []fakeSnapshot
	// failAppend fails the Nth Append; lost applies it first, as when the
	// catalog's answer is lost.
	failAppend, appends int
	lost                bool
	// connectErr is what Connect returns: an unreachable catalog.
	connectErr error
}

type fakeSnapshot struct {
	sink   string
	batch  int64
	files  []FileEntry
	ranges []state.Range
}

func (t *fakeTable) Describe() string { return "table t" }

func (t *fakeTable) Catalog() string { return "catalog c" }

func (t *fakeTable) Connect(context.Context) error { return t.connectErr }

func (t *fakeTable) Open(context.Context) error { return nil }

func (t *fakeTable) Committed(_ context.Context, sink string, batch int64) (bool, error) {
	for _, s := range t.snapshots {
		if s.sink == sink && s.batch == batch {
			return true, nil
		}
	}
	return false, nil
}

func (t *fakeTable) Append(_ context.Context, sink string, batch int64, ranges []state.Range, files []FileEntry) error {
	t.appends++
	if t.appends == t.failAppend {
		if t.lost {
			t.snapshots = append(t.snapshots, fakeSnapshot{sink, batch, files, ranges})
		}
		return faulty.ErrInjected
	}
	t.snapshots = append(t.snapshots, fakeSnapshot{sink, batch, files, ranges})
	return nil
}

// TestTableCommits: a destination with a table commits each batch as one
// snapshot, before its manifest; a failed or lost table commit, or a
// failure between it and the manifest, is redone without a second snapshot,
// and the table's files hold every record once.
func TestTableCommits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		table  fakeTable
		faults map[string][]faulty.Fault
	}{
		{"no fault", fakeTable{}, nil},
		{"table commit fails", fakeTable{failAppend: 2}, nil},
		{"table commit applied, answer lost", fakeTable{failAppend: 2, lost: true}, nil},
		{"manifest fails after the table commit", fakeTable{}, map[string][]faulty.Fault{"a": {{Op: faulty.PutIfAbsent, Key: ManifestKey("orders", 1), N: 1}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(500)
			table := tc.table
			w.tables = map[string]Table{"a": &table}
			first := w.apply(t, tc.faults)
			if (tc.table.failAppend > 0 || tc.faults != nil) && !errors.Is(first, faulty.ErrInjected) {
				t.Fatalf("the faulty run: %v", first)
			}
			if err := w.apply(t, nil); err != nil {
				t.Fatal(err)
			}
			w.check(t)
			ms, err := ReadManifests(context.Background(), w.dests["a"], "orders", 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(table.snapshots) != len(ms) {
				t.Fatalf("%d snapshots for %d batches: %+v", len(table.snapshots), len(ms), table.snapshots)
			}
			seen := map[int64]bool{}
			records := int64(0)
			for _, s := range table.snapshots {
				if seen[s.batch] {
					t.Errorf("batch %d has two snapshots", s.batch)
				}
				seen[s.batch] = true
				for _, f := range s.files {
					records += f.Records
				}
			}
			if want := int64(w.src.Partitions) * w.src.RecordsPerPartition; records != want {
				t.Errorf("the table's files hold %d records, want %d", records, want)
			}
		})
	}
}

// TestTableCatalogUnreachable: a table whose catalog does not answer stops
// the apply before anything is written: no state, no owner record, no
// file in any destination, and the error names the catalog and the
// destination.
func TestTableCatalogUnreachable(t *testing.T) {
	w := newWorld(500)
	w.tables = map[string]Table{"b": &fakeTable{connectErr: errors.New("connection refused")}}
	err := w.apply(t, nil)
	if err == nil || !strings.Contains(err.Error(), "open catalog c for destination b: connection refused") {
		t.Fatalf("apply = %v, want the catalog and the destination named", err)
	}
	for name, s := range map[string]*mem.Storage{"state": w.stateStore, "a": w.dests["a"], "b": w.dests["b"]} {
		if keys := s.Keys(); len(keys) > 0 {
			t.Errorf("%s was written: %v", name, keys)
		}
	}
}
