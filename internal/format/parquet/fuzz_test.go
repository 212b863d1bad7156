package parquet

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/streamctl/streamctl/internal/format/row"
)

// fuzzInput turns the fuzzer's bytes into decisions; past their end every
// decision is 0, so a short input is a small file.
type fuzzInput struct{ b []byte }

func (in *fuzzInput) byte() byte {
	if len(in.b) == 0 {
		return 0
	}
	c := in.b[0]
	in.b = in.b[1:]
	return c
}

func (in *fuzzInput) intn(n int) int {
	if n <= 256 {
		return int(in.byte()) % n
	}
	return int(uint16(in.byte())<<8|uint16(in.byte())) % n
}

func (in *fuzzInput) uint64() uint64 {
	var v uint64
	for range 8 {
		v = v<<8 | uint64(in.byte())
	}
	return v
}

// fuzzRunes are the characters strings are made of: ASCII, the largest
// code points of each UTF-8 length, those next to the surrogates, and the
// last one.
var fuzzRunes = []rune{'a', 'b', 'x', 'y', 'z', '0', ' ', 0, 0x7f, 0x80, 'é', 'ü', 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfffd, 0xffff, 0x10000, 0x10fffe, utf8.MaxRune}

var fuzzKinds = []row.Kind{row.KindString, row.KindInt32, row.KindInt64, row.KindFloat, row.KindDouble, row.KindBool, row.KindTimestamp, row.KindDate, row.KindBytes, row.KindJSON, row.KindDecimal}

// fuzzDecimal is a decimal of precision prec: an unscaled integer of at
// most prec digits, in Value.Int up to 18 digits, else 16 bytes.
func fuzzDecimal(in *fuzzInput, prec int) row.Value {
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(prec)), nil) // 10^prec, one above the largest
	var n *big.Int
	switch in.intn(6) {
	case 0:
		n = new(big.Int).Sub(limit, big.NewInt(1))
	case 1:
		n = new(big.Int).Sub(big.NewInt(1), limit)
	case 2:
		n = big.NewInt(int64(in.intn(3)) - 1)
	default:
		n = new(big.Int).SetUint64(in.uint64())
		n.Lsh(n, 64).Or(n, new(big.Int).SetUint64(in.uint64())).Mod(n, limit)
		if in.intn(2) == 0 {
			n.Neg(n)
		}
	}
	if prec <= row.MaxDecimal64Precision {
		return row.Value{Int: n.Int64(), Token: row.TokNumber}
	}
	return row.Value{Bytes: int128Of(n), Token: row.TokNumber}
}

// int128Of is n as 16 bytes of big-endian two's complement.
func int128Of(n *big.Int) []byte {
	u := new(big.Int).Set(n)
	if u.Sign() < 0 {
		u.Add(u, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	return u.FillBytes(make([]byte, 16))
}

// decimalOf is the unscaled integer of a fuzzDecimal value.
func decimalOf(v row.Value, prec int) *big.Int {
	if prec <= row.MaxDecimal64Precision {
		return big.NewInt(v.Int)
	}
	n := new(big.Int).SetBytes(v.Bytes)
	if v.Bytes[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	return n
}

// fuzzValue is a value for a column of kind typ.
func fuzzValue(in *fuzzInput, typ string) row.Value {
	switch typ {
	case "string", "bytes", "json":
		n := in.intn(12)
		switch in.intn(16) {
		case 0:
			n = maxStatBytes - 2 + in.intn(5) // around the statistics' bound
		case 1:
			n = maxStatBytes + in.intn(600)
		case 2:
			if in.intn(4) == 0 {
				n = blockSize + in.intn(blockSize) // a page of its own
			}
		}
		// A few runs of one byte or character each: long values cost the
		// fuzzer a few decisions, not one per byte.
		var b []byte
		for runs := 1 + in.intn(4); len(b) < n; runs-- {
			k := n - len(b)
			if runs > 1 {
				k = 1 + in.intn(k)
			}
			if typ == "bytes" {
				b = append(b, bytes.Repeat([]byte{[]byte{0, 'a', 0xfe, 0xff, in.byte()}[in.intn(5)]}, k)...)
				continue
			}
			r := string(fuzzRunes[in.intn(len(fuzzRunes))])
			b = append(b, strings.Repeat(r, (k+len(r)-1)/len(r))...)
		}
		if typ == "json" { // JSON text: a string
			b, _ = json.Marshal(string(b))
		}
		return row.Value{Bytes: b, Token: row.TokString}
	case "int32", "date":
		special := []int64{0, 1, -1, math.MinInt32, math.MaxInt32}
		if k := in.intn(8); k < len(special) {
			return row.Value{Int: special[k]}
		}
		return row.Value{Int: int64(int32(in.uint64()))}
	case "int64", "timestamp":
		special := []int64{0, 1, -1, math.MinInt64, math.MaxInt64}
		if k := in.intn(8); k < len(special) {
			return row.Value{Int: special[k]}
		}
		return row.Value{Int: int64(in.uint64())}
	case "float", "double":
		special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1.5, -2.25, math.SmallestNonzeroFloat64, math.MaxFloat32}
		var f float64
		if k := in.intn(12); k < len(special) {
			f = special[k]
		} else {
			f = math.Float64frombits(in.uint64())
		}
		if typ == "float" {
			f = float64(float32(f))
		}
		return row.Value{Float: f}
	case "bool":
		return row.Value{Int: int64(in.intn(2))}
	}
	panic(typ)
}

// fuzzRoundTrip writes a file of random columns, values, nulls, pages,
// row groups and early flushes with streamctl's encoder, reads it with
// arrow-go, and compares every value, the row groups and their statistics.
func fuzzRoundTrip(t *testing.T, data []byte) {
	in := &fuzzInput{b: data}
	cols := make([]Column, 1+in.intn(6))
	nullRate := make([]int, len(cols))
	for i := range cols {
		nullable := in.intn(2) == 0
		cols[i] = Column{Name: fmt.Sprintf("c%d", i), Kind: fuzzKinds[in.intn(len(fuzzKinds))], Nullable: nullable}
		if cols[i].Kind == row.KindDecimal {
			cols[i].Precision = 1 + in.intn(row.MaxDecimalPrecision)
			cols[i].Scale = in.intn(cols[i].Precision + 1)
		}
		if nullable {
			nullRate[i] = in.intn(5) // in quarters: 4 is every row
		}
	}
	o := Options{Compression: Compressions[in.intn(len(Compressions))], RowGroupRecords: int64(1 + in.intn(300))}
	nRows := in.intn(800)

	f, err := NewFormat(cols, o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := f.NewEncoder(&buf)
	rows := make([][]row.Value, nRows)
	var groups []int // rows per row group, as the encoder must cut them
	inGroup := 0
	for r := range rows {
		vals := make([]row.Value, len(cols))
		for c, col := range cols {
			if nullRate[c] > 0 && in.intn(4) < nullRate[c] {
				vals[c] = row.Value{Null: true}
			} else if col.Kind == row.KindDecimal {
				vals[c] = fuzzDecimal(in, col.Precision)
			} else {
				vals[c] = fuzzValue(in, col.Kind.String())
			}
		}
		rows[r] = vals
		if err := enc.Append(nil, vals); err != nil {
			t.Fatal(err)
		}
		if inGroup++; inGroup == int(o.RowGroupRecords) {
			groups, inGroup = append(groups, inGroup), 0
		}
		if in.intn(64) == 0 { // the pipeline ends row groups early
			if err := enc.Flush(); err != nil {
				t.Fatal(err)
			}
			if inGroup > 0 {
				groups, inGroup = append(groups, inGroup), 0
			}
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	if inGroup > 0 {
		groups = append(groups, inGroup)
	}

	file, err := arrowReadErr(buf.Bytes())
	if err != nil {
		t.Fatalf("%v: arrow-go cannot read the file: %v", cols, err)
	}
	if len(file.columns) != len(cols) {
		t.Fatalf("arrow-go reads %d columns, want %d", len(file.columns), len(cols))
	}
	for c, col := range cols {
		got := file.columns[c]
		if len(got) != nRows {
			t.Fatalf("%s %s: arrow-go reads %d values, want %d", col.Name, col.Kind, len(got), nRows)
		}
		for r, vals := range rows {
			if col.Kind == row.KindDecimal {
				want := any(nil)
				if !vals[c].Null {
					want = decimalText(decimalOf(vals[c], col.Precision).String())
				}
				if got[r] != want {
					t.Fatalf("%s decimal(%d,%d) row %d: arrow-go reads %v, want %v", col.Name, col.Precision, col.Scale, r, got[r], want)
				}
				continue
			}
			if !sameValue(col.Kind.String(), vals[c], got[r]) {
				t.Fatalf("%s %s row %d: arrow-go reads %.40v, want %.40v", col.Name, col.Kind, r, got[r], fuzzDescribe(col.Kind.String(), vals[c]))
			}
		}
	}
	if len(file.rowGroups) != len(groups) {
		t.Fatalf("arrow-go reads %d row groups, want %d", len(file.rowGroups), len(groups))
	}
	first := 0
	for g, rg := range file.rowGroups {
		if rg.rows != int64(groups[g]) || int(rg.ordinal) != g {
			t.Fatalf("row group %d: %d rows, ordinal %d; want %d rows", g, rg.rows, rg.ordinal, groups[g])
		}
		part := rows[first : first+groups[g]]
		for c, col := range cols {
			what := fmt.Sprintf("row group %d %s %s", g, col.Name, col.Kind)
			if col.Kind == row.KindDecimal {
				checkDecimalStats(t, what, col.Precision, rg.cols[c], part, c)
				continue
			}
			checkFuzzStats(t, what, col.Kind.String(), rg.cols[c], part, c)
		}
		first += groups[g]
	}
}

func sameValue(typ string, want row.Value, got any) bool {
	if want.Null {
		return got == nil
	}
	switch typ {
	case "string", "bytes", "json":
		return got == string(want.Bytes)
	case "bool":
		return got == (want.Int != 0)
	case "float", "double":
		g, ok := got.(float64)
		w := want.Float
		if typ == "float" {
			w = float64(float32(w))
		}
		return ok && (math.IsNaN(w) && math.IsNaN(g) || math.Float64bits(g) == math.Float64bits(w))
	}
	return got == want.Int
}

func fuzzDescribe(typ string, v row.Value) any {
	switch {
	case v.Null:
		return nil
	case typ == "string" || typ == "bytes" || typ == "json":
		return string(v.Bytes)
	case typ == "float" || typ == "double":
		return v.Float
	}
	return v.Int
}

// checkFuzzStats compares a column chunk's statistics, as arrow-go reads
// them, with its values: the null count; min ≤ every value ≤ max; exact
// bounds where they fit; none only where no value has one.
func checkFuzzStats(t *testing.T, what, typ string, st arrowStats, rows [][]row.Value, c int) {
	t.Helper()
	var nulls int64
	var vals []row.Value
	for _, r := range rows {
		switch v := r[c]; {
		case v.Null:
			nulls++
		case (typ == "float" || typ == "double") && math.IsNaN(v.Float):
		default:
			vals = append(vals, v)
		}
	}
	if !st.set {
		t.Fatalf("%s: arrow-go finds no statistics", what)
	}
	if st.nulls != nulls || st.numValues != int64(len(rows)) {
		t.Fatalf("%s: null_count %d num_values %d, want %d %d", what, st.nulls, st.numValues, nulls, len(rows))
	}
	if len(vals) == 0 {
		if st.hasMinMax {
			t.Fatalf("%s: min %q max %q of no values", what, st.min, st.max)
		}
		return
	}
	switch typ {
	case "string", "bytes", "json":
		lo, hi := vals[0].Bytes, vals[0].Bytes
		for _, v := range vals {
			if bytes.Compare(v.Bytes, lo) < 0 {
				lo = v.Bytes
			}
			if bytes.Compare(v.Bytes, hi) > 0 {
				hi = v.Bytes
			}
		}
		if !st.hasMinMax {
			// Only a max with no bound above it short enough: all 0xFF
			// (or U+10FFFF) as far as the bound goes.
			if len(hi) <= maxStatBytes {
				t.Fatalf("%s: no min and max for [%.30q, %.30q]", what, lo, hi)
			}
			if _, ok := roundUp(hi[:statCut(hi, typ != "bytes")], typ != "bytes"); ok {
				t.Fatalf("%s: no min and max for [%.30q, %.30q], and a bound above the max fits", what, lo, hi)
			}
			return
		}
		if bytes.Compare(st.min, lo) > 0 || bytes.Compare(st.max, hi) < 0 || len(st.min) > maxStatBytes || len(st.max) > maxStatBytes {
			t.Fatalf("%s: bounds [%.30q, %.30q] (%d, %d bytes) of [%.30q, %.30q]", what, st.min, st.max, len(st.min), len(st.max), lo, hi)
		}
		if len(lo) <= maxStatBytes && !bytes.Equal(st.min, lo) || len(hi) <= maxStatBytes && !bytes.Equal(st.max, hi) {
			t.Fatalf("%s: bounds [%.30q, %.30q], want the exact [%.30q, %.30q]", what, st.min, st.max, lo, hi)
		}
		if !bytes.HasPrefix(lo, st.min) {
			t.Fatalf("%s: min %.30q is not a prefix of %.30q", what, st.min, lo)
		}
		if typ != "bytes" && (!utf8.Valid(st.min) || !utf8.Valid(st.max)) {
			t.Fatalf("%s: bounds %q %q are not UTF-8", what, st.min, st.max)
		}
	case "float", "double":
		lo, hi := vals[0].Float, vals[0].Float
		for _, v := range vals {
			lo, hi = min(lo, v.Float), max(hi, v.Float)
		}
		if !st.hasMinMax {
			t.Fatalf("%s: no min and max", what)
		}
		var gotLo, gotHi float64
		if typ == "float" {
			gotLo = float64(math.Float32frombits(binary.LittleEndian.Uint32(st.min)))
			gotHi = float64(math.Float32frombits(binary.LittleEndian.Uint32(st.max)))
		} else {
			gotLo = math.Float64frombits(binary.LittleEndian.Uint64(st.min))
			gotHi = math.Float64frombits(binary.LittleEndian.Uint64(st.max))
		}
		if gotLo != lo || gotHi != hi || gotLo == 0 && !math.Signbit(gotLo) || gotHi == 0 && math.Signbit(gotHi) {
			t.Fatalf("%s: min %v max %v, want %v %v (a zero min -0, a zero max +0)", what, gotLo, gotHi, lo, hi)
		}
	default:
		lo, hi := vals[0].Int, vals[0].Int
		for _, v := range vals {
			lo, hi = min(lo, v.Int), max(hi, v.Int)
		}
		if !st.hasMinMax {
			t.Fatalf("%s: no min and max", what)
		}
		var gotLo, gotHi int64
		switch typ {
		case "bool":
			gotLo, gotHi = int64(st.min[0]), int64(st.max[0])
		case "int32", "date":
			gotLo, gotHi = int64(int32(binary.LittleEndian.Uint32(st.min))), int64(int32(binary.LittleEndian.Uint32(st.max)))
		default:
			gotLo, gotHi = int64(binary.LittleEndian.Uint64(st.min)), int64(binary.LittleEndian.Uint64(st.max))
		}
		if gotLo != lo || gotHi != hi {
			t.Fatalf("%s: min %d max %d, want %d %d", what, gotLo, gotHi, lo, hi)
		}
	}
}

// checkDecimalStats is checkFuzzStats for a decimal column: exact bounds,
// compared as signed integers, in the column's physical type.
func checkDecimalStats(t *testing.T, what string, prec int, st arrowStats, rows [][]row.Value, c int) {
	t.Helper()
	var nulls int64
	var lo, hi *big.Int
	for _, r := range rows {
		if r[c].Null {
			nulls++
			continue
		}
		n := decimalOf(r[c], prec)
		if lo == nil || n.Cmp(lo) < 0 {
			lo = n
		}
		if hi == nil || n.Cmp(hi) > 0 {
			hi = n
		}
	}
	if !st.set || st.nulls != nulls || st.numValues != int64(len(rows)) {
		t.Fatalf("%s: statistics %v null_count %d num_values %d, want %d %d", what, st.set, st.nulls, st.numValues, nulls, len(rows))
	}
	if lo == nil {
		if st.hasMinMax {
			t.Fatalf("%s: min %x max %x of no values", what, st.min, st.max)
		}
		return
	}
	decode := func(b []byte) *big.Int {
		switch {
		case prec <= 9:
			return big.NewInt(int64(int32(binary.LittleEndian.Uint32(b))))
		case prec <= row.MaxDecimal64Precision:
			return big.NewInt(int64(binary.LittleEndian.Uint64(b)))
		}
		if len(b) != decimalBytes(prec) {
			t.Fatalf("%s: a bound of %d bytes, want %d", what, len(b), decimalBytes(prec))
		}
		n := new(big.Int).SetBytes(b)
		if b[0]&0x80 != 0 {
			n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
		return n
	}
	if !st.hasMinMax {
		t.Fatalf("%s: no min and max", what)
	}
	if gotLo, gotHi := decode(st.min), decode(st.max); gotLo.Cmp(lo) != 0 || gotHi.Cmp(hi) != 0 {
		t.Fatalf("%s: min %v max %v, want %v %v", what, gotLo, gotHi, lo, hi)
	}
}

// FuzzParquetRoundTrip is the differential test of the Parquet writer
// against arrow-go. go test runs the seeds (a few seconds); make fuzz
// searches for more.
func FuzzParquetRoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{5, 1, 0, 0, 3, 1, 2, 1, 8, 0, 9, 0, 200, 250})
	// Random decisions: the file's shape is whatever they make of it.
	r := rand.New(rand.NewPCG(17, 17))
	for range 40 {
		seed := make([]byte, 64+r.IntN(4096))
		for i := range seed {
			seed[i] = byte(r.Uint32())
		}
		f.Add(seed)
	}
	f.Fuzz(fuzzRoundTrip)
}
