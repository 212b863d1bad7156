package parquet

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"

	"github.com/streamctl/streamctl/internal/format/row"
)

func TestDecimalBytes(t *testing.T) {
	// The fewest bytes of two's complement holding ±(10^p - 1).
	want := map[int]int{1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 9: 4, 10: 5, 18: 8, 19: 9, 20: 9, 21: 9, 22: 10, 38: 16}
	for p, n := range want {
		if got := decimalBytes(p); got != n {
			t.Errorf("decimalBytes(%d) = %d, want %d", p, got, n)
		}
	}
	for p := 1; p <= row.MaxDecimalPrecision; p++ {
		n := decimalBytes(p)
		max := new(big.Int).Sub(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil), big.NewInt(1))
		if max.BitLen() > 8*n-1 || max.BitLen() <= 8*(n-1)-1 {
			t.Errorf("decimalBytes(%d) = %d: 10^%d-1 takes %d bits", p, n, p, max.BitLen())
		}
	}
}

// Each precision gets its physical type and DECIMAL annotation, and
// arrow-go reads the exact values and the signed bounds back.
func TestParquetDecimals(t *testing.T) {
	cols := []Column{
		{Name: "d9", Kind: row.KindDecimal, Precision: 9, Scale: 2, Nullable: true},
		{Name: "d18", Kind: row.KindDecimal, Precision: 18, Scale: 4},
		{Name: "d20", Kind: row.KindDecimal, Precision: 20, Scale: 0, Nullable: true},
		{Name: "d38", Kind: row.KindDecimal, Precision: 38, Scale: 10},
	}
	big38 := func(s string) []byte { n, _ := new(big.Int).SetString(s, 10); return int128Of(n) }
	rows := [][]row.Value{
		{{Int: -1230}, {Int: 999999999999999999}, {Bytes: big38("-99999999999999999999")}, {Bytes: big38("12345678901234567890123456789012345678")}},
		{{Null: true}, {Int: -999999999999999999}, {Null: true}, {Bytes: big38("-1")}},
		{{Int: 999999999}, {Int: 0}, {Bytes: big38("18446744073709551616")}, {Bytes: big38("-99999999999999999999999999999999999999")}},
	}
	f, err := NewFormat(cols, Options{})
	if err != nil {
		t.Fatal(err)
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

	rdr, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	wantPhysical := []string{"INT32", "INT64", "FIXED_LEN_BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"}
	wantLen := []int{0, 0, 9, 16}
	for i, c := range cols {
		col := rdr.MetaData().Schema.Column(i)
		dec, ok := col.LogicalType().(interface {
			Precision() int32
			Scale() int32
		})
		if !ok || int(dec.Precision()) != c.Precision || int(dec.Scale()) != c.Scale {
			t.Errorf("%s: logical type %v, want decimal(%d,%d)", c.Name, col.LogicalType(), c.Precision, c.Scale)
		}
		if got := col.PhysicalType().String(); got != wantPhysical[i] {
			t.Errorf("%s: physical type %s, want %s", c.Name, got, wantPhysical[i])
		}
		if wantLen[i] > 0 && col.TypeLength() != wantLen[i] {
			t.Errorf("%s: type length %d, want %d", c.Name, col.TypeLength(), wantLen[i])
		}
	}

	af := arrowRead(t, buf.Bytes())
	want := [][]any{
		{decimalText("-1230"), nil, decimalText("999999999")},
		{decimalText("999999999999999999"), decimalText("-999999999999999999"), decimalText("0")},
		{decimalText("-99999999999999999999"), nil, decimalText("18446744073709551616")},
		{decimalText("12345678901234567890123456789012345678"), decimalText("-1"), decimalText("-99999999999999999999999999999999999999")},
	}
	for c := range cols {
		for r := range rows {
			if af.columns[c][r] != want[c][r] {
				t.Errorf("%s row %d: arrow-go reads %v, want %v", cols[c].Name, r, af.columns[c][r], want[c][r])
			}
		}
		checkDecimalStats(t, cols[c].Name, cols[c].Precision, af.rowGroups[0].cols[c], rows, c)
	}
}
