package format

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// ReadParquet calls fn with each row of the Parquet file data, in file
// order, its values in the order of s's columns, which the file must hold
// by name and in order, flat, as streamctl writes them. fn must not keep
// vals past its call. The reader is arrow-go's, which the Iceberg tables
// link already.
func ReadParquet(data []byte, s *Schema, fn func(vals []Value) error) error {
	r, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("open parquet: %w", err)
	}
	defer r.Close()
	sc := r.MetaData().Schema
	if sc.NumColumns() != len(s.Columns) {
		return fmt.Errorf("the file has %d columns, the sink writes %d", sc.NumColumns(), len(s.Columns))
	}
	for i, c := range s.Columns {
		if got := sc.Column(i).Name(); got != c.Name {
			return fmt.Errorf("column %d of the file is %q, the sink writes %q there", i+1, got, c.Name)
		}
	}
	row := make([]Value, len(s.Columns))
	for g := range r.NumRowGroups() {
		rg := r.RowGroup(g)
		n := int(rg.NumRows())
		cols := make([][]Value, len(s.Columns))
		for i := range cols {
			cr, err := rg.Column(i)
			if err != nil {
				return fmt.Errorf("row group %d, column %q: %w", g, s.Columns[i].Name, err)
			}
			if cols[i], err = readColumn(cr, n, s.Kinds[i]); err != nil {
				return fmt.Errorf("row group %d, column %q: %w", g, s.Columns[i].Name, err)
			}
		}
		for j := range n {
			for i := range cols {
				row[i] = cols[i][j]
			}
			if err := fn(row); err != nil {
				return err
			}
		}
	}
	return nil
}

func readColumn(cr file.ColumnChunkReader, n int, k Kind) ([]Value, error) {
	maxDef := cr.Descriptor().MaxDefinitionLevel()
	switch c := cr.(type) {
	case *file.Int32ColumnChunkReader:
		return readTyped(n, maxDef, c.ReadBatch, func(v *Value, x int32) { v.Int = int64(x) })
	case *file.Int64ColumnChunkReader:
		return readTyped(n, maxDef, c.ReadBatch, func(v *Value, x int64) { v.Int = x })
	case *file.Float32ColumnChunkReader:
		return readTyped(n, maxDef, c.ReadBatch, func(v *Value, x float32) { v.Float = float64(x) })
	case *file.Float64ColumnChunkReader:
		return readTyped(n, maxDef, c.ReadBatch, func(v *Value, x float64) { v.Float = x })
	case *file.BooleanColumnChunkReader:
		return readTyped(n, maxDef, c.ReadBatch, func(v *Value, x bool) {
			if x {
				v.Int = 1
			}
		})
	case *file.ByteArrayColumnChunkReader:
		// The values point into the reader's pages: copied.
		return readTyped(n, maxDef, c.ReadBatch, func(v *Value, x parquet.ByteArray) { v.Bytes = bytes.Clone(x) })
	}
	return nil, fmt.Errorf("a %s column is not one streamctl writes for %s", cr.Type(), k)
}

// readTyped reads a column chunk of n rows: values come dense, the
// definition levels say which rows hold one.
func readTyped[T any](n int, maxDef int16, read func(int64, []T, []int16, []int16) (int64, int, error), set func(*Value, T)) ([]Value, error) {
	vals := make([]T, n)
	var defs []int16
	if maxDef > 0 {
		defs = make([]int16, n)
	}
	levels, values := 0, 0
	for levels < n {
		var d []int16
		if defs != nil {
			d = defs[levels:]
		}
		total, read, err := read(int64(n-levels), vals[values:], d, nil)
		if err != nil {
			return nil, err
		}
		if total == 0 {
			return nil, errors.New("the column chunk ends before its row group")
		}
		levels += int(total)
		values += read
	}
	out := make([]Value, n)
	j := 0
	for i := range out {
		if defs != nil && defs[i] < maxDef {
			out[i].Null = true
			continue
		}
		set(&out[i], vals[j])
		j++
	}
	return out, nil
}
