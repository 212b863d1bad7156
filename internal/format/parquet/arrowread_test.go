package parquet

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// arrowFile is a Parquet file as Apache arrow-go, a reader independent of
// this package and of parquet-go, reads it: footer, statistics and values.
type arrowFile struct {
	createdBy string
	writer    *metadata.AppVersion
	rowGroups []arrowRowGroup
	// columns[c][row] is the value of column c: nil, int64 (ints, dates,
	// timestamps in ms), float64, bool, string (strings, bytes, json), or
	// decimalText (a decimal's unscaled integer, in decimal).
	columns [][]any
}

type arrowRowGroup struct {
	rows    int64
	ordinal int16
	cols    []arrowStats
}

// arrowStats is a column chunk's statistics as arrow-go decodes them; min
// and max are PLAIN-encoded, as the footer stores them.
type arrowStats struct {
	set       bool // arrow-go found statistics it trusts
	hasMinMax bool
	min, max  []byte
	nulls     int64
	numValues int64
}

// arrowRead reads data with arrow-go, failing the test on any error.
func arrowRead(t testing.TB, data []byte) *arrowFile {
	t.Helper()
	f, err := arrowReadErr(data)
	if err != nil {
		t.Fatalf("arrow-go cannot read the file: %v", err)
	}
	return f
}

func arrowReadErr(data []byte) (*arrowFile, error) {
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer rdr.Close()
	md := rdr.MetaData()
	out := &arrowFile{createdBy: md.GetCreatedBy(), writer: rdr.WriterVersion()}
	for g := range rdr.NumRowGroups() {
		rg := md.RowGroup(g)
		arg := arrowRowGroup{rows: rg.NumRows(), ordinal: rg.Ordinal()}
		for c := range rg.NumColumns() {
			cc, err := rg.ColumnChunk(c)
			if err != nil {
				return nil, err
			}
			st := arrowStats{numValues: cc.NumValues()}
			ts, err := cc.Statistics()
			if err != nil {
				return nil, err
			}
			if ts != nil {
				st.set, st.hasMinMax, st.nulls = true, ts.HasMinMax(), ts.NullCount()
				if st.hasMinMax {
					st.min, st.max = ts.EncodeMin(), ts.EncodeMax()
				}
			}
			arg.cols = append(arg.cols, st)
		}
		out.rowGroups = append(out.rowGroups, arg)
	}
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 1 << 12}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	for c := range int(tbl.NumCols()) {
		var vals []any
		for _, chunk := range tbl.Column(c).Data().Chunks() {
			vals = appendArrowValues(vals, chunk)
		}
		out.columns = append(out.columns, vals)
	}
	return out, nil
}

// decimalText is a decimal's unscaled integer as arrow-go reads it.
type decimalText string

func appendArrowValues(dst []any, a arrow.Array) []any {
	if ext, ok := a.(array.ExtensionArray); ok {
		a = ext.Storage()
	}
	for i := range a.Len() {
		if a.IsNull(i) {
			dst = append(dst, nil)
			continue
		}
		switch a := a.(type) {
		case *array.Int32:
			dst = append(dst, int64(a.Value(i)))
		case *array.Int64:
			dst = append(dst, a.Value(i))
		case *array.Date32:
			dst = append(dst, int64(a.Value(i)))
		case *array.Timestamp:
			if u := a.DataType().(*arrow.TimestampType).Unit; u != arrow.Millisecond {
				panic("timestamp unit " + u.String())
			}
			dst = append(dst, int64(a.Value(i)))
		case *array.Float32:
			dst = append(dst, float64(a.Value(i)))
		case *array.Float64:
			dst = append(dst, a.Value(i))
		case *array.Boolean:
			dst = append(dst, a.Value(i))
		case *array.String:
			dst = append(dst, a.Value(i))
		case *array.LargeString:
			dst = append(dst, a.Value(i))
		case *array.Binary:
			dst = append(dst, string(a.Value(i)))
		case *array.LargeBinary:
			dst = append(dst, string(a.Value(i)))
		case *array.Decimal32:
			dst = append(dst, decimalText(strconv.FormatInt(int64(a.Value(i)), 10)))
		case *array.Decimal64:
			dst = append(dst, decimalText(strconv.FormatInt(int64(a.Value(i)), 10)))
		case *array.Decimal128:
			dst = append(dst, decimalText(a.Value(i).BigInt().String()))
		default:
			panic("arrow type " + a.DataType().String())
		}
	}
	return dst
}
