package parquet

import (
	"bytes"
	"encoding/binary"
	"math"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	pq "github.com/parquet-go/parquet-go/format"

	"github.com/streamctl/streamctl/internal/format/row"
)

// columnChunk is one column of the current row group.
type columnChunk struct {
	column // a copy: the hot path reads it for every value
	// The current page.
	block     []byte // the block values are in, from levelRoom on
	values    []byte // PLAIN-encoded values, in block
	room      int    // the most bytes of values and defs the page may hold
	defs      []byte // nullable columns: definition levels, a bit per row; nested leaves: a byte per entry
	reps      []byte // nested leaves: repetition levels, a byte per entry
	bools     int    // booleans: values packed into values' bits
	pageRows  int
	pageNulls int
	// The row group's pages so far, with their headers, compressed.
	pages        spool
	cut          int64 // bytes of the pages cut into pages, before compression
	rows, nulls  int64
	uncompressed int64 // headers and pages before compression
	stats        columnStats
}

// spool is a column chunk's compressed pages, in blocks.
type spool struct {
	blocks [][]byte
}

func (s *spool) write(p []byte) {
	for len(p) > 0 {
		if n := len(s.blocks); n == 0 || len(s.blocks[n-1]) == blockSize {
			s.blocks = append(s.blocks, getBlock())
		}
		b := &s.blocks[len(s.blocks)-1]
		k := min(len(p), blockSize-len(*b))
		*b = append(*b, p[:k]...)
		p = p[k:]
	}
}

func (s *spool) size() int64 {
	n := len(s.blocks)
	if n == 0 {
		return 0
	}
	return int64(n-1)*blockSize + int64(len(s.blocks[n-1]))
}

// writeTo writes the spool to e's output and returns its blocks to the pool.
func (s *spool) writeTo(e *Encoder) error {
	for i, b := range s.blocks {
		if err := e.write(b); err != nil {
			return err
		}
		putBlock(b)
		s.blocks[i] = nil
	}
	s.blocks = s.blocks[:0]
	return nil
}

func (s *spool) release() {
	for i, b := range s.blocks {
		putBlock(b)
		s.blocks[i] = nil
	}
	s.blocks = s.blocks[:0]
}

type columnChunkMeta struct {
	FileOffset int64          `thrift:"2,required"`
	MetaData   columnMetaData `thrift:"3,optional"`
}

type columnMetaData struct {
	Type                  pq.Type             `thrift:"1,required"`
	Encoding              []pq.Encoding       `thrift:"2,required"`
	PathInSchema          []string            `thrift:"3,required"`
	Codec                 pq.CompressionCodec `thrift:"4,required"`
	NumValues             int64               `thrift:"5,required"`
	TotalUncompressedSize int64               `thrift:"6,required"`
	TotalCompressedSize   int64               `thrift:"7,required"`
	DataPageOffset        int64               `thrift:"9,required"`
	Statistics            statistics          `thrift:"12,optional,writezero"`
}

type statistics struct {
	NullCount       int64             `thrift:"3,writezero"`
	MaxValue        []byte            `thrift:"5"`
	MinValue        []byte            `thrift:"6"`
	IsMaxValueExact thrift.Null[bool] `thrift:"7"`
	IsMinValueExact thrift.Null[bool] `thrift:"8"`
}

// plainWidth is the most bytes appendValue adds for a value of type t, 0
// for byte arrays, whose values vary.
func plainWidth(t pq.Type) int {
	switch t {
	case pq.ByteArray:
		return 0
	case pq.Int64, pq.Double:
		return 8
	case pq.Int32, pq.Float:
		return 4
	}
	return 1
}

// valueSize is the most bytes appendValue adds for v.
func (c *columnChunk) valueSize(v *row.Value) int {
	if c.width == 0 {
		return 4 + len(v.Bytes)
	}
	return c.width
}

// appendValue PLAIN-encodes v and updates the statistics.
func (c *columnChunk) appendValue(v *row.Value) {
	s := &c.stats
	switch c.physical {
	case pq.ByteArray:
		c.values = binary.LittleEndian.AppendUint32(c.values, uint32(len(v.Bytes)))
		c.values = append(c.values, v.Bytes...)
		s.observeBytes(v.Bytes)
	case pq.Int64:
		c.values = binary.LittleEndian.AppendUint64(c.values, uint64(v.Int))
		s.observeInt(v.Int)
	case pq.Int32:
		c.values = binary.LittleEndian.AppendUint32(c.values, uint32(v.Int))
		s.observeInt(v.Int)
	case pq.Double:
		c.values = binary.LittleEndian.AppendUint64(c.values, math.Float64bits(v.Float))
		s.observeFloat(v.Float)
	case pq.Float:
		c.values = binary.LittleEndian.AppendUint32(c.values, math.Float32bits(float32(v.Float)))
		s.observeFloat(float64(float32(v.Float)))
	case pq.FixedLenByteArray: // a wide decimal: 16 bytes, of which the low width count
		b := v.Bytes[len(v.Bytes)-c.width:]
		c.values = append(c.values, b...)
		s.observeInt128(int64(binary.BigEndian.Uint64(v.Bytes)), binary.BigEndian.Uint64(v.Bytes[8:]))
	case pq.Boolean:
		if c.bools&7 == 0 {
			c.values = append(c.values, 0)
		}
		if v.Int != 0 {
			c.values[len(c.values)-1] |= 1 << (c.bools & 7)
		}
		c.bools++
		s.observeInt(v.Int)
	}
}

// valuesHeld is the memory held for the current page's values: a block, or
// a large value's own buffer without its level room. Counting the level room
// there would end row groups (and so files) elsewhere than earlier versions
// did for the same records.
func (c *columnChunk) valuesHeld() int {
	if cap(c.block) == blockSize || cap(c.block) == 0 {
		return cap(c.block)
	}
	return cap(c.block) - levelRoom
}

// maxStatBytes bounds the byte-array min and max of a column chunk's
// statistics: a longer min is cut to a prefix, a longer max to a prefix
// rounded up, and both are then marked inexact.
const maxStatBytes = 256

// columnStats are the min and max of a column chunk's values, compared as
// Parquet's type-defined order says: signed for integers, numerically for
// floating point (NaN left out), unsigned bytewise for byte arrays.
type columnStats struct {
	has                bool
	minInt, maxInt     int64
	minFloat, maxFloat float64
	// Byte arrays: copies of the min and max cut to maxStatBytes+1 bytes,
	// which is all their bounds are made of (values that share that much
	// have the same bounds), and their first 8 bytes, big-endian,
	// zero-padded.
	minBytes, maxBytes []byte
	minKey, maxKey     uint64
	// Wide decimals: 128-bit two's complement, high words signed.
	minHi, maxHi int64
	minLo, maxLo uint64
}

func (s *columnStats) observeInt128(hi int64, lo uint64) {
	switch {
	case !s.has:
		s.has, s.minHi, s.minLo, s.maxHi, s.maxLo = true, hi, lo, hi, lo
	case hi < s.minHi || hi == s.minHi && lo < s.minLo:
		s.minHi, s.minLo = hi, lo
	case hi > s.maxHi || hi == s.maxHi && lo > s.maxLo:
		s.maxHi, s.maxLo = hi, lo
	}
}

// int128Bytes is the low n bytes, big-endian, of a 128-bit two's
// complement integer: a wide decimal as FIXED_LEN_BYTE_ARRAY holds it.
func int128Bytes(hi int64, lo uint64, n int) []byte {
	b := binary.BigEndian.AppendUint64(nil, uint64(hi))
	b = binary.BigEndian.AppendUint64(b, lo)
	return b[16-n:]
}

// bytesKey is the first 8 bytes of v, big-endian, zero-padded. Keys that
// differ order their byte arrays as bytes.Compare does; equal keys do not
// decide.
func bytesKey(v []byte) uint64 {
	if len(v) >= 8 {
		return binary.BigEndian.Uint64(v)
	}
	var k uint64
	for i, c := range v {
		k |= uint64(c) << (56 - 8*i)
	}
	return k
}

func (s *columnStats) observeInt(v int64) {
	if !s.has {
		s.has, s.minInt, s.maxInt = true, v, v
		return
	}
	s.minInt = min(s.minInt, v)
	s.maxInt = max(s.maxInt, v)
}

func (s *columnStats) observeFloat(v float64) {
	switch {
	case v != v: // NaN
	case !s.has:
		s.has, s.minFloat, s.maxFloat = true, v, v
	case v < s.minFloat:
		s.minFloat = v
	case v > s.maxFloat:
		s.maxFloat = v
	}
}

func (s *columnStats) observeBytes(v []byte) {
	// Most values are neither a new min nor a new max, and their first 8
	// bytes say so without a call to bytes.Compare.
	k := bytesKey(v)
	// Cut values order as the values do where they differ, and a large
	// value is not copied whole.
	v = v[:min(len(v), maxStatBytes+1)]
	switch {
	case !s.has:
		s.has = true
		s.minBytes, s.minKey = append(s.minBytes[:0], v...), k
		s.maxBytes, s.maxKey = append(s.maxBytes[:0], v...), k
	case k < s.minKey || k == s.minKey && bytes.Compare(v, s.minBytes) < 0:
		s.minBytes, s.minKey = append(s.minBytes[:0], v...), k
	case k > s.maxKey || k == s.maxKey && bytes.Compare(v, s.maxBytes) > 0:
		s.maxBytes, s.maxKey = append(s.maxBytes[:0], v...), k
	}
}

// parquet returns the statistics as the footer stores them. utf says the
// byte arrays are UTF-8 text, whose bounds must be text too; width is the
// length of fixed-length byte arrays.
func (s *columnStats) parquet(t pq.Type, utf bool, width int, nulls int64) statistics {
	st := statistics{NullCount: nulls}
	if !s.has {
		return st
	}
	switch t {
	case pq.ByteArray:
		lo, hi := s.minBytes, s.maxBytes
		loExact, hiExact := len(lo) <= maxStatBytes, len(hi) <= maxStatBytes
		if !loExact {
			lo = lo[:statCut(lo, utf)]
		}
		if !hiExact {
			var ok bool
			if hi, ok = roundUp(hi[:statCut(hi, utf)], utf); !ok {
				// No short bound above the max: neither bound, as readers
				// disagree on what a min without a max means.
				return st
			}
		}
		// Copies, never nil: an empty min or max is written.
		st.MinValue = append([]byte{}, lo...)
		st.MaxValue = append([]byte{}, hi...)
		st.IsMinValueExact, st.IsMaxValueExact = thrift.New(loExact), thrift.New(hiExact)
		return st
	case pq.FixedLenByteArray:
		// Decimals order as signed integers (their type-defined order).
		st.MinValue = int128Bytes(s.minHi, s.minLo, width)
		st.MaxValue = int128Bytes(s.maxHi, s.maxLo, width)
	case pq.Int64:
		st.MinValue = binary.LittleEndian.AppendUint64(nil, uint64(s.minInt))
		st.MaxValue = binary.LittleEndian.AppendUint64(nil, uint64(s.maxInt))
	case pq.Int32:
		st.MinValue = binary.LittleEndian.AppendUint32(nil, uint32(s.minInt))
		st.MaxValue = binary.LittleEndian.AppendUint32(nil, uint32(s.maxInt))
	case pq.Boolean:
		st.MinValue, st.MaxValue = []byte{byte(s.minInt)}, []byte{byte(s.maxInt)}
	case pq.Double, pq.Float:
		// A zero min is written -0 and a zero max +0, so that readers that
		// compare -0 and +0 differently skip nothing they should read.
		lo, hi := s.minFloat, s.maxFloat
		if lo == 0 {
			lo = math.Copysign(0, -1)
		}
		if hi == 0 {
			hi = 0
		}
		if t == pq.Double {
			st.MinValue = binary.LittleEndian.AppendUint64(nil, math.Float64bits(lo))
			st.MaxValue = binary.LittleEndian.AppendUint64(nil, math.Float64bits(hi))
		} else {
			st.MinValue = binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(lo)))
			st.MaxValue = binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(hi)))
		}
	}
	st.IsMinValueExact, st.IsMaxValueExact = thrift.New(true), thrift.New(true)
	return st
}

// statCut is the length of the prefix a bound longer than maxStatBytes is
// cut to: maxStatBytes, or less for text, so as not to split a character.
func statCut(v []byte, utf bool) int {
	n := maxStatBytes
	if utf {
		for k := n; k > n-utf8.UTFMax && k > 0; k-- {
			if utf8.RuneStart(v[k]) {
				return k
			}
		}
	}
	return n // not UTF-8 there: bytes
}

// roundUp returns a bound above every value that starts with prefix, as
// parquet-mr and arrow-rs make it: the prefix with its last character
// (text) or byte incremented, after dropping those that cannot be
// (U+10FFFF, 0xFF). ok is false when none can be.
func roundUp(prefix []byte, utf bool) (_ []byte, ok bool) {
	p := append([]byte{}, prefix...)
	if utf && utf8.Valid(p) {
		// UTF-8's byte order is its code points' order, and no character's
		// bytes start another's: a greater last character makes a greater
		// string than any that starts with the prefix.
		for len(p) > 0 {
			r, size := utf8.DecodeLastRune(p)
			p = p[:len(p)-size]
			r++
			if r >= 0xD800 && r <= 0xDFFF { // surrogates are not characters
				r = 0xE000
			}
			// A character one byte longer may not fit: the one before it
			// is incremented then.
			if r <= utf8.MaxRune && len(p)+utf8.RuneLen(r) <= maxStatBytes {
				return utf8.AppendRune(p, r), true
			}
		}
		return nil, false
	}
	for len(p) > 0 {
		if last := len(p) - 1; p[last] != 0xFF {
			p[last]++
			return p, true
		}
		p = p[:len(p)-1]
	}
	return nil, false
}
