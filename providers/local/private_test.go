package local_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/streamctl/streamctl/providers/local"
)

// TestWithFileModeAndLink: a private storage creates files with its mode,
// keeps the mode of a file it replaces, and Link gives a file a second name
// that shares its bytes and mode.
func TestWithFileModeAndLink(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	s := local.New(root).WithFileMode(0o600)
	v, err := s.PutIfAbsent(ctx, "state.json", []byte("one"))
	if err != nil {
		t.Fatal(err)
	}
	if got := mode(t, filepath.Join(root, "state.json")).Perm(); got != 0o600 {
		t.Errorf("a new file has mode %04o, want 0600", got)
	}
	if err := os.Chmod(filepath.Join(root, "state.json"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := s.Link(ctx, "state.json", "state.json.backup"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutIfMatch(ctx, "state.json", []byte("two"), v); err != nil {
		t.Fatal(err)
	}
	if got := mode(t, filepath.Join(root, "state.json")).Perm(); got != 0o640 {
		t.Errorf("a replaced file has mode %04o, want its 0640", got)
	}
	backup, err := os.ReadFile(filepath.Join(root, "state.json.backup"))
	if err != nil || string(backup) != "one" {
		t.Fatalf("the linked name holds %q (%v), want the bytes before the replace", backup, err)
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if e.Name() != "state.json" && e.Name() != "state.json.backup" && e.Name() != ".streamctl-tmp-cas.lock" {
			t.Errorf("left in the folder: %s", e.Name())
		}
	}
}
