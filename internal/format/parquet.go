package format

import (
	"fmt"
	"io"
	"reflect"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/gzip"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/uncompressed"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// CreatedBy is the Parquet footer's created_by. It is fixed: parquet-go's
// default embeds its build information, which would make the bytes depend on
// how the binary was built.
const CreatedBy = "streamctl"

// The codecs are shared: parquet-go codecs keep pools of (de)compressors and
// are safe for concurrent use.
var codecs = map[string]compress.Codec{
	"zstd":   &zstd.Codec{},
	"snappy": &snappy.Codec{},
	"gzip":   &gzip.Codec{},
	"none":   &uncompressed.Codec{},
}

// pageBufferSize is the uncompressed size at which a page is cut.
const pageBufferSize = 64 << 10

// Compressions lists the Parquet compression names, the default first.
var Compressions = []string{"zstd", "snappy", "gzip", "none"}

// parquetFormat is the schema and writer settings shared by the Parquet files
// of one layout.
type parquetFormat struct {
	schema   *parquet.Schema
	config   *parquet.WriterConfig
	kinds    []Kind
	nullable []bool
	rowGroup int64
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
	fields := make([]parquet.Field, len(s.Columns))
	nullable := make([]bool, len(s.Columns))
	for i, c := range s.Columns {
		n := parquetNode(s.Kinds[i])
		if c.IsNullable() {
			n = parquet.Optional(n)
			nullable[i] = true
		}
		fields[i] = namedField{Node: n, name: c.Name}
	}
	schema := parquet.NewSchema("schema", orderedGroup{fields: fields})
	config, err := parquet.NewWriterConfig(
		schema,
		parquet.Compression(codec),
		&parquet.WriterConfig{CreatedBy: CreatedBy},
		// Pages of 64 KiB (parquet-go's default is 256 KiB) are encoded and
		// compressed while records stream in, on the pipeline's encoding
		// goroutine; larger pages of small files were all compressed at
		// Close, after decoding had ended. Files grow by about 0.4%.
		parquet.PageBufferSize(pageBufferSize),
	)
	if err != nil {
		return nil, fmt.Errorf("parquet writer settings: %w", err)
	}
	rg := o.RowGroupRecords
	if rg == 0 {
		rg = DefaultRowGroupRecords
	}
	return &parquetFormat{schema: schema, config: config, kinds: s.Kinds, nullable: nullable, rowGroup: rg}, nil
}

func parquetNode(k Kind) parquet.Node {
	switch k {
	case KindString:
		return parquet.String()
	case KindInt32:
		return parquet.Int(32)
	case KindInt64:
		return parquet.Int(64)
	case KindFloat:
		return parquet.Leaf(parquet.FloatType)
	case KindDouble:
		return parquet.Leaf(parquet.DoubleType)
	case KindBool:
		return parquet.Leaf(parquet.BooleanType)
	case KindTimestamp:
		return parquet.Timestamp(parquet.Millisecond)
	case KindDate:
		return parquet.Date()
	case KindBytes:
		return parquet.Leaf(parquet.ByteArrayType)
	case KindJSON:
		return parquet.JSON()
	}
	panic(fmt.Sprintf("format: no parquet type for kind %s", k))
}

// orderedGroup is the schema's root: parquet.Group is a map and orders its
// fields by name, but the columns must keep their declared order.
type orderedGroup struct {
	parquet.Group
	fields []parquet.Field
}

func (g orderedGroup) Fields() []parquet.Field { return g.fields }

// namedField is a column of orderedGroup.
type namedField struct {
	parquet.Node
	name string
}

func (f namedField) Name() string { return f.name }

// Value is only used to write Go structs, which this package never does.
func (f namedField) Value(base reflect.Value) reflect.Value { return base.FieldByName(f.name) }

// parquetEncoder appends values column by column (no row assembly) and hands
// them to parquet-go's column writers in bulk on Drain. parquet-go keeps the
// current row group's encoded pages in memory until the group is flushed.
type parquetEncoder struct {
	f       *parquetFormat
	w       *parquet.Writer
	pending [][]parquet.Value // per column, values appended since the last Drain
	rows    int64             // rows in the current row group, pending ones included
}

func (f *parquetFormat) newEncoder(w io.Writer) *parquetEncoder {
	return &parquetEncoder{
		f:       f,
		w:       parquet.NewWriter(w, f.config),
		pending: make([][]parquet.Value, len(f.kinds)),
	}
}

// drainRows bounds the values pending per column so that they stay in the
// CPU cache between Append and parquet-go's copy of them.
const drainRows = 256

func (e *parquetEncoder) Append(_ []byte, vals []Value) error {
	for c := range vals {
		v := &vals[c]
		var pv parquet.Value
		if !v.Null {
			switch e.f.kinds[c] {
			case KindString, KindBytes, KindJSON:
				pv = parquet.ByteArrayValue(v.Bytes)
			case KindInt32, KindDate:
				pv = parquet.Int32Value(int32(v.Int))
			case KindInt64, KindTimestamp:
				pv = parquet.Int64Value(v.Int)
			case KindFloat:
				pv = parquet.FloatValue(float32(v.Float))
			case KindDouble:
				pv = parquet.DoubleValue(v.Float)
			case KindBool:
				pv = parquet.BooleanValue(v.Int != 0)
			}
		}
		p := append(e.pending[c], pv)
		q := &p[len(p)-1]
		// The setters inline where Value.Level does not.
		if !v.Null && e.f.nullable[c] {
			q.SetDefinitionLevel(1)
		}
		q.SetColumnIndex(c)
		e.pending[c] = p
	}
	e.rows++
	if e.rows >= e.f.rowGroup {
		if err := e.Drain(); err != nil {
			return err
		}
		e.rows = 0
		if err := e.w.Flush(); err != nil {
			return fmt.Errorf("write parquet row group: %w", err)
		}
	} else if len(e.pending[0]) >= drainRows {
		return e.Drain()
	}
	return nil
}

func (e *parquetEncoder) Drain() error {
	cols := e.w.ColumnWriters()
	for c, vals := range e.pending {
		if len(vals) == 0 {
			continue
		}
		if _, err := cols[c].WriteRowValues(vals); err != nil {
			return fmt.Errorf("write parquet column %d: %w", c, err)
		}
		clear(vals) // drop the references to the caller's memory
		e.pending[c] = vals[:0]
	}
	return nil
}

func (e *parquetEncoder) Close() error {
	if err := e.Drain(); err != nil {
		return err
	}
	if err := e.w.Close(); err != nil {
		return fmt.Errorf("write parquet footer: %w", err)
	}
	return nil
}
