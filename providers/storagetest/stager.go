package storagetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/streamctl/streamctl/providers"
)

// stagerTests are the contract of providers.Stager (and StagedLister where
// the storage has it); Run adds them for a storage that stages.
func stagerTests() []test {
	return []test{
		{"StageInvisibleUntilPublished", testStageInvisible},
		{"StageReplacesOnPublish", testStageReplaces},
		{"StageLarge", testStageLarge},
		{"StagePublishTwice", testStagePublishTwice},
		{"StageAbort", testStageAbort},
		{"StagedListDiscard", testStagedListDiscard},
		{"StagedLargeIsListed", testStagedLargeIsListed},
		{"StageManySmall", testStageManySmall},
		{"StageHeldSendsNothing", testStageHeld},
		{"StageHeldCancelled", testStageHeldCancelled},
	}
}

type test struct {
	name string
	fn   func(t *testing.T, s providers.Storage)
}

func stage(t *testing.T, s providers.Storage, key string, data []byte) providers.Staged {
	t.Helper()
	w, err := s.Features().Stager.Stage(t.Context(), key, providers.StageOptions{})
	if err != nil {
		t.Fatalf("stage %s: %v", key, err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatalf("stage %s: write: %v", key, err)
	}
	u, err := w.Finish()
	if err != nil {
		t.Fatalf("stage %s: finish: %v", key, err)
	}
	if u.Upload().Key != key {
		t.Errorf("the staged upload is for key %q, want %q", u.Upload().Key, key)
	}
	return u
}

func listed(t *testing.T, s providers.Storage, key string) bool {
	t.Helper()
	found := false
	if err := s.List(t.Context(), "", func(info providers.ObjectInfo) error {
		found = found || info.Key == key
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return found
}

func testStageInvisible(t *testing.T, s providers.Storage) {
	ctx := t.Context()
	u := stage(t, s, "dir/part-00000003-00000.parquet", []byte("staged bytes"))
	if _, err := s.Stat(ctx, "dir/part-00000003-00000.parquet"); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("stat of a staged object: %v, want ErrNotExist", err)
	}
	if _, _, err := s.Get(ctx, "dir/part-00000003-00000.parquet"); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("get of a staged object: %v, want ErrNotExist", err)
	}
	if listed(t, s, "dir/part-00000003-00000.parquet") {
		t.Error("a staged object is listed before it is published")
	}
	if err := u.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	if got := get(t, s, "dir/part-00000003-00000.parquet"); string(got) != "staged bytes" {
		t.Errorf("published object holds %q", got)
	}
	if !listed(t, s, "dir/part-00000003-00000.parquet") {
		t.Error("the published object is not listed")
	}
}

func testStageReplaces(t *testing.T, s providers.Storage) {
	ctx := t.Context()
	put(t, s, "k", []byte("old"))
	u := stage(t, s, "k", []byte("new content"))
	if got := get(t, s, "k"); string(got) != "old" {
		t.Errorf("staging changed the object before its publish: %q", got)
	}
	if err := u.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	if got := get(t, s, "k"); string(got) != "new content" {
		t.Errorf("after publish the object holds %q", got)
	}
}

// testStageLarge writes past every part or block size the providers' tests
// configure, with writes of odd sizes.
func testStageLarge(t *testing.T, s providers.Storage) {
	data := make([]byte, 6<<20+12345)
	for i := range data {
		data[i] = byte(i*7 + i>>13)
	}
	w, err := s.Features().Stager.Stage(t.Context(), "large", providers.StageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	WriteOddSizes(t, w, data)
	u, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if err := u.Publish(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := get(t, s, "large"); !bytes.Equal(got, data) {
		t.Errorf("read back %d bytes that differ from the %d staged", len(got), len(data))
	}
}

// testStagePublishTwice: the retry of a publish whose answer was lost
// succeeds and leaves the object as published.
func testStagePublishTwice(t *testing.T, s providers.Storage) {
	u := stage(t, s, "twice", []byte("once"))
	for i := range 2 {
		if err := u.Publish(t.Context()); err != nil {
			t.Fatalf("publish #%d: %v", i+1, err)
		}
	}
	if got := get(t, s, "twice"); string(got) != "once" {
		t.Errorf("the object holds %q", got)
	}
}

func testStageAbort(t *testing.T, s providers.Storage) {
	ctx := t.Context()
	w, err := s.Features().Stager.Stage(ctx, "aborted", providers.StageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(bytes.Repeat([]byte("x"), 1<<20))
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Finish(); err == nil {
		t.Error("finish after abort succeeded")
	}
	if _, err := s.Stat(ctx, "aborted"); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("an aborted staged object exists: %v", err)
	}
	if l := s.Features().StagedLister; l != nil {
		if n := countStaged(t, l, ""); n != 0 {
			t.Errorf("%d uploads listed after abort", n)
		}
	}
}

func countStaged(t *testing.T, l providers.StagedLister, prefix string) int {
	t.Helper()
	n := 0
	if err := l.ListStaged(t.Context(), prefix, func(providers.StagedUpload) error {
		n++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

func testStagedListDiscard(t *testing.T, s providers.Storage) {
	l := s.Features().StagedLister
	if l == nil {
		return // its staged uploads need no cleanup (see the provider's doc)
	}
	ctx := context.WithoutCancel(t.Context())
	put(t, s, "a/kept", []byte("committed"))
	kept := stage(t, s, "a/kept", []byte("never published"))
	published := stage(t, s, "a/published", []byte("p"))
	other := stage(t, s, "b/other", []byte("o"))
	if err := published.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	// An upload with an ID has bytes on the store, and is listed until
	// discarded; one without (a small object kept in its buffer until
	// Publish) has nothing there.
	stored := func(u providers.Staged) int {
		if u.Upload().ID == "" {
			return 0
		}
		return 1
	}
	var ups []providers.StagedUpload
	if err := l.ListStaged(ctx, "a/", func(u providers.StagedUpload) error {
		ups = append(ups, u)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(ups) != stored(kept) || len(ups) == 1 && (ups[0].Key != "a/kept" || ups[0].ID != kept.Upload().ID) {
		t.Fatalf("staged under a/: %+v, want %d upload of a/kept", ups, stored(kept))
	}
	for _, u := range ups {
		for range 2 { // discarding twice is not an error
			if err := l.Discard(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
	}
	kept.Release()
	if n := countStaged(t, l, "a/"); n != 0 {
		t.Errorf("%d uploads listed under a/ after discard", n)
	}
	if n := countStaged(t, l, ""); n != stored(other) {
		t.Errorf("%d uploads listed in all, want %d (b/other)", n, stored(other))
	}
	if got := get(t, s, "a/kept"); string(got) != "committed" {
		t.Errorf("discarding changed the object: %q", got)
	}
	other.Release()
}

// testStagedLargeIsListed: an object past the store's single-write size is
// staged on the store, and listed until it is published.
func testStagedLargeIsListed(t *testing.T, s providers.Storage) {
	l := s.Features().StagedLister
	if l == nil {
		return
	}
	u := stage(t, s, "big/part-00000009-00000.parquet", bytes.Repeat([]byte("y"), 6<<20+1))
	if u.Upload().ID == "" {
		return // the storage under test keeps objects this large locally
	}
	if n := countStaged(t, l, "big/"); n != 1 {
		t.Errorf("%d uploads listed under big/, want 1", n)
	}
	if err := u.Publish(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := countStaged(t, l, "big/"); n != 0 {
		t.Errorf("%d uploads listed after publish, want 0", n)
	}
}

// heldObject is past every part or block size the providers' tests
// configure, so that a writer not held would have sent parts.
func heldObject() []byte { return bytes.Repeat([]byte("held\n"), (6<<20+12345)/5) }

// stageHeld stages data at key, held until hold is closed.
func stageHeld(t *testing.T, ctx context.Context, s providers.Storage, key string, data []byte, hold chan struct{}) providers.StagedWriter {
	t.Helper()
	w, err := s.Features().Stager.Stage(ctx, key, providers.StageOptions{Hold: hold})
	if err != nil {
		t.Fatal(err)
	}
	WriteOddSizes(t, w, data)
	return w
}

type finished struct {
	u   providers.Staged
	err error
}

// testStageHeld: a held upload puts nothing on the store until its hold
// opens (the engine stages a batch this way before its intent is logged).
// Nothing is listed, Finish waits unless the object is kept whole locally,
// and once released the object publishes whole.
func testStageHeld(t *testing.T, s providers.Storage) {
	data := heldObject()
	hold := make(chan struct{})
	w := stageHeld(t, t.Context(), s, "held/big", data, hold)
	l := s.Features().StagedLister
	lists := l != nil
	if lists {
		if n := countStaged(t, l, "held/"); n != 0 {
			t.Fatalf("%d uploads listed while the writer is held", n)
		}
	}
	done := make(chan finished, 1)
	go func() {
		u, err := w.Finish()
		done <- finished{u, err}
	}()
	var f finished
	select {
	case f = <-done:
		if f.err == nil && f.u.Upload().ID != "" {
			t.Fatalf("Finish returned upload %s while held", f.u.Upload().ID)
		}
		close(hold)
	case <-time.After(200 * time.Millisecond):
		if lists {
			if n := countStaged(t, l, "held/"); n != 0 {
				t.Fatalf("%d uploads listed while Finish waits for the hold", n)
			}
		}
		close(hold)
		f = <-done
	}
	if f.err != nil {
		t.Fatalf("finish after the hold opened: %v", f.err)
	}
	if _, err := s.Stat(t.Context(), "held/big"); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("a staged object is visible before it is published: %v", err)
	}
	if err := f.u.Publish(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := get(t, s, "held/big"); !bytes.Equal(got, data) {
		t.Errorf("read back %d bytes that differ from the %d staged", len(got), len(data))
	}
}

// testStageHeldCancelled: a held writer whose context ends fails in Finish
// (or was kept whole locally) and leaves nothing on the store.
func testStageHeldCancelled(t *testing.T, s providers.Storage) {
	ctx, cancel := context.WithCancel(t.Context())
	hold := make(chan struct{})
	defer close(hold)
	w := stageHeld(t, ctx, s, "cancelled/big", heldObject(), hold)
	cancel()
	u, err := w.Finish()
	switch {
	case err == nil && u.Upload().ID != "":
		t.Fatalf("Finish returned upload %s while held and cancelled", u.Upload().ID)
	case err == nil:
		u.Release()
	default:
		w.Abort()
	}
	if l := s.Features().StagedLister; l != nil {
		if n := countStaged(t, l, "cancelled/"); n != 0 {
			t.Errorf("%d uploads listed after a held writer was cancelled", n)
		}
	}
	if _, err := s.Stat(t.Context(), "cancelled/big"); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("a cancelled staged object exists: %v", err)
	}
}

// WriteOddSizes writes data to w in writes of 100,003 bytes, a size no
// part, block or buffer boundary is a multiple of.
func WriteOddSizes(t *testing.T, w io.Writer, data []byte) {
	t.Helper()
	for rest := data; len(rest) > 0; {
		n := min(len(rest), 100_003)
		if _, err := w.Write(rest[:n]); err != nil {
			t.Fatal(err)
		}
		rest = rest[n:]
	}
}

func get(t *testing.T, s providers.Storage, key string) []byte {
	t.Helper()
	data, _, err := providers.ReadAll(t.Context(), s, key)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return data
}

// testStageManySmall stages more small objects than any storage keeps
// waiting in memory, then publishes them all: past its budget a storage
// uploads them at once, and every one arrives.
func testStageManySmall(t *testing.T, s providers.Storage) {
	const n = 150
	var staged []providers.Staged
	for i := range n {
		staged = append(staged, stage(t, s, fmt.Sprintf("many/part-00000001-%05d.jsonl", i), bytes.Repeat([]byte{byte(i)}, 1000+i)))
	}
	for _, u := range staged {
		if err := u.Publish(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		if got := get(t, s, fmt.Sprintf("many/part-00000001-%05d.jsonl", i)); !bytes.Equal(got, bytes.Repeat([]byte{byte(i)}, 1000+i)) {
			t.Fatalf("object %d holds other bytes", i)
		}
	}
}
