package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/gzip"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	pq "github.com/parquet-go/parquet-go/format"
)

// Version and Build name the writer in the footer's created_by, in the
// form "streamctl version 0.1.0-dev (build 0123abcd)" that readers parse
// (arrow's and parquet-mr's ApplicationVersion) to tell releases apart and
// to work around a release's known bugs. internal/command sets them at init
// (Build can also be set with -ldflags -X); nothing else goes into
// created_by, so the same binary writes the same bytes.
var (
	Version = "0.1.0-dev"
	Build   = "unknown"
)

// CreatedBy is the footer's created_by of the files written from now on.
func CreatedBy() string {
	// A leading v ("v1.2.3") would not parse as a version.
	v, b := strings.TrimPrefix(Version, "v"), Build
	if b == "" {
		b = "unknown"
	}
	return "streamctl version " + v + " (build " + b + ")"
}

// Compressions lists the Parquet compression names, the default first.
var Compressions = []string{"zstd", "snappy", "gzip", "none"}

// The codecs are shared: they are safe for concurrent use. "none" has no
// codec.
var codecs = map[string]compress.Codec{
	"zstd":   ZstdCodec,
	"snappy": &snappy.Codec{},
	"gzip":   &gzip.Codec{},
	"none":   nil,
}

// ZstdCodec is the Parquet ZSTD codec of streamctl's files: klauspost/compress
// at its fastest level, with every block's literals entropy-coded.
//
// parquet-go's own codec uses the default level, which spends most of its
// time looking for matches that high-entropy text (ids, hashes, random
// payloads) does not have, and then stores that text raw. The fastest level
// does not look as hard, and entropy-coding every block's literals shrinks
// such text by a quarter, as DuckDB's zstd does: on the generate schema this
// compresses about three times faster than parquet-go's codec, and the files
// are the size of DuckDB's instead of 26% larger. EncodeAll's output depends
// only on its input, so the files stay byte-deterministic.
var ZstdCodec compress.Codec = newZstdCodec()

type zstdCodec struct {
	enc *zstd.Encoder // EncodeAll and DecodeAll are safe for concurrent use
	dec *zstd.Decoder
}

func newZstdCodec() *zstdCodec {
	enc, err := zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithAllLitEntropyCompression(true),
		zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0)),
		// A page is one block of values (or one large value): a longer
		// window than the default 8 MiB would not find more matches, and
		// each concurrent encoder allocates twice its window.
		zstd.WithWindowSize(4*blockSize),
		zstd.WithZeroFrames(true),
		zstd.WithEncoderCRC(false),
	)
	if err != nil {
		panic(err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
	if err != nil {
		panic(err)
	}
	return &zstdCodec{enc: enc, dec: dec}
}

func (*zstdCodec) String() string                        { return "ZSTD" }
func (*zstdCodec) CompressionCodec() pq.CompressionCodec { return pq.Zstd }

func (c *zstdCodec) Encode(dst, src []byte) ([]byte, error) {
	return c.enc.EncodeAll(src, dst[:0]), nil
}

func (c *zstdCodec) Decode(dst, src []byte) ([]byte, error) {
	return c.dec.DecodeAll(src, dst[:0])
}

// blockSize is the unit of a Parquet encoder's memory: a page's values are
// PLAIN-encoded into one block (a page is cut when the next value does not
// fit), and compressed pages are kept in blocks until their row group is
// written out. Blocks come from a pool shared by every file, so the memory of
// a row group written out is reused by the next, in any file, and what an
// encoder holds is a count of blocks (Buffered).
const blockSize = 64 << 10

var blockPool = sync.Pool{New: func() any { return new([blockSize]byte) }}

func getBlock() []byte { return blockPool.Get().(*[blockSize]byte)[:0] }

// putBlock returns b to the pool if it is a block (a page holding a value
// larger than a block has its own buffer, left to the collector).
func putBlock(b []byte) {
	if cap(b) == blockSize {
		blockPool.Put((*[blockSize]byte)(b[:blockSize]))
	}
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
func (s *spool) writeTo(e *parquetEncoder) error {
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

// maxStatBytes bounds the byte-array min and max of a column chunk's
// statistics: a longer min is cut to a prefix, a longer max to a prefix
// rounded up, and both are then marked inexact.
const maxStatBytes = 256

// parquetFormat is the schema and settings shared by the Parquet files of one
// layout.
//
// The files are written by this package, not by parquet-go's writer, which
// takes a parquet.Value per field through generic column buffers (a quarter
// of the encoding side's time, compression being the rest) and whose memory
// cannot be bounded across files. Values are PLAIN-encoded straight into
// pages instead. The files are as plain as Parquet gets, which every reader
// understands: a flat schema, data pages v1, PLAIN values, RLE definition
// levels, min/max/null statistics per column chunk. parquet-go's thrift
// encodes the page headers and the footer (its structs, and ours for the
// footer's row groups); its reader, arrow-go's and DuckDB read the files
// back in the tests.
type parquetFormat struct {
	cols      []parquetColumn
	createdBy string
	codec     compress.Codec // nil: uncompressed
	codecID   pq.CompressionCodec
	schema    []pq.SchemaElement
	orders    []pq.ColumnOrder
	rowGroup  int64
}

type parquetColumn struct {
	name     string
	kind     Kind
	nullable bool
	physical pq.Type
	width    int // bytes of a PLAIN value; 0: a byte array's length prefix and bytes
	utf8     bool
}

func newParquetFormat(s *Schema, o Options) (*parquetFormat, error) {
	name := o.Compression
	if name == "" {
		name = "zstd"
	}
	codec, ok := codecs[name]
	if !ok {
		return nil, fmt.Errorf("unknown compression %q (want zstd, snappy, gzip or none)", o.Compression)
	}
	f := &parquetFormat{codec: codec, codecID: pq.Uncompressed, rowGroup: o.RowGroupRecords, createdBy: CreatedBy()}
	if codec != nil {
		f.codecID = codec.CompressionCodec()
	}
	if f.rowGroup == 0 {
		f.rowGroup = DefaultRowGroupRecords
	}
	if f.rowGroup > math.MaxInt32 {
		// A page can hold every row of its row group (nulls take no room),
		// and a page header counts its rows in an i32.
		return nil, fmt.Errorf("row_group_records must be at most %d, got %d", math.MaxInt32, f.rowGroup)
	}
	f.schema = append(f.schema, pq.SchemaElement{Name: "schema", NumChildren: thrift.New(int32(len(s.Columns)))})
	for i, c := range s.Columns {
		col := parquetColumn{name: c.Name, kind: s.Kinds[i], nullable: c.IsNullable(), utf8: s.Kinds[i] == KindString || s.Kinds[i] == KindJSON}
		el := schemaElement(col.kind)
		el.Name = c.Name
		el.RepetitionType = thrift.New(pq.Required)
		if col.nullable {
			el.RepetitionType = thrift.New(pq.Optional)
		}
		col.physical, _ = el.Type.Get()
		col.width = plainWidth(col.physical)
		f.cols = append(f.cols, col)
		f.schema = append(f.schema, el)
		f.orders = append(f.orders, pq.ColumnOrder{Value: &pq.TypeDefinedOrder{}})
	}
	return f, nil
}

// schemaElement is the physical and logical type of a column of kind k.
func schemaElement(k Kind) pq.SchemaElement {
	el := func(t pq.Type, conv deprecated.ConvertedType, logical pq.LogicalTypeValue) pq.SchemaElement {
		return pq.SchemaElement{Type: thrift.New(t), ConvertedType: thrift.New(conv), LogicalType: pq.LogicalType{Value: logical}}
	}
	switch k {
	case KindString:
		return el(pq.ByteArray, deprecated.UTF8, &pq.StringType{})
	case KindInt32:
		return el(pq.Int32, deprecated.Int32, &pq.IntType{BitWidth: 32, IsSigned: true})
	case KindInt64:
		return el(pq.Int64, deprecated.Int64, &pq.IntType{BitWidth: 64, IsSigned: true})
	case KindTimestamp:
		return el(pq.Int64, deprecated.TimestampMillis, &pq.TimestampType{IsAdjustedToUTC: true, Unit: pq.TimeUnit{Value: &pq.MilliSeconds{}}})
	case KindDate:
		return el(pq.Int32, deprecated.Date, &pq.DateType{})
	case KindJSON:
		return el(pq.ByteArray, deprecated.Json, &pq.JsonType{})
	case KindFloat:
		return pq.SchemaElement{Type: thrift.New(pq.Float)}
	case KindDouble:
		return pq.SchemaElement{Type: thrift.New(pq.Double)}
	case KindBool:
		return pq.SchemaElement{Type: thrift.New(pq.Boolean)}
	case KindBytes:
		return pq.SchemaElement{Type: thrift.New(pq.ByteArray)}
	}
	panic(fmt.Sprintf("format: no parquet type for kind %s", k))
}

// ErrTooManyRowGroups is returned by a Parquet encoder asked for one row
// group more than a file can hold: the file is lost, not written with an
// ordinal readers refuse.
var ErrTooManyRowGroups = errors.New("too many row groups in one Parquet file")

// ErrValueTooLarge is returned for a value whose Parquet page would be
// larger than a page header can say (2 GiB).
var ErrValueTooLarge = errors.New("value too large for a Parquet page")

// maxRowGroups is the most row groups of a file: RowGroup.ordinal is an
// i16, and arrow-rs refuses a file with more row groups than that numbers,
// ordinals written or not.
const maxRowGroups = math.MaxInt16 + 1

// maxPageBytes bounds a page, levels and values: its header's sizes are
// i32.
const maxPageBytes = math.MaxInt32

// The footer's thrift structs: parquet-go's format.FileMetaData and what it
// holds, cut to the fields this package writes, and with Statistics'
// is_min_value_exact and is_max_value_exact, which parquet-go's lack and
// which tell readers whether byte-array bounds were truncated.
type fileMetaData struct {
	Version      int32              `thrift:"1,required"`
	Schema       []pq.SchemaElement `thrift:"2,required"`
	NumRows      int64              `thrift:"3,required"`
	RowGroups    []rowGroup         `thrift:"4,required"`
	CreatedBy    string             `thrift:"6,optional"`
	ColumnOrders []pq.ColumnOrder   `thrift:"7,optional"`
}

type rowGroup struct {
	Columns             []columnChunkMeta `thrift:"1,required"`
	TotalByteSize       int64             `thrift:"2,required"`
	NumRows             int64             `thrift:"3,required"`
	FileOffset          int64             `thrift:"5,optional"`
	TotalCompressedSize int64             `thrift:"6,optional"`
	Ordinal             int16             `thrift:"7,optional,writezero"`
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

// parquetEncoder writes one Parquet file. Values are PLAIN-encoded into the
// current page of their column as they are appended; a full page goes to the
// encoder's compressor goroutine, which adds it, compressed, to its column
// chunk; a full row group (or Flush) waits for the compressor and writes the
// column chunks out one after the other. So an open file holds at most one
// row group, compressed, a few pages in flight and one page per column.
type parquetEncoder struct {
	f       *parquetFormat
	w       io.Writer
	offset  int64 // bytes written to w
	cols    []columnChunk
	rows    int64 // rows in the current row group
	meta    fileMetaData
	header  bytes.Buffer
	thrift  *thrift.Encoder
	failed  error
	started bool            // the magic number is written
	pages   *pageCompressor // nil until the first page is cut
}

// columnChunk is one column of the current row group.
type columnChunk struct {
	parquetColumn // a copy: the hot path reads it for every value
	// The current page.
	block     []byte // the block values are in, from levelRoom on
	values    []byte // PLAIN-encoded values, in block
	room      int    // the most bytes of values and defs the page may hold
	defs      []byte // nullable columns: definition levels, a bit per row
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

func (f *parquetFormat) newEncoder(w io.Writer) *parquetEncoder {
	e := &parquetEncoder{f: f, w: w, cols: make([]columnChunk, len(f.cols))}
	for i := range e.cols {
		e.cols[i].parquetColumn = f.cols[i]
	}
	e.thrift = thrift.NewEncoder(new(thrift.CompactProtocol).NewWriter(&e.header))
	e.meta = fileMetaData{Version: 1, Schema: f.schema, CreatedBy: f.createdBy, ColumnOrders: f.orders}
	return e
}

func (e *parquetEncoder) Append(_ []byte, vals []Value) error {
	if e.failed != nil {
		return e.failed
	}
	vals = vals[:len(e.cols)]
	for i := range e.cols {
		c := &e.cols[i]
		v := &vals[i]
		if !v.Null {
			if n := c.valueSize(v); len(c.values)+len(c.defs)+n > c.room {
				if err := e.makeRoom(c, n); err != nil {
					return err
				}
			}
			c.appendValue(v)
		}
		if c.nullable {
			if c.pageRows&7 == 0 {
				c.defs = append(c.defs, 0)
			}
			if v.Null {
				c.pageNulls++
			} else {
				c.defs[len(c.defs)-1] |= 1 << (c.pageRows & 7)
			}
		}
		c.pageRows++
	}
	e.rows++
	if e.rows >= e.f.rowGroup {
		return e.Flush()
	}
	return nil
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
func (c *columnChunk) valueSize(v *Value) int {
	if c.width == 0 {
		return 4 + len(v.Bytes)
	}
	return c.width
}

// pageRoom bounds a page's values and definition levels together, so that a
// page, with the levels' header, is one block of the zstd encoder (64 KiB at
// its fastest level): larger pages are compressed as two blocks, the second
// one tiny, which is slower and larger.
const pageRoom = blockSize - 16

// makeRoom cuts c's page, if it has rows, so that a value of n bytes fits.
func (e *parquetEncoder) makeRoom(c *columnChunk, n int) error {
	if n > maxPageBytes-levelRoom {
		// Refused before it is copied: the row is half appended, so the
		// file is lost.
		return e.fail(fmt.Errorf("%w: column %q: a value of %d bytes (a page holds at most 2 GiB)", ErrValueTooLarge, c.name, n-4))
	}
	if c.pageRows > 0 {
		if err := e.cutPage(c); err != nil {
			return err
		}
	}
	if cap(c.block) == 0 {
		c.block = getBlock()
		c.values = c.block[levelRoom:levelRoom]
	}
	c.room = pageRoom
	if n > c.room { // a value larger than a block: a page of its own
		putBlock(c.block)
		c.block = make([]byte, 0, levelRoom+n)
		c.values = c.block[levelRoom:levelRoom]
		c.room = n
	}
	return nil
}

// appendLevels appends the page's definition levels: RLE/bit-packed hybrid
// with a 4-byte length, one run when every row is null or none is, else the
// bitmap.
func (c *columnChunk) appendLevels(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	switch c.pageNulls {
	case 0, c.pageRows:
		dst = binary.AppendUvarint(dst, uint64(c.pageRows)<<1)
		dst = append(dst, byte(min(c.pageNulls, 1)^1))
	default:
		dst = binary.AppendUvarint(dst, uint64(len(c.defs))<<1|1)
		dst = append(dst, c.defs...)
	}
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}

// levelRoom is kept free in front of a page's values, in its block, for its
// definition levels when they are one run (no nulls, or nothing but nulls):
// the page is then cut without copying its values.
const levelRoom = 16

// appendValue PLAIN-encodes v and updates the statistics.
func (c *columnChunk) appendValue(v *Value) {
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

// cutPage hands the current page of c to the encoder's compressor, which
// adds it to the column chunk, compressed, in the order pages were cut.
func (e *parquetEncoder) cutPage(c *columnChunk) error {
	if c.pageRows == 0 {
		return nil
	}
	if e.pages == nil {
		e.pages = newPageCompressor(e.f.codec)
	}
	if err := e.pages.err(); err != nil {
		return e.fail(err)
	}
	job := pageJob{c: c, rows: c.pageRows, nulls: c.pageNulls}
	oneRun := !c.nullable || c.pageNulls == 0 || c.pageNulls == c.pageRows
	if oneRun && cap(c.block) > 0 {
		// The page is its block: the levels, if any, go in front of the values.
		var run [levelRoom]byte
		var levels []byte
		if c.nullable {
			levels = c.appendLevels(run[:0])
		}
		start := levelRoom - len(levels)
		copy(c.block[start:levelRoom], levels)
		job.page, job.block = c.block[start:levelRoom+len(c.values)], c.block
		c.block, c.values, c.room = nil, nil, 0
	} else {
		// A bitmap, or nulls alone: the page is a new block, and the values'
		// block stays with the column.
		page := getBlock()
		if c.nullable {
			page = c.appendLevels(page)
		}
		job.page = append(page, c.values...)
		job.block = job.page
		if cap(c.block) != blockSize {
			c.block, c.values, c.room = nil, nil, 0 // a large value's own buffer
		}
	}
	c.cut += int64(len(job.page))
	e.pages.add(job)
	c.values, c.defs = c.values[:0], c.defs[:0]
	c.pageRows, c.pageNulls, c.bools = 0, 0, 0
	return nil
}

// pageCompressor compresses an encoder's pages on a goroutine of its own, so
// that compression (most of the encoding side's time with zstd) overlaps
// with the next pages' encoding. Pages are compressed one at a time in the
// order they were cut, so the file's bytes do not depend on scheduling.
type pageCompressor struct {
	codec   compress.Codec // nil: pages are stored uncompressed
	jobs    chan pageJob
	pending sync.WaitGroup // jobs added and not yet spooled
	done    chan struct{}  // closed when the goroutine has returned
	failed  atomic.Pointer[error]

	// The goroutine's own scratch.
	zpage  []byte
	header bytes.Buffer
	thrift *thrift.Encoder
}

// pageJob is a page cut from a column chunk: levels and values, uncompressed.
type pageJob struct {
	c           *columnChunk
	page        []byte // levels and values, in block
	block       []byte // a block from the pool (or a large value's own buffer)
	rows, nulls int
}

// pagesInFlight bounds the pages queued to one compressor: a few pages keep
// it busy; more would only hold memory.
const pagesInFlight = 4

func newPageCompressor(codec compress.Codec) *pageCompressor {
	p := &pageCompressor{codec: codec, jobs: make(chan pageJob, pagesInFlight), done: make(chan struct{})}
	p.thrift = thrift.NewEncoder(new(thrift.CompactProtocol).NewWriter(&p.header))
	go p.run()
	return p
}

func (p *pageCompressor) add(j pageJob) {
	p.pending.Add(1)
	p.jobs <- j
}

func (p *pageCompressor) run() {
	defer close(p.done)
	for j := range p.jobs {
		if p.err() == nil {
			if err := p.spool(j); err != nil {
				p.failed.Store(&err)
			}
		}
		putBlock(j.block)
		p.pending.Done()
	}
}

// spool compresses j's page and appends it, with its header, to the column
// chunk's spool. Only the compressor touches a chunk's spool, sizes and
// counts while pages are pending; the encoder reads them after wait.
func (p *pageCompressor) spool(j pageJob) error {
	body := j.page
	if p.codec != nil {
		var err error
		if p.zpage, err = p.codec.Encode(p.zpage, j.page); err != nil {
			return fmt.Errorf("compress parquet page: %w", err)
		}
		body = p.zpage
	}
	if len(j.page) > maxPageBytes || len(body) > maxPageBytes {
		return fmt.Errorf("%w: column %q: a page of %d bytes, %d compressed", ErrValueTooLarge, j.c.name, len(j.page), len(body))
	}
	p.header.Reset()
	err := p.thrift.Encode(&pq.PageHeader{
		Type:                 pq.DataPage,
		UncompressedPageSize: int32(len(j.page)),
		CompressedPageSize:   int32(len(body)),
		DataPageHeader: thrift.New(pq.DataPageHeader{
			NumValues:               int32(j.rows),
			Encoding:                pq.Plain,
			DefinitionLevelEncoding: pq.RLE,
			RepetitionLevelEncoding: pq.RLE,
			Statistics:              pq.Statistics{NullCount: int64(j.nulls)},
		}),
	})
	if err != nil {
		return fmt.Errorf("encode parquet page header: %w", err)
	}
	c := j.c
	c.pages.write(p.header.Bytes())
	c.pages.write(body)
	c.uncompressed += int64(p.header.Len() + len(j.page))
	c.rows += int64(j.rows)
	c.nulls += int64(j.nulls)
	return nil
}

func (p *pageCompressor) err() error {
	if e := p.failed.Load(); e != nil {
		return *e
	}
	return nil
}

// wait returns once every page added is spooled, with the first error.
func (p *pageCompressor) wait() error {
	p.pending.Wait()
	return p.err()
}

// stop ends the goroutine once the pages added are done.
func (p *pageCompressor) stop() {
	close(p.jobs)
	<-p.done
}

// Buffered bounds the memory held for the current row group: its pages
// before compression (their compressed copies take less) and the pages being
// filled. Pages count when they are cut, not when the compressor is done with
// them, so that Buffered depends only on the values appended: the pipeline
// ends row groups early on it, and the files' bytes must not depend on how
// far the compressor got.
func (e *parquetEncoder) Buffered() int64 {
	var n int64
	for i := range e.cols {
		c := &e.cols[i]
		n += int64(c.valuesHeld()+cap(c.defs)) + c.cut
	}
	return n
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

// Flush ends the current row group and writes it out.
func (e *parquetEncoder) Flush() error {
	if e.failed != nil {
		return e.failed
	}
	if e.rows == 0 {
		return nil
	}
	if len(e.meta.RowGroups) == maxRowGroups {
		// Rolling to a new file is the pipeline's (it names files): fail
		// before writing an ordinal readers refuse.
		return e.fail(fmt.Errorf("%w: a Parquet file holds at most %d row groups; "+
			"end files sooner (max_file_records) or make row groups larger (row_group_records)", ErrTooManyRowGroups, maxRowGroups))
	}
	if err := e.start(); err != nil {
		return err
	}
	for i := range e.cols {
		if err := e.cutPage(&e.cols[i]); err != nil {
			return err
		}
	}
	if err := e.pages.wait(); err != nil {
		return e.fail(err)
	}
	rg := rowGroup{NumRows: e.rows, FileOffset: e.offset, Ordinal: int16(len(e.meta.RowGroups))}
	for i := range e.cols {
		c := &e.cols[i]
		encodings := []pq.Encoding{pq.Plain}
		if c.nullable {
			encodings = append(encodings, pq.RLE)
		}
		rg.Columns = append(rg.Columns, columnChunkMeta{
			FileOffset: e.offset,
			MetaData: columnMetaData{
				Type:                  c.physical,
				Encoding:              encodings,
				PathInSchema:          []string{c.name},
				Codec:                 e.f.codecID,
				NumValues:             c.rows,
				TotalUncompressedSize: c.uncompressed,
				TotalCompressedSize:   c.pages.size(),
				DataPageOffset:        e.offset,
				Statistics:            c.stats.parquet(c.physical, c.utf8, c.nulls),
			},
		})
		rg.TotalByteSize += c.uncompressed
		rg.TotalCompressedSize += c.pages.size()
		if err := c.pages.writeTo(e); err != nil {
			return err
		}
		putBlock(c.block)
		c.block, c.values, c.room = nil, nil, 0
		c.rows, c.nulls, c.uncompressed, c.cut = 0, 0, 0, 0
		c.stats = columnStats{minBytes: c.stats.minBytes[:0], maxBytes: c.stats.maxBytes[:0]}
	}
	e.meta.RowGroups = append(e.meta.RowGroups, rg)
	e.meta.NumRows += e.rows
	e.rows = 0
	return nil
}

// Close writes the last row group and the footer.
func (e *parquetEncoder) Close() error {
	err := e.Flush()
	e.stopPages()
	if err != nil {
		return err
	}
	if err := e.start(); err != nil {
		return err
	}
	e.header.Reset()
	if err := e.thrift.Encode(&e.meta); err != nil {
		return e.fail(fmt.Errorf("encode parquet footer: %w", err))
	}
	footer := binary.LittleEndian.AppendUint32(e.header.Bytes(), uint32(e.header.Len()))
	return e.write(append(footer, "PAR1"...))
}

func (e *parquetEncoder) start() error {
	if e.started {
		return nil
	}
	e.started = true
	return e.write([]byte("PAR1"))
}

func (e *parquetEncoder) write(p []byte) error {
	n, err := e.w.Write(p)
	e.offset += int64(n)
	if err != nil {
		return e.fail(err)
	}
	return nil
}

// fail makes err sticky and returns the encoder's blocks to the pool: the
// file is lost.
func (e *parquetEncoder) fail(err error) error {
	if e.failed == nil {
		e.failed = err
	}
	e.stopPages() // the compressor must let go of the spools first
	for i := range e.cols {
		c := &e.cols[i]
		c.pages.release()
		putBlock(c.block)
		c.block, c.values, c.room = nil, nil, 0
	}
	return err
}

// Abort discards the file: the compressor stops, the blocks go back to the
// pool.
func (e *parquetEncoder) Abort() {
	e.fail(errors.New("parquet file aborted"))
}

func (e *parquetEncoder) stopPages() {
	if e.pages != nil {
		e.pages.stop()
		e.pages = nil
	}
}

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
// byte arrays are UTF-8 text, whose bounds must be text too.
func (s *columnStats) parquet(t pq.Type, utf bool, nulls int64) statistics {
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
