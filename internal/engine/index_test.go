package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
	"github.com/streamctl/streamctl/state"
)

func withIndexInterval(t *testing.T, n int64) {
	old := IndexInterval
	IndexInterval = n
	t.Cleanup(func() { IndexInterval = old })
}

func testManifest(batch int64) *Manifest {
	return &Manifest{
		FormatVersion: ManifestVersion, Sink: "orders", Destination: "a", Batch: batch, Source: "generate:orders",
		Ranges:  []state.Range{{Partition: "0", Start: batch * 10, End: batch*10 + 10}},
		Files:   []FileEntry{{Path: fmt.Sprintf("part-%d.jsonl", batch), Size: 100, Records: 10, SHA256: "00"}},
		Records: 10, Bytes: 100,
	}
}

// commitManifests writes the single manifests of batches from..to-1.
func commitManifests(t *testing.T, s providers.Storage, from, to int64) {
	t.Helper()
	for id := from; id < to; id++ {
		if _, err := s.PutIfAbsent(context.Background(), ManifestKey("orders", id), encodeManifest(testManifest(id))); err != nil {
			t.Fatal(err)
		}
	}
}

// controlKeys lists the sink's control folder, relative to it.
func controlKeys(t *testing.T, s providers.Storage) []string {
	t.Helper()
	var keys []string
	prefix := MetadataDir + "/orders/"
	if err := s.List(context.Background(), prefix, func(info providers.ObjectInfo) error {
		keys = append(keys, strings.TrimPrefix(info.Key, prefix))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(keys)
	return keys
}

func batchesOf(ms []*Manifest) []int64 {
	var ids []int64
	for _, m := range ms {
		ids = append(ids, m.Batch)
	}
	return ids
}

func span(from, to int64) []int64 {
	var ids []int64
	for id := from; id < to; id++ {
		ids = append(ids, id)
	}
	return ids
}

func TestCompactionGathersCommittedBlocks(t *testing.T) {
	withIndexInterval(t, 10)
	ctx := context.Background()
	s := local.New(t.TempDir())
	commitManifests(t, s, 0, 25)

	// Batches below 25 are committed: blocks 0–9 and 10–19 are complete.
	if err := compactManifests(ctx, s, "orders", "a", 25); err != nil {
		t.Fatal(err)
	}
	want := []string{"20.json", "21.json", "22.json", "23.json", "24.json", "index-0.json", "index-10.json"}
	if got := controlKeys(t, s); !slices.Equal(got, want) {
		t.Fatalf("control folder after compaction:\n got %v\nwant %v", got, want)
	}
	ms, err := ReadManifests(ctx, s, "orders", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := batchesOf(ms); !slices.Equal(got, span(0, 25)) {
		t.Fatalf("manifests read: %v", got)
	}
	for _, m := range ms {
		if !sameBatch(m, testManifest(m.Batch)) {
			t.Errorf("batch %d read back differs: %+v", m.Batch, m)
		}
	}
	ms, err = ReadManifests(ctx, s, "orders", 13)
	if err != nil {
		t.Fatal(err)
	}
	if got := batchesOf(ms); !slices.Equal(got, span(13, 25)) {
		t.Fatalf("manifests from 13: %v", got)
	}

	// A block is never compacted before all of it is committed.
	if err := compactManifests(ctx, s, "orders", "a", 29); err != nil {
		t.Fatal(err)
	}
	if got := controlKeys(t, s); !slices.Equal(got, want) {
		t.Fatalf("an incomplete block was compacted: %v", got)
	}
}

// A crash between the index write and the deletes leaves both; readers see
// each batch once, and the next compaction finishes the deletes.
func TestCompactionAfterCrashBetweenIndexAndDeletes(t *testing.T) {
	withIndexInterval(t, 10)
	ctx := context.Background()
	s := local.New(t.TempDir())
	commitManifests(t, s, 0, 12)
	ix := &ManifestIndex{FormatVersion: IndexVersion, Sink: "orders", Destination: "a", FirstBatch: 0, LastBatch: 9}
	for id := range int64(10) {
		ix.Manifests = append(ix.Manifests, testManifest(id))
	}
	if _, err := s.PutIfAbsent(ctx, IndexKey("orders", 0), encodeIndex(ix)); err != nil {
		t.Fatal(err)
	}

	ms, err := ReadManifests(ctx, s, "orders", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := batchesOf(ms); !slices.Equal(got, span(0, 12)) {
		t.Fatalf("union of index and single manifests: %v", got)
	}
	if err := compactManifests(ctx, s, "orders", "a", 12); err != nil {
		t.Fatal(err)
	}
	if got, want := controlKeys(t, s), []string{"10.json", "11.json", "index-0.json"}; !slices.Equal(got, want) {
		t.Fatalf("control folder: got %v, want %v", got, want)
	}
}

// A batch repaired after its block was indexed keeps its own manifest, and
// readers and the planner's observation see it.
func TestRepairAfterCompactionStaysBesideTheIndex(t *testing.T) {
	withIndexInterval(t, 10)
	ctx := context.Background()
	s := local.New(t.TempDir())
	commitManifests(t, s, 0, 10)
	if err := s.Delete(ctx, ManifestKey("orders", 4)); err != nil {
		t.Fatal(err)
	}
	if err := compactManifests(ctx, s, "orders", "a", 10); err != nil {
		t.Fatal(err)
	}
	commitManifests(t, s, 4, 5) // the repair
	if err := compactManifests(ctx, s, "orders", "a", 10); err != nil {
		t.Fatal(err)
	}
	if got, want := controlKeys(t, s), []string{"4.json", "index-0.json"}; !slices.Equal(got, want) {
		t.Fatalf("control folder: got %v, want %v", got, want)
	}
	ms, err := ReadManifests(ctx, s, "orders", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := batchesOf(ms); !slices.Equal(got, span(0, 10)) {
		t.Fatalf("manifests: %v", got)
	}
	m, err := lookupManifest(ctx, s, "orders", 7, true)
	if err != nil || m.Batch != 7 {
		t.Fatalf("lookup of an indexed batch: %v, %v", m, err)
	}
	if _, err := lookupManifest(ctx, s, "orders", 7, false); !errors.Is(err, providers.ErrNotExist) {
		t.Fatalf("lookup without indexes found an indexed batch: %v", err)
	}
	if _, err := lookupManifest(ctx, s, "orders", 12, true); !errors.Is(err, providers.ErrNotExist) {
		t.Fatalf("lookup of a batch in no index: %v", err)
	}
}

func TestConflictingManifestsAreAnError(t *testing.T) {
	withIndexInterval(t, 10)
	ctx := context.Background()
	s := local.New(t.TempDir())
	commitManifests(t, s, 0, 10)
	if err := compactManifests(ctx, s, "orders", "a", 10); err != nil {
		t.Fatal(err)
	}
	other := testManifest(3)
	other.Ranges[0].End++
	if _, err := s.PutIfAbsent(ctx, ManifestKey("orders", 3), encodeManifest(other)); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadManifests(ctx, s, "orders", 0); err == nil || !strings.Contains(err.Error(), "batch 3 has two different manifests") {
		t.Fatalf("conflict not reported: %v", err)
	}
	// Compaction refuses to pick one of them, and deletes neither.
	if err := compactManifests(ctx, s, "orders", "a", 10); err == nil || !strings.Contains(err.Error(), "3.json differs from batch 3") {
		t.Fatalf("compaction over a conflict: %v", err)
	}
	if got := controlKeys(t, s); !slices.Contains(got, "3.json") {
		t.Fatalf("the conflicting manifest was deleted: %v", got)
	}
}

func TestObserveReadsIndexesFromTheHistoryOn(t *testing.T) {
	withIndexInterval(t, 10)
	ctx := context.Background()
	s := local.New(t.TempDir())
	commitManifests(t, s, 0, 35)
	if err := compactManifests(ctx, s, "orders", "a", 35); err != nil {
		t.Fatal(err)
	}
	// Remove the index of 0–9: the observation must not need it when the
	// history starts at 25.
	if err := s.Delete(ctx, IndexKey("orders", 0)); err != nil {
		t.Fatal(err)
	}
	if err := providers.Put(ctx, s, IndexKey("orders", 10), []byte("not an index")); err != nil {
		t.Fatal(err)
	}
	sink := &Sink{Name: "orders", Destinations: []Destination{{Name: "a", Storage: s}}}
	st := state.NewSink(state.SourceRef{})
	st.NextBatch = 33 // restored from an older copy: 33 and 34 are ahead
	st.History = []state.Batch{{ID: 25}}
	obs, err := Observe(ctx, sink, st)
	if err != nil {
		t.Fatal(err)
	}
	o := obs["a"]
	if got := o.Manifests; !slices.Equal(got, span(20, 35)) {
		t.Fatalf("observed manifests: %v", got)
	}
	if len(o.Ahead) != 2 || o.Ahead[33] == nil || o.Ahead[34] == nil {
		t.Fatalf("ahead: %v", o.Ahead)
	}

	st.History = []state.Batch{{ID: 15}}
	if _, err := Observe(ctx, sink, st); err == nil || !strings.Contains(err.Error(), "index-10.json") {
		t.Fatalf("a corrupt index the history needs: %v", err)
	}
}

func TestIndexesFrom(t *testing.T) {
	for _, tc := range []struct {
		indexes []int64
		from    int64
		want    []int64
	}{
		{nil, 0, nil},
		{[]int64{0}, 0, []int64{0}},
		{[]int64{0}, 500, []int64{0}},
		{[]int64{0, 1000, 2000}, 0, []int64{0, 1000, 2000}},
		{[]int64{0, 1000, 2000}, 999, []int64{0, 1000, 2000}},
		{[]int64{0, 1000, 2000}, 1000, []int64{1000, 2000}},
		{[]int64{0, 1000, 2000}, 1500, []int64{1000, 2000}},
		{[]int64{0, 1000, 2000}, 2000, []int64{2000}},
		{[]int64{0, 1000, 2000}, 2500, []int64{2000}},
		{[]int64{1000, 2000}, 500, []int64{1000, 2000}},
	} {
		if got := (catalog{indexes: tc.indexes}).indexesFrom(tc.from); !slices.Equal(got, tc.want) {
			t.Errorf("indexesFrom(%v, %d) = %v, want %v", tc.indexes, tc.from, got, tc.want)
		}
	}
}

// A block whose manifests add up to more than maxIndexBytes keeps them
// single: no reader has to read an index that large.
func TestCompactionLeavesLargeBlocksSingle(t *testing.T) {
	withIndexInterval(t, 10)
	old := maxIndexBytes
	maxIndexBytes = 5000 // 10 of the test's manifests take about 4200 bytes
	t.Cleanup(func() { maxIndexBytes = old })
	ctx := context.Background()
	s := local.New(t.TempDir())
	commitManifests(t, s, 0, 20)
	big := testManifest(12)
	for i := range 40 {
		big.Files = append(big.Files, FileEntry{Path: fmt.Sprintf("country=%02d/part-00000012-00000.jsonl", i), Size: 1, Records: 1, SHA256: "00"})
	}
	if err := s.Delete(ctx, ManifestKey("orders", 12)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutIfAbsent(ctx, ManifestKey("orders", 12), encodeManifest(big)); err != nil {
		t.Fatal(err)
	}
	if err := compactManifests(ctx, s, "orders", "a", 20); err != nil {
		t.Fatal(err)
	}
	got := controlKeys(t, s)
	if !slices.Contains(got, "index-0.json") || slices.Contains(got, "index-10.json") || !slices.Contains(got, "12.json") {
		t.Fatalf("control folder: %v; want index-0.json and the single manifests of 10–19", got)
	}
	ms, err := ReadManifests(ctx, s, "orders", 0)
	if err != nil {
		t.Fatal(err)
	}
	if ids := batchesOf(ms); !slices.Equal(ids, span(0, 20)) {
		t.Fatalf("manifests: %v", ids)
	}
}
