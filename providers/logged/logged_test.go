package logged

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
	"github.com/streamctl/streamctl/providers/mem"
	"github.com/streamctl/streamctl/providers/storagetest"
)

// TestStorageContract: a logged store is the store it wraps, to the
// contract every store passes, with a staging store and a local one.
func TestStorageContract(t *testing.T) {
	var log bytes.Buffer
	l := NewLog(&log)
	t.Run("local", func(t *testing.T) {
		storagetest.Run(t, func(t *testing.T) providers.Storage { return Wrap(local.New(t.TempDir()), l) })
	})
	t.Run("mem-staging", func(t *testing.T) {
		storagetest.Run(t, func(t *testing.T) providers.Storage { return Wrap(mem.NewStaging("mem"), l) })
	})
	if !strings.Contains(log.String(), "[DEBUG] store ") {
		t.Errorf("nothing was logged")
	}
}

// capabilities lists the optional interfaces of s.
func capabilities(s providers.Storage) []string {
	var out []string
	if _, ok := s.(providers.Stager); ok {
		out = append(out, "Stager")
	}
	if _, ok := s.(providers.StagedLister); ok {
		out = append(out, "StagedLister")
	}
	if _, ok := s.(providers.Renamer); ok {
		out = append(out, "Renamer")
	}
	if _, ok := s.(providers.ScratchCreator); ok {
		out = append(out, "ScratchCreator")
	}
	if _, ok := s.(providers.PrefixDeleter); ok {
		out = append(out, "PrefixDeleter")
	}
	return out
}

// fake stores have any set of the optional interfaces, on a mem store.
type (
	base     struct{ *mem.Storage }
	stage    struct{ st *mem.Staging }
	list     struct{ st *mem.Staging }
	rename   struct{}
	scratch  struct{}
	prefixes struct{}
)

func (c stage) Stage(ctx context.Context, key string, o providers.StageOptions) (providers.StagedWriter, error) {
	return c.st.Stage(ctx, key, o)
}
func (c list) ListStaged(ctx context.Context, p string, fn func(providers.StagedUpload) error) error {
	return c.st.ListStaged(ctx, p, fn)
}
func (c list) Discard(ctx context.Context, u providers.StagedUpload) error {
	return c.st.Discard(ctx, u)
}
func (rename) Rename(context.Context, string, string) error { return nil }
func (scratch) CreateScratch(context.Context, string) (providers.ObjectWriter, error) {
	return nil, nil
}
func (prefixes) DeletePrefix(context.Context, string) error { return nil }

// TestForwardsExactlyTheCapabilities: every combination of optional
// interfaces the engine uses comes out of Wrap as it went in, none more.
func TestForwardsExactlyTheCapabilities(t *testing.T) {
	st := mem.NewStaging("x")
	b := base{mem.New("x")}
	stores := map[string]providers.Storage{
		"none": b,
		"Stager": struct {
			base
			stage
		}{b, stage{st}},
		"Stager StagedLister": struct {
			base
			stage
			list
		}{b, stage{st}, list{st}},
		"Renamer": struct {
			base
			rename
		}{b, rename{}},
		"Renamer ScratchCreator": struct {
			base
			rename
			scratch
		}{b, rename{}, scratch{}},
		"PrefixDeleter": struct {
			base
			prefixes
		}{b, prefixes{}},
		"Renamer ScratchCreator PD": struct {
			base
			rename
			scratch
			prefixes
		}{b, rename{}, scratch{}, prefixes{}},
		"Stager StagedLister PD": struct {
			base
			stage
			list
			prefixes
		}{b, stage{st}, list{st}, prefixes{}},
		"Stager PD": struct {
			base
			stage
			prefixes
		}{b, stage{st}, prefixes{}},
		"all": struct {
			base
			stage
			list
			rename
			scratch
			prefixes
		}{b, stage{st}, list{st}, rename{}, scratch{}, prefixes{}},
		"local":       local.New(t.TempDir()),
		"mem-staging": st,
	}
	for name, s := range stores {
		want := strings.Join(capabilities(s), " ")
		if got := strings.Join(capabilities(Wrap(s, NewLog(&bytes.Buffer{}))), " "); got != want {
			t.Errorf("%s: wrapped has %q, want %q", name, got, want)
		}
	}
}

// TestLogLines: each request is one line with the store, the method, the
// key, the result and the duration.
func TestLogLines(t *testing.T) {
	var buf bytes.Buffer
	s := Wrap(mem.New("lake"), NewLog(&buf))
	ctx := context.Background()
	if _, err := s.PutIfAbsent(ctx, "a/b.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	s.PutIfAbsent(ctx, "a/b.json", []byte("{}!"))
	s.Stat(ctx, "missing")
	if err := providers.Put(ctx, s, "c.jsonl", []byte("12345")); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{
		"store mem://lake: PUT-IF-ABSENT a/b.json -> ok 2 bytes (",
		"store mem://lake: PUT-IF-ABSENT a/b.json -> already exists 3 bytes (",
		"store mem://lake: STAT missing -> not found (",
		"store mem://lake: PUT c.jsonl -> ok 5 bytes (",
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), buf.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], "[DEBUG] "+w) || !strings.HasSuffix(lines[i], ")") {
			t.Errorf("line %d: %q, want it to contain %q", i+1, lines[i], w)
		}
	}
}
