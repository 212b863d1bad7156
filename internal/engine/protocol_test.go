package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
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
	src        *generate.Source
	fired      []string // the faults the last apply met
}

func newWorld(perPartition int64) *world {
	return &world{
		stateStore: mem.New("state"),
		dests:      map[string]*mem.Storage{"a": mem.New("a"), "b": mem.New("b")},
		src:        &generate.Source{Partitions: 2, RecordsPerPartition: perPartition},
	}
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
		if fs := faults[name]; len(fs) > 0 {
			f := faulty.Wrap(s, fs...)
			wrapped = append(wrapped, f)
			return f
		}
		return s
	}
	mgr, err := state.Load(ctx, state.NewRemote(wrap("state", w.stateStore), "state.json"), "test")
	if err != nil {
		return err
	}
	sink := &Sink{Name: "orders", SourceType: "generate", SourceName: "g", Source: w.src,
		Layout: pipeline.Layout{Format: "jsonl"}, LayoutHash: "h"}
	for _, d := range []string{"a", "b"} {
		sink.Destinations = append(sink.Destinations, Destination{Name: d, Storage: wrap(d, w.dests[d])})
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
	eng := &Engine{State: mgr, Version: "test"}
	_, err = eng.ApplySink(ctx, sink, plan, 0)
	return err
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
	}
	data, _, err := providers.ReadAll(ctx, w.stateStore, "state.json")
	if err != nil {
		t.Fatal(err)
	}
	st, err := state.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	ss := st.Sinks["orders"]
	if ss == nil || ss.InFlight != nil || ss.Offsets["0"] != w.src.RecordsPerPartition || ss.Offsets["1"] != w.src.RecordsPerPartition {
		t.Errorf("the state is not committed to the source's end: %+v", ss)
	}
}

func TestProtocolConvergesAfterEveryFault(t *testing.T) {
	manifest := func(n int64) string { return ManifestKey("orders", n) }
	for _, tc := range []struct {
		name   string
		faults map[string][]faulty.Fault
	}{
		{"intent write fails", map[string][]faulty.Fault{"state": {{Op: faulty.PutIfMatch, Key: "state.json", N: 2}}}},
		{"intent answer lost", map[string][]faulty.Fault{"state": {{Op: faulty.PutIfMatch, Key: "state.json", N: 2, Applied: true}}}},
		{"staging a file fails", map[string][]faulty.Fault{"a": {{Op: faulty.Create, Key: TemporaryDir + "/1/", N: 1}}}},
		{"promotion fails half way", map[string][]faulty.Fault{"b": {{Op: faulty.Copy, Key: "part-00000002", N: 1}}}},
		{"promotion applied, answer lost", map[string][]faulty.Fault{"b": {{Op: faulty.Copy, Key: "part-00000002", N: 1, Applied: true}}}},
		{"manifest write fails in one destination", map[string][]faulty.Fault{"b": {{Op: faulty.PutIfAbsent, Key: manifest(1), N: 1}}}},
		{"manifest answer lost", map[string][]faulty.Fault{"a": {{Op: faulty.PutIfAbsent, Key: manifest(2), N: 1, Applied: true}}}},
		{"cleanup after the manifest fails", map[string][]faulty.Fault{"a": {{Op: faulty.Delete, Key: TemporaryDir + "/0/", N: 1}}}},
		{"state commit fails", map[string][]faulty.Fault{"state": {{Op: faulty.PutIfMatch, Key: "state.json", N: 5}}}},
		{"state commit answer lost", map[string][]faulty.Fault{"state": {{Op: faulty.PutIfMatch, Key: "state.json", N: 5, Applied: true}}}},
		{"owner record write fails", map[string][]faulty.Fault{"a": {{Op: faulty.PutIfAbsent, Key: OwnerKey, N: 1}}}},
		{"listing a destination fails", map[string][]faulty.Fault{"b": {{Op: faulty.List, Key: MetadataDir, N: 2}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(500)
			first := w.apply(t, tc.faults)
			if len(w.fired) == 0 {
				t.Fatalf("the fault never fired (run: %v): the test tests nothing", first)
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
		data, _, _ := providers.ReadAll(ctx, w.stateStore, "state.json")
		if st, _ := state.Decode(data); st.Sinks["orders"].InFlight == nil {
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
		old, _, _ := providers.ReadAll(ctx, w.stateStore, "state.json")
		w.src.RecordsPerPartition = 600
		if err := w.apply(t, nil); err != nil {
			t.Fatal(err)
		}
		// The state restored from the older copy: the destinations are ahead.
		if err := providers.Put(ctx, w.stateStore, "state.json", old); err != nil {
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
