package local_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/streamctl/streamctl/providers/local"
)

// TestPutIfMatchLeavesOneLockFile: every run's conditional-write probe
// writes a key of its own; the lock files of PutIfMatch must not pile up in
// the destination's control folder, one per key ever written.
func TestPutIfMatchLeavesOneLockFile(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "lake")
	s := local.New(root)
	for i := range 5 {
		key := fmt.Sprintf("_streamctl/.conditional-probe-%d", i)
		v, err := s.PutIfAbsent(ctx, key, []byte("1"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.PutIfMatch(ctx, key, []byte("2"), v); err != nil {
			t.Fatal(err)
		}
		if err := s.Delete(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(filepath.Join(root, "_streamctl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the control folder holds %v, want at most one lock file", names)
	}
}
