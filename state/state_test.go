package state

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestDecodeRefusesWhatIsNotAState(t *testing.T) {
	valid, err := Encode(New("test"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, data, want string
	}{
		{"empty", "", "the file is empty"},
		{"truncated", string(valid[:len(valid)/2]), "not valid JSON"},
		{"not json", "lineage = 3\n", "not valid JSON"},
		{"another tool's json", `{"version": 4, "terraform_version": "1.9.0", "serial": 1, "lineage": "x", "resources": []}`, "not a streamctl state"},
		{"newer version", `{"version": 99, "lineage": "5d0b5e0e-8c1a-4b8a-9f5e-1c2d3e4f5a6b", "serial": 1, "sinks": {}}`, "written by a newer streamctl"},
		{"bad lineage", `{"version": 1, "lineage": "nope", "serial": 1, "sinks": {}}`, "is not a UUID"},
		{"unknown field", `{"version": 1, "lineage": "5d0b5e0e-8c1a-4b8a-9f5e-1c2d3e4f5a6b", "serial": 1, "sinks": {}, "extra": 1}`, "does not match the state format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want an error containing %q, got %v", tt.want, err)
			}
		})
	}
	s, err := Decode(valid)
	if err != nil || s.Version != Version {
		t.Fatalf("a valid state: %v", err)
	}
}

func TestLocalBackendWritesAtomicallyWithBackupAndCAS(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "state.json")
	b := NewLocal(path)
	m, err := Load(ctx, b, "test")
	if err != nil {
		t.Fatal(err)
	}
	if m.Exists() {
		t.Fatal("a missing state must not exist")
	}
	lineage := m.State().Lineage
	for i := 0; i < 3; i++ {
		if err := m.Update(ctx, func(s *State) error {
			s.Sinks["orders"] = NewSink(SourceRef{Type: "generate", Name: "g", Identity: "x"})
			s.Sinks["orders"].NextBatch = int64(i)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("state mode %v, want 0600", fi.Mode().Perm())
	}
	backup, err := os.ReadFile(path + ".backup")
	if err != nil {
		t.Fatal(err)
	}
	prev, err := Decode(backup)
	if err != nil || prev.Serial != 2 || prev.Lineage != lineage {
		t.Fatalf("backup: serial %d lineage %s (%v), want the previous version 2 of %s", prev.Serial, prev.Lineage, err, lineage)
	}

	// A second manager that read the state earlier cannot overwrite a newer one.
	stale, err := Load(ctx, b, "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Update(ctx, func(*State) error { return nil }); err != nil {
		t.Fatal(err)
	}
	err = stale.Update(ctx, func(*State) error { return nil })
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("a stale writer: want ErrConflict, got %v", err)
	}
	again, err := Load(ctx, b, "test")
	if err != nil || again.State().Serial != 4 || again.State().Lineage != lineage {
		t.Fatalf("reloaded: serial %d, err %v; want 4", again.State().Serial, err)
	}
}

func TestLocalLockSaysWhoHoldsIt(t *testing.T) {
	ctx := context.Background()
	b := NewLocal(filepath.Join(t.TempDir(), "state.json"))
	info := NewLockInfo("apply", "test")
	u, err := b.Lock(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	holder, err := b.LockInfo(ctx)
	if err != nil || holder == nil || holder.ID != info.ID {
		t.Fatalf("lock info: %+v, %v", holder, err)
	}
	_, err = b.Lock(ctx, NewLockInfo("apply", "test"))
	var locked *LockedError
	if !errors.As(err, &locked) || locked.Holder.ID != info.ID {
		t.Fatalf("second lock: want a LockedError naming %s, got %v", info.ID, err)
	}
	for _, want := range []string{info.ID, "Operation: apply", info.Who} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("lock error lacks %q:\n%v", want, err)
		}
	}
	// Lock waits up to the timeout, then fails; after Unlock it succeeds.
	start := time.Now()
	if _, err := Lock(ctx, b, NewLockInfo("apply", "test"), 300*time.Millisecond); !errors.As(err, &locked) {
		t.Fatalf("lock with timeout: %v", err)
	}
	if time.Since(start) < 200*time.Millisecond {
		t.Errorf("lock with a timeout gave up after %s", time.Since(start))
	}
	if err := u.Unlock(); err != nil {
		t.Fatal(err)
	}
	if holder, _ := b.LockInfo(ctx); holder != nil {
		t.Errorf("after unlock the lock is still held by %+v", holder)
	}
	u2, err := b.Lock(ctx, NewLockInfo("apply", "test"))
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	u2.Unlock()
}

func TestCommitAdvancesOffsetsAndBoundsHistory(t *testing.T) {
	s := NewSink(SourceRef{})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := int64(0); i < 5; i++ {
		s.InFlight = &Batch{ID: i, Ranges: []Range{{Partition: "0", Start: i * 10, End: i*10 + 10}}, Destinations: []string{"a"}, Records: 10}
		s.NextBatch = i + 1
		s.Commit(now, 3)
	}
	if s.InFlight != nil || s.Offsets["0"] != 50 || s.NextBatch != 5 || s.Destinations["a"].LastBatch != 4 {
		t.Fatalf("after 5 commits: %+v", s)
	}
	if len(s.History) != 3 || s.History[0].ID != 2 || s.CommittedBatches != 5 || s.CommittedRecords != 50 {
		t.Fatalf("history %+v, counts %d/%d", s.History, s.CommittedBatches, s.CommittedRecords)
	}
}
