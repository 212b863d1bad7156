package format_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/providers"
)

// arrowJSON reads a Parquet file with arrow-go and returns each row as
// generic JSON (column name → value): structs as objects, lists as arrays,
// maps as objects, in the order arrow-go reads their entries.
func arrowJSON(t testing.TB, data []byte) []map[string]any {
	t.Helper()
	rdr, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("arrow-go cannot read the file: %v", err)
	}
	defer rdr.Close()
	fr, err := pqarrow.NewFileReader(rdr, pqarrow.ArrowReadProperties{BatchSize: 1 << 10}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatalf("arrow-go cannot read the file: %v", err)
	}
	defer tbl.Release()
	var rows []map[string]any
	for c := range int(tbl.NumCols()) {
		name := tbl.Column(c).Name()
		r := 0
		for _, chunk := range tbl.Column(c).Data().Chunks() {
			for i := range chunk.Len() {
				if r == len(rows) {
					rows = append(rows, map[string]any{})
				}
				rows[r][name] = arrowValue(chunk, i)
				r++
			}
		}
	}
	return rows
}

func arrowValue(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Struct:
		m := map[string]any{}
		st := a.DataType().(*arrow.StructType)
		for f := range a.NumField() {
			m[st.Field(f).Name] = arrowValue(a.Field(f), i)
		}
		return m
	case *array.Map: // before List: a Map is a List too
		m := map[string]any{}
		start, end := a.ValueOffsets(i)
		for k := start; k < end; k++ {
			m[fmt.Sprint(arrowValue(a.Keys(), int(k)))] = arrowValue(a.Items(), int(k))
		}
		return m
	case *array.List:
		out := []any{}
		start, end := a.ValueOffsets(i)
		for k := start; k < end; k++ {
			out = append(out, arrowValue(a.ListValues(), int(k)))
		}
		return out
	case *array.Int32:
		return float64(a.Value(i))
	case *array.Int64:
		return float64(a.Value(i))
	case *array.Float32:
		return float64(a.Value(i))
	case *array.Float64:
		return a.Value(i)
	case *array.Boolean:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
	}
	panic("arrow type " + a.DataType().String())
}

// writeNested writes the records with columns cols as one Parquet file and
// returns it, and each record's columns as the extractor normalised them
// (generic JSON, decimals as their text).
func writeNested(t testing.TB, cols []format.Column, records []string) ([]byte, []map[string]any) {
	t.Helper()
	s, err := format.NewSchema(cols)
	if err != nil {
		t.Fatal(err)
	}
	x, err := format.NewExtractor(s.Fields())
	if err != nil {
		t.Fatal(err)
	}
	f, err := format.NewFormat(s, format.Options{Format: format.Parquet, RowGroupRecords: 7})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := f.NewEncoder(&buf)
	var want []map[string]any
	vals := make([]format.Value, len(cols))
	for _, r := range records {
		if err := x.Extract(&providers.Record{Value: []byte(r)}, vals); err != nil {
			continue // invalid records are the extractor's tests' business
		}
		if err := enc.Append(nil, vals); err != nil {
			t.Fatal(err)
		}
		row := map[string]any{}
		for i, c := range cols {
			if vals[i].Null {
				row[c.Name] = nil
				continue
			}
			if s.Kinds[i] == format.KindInt64 || s.Kinds[i] == format.KindInt32 {
				row[c.Name] = float64(vals[i].Int)
				continue
			}
			var v any
			d := json.NewDecoder(bytes.NewReader(vals[i].Bytes))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				t.Fatalf("%s: %s is not JSON: %v", c.Name, vals[i].Bytes, err)
			}
			row[c.Name] = numbers(v, s.Types[i])
		}
		want = append(want, row)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), want
}

// numbers turns the json.Numbers of a value of type t into what
// arrowValue gives: a decimal's text, float64 for the others.
func numbers(v any, t *format.Type) any {
	switch v := v.(type) {
	case json.Number:
		if t.Kind == format.KindDecimal {
			return string(v)
		}
		f, _ := v.Float64()
		return f
	case []any:
		for i := range v {
			v[i] = numbers(v[i], t.Elem)
		}
	case map[string]any:
		if t.Kind == format.KindMap {
			for k := range v {
				v[k] = numbers(v[k], t.Elem)
			}
			break
		}
		for _, f := range t.Fields {
			v[f.Name] = numbers(v[f.Name], f.Type)
		}
	}
	return v
}

func checkNested(t testing.TB, cols []format.Column, records []string) {
	t.Helper()
	data, want := writeNested(t, cols, records)
	got := arrowJSON(t, data)
	if len(got) != len(want) {
		t.Fatalf("arrow-go reads %d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			g, _ := json.Marshal(got[i])
			w, _ := json.Marshal(want[i])
			t.Fatalf("row %d: arrow-go reads\n%s\nwant\n%s", i, g, w)
		}
	}
}

// arrow-go reads nested Parquet columns back as the extractor normalised
// them: structs, lists and maps nested in each other, nulls at every level,
// empty lists and maps, across row groups.
func TestParquetNestedArrow(t *testing.T) {
	cols := []format.Column{
		{Name: "id", Type: "int64", Nullable: new(bool)},
		{Name: "s", Type: "struct<a:int32,b:string,c:struct<d:double,e:list<int64>>>"},
		{Name: "l", Type: "list<list<string>>"},
		{Name: "m", Type: "map<string,struct<x:decimal(20,2),y:list<bool>>>"},
		{Name: "r", Type: "list<int32>", Nullable: new(bool)},
	}
	var recs []string
	for i := range 40 {
		recs = append(recs, fmt.Sprintf(`{"id":%d,"s":{"a":%d,"b":"x%d","c":{"d":%d.5,"e":[1,%d]}},"l":[["a","b"],[],null,["c"]],"m":{"k":{"x":"%d.25","y":[true,null,false]},"z":null},"r":[%d]}`, i, i, i, i, i, i, i))
		recs = append(recs, fmt.Sprintf(`{"id":%d,"s":null,"l":[],"m":{},"r":[]}`, 1000+i))
		recs = append(recs, fmt.Sprintf(`{"id":%d,"s":{"c":{"e":[]}},"l":[null,[null]],"r":[1,2,3]}`, 2000+i))
	}
	checkNested(t, cols, recs)
}

// FuzzParquetNested is the differential test of nested columns against
// arrow-go: random types, random records, read back as normalised.
func FuzzParquetNested(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(7), uint64(99))
	f.Add(uint64(12345), uint64(6789))
	f.Fuzz(func(t *testing.T, seed1, seed2 uint64) {
		r := rand.New(rand.NewPCG(seed1, seed2))
		cols := []format.Column{{Name: "id", Type: "int64"}}
		for c := range 1 + r.IntN(3) {
			cols = append(cols, format.Column{Name: fmt.Sprintf("c%d", c), Type: randomType(r, 0), Nullable: ptr(r.IntN(3) > 0)})
		}
		var recs []string
		for i := range r.IntN(30) {
			var b strings.Builder
			fmt.Fprintf(&b, `{"id":%d`, i)
			for _, c := range cols[1:] {
				typ, _ := format.ParseType(c.Type)
				fmt.Fprintf(&b, `,%q:%s`, c.Name, randomValue(r, typ, !c.IsNullable()))
			}
			b.WriteString("}")
			recs = append(recs, b.String())
		}
		checkNested(t, cols, recs)
	})
}

func ptr[T any](v T) *T { return &v }

var leafTypes = []string{"int32", "int64", "double", "bool", "string", "decimal(9,2)", "decimal(25,3)"}

func randomType(r *rand.Rand, depth int) string {
	k := r.IntN(6)
	if depth >= 3 {
		k = 3
	}
	switch k {
	case 0:
		var fields []string
		for i := range 1 + r.IntN(3) {
			fields = append(fields, fmt.Sprintf("f%d:%s", i, randomType(r, depth+1)))
		}
		return "struct<" + strings.Join(fields, ",") + ">"
	case 1:
		return "list<" + randomType(r, depth+1) + ">"
	case 2:
		return "map<string," + randomType(r, depth+1) + ">"
	}
	if depth == 0 {
		return "list<" + leafTypes[r.IntN(len(leafTypes))] + ">"
	}
	return leafTypes[r.IntN(len(leafTypes))]
}

func randomValue(r *rand.Rand, t *format.Type, required bool) string {
	if !required && r.IntN(6) == 0 {
		return "null"
	}
	switch t.Kind {
	case format.KindStruct:
		var parts []string
		for _, f := range t.Fields {
			if r.IntN(5) == 0 {
				continue // missing: null
			}
			parts = append(parts, fmt.Sprintf("%q:%s", f.Name, randomValue(r, f.Type, false)))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case format.KindList:
		var parts []string
		for range r.IntN(4) {
			parts = append(parts, randomValue(r, t.Elem, false))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case format.KindMap:
		var parts []string
		for i := range r.IntN(4) {
			parts = append(parts, fmt.Sprintf(`"k%d":%s`, i, randomValue(r, t.Elem, false)))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case format.KindInt32, format.KindInt64:
		return fmt.Sprint(r.IntN(2000) - 1000)
	case format.KindDouble:
		return fmt.Sprint(float64(r.IntN(2000)-1000) / 8)
	case format.KindBool:
		return fmt.Sprint(r.IntN(2) == 0)
	case format.KindString:
		return fmt.Sprintf("%q", []string{"", "a", "é", "x\"y", strings.Repeat("z", r.IntN(300))}[r.IntN(5)])
	case format.KindDecimal:
		if t.Precision > 18 {
			return fmt.Sprintf(`"%d%018d.%03d"`, r.IntN(1000), r.Int64N(1e18), r.IntN(1000))
		}
		return fmt.Sprintf("%d.%02d", r.IntN(100000)-50000, r.IntN(100))
	}
	panic(t.String())
}
