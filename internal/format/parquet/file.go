// Package parquet writes Parquet files, streaming, from rows of values.
//
// The files are written by this package, not by parquet-go's writer, which
// takes a parquet.Value per field through generic column buffers (a quarter
// of the encoding side's time, compression being the rest) and whose memory
// cannot be bounded across files. Values are PLAIN-encoded straight into
// pages instead. The files are as plain as Parquet gets, which every reader
// understands: data pages v1, PLAIN values, RLE levels, min/max/null
// statistics per column chunk, no dictionary. Nested columns (nested.go)
// are the standard groups, LIST and MAP, a column chunk per leaf.
// parquet-go's thrift encodes the page headers and the footer (its structs,
// and ours for the footer's row groups); its reader, arrow-go's and DuckDB
// read the files back in the tests.
//
// The layers, one file each: the file (file.go: schema, footer, the list of
// row groups and its limit), the row group (rowgroup.go: rows in, row groups
// out), the column chunk (chunk.go: PLAIN values, statistics, chunk
// metadata) and the page (page.go: blocks, definition levels, the
// compressor goroutine and page headers); compress.go holds the codecs.
package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	pq "github.com/parquet-go/parquet-go/format"

	"github.com/streamctl/streamctl/internal/format/row"
)

// DefaultRowGroupRecords is the row group size when none is set, close to
// DuckDB's default of 122,880 rows (PERF-NOTES.md).
const DefaultRowGroupRecords = 128 << 10

// CreatedBy is the footer's created_by of a streamctl version and build, in
// the form "streamctl version 0.1.0-dev (build 0123abcd)" that readers parse
// (arrow's and parquet-mr's ApplicationVersion) to tell releases apart and
// to work around a release's known bugs.
func CreatedBy(version, build string) string {
	// A leading v ("v1.2.3") would not parse as a version.
	v, b := strings.TrimPrefix(version, "v"), build
	if b == "" {
		b = "unknown"
	}
	return "streamctl version " + v + " (build " + b + ")"
}

// Column is one column of a file.
type Column struct {
	Name     string
	Kind     row.Kind // a flat kind or KindDecimal
	Nullable bool
	// Type is the type of a nested column (struct, list, map), whose values
	// are its JSON normalised to it, split into leaves by Options.Shred.
	Type *row.Type
	// Precision and Scale of a decimal. Its values are unscaled integers
	// (row.KindDecimal), written as Parquet's DECIMAL on INT32 up to
	// precision 9, INT64 up to 18, and FIXED_LEN_BYTE_ARRAY of the fewest
	// bytes that hold the precision above.
	Precision, Scale int
}

// Options are a file's settings.
type Options struct {
	// Compression is the pages' codec: "zstd" (the default when empty),
	// "snappy", "gzip" or "none".
	Compression string
	// RowGroupRecords is the most rows per row group; 0 means
	// DefaultRowGroupRecords. An open file holds up to one row group,
	// compressed, in memory; Flush ends one earlier.
	RowGroupRecords int64
	// CreatedBy goes into the footer as it is: the bytes of a file depend
	// only on it, the columns, the options and the rows.
	CreatedBy string
	// Shredder makes, for each file, what splits the values of nested
	// columns into their leaves; needed when a column is nested.
	Shredder func() ShredFunc
}

// Format is the schema and settings shared by the Parquet files of one
// layout: it makes an Encoder per file. It is safe for concurrent use.
type Format struct {
	cols      []column // the leaf columns, in schema order
	tops      []top    // the columns of a row
	shredder  func() ShredFunc
	maxLeaves int // of a nested column
	createdBy string
	codec     compress.Codec // nil: uncompressed
	codecID   pq.CompressionCodec
	schema    []pq.SchemaElement
	orders    []pq.ColumnOrder
	rowGroup  int64
}

type column struct {
	name     string
	kind     row.Kind
	nullable bool
	physical pq.Type
	width    int // bytes of a PLAIN value; 0: a byte array's length prefix and bytes
	utf8     bool
	// A nested column's leaf: its path and levels; its pages hold a level
	// per entry, and its values only for entries defined at maxDef.
	path           []string
	maxDef, maxRep uint8
	nested         bool
}

// decimalBytes is the fewest bytes of two's complement that hold every
// decimal of each precision: the length of its FIXED_LEN_BYTE_ARRAY.
func decimalBytes(precision int) int {
	n := 1
	// 2^(8n-1) > 10^precision, in log10: (8n-1)·log10(2) > precision.
	for float64(8*n-1)*math.Log10(2) <= float64(precision) {
		n++
	}
	return n
}

// NewFormat checks o and returns the format of files of cols.
func NewFormat(cols []Column, o Options) (*Format, error) {
	name := o.Compression
	if name == "" {
		name = "zstd"
	}
	codec, ok := codecs[name]
	if !ok {
		return nil, fmt.Errorf("unknown compression %q (want zstd, snappy, gzip or none)", o.Compression)
	}
	f := &Format{codec: codec, codecID: pq.Uncompressed, rowGroup: o.RowGroupRecords, createdBy: o.CreatedBy}
	if codec != nil {
		f.codecID = codec.CompressionCodec()
	}
	if f.rowGroup < 0 {
		return nil, fmt.Errorf("row_group_records must be positive, got %d", f.rowGroup)
	}
	if f.rowGroup == 0 {
		f.rowGroup = DefaultRowGroupRecords
	}
	if f.rowGroup > math.MaxInt32 {
		// A page can hold every row of its row group (nulls take no room),
		// and a page header counts its rows in an i32.
		return nil, fmt.Errorf("row_group_records must be at most %d, got %d", math.MaxInt32, f.rowGroup)
	}
	f.schema = append(f.schema, pq.SchemaElement{Name: "schema", NumChildren: thrift.New(int32(len(cols)))})
	f.shredder = o.Shredder
	for _, c := range cols {
		t := top{first: len(f.cols), nullable: c.Nullable}
		if c.Type != nil && c.Type.Nested() {
			if f.shredder == nil {
				return nil, fmt.Errorf("parquet: column %q is nested, and no Shredder is given", c.Name)
			}
			rep := pq.Required
			if c.Nullable {
				rep = pq.Optional
			}
			t.typ = c.Type
			f.addNested(c.Name, c.Type, rep, nil, 0, 0)
		} else {
			f.addLeaf(c, []string{c.Name}, 0, 0)
		}
		t.n = len(f.cols) - t.first
		f.maxLeaves = max(f.maxLeaves, t.n)
		f.tops = append(f.tops, t)
	}
	return f, nil
}

// schemaElement is the physical and logical type of a column of kind k.
func schemaElement(k row.Kind) pq.SchemaElement {
	el := func(t pq.Type, conv deprecated.ConvertedType, logical pq.LogicalTypeValue) pq.SchemaElement {
		return pq.SchemaElement{Type: thrift.New(t), ConvertedType: thrift.New(conv), LogicalType: pq.LogicalType{Value: logical}}
	}
	switch k {
	case row.KindString:
		return el(pq.ByteArray, deprecated.UTF8, &pq.StringType{})
	case row.KindInt32:
		return el(pq.Int32, deprecated.Int32, &pq.IntType{BitWidth: 32, IsSigned: true})
	case row.KindInt64:
		return el(pq.Int64, deprecated.Int64, &pq.IntType{BitWidth: 64, IsSigned: true})
	case row.KindTimestamp:
		return el(pq.Int64, deprecated.TimestampMillis, &pq.TimestampType{IsAdjustedToUTC: true, Unit: pq.TimeUnit{Value: &pq.MilliSeconds{}}})
	case row.KindDate:
		return el(pq.Int32, deprecated.Date, &pq.DateType{})
	case row.KindJSON:
		return el(pq.ByteArray, deprecated.Json, &pq.JsonType{})
	case row.KindFloat:
		return pq.SchemaElement{Type: thrift.New(pq.Float)}
	case row.KindDouble:
		return pq.SchemaElement{Type: thrift.New(pq.Double)}
	case row.KindBool:
		return pq.SchemaElement{Type: thrift.New(pq.Boolean)}
	case row.KindBytes:
		return pq.SchemaElement{Type: thrift.New(pq.ByteArray)}
	}
	panic(fmt.Sprintf("parquet: no type for kind %s", k))
}

// decimalElement is the schema element of a decimal column.
func decimalElement(precision, scale int) pq.SchemaElement {
	el := pq.SchemaElement{
		ConvertedType: thrift.New(deprecated.Decimal),
		Scale:         thrift.New(int32(scale)),
		Precision:     thrift.New(int32(precision)),
		LogicalType:   pq.LogicalType{Value: &pq.DecimalType{Scale: int32(scale), Precision: int32(precision)}},
	}
	switch {
	case precision <= 9:
		el.Type = thrift.New(pq.Int32)
	case precision <= row.MaxDecimal64Precision:
		el.Type = thrift.New(pq.Int64)
	default:
		el.Type = thrift.New(pq.FixedLenByteArray)
		el.TypeLength = thrift.New(int32(decimalBytes(precision)))
	}
	return el
}

// ErrTooManyRowGroups is returned by a Parquet encoder asked for one row
// group more than a file can hold: the file is lost, not written with an
// ordinal readers refuse.
var ErrTooManyRowGroups = errors.New("too many row groups in one Parquet file")

// maxRowGroups is the most row groups of a file: RowGroup.ordinal is an
// i16, and arrow-rs refuses a file with more row groups than that numbers,
// ordinals written or not.
const maxRowGroups = math.MaxInt16 + 1

// The footer's thrift structs (this one, rowGroup and the column chunk's):
// parquet-go's format.FileMetaData and what it holds, cut to the fields this
// package writes, and with Statistics' is_min_value_exact and
// is_max_value_exact, which parquet-go's lack and which tell readers whether
// byte-array bounds were truncated.
type fileMetaData struct {
	Version      int32              `thrift:"1,required"`
	Schema       []pq.SchemaElement `thrift:"2,required"`
	NumRows      int64              `thrift:"3,required"`
	RowGroups    []rowGroup         `thrift:"4,required"`
	CreatedBy    string             `thrift:"6,optional"`
	ColumnOrders []pq.ColumnOrder   `thrift:"7,optional"`
}

// Encoder writes one Parquet file. It implements format.Encoder. Values are PLAIN-encoded into the
// current page of their column as they are appended; a full page goes to the
// encoder's compressor goroutine, which adds it, compressed, to its column
// chunk; a full row group (or Flush) waits for the compressor and writes the
// column chunks out one after the other. So an open file holds at most one
// row group, compressed, a few pages in flight and one page per column.
type Encoder struct {
	f       *Format
	w       io.Writer
	offset  int64 // bytes written to w
	cols    []columnChunk
	leaves  [][]row.Entry // a nested value's entries, by leaf
	shred   ShredFunc
	rows    int64 // rows in the current row group
	meta    fileMetaData
	header  bytes.Buffer
	thrift  *thrift.Encoder
	failed  error
	started bool            // the magic number is written
	pages   *pageCompressor // nil until the first page is cut
}

// NewEncoder starts a file written to w.
func (f *Format) NewEncoder(w io.Writer) *Encoder {
	e := &Encoder{f: f, w: w, cols: make([]columnChunk, len(f.cols)), leaves: make([][]row.Entry, f.maxLeaves)}
	if f.shredder != nil {
		e.shred = f.shredder()
	}
	for i := range e.cols {
		e.cols[i].column = f.cols[i]
	}
	e.thrift = thrift.NewEncoder(new(thrift.CompactProtocol).NewWriter(&e.header))
	e.meta = fileMetaData{Version: 1, Schema: f.schema, CreatedBy: f.createdBy, ColumnOrders: f.orders}
	return e
}

// Close writes the last row group and the footer.
func (e *Encoder) Close() error {
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

func (e *Encoder) start() error {
	if e.started {
		return nil
	}
	e.started = true
	return e.write([]byte("PAR1"))
}

func (e *Encoder) write(p []byte) error {
	n, err := e.w.Write(p)
	e.offset += int64(n)
	if err != nil {
		return e.fail(err)
	}
	return nil
}

// fail makes err sticky and returns the encoder's blocks to the pool: the
// file is lost.
func (e *Encoder) fail(err error) error {
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
func (e *Encoder) Abort() {
	e.fail(errors.New("parquet file aborted"))
}

func (e *Encoder) stopPages() {
	if e.pages != nil {
		e.pages.stop()
		e.pages = nil
	}
}
