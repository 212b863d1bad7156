package parquet

import (
	"fmt"

	pq "github.com/parquet-go/parquet-go/format"

	"github.com/streamctl/streamctl/internal/format/row"
)

type rowGroup struct {
	Columns             []columnChunkMeta `thrift:"1,required"`
	TotalByteSize       int64             `thrift:"2,required"`
	NumRows             int64             `thrift:"3,required"`
	FileOffset          int64             `thrift:"5,optional"`
	TotalCompressedSize int64             `thrift:"6,optional"`
	Ordinal             int16             `thrift:"7,optional,writezero"`
}

func (e *Encoder) Append(_ []byte, vals []row.Value) error {
	if e.failed != nil {
		return e.failed
	}
	vals = vals[:len(e.f.tops)]
	for i, t := range e.f.tops {
		v := &vals[i]
		if t.typ != nil {
			if err := e.appendNested(t, v); err != nil {
				return err
			}
			continue
		}
		c := &e.cols[t.first]
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

// Buffered bounds the memory held for the current row group: its pages
// before compression (their compressed copies take less) and the pages being
// filled. Pages count when they are cut, not when the compressor is done with
// them, so that Buffered depends only on the values appended: the pipeline
// ends row groups early on it, and the files' bytes must not depend on how
// far the compressor got.
// Full reports that the file has room for the open row group only: past it,
// Flush would fail with ErrTooManyRowGroups.
func (e *Encoder) Full() bool { return len(e.meta.RowGroups) >= maxRowGroups-1 }

func (e *Encoder) Buffered() int64 {
	var n int64
	for i := range e.cols {
		c := &e.cols[i]
		n += int64(c.valuesHeld()+cap(c.defs)+cap(c.reps)) + c.cut
	}
	return n
}

// Size implements format.Encoder: the bytes written, and the open row group
// at the compression ratio of the row groups written (their compressed over
// their uncompressed bytes), or uncompressed when none is. The open row
// group counts its pages cut and the values of the pages being filled, as
// they are appended, not as far as the compressor got. Integer arithmetic in
// 1/65536ths keeps it the same on every platform.
func (e *Encoder) Size() (int64, bool) {
	var packed, raw int64
	for _, rg := range e.meta.RowGroups {
		packed += rg.TotalCompressedSize
		raw += rg.TotalByteSize
	}
	var open int64
	for i := range e.cols {
		c := &e.cols[i]
		open += c.cut + int64(len(c.values)+len(c.defs))
	}
	if raw == 0 {
		return e.offset + open, e.rows > 0
	}
	ratio := min(packed<<16/raw, 1<<16)
	return e.offset + open*ratio>>16, false
}

// Flush ends the current row group and writes it out.
func (e *Encoder) Flush() error {
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
		if c.nullable || c.nested {
			encodings = append(encodings, pq.RLE)
		}
		rg.Columns = append(rg.Columns, columnChunkMeta{
			FileOffset: e.offset,
			MetaData: columnMetaData{
				Type:                  c.physical,
				Encoding:              encodings,
				PathInSchema:          c.path,
				Codec:                 e.f.codecID,
				NumValues:             c.rows,
				TotalUncompressedSize: c.uncompressed,
				TotalCompressedSize:   c.pages.size(),
				DataPageOffset:        e.offset,
				Statistics:            c.stats.parquet(c.physical, c.utf8, c.width, c.nulls),
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
