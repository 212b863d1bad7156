package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/faulty"
	"github.com/streamctl/streamctl/providers/generate"
	"github.com/streamctl/streamctl/providers/local"
	"github.com/streamctl/streamctl/providers/mem"
	"github.com/streamctl/streamctl/state"
)

// applyOnce plans and applies sink "orders" of two partitions into dest.
func applyOnce(t *testing.T, dest providers.Storage) error {
	t.Helper()
	ctx := context.Background()
	mgr, err := state.Load(ctx, state.NewRemote(mem.New("state"), "state.json"), "test")
	if err != nil {
		t.Fatal(err)
	}
	src := &generate.Source{Partitions: 2, RecordsPerPartition: 50}
	sink := &Sink{Name: "orders", SourceType: "generate", SourceName: "g", Source: src,
		Layout: pipeline.Layout{Format: "jsonl"}, LayoutHash: "h",
		Destinations: []Destination{{Name: "a", Storage: dest}}}
	obs, err := Observe(ctx, sink, nil)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := src.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := planner.PlanSink(planner.SinkInput{Name: "orders", SourceType: "generate", SourceName: "g", MaxRecords: 40,
		Destinations: []string{"a"}, Layout: "h", Lineage: mgr.State().Lineage, Snapshot: snap, Observed: obs})
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&Engine{State: mgr, Version: "test"}).ApplySink(ctx, sink, plan, 0)
	return err
}

// TestWrappedLocalStorePromotesByRename: a local folder wrapped with faults
// promotes a batch as the bare folder does, by rename, and removes
// _temporary/<N>/ whole; a wrapper that hid those capabilities would send it
// through Copy and Delete, so fault tests over a local folder would test a
// path no user runs. The faults below fire only on that other path.
func TestWrappedLocalStorePromotesByRename(t *testing.T) {
	dir := t.TempDir()
	wrapped := faulty.Wrap(local.New(dir),
		faulty.Fault{Op: faulty.Copy, N: 1},
		faulty.Fault{Op: faulty.Delete, Key: TemporaryDir + "/", N: 1})
	if err := applyOnce(t, wrapped); err != nil {
		t.Fatalf("apply through the wrapped local store: %v", err)
	}
	if fired := wrapped.Fired(); len(fired) > 0 {
		t.Errorf("the wrapped local store promoted by copy and delete, not by rename: %v", fired)
	}
	for _, f := range []string{"part-00000000-00000.jsonl", "part-00000002-00000.jsonl", ManifestKey("orders", 2)} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			t.Errorf("after apply: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, TemporaryDir)); err == nil {
		entries, _ := os.ReadDir(filepath.Join(dir, TemporaryDir))
		if len(entries) > 0 {
			t.Errorf("%s holds %d entries after apply", TemporaryDir, len(entries))
		}
	}
}

// TestWrappedLocalStoreFaultsItsRename: the faults of a wrapped store reach
// the capabilities it passes through.
func TestWrappedLocalStoreFaultsItsRename(t *testing.T) {
	wrapped := faulty.Wrap(local.New(t.TempDir()), faulty.Fault{Op: faulty.Rename, N: 1})
	err := applyOnce(t, wrapped)
	if !errors.Is(err, faulty.ErrInjected) || !strings.Contains(err.Error(), "promote batch 0 in a") {
		t.Fatalf("apply with a failing rename: %v", err)
	}
	if fired := wrapped.Fired(); len(fired) != 1 {
		t.Errorf("fired %v, want the one rename", fired)
	}
}
