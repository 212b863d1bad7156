// Package storagetest is the conformance suite of providers.Storage: every
// implementation runs it against the real service, so the engine and the state
// backends can rely on the contract written in providers/storage.go alone.
package storagetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/streamctl/streamctl/providers"
)

// Run checks s against the contract of providers.Storage. newStorage must return
// an empty storage, not shared with any other call (a fresh directory, bucket or
// prefix); each subtest calls it once.
func Run(t *testing.T, newStorage func(t *testing.T) providers.Storage) {
	RunWith(t, Quirks{}, newStorage)
}

// Quirks are what a server under test is known to do short of the contract,
// where streamctl stays safe anyway; the suite then checks the weaker
// promise instead.
type Quirks struct {
	// UnserialisedDeletes: a conditional delete racing a conditional write
	// at the same version may both succeed (versitygw's posix backend
	// checks the ETag and then deletes). A lock's release there can still
	// remove a holder's lock taken over at that instant, which its
	// heartbeat then reports as lost.
	UnserialisedDeletes bool
}

// RunWith is Run for a server with quirks.
func RunWith(t *testing.T, q Quirks, newStorage func(t *testing.T) providers.Storage) {
	tests := []test{
		{"Describe", testDescribe},
		{"NotExist", testNotExist},
		{"CreateCommit", testCreateCommit},
		{"CreateAbort", testCreateAbort},
		{"CreateReplace", testCreateReplace},
		{"CreateEmpty", testCreateEmpty},
		{"CreateLarge", testCreateLarge},
		{"PutIfAbsent", testPutIfAbsent},
		{"PutIfAbsentRace", testPutIfAbsentRace},
		{"PutIfMatch", testPutIfMatch},
		{"PutIfMatchRace", testPutIfMatchRace},
		{"Versions", testVersions},
		{"List", testList},
		{"ListStops", testListStops},
		{"Copy", testCopy},
		{"Rename", testRename},
		{"Delete", testDelete},
		{"DeleteIfMatch", testDeleteIfMatch},
		{"DeleteIfMatchRace", func(t *testing.T, s providers.Storage) { testDeleteIfMatchRace(t, s, q) }},
		{"DeletePrefix", testDeletePrefix},
		{"SpecialKeys", testSpecialKeys},
		{"Concurrent", testConcurrent},
		{"ConditionalWritesHonoured", testConditionalWritesHonoured},
	}
	if newStorage(t).Features().Stager != nil {
		tests = append(tests, stagerTests()...)
	}
	if newStorage(t).Features().ScratchCreator != nil {
		// A scratch object behaves as a created one while the process
		// lives; only what a crash keeps of its name differs.
		for _, tc := range []test{{"CreateCommit", testCreateCommit}, {"CreateAbort", testCreateAbort}, {"CreateLarge", testCreateLarge}, {"Rename", testRename}} {
			tests = append(tests, test{"Scratch" + tc.name, func(t *testing.T, s providers.Storage) {
				tc.fn(t, scratch{s})
			}})
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn(t, newStorage(t))
		})
	}
}

func put(t *testing.T, s providers.Storage, key string, data []byte) {
	t.Helper()
	if err := providers.Put(t.Context(), s, key, data); err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
}

// content fails the test unless key holds want.
func content(t *testing.T, s providers.Storage, key string, want []byte) providers.ObjectInfo {
	t.Helper()
	got, info, err := providers.ReadAll(t.Context(), s, key)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read %s: got %d bytes %.40q, want %d bytes %.40q", key, len(got), got, len(want), want)
	}
	if info.Key != key {
		t.Errorf("get %s: info.Key = %q", key, info.Key)
	}
	if info.Size != int64(len(want)) {
		t.Errorf("get %s: info.Size = %d, want %d", key, info.Size, len(want))
	}
	return info
}

// absent fails the test unless Stat and Get of key say ErrNotExist.
func absent(t *testing.T, s providers.Storage, key string) {
	t.Helper()
	if info, err := s.Stat(t.Context(), key); !errors.Is(err, providers.ErrNotExist) {
		t.Fatalf("stat %s: got %+v, %v; want ErrNotExist", key, info, err)
	}
	r, _, err := s.Get(t.Context(), key)
	if err == nil {
		r.Close()
	}
	if !errors.Is(err, providers.ErrNotExist) {
		t.Fatalf("get %s: got %v; want ErrNotExist", key, err)
	}
}

// keys lists the keys under prefix.
func keys(t *testing.T, s providers.Storage, prefix string) []string {
	t.Helper()
	var out []string
	err := s.List(t.Context(), prefix, func(info providers.ObjectInfo) error {
		out = append(out, info.Key)
		return nil
	})
	if err != nil {
		t.Fatalf("list %q: %v", prefix, err)
	}
	return out
}

func sameKeys(t *testing.T, s providers.Storage, prefix string, want ...string) {
	t.Helper()
	if got := keys(t, s, prefix); !slices.Equal(got, want) {
		t.Fatalf("list %q:\n got  %q\n want %q", prefix, got, want)
	}
}

func testDescribe(t *testing.T, s providers.Storage) {
	if s.Describe() == "" {
		t.Fatal("Describe is empty")
	}
}

func testNotExist(t *testing.T, s providers.Storage) {
	ctx := t.Context()
	// A "directory" of an existing key is not an object either.
	put(t, s, "dir/sub/file", []byte("x"))
	for _, key := range []string{"missing", "dir/missing", "nope/nope/nope", "dir", "dir/sub", "dir/sub/file/child"} {
		t.Run(key, func(t *testing.T) {
			absent(t, s, key)
			if err := s.Copy(ctx, key, "copy-dst"); !errors.Is(err, providers.ErrNotExist) {
				t.Errorf("copy %s: got %v; want ErrNotExist", key, err)
			}
			absent(t, s, "copy-dst")
			if _, err := s.PutIfMatch(ctx, key, []byte("y"), "some-version"); !errors.Is(err, providers.ErrNotExist) {
				t.Errorf("put-if-match %s: got %v; want ErrNotExist", key, err)
			}
			absent(t, s, key)
		})
	}
	sameKeys(t, s, "", "dir/sub/file")
}

func testCreateCommit(t *testing.T, s providers.Storage) {
	w, err := s.Create(t.Context(), "a/b/obj.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []string{"hello", ", ", "world"} {
		if n, err := w.Write([]byte(chunk)); err != nil || n != len(chunk) {
			t.Fatalf("write: %d, %v", n, err)
		}
	}
	// Nothing is visible before Commit.
	absent(t, s, "a/b/obj.json")
	sameKeys(t, s, "")
	if err := w.Commit(); err != nil {
		t.Fatalf("commit: %v", err)
	}
	content(t, s, "a/b/obj.json", []byte("hello, world"))
	sameKeys(t, s, "", "a/b/obj.json")
	// Abort after Commit does nothing, so callers can defer it.
	if err := w.Abort(); err != nil {
		t.Fatalf("abort after commit: %v", err)
	}
	content(t, s, "a/b/obj.json", []byte("hello, world"))
	if err := w.Commit(); err == nil {
		t.Error("a second commit succeeded")
	}
}

func testCreateAbort(t *testing.T, s providers.Storage) {
	w, err := s.Create(t.Context(), "x/aborted")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("discard me")); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatalf("abort: %v", err)
	}
	absent(t, s, "x/aborted")
	sameKeys(t, s, "")
	// Aborting a writer that wrote nothing is fine too.
	w, err = s.Create(t.Context(), "x/never")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatalf("abort: %v", err)
	}
	absent(t, s, "x/never")
	sameKeys(t, s, "")
}

func testCreateReplace(t *testing.T, s providers.Storage) {
	put(t, s, "obj", []byte("old"))
	w, err := s.Create(t.Context(), "obj")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("new, longer content")); err != nil {
		t.Fatal(err)
	}
	content(t, s, "obj", []byte("old"))
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	content(t, s, "obj", []byte("new, longer content"))

	// An aborted replacement leaves the previous object.
	w, err = s.Create(t.Context(), "obj")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("never")); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	content(t, s, "obj", []byte("new, longer content"))
	sameKeys(t, s, "", "obj")
}

func testCreateEmpty(t *testing.T, s providers.Storage) {
	put(t, s, "empty", nil)
	content(t, s, "empty", nil)
	info, err := s.Stat(t.Context(), "empty")
	if err != nil || info.Size != 0 {
		t.Fatalf("stat: %+v, %v", info, err)
	}
	sameKeys(t, s, "", "empty")
}

// testCreateLarge streams 20 MiB in small uneven chunks: past any buffering
// threshold, so that a multipart implementation crosses part boundaries
// mid-write.
func testCreateLarge(t *testing.T, s providers.Storage) {
	const size = 20<<20 + 12345
	data := make([]byte, size)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	w, err := s.Create(t.Context(), "big/part-00000000-00000.bin")
	if err != nil {
		t.Fatal(err)
	}
	for rest := data; len(rest) > 0; {
		n := min(len(rest), 32<<10+7)
		if _, err := w.Write(rest[:n]); err != nil {
			w.Abort()
			t.Fatalf("write: %v", err)
		}
		rest = rest[n:]
	}
	absent(t, s, "big/part-00000000-00000.bin")
	if err := w.Commit(); err != nil {
		t.Fatalf("commit: %v", err)
	}

	r, info, err := s.Get(t.Context(), "big/part-00000000-00000.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if n != size || info.Size != size {
		t.Fatalf("read %d bytes, info.Size %d; want %d", n, info.Size, size)
	}
	if want := sha256.Sum256(data); !bytes.Equal(h.Sum(nil), want[:]) {
		t.Fatal("the object read back differs from what was written")
	}
	var listed []providers.ObjectInfo
	s.List(t.Context(), "", func(i providers.ObjectInfo) error { listed = append(listed, i); return nil })
	if len(listed) != 1 || listed[0].Size != size {
		t.Fatalf("list: %+v; want one object of %d bytes", listed, size)
	}
}

func testPutIfAbsent(t *testing.T, s providers.Storage) {
	ctx := t.Context()
	v1, err := s.PutIfAbsent(ctx, "lock/state.lock", []byte("first"))
	if err != nil {
		t.Fatalf("first put: %v", err)
	}
	if v1 == "" {
		t.Error("PutIfAbsent returned an empty version")
	}
	if _, err := s.PutIfAbsent(ctx, "lock/state.lock", []byte("second")); !errors.Is(err, providers.ErrExist) {
		t.Fatalf("second put: got %v; want ErrExist", err)
	}
	info := content(t, s, "lock/state.lock", []byte("first"))
	if info.Version != v1 {
		t.Errorf("get version %q; PutIfAbsent returned %q", info.Version, v1)
	}
	// An object written by Create counts as present too.
	put(t, s, "other", []byte("x"))
	if _, err := s.PutIfAbsent(ctx, "other", []byte("y")); !errors.Is(err, providers.ErrExist) {
		t.Fatalf("put over a created object: got %v; want ErrExist", err)
	}
	content(t, s, "other", []byte("x"))
	// After Delete the key is free again.
	if err := s.Delete(ctx, "lock/state.lock"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutIfAbsent(ctx, "lock/state.lock", []byte("third")); err != nil {
		t.Fatalf("put after delete: %v", err)
	}
	content(t, s, "lock/state.lock", []byte("third"))
}

// race runs n writers at once and returns each one's error.
func race(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var start, wg sync.WaitGroup
	start.Add(1)
	for i := range n {
		wg.Go(func() {
			start.Wait()
			errs[i] = fn(i)
		})
	}
	start.Done()
	wg.Wait()
	return errs
}

// oneWinner fails the test unless exactly one error is nil and the others are
// loser; it returns the winner.
func oneWinner(t *testing.T, errs []error, loser error) int {
	t.Helper()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Fatalf("writers %d and %d both won", winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, loser):
			t.Fatalf("writer %d: got %v; want nil or %v", i, err, loser)
		}
	}
	if winner < 0 {
		t.Fatal("no writer won")
	}
	return winner
}

func testPutIfAbsentRace(t *testing.T, s providers.Storage) {
	errs := race(10, func(i int) error {
		_, err := s.PutIfAbsent(t.Context(), "_streamctl/sink/7.json", fmt.Appendf(nil, "writer %d", i))
		return err
	})
	winner := oneWinner(t, errs, providers.ErrExist)
	content(t, s, "_streamctl/sink/7.json", fmt.Appendf(nil, "writer %d", winner))
}

func testPutIfMatch(t *testing.T, s providers.Storage) {
	ctx := t.Context()
	v1, err := s.PutIfAbsent(ctx, "state.json", []byte(`{"serial":1}`))
	if err != nil {
		t.Fatal(err)
	}
	v2, err := s.PutIfMatch(ctx, "state.json", []byte(`{"serial":2}`), v1)
	if err != nil {
		t.Fatalf("put with the current version: %v", err)
	}
	if v2 == "" || v2 == v1 {
		t.Fatalf("new version %q after %q: want a different, non-empty one", v2, v1)
	}
	if info := content(t, s, "state.json", []byte(`{"serial":2}`)); info.Version != v2 {
		t.Errorf("get version %q; PutIfMatch returned %q", info.Version, v2)
	}

	for _, tc := range []struct {
		name, version string
	}{
		{"stale", v1},
		{"unknown", "not-a-version"},
		{"empty", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.PutIfMatch(ctx, "state.json", []byte(`{"serial":"lost"}`), tc.version)
			if !errors.Is(err, providers.ErrPrecondition) {
				t.Fatalf("got %v; want ErrPrecondition", err)
			}
			content(t, s, "state.json", []byte(`{"serial":2}`))
		})
	}

	if _, err := s.PutIfMatch(ctx, "missing.json", []byte("x"), v2); !errors.Is(err, providers.ErrNotExist) {
		t.Fatalf("put over a missing object: got %v; want ErrNotExist", err)
	}
	absent(t, s, "missing.json")
	// A deleted object is missing, whatever version the writer saw.
	if err := s.Delete(ctx, "state.json"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutIfMatch(ctx, "state.json", []byte("x"), v2); !errors.Is(err, providers.ErrNotExist) {
		t.Fatalf("put over a deleted object: got %v; want ErrNotExist", err)
	}
	sameKeys(t, s, "")
}

func testPutIfMatchRace(t *testing.T, s providers.Storage) {
	v, err := s.PutIfAbsent(t.Context(), "state.json", []byte("serial 0"))
	if err != nil {
		t.Fatal(err)
	}
	errs := race(10, func(i int) error {
		_, err := s.PutIfMatch(t.Context(), "state.json", fmt.Appendf(nil, "serial 1 by %d", i), v)
		return err
	})
	winner := oneWinner(t, errs, providers.ErrPrecondition)
	content(t, s, "state.json", fmt.Appendf(nil, "serial 1 by %d", winner))
}

// testVersions checks that the versions every method reports are the ones
// PutIfMatch accepts, whichever way the object was written.
func testVersions(t *testing.T, s providers.Storage) {
	ctx := t.Context()
	sources := []struct {
		name  string
		write func(key string) string // writes key, returns the version it reports or ""
	}{
		{"Create", func(key string) string { put(t, s, key, []byte("created")); return "" }},
		{"PutIfAbsent", func(key string) string {
			v, err := s.PutIfAbsent(ctx, key, []byte("absent"))
			if err != nil {
				t.Fatal(err)
			}
			return v
		}},
		{"Copy", func(key string) string {
			put(t, s, key+".src", []byte("copied"))
			if err := s.Copy(ctx, key+".src", key); err != nil {
				t.Fatal(err)
			}
			return ""
		}},
	}
	readers := []struct {
		name    string
		version func(key string) string
	}{
		{"Get", func(key string) string {
			r, info, err := s.Get(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			r.Close()
			return info.Version
		}},
		{"Stat", func(key string) string {
			info, err := s.Stat(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			return info.Version
		}},
	}
	for _, src := range sources {
		for _, rd := range readers {
			t.Run(src.name+"/"+rd.name, func(t *testing.T) {
				key := "v/" + src.name + "-" + rd.name
				written := src.write(key)
				v := rd.version(key)
				if v == "" {
					t.Fatalf("%s reports no version", rd.name)
				}
				if written != "" && v != written {
					t.Errorf("%s reports version %q; %s returned %q", rd.name, v, src.name, written)
				}
				v2, err := s.PutIfMatch(ctx, key, []byte("next"), v)
				if err != nil {
					t.Fatalf("put with the version from %s: %v", rd.name, err)
				}
				if got := rd.version(key); got != v2 {
					t.Errorf("%s reports version %q; PutIfMatch returned %q", rd.name, got, v2)
				}
				if _, err := s.PutIfMatch(ctx, key, []byte("again"), v2); err != nil {
					t.Fatalf("put with the version from PutIfMatch: %v", err)
				}
			})
		}
	}
}

func testList(t *testing.T, s providers.Storage) {
	// In lexicographic order. No key is a "directory" of another ("a/b" beside
	// "a/b/c"): a filesystem cannot hold both, and the engine never writes both.
	all := []string{
		"a-c",
		"a.b",
		"a/b/c",
		"a/b/d/e",
		"a/bc",
		"a0",
		"b/x",
		"country=de/part-00000000-00000.jsonl",
		"country=de/part-00000000-00001.jsonl",
		"country=fr/part-00000000-00000.jsonl",
	}
	// Written out of order, with sizes that differ so that List's are checked.
	for i, k := range []int{7, 2, 9, 0, 4, 1, 3, 8, 6, 5} {
		put(t, s, all[k], bytes.Repeat([]byte("x"), i+1))
	}
	sizes := map[string]int64{}
	err := s.List(t.Context(), "", func(info providers.ObjectInfo) error {
		sizes[info.Key] = info.Size
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range all {
		info, err := s.Stat(t.Context(), key)
		if err != nil {
			t.Fatal(err)
		}
		if sizes[key] != info.Size {
			t.Errorf("list gives %s size %d, stat %d", key, sizes[key], info.Size)
		}
	}

	for _, tc := range []struct {
		prefix string
		want   []string
	}{
		{"", all},
		{"a", all[:6]},
		{"a/", all[2:5]},
		{"a/b", all[2:5]},
		{"a/b/", all[2:4]},
		{"a/b/d/", all[3:4]},
		{"a/b/d/e", all[3:4]},
		{"country=", all[7:]},
		{"country=de/", all[7:9]},
		{"country=de/part-00000000-0000", all[7:9]},
		{"country=fr/part", all[9:]},
		{"c", all[7:]},
		{"z", nil},
		{"a/z", nil},
		{"no/such/dir/", nil},
		{"a/b/c/", nil},
		{"a-c/", nil},
	} {
		t.Run(fmt.Sprintf("%q", tc.prefix), func(t *testing.T) {
			sameKeys(t, s, tc.prefix, tc.want...)
		})
	}
}

func testListStops(t *testing.T, s providers.Storage) {
	for _, k := range []string{"1", "2", "3"} {
		put(t, s, k, []byte(k))
	}
	stop := errors.New("stop")
	var seen []string
	err := s.List(t.Context(), "", func(info providers.ObjectInfo) error {
		seen = append(seen, info.Key)
		if info.Key == "2" {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("list: got %v; want fn's error", err)
	}
	if !slices.Equal(seen, []string{"1", "2"}) {
		t.Fatalf("list called fn with %q after fn failed", seen)
	}
}

func testCopy(t *testing.T, s providers.Storage) {
	ctx := t.Context()
	put(t, s, "_temporary/3/country=de/part-00000003-00000.jsonl", []byte("batch 3"))
	for _, tc := range []struct {
		name, before string // before: what dst held, "" for nothing
	}{
		{"new", ""},
		{"replace", "an older, longer object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := "final-" + tc.name + "/country=de/part-00000003-00000.jsonl"
			if tc.before != "" {
				put(t, s, dst, []byte(tc.before))
			}
			if err := s.Copy(ctx, "_temporary/3/country=de/part-00000003-00000.jsonl", dst); err != nil {
				t.Fatalf("copy: %v", err)
			}
			content(t, s, dst, []byte("batch 3"))
			content(t, s, "_temporary/3/country=de/part-00000003-00000.jsonl", []byte("batch 3"))
		})
	}
	sameKeys(t, s, "",
		"_temporary/3/country=de/part-00000003-00000.jsonl",
		"final-new/country=de/part-00000003-00000.jsonl",
		"final-replace/country=de/part-00000003-00000.jsonl")
}

// testRename checks the Renamer of the storages that have one.
func testRename(t *testing.T, s providers.Storage) {
	r := s.Features().Renamer
	if r == nil {
		t.Logf("%s has no Renamer", s.Describe())
		return
	}
	ctx := t.Context()
	put(t, s, "_temporary/1/country=de/part-00000001-00000.jsonl", []byte("new"))
	put(t, s, "_temporary/1/country=fr/part-00000001-00000.jsonl", []byte("fr"))
	put(t, s, "country=fr/part-00000001-00000.jsonl", []byte("an older, longer object"))
	for _, name := range []string{"country=de/part-00000001-00000.jsonl", "country=fr/part-00000001-00000.jsonl"} {
		if err := r.Rename(ctx, "_temporary/1/"+name, name); err != nil {
			t.Fatalf("rename %s: %v", name, err)
		}
		absent(t, s, "_temporary/1/"+name)
	}
	content(t, s, "country=de/part-00000001-00000.jsonl", []byte("new"))
	content(t, s, "country=fr/part-00000001-00000.jsonl", []byte("fr"))
	for _, src := range []string{"_temporary/1/country=de/part-00000001-00000.jsonl", "missing", "country=de"} {
		if err := r.Rename(ctx, src, "elsewhere/x"); !errors.Is(err, providers.ErrNotExist) {
			t.Errorf("rename %s: got %v; want ErrNotExist", src, err)
		}
	}
	sameKeys(t, s, "", "country=de/part-00000001-00000.jsonl", "country=fr/part-00000001-00000.jsonl")
}

// testDeleteIfMatch: the object goes only at the version given; another
// version keeps it and says ErrPrecondition; a missing object is gone
// already.
func testDeleteIfMatch(t *testing.T, s providers.Storage) {
	ctx := t.Context()
	v1, err := s.PutIfAbsent(ctx, "locks/state.lock", []byte("holder 1"))
	if err != nil {
		t.Fatal(err)
	}
	v2, err := s.PutIfMatch(ctx, "locks/state.lock", []byte("holder 2"), v1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, version string }{{"stale", v1}, {"unknown", "not-a-version"}, {"empty", ""}} {
		if err := s.DeleteIfMatch(ctx, "locks/state.lock", tc.version); !errors.Is(err, providers.ErrPrecondition) {
			t.Errorf("delete at a %s version: got %v; want ErrPrecondition", tc.name, err)
		}
		content(t, s, "locks/state.lock", []byte("holder 2"))
	}
	if err := s.DeleteIfMatch(ctx, "locks/state.lock", v2); err != nil {
		t.Fatalf("delete at the current version: %v", err)
	}
	absent(t, s, "locks/state.lock")
	for _, key := range []string{"locks/state.lock", "never", "no/such"} {
		if err := s.DeleteIfMatch(ctx, key, v2); err != nil {
			t.Errorf("conditional delete of the missing %s: %v", key, err)
		}
	}
	sameKeys(t, s, "")
}

// testDeleteIfMatchRace: of a delete and a replacement racing at one
// version, one wins; the object is either gone or the replacement's. With
// UnserialisedDeletes both may win, leaving either outcome.
func testDeleteIfMatchRace(t *testing.T, s providers.Storage, q Quirks) {
	ctx := t.Context()
	for round := range 10 {
		v, err := s.PutIfAbsent(ctx, "state.lock", fmt.Appendf(nil, "old holder %d", round))
		if err != nil {
			t.Fatal(err)
		}
		errs := race(2, func(i int) error {
			if i == 0 {
				return s.DeleteIfMatch(ctx, "state.lock", v)
			}
			_, err := s.PutIfMatch(ctx, "state.lock", fmt.Appendf(nil, "new holder %d", round), v)
			return err
		})
		switch {
		case errs[0] == nil && errs[1] == nil && q.UnserialisedDeletes:
			// Either order: gone, or the replacement's bytes.
			if data, _, err := providers.ReadAll(ctx, s, "state.lock"); err == nil {
				if !bytes.Equal(data, fmt.Appendf(nil, "new holder %d", round)) {
					t.Fatalf("round %d: after both won the object holds %q", round, data)
				}
				if err := s.Delete(ctx, "state.lock"); err != nil {
					t.Fatal(err)
				}
			} else if !errors.Is(err, providers.ErrNotExist) {
				t.Fatal(err)
			}
		case errs[0] == nil && errs[1] == nil:
			t.Fatalf("round %d: both the delete and the replacement at one version succeeded", round)
		case errs[1] == nil:
			if !errors.Is(errs[0], providers.ErrPrecondition) {
				t.Fatalf("round %d: the losing delete: %v, want ErrPrecondition", round, errs[0])
			}
			content(t, s, "state.lock", fmt.Appendf(nil, "new holder %d", round))
			if err := s.Delete(ctx, "state.lock"); err != nil {
				t.Fatal(err)
			}
		case errs[0] == nil:
			if !errors.Is(errs[1], providers.ErrNotExist) && !errors.Is(errs[1], providers.ErrPrecondition) {
				t.Fatalf("round %d: the losing replacement: %v", round, errs[1])
			}
			absent(t, s, "state.lock")
		default:
			t.Fatalf("round %d: neither won: %v, %v", round, errs[0], errs[1])
		}
	}
}

func testDelete(t *testing.T, s providers.Storage) {
	ctx := t.Context()
	put(t, s, "d/1", []byte("1"))
	put(t, s, "d/2", []byte("2"))
	put(t, s, "d/sub/3", []byte("3"))
	if err := s.Delete(ctx, "d/1"); err != nil {
		t.Fatal(err)
	}
	absent(t, s, "d/1")
	sameKeys(t, s, "", "d/2", "d/sub/3")
	for _, key := range []string{
		"d/1",      // deleted already
		"never",    // never existed
		"no/such",  // nor did its directory
		"d/sub",    // a directory of an existing key is not an object
		"d/sub/3/", // invalid for some storages: must not delete d/sub/3
	} {
		if err := s.Delete(ctx, key); err != nil && key != "d/sub/3/" {
			t.Errorf("delete %s: %v", key, err)
		}
	}
	sameKeys(t, s, "", "d/2", "d/sub/3")
	content(t, s, "d/sub/3", []byte("3"))
	for _, key := range []string{"d/2", "d/sub/3"} {
		if err := s.Delete(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	sameKeys(t, s, "")
	// The storage is usable again after everything was deleted.
	put(t, s, "d/sub/3", []byte("again"))
	content(t, s, "d/sub/3", []byte("again"))
}

func testDeletePrefix(t *testing.T, s providers.Storage) {
	pd := s.Features().PrefixDeleter
	if pd == nil {
		t.Logf("%s has no PrefixDeleter", s.Describe())
		return
	}
	ctx := t.Context()
	for _, key := range []string{"_temporary/7/a", "_temporary/7/country=de/b", "_temporary/70/c", "_temporary/8/d", "e"} {
		put(t, s, key, []byte(key))
	}
	if err := pd.DeletePrefix(ctx, "_temporary/7/"); err != nil {
		t.Fatal(err)
	}
	// "_temporary/70/" shares the string prefix "_temporary/7" but is
	// another folder: it stays.
	sameKeys(t, s, "", "_temporary/70/c", "_temporary/8/d", "e")
	if err := pd.DeletePrefix(ctx, "_temporary/7/"); err != nil {
		t.Errorf("delete a prefix holding nothing: %v", err)
	}
	// More keys than one listing page or one batch delete of some stores.
	var many []string
	for i := range 1100 {
		many = append(many, fmt.Sprintf("_temporary/9/part-%05d", i))
	}
	var wg sync.WaitGroup
	errs := make([]error, len(many))
	sem := make(chan struct{}, 8)
	for i, key := range many {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			errs[i] = providers.Put(ctx, s, key, nil)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if err := pd.DeletePrefix(ctx, "_temporary/9/"); err != nil {
		t.Fatal(err)
	}
	sameKeys(t, s, "", "_temporary/70/c", "_temporary/8/d", "e")
}

// testSpecialKeys runs every operation on keys with characters that need
// escaping in URLs or look like escapes: Hive partition values are escaped
// with '%', and may hold spaces and '='.
func testSpecialKeys(t *testing.T, s providers.Storage) {
	ctx := t.Context()
	for _, key := range []string{
		"country=de/x=a%2Fb/part-00000000-00000.jsonl",
		"with space/a b.json",
		"pct/100%25 sure%",
		"plus/a+b=c",
		"amp/a&b?c#d;e,f:g@h",
		"unicode/café-日本.json",
		"quote/it's \"quoted\"",
		"tilde~/star*(paren)[br]",
	} {
		t.Run(key, func(t *testing.T) {
			data := []byte("content of " + key)
			put(t, s, key, data)
			content(t, s, key, data)
			info, err := s.Stat(ctx, key)
			if err != nil || info.Key != key || info.Size != int64(len(data)) {
				t.Fatalf("stat: %+v, %v", info, err)
			}
			dir := key[:len(key)-len(key[lastSlash(key)+1:])]
			sameKeys(t, s, dir, key)
			sameKeys(t, s, key, key)

			if _, err := s.PutIfAbsent(ctx, key, []byte("no")); !errors.Is(err, providers.ErrExist) {
				t.Fatalf("put-if-absent over it: got %v; want ErrExist", err)
			}
			v2, err := s.PutIfMatch(ctx, key, []byte("v2"), info.Version)
			if err != nil {
				t.Fatalf("put-if-match: %v", err)
			}
			if _, err := s.PutIfMatch(ctx, key, []byte("v3"), info.Version); !errors.Is(err, providers.ErrPrecondition) {
				t.Fatalf("put-if-match stale: got %v; want ErrPrecondition", err)
			}
			if _, err := s.PutIfMatch(ctx, key, []byte("v3"), v2); err != nil {
				t.Fatalf("put-if-match: %v", err)
			}

			dst := "copied/" + key
			if err := s.Copy(ctx, key, dst); err != nil {
				t.Fatalf("copy: %v", err)
			}
			content(t, s, dst, []byte("v3"))
			sameKeys(t, s, "copied/"+dir, dst)

			for _, k := range []string{key, dst} {
				if err := s.Delete(ctx, k); err != nil {
					t.Fatalf("delete %s: %v", k, err)
				}
				absent(t, s, k)
			}
			if _, err := s.PutIfAbsent(ctx, key, []byte("new")); err != nil {
				t.Fatalf("put-if-absent after delete: %v", err)
			}
			content(t, s, key, []byte("new"))
			if err := s.Delete(ctx, key); err != nil {
				t.Fatal(err)
			}
		})
	}
	sameKeys(t, s, "")
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

// testConcurrent writes, reads, lists and deletes from many goroutines under
// shared directories, as the engine does across partitions: a storage that
// creates and removes directories must not trip over its own cleanup.
func testConcurrent(t *testing.T, s providers.Storage) {
	const workers, rounds = 8, 12
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	errs := race(workers, func(i int) error {
		for r := range rounds {
			key := fmt.Sprintf("_temporary/%d/country=de/part-%08d-%05d.jsonl", r%3, r, i)
			data := fmt.Appendf(nil, "worker %d round %d", i, r)
			if err := providers.Put(ctx, s, key, data); err != nil {
				return err
			}
			got, _, err := providers.ReadAll(ctx, s, key)
			if err != nil {
				return err
			}
			if !bytes.Equal(got, data) {
				return fmt.Errorf("read %s: got %q, want %q", key, got, data)
			}
			if _, err := s.PutIfAbsent(ctx, key+".manifest", data); err != nil {
				return err
			}
			if err := s.List(ctx, "_temporary/", func(providers.ObjectInfo) error { return nil }); err != nil {
				return err
			}
			for _, k := range []string{key, key + ".manifest"} {
				if err := s.Delete(ctx, k); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	sameKeys(t, s, "")
}

// ManyOpenObjects writes 32 objects of 6 MiB at once, interleaved in 64 KiB
// writes as a batch writing 32 partition folders does, and checks that the
// heap grows by less than maxHeap meanwhile, that every object is committed
// whole, and that TMPDIR, where object stores buffer on disk, is empty again
// afterwards. It sets TMPDIR, so it cannot run in parallel tests.
func ManyOpenObjects(t *testing.T, s providers.Storage, maxHeap int64) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx := t.Context()
	const files, size, chunk = 32, 6 << 20, 64 << 10
	data := make([]byte, chunk)
	for i := range data {
		data[i] = byte(i * 13 / 7)
	}
	key := func(i int) string { return fmt.Sprintf("country=%02d/part-00000001-00000.bin", i) }
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	var ws []providers.ObjectWriter
	for i := range files {
		w, err := s.Create(ctx, key(i))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		ws = append(ws, w)
	}
	var peak uint64
	for off := 0; off < size; off += chunk {
		for _, w := range ws {
			if _, err := w.Write(data); err != nil {
				t.Fatal(err)
			}
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		peak = max(peak, m.HeapInuse)
	}
	if grew := int64(peak) - int64(before.HeapInuse); grew > maxHeap {
		t.Errorf("%s: the heap grew by %d MiB while %d objects of %d MiB were written", s.Describe(), grew>>20, files, size>>20)
	}
	for _, w := range ws {
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	for i := range files {
		if info, err := s.Stat(ctx, key(i)); err != nil || info.Size != size {
			t.Fatalf("%s: %+v, %v", key(i), info, err)
		}
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("TMPDIR holds %d entries after the commits", len(entries))
	}
}

// testConditionalWritesHonoured: the probe streamctl runs before it trusts a
// store for locks and commits passes, and leaves nothing behind.
func testConditionalWritesHonoured(t *testing.T, s providers.Storage) {
	if err := providers.ProbeConditionalWrites(context.Background(), s, "probe"); err != nil {
		t.Fatalf("the conditional-write probe: %v", err)
	}
	sameKeys(t, s, "")
}

// scratch is a Storage whose Create writes scratch objects.
type scratch struct{ providers.Storage }

func (s scratch) Create(ctx context.Context, key string) (providers.ObjectWriter, error) {
	return s.Storage.Features().ScratchCreator.CreateScratch(ctx, key)
}
