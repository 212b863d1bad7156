package logged

import (
	"bytes"
	"context"
	"io"
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

// TestForwardsExactlyTheCapabilities: a logged store has exactly the
// capabilities of the store it wraps, so that the engine takes the same path
// through it, and each of them is logged.
func TestForwardsExactlyTheCapabilities(t *testing.T) {
	storagetest.Wrapper(t, func(s providers.Storage) providers.Storage { return Wrap(s, NewLog(io.Discard)) },
		mem.New("x"), mem.NewStaging("x"), local.New(t.TempDir()), unchecked{mem.New("x")})
	// Through the capability, the request is logged.
	var buf bytes.Buffer
	s := Wrap(local.New(t.TempDir()), NewLog(&buf))
	ctx := context.Background()
	if err := providers.Put(ctx, s, "a", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := s.Features().Renamer.Rename(ctx, "a", "b"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), ": RENAME a b -> ok (") {
		t.Errorf("the rename is not logged:\n%s", buf.String())
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

// unchecked is a store whose block skips the check of conditional writes.
type unchecked struct{ providers.Storage }

func (s unchecked) Features() providers.Features {
	f := s.Storage.Features()
	f.ConditionalWritesUnchecked = true
	return f
}
