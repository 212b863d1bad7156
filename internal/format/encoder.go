package format

import (
	"fmt"
	"io"
)

// Encoder writes the records of one file, streaming, to an io.Writer. Its
// output depends only on the records appended, so it is byte-deterministic.
type Encoder interface {
	// Append adds one record: vals holds its column values (one per column,
	// nil for pass-through JSONL) and raw its JSON text. The encoder may keep
	// referencing raw and vals' bytes until the next Drain or Close returns,
	// so callers must keep that memory unchanged until then.
	Append(raw []byte, vals []Value) error
	// Drain stops referencing the memory passed to Append since the last
	// Drain, copying what it still needs into the encoder's own buffers.
	Drain() error
	// Close drains, completes the file (the Parquet footer) and writes
	// everything still buffered. The encoder must not be used afterwards.
	Close() error
}

// Output formats.
const (
	Parquet = "parquet"
	CSV     = "csv"
	JSONL   = "jsonl"
)

// DefaultRowGroupRecords is the Parquet row group size when none is set:
// close to DuckDB's default, which measured as fast as larger groups while
// bounding memory (PERF-NOTES.md).
const DefaultRowGroupRecords = 128 << 10

// Options selects an output format and its settings.
type Options struct {
	Format string // "parquet", "csv" or "jsonl"
	// Compression is Parquet's page compression: "zstd" (the default when
	// empty), "snappy", "gzip" or "none". Other formats take "" or "none".
	Compression string
	// RowGroupRecords is the number of rows per Parquet row group; 0 means
	// DefaultRowGroupRecords. An open Parquet file holds up to one row group
	// in memory.
	RowGroupRecords int64
}

// Format is a validated output format for one schema: it makes an Encoder per
// file. It is safe for concurrent use.
type Format struct {
	opts    Options
	schema  *Schema
	parquet *parquetFormat
}

// NewFormat checks o against schema (nil: no columns, only possible for
// JSONL, which then passes records through byte for byte).
func NewFormat(schema *Schema, o Options) (*Format, error) {
	f := &Format{opts: o, schema: schema}
	if o.Format != Parquet && o.Compression != "" && o.Compression != "none" {
		return nil, fmt.Errorf("compression %q applies only to parquet; %s files are written uncompressed", o.Compression, o.Format)
	}
	if o.RowGroupRecords < 0 {
		return nil, fmt.Errorf("row_group_records must be positive, got %d", o.RowGroupRecords)
	}
	switch o.Format {
	case JSONL:
	case CSV, Parquet:
		if schema == nil || len(schema.Columns) == 0 {
			return nil, fmt.Errorf("format %q needs column blocks", o.Format)
		}
		if o.Format == Parquet {
			pf, err := newParquetFormat(schema, o)
			if err != nil {
				return nil, err
			}
			f.parquet = pf
		}
	default:
		return nil, fmt.Errorf("unknown format %q (want parquet, csv or jsonl)", o.Format)
	}
	return f, nil
}

// Ext is the file name extension of the format, without the dot.
func (f *Format) Ext() string { return f.opts.Format }

// Schema returns the columns encoded, nil for pass-through JSONL.
func (f *Format) Schema() *Schema { return f.schema }

// NewEncoder starts a file written to w.
func (f *Format) NewEncoder(w io.Writer) Encoder {
	switch f.opts.Format {
	case Parquet:
		return f.parquet.newEncoder(w)
	case CSV:
		return newCSVEncoder(w, f.schema)
	}
	if f.schema == nil || len(f.schema.Columns) == 0 {
		return &passthroughEncoder{textBuffer{w: w}}
	}
	return newJSONLEncoder(w, f.schema)
}

// textBuffer is the output buffer of the text formats: records are appended
// to buf, which is written out once it passes textFlushSize.
type textBuffer struct {
	w   io.Writer
	buf []byte
}

const textFlushSize = 64 << 10

func (t *textBuffer) maybeFlush() error {
	if len(t.buf) < textFlushSize {
		return nil
	}
	return t.flush()
}

func (t *textBuffer) flush() error {
	if len(t.buf) == 0 {
		return nil
	}
	_, err := t.w.Write(t.buf)
	t.buf = t.buf[:0]
	return err
}

// passthroughEncoder writes each record's raw bytes and a newline.
type passthroughEncoder struct{ textBuffer }

func (e *passthroughEncoder) Append(raw []byte, _ []Value) error {
	e.buf = append(e.buf, raw...)
	e.buf = append(e.buf, '\n')
	return e.maybeFlush()
}

func (e *passthroughEncoder) Drain() error { return nil }

func (e *passthroughEncoder) Close() error { return e.flush() }
