package upload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
)

// parts records what a Writer uploads.
type parts struct {
	mu    sync.Mutex
	got   map[int][]byte
	fail  int // the index whose upload fails; -1 for none
	begun int
}

func (p *parts) options(partSize, threshold int64, maxParts int) Options {
	return Options{
		PartSize: partSize, Threshold: threshold, MaxParts: maxParts, Name: "mem://x", Hint: "part_size",
		Begin: func(context.Context) error { p.begun++; return nil },
		Part: func(_ context.Context, index int, body io.ReadSeeker, size int64) (string, error) {
			data, err := io.ReadAll(body)
			if err != nil || int64(len(data)) != size {
				return "", fmt.Errorf("part %d: read %d of %d bytes: %v", index, len(data), size, err)
			}
			if index == p.fail {
				return "", errors.New("injected")
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			p.got[index] = data
			return fmt.Sprintf("tag-%d", index), nil
		},
	}
}

func TestWriterParts(t *testing.T) {
	for _, tc := range []struct {
		name                string
		size                int
		partSize, threshold int64
		wantSizes           []int // nil: the object goes in one request (Small)
	}{
		{"small stays whole", 100, 10, 100, nil},
		{"one byte over the threshold", 101, 10, 100, []int{10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1}},
		{"exact parts", 30, 10, 0, []int{10, 10, 10}},
		{"threshold above part size", 25, 10, 20, []int{10, 10, 5}},
		{"empty", 0, 10, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &parts{got: map[int][]byte{}, fail: -1}
			w := New(t.Context(), p.options(tc.partSize, tc.threshold, 0))
			data := bytes.Repeat([]byte("abcdefg"), tc.size/7+1)[:tc.size]
			for rest := data; len(rest) > 0; rest = rest[min(3, len(rest)):] {
				if _, err := w.Write(rest[:min(3, len(rest))]); err != nil {
					t.Fatal(err)
				}
			}
			if tc.wantSizes == nil && tc.threshold > 0 {
				body, size, ok := w.Small()
				if !ok || size != int64(tc.size) {
					t.Fatalf("Small: ok=%v size=%d", ok, size)
				}
				got, _ := io.ReadAll(body)
				if !bytes.Equal(got, data) {
					t.Errorf("Small holds other bytes")
				}
				w.Close()
				return
			}
			tags, err := w.Flush()
			if err != nil {
				t.Fatal(err)
			}
			var sizes []int
			var joined []byte
			for i := range tags {
				if tags[i] != fmt.Sprintf("tag-%d", i) {
					t.Errorf("token %d is %q", i, tags[i])
				}
				sizes = append(sizes, len(p.got[i]))
				joined = append(joined, p.got[i]...)
			}
			if fmt.Sprint(sizes) != fmt.Sprint(tc.wantSizes) && !(len(sizes) == 0 && tc.wantSizes == nil) {
				t.Errorf("part sizes %v, want %v", sizes, tc.wantSizes)
			}
			if !bytes.Equal(joined, data) {
				t.Error("the parts do not make the object")
			}
			if len(tags) > 0 && p.begun != 1 {
				t.Errorf("Begin called %d times", p.begun)
			}
			w.Close()
		})
	}
}

func TestWriterFailures(t *testing.T) {
	t.Run("a failed part fails the object", func(t *testing.T) {
		p := &parts{got: map[int][]byte{}, fail: 1}
		w := New(t.Context(), p.options(10, 0, 0))
		w.Write(make([]byte, 35))
		if _, err := w.Flush(); err == nil || !strings.Contains(err.Error(), "injected") {
			t.Fatalf("Flush: %v, want the part's failure", err)
		}
		if _, err := w.Write([]byte("x")); err == nil {
			t.Error("Write after a failed part succeeded")
		}
		w.Close()
	})
	t.Run("too many parts", func(t *testing.T) {
		p := &parts{got: map[int][]byte{}, fail: -1}
		w := New(t.Context(), p.options(10, 0, 2))
		_, err := w.Write(make([]byte, 31))
		if err == nil {
			_, err = w.Flush()
		}
		if err == nil || !strings.Contains(err.Error(), "raise part_size") {
			t.Fatalf("got %v, want the hint to raise part_size", err)
		}
		w.Close()
	})
	t.Run("abort", func(t *testing.T) {
		p := &parts{got: map[int][]byte{}, fail: -1}
		w := New(t.Context(), p.options(10, 0, 0))
		w.Write(make([]byte, 25))
		if !w.Abort() {
			t.Error("Abort of an open writer says it was closed")
		}
		if _, err := w.Flush(); err == nil {
			t.Error("Flush after Abort succeeded")
		}
		if w.Abort() {
			t.Error("a second Abort says the writer was open")
		}
	})
}

// TestWriterHold: a held writer sends nothing, however far past the
// threshold, until its hold opens; Flush waits for it and then sends the
// object in the parts an unheld writer would have sent.
func TestWriterHold(t *testing.T) {
	p := &parts{got: map[int][]byte{}, fail: -1}
	hold := make(chan struct{})
	opt := p.options(10, 20, 0)
	opt.Hold = hold
	w := New(t.Context(), opt)
	data := bytes.Repeat([]byte("abcdefg"), 10)[:65]
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	if p.begun != 0 || len(p.got) != 0 {
		t.Fatalf("held: begun %d times, %d parts sent", p.begun, len(p.got))
	}
	p.mu.Unlock()
	type flushed struct {
		tags []string
		err  error
	}
	done := make(chan flushed, 1)
	go func() {
		tags, err := w.Flush()
		done <- flushed{tags, err}
	}()
	close(hold)
	f := <-done
	if f.err != nil {
		t.Fatal(f.err)
	}
	if want := []string{"tag-0", "tag-1", "tag-2", "tag-3", "tag-4", "tag-5", "tag-6"}; !slices.Equal(f.tags, want) {
		t.Errorf("tags %q, want %q", f.tags, want)
	}
	var got []byte
	for i := range len(p.got) {
		if i < 6 && len(p.got[i]) != 10 {
			t.Errorf("part %d has %d bytes, want 10", i, len(p.got[i]))
		}
		got = append(got, p.got[i]...)
	}
	if !bytes.Equal(got, data) || p.begun != 1 {
		t.Errorf("sent %q in %d uploads begun, want %q in 1", got, p.begun, data)
	}
	w.Close()
}

// TestWriterHoldCancelled: Flush of a held writer returns when its context
// ends, having sent nothing.
func TestWriterHoldCancelled(t *testing.T) {
	p := &parts{got: map[int][]byte{}, fail: -1}
	ctx, cancel := context.WithCancel(t.Context())
	opt := p.options(10, 20, 0)
	opt.Hold = make(chan struct{})
	w := New(ctx, opt)
	if _, err := w.Write(make([]byte, 50)); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := w.Flush(); !errors.Is(err, context.Canceled) {
		t.Errorf("Flush of a cancelled held writer: %v, want context.Canceled", err)
	}
	if p.begun != 0 || len(p.got) != 0 {
		t.Errorf("begun %d times, %d parts sent", p.begun, len(p.got))
	}
	w.Abort()
}

// The budget bounds the objects on disk by number and bytes, and those in
// memory by the bytes of a Memory two budgets share; what is given back can
// be taken again.
func TestBudget(t *testing.T) {
	mem := &Memory{Max: 30}
	a := &Budget{MaxObjects: 2, MaxBytes: 100, Memory: mem}
	b := &Budget{MaxObjects: 2, MaxBytes: 100, Memory: mem}
	for i, step := range []struct {
		budget   *Budget
		take     bool // take, or give back
		size     int64
		inMemory bool
		want     bool
	}{
		{a, true, 10, true, true},
		{b, true, 20, true, true},
		{a, true, 1, true, false}, // the shared memory is full
		{b, true, 1, true, false},
		{a, true, 40, false, true},
		{a, true, 40, false, true},
		{a, true, 11, false, false}, // 101 bytes in all
		{a, true, 1, false, false},  // two objects on disk
		{b, true, 40, false, true},  // b's own
		{a, false, 40, false, true},
		{a, true, 1, false, true},
		{a, false, 10, true, true},
		{b, true, 10, true, true},
		{a, true, 1, true, false},
		{&Budget{MaxObjects: 2, MaxBytes: 100}, true, 1, true, false}, // no memory
	} {
		if !step.take {
			step.budget.Give(step.size, step.inMemory)
			continue
		}
		if got := step.budget.Take(step.size, step.inMemory); got != step.want {
			t.Fatalf("step %d: Take(%d, in memory %v) = %v, want %v", i, step.size, step.inMemory, got, step.want)
		}
	}
}
