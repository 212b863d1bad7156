package format

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"testing"
)

// TestReadParquetReadsBackWhatWasWritten: every kind, null and not, in
// several row groups and pages, reads back as the values appended, so that
// a compaction encoding them again writes the same rows.
func TestReadParquetReadsBackWhatWasWritten(t *testing.T) {
	no := false
	cols := []Column{
		{Name: "s", Type: "string"}, {Name: "i32", Type: "int32"}, {Name: "i64", Type: "int64", Nullable: &no},
		{Name: "f", Type: "float"}, {Name: "d", Type: "double"}, {Name: "b", Type: "bool"},
		{Name: "ts", Type: "timestamp"}, {Name: "day", Type: "date"}, {Name: "raw", Type: "bytes"}, {Name: "j", Type: "json"},
	}
	schema, err := NewSchema(cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, compression := range []string{"zstd", "none"} {
		t.Run(compression, func(t *testing.T) {
			f, err := NewFormat(schema, Options{Format: Parquet, Compression: compression, RowGroupRecords: 700})
			if err != nil {
				t.Fatal(err)
			}
			var rows [][]Value
			for i := range 2000 {
				null := i%5 == 3
				v := func(val Value) Value {
					if null {
						return Value{Null: true}
					}
					return val
				}
				rows = append(rows, []Value{
					v(Value{Bytes: fmt.Appendf(nil, "text %d é", i)}),
					v(Value{Int: int64(int32(i * -7919))}),
					{Int: int64(i) * math.MaxInt32},
					v(Value{Float: float64(float32(i) / 3)}),
					v(Value{Float: float64(i) / 7}),
					v(Value{Int: int64(i % 2)}),
					v(Value{Int: 1767225600000 + int64(i)}),
					v(Value{Int: 20000 + int64(i)}),
					v(Value{Bytes: []byte{0, byte(i), 0xff}}),
					v(Value{Bytes: fmt.Appendf(nil, `{"n":%d}`, i)}),
				})
			}
			var buf bytes.Buffer
			enc := f.NewEncoder(&buf)
			for _, r := range rows {
				if err := enc.Append(nil, r); err != nil {
					t.Fatal(err)
				}
			}
			if err := enc.Close(); err != nil {
				t.Fatal(err)
			}
			var got [][]Value
			err = ReadParquet(buf.Bytes(), schema, func(vals []Value) error {
				got = append(got, append([]Value(nil), vals...))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(rows) {
				t.Fatalf("%d rows read, %d written", len(got), len(rows))
			}
			for i := range rows {
				if !reflect.DeepEqual(got[i], rows[i]) {
					t.Fatalf("row %d: read %+v, wrote %+v", i, got[i], rows[i])
				}
			}
		})
	}
}

// TestReadParquetRefusesOtherColumns: a file written with other columns (a
// layout changed since) is refused, not read into the wrong columns.
func TestReadParquetRefusesOtherColumns(t *testing.T) {
	a, _ := NewSchema([]Column{{Name: "id", Type: "int64"}, {Name: "note", Type: "string"}})
	b, _ := NewSchema([]Column{{Name: "id", Type: "int64"}, {Name: "amount", Type: "double"}})
	c, _ := NewSchema([]Column{{Name: "id", Type: "int64"}})
	f, _ := NewFormat(a, Options{Format: Parquet})
	var buf bytes.Buffer
	enc := f.NewEncoder(&buf)
	if err := enc.Append(nil, []Value{{Int: 1}, {Bytes: []byte("x")}}); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		s    *Schema
		want string
	}{
		{b, `column 2 of the file is "note", the sink writes "amount" there`},
		{c, "the file has 2 columns, the sink writes 1"},
	} {
		err := ReadParquet(buf.Bytes(), tc.s, func([]Value) error { return nil })
		if err == nil || err.Error() != tc.want {
			t.Errorf("ReadParquet: %v, want %q", err, tc.want)
		}
	}
}
