package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/faulty"
	"github.com/streamctl/streamctl/providers/mem"
	"github.com/streamctl/streamctl/state"
)

// committedBatch writes the files of one batch and its manifest into s, as
// a destination holds them after the commit point.
func committedBatch(t *testing.T, s providers.Storage, sink, dest string, batch int64, files map[string]string) {
	t.Helper()
	ctx := context.Background()
	m := &Manifest{FormatVersion: ManifestVersion, Sink: sink, Destination: dest, Batch: batch, Source: "source.generate.g",
		Ranges: []state.Range{{Partition: "0", Start: batch * 10, End: batch*10 + 10}}}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		data := files[p]
		if err := providers.Put(ctx, s, p, []byte(data)); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(data))
		records := int64(strings.Count(data, "\n"))
		m.Files = append(m.Files, FileEntry{Path: p, Size: int64(len(data)), Records: records, SHA256: hex.EncodeToString(sum[:])})
		m.Records += records
		m.Bytes += int64(len(data))
	}
	if _, err := s.PutIfAbsent(ctx, ManifestKey(sink, batch), encodeManifest(m)); err != nil {
		t.Fatal(err)
	}
}

// twoDestinations is a sink whose destinations a and b hold batches 0 and 1,
// identical, of two JSONL files each.
func twoDestinations(t *testing.T) (*Sink, map[string]*mem.Storage) {
	t.Helper()
	stores := map[string]*mem.Storage{"a": mem.New("a"), "b": mem.New("b")}
	sink := &Sink{Name: "orders", Layout: pipeline.Layout{Format: "jsonl"}}
	for _, d := range []string{"a", "b"} {
		sink.Destinations = append(sink.Destinations, Destination{Name: d, Storage: stores[d]})
		committedBatch(t, stores[d], "orders", d, 0, map[string]string{
			"part-00000000-00000.jsonl": "{\"id\":1}\n{\"id\":2}\n",
			"part-00000000-00001.jsonl": "{\"id\":3}\n",
		})
		committedBatch(t, stores[d], "orders", d, 1, map[string]string{
			"country=fr/part-00000001-00000.jsonl": "{\"id\":4}\n",
		})
	}
	return sink, stores
}

func TestVerifyClean(t *testing.T) {
	sink, stores := twoDestinations(t)
	ctx := context.Background()
	// Staged leftovers and control files are no committed data: not unlisted.
	if err := providers.Put(ctx, stores["a"], TemporaryPrefix(2)+"part-00000002-00000.jsonl", []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	v, err := Verify(ctx, sink, true)
	if err != nil {
		t.Fatal(err)
	}
	want := Verification{Manifests: 4, Files: 6}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("got %+v, want %+v", v, want)
	}
}

// TestVerifyAgreesWithApply: what the engine commits, its verifier accepts.
func TestVerifyAgreesWithApply(t *testing.T) {
	w := newWorld(500)
	if err := w.apply(t, nil); err != nil {
		t.Fatal(err)
	}
	sink := &Sink{Name: "orders", Layout: pipeline.Layout{Format: "jsonl"}}
	for _, d := range []string{"a", "b"} {
		sink.Destinations = append(sink.Destinations, Destination{Name: d, Storage: w.dests[d]})
	}
	v, err := Verify(context.Background(), sink, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Findings) > 0 || v.Manifests == 0 || v.Files == 0 {
		t.Errorf("after a clean apply: %+v", v)
	}
}

func TestVerifyFindings(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		deep   bool
		routed bool
		damage func(a providers.Storage) error
		want   []Finding
	}{
		{
			name:   "missing",
			damage: func(a providers.Storage) error { return a.Delete(ctx, "part-00000000-00001.jsonl") },
			want: []Finding{{Sink: "orders", Destination: "a", Batch: 0, Path: "part-00000000-00001.jsonl", Problem: ProblemMissing,
				Detail: "listed in the manifest, absent from the destination"}},
		},
		{
			name: "changed size",
			damage: func(a providers.Storage) error {
				return providers.Put(ctx, a, "country=fr/part-00000001-00000.jsonl", []byte("{\"id\":44}\n"))
			},
			want: []Finding{{Sink: "orders", Destination: "a", Batch: 1, Path: "country=fr/part-00000001-00000.jsonl", Problem: ProblemChanged,
				Detail: "size 10, the manifest says 9"}},
		},
		{
			name: "changed bytes, same size",
			damage: func(a providers.Storage) error {
				return providers.Put(ctx, a, "part-00000000-00001.jsonl", []byte("{\"id\":5}\n"))
			},
			want: []Finding{{Sink: "orders", Destination: "a", Batch: 0, Path: "part-00000000-00001.jsonl", Problem: ProblemChanged}},
		},
		{
			name: "unlisted",
			damage: func(a providers.Storage) error {
				return providers.Put(ctx, a, "part-00000009-00000.jsonl", []byte("{}\n"))
			},
			want: []Finding{{Sink: "orders", Destination: "a", Path: "part-00000009-00000.jsonl", Problem: ProblemUnlisted,
				Detail: "no manifest names this file: readers that honour manifests ignore it"}},
		},
		{
			name: "record counts differ between destinations",
			deep: true,
			damage: func(a providers.Storage) error {
				if err := a.Delete(ctx, ManifestKey("orders", 1)); err != nil {
					return err
				}
				committedBatch(t, a, "orders", "a", 1, map[string]string{"country=fr/part-00000001-00000.jsonl": "{\"id\":4}\n{\"id\":5}\n"})
				return nil
			},
			want: []Finding{{Sink: "orders", Batch: 1, Problem: ProblemRecords,
				Detail: "destinations hold different record counts for this batch: a 2, b 1"}},
		},
		{
			name:   "a routed sink's destinations hold different records",
			deep:   true,
			routed: true,
			damage: func(a providers.Storage) error {
				if err := a.Delete(ctx, ManifestKey("orders", 1)); err != nil {
					return err
				}
				committedBatch(t, a, "orders", "a", 1, map[string]string{"country=fr/part-00000001-00000.jsonl": "{\"id\":4}\n{\"id\":5}\n"})
				return nil
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sink, stores := twoDestinations(t)
			if tc.routed {
				sink.Layout.RouteBy = "id"
			}
			if err := tc.damage(stores["a"]); err != nil {
				t.Fatal(err)
			}
			v, err := Verify(ctx, sink, tc.deep)
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "changed bytes, same size" && len(v.Findings) == 1 {
				// The detail names both checksums; the test checks its start.
				if !strings.HasPrefix(v.Findings[0].Detail, "SHA-256 ") {
					t.Errorf("detail %q", v.Findings[0].Detail)
				}
				v.Findings[0].Detail = ""
			}
			if !reflect.DeepEqual(v.Findings, tc.want) {
				t.Errorf("findings:\n got %+v\nwant %+v", v.Findings, tc.want)
			}
		})
	}
}

// TestVerifyDeepRecords: with deep, a JSONL file whose lines disagree with
// its manifest's record count is a finding; without, it is not looked at.
func TestVerifyDeepRecords(t *testing.T) {
	ctx := context.Background()
	s := mem.New("a")
	committedBatch(t, s, "orders", "a", 0, map[string]string{"part-00000000-00000.jsonl": "{\"id\":1}\n{\"id\":2}\n"})
	data, _, err := providers.ReadAll(ctx, s, ManifestKey("orders", 0))
	if err != nil {
		t.Fatal(err)
	}
	m, err := DecodeManifest(data)
	if err != nil {
		t.Fatal(err)
	}
	m.Files[0].Records = 3
	if err := providers.Put(ctx, s, ManifestKey("orders", 0), encodeManifest(m)); err != nil {
		t.Fatal(err)
	}
	sink := &Sink{Name: "orders", Destinations: []Destination{{Name: "a", Storage: s}}}
	shallow, err := Verify(ctx, sink, false)
	if err != nil || len(shallow.Findings) != 0 {
		t.Fatalf("without deep: %+v, %v", shallow, err)
	}
	deep, err := Verify(ctx, sink, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []Finding{{Sink: "orders", Destination: "a", Batch: 0, Path: "part-00000000-00000.jsonl", Problem: ProblemRecords, Detail: "2 records, the manifest says 3"}}
	if !reflect.DeepEqual(deep.Findings, want) {
		t.Errorf("with deep:\n got %+v\nwant %+v", deep.Findings, want)
	}
}

func TestVerifyUnreadableAndErrors(t *testing.T) {
	ctx := context.Background()
	sink, stores := twoDestinations(t)
	sink.Destinations[0].Storage = faulty.Wrap(stores["a"], faulty.Fault{Op: faulty.Get, Key: "part-00000000-00001.jsonl", N: 1})
	v, err := Verify(ctx, sink, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Findings) != 1 || v.Findings[0].Problem != ProblemUnreadable || !strings.Contains(v.Findings[0].Detail, faulty.ErrInjected.Error()) {
		t.Errorf("a file that cannot be read: %+v", v.Findings)
	}

	// A destination that cannot be listed stops the check: its findings
	// would be incomplete.
	sink, stores = twoDestinations(t)
	sink.Destinations[1].Storage = faulty.Wrap(stores["b"], faulty.Fault{Op: faulty.List, Key: "", N: 1})
	if _, err := Verify(ctx, sink, false); !errors.Is(err, faulty.ErrInjected) || !strings.HasPrefix(err.Error(), "verify b of sink orders: ") {
		t.Errorf("a listing that fails: %v", err)
	}
}

func TestCommittedFiles(t *testing.T) {
	sink, stores := twoDestinations(t)
	ctx := context.Background()
	// A batch staged but not committed has files and no manifest.
	if err := providers.Put(ctx, stores["a"], "part-00000002-00000.jsonl", []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	files, err := CommittedFiles(ctx, sink.Destinations[0], "orders")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		if f.Destination != "a" || f.SHA256 == "" || f.Size == 0 || f.Records == 0 {
			t.Errorf("incomplete entry %+v", f)
		}
		got = append(got, fmt.Sprintf("%s@%d", f.Path, f.Batch))
	}
	want := []string{"part-00000000-00000.jsonl@0", "part-00000000-00001.jsonl@0", "country=fr/part-00000001-00000.jsonl@1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	none, err := CommittedFiles(ctx, Destination{Name: "empty", Storage: mem.New("empty")}, "orders")
	if err != nil || len(none) != 0 {
		t.Errorf("an empty destination: %v, %v", none, err)
	}
}
