package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/faulty"
	"github.com/streamctl/streamctl/providers/mem"
)

const shardKey = "streamctl/state.json"

// oneDoc is a remote backend as earlier streamctl versions had it: the whole
// state in one document, for writing the layout the migration starts from.
type oneDoc struct{ b *RemoteBackend }

func (o oneDoc) Describe() string { return o.b.Describe() }
func (o oneDoc) Read(ctx context.Context) ([]byte, string, error) {
	return o.b.Read(ctx)
}
func (o oneDoc) Write(ctx context.Context, data []byte, v string) (string, error) {
	return o.b.Write(ctx, data, v)
}
func (o oneDoc) Lock(ctx context.Context, info *LockInfo) (Unlocker, error) {
	return o.b.Lock(ctx, info)
}
func (o oneDoc) LockInfo(ctx context.Context) (*LockInfo, error) { return o.b.LockInfo(ctx) }
func (o oneDoc) ForceUnlock(ctx context.Context, id string) error {
	return o.b.ForceUnlock(ctx, id)
}
func (o oneDoc) Documents() (*Docs, string) { return o.b.Documents() }

// commitSink commits one batch of sink name through UpdateSink.
func commitSink(t *testing.T, m *Manager, name string) {
	t.Helper()
	err := m.UpdateSink(context.Background(), name, func(s *State) error {
		sink := s.Sinks[name]
		if sink == nil {
			sink = NewSink(SourceRef{Type: "generate", Name: name, Identity: "x"})
			s.Sinks[name] = sink
		}
		sink.InFlight = benchBatch(sink.NextBatch)
		sink.Commit(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), DefaultHistory)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func rootVersion(t *testing.T, store providers.Storage) int {
	t.Helper()
	data, _, err := providers.ReadAll(context.Background(), store, shardKey)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version int                        `json:"version"`
		Sinks   map[string]json.RawMessage `json:"sinks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version == ShardedVersion && len(doc.Sinks) > 0 {
		t.Errorf("the root of a sharded state holds sinks: %s", data)
	}
	return doc.Version
}

// TestShardedWritersOfDifferentSinks: managers in separate "processes" (each
// its own Load) write different sinks at once, each only its own document,
// and neither's writes conflict with the other's.
func TestShardedWritersOfDifferentSinks(t *testing.T) {
	ctx := context.Background()
	store := mem.New("mem://ops")
	const workers, rounds = 4, 30
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := Load(ctx, NewRemote(store, shardKey), "test")
			if err != nil {
				t.Error(err)
				return
			}
			for range rounds {
				// Two sinks per worker, written side by side in it.
				var inner sync.WaitGroup
				for k := range 2 {
					inner.Add(1)
					go func() {
						defer inner.Done()
						commitSink(t, m, fmt.Sprintf("s%d_%d", w, k))
					}()
				}
				inner.Wait()
			}
		}()
	}
	wg.Wait()
	if v := rootVersion(t, store); v != ShardedVersion {
		t.Fatalf("root version %d", v)
	}
	m, err := Load(ctx, NewRemote(store, shardKey), "test")
	if err != nil {
		t.Fatal(err)
	}
	st := m.State()
	if len(st.Sinks) != 2*workers {
		t.Fatalf("%d sinks, want %d: %v", len(st.Sinks), 2*workers, st.SinkNames())
	}
	for name, s := range st.Sinks {
		if s.NextBatch != rounds || len(s.History) != rounds {
			t.Errorf("sink %s: next batch %d, %d in history, want %d", name, s.NextBatch, len(s.History), rounds)
		}
	}
	// Every write counts in the serial; the roots' creation raced and one
	// won, which the others adopted.
	if st.Serial != 2*workers*rounds {
		t.Errorf("serial %d, want %d", st.Serial, 2*workers*rounds)
	}
	if _, err := store.Stat(ctx, SinksPrefix(shardKey)+"s0_0.json"); err != nil {
		t.Errorf("sink document: %v", err)
	}
}

// TestShardedStaleWriterIsFenced: a writer whose view of a sink is stale
// (another process wrote it since) gets ErrConflict, not a lost update.
func TestShardedStaleWriterIsFenced(t *testing.T) {
	ctx := context.Background()
	store := mem.New("mem://ops")
	a, _ := Load(ctx, NewRemote(store, shardKey), "test")
	commitSink(t, a, "orders")
	b, err := Load(ctx, NewRemote(store, shardKey), "test")
	if err != nil {
		t.Fatal(err)
	}
	commitSink(t, b, "orders")
	err = a.UpdateSink(ctx, "orders", func(s *State) error { s.Sinks["orders"].NextBatch = 99; return nil })
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("stale write: %v, want ErrConflict", err)
	}
	// A change of another sink than the one named is refused.
	err = b.UpdateSink(ctx, "orders", func(s *State) error { s.Sinks["other"] = NewSink(SourceRef{}); return nil })
	if err == nil || !strings.Contains(err.Error(), "other sinks") {
		t.Fatalf("a sink update that adds another sink: %v", err)
	}
}

// TestShardedMigration: a remote state in the one-document layout (with
// history segments beside it) is moved into per-sink documents by the first
// write, the format is bumped so that older streamctl versions refuse it, and
// a migration that failed before its root was written is redone.
func TestShardedMigration(t *testing.T) {
	ctx := context.Background()
	for _, crash := range []bool{false, true} {
		t.Run(fmt.Sprintf("crash=%v", crash), func(t *testing.T) {
			store := mem.New("mem://ops")
			old, err := Load(ctx, oneDoc{NewRemote(store, shardKey)}, "old")
			if err != nil {
				t.Fatal(err)
			}
			commitN(t, old, 2*SegmentSize+5, DefaultHistory)
			if err := old.Update(ctx, func(s *State) error {
				s.Sinks["events"] = NewSink(SourceRef{Type: "generate", Name: "events", Identity: "y"})
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if v := rootVersion(t, store); v != SegmentedVersion {
				t.Fatalf("the old layout has version %d", v)
			}
			want := old.State()

			var backend Backend = NewRemote(store, shardKey)
			if crash {
				// The root write (the migration's commit) fails once the
				// sink documents are written.
				backend = NewRemote(&failRoot{Storage: store}, shardKey)
			}
			m, err := Load(ctx, backend, "new")
			if err != nil {
				t.Fatal(err)
			}
			if m.Sharded() {
				t.Fatal("a state in the old layout reads as sharded")
			}
			err = m.UpdateSink(ctx, "orders", func(s *State) error { s.Sinks["orders"].Offsets["9"] = 9; return nil })
			if crash {
				if err == nil {
					t.Fatal("the faulty migration succeeded")
				}
				if v := rootVersion(t, store); v != SegmentedVersion {
					t.Fatalf("a failed migration left the root at version %d", v)
				}
				// The sink documents it wrote are not read: the old root is.
				again, err := Load(ctx, NewRemote(store, shardKey), "new")
				if err != nil {
					t.Fatal(err)
				}
				if again.Sharded() || !reflect.DeepEqual(again.State().Sinks["orders"].History, want.Sinks["orders"].History) {
					t.Fatal("after a failed migration the state is not the old one")
				}
				m = again
				if err := m.UpdateSink(ctx, "orders", func(s *State) error { s.Sinks["orders"].Offsets["9"] = 9; return nil }); err != nil {
					t.Fatal(err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if v := rootVersion(t, store); v != ShardedVersion {
				t.Fatalf("root version %d after the migration", v)
			}
			data, _, _ := providers.ReadAll(ctx, store, shardKey)
			if _, err := decodeAs(data, SegmentedVersion); err == nil || !strings.Contains(err.Error(), "newer streamctl") {
				t.Fatalf("a streamctl reading up to format 2 does not refuse the migrated root: %v", err)
			}
			got, err := Load(ctx, NewRemote(store, shardKey), "new")
			if err != nil {
				t.Fatal(err)
			}
			if !got.Sharded() {
				t.Fatal("the migrated state is not sharded")
			}
			for _, name := range []string{"orders", "events"} {
				if got.State().Sinks[name] == nil {
					t.Fatalf("sink %s lost in the migration", name)
				}
			}
			o := got.State().Sinks["orders"]
			if !reflect.DeepEqual(o.History, want.Sinks["orders"].History) || o.Offsets["9"] != 9 || got.State().Lineage != want.Lineage {
				t.Fatal("the migrated sink differs")
			}
			n := 0
			store.List(ctx, SinksPrefix(shardKey)+"orders.json.history/", func(providers.ObjectInfo) error { n++; return nil })
			if n != 2 {
				t.Errorf("%d history segments beside the sink's document, want 2", n)
			}
			// Writes after the migration touch only the sink's document.
			before, _ := store.Stat(ctx, shardKey)
			commitSink(t, got, "orders")
			after, _ := store.Stat(ctx, shardKey)
			if before.Version != after.Version {
				t.Error("a sink's write rewrote the root")
			}
		})
	}
}

// failRoot fails the first compare-and-swap of the root document.
type failRoot struct {
	providers.Storage
	mu     sync.Mutex
	failed bool
}

func (f *failRoot) PutIfMatch(ctx context.Context, key string, data []byte, v string) (string, error) {
	f.mu.Lock()
	fail := key == shardKey && !f.failed
	f.failed = f.failed || fail
	f.mu.Unlock()
	if fail {
		return "", errors.New("injected: root write fails")
	}
	return f.Storage.PutIfMatch(ctx, key, data, v)
}

// decodeAs decodes data as a streamctl that reads formats up to max would.
func decodeAs(data []byte, max int) (*State, error) {
	var probe struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, err
	}
	if probe.Version > max {
		return nil, fmt.Errorf("it has format version %d, written by a newer streamctl", probe.Version)
	}
	return Decode(data)
}

// TestShardedRenameAndRemove: a rename moves the sink's document; a removal deletes the document and the serial still grows.
func TestShardedRenameAndRemove(t *testing.T) {
	ctx := context.Background()
	store := mem.New("mem://ops")
	m, _ := Load(ctx, NewRemote(store, shardKey), "test")
	commitSink(t, m, "a")
	commitSink(t, m, "keep")
	serial := m.State().Serial
	if err := m.Update(ctx, func(s *State) error {
		s.Sinks["b"] = s.Sinks["a"]
		delete(s.Sinks, "a")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if m.State().Serial <= serial {
		t.Errorf("serial %d after a rename from %d", m.State().Serial, serial)
	}
	got, err := Load(ctx, NewRemote(store, shardKey), "test")
	if err != nil {
		t.Fatal(err)
	}
	if names := got.State().SinkNames(); !reflect.DeepEqual(names, []string{"b", "keep"}) {
		t.Fatalf("sinks after a rename: %v", names)
	}
	if _, err := store.Stat(ctx, SinksPrefix(shardKey)+"a.json"); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("the renamed sink's old document: %v", err)
	}
	serial = got.State().Serial
	if err := got.Update(ctx, func(s *State) error { delete(s.Sinks, "keep"); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Stat(ctx, SinksPrefix(shardKey)+"keep.json"); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("the removed sink's document: %v", err)
	}
	again, err := Load(ctx, NewRemote(store, shardKey), "test")
	if err != nil {
		t.Fatal(err)
	}
	if again.State().Sinks["keep"] != nil || again.State().Serial <= serial {
		t.Errorf("after state rm: sinks %v, serial %d (was %d)", again.State().SinkNames(), again.State().Serial, serial)
	}
}

// TestShardedRenameCrashBeforeRemoval: the old document left by a rename
// that crashed before removing it is not read as a sink.
func TestShardedRenameCrashBeforeRemoval(t *testing.T) {
	ctx := context.Background()
	store := mem.New("mem://ops")
	m, _ := Load(ctx, NewRemote(store, shardKey), "test")
	commitSink(t, m, "a")
	f := faulty.Wrap(store, faulty.Fault{Op: faulty.Delete, Key: SinksPrefix(shardKey) + "a.json", N: 1})
	m2, err := Load(ctx, NewRemote(f, shardKey), "test")
	if err != nil {
		t.Fatal(err)
	}
	err = m2.Update(ctx, func(s *State) error {
		s.Sinks["b"] = s.Sinks["a"]
		delete(s.Sinks, "a")
		return nil
	})
	if err == nil {
		t.Fatal("the faulty removal succeeded")
	}
	if _, err := store.Stat(ctx, SinksPrefix(shardKey)+"a.json"); err != nil {
		t.Fatalf("the old document is gone: %v", err)
	}
	got, err := Load(ctx, NewRemote(store, shardKey), "test")
	if err != nil {
		t.Fatal(err)
	}
	if names := got.State().SinkNames(); !reflect.DeepEqual(names, []string{"b"}) {
		t.Fatalf("after a rename that crashed before removing the old document: %v", names)
	}
	// The next write of the whole state finishes the removal.
	if err := got.Update(ctx, func(*State) error { return nil }); err != nil {
		t.Fatal(err)
	}
}

// TestShardedStateRefusedByLocalBackend: a root of format 3 copied into a
// local state file is refused, not read as an empty state.
func TestShardedStateRefusedByLocalBackend(t *testing.T) {
	ctx := context.Background()
	store := mem.New("mem://ops")
	m, _ := Load(ctx, NewRemote(store, shardKey), "test")
	commitSink(t, m, "a")
	data, _, _ := providers.ReadAll(ctx, store, shardKey)
	dir := t.TempDir()
	lb := NewLocal(dir + "/state.json")
	if _, err := lb.Write(ctx, data, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(ctx, lb, "test"); err == nil || !strings.Contains(err.Error(), "documents of their own") {
		t.Fatalf("local backend over a sharded root: %v", err)
	}
}

// TestShardedReloadSink: a manager that loaded the state before another
// process wrote a sink reads that sink's new checkpoint, and then writes
// over it without a conflict.
func TestShardedReloadSink(t *testing.T) {
	ctx := context.Background()
	store := mem.New("mem://ops")
	// Loaded before the state exists: the reload reads the root too.
	a, _ := Load(ctx, NewRemote(store, shardKey), "test")
	b, _ := Load(ctx, NewRemote(store, shardKey), "test")
	commitSink(t, b, "orders")
	commitSink(t, b, "orders")
	if err := a.ReloadSink(ctx, "orders"); err != nil {
		t.Fatal(err)
	}
	if a.State().Lineage != b.State().Lineage || a.State().Sinks["orders"].NextBatch != 2 {
		t.Fatalf("after the reload: lineage %s (want %s), sink %+v", a.State().Lineage, b.State().Lineage, a.State().Sinks["orders"])
	}
	commitSink(t, b, "orders")
	if err := a.ReloadSink(ctx, "orders"); err != nil {
		t.Fatal(err)
	}
	commitSink(t, a, "orders")
	got, err := Load(ctx, NewRemote(store, shardKey), "test")
	if err != nil {
		t.Fatal(err)
	}
	if n := got.State().Sinks["orders"].NextBatch; n != 4 {
		t.Fatalf("next batch %d after 4 commits by two managers", n)
	}
}
