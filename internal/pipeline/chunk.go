package pipeline

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/jsonstr"
	"github.com/streamctl/streamctl/providers"
)

// chunk is the hand-off between decoding and encoding: rows copied out of
// their records (which sources reuse) into memory the chunk owns. Its
// buffers are reused, so a steady stream of records allocates nothing.
type chunk struct {
	rows    []row
	vals    []format.Value // the rows' values, stride values per row
	arena   []byte         // the bytes of vals and raws
	targets []*target      // the Writer's targets when it was dispatched
}

type row struct {
	target int32
	vals   int32  // index of the row's first value in vals; -1 for none
	raw    []byte // the record (pass-through) or rejected line; in arena
}

// Chunks are cut by rows, or earlier by bytes for large records, to bound
// their memory.
const (
	chunkRows  = 4096
	chunkBytes = 4 << 20
)

// chunkPool keeps chunks between batches: a Writer lives for one batch, and
// its chunks' grown buffers would otherwise be garbage for the collector.
var chunkPool = sync.Pool{New: func() any {
	return &chunk{rows: make([]row, 0, chunkRows), arena: make([]byte, 0, 1<<20)}
}}

func newChunk() *chunk { return chunkPool.Get().(*chunk) }

// release returns c to the pool; nothing may reference its memory any more.
func (c *chunk) release() {
	c.reset()
	chunkPool.Put(c)
}

func (c *chunk) full() bool { return len(c.rows) >= chunkRows || len(c.arena) >= chunkBytes }

// reset empties c. Its values are not cleared: Extract sets every value of
// a slot, and clearing 1.5 MB per chunk costs more than the old arenas the
// stale values keep alive until they are overwritten (at most chunkBytes).
func (c *chunk) reset() {
	c.rows = c.rows[:0]
	c.vals = c.vals[:0]
	c.targets = nil
	c.arena = c.arena[:0]
}

// copyBytes copies b into the arena. When the arena grows, earlier slices
// keep pointing at the previous array, which nothing writes again.
func (c *chunk) copyBytes(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	start := len(c.arena)
	c.arena = append(c.arena, b...)
	return c.arena[start:len(c.arena):len(c.arena)]
}

// slot returns room for the next row's n values, so that the extractor
// fills them in place; addSlot commits them.
func (c *chunk) slot(n int) []format.Value {
	c.vals = slices.Grow(c.vals, n)
	return c.vals[len(c.vals) : len(c.vals)+n]
}

// addSlot appends a row whose n values are in the slot. The bytes of the
// values at copyAt (the encoded ones that can hold bytes) are copied into
// the arena; those at clearAt (the others that can) are dropped, as they may
// point into the source's buffer. The other values hold no bytes.
func (c *chunk) addSlot(target int32, n int, copyAt, clearAt []int) {
	start := len(c.vals)
	c.vals = c.vals[:start+n]
	vals := c.vals[start:]
	for _, i := range copyAt {
		vals[i].Bytes = c.copyBytes(vals[i].Bytes)
	}
	for _, i := range clearAt {
		vals[i].Bytes = nil
	}
	c.rows = append(c.rows, row{target: target, vals: int32(start)})
}

// addRaw appends a row of raw bytes only.
func (c *chunk) addRaw(target int32, raw []byte) {
	c.rows = append(c.rows, row{target: target, vals: -1, raw: c.copyBytes(raw)})
}

// Route returns the destination (an index into destinations, which are in
// config order) that a record whose route_by value has the canonical text
// key goes to: FNV-1a 64 of key, modulo the number of destinations, counted
// over the destinations sorted by name, so that the order of the
// destination blocks does not matter. The canonical text is
// format.AppendText's: "42" for the int 42 and for the string "42" alike. A
// record whose value is null or missing is not routed: it is invalid.
func Route(key []byte, destinations []string) int {
	return sortedOrder(destinations)[routeIndex(key, len(destinations))]
}

func routeIndex(key []byte, n int) int {
	return int(fnv1a64(key) % uint64(n))
}

// fnv1a64 is FNV-1a, 64 bits (hash/fnv's New64a, without its allocation).
func fnv1a64(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// sortedOrder returns the destination indices sorted by name.
func sortedOrder(names []string) []int {
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(names[a], names[b]) })
	return order
}

// appendRejectLine writes a rejected record as one JSON line that every
// reader takes (see RejectedDir). Rejects are rare, so this path favours
// simplicity over speed.
func appendRejectLine(dst []byte, rec *providers.Record, reason string) []byte {
	dst = append(dst, `{"partition":`...)
	dst = jsonstr.Append(dst, rec.Partition)
	dst = append(dst, `,"offset":`...)
	dst = strconv.AppendInt(dst, rec.Offset, 10)
	dst = append(dst, `,"reason":`...)
	dst = jsonstr.Append(dst, reason)
	dst = append(dst, `,"record":`...)
	var compact bytes.Buffer
	if format.CheckText(rec.Value) == nil && json.Compact(&compact, rec.Value) == nil {
		dst = append(dst, compact.Bytes()...)
	} else {
		// A JSON string: lone surrogate escapes are kept as text, bytes
		// that are not UTF-8 become U+FFFD, and then are kept in base64.
		dst = jsonstr.Append(dst, rec.Value)
		if !utf8.Valid(rec.Value) {
			dst = append(dst, `,"record_base64":"`...)
			dst = base64.StdEncoding.AppendEncode(dst, rec.Value)
			dst = append(dst, '"')
		}
	}
	return append(dst, '}')
}
