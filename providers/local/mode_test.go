package local_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/streamctl/streamctl/providers/local"
)

// TestModesFollowUmask: data files, manifests and folders are shared data, so
// they get the modes the user's umask gives (0644 and 0755 under 022), like
// files written by any other tool; only the state and plan files are private.
// Not parallel: the umask belongs to the whole process.
func TestModesFollowUmask(t *testing.T) {
	for _, tc := range []struct {
		umask         int
		file, dirMode fs.FileMode
	}{
		{0o022, 0o644, 0o755},
		{0o027, 0o640, 0o750},
		{0o002, 0o664, 0o775},
	} {
		t.Run(fmt.Sprintf("umask%03o", tc.umask), func(t *testing.T) {
			old := syscall.Umask(tc.umask)
			defer syscall.Umask(old)
			ctx := context.Background()
			root := filepath.Join(t.TempDir(), "lake")
			s := local.New(root)

			w, err := s.Create(ctx, "_temporary/0/country=DE/part-00000000-00000.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w.Write([]byte("{}\n")); err != nil {
				t.Fatal(err)
			}
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			if err := s.Rename(ctx, "_temporary/0/country=DE/part-00000000-00000.jsonl", "country=DE/part-00000000-00000.jsonl"); err != nil {
				t.Fatal(err)
			}
			if err := s.Copy(ctx, "country=DE/part-00000000-00000.jsonl", "copy/part.jsonl"); err != nil {
				t.Fatal(err)
			}
			if _, err := s.PutIfAbsent(ctx, "_streamctl/orders/0.json", []byte("{}")); err != nil {
				t.Fatal(err)
			}
			v, err := s.PutIfAbsent(ctx, "_streamctl/orders/index.json", []byte("{}"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.PutIfMatch(ctx, "_streamctl/orders/index.json", []byte("{1}"), v); err != nil {
				t.Fatal(err)
			}

			for _, key := range []string{"country=DE/part-00000000-00000.jsonl", "copy/part.jsonl", "_streamctl/orders/0.json", "_streamctl/orders/index.json"} {
				if got := mode(t, filepath.Join(root, key)); got != tc.file {
					t.Errorf("umask %03o: %s has mode %v, want %v", tc.umask, key, got, tc.file)
				}
			}
			for _, dir := range []string{"", "country=DE", "copy", "_streamctl", "_streamctl/orders"} {
				if got := mode(t, filepath.Join(root, dir)); got != tc.dirMode|fs.ModeDir {
					t.Errorf("umask %03o: folder %q has mode %v, want %v", tc.umask, dir, got, tc.dirMode|fs.ModeDir)
				}
			}
		})
	}
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}
