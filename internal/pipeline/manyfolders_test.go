package pipeline

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/streamctl/streamctl/internal/format/formattest"
	"github.com/streamctl/streamctl/providers"
)

// treeHash is a digest of a tree: its paths, in order, and their bytes.
func treeHash(tree map[string][]byte) string {
	h := sha256.New()
	for _, rel := range slices.Sorted(maps.Keys(tree)) {
		h.Write([]byte(rel))
		h.Write([]byte{0})
		h.Write(tree[rel])
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Batches that touch no more folders than the open-file bound are written
// as they always were: these digests were taken before the bound existed.
func TestFewFoldersUnchanged(t *testing.T) {
	recs := genRecords(30000)
	for _, tc := range []struct {
		name string
		l    Layout
		want string
	}{
		{"country", Layout{Format: "parquet", Compression: "zstd", Columns: formattest.Columns(true), PartitionBy: []string{"country"}, RowGroupRecords: 3000}, "a1e7d556d46ede011fc9e13f628c2f3e"},
		{"bucket40-budget", Layout{Format: "parquet", Columns: formattest.Columns(true), PartitionBy: []string{"bucket(40, customer_id)"}, budget: 1 << 20}, "ef2de6a16c489c992ed03cf970fc0266"},
		{"jsonl-bucket60-rolling", Layout{Format: "jsonl", Columns: formattest.Columns(true), PartitionBy: []string{"bucket(60, customer_id)"}, MaxFileRecords: 100}, "859dc752dde9538318215753a9021751"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			modes(t, func(t *testing.T, seq bool) {
				l := tc.l
				l.Sequential = seq
				out, _ := run(t, l, []int{0}, recs)
				if got := treeHash(out.tree(t, 0)); got != tc.want {
					t.Errorf("tree digest %s, pinned %s", got, tc.want)
				}
			})
		})
	}
}

// BenchmarkManyFolders is the batch of issue 20: 400,000 records into 10,000
// partition folders (bucket(1250, customer_id) × 8 countries), Parquet ZSTD.
// It reports the process's peak RSS; run it alone (-benchtime 1x).
func BenchmarkManyFolders(b *testing.B) {
	benchBatchMemory(b, Layout{Format: "parquet", Compression: "zstd", Columns: formattest.Columns(true), PartitionBy: []string{"bucket(1250, customer_id)", "country"}}, 400_000)
}

// trackOutput counts the files open at once (created, not yet finished or
// aborted).
type trackOutput struct {
	Output
	open, peak atomic.Int64
}

func (o *trackOutput) Create(dests []int, rel string) (File, error) {
	f, err := o.Output.Create(dests, rel)
	if err != nil {
		return nil, err
	}
	n := o.open.Add(1)
	for p := o.peak.Load(); n > p && !o.peak.CompareAndSwap(p, n); p = o.peak.Load() {
	}
	return &trackFile{File: f, o: o}, nil
}

type trackFile struct {
	File
	o *trackOutput
}

func (f *trackFile) Finish(records int64) error { f.o.open.Add(-1); return f.File.Finish(records) }
func (f *trackFile) Abort()                     { f.o.open.Add(-1); f.File.Abort() }

// runTracked is run with a trackOutput; it returns the peak of open files.
func runTracked(t *testing.T, l Layout, recs []*providers.Record) (*memOutput, Stats, int64) {
	t.Helper()
	mem := newMemOutput()
	out := &trackOutput{Output: mem}
	w, err := New(l, 7, []int{0}, out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	st, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return mem, st, out.peak.Load()
}

// The most files a batch has open: the bound, or while sorted targets are
// written, one being written, one rolled and those being finished.
const openBound = maxOpenFiles + finishConcurrency + 2

// manyFolders are the 10,000 folders.
var manyFolders = []string{"bucket(1250, customer_id)", "country"}

// A batch over 10,000 folders keeps a bounded number of files open, and its
// Parquet files hold every record once, in its folder, in record order: the
// same rows, per file, as writing every folder at once gives.
func TestManyFolders(t *testing.T) {
	recs := genRecords(80000)
	// The reference: JSONL with every folder open (cheap in JSONL), each
	// folder's ids in record order.
	ref, _, _ := runTracked(t, Layout{Format: "jsonl", Columns: formattest.Columns(true), PartitionBy: manyFolders, maxOpen: 1 << 30}, recs)
	want := map[string][]int64{}
	for rel, f := range ref.files[0] {
		sc := bufio.NewScanner(bytes.NewReader(f.buf.Bytes()))
		for sc.Scan() {
			var m struct{ ID int64 }
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatal(err)
			}
			want[strings.TrimSuffix(rel, ".jsonl")] = append(want[strings.TrimSuffix(rel, ".jsonl")], m.ID)
		}
	}
	if len(want) < 9800 {
		t.Fatalf("%d folders, want about 10,000", len(want))
	}
	var trees []map[string][]byte
	for _, tc := range []struct {
		name     string
		seq      bool
		runBytes int
	}{{"sequential", true, 0}, {"pipelined", false, 0}, {"runs-on-disk", false, 512 << 10}} {
		t.Run(tc.name, func(t *testing.T) {
			l := Layout{Format: "parquet", Compression: "zstd", Columns: formattest.Columns(true), PartitionBy: manyFolders, Sequential: tc.seq, runBytes: tc.runBytes}
			out, st, peak := runTracked(t, l, recs)
			if peak > openBound {
				t.Errorf("%d files open at once, want at most %d", peak, openBound)
			}
			tree := out.tree(t, 0)
			if len(tree) != len(want) || st.Files != int64(len(want)) {
				t.Fatalf("%d files (stats %d), want one per folder: %d", len(tree), st.Files, len(want))
			}
			for rel, data := range tree {
				var ids []int64
				for _, r := range readParquet(t, data) {
					ids = append(ids, r["id"].(int64))
				}
				if !slices.Equal(ids, want[strings.TrimSuffix(rel, ".parquet")]) {
					t.Fatalf("%s holds ids %v, want %v", rel, ids, want[strings.TrimSuffix(rel, ".parquet")])
				}
				if out.files[0][rel].records != int64(len(ids)) {
					t.Fatalf("%s: Finish said %d records, file has %d", rel, out.files[0][rel].records, len(ids))
				}
			}
			trees = append(trees, tree)
		})
	}
	for i := 1; i < len(trees); i++ {
		if !maps.EqualFunc(trees[0], trees[i], bytes.Equal) {
			t.Fatalf("run %d differs from run 0", i)
		}
	}
}

// Text files have no row groups: sorted targets give the very bytes that
// writing every folder at once gives, rolled files and rejects included.
func TestSortedTargetsAsFanout(t *testing.T) {
	recs := genRecords(20000)
	for i := 0; i < len(recs); i += 97 {
		recs[i] = &providers.Record{Partition: recs[i].Partition, Offset: recs[i].Offset, Value: []byte(`{"id":"not a number"}`)}
	}
	for _, f := range []string{"jsonl", "csv"} {
		t.Run(f, func(t *testing.T) {
			l := Layout{Format: f, Columns: formattest.Columns(true), PartitionBy: []string{"bucket(300, customer_id)"}, MaxFileRecords: 20, OnInvalid: "reject"}
			l.maxOpen = 1 << 30
			fan, fst, _ := runTracked(t, l, recs)
			for _, runBytes := range []int{0, 4 << 10} {
				l.maxOpen, l.runBytes = 8, runBytes
				out, st, peak := runTracked(t, l, recs)
				if peak > 8+finishConcurrency+2 {
					t.Errorf("%d files open at once", peak)
				}
				if !maps.EqualFunc(fan.tree(t, 0), out.tree(t, 0), bytes.Equal) {
					t.Fatalf("runBytes %d: the sorted files differ from the fanout ones", runBytes)
				}
				if len(fan.creates) != len(out.creates) {
					t.Fatalf("%d files created, want %d", len(out.creates), len(fan.creates))
				}
				if st.Files != fst.Files || st.Rejected != fst.Rejected || st.Rejected == 0 {
					t.Fatalf("stats %+v, fanout %+v", st, fst)
				}
			}
		})
	}
}

// heapOutput keeps nothing of its files; every gcEvery-th finished file
// it measures the live heap.
type heapOutput struct {
	finished atomic.Int64
	mu       sync.Mutex
	heap     []uint64 // live heap after the gcEvery-th, 2×gcEvery-th… file
}

const gcEvery = 1000

func (o *heapOutput) Create([]int, string) (File, error) { return heapFile{o}, nil }

type heapFile struct{ o *heapOutput }

func (heapFile) Write(p []byte) (int, error) { return len(p), nil }
func (heapFile) Abort()                      {}
func (f heapFile) Finish(int64) error {
	if f.o.finished.Add(1)%gcEvery == 0 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		f.o.mu.Lock()
		f.o.heap = append(f.o.heap, ms.HeapAlloc)
		f.o.mu.Unlock()
	}
	return nil
}

// A batch over 10,000 folders lets go of each file's encoder once the file
// is written: what it keeps per folder is the folder's name and its count,
// not the file's Parquet metadata, which the encoder holds until the end.
func TestManyFoldersKeepLittlePerFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: measures the heap over 10,000 folders")
	}
	recs := genRecords(80000)
	out := &heapOutput{}
	w, err := New(Layout{Format: "parquet", Compression: "zstd", Columns: formattest.Columns(true), PartitionBy: manyFolders, Sequential: true}, 7, []int{0}, out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	h := out.heap
	if len(h) < 8 {
		t.Fatalf("%d measures, want one per %d of about 10,000 files", len(h), gcEvery)
	}
	// From the second thousand files to the last (the first measure still
	// holds the sorted runs being merged): the growth is what the batch
	// keeps per folder.
	perFolder := (int64(h[len(h)-1]) - int64(h[1])) / int64((len(h)-2)*gcEvery)
	t.Logf("live heap %d MB after %d files, %d MB after %d: %d bytes per folder", h[1]>>20, 2*gcEvery, h[len(h)-1]>>20, len(h)*gcEvery, perFolder)
	if perFolder > 1000 {
		t.Errorf("the batch keeps %d bytes per folder written, want at most 1,000", perFolder)
	}
}
