package parquet

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	pq "github.com/parquet-go/parquet-go/format"

	"github.com/streamctl/streamctl/internal/format/parquettest"
	"github.com/streamctl/streamctl/internal/format/row"
)

// kind is the kind a column of type typ has.
func kind(typ string) row.Kind {
	k, err := row.ParseKind(typ)
	if err != nil {
		panic(err)
	}
	return k
}

// jsonValues is the row of rec, a JSON object of the columns' values: what
// the format package's extractor makes of it, for the kinds the tests use
// (timestamps as epoch milliseconds).
func jsonValues(t testing.TB, cols []Column, rec string) []row.Value {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(rec))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	vals := make([]row.Value, len(cols))
	for i, c := range cols {
		v, ok := m[c.Name]
		if !ok || v == nil {
			vals[i] = row.Value{Null: true}
			continue
		}
		var err error
		switch c.Kind {
		case row.KindString:
			vals[i] = row.Value{Bytes: []byte(v.(string)), Token: row.TokString}
		case row.KindJSON:
			vals[i].Bytes, err = json.Marshal(v)
			vals[i].Token = row.TokObject
		case row.KindBool:
			if v.(bool) {
				vals[i].Int = 1
			}
		case row.KindFloat, row.KindDouble:
			vals[i].Float, err = v.(json.Number).Float64()
		default:
			vals[i].Int, err = v.(json.Number).Int64()
		}
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
	}
	return vals
}

// encodeJSON writes records (see jsonValues) as one file, returning its bytes.
func encodeJSON(t testing.TB, cols []Column, o Options, recs []string) []byte {
	t.Helper()
	f, err := NewFormat(cols, o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := f.NewEncoder(&buf)
	for _, r := range recs {
		if err := enc.Append(nil, jsonValues(t, cols, r)); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// roundTripRecords makes n records over every type: nulls in a pattern per
// column, values that cross page boundaries, a few values larger than a
// block, floats with NaN and both zeros.
func roundTripRecords(n int) []string {
	recs := make([]string, n)
	for i := range recs {
		m := map[string]any{"id": i}
		if i%3 != 0 {
			m["s"] = fmt.Sprintf("s%05d-%s", (i*7919)%n, strings.Repeat("x", i%40))
		}
		if i == 1234 || i == 2500 {
			m["s"] = strings.Repeat("L", 3*blockSize+i) // a page of its own
		}
		if i%5 != 1 {
			m["i32"] = int32(i*2654435761) >> 3
		}
		if i%7 != 2 {
			m["i64"] = int64(i) * -1e12
		}
		if i%2 == 0 {
			m["b"] = i%4 == 0
		}
		if i%11 != 3 {
			m["d"] = []any{-0.0, 0.0, 1.5, -2.25, float64(i) / 3}[i%5]
		}
		if i%13 != 4 {
			m["f"] = float32(i) - 100.5
		}
		if i%17 != 5 {
			m["ts"] = 1767225600000 + int64(i)*61_000
		}
		if i%6 == 0 {
			m["j"] = map[string]any{"n": i}
		}
		b, _ := json.Marshal(m)
		recs[i] = string(b)
	}
	return recs
}

var roundTripColumns = []Column{
	{Name: "id", Kind: row.KindInt64},
	{Name: "s", Kind: row.KindString, Nullable: true},
	{Name: "i32", Kind: row.KindInt32, Nullable: true},
	{Name: "i64", Kind: row.KindInt64, Nullable: true},
	{Name: "b", Kind: row.KindBool, Nullable: true},
	{Name: "d", Kind: row.KindDouble, Nullable: true},
	{Name: "f", Kind: row.KindFloat, Nullable: true},
	{Name: "ts", Kind: row.KindTimestamp, Nullable: true},
	{Name: "j", Kind: row.KindJSON, Nullable: true},
	{Name: "never", Kind: row.KindString, Nullable: true}, // null in every row
}

// Every value, null and statistic survives the trip through many pages and
// row groups, as parquet-go reads them back.
func TestParquetRoundTrip(t *testing.T) {
	const n = 6000
	recs := roundTripRecords(n)
	for _, comp := range Compressions {
		t.Run(comp, func(t *testing.T) {
			data := encodeJSON(t, roundTripColumns, Options{Compression: comp, RowGroupRecords: 2500}, recs)
			rows := parquettest.ReadRows(t, data)
			if len(rows) != n {
				t.Fatalf("%d rows, want %d", len(rows), n)
			}
			for i, r := range rows {
				var want map[string]any
				json.Unmarshal([]byte(recs[i]), &want)
				for _, c := range roundTripColumns {
					got, w := r[c.Name], want[c.Name]
					if w == nil {
						if got != nil {
							t.Fatalf("row %d %s = %v, want null", i, c.Name, got)
						}
						continue
					}
					var ok bool
					switch c.Kind.String() {
					case "string":
						ok = got == w
					case "int32", "int64":
						ok = fmt.Sprint(got) == fmt.Sprint(int64(w.(float64)))
					case "timestamp": // parquet-go's map reader gives epoch ms or a time
						tm, isTime := got.(time.Time)
						ok = isTime && tm.UnixMilli() == int64(w.(float64)) || fmt.Sprint(got) == fmt.Sprint(int64(w.(float64)))
					case "bool":
						ok = got == w
					case "double":
						ok = got == w.(float64)
					case "float":
						ok = got == float32(w.(float64))
					case "json":
						ok = got != nil
					}
					if !ok {
						t.Fatalf("row %d %s = %#v, want %#v", i, c.Name, got, w)
					}
				}
			}

			f := parquettest.Open(t, data)
			meta := f.Metadata()
			if len(meta.RowGroups) != 3 {
				t.Fatalf("%d row groups, want 3", len(meta.RowGroups))
			}
			pages := 0
			for g, rg := range meta.RowGroups {
				first, last := g*2500, min((g+1)*2500, n)
				for c, cc := range rg.Columns {
					checkStats(t, roundTripColumns[c], cc.MetaData, recs[first:last])
				}
				// Pages are cut at the block size (values and levels together).
				pg := f.RowGroups()[g].ColumnChunks()[1].Pages()
				for {
					if _, err := pg.ReadPage(); err != nil {
						break
					}
					pages++
				}
				pg.Close()
			}
			if pages < 6 {
				t.Errorf("column s has %d pages: the test does not cross page boundaries", pages)
			}
		})
	}
}

// checkStats compares a column chunk's statistics with the values of recs.
func checkStats(t *testing.T, c Column, md pq.ColumnMetaData, recs []string) {
	t.Helper()
	var nulls int64
	var lo, hi any
	for _, r := range recs {
		var m map[string]any
		json.Unmarshal([]byte(r), &m)
		v, ok := m[c.Name]
		if !ok || v == nil {
			nulls++
			continue
		}
		switch c.Kind.String() {
		case "string":
			s := v.(string)
			if lo == nil || s < lo.(string) {
				lo = s
			}
			if hi == nil || s > hi.(string) {
				hi = s
			}
		case "bool":
			x := 0.0
			if v.(bool) {
				x = 1
			}
			lo, hi = min(x, orDefault(lo, x)), max(x, orDefault(hi, x))
		case "double", "float", "int32", "int64", "timestamp":
			x := v.(float64)
			if c.Kind == row.KindFloat {
				x = float64(float32(x))
			}
			if lo == nil || x < lo.(float64) {
				lo = x
			}
			if hi == nil || x > hi.(float64) {
				hi = x
			}
		}
	}
	st := md.Statistics
	if st.NullCount != nulls {
		t.Errorf("%s: null_count %d, want %d", c.Name, st.NullCount, nulls)
	}
	if md.NumValues != int64(len(recs)) {
		t.Errorf("%s: num_values %d, want %d", c.Name, md.NumValues, len(recs))
	}
	if c.Kind == row.KindJSON {
		return
	}
	if lo == nil {
		if st.MinValue != nil || st.MaxValue != nil {
			t.Errorf("%s: min/max of no values", c.Name)
		}
		return
	}
	switch c.Kind.String() {
	case "string":
		// Exact when short; else a prefix of the min, and a max above the
		// max no longer than the bound.
		gotLo, gotHi, wantLo, wantHi := string(st.MinValue), string(st.MaxValue), lo.(string), hi.(string)
		if len(wantLo) <= maxStatBytes && gotLo != wantLo || !strings.HasPrefix(wantLo, gotLo) || len(gotLo) > maxStatBytes {
			t.Errorf("%s: min %.30q, want %.30q", c.Name, gotLo, wantLo)
		}
		if len(wantHi) <= maxStatBytes && gotHi != wantHi || gotHi < wantHi || len(gotHi) > maxStatBytes {
			t.Errorf("%s: max %.30q, want %.30q", c.Name, gotHi, wantHi)
		}
	case "double":
		gotLo := math.Float64frombits(binary.LittleEndian.Uint64(st.MinValue))
		gotHi := math.Float64frombits(binary.LittleEndian.Uint64(st.MaxValue))
		if gotLo != lo || gotHi != hi {
			t.Errorf("%s: min %v max %v, want %v %v", c.Name, gotLo, gotHi, lo, hi)
		}
		if gotLo == 0 && !math.Signbit(gotLo) || gotHi == 0 && math.Signbit(gotHi) {
			t.Errorf("%s: a zero min must be -0 and a zero max +0: %v %v", c.Name, gotLo, gotHi)
		}
	case "float":
		gotLo := math.Float32frombits(binary.LittleEndian.Uint32(st.MinValue))
		gotHi := math.Float32frombits(binary.LittleEndian.Uint32(st.MaxValue))
		if float64(gotLo) != lo || float64(gotHi) != hi {
			t.Errorf("%s: min %v max %v, want %v %v", c.Name, gotLo, gotHi, lo, hi)
		}
	case "bool":
		if float64(st.MinValue[0]) != lo || float64(st.MaxValue[0]) != hi {
			t.Errorf("%s: min %v max %v, want %v %v", c.Name, st.MinValue, st.MaxValue, lo, hi)
		}
	case "int64", "timestamp":
		gotLo, gotHi := int64(binary.LittleEndian.Uint64(st.MinValue)), int64(binary.LittleEndian.Uint64(st.MaxValue))
		if float64(gotLo) != lo || float64(gotHi) != hi {
			t.Errorf("%s: min %v max %v, want %v %v", c.Name, gotLo, gotHi, lo, hi)
		}
	case "int32":
		gotLo, gotHi := int32(binary.LittleEndian.Uint32(st.MinValue)), int32(binary.LittleEndian.Uint32(st.MaxValue))
		if float64(gotLo) != lo || float64(gotHi) != hi {
			t.Errorf("%s: min %v max %v, want %v %v", c.Name, gotLo, gotHi, lo, hi)
		}
	}
}

func orDefault(v any, d float64) float64 {
	if v == nil {
		return d
	}
	return v.(float64)
}

// NaN is left out of the min and max, as the format requires.
func TestParquetFloatStatsSkipNaN(t *testing.T) {
	var s columnStats
	for _, v := range []float64{math.NaN(), 2, math.NaN(), -1, 0} {
		s.observeFloat(v)
	}
	st := s.parquet(pq.Double, false, 0, 0)
	lo := math.Float64frombits(binary.LittleEndian.Uint64(st.MinValue))
	hi := math.Float64frombits(binary.LittleEndian.Uint64(st.MaxValue))
	if lo != -1 || hi != 2 {
		t.Fatalf("min %v max %v, want -1 2", lo, hi)
	}
	var none columnStats
	none.observeFloat(math.NaN())
	if st := none.parquet(pq.Double, false, 0, 0); st.MinValue != nil {
		t.Fatalf("min/max of NaN only: %v", st)
	}
}

// noteRow is row i of the Buffered tests: an id and a note of i%50 bytes.
func noteRow(i int) []row.Value {
	return []row.Value{{Int: int64(i), Token: row.TokNumber}, {Bytes: bytes.Repeat([]byte("n"), i%50), Token: row.TokString}}
}

// Flush ends the row group where it is called, Buffered counts blocks,
// and the blocks go back to the pool.
func TestParquetFlushAndBuffered(t *testing.T) {
	f, _ := NewFormat([]Column{{Name: "id", Kind: row.KindInt64, Nullable: true}, {Name: "note", Kind: row.KindString, Nullable: true}}, Options{})
	var buf bytes.Buffer
	enc := f.NewEncoder(&buf)
	if enc.Buffered() != 0 {
		t.Fatalf("Buffered of a new encoder = %d", enc.Buffered())
	}
	for i := range 30000 {
		if err := enc.Append(nil, noteRow(i)); err != nil {
			t.Fatal(err)
		}
		if i == 9999 {
			if b := enc.Buffered(); b < 4*blockSize {
				t.Fatalf("Buffered = %d after 10000 records: want several blocks", b)
			}
			if err := enc.Flush(); err != nil {
				t.Fatal(err)
			}
			if b := enc.Buffered(); b >= blockSize { // the levels' small buffer stays
				t.Fatalf("Buffered = %d after Flush", b)
			}
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for _, rg := range parquettest.Open(t, buf.Bytes()).RowGroups() {
		sizes = append(sizes, rg.NumRows())
	}
	if fmt.Sprint(sizes) != "[10000 20000]" {
		t.Fatalf("row groups %v, want [10000 20000]", sizes)
	}
}

// Pages are compressed on a goroutine of their own, but Buffered must not
// depend on how far it got: the pipeline's flush decisions, and so the
// files' bytes, are taken from it.
func TestParquetBufferedIgnoresCompressionProgress(t *testing.T) {
	f, _ := NewFormat([]Column{{Name: "id", Kind: row.KindInt64, Nullable: true}, {Name: "note", Kind: row.KindString, Nullable: true}}, Options{})
	enc := f.NewEncoder(io.Discard)
	defer enc.Abort()
	for i := range 20000 {
		if err := enc.Append(nil, noteRow(i)); err != nil {
			t.Fatal(err)
		}
	}
	before := enc.Buffered()
	time.Sleep(50 * time.Millisecond) // the compressor catches up meanwhile
	if after := enc.Buffered(); after != before {
		t.Fatalf("Buffered changed from %d to %d with no record appended", before, after)
	}
}

// An encoder dropped unfinished stops its compressor goroutine.
func TestParquetAbortStopsTheCompressor(t *testing.T) {
	f, _ := NewFormat([]Column{{Name: "id", Kind: row.KindInt64, Nullable: true}}, Options{})
	base := runtime.NumGoroutine()
	for range 10 {
		enc := f.NewEncoder(io.Discard)
		for i := range 50000 { // several pages
			if err := enc.Append(nil, []row.Value{{Int: int64(i)}}); err != nil {
				t.Fatal(err)
			}
		}
		enc.Abort()
	}
	// A goroutine that closed its done channel may not have exited yet, nor
	// one left by an earlier test: wait for them, as a leak of one per
	// encoder would not go away.
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(2 * time.Second); n > base && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	if n > base {
		t.Fatalf("%d goroutines after 10 aborted encoders, %d before", n, base)
	}
}

// Column statistics decide most byte-array comparisons on 8-byte keys: the
// min and max must still be bytes.Compare's.
func TestByteStatsMatchCompare(t *testing.T) {
	vals := [][]byte{
		[]byte(""), []byte("\x00"), []byte("a"), []byte("a\x00"), []byte("a\x00b"), []byte("ab"),
		[]byte("abcdefgh"), []byte("abcdefgh\x00"), []byte("abcdefghi"), []byte("abcdefgg\xff"),
		[]byte("\xff\xff\xff\xff\xff\xff\xff\xff"), []byte("\xff\xff\xff\xff\xff\xff\xff\xff\x00"), []byte("zz"),
	}
	r := rand.New(rand.NewPCG(1, 1))
	for range 2000 {
		order := r.Perm(len(vals))[:1+r.IntN(len(vals))]
		var s columnStats
		lo, hi := vals[order[0]], vals[order[0]]
		for _, i := range order {
			s.observeBytes(vals[i])
			if bytes.Compare(vals[i], lo) < 0 {
				lo = vals[i]
			}
			if bytes.Compare(vals[i], hi) > 0 {
				hi = vals[i]
			}
		}
		if !bytes.Equal(s.minBytes, lo) || !bytes.Equal(s.maxBytes, hi) {
			t.Fatalf("values %v in that order: min %q max %q, want %q and %q", order, s.minBytes, s.maxBytes, lo, hi)
		}
	}
}

// Buffered counts a value larger than a block as its PLAIN size: the level
// room kept in front of it is not counted, as earlier versions did not have
// it (Buffered decides where row groups end, and so the files' bytes).
func TestBufferedLargeValue(t *testing.T) {
	// Not nullable: no definition levels to count.
	f, err := NewFormat([]Column{{Name: "note", Kind: row.KindString}}, Options{Compression: "none"})
	if err != nil {
		t.Fatal(err)
	}
	enc := f.NewEncoder(io.Discard)
	defer enc.Abort()
	big := bytes.Repeat([]byte("x"), 70_000)
	if err := enc.Append(nil, []row.Value{{Bytes: big, Token: row.TokString}}); err != nil {
		t.Fatal(err)
	}
	if got, want := enc.Buffered(), int64(4+len(big)); got != want {
		t.Errorf("Buffered with one value of %d bytes = %d, want %d", len(big), got, want)
	}
}
