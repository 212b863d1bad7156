package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/faulty"
	"github.com/streamctl/streamctl/state"
)

// Engine tests of compaction over in-memory stores with injected faults: a
// sink's four committed batches in destination a are compacted with a fault
// at each step; right after the fault a reader through the manifests sees
// every record once (the old files or the new, never both or neither), and
// the next run finishes the compaction in flight, leaving the same files as
// a run without faults, the replaced ones deleted and nothing staged.

// maintain runs Engine.Maintain over w's stores with faults, as the next
// apply after the batches would.
func (w *world) maintain(t *testing.T, faults map[string][]faulty.Fault, p CompactionPolicy, now time.Time) ([]*state.Compaction, error) {
	t.Helper()
	ctx := context.Background()
	w.fired = nil
	wrap := func(name string, s providers.Storage) providers.Storage {
		if fs := faults[name]; len(fs) > 0 {
			f := faulty.Wrap(s, fs...)
			t.Cleanup(func() { w.fired = append(w.fired, f.Fired()...) })
			return &firedStorage{Storage: f, w: w}
		}
		return s
	}
	mgr, err := state.Load(ctx, state.NewRemote(wrap("state", w.stateStore), "state.json"), "test")
	if err != nil {
		return nil, err
	}
	sink := w.sink(wrap)
	eng := &Engine{State: mgr, Version: "test", Now: func() time.Time { return now }}
	return eng.Maintain(ctx, sink, p)
}

// firedStorage records the faults of its store as they fire.
type firedStorage struct {
	*faulty.Storage
	w *world
}

func (w *world) sink(wrap func(string, providers.Storage) providers.Storage) *Sink {
	sink := &Sink{Name: "orders", SourceType: "generate", SourceName: "g", Source: w.src,
		Layout: w.sinkLayout(), LayoutHash: "h"}
	for _, d := range []string{"a", "b"} {
		sink.Destinations = append(sink.Destinations, Destination{Name: d, Storage: wrap(d, w.dests[d])})
	}
	return sink
}

// readThroughManifests counts each record's ID in the files d's live
// manifests list, as `streamctl files` lists them.
func readThroughManifests(t *testing.T, d providers.Storage) (map[int64]int, []CommittedFile) {
	t.Helper()
	ctx := context.Background()
	files, err := CommittedFiles(ctx, Destination{Name: "a", Storage: d}, "orders")
	if err != nil {
		t.Fatalf("list the committed files: %v", err)
	}
	seen := map[int64]int{}
	for _, f := range files {
		data, _, err := providers.ReadAll(ctx, d, f.Path)
		if err != nil {
			t.Fatalf("a listed file is gone: %s: %v", f.Path, err)
		}
		for line := range bytes.Lines(data) {
			var r struct{ ID int64 }
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatalf("%s: %v", f.Path, err)
			}
			seen[r.ID]++
		}
	}
	return seen, files
}

func checkOnce(t *testing.T, when string, seen map[int64]int, want int) {
	t.Helper()
	if len(seen) != want {
		t.Errorf("%s: %d distinct records through the manifests, want %d", when, len(seen), want)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s: record %d read %d times through the manifests", when, id, n)
		}
	}
}

// dataFiles maps the data files of d (outside the control folders) to
// their bytes.
func dataFiles(d interface{ Keys() []string }, s providers.Storage) map[string]string {
	out := map[string]string{}
	for _, k := range d.Keys() {
		if strings.HasPrefix(k, MetadataDir+"/") || strings.HasPrefix(k, TemporaryDir+"/") {
			continue
		}
		data, _, _ := providers.ReadAll(context.Background(), s, k)
		out[k] = string(data)
	}
	return out
}

var compactionPolicy = CompactionPolicy{TargetSize: 40 << 10, After: time.Hour}

// batchedWorld is a world whose sink committed its 4 batches of 300, 300,
// 300 and 100 records in both destinations.
func batchedWorld(t *testing.T) *world {
	w := newWorld(500)
	if err := w.apply(t, nil); err != nil {
		t.Fatalf("apply: %v", err)
	}
	w.check(t)
	return w
}

func TestCompactionWithoutFaults(t *testing.T) {
	w := batchedWorld(t)
	before := dataFiles(w.dests["a"], w.dests["a"])
	if len(before) != 4 {
		t.Fatalf("%d data files before, want 4 (one a batch)", len(before))
	}
	// Not due yet: the batches were committed less than an hour ago.
	done, err := w.maintain(t, nil, compactionPolicy, time.Now())
	if err != nil || len(done) != 0 {
		t.Fatalf("Maintain an hour early: %v, %v; want nothing done", done, err)
	}
	done, err = w.maintain(t, nil, compactionPolicy, time.Now().Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 2 || done[0].Destination != "a" || done[1].Destination != "b" ||
		fmt.Sprint(done[0].Replaces) != "[0.json 1.json 2.json 3.json]" {
		t.Fatalf("compactions done: %+v; want one of batches 0–3 in each destination", done)
	}
	after := dataFiles(w.dests["a"], w.dests["a"])
	names := sortedKeys(after)
	for i, n := range names {
		if !strings.HasPrefix(n, fmt.Sprintf("compact-00000001-%05d.", i)) {
			t.Errorf("data file %d after is %s, want compact-00000001-%05d.jsonl", i, n, i)
		}
		// JSONL files end with the record that takes them to the target.
		if i < len(names)-1 && int64(len(after[n])) < compactionPolicy.TargetSize {
			t.Errorf("%s: %d bytes, want at least %d", n, len(after[n]), compactionPolicy.TargetSize)
		}
	}
	if len(names) < 2 || int64(len(after[names[len(names)-1]])) >= compactionPolicy.TargetSize {
		t.Errorf("data files after: %v, want several, the last one short", names)
	}
	var all, want strings.Builder
	for _, k := range sortedKeys(before) {
		want.WriteString(before[k])
	}
	for _, k := range sortedKeys(after) {
		all.WriteString(after[k])
	}
	if all.String() != want.String() {
		t.Error("the compacted files do not hold the batches' rows in their order (by batch, then file, then row)")
	}
	seen, files := readThroughManifests(t, w.dests["a"])
	checkOnce(t, "after", seen, 1000)
	if len(files) != len(names) || files[0].Compaction != 1 || files[0].Batch != 3 {
		t.Errorf("committed files %+v: want the compaction's %d", files, len(names))
	}
	w.checkCompacted(t)
	// Converged: nothing more is due, the small last file alone in its folder.
	if done, err := w.maintain(t, nil, compactionPolicy, time.Now().Add(4*time.Hour)); err != nil || len(done) != 0 {
		t.Errorf("a second Maintain: %v, %v; want nothing done", done, err)
	}
	v, err := Verify(context.Background(), w.sink(func(_ string, s providers.Storage) providers.Storage { return s }), true)
	if err != nil || len(v.Findings) != 0 {
		t.Errorf("verify after the compaction: %+v, %v", v.Findings, err)
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range maps.Keys(m) {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

// TestCompactionFaults fails each step of a compaction once, then runs
// again without faults.
func TestCompactionFaults(t *testing.T) {
	ref := batchedWorld(t)
	if _, err := ref.maintain(t, nil, compactionPolicy, time.Now().Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	want := dataFiles(ref.dests["a"], ref.dests["a"])

	for _, tc := range []struct {
		name  string
		store string
		fault faulty.Fault
		// notLogged: the intent did not reach the state, and the next run
		// plans the compaction afresh.
		notLogged bool
	}{
		{"intent", "state", faulty.Fault{Op: faulty.PutIfMatch, N: 1}, true},
		{"intent applied, answer lost", "state", faulty.Fault{Op: faulty.PutIfMatch, N: 1, Applied: true}, false},
		{"first staged file", "a", faulty.Fault{Op: faulty.Create, Key: "_temporary/compaction-1/", N: 1}, false},
		{"last staged file", "a", faulty.Fault{Op: faulty.Create, Key: "_temporary/compaction-1/", N: 3}, false},
		{"reading a replaced file", "a", faulty.Fault{Op: faulty.Get, Key: "part-00000002", N: 1}, false},
		{"first promotion", "a", faulty.Fault{Op: faulty.Copy, Key: "compact-", N: 1}, false},
		{"last promotion", "a", faulty.Fault{Op: faulty.Copy, Key: "compact-00000001-00002", N: 1}, false},
		{"manifest", "a", faulty.Fault{Op: faulty.PutIfAbsent, Key: "compaction-1.json", N: 1}, false},
		{"manifest applied, answer lost", "a", faulty.Fault{Op: faulty.PutIfAbsent, Key: "compaction-1.json", N: 1, Applied: true}, false},
		{"first delete", "a", faulty.Fault{Op: faulty.Delete, Key: "part-", N: 1}, false},
		{"third delete", "a", faulty.Fault{Op: faulty.Delete, Key: "part-", N: 3}, false},
		{"staging removal", "a", faulty.Fault{Op: faulty.Delete, Key: "_temporary/compaction-1/", N: 1}, false},
		{"intent cleared", "state", faulty.Fault{Op: faulty.PutIfMatch, N: 2}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := batchedWorld(t)
			later := time.Now().Add(2 * time.Hour)
			_, err := w.maintain(t, map[string][]faulty.Fault{tc.store: {tc.fault}}, compactionPolicy, later)
			if !errors.Is(err, faulty.ErrInjected) {
				t.Fatalf("Maintain with the fault: %v, want the injected fault (fired: %v)", err, w.fired)
			}
			seen, _ := readThroughManifests(t, w.dests["a"])
			checkOnce(t, "right after the fault", seen, 1000)

			// The next run finishes the compaction in flight, whatever the
			// policy says now (nothing would be due under it).
			next := CompactionPolicy{TargetSize: 1, After: 1000 * time.Hour}
			if tc.notLogged {
				next = compactionPolicy
			}
			if _, err := w.maintain(t, nil, next, later); err != nil {
				t.Fatalf("the next run: %v", err)
			}
			if got := dataFiles(w.dests["a"], w.dests["a"]); !maps.Equal(got, want) {
				t.Errorf("data files %v, want those of a run without faults, %v", sortedKeys(got), sortedKeys(want))
			}
			seen, _ = readThroughManifests(t, w.dests["a"])
			checkOnce(t, "after the next run", seen, 1000)
			w.checkCompacted(t)
			mgr, err := state.Load(context.Background(), state.NewRemote(w.stateStore, "state.json"), "test")
			if err != nil {
				t.Fatal(err)
			}
			if c := mgr.State().Sinks["orders"].Compaction; c != nil {
				t.Errorf("a compaction is still in flight: %+v", c)
			}
		})
	}
}

// checkCompacted checks what world.check does once destination a is
// compacted: every record once through the manifests in both destinations,
// every batch still committed by its manifest, nothing staged.
func (w *world) checkCompacted(t *testing.T) {
	t.Helper()
	for name, d := range w.dests {
		seen, _ := readThroughManifests(t, d)
		checkOnce(t, name, seen, int(int64(w.src.Partitions)*w.src.RecordsPerPartition))
		ms, err := ReadManifests(context.Background(), d, "orders", 0)
		if err != nil || len(ms) != 4 {
			t.Errorf("%s: %d batch manifests (%v), want 4", name, len(ms), err)
		}
		for _, k := range d.Keys() {
			if strings.HasPrefix(k, TemporaryDir+"/") {
				t.Errorf("%s: leftover %s", name, k)
			}
		}
	}
}

// TestCompactionSurvivesAMove: a sink renamed after a compaction takes its
// compaction manifests along, or readers under the new name would list the
// replaced files, deleted, and not the compacted ones.
func TestCompactionSurvivesAMove(t *testing.T) {
	w := batchedWorld(t)
	if _, err := w.maintain(t, nil, compactionPolicy, time.Now().Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	mgr, err := state.Load(ctx, state.NewRemote(w.stateStore, "state.json"), "test")
	if err != nil {
		t.Fatal(err)
	}
	sink := w.sink(func(_ string, s providers.Storage) providers.Storage { return s })
	sink.Name = "sales"
	if err := (&Engine{State: mgr, Version: "test"}).MoveSink(ctx, sink, "orders"); err != nil {
		t.Fatalf("move: %v", err)
	}
	for name, d := range w.dests {
		files, err := CommittedFiles(ctx, Destination{Name: name, Storage: d}, "sales")
		if err != nil {
			t.Fatal(err)
		}
		records := int64(0)
		for _, f := range files {
			if f.Compaction != 1 {
				t.Errorf("%s: %s listed under the new name, want the compaction's files only", name, f.Path)
			}
			if _, _, err := providers.ReadAll(ctx, d, f.Path); err != nil {
				t.Errorf("%s: a listed file is gone: %v", name, err)
			}
			records += f.Records
		}
		if records != 1000 {
			t.Errorf("%s: %d records listed under the new name, want 1000", name, records)
		}
	}
}

// TestReplaceOfACompactedBatchIsRefused: -replace puts a batch's files
// back where they were; a compacted batch's were deleted, and its rows are
// in the compaction's files, so putting them back would make a glob read
// them twice.
func TestReplaceOfACompactedBatchIsRefused(t *testing.T) {
	w := batchedWorld(t)
	if _, err := w.maintain(t, nil, compactionPolicy, time.Now().Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	sink := w.sink(func(_ string, s providers.Storage) providers.Storage { return s })
	ms, err := ReadManifests(context.Background(), w.dests["a"], "orders", 0)
	if err != nil {
		t.Fatal(err)
	}
	b := planner.Batch{ID: 2, Replace: true}
	_, err = checkReplacement(context.Background(), sink, b, &sink.Destinations[0], ms[2].Files)
	if err == nil || !strings.Contains(err.Error(), "replace batch 2 in a: compaction 1 rewrote its rows") {
		t.Errorf("replace a compacted batch: %v", err)
	}
}

// TestCompactionOfBatchesOlderThanTheHistory: the state's history says
// which layout a batch was written with; past it, a batch is compacted only
// when the sink never had another layout, or its files could be rewritten
// with columns they do not have.
func TestCompactionOfBatchesOlderThanTheHistory(t *testing.T) {
	w := batchedWorld(t)
	ctx := context.Background()
	mgr, err := state.Load(ctx, state.NewRemote(w.stateStore, "state.json"), "test")
	if err != nil {
		t.Fatal(err)
	}
	sink := w.sink(func(_ string, s providers.Storage) providers.Storage { return s })
	later := time.Now().Add(2 * time.Hour)
	for _, tc := range []struct {
		name    string
		change  func(st *state.Sink)
		planned bool
	}{
		{"in the history", func(*state.Sink) {}, true},
		{"past the history, one layout ever", func(st *state.Sink) { st.History = nil }, true},
		{"past the history, after a layout change", func(st *state.Sink) {
			st.History = nil
			st.FormerLayouts = []state.Layout{{Hash: "older"}}
		}, false},
		{"in the history, with another layout", func(st *state.Sink) {
			st.History = slices.Clone(st.History)
			for i := range st.History {
				st.History[i].Layout = "older"
			}
		}, false},
	} {
		st := *mgr.State().Sinks["orders"]
		tc.change(&st)
		c, err := PlanCompaction(ctx, sink, &st, sink.Destinations[0], compactionPolicy, later)
		if err != nil {
			t.Fatal(err)
		}
		if (c != nil) != tc.planned {
			t.Errorf("%s: planned %+v, want planned = %v", tc.name, c, tc.planned)
		}
	}
}

// TestCompactionKeepsTheRejects: the rejects of the batches compacted are
// not rewritten: the compaction's manifest lists them where they are, and
// they are not deleted with the files it replaces.
func TestCompactionKeepsTheRejects(t *testing.T) {
	w := newWorld(500)
	// The ids of partition 1 (past 10^12) are no int32: they are rejected.
	w.layout = &pipeline.Layout{Format: "jsonl", OnInvalid: "reject", Columns: []format.Column{{Name: "id", Type: "int32"}}}
	if err := w.apply(t, nil); err != nil {
		t.Fatalf("apply: %v", err)
	}
	ctx := context.Background()
	count := func() (data, rejects int64, paths []string) {
		files, err := CommittedFiles(ctx, Destination{Name: "a", Storage: w.dests["a"]}, "orders")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			got, _, err := providers.ReadAll(ctx, w.dests["a"], f.Path)
			if err != nil {
				t.Fatalf("a listed file is gone: %v", err)
			}
			n := int64(bytes.Count(got, []byte("\n")))
			if isDataFile(f.Path) {
				data += n
			} else {
				rejects += n
				paths = append(paths, f.Path)
			}
		}
		return data, rejects, paths
	}
	data, rejects, before := count()
	if rejects == 0 || data == 0 || data+rejects != 1000 {
		t.Fatalf("before: %d records and %d rejects, want both, 1000 in all", data, rejects)
	}
	done, err := w.maintain(t, nil, CompactionPolicy{TargetSize: 1 << 20, After: time.Hour}, time.Now().Add(2*time.Hour))
	if err != nil || len(done) != 2 {
		t.Fatalf("Maintain: %v, %v", done, err)
	}
	data2, rejects2, after := count()
	if data2 != data || rejects2 != rejects || !slices.Equal(before, after) {
		t.Errorf("after: %d records and %d rejects in %v, want %d and %d in %v", data2, rejects2, after, data, rejects, before)
	}
}

// TestASecondCompactionTakesTheFirstsSmallFile: batches committed after a
// compaction are compacted with its last, small file, whose manifest the
// new one replaces in turn; readers see every record once through both.
func TestASecondCompactionTakesTheFirstsSmallFile(t *testing.T) {
	w := batchedWorld(t)
	if _, err := w.maintain(t, nil, compactionPolicy, time.Now().Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	w.src.RecordsPerPartition = 1000
	if err := w.apply(t, nil); err != nil {
		t.Fatalf("apply: %v", err)
	}
	done, err := w.maintain(t, nil, compactionPolicy, time.Now().Add(4*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 2 || done[0].ID != 2 || fmt.Sprint(done[0].Replaces) != "[compaction-1.json 4.json 5.json 6.json 7.json]" {
		t.Fatalf("compactions done: %+v; want compaction 2 of compaction 1 and batches 4–7", *done[0])
	}
	seen, files := readThroughManifests(t, w.dests["a"])
	checkOnce(t, "after the second compaction", seen, 2000)
	for _, f := range files {
		if f.Compaction != 2 || f.Batch != 7 {
			t.Errorf("listed: %+v, want compaction 2's files only", f)
		}
	}
	for k := range dataFiles(w.dests["a"], w.dests["a"]) {
		if !strings.HasPrefix(k, "compact-00000002-") {
			t.Errorf("%s is left after the second compaction", k)
		}
	}
}
