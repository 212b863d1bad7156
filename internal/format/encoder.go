package format

import (
	"fmt"
	"io"

	"github.com/streamctl/streamctl/internal/format/parquet"
)

// Encoder writes the records of one file, streaming, to an io.Writer. Its
// output depends only on the records appended (and on when Flush is called),
// so it is byte-deterministic.
type Encoder interface {
	// Append adds one record: vals holds its column values (one per column,
	// nil for pass-through JSONL) and raw its JSON text. The encoder copies
	// what it keeps: the caller may reuse raw and vals' bytes at once.
	Append(raw []byte, vals []Value) error
	// Buffered is the memory, in bytes, the encoder holds for records that
	// are not written out yet: for Parquet, the current row group.
	Buffered() int64
	// Flush writes out what is buffered. For Parquet it ends the current row
	// group early, which bounds the memory of many open files.
	Flush() error
	// Full reports that the file takes no more records: a Parquet file has
	// room for one row group more (the open one) and no more. The pipeline
	// then starts the file's next part, which it names.
	Full() bool
	// Size is what the file would take if closed now, in bytes, from what
	// is written out and what is buffered, so that the pipeline can end
	// files by size (max_file_size). It depends only on the records (and
	// on when Flush is called), never on timing. Text is exact. Parquet
	// counts its open row group at the compression ratio of the row groups
	// it wrote; guess is set before it wrote any, when the open row group
	// counts at its size before compression: a Flush then measures the
	// ratio. The Parquet footer is not counted (a few KB).
	Size() (n int64, guess bool)
	// Close completes the file (the Parquet footer) and writes everything
	// still buffered. The encoder must not be used afterwards.
	Close() error
	// Abort drops the file unfinished and releases what the encoder holds
	// (Parquet: its compressor goroutine and blocks).
	Abort()
}

// Output formats.
const (
	Parquet = "parquet"
	CSV     = "csv"
	JSONL   = "jsonl"
)

// DefaultRowGroupRecords is the Parquet row group size when none is set.
const DefaultRowGroupRecords = parquet.DefaultRowGroupRecords

// Compressions lists the Parquet compression names, the default first.
var Compressions = parquet.Compressions

// Version and Build name the writer in the Parquet footer's created_by
// (parquet.CreatedBy). internal/command sets them at init (Build can also be
// set with -ldflags -X); nothing else goes into created_by, so the same
// binary writes the same bytes.
var (
	Version = "0.1.0-dev"
	Build   = "unknown"
)

// CreatedBy is the footer's created_by of the files written from now on.
func CreatedBy() string { return parquet.CreatedBy(Version, Build) }

var _ Encoder = (*parquet.Encoder)(nil)

// Options selects an output format and its settings.
type Options struct {
	Format string // "parquet", "csv" or "jsonl"
	// Compression is Parquet's page compression: "zstd" (the default when
	// empty), "snappy", "gzip" or "none". Other formats take "" or "none".
	Compression string
	// RowGroupRecords is the most rows per Parquet row group; 0 means
	// DefaultRowGroupRecords. An open Parquet file holds up to one row group,
	// compressed, in memory; Flush ends one earlier.
	RowGroupRecords int64
}

// Format is a validated output format for one schema: it makes an Encoder per
// file. It is safe for concurrent use.
type Format struct {
	opts    Options
	schema  *Schema
	parquet *parquet.Format
}

// NewFormat checks o against schema (nil: no columns, only possible for
// JSONL, which then passes records through byte for byte).
func NewFormat(schema *Schema, o Options) (*Format, error) {
	f := &Format{opts: o, schema: schema}
	if o.Format != Parquet && o.Compression != "" && o.Compression != "none" {
		return nil, fmt.Errorf("compression %q applies only to parquet; %s files are written uncompressed", o.Compression, o.Format)
	}
	switch o.Format {
	case JSONL:
	case CSV, Parquet:
		if schema == nil || len(schema.Columns) == 0 {
			return nil, fmt.Errorf("format %q needs column blocks", o.Format)
		}
		if err := CheckNested(schema.Columns, o.Format); err != nil {
			return nil, err
		}
		if o.Format == Parquet {
			pf, err := parquet.NewFormat(parquetColumns(schema), parquet.Options{
				Compression:     o.Compression,
				RowGroupRecords: o.RowGroupRecords,
				CreatedBy:       CreatedBy(),
				Shredder:        newShredFunc,
			})
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

func parquetColumns(s *Schema) []parquet.Column {
	cols := make([]parquet.Column, len(s.Columns))
	for i, c := range s.Columns {
		t := s.Types[i]
		cols[i] = parquet.Column{Name: c.Name, Kind: t.Kind, Nullable: c.IsNullable(), Precision: t.Precision, Scale: t.Scale}
		if t.Nested() {
			cols[i].Type = t
		}
	}
	return cols
}

// Ext is the file name extension of the format, without the dot.
func (f *Format) Ext() string { return f.opts.Format }

// Schema returns the columns encoded, nil for pass-through JSONL.
func (f *Format) Schema() *Schema { return f.schema }

// NewEncoder starts a file written to w.
func (f *Format) NewEncoder(w io.Writer) Encoder {
	switch f.opts.Format {
	case Parquet:
		return f.parquet.NewEncoder(w)
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
	w       io.Writer
	buf     []byte
	written int64
}

const textFlushSize = 64 << 10

func (t *textBuffer) maybeFlush() error {
	if len(t.buf) < textFlushSize {
		return nil
	}
	return t.flush()
}

// Buffered implements Encoder.
func (t *textBuffer) Buffered() int64 { return int64(len(t.buf)) }

// Size implements Encoder: the bytes written and buffered, exactly.
func (t *textBuffer) Size() (int64, bool) { return t.written + int64(len(t.buf)), false }

// Full is never true: a text file has no limit of its own.
func (t *textBuffer) Full() bool { return false }

// Flush implements Encoder.
func (t *textBuffer) Flush() error { return t.flush() }

func (t *textBuffer) flush() error {
	if len(t.buf) == 0 {
		return nil
	}
	n, err := t.w.Write(t.buf)
	t.written += int64(n)
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

func (e *passthroughEncoder) Close() error { return e.flush() }
func (e *passthroughEncoder) Abort()       {}
