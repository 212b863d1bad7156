package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/mem"
)

// oldState is a state as streamctl wrote it before history segments: version
// 1, every sink's whole history in the document.
func oldState(t *testing.T, batches int) ([]byte, *State) {
	t.Helper()
	s := New("0.1.0")
	sink := NewSink(SourceRef{Type: "generate", Name: "orders", Identity: "generate:seed=0"})
	s.Sinks["orders"] = sink
	for i := range int64(batches) {
		sink.InFlight = benchBatch(i)
		sink.Commit(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i)*time.Minute), DefaultHistory)
	}
	s.Serial = 7
	data, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"version": 1,`)) {
		t.Fatalf("the old state is not version 1:\n%.200s", data)
	}
	return data, s
}

func rawDoc(t *testing.T, data []byte) stateDoc {
	t.Helper()
	var doc stateDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestOldStateMigratesOnFirstWrite: a version 1 state with a long history
// loads whole, and its first write moves the history into segments: the
// state document then holds none of it, the backup is the old state
// unchanged, and the state reads back equal.
func TestOldStateMigratesOnFirstWrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	old, want := oldState(t, 1500)
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	b := NewLocal(path)
	m, err := Load(ctx, b, "test")
	if err != nil {
		t.Fatal(err)
	}
	if got := m.State().Sinks["orders"].History; len(got) != DefaultHistory || !reflect.DeepEqual(got, want.Sinks["orders"].History) {
		t.Fatalf("the old state's history loads as %d batches, want its %d", len(got), DefaultHistory)
	}
	if err := m.Update(ctx, func(*State) error { return nil }); err != nil {
		t.Fatal(err)
	}

	data, _ := os.ReadFile(path)
	doc := rawDoc(t, data)
	sink := doc.Sinks["orders"]
	if doc.Version != SegmentedVersion || len(sink.History) != 0 || len(sink.Segments) != DefaultHistory/SegmentSize || sink.Skip != 0 {
		t.Fatalf("migrated: version %d, %d batches in the document, %d segments (skip %d); want version %d, 0, %d",
			doc.Version, len(sink.History), len(sink.Segments), sink.Skip, SegmentedVersion, DefaultHistory/SegmentSize)
	}
	if len(data) > len(old)/20 {
		t.Errorf("the migrated document is %d bytes, the old one %d", len(data), len(old))
	}
	if backup, _ := os.ReadFile(path + ".backup"); !bytes.Equal(backup, old) {
		t.Error("the backup is not the old state as it was")
	}
	for _, r := range sink.Segments {
		fi, err := os.Stat(filepath.Join(dir, "state.json.history", r.id()+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("segment %s has mode %04o, want 0600", r.id(), fi.Mode().Perm())
		}
	}

	again, err := Load(ctx, b, "test")
	if err != nil {
		t.Fatal(err)
	}
	if got := again.State().Sinks["orders"].History; !reflect.DeepEqual(got, want.Sinks["orders"].History) {
		t.Fatal("the migrated history reads back different")
	}
	// The whole state, encoded in one document, is the old one but its serial.
	whole, err := Encode(again.State())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(whole, bytes.Replace(old, []byte(`"serial": 7,`), []byte(`"serial": 8,`), 1)) {
		t.Error("the migrated state, encoded whole, differs from the old one")
	}
}

// TestShortStateStaysVersion1: without a segment the document is the
// version 1 document, byte for byte, for older streamctl versions to read.
func TestShortStateStaysVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.json")
	m, err := Load(ctx, NewLocal(path), "test")
	if err != nil {
		t.Fatal(err)
	}
	commitN(t, m, SegmentSize-1, DefaultHistory)
	data, _ := os.ReadFile(path)
	whole, _ := Encode(m.State())
	if !bytes.Equal(data, whole) {
		t.Fatal("a state without segments is not written as one version 1 document")
	}
	if _, err := os.Stat(path + ".history"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a state without segments has a history folder: %v", err)
	}
}

var next int64

func commitN(t *testing.T, m *Manager, n, keep int) {
	t.Helper()
	for range n {
		if err := m.Update(context.Background(), func(s *State) error {
			sink := s.Sinks["orders"]
			if sink == nil {
				sink = NewSink(SourceRef{Type: "generate", Name: "orders", Identity: "x"})
				s.Sinks["orders"] = sink
			}
			sink.InFlight = benchBatch(sink.NextBatch)
			sink.Commit(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), keep)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}

func segmentFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestSegmentsFollowCommitsTrimsAndRecords: as batches are committed, sealed
// and trimmed away, and old ones recorded for another destination, the
// state reads back as it is in memory, and the history folder holds only
// the segments the state and its backup name.
func TestSegmentsFollowCommitsTrimsAndRecords(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	b := NewLocal(path)
	m, err := Load(ctx, b, "test")
	if err != nil {
		t.Fatal(err)
	}
	const keep = 250
	check := func(when string) {
		t.Helper()
		again, err := Load(ctx, b, "test")
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		got, want := again.State().Sinks["orders"].History, m.State().Sinks["orders"].History
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the history reads back as %d batches (%d..), want %d (%d..)", when, len(got), got[0].ID, len(want), want[0].ID)
		}
		named := m.State().segmentIDs()
		backup, _ := os.ReadFile(path + ".backup")
		if prev, err := Decode(backup); err == nil {
			for id := range prev.segmentIDs() {
				named[id] = true
			}
		}
		files := segmentFiles(t, path+".history")
		for _, f := range files {
			if !named[strings.TrimSuffix(f, ".json")] {
				t.Errorf("%s: segment %s is named by neither the state nor its backup", when, f)
			}
		}
		if len(files) != len(named) {
			t.Errorf("%s: %d segment files for %d segments named", when, len(files), len(named))
		}
	}
	commitN(t, m, 420, keep)
	check("after 420 commits")
	if got := len(m.State().Sinks["orders"].History); got != keep {
		t.Fatalf("history of %d batches, want %d", got, keep)
	}
	data, _ := os.ReadFile(path)
	if doc := rawDoc(t, data); doc.Sinks["orders"].Skip == 0 || len(doc.Sinks["orders"].History) >= SegmentSize {
		t.Errorf("after trimming: skip %d, %d batches in the document", doc.Sinks["orders"].Skip, len(doc.Sinks["orders"].History))
	}

	// A batch in a sealed segment, then one in the document, recorded for
	// a destination added later.
	for _, id := range []int64{200, 410} {
		if err := m.Update(ctx, func(s *State) error {
			s.Sinks["orders"].Record(id, []string{"late"})
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		check("after a record")
	}
	for _, h := range m.State().Sinks["orders"].History {
		if has := strings.Contains(strings.Join(h.Destinations, ","), "late"); has != (h.ID == 200 || h.ID == 410) {
			t.Errorf("batch %d has destinations %v", h.ID, h.Destinations)
		}
	}
	commitN(t, m, 2, keep)
	check("after two more commits")

	// Removing the sink leaves its segments to the backup, then removes them.
	for range 2 {
		if err := m.Update(ctx, func(s *State) error {
			delete(s.Sinks, "orders")
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if files := segmentFiles(t, path+".history"); len(files) != 0 {
		t.Errorf("segments of a removed sink stay: %v", files)
	}
}

// TestDamagedSegmentIsRefused: a segment missing, or with other bytes than
// the state names, makes the state unusable with the reason, not a state
// with a hole in its history.
func TestDamagedSegmentIsRefused(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		damage func(string) error
		want   string
	}{
		{"missing", os.Remove, "is missing"},
		{"changed", func(p string) error { return os.WriteFile(p, []byte(`{"version":2}`), 0o600) }, "does not match its hash"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			m, err := Load(ctx, NewLocal(path), "test")
			if err != nil {
				t.Fatal(err)
			}
			commitN(t, m, SegmentSize, DefaultHistory)
			files := segmentFiles(t, path+".history")
			if len(files) != 1 {
				t.Fatalf("segments: %v", files)
			}
			if err := tt.damage(filepath.Join(path+".history", files[0])); err != nil {
				t.Fatal(err)
			}
			_, err = Load(ctx, NewLocal(path), "test")
			var ce *CorruptError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), files[0]) {
				t.Fatalf("want a CorruptError naming %s with %q, got %v", files[0], tt.want, err)
			}
		})
	}
}

// TestRemoteStateKeepsSegmentsBesideIt: the remote backend keeps a sink's segments
// as objects beside the sink's document.
func TestRemoteStateKeepsSegmentsBesideIt(t *testing.T) {
	ctx := context.Background()
	store := mem.New("mem://ops")
	b := NewRemote(store, "streamctl/orders.json")
	m, err := Load(ctx, b, "test")
	if err != nil {
		t.Fatal(err)
	}
	commitN(t, m, 2*SegmentSize+5, DefaultHistory)
	again, err := Load(ctx, b, "test")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.State().Sinks["orders"].History, m.State().Sinks["orders"].History) {
		t.Fatal("the history reads back different")
	}
	n := 0
	if err := store.List(ctx, "streamctl/orders.json.d/sinks/orders.json.history/", func(providers.ObjectInfo) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("%d segment objects, want 2", n)
	}
}

// TestCloneSharesNothingThatChanges: a clone shares the history's entries
// with its original; committing, trimming and recording in the clone leave
// the original as it was.
func TestCloneSharesNothingThatChanges(t *testing.T) {
	_, s := oldState(t, 20)
	before, _ := Encode(s)
	for range 3 {
		c := s.Clone()
		sink := c.Sinks["orders"]
		sink.InFlight = benchBatch(sink.NextBatch)
		sink.Commit(time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), 10)
		sink.Record(sink.History[0].ID, []string{"late"})
		sink.Offsets["0"] = -1
		sink.Destinations["lake"].LastBatch = -1
	}
	if after, _ := Encode(s); !bytes.Equal(before, after) {
		t.Fatal("changing clones changed the original")
	}
}
