package local

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/streamctl/streamctl/providers"
)

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}

// An open writer holds one descriptor, its file: a batch writing to many
// folders at once must not hold a directory handle per file as well.
func TestWriterHoldsOneDescriptor(t *testing.T) {
	s := New(t.TempDir())
	ctx := context.Background()
	const n = 50
	base := openFDs(t)
	var ws []providers.ObjectWriter
	for i := range n {
		w, err := s.Create(ctx, fmt.Sprintf("_temporary/0/k=%d/part-0.parquet", i))
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	if got := openFDs(t) - base; got > n {
		t.Errorf("%d writers hold %d descriptors, want at most %d", n, got, n)
	}
	for i, w := range ws {
		w.Write([]byte("x"))
		if i%2 == 0 {
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
		} else if err := w.Abort(); err != nil {
			t.Fatal(err)
		}
	}
	if got := openFDs(t) - base; got > 0 {
		t.Errorf("%d descriptors left open", got)
	}
	for i := range n {
		_, err := s.Stat(ctx, fmt.Sprintf("_temporary/0/k=%d/part-0.parquet", i))
		if (err == nil) != (i%2 == 0) {
			t.Errorf("writer %d: Stat %v after %s", i, err, map[bool]string{true: "Commit", false: "Abort"}[i%2 == 0])
		}
	}
}
