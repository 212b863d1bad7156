package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/providers"
)

// Manifest indexes keep a destination's control folder small however many
// batches ran, as Spark compacts _spark_metadata. Once every batch of a block
// of IndexInterval batches is committed, the block's manifests are gathered
// into one index, "_streamctl/<sink>/index-<first>.json", written create-only;
// only then are the gathered manifests deleted. A crash between the two leaves
// both: readers take the union, and a batch found in both must be the same
// batch. A manifest written into a block after its index (a repair) stays a
// single file beside it.

// IndexVersion is the format version of manifest indexes.
const IndexVersion = 1

// DefaultIndexInterval is how many batches one index covers.
const DefaultIndexInterval = 1000

// IndexInterval is the block size of manifest indexes. Test builds may shrink
// it so that tests reach compaction in a few batches.
var IndexInterval = fault.Tunable("MANIFEST_INDEX_INTERVAL", DefaultIndexInterval)

// ManifestIndex holds the manifests of one destination for the batches
// FirstBatch..LastBatch that were committed when it was written.
type ManifestIndex struct {
	FormatVersion int    `json:"format_version"`
	Sink          string `json:"sink"`
	Destination   string `json:"destination"`
	// FirstBatch and LastBatch bound the block; N in the file name is FirstBatch.
	FirstBatch int64 `json:"first_batch"`
	LastBatch  int64 `json:"last_batch"`
	// Manifests are the block's manifests, in batch order. A batch of the
	// block that the destination did not hold when the index was written (not
	// routed there, or missing) is absent.
	Manifests []*Manifest `json:"manifests"`
}

// IndexKey is where the index of the block starting at first lands.
func IndexKey(sink string, first int64) string {
	return path.Join(MetadataDir, sink, "index-"+strconv.FormatInt(first, 10)+".json")
}

// catalog is one listing of a destination's control folder for a sink.
type catalog struct {
	manifests []int64         // batches with a manifest of their own, ascending
	sizes     map[int64]int64 // their sizes in bytes
	indexes   []int64         // first batch of each index, ascending
}

// maxIndexBytes bounds an index: a block whose manifests add up to more
// (batches of hundreds of files each) keeps its single manifests, so that no
// reader ever has to read a larger document to find one batch.
var maxIndexBytes int64 = 32 << 20

// compactionConcurrency bounds the manifest reads and deletes of a compaction
// in flight: on an object store each is a round trip.
const compactionConcurrency = 8

func listCatalog(ctx context.Context, s providers.Storage, sink string) (catalog, error) {
	prefix := MetadataDir + "/" + sink + "/"
	c := catalog{sizes: map[int64]int64{}}
	err := s.List(ctx, prefix, func(info providers.ObjectInfo) error {
		rest := info.Key[len(prefix):]
		if n, ok := parseBatchKey(rest, true); ok {
			c.manifests = append(c.manifests, n)
			c.sizes[n] = info.Size
		} else if after, found := strings.CutPrefix(rest, "index-"); found {
			if n, ok := parseBatchKey(after, true); ok {
				c.indexes = append(c.indexes, n)
			}
		}
		return nil
	})
	slices.Sort(c.manifests)
	slices.Sort(c.indexes)
	return c, err
}

// indexesFrom returns the indexes that may hold batches at or after from:
// blocks do not overlap, so an index is skipped when a later one starts at or
// before from.
func (c catalog) indexesFrom(from int64) []int64 {
	// The last index starting at or before from is the first one needed.
	i, found := slices.BinarySearch(c.indexes, from)
	if !found && i > 0 {
		i--
	}
	return c.indexes[i:]
}

func readIndex(ctx context.Context, s providers.Storage, sink string, first int64) (*ManifestIndex, error) {
	key := IndexKey(sink, first)
	data, _, err := providers.ReadAll(ctx, s, key)
	if err != nil {
		return nil, err
	}
	var ix ManifestIndex
	if err := json.Unmarshal(data, &ix); err != nil {
		return nil, fmt.Errorf("read manifest index %s: %w", key, err)
	}
	if ix.FormatVersion < 1 || ix.FormatVersion > IndexVersion {
		return nil, fmt.Errorf("read manifest index %s: unsupported format version %d", key, ix.FormatVersion)
	}
	if ix.FirstBatch != first || ix.Sink != sink {
		return nil, fmt.Errorf("read manifest index %s: it says it holds batches of sink %q from %d", key, ix.Sink, ix.FirstBatch)
	}
	for _, m := range ix.Manifests {
		if m == nil || m.Batch < ix.FirstBatch || m.Batch > ix.LastBatch || m.Sink != sink {
			return nil, fmt.Errorf("read manifest index %s: it holds a manifest outside batches %d–%d of sink %q", key, ix.FirstBatch, ix.LastBatch, sink)
		}
		if m.FormatVersion < 1 || m.FormatVersion > ManifestVersion {
			return nil, fmt.Errorf("read manifest index %s: batch %d: unsupported manifest format version %d", key, m.Batch, m.FormatVersion)
		}
		if err := validateManifest(m); err != nil {
			return nil, fmt.Errorf("read manifest index %s: batch %d: %w", key, m.Batch, err)
		}
	}
	return &ix, nil
}

func encodeIndex(ix *ManifestIndex) []byte {
	data, err := json.Marshal(ix)
	if err != nil {
		panic(fmt.Sprintf("encode manifest index: %v", err))
	}
	return append(data, '\n')
}

// lookupManifest reads batch's manifest, from its own file or, with indexed,
// from the index of its block. It returns providers.ErrNotExist when the
// destination has neither.
func lookupManifest(ctx context.Context, s providers.Storage, sink string, batch int64, indexed bool) (*Manifest, error) {
	m, err := readManifest(ctx, s, sink, batch)
	if !indexed || !errors.Is(err, providers.ErrNotExist) {
		return m, err
	}
	ix, err := readIndex(ctx, s, sink, batch/IndexInterval*IndexInterval)
	if err != nil {
		return nil, err
	}
	for _, m := range ix.Manifests {
		if m.Batch == batch {
			return m, nil
		}
	}
	return nil, fmt.Errorf("batch %d: %w", batch, providers.ErrNotExist)
}

// ReadManifests returns a destination's manifests of the sink's batches at or
// after from, from indexes and single manifests alike, in batch order.
func ReadManifests(ctx context.Context, s providers.Storage, sink string, from int64) ([]*Manifest, error) {
	for attempt := 1; ; attempt++ {
		ms, err := readManifestsOnce(ctx, s, sink, from)
		// A manifest listed and then gone was compacted meanwhile (readers do
		// not take the lock): its index is there now.
		if errors.Is(err, providers.ErrNotExist) && attempt < 3 {
			continue
		}
		return ms, err
	}
}

func readManifestsOnce(ctx context.Context, s providers.Storage, sink string, from int64) ([]*Manifest, error) {
	c, err := listCatalog(ctx, s, sink)
	if err != nil {
		return nil, err
	}
	byBatch := map[int64]*Manifest{}
	add := func(m *Manifest, where string) error {
		if m.Batch < from {
			return nil
		}
		if prev := byBatch[m.Batch]; prev != nil && !sameBatch(prev, m) {
			return fmt.Errorf("batch %d has two different manifests (%s and another): the destination was tampered with", m.Batch, where)
		}
		byBatch[m.Batch] = m
		return nil
	}
	for _, first := range c.indexesFrom(from) {
		ix, err := readIndex(ctx, s, sink, first)
		if err != nil {
			return nil, err
		}
		for _, m := range ix.Manifests {
			if err := add(m, IndexKey(sink, first)); err != nil {
				return nil, err
			}
		}
	}
	for _, id := range c.manifests {
		if id < from {
			continue
		}
		m, err := readManifest(ctx, s, sink, id)
		if err != nil {
			return nil, err
		}
		if err := add(m, ManifestKey(sink, id)); err != nil {
			return nil, err
		}
	}
	out := make([]*Manifest, 0, len(byBatch))
	for _, m := range byBatch {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Batch < out[j].Batch })
	return out, nil
}

// compactManifests gathers the single manifests of every block wholly below
// committed (a batch number below which the state has committed every batch)
// into the block's index, then deletes them.
func compactManifests(ctx context.Context, s providers.Storage, sink, destination string, committed int64) error {
	c, err := listCatalog(ctx, s, sink)
	if err != nil {
		return err
	}
	blocks := map[int64][]int64{}
	var firsts []int64
	for _, id := range c.manifests {
		first := id / IndexInterval * IndexInterval
		if first+IndexInterval > committed {
			continue
		}
		if blocks[first] == nil {
			firsts = append(firsts, first)
		}
		blocks[first] = append(blocks[first], id)
	}
	for _, first := range firsts {
		_, indexed := slices.BinarySearch(c.indexes, first)
		var size int64
		for _, id := range blocks[first] {
			size += c.sizes[id]
		}
		if !indexed && size > maxIndexBytes {
			continue
		}
		if err := compactBlock(ctx, s, sink, destination, first, blocks[first], indexed); err != nil {
			return fmt.Errorf("compact the manifests of batches %d–%d: %w", first, first+IndexInterval-1, err)
		}
	}
	return nil
}

func compactBlock(ctx context.Context, s providers.Storage, sink, destination string, first int64, ids []int64, indexed bool) error {
	single := map[int64]*Manifest{}
	var ix *ManifestIndex
	if !indexed {
		ix = &ManifestIndex{FormatVersion: IndexVersion, Sink: sink, Destination: destination, FirstBatch: first, LastBatch: first + IndexInterval - 1}
		ix.Manifests = make([]*Manifest, len(ids))
		err := forEach(len(ids), func(i int) error {
			m, err := readManifest(ctx, s, sink, ids[i])
			ix.Manifests[i] = m
			return err
		})
		if err != nil {
			return err
		}
		for _, m := range ix.Manifests {
			single[m.Batch] = m
		}
		if _, err := s.PutIfAbsent(ctx, IndexKey(sink, first), encodeIndex(ix)); err != nil {
			if !errors.Is(err, providers.ErrExist) {
				return fmt.Errorf("write %s: %w", IndexKey(sink, first), err)
			}
			indexed = true // written meanwhile: compare with what it holds
		}
		fault.Point("after-index")
	}
	if indexed {
		var err error
		if ix, err = readIndex(ctx, s, sink, first); err != nil {
			return err
		}
	}
	inIndex := map[int64]*Manifest{}
	for _, m := range ix.Manifests {
		inIndex[m.Batch] = m
	}
	var held []int64 // written after the index (a repair) otherwise: read beside it
	for _, id := range ids {
		if inIndex[id] != nil {
			held = append(held, id)
		}
	}
	return forEach(len(held), func(i int) error {
		id := held[i]
		m := single[id]
		if m == nil {
			var err error
			if m, err = readManifest(ctx, s, sink, id); err != nil {
				return err
			}
		}
		if !sameBatch(m, inIndex[id]) {
			return fmt.Errorf("%s differs from batch %d in %s; left both for inspection", ManifestKey(sink, id), id, IndexKey(sink, first))
		}
		if err := s.Delete(ctx, ManifestKey(sink, id)); err != nil {
			return fmt.Errorf("delete %s: %w", ManifestKey(sink, id), err)
		}
		return nil
	})
}

// forEach runs fn(0..n-1), compactionConcurrency at a time, and returns the
// first error; after one, the calls not started are skipped.
func forEach(n int, fn func(i int) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	sem := make(chan struct{}, compactionConcurrency)
	for i := range n {
		sem <- struct{}{}
		mu.Lock()
		stop := first != nil
		mu.Unlock()
		if stop {
			<-sem
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			defer crash.Report()
			if err := fn(i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}
