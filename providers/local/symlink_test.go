package local_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
)

// linkedOut returns a storage whose folder link (a path relative to the root)
// is a symbolic link to a folder outside it, and a function that fails the
// test if anything outside changed.
func linkedOut(t *testing.T, link string) (*local.Storage, string, func()) {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "lake")
	outside := filepath.Join(base, "precious")
	for _, f := range []string{"sentinel.txt", "0/keep.txt", "orders/0.json"} {
		p := filepath.Join(outside, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := tree(t, outside)
	if err := os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, link)); err != nil {
		t.Fatal(err)
	}
	return local.New(root), filepath.Join(root, link), func() {
		t.Helper()
		if after := tree(t, outside); after != before {
			t.Errorf("the folder outside the destination changed:\nbefore: %s\nafter:  %s", before, after)
		}
	}
}

func tree(t *testing.T, root string) string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, rel)
		return nil
	})
	sort.Strings(out)
	return strings.Join(out, " ")
}

// wantLinkError fails the test unless err refuses the link at path.
func wantLinkError(t *testing.T, op string, err error, path string) {
	t.Helper()
	var le *local.LinkError
	if !errors.As(err, &le) {
		t.Fatalf("%s through a link out of the destination: want a LinkError, got %v", op, err)
	}
	if le.Path != path || !strings.Contains(err.Error(), path) {
		t.Errorf("%s: the error names %s, want %s: %v", op, le.Path, path, err)
	}
	if errors.Is(err, providers.ErrNotExist) {
		t.Errorf("%s: a link out is reported as a missing object: %v", op, err)
	}
}

// TestLinksOutAreRefused: no operation writes, reads, lists or deletes
// through a symbolic link that leads out of the destination.
func TestLinksOutAreRefused(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, link string
		op         func(s *local.Storage) error
	}{
		{"DeletePrefix through", "_temporary", func(s *local.Storage) error { return s.DeletePrefix(ctx, "_temporary/0/") }},
		{"DeletePrefix of", "_temporary/0", func(s *local.Storage) error { return s.DeletePrefix(ctx, "_temporary/0/") }},
		{"Create", "_temporary", func(s *local.Storage) error {
			w, err := s.Create(ctx, "_temporary/0/part.jsonl")
			if err != nil {
				return err
			}
			w.Write([]byte("data"))
			return w.Commit()
		}},
		{"PutIfAbsent", "_streamctl", func(s *local.Storage) error {
			_, err := s.PutIfAbsent(ctx, "_streamctl/orders/1.json", []byte("{}"))
			return err
		}},
		{"PutIfMatch", "_streamctl", func(s *local.Storage) error {
			_, err := s.PutIfMatch(ctx, "_streamctl/orders/0.json", []byte("{}"), "x")
			return err
		}},
		{"Get", "_streamctl", func(s *local.Storage) error {
			_, _, err := s.Get(ctx, "_streamctl/orders/0.json")
			return err
		}},
		{"Get missing", "_streamctl", func(s *local.Storage) error {
			_, _, err := s.Get(ctx, "_streamctl/orders/7.json")
			return err
		}},
		{"Stat", "_streamctl", func(s *local.Storage) error {
			_, err := s.Stat(ctx, "_streamctl/orders/0.json")
			return err
		}},
		{"List through", "_streamctl", func(s *local.Storage) error {
			return s.List(ctx, "_streamctl/orders/", func(providers.ObjectInfo) error { return nil })
		}},
		{"List beside", "_temporary", func(s *local.Storage) error {
			return s.List(ctx, "", func(providers.ObjectInfo) error { return nil })
		}},
		{"Delete", "_streamctl", func(s *local.Storage) error { return s.Delete(ctx, "_streamctl/orders/0.json") }},
		{"Rename into", "country=DE", func(s *local.Storage) error {
			if err := providers.Put(ctx, s, "_temporary/0/country=DE/part.jsonl", []byte("data")); err != nil {
				t.Fatal(err)
			}
			return s.Rename(ctx, "_temporary/0/country=DE/part.jsonl", "country=DE/part.jsonl")
		}},
		{"Rename out of", "_temporary", func(s *local.Storage) error {
			return s.Rename(ctx, "_temporary/0/keep.txt", "country=DE/keep.txt")
		}},
		{"Copy out of", "_temporary", func(s *local.Storage) error {
			return s.Copy(ctx, "_temporary/sentinel.txt", "copy.txt")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, link, unchanged := linkedOut(t, tc.link)
			err := tc.op(s)
			wantLinkError(t, tc.name, err, link)
			unchanged()
			if _, err := os.Lstat(link); err != nil {
				t.Errorf("the link itself is gone: %v", err)
			}
		})
	}
}

// TestDeletePrefixRemovesLinksInside: a link inside a deleted folder is
// removed itself; what it leads to stays.
func TestDeletePrefixRemovesLinksInside(t *testing.T) {
	ctx := context.Background()
	s, _, unchanged := linkedOut(t, "_temporary/0/country=DE")
	if err := s.DeletePrefix(ctx, "_temporary/0/"); err != nil {
		t.Fatal(err)
	}
	unchanged()
	if _, err := os.Lstat(filepath.Join(s.Root(), "_temporary")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("_temporary is left: %v", err)
	}
}

// TestLinksWithinTheRootAreFollowed: a relative link to another folder of
// the destination is an ordinary path.
func TestLinksWithinTheRootAreFollowed(t *testing.T) {
	ctx := context.Background()
	root := filepath.Join(t.TempDir(), "lake")
	s := local.New(root)
	if err := providers.Put(ctx, s, "real/a.jsonl", []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	data, _, err := providers.ReadAll(ctx, s, "alias/a.jsonl")
	if err != nil || string(data) != "a" {
		t.Fatalf("read through a link within the root: %q, %v", data, err)
	}
	if err := providers.Put(ctx, s, "alias/b.jsonl", []byte("b")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "real", "b.jsonl")); err != nil {
		t.Errorf("write through a link within the root: %v", err)
	}
}
