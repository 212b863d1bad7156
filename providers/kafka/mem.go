package kafka

import (
	"bytes"
	"math/bits"
	"slices"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/twmb/franz-go/pkg/kgo"
)

// kgo decodes a record batch into a slab of Records and, when the batch is
// compressed, a decompression buffer that the records' keys and values point
// into; both come from the pool passed to it. Its way of giving them back is
// Record.Recycle, record by record (a context lookup, a 160-byte clear and
// an atomic add each, on the delivering goroutine). Instead, a reader's
// decoder remembers what it handed out for a piece, and the reader puts the
// lot back once the piece is delivered. kgo sets every field of a record it
// decodes, so slabs are reused uncleared.

// mem is a Source's memory for decoding, shared by its Reads.
type mem struct {
	slabs classPool[kgo.Record]
	bufs  classPool[byte]

	mu       sync.Mutex
	decoders []*decoder // idle
}

// decoder is what one Read decodes with: kgo's decompressor, whose zstd and
// lz4 readers are worth keeping across Reads, and the pool it and
// ProcessFetchPartition take memory from.
type decoder struct {
	m      *mem
	decomp kgo.Decompressor
	held   held // handed out since the last take
}

// held is what the records of one piece live in.
type held struct {
	slabs [][]kgo.Record
	bufs  [][]byte
}

func (s *Source) decoder() *decoder {
	m := &s.mem
	m.mu.Lock()
	defer m.mu.Unlock()
	if n := len(m.decoders); n > 0 {
		d := m.decoders[n-1]
		m.decoders = m.decoders[:n-1]
		return d
	}
	d := &decoder{m: m}
	d.decomp = kgo.DefaultDecompressor(d)
	return d
}

func (s *Source) putDecoder(d *decoder) {
	s.mem.mu.Lock()
	defer s.mem.mu.Unlock()
	s.mem.decoders = append(s.mem.decoders, d)
}

// release puts h back: nothing references it any more.
func (s *Source) release(h held) {
	for _, rs := range h.slabs {
		s.mem.slabs.put(rs)
	}
	for _, b := range h.bufs {
		s.mem.bufs.put(b)
	}
}

// take returns what d handed out since the last take.
func (d *decoder) take() held {
	h := d.held
	d.held = held{}
	return h
}

func (d *decoder) GetRecords(n int) []kgo.Record {
	rs := d.m.slabs.get(n)[:n]
	d.held.slabs = append(d.held.slabs, rs)
	return rs
}

// PutRecords takes back the slab of a batch that kept no record. It ignores
// slabs it did not hand out.
func (d *decoder) PutRecords(rs []kgo.Record) {
	if i := slices.IndexFunc(d.held.slabs, func(h []kgo.Record) bool { return sameArray(h, rs) }); i >= 0 {
		d.held.slabs = slices.Delete(d.held.slabs, i, i+1)
		d.m.slabs.put(rs)
	}
}

func (d *decoder) GetDecompressBytes(compressed []byte, codec kgo.CompressionCodecType) []byte {
	b := d.m.bufs.get(decodedSize(compressed, codec))
	d.held.bufs = append(d.held.bufs, b)
	return b
}

// PutDecompressBytes takes back the buffer of a batch that failed to
// decompress or kept no record. kgo also passes the bytes of uncompressed
// batches, which are the fetch response's: it ignores those.
func (d *decoder) PutDecompressBytes(b []byte) {
	if i := slices.IndexFunc(d.held.bufs, func(h []byte) bool { return sameArray(h, b) }); i >= 0 {
		d.held.bufs = slices.Delete(d.held.bufs, i, i+1)
		d.m.bufs.put(b)
	}
}

func sameArray[T any](a, b []T) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:1][0] == &b[:1][0]
}

// decodedSize is the room a compressed batch's records need: exact when the
// snappy or zstd header says (a batch some 4.4 times its compressed size,
// as small JSON records are, no longer decodes into a fresh buffer), else
// four times the compressed size. A header claiming more than 64 times is
// not believed before kgo checks it against its limit.
func decodedSize(src []byte, codec kgo.CompressionCodecType) int {
	limit := 64 * len(src)
	switch codec {
	case kgo.CodecSnappy:
		// Java's producer frames snappy in xerial blocks, without a
		// length up front.
		if !bytes.HasPrefix(src, xerialMagic) {
			if n, err := s2.DecodedLen(src); err == nil && n <= limit {
				return n
			}
		}
	case kgo.CodecZstd:
		var h zstd.Header
		if h.Decode(src) == nil && h.HasFCS && h.FrameContentSize <= uint64(limit) {
			return int(h.FrameContentSize)
		}
	}
	return 4 * len(src)
}

var xerialMagic = []byte("\x82SNAPPY\x00")

// classPool keeps slices by capacity, in powers of two from 1<<min, so that
// a batch of any size finds room in a slice another batch left. Unlike a
// sync.Pool it survives collections (which come every batch or two), and it
// keeps at most classKeep slices of a capacity: a Read holds a few pieces'
// worth at a time.
type classPool[T any] struct {
	min  int
	mu   sync.Mutex
	free [31][][]T // by log2 of the capacity
}

const classKeep = 16

// get returns an empty slice of capacity n or more.
func (p *classPool[T]) get(n int) []T {
	c := max(p.min, bits.Len(uint(max(n, 1)-1)))
	if c >= len(p.free) {
		return make([]T, 0, n)
	}
	p.mu.Lock()
	if k := len(p.free[c]); k > 0 {
		s := p.free[c][k-1]
		p.free[c] = p.free[c][:k-1]
		p.mu.Unlock()
		return s
	}
	p.mu.Unlock()
	return make([]T, 0, 1<<c)
}

func (p *classPool[T]) put(s []T) {
	c := bits.Len(uint(cap(s))) - 1
	if c < p.min || c >= len(p.free) {
		return
	}
	p.mu.Lock()
	if len(p.free[c]) < classKeep {
		p.free[c] = append(p.free[c], s[:0])
	}
	p.mu.Unlock()
}
