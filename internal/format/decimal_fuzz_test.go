package format

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers"
)

// FuzzDecimal checks the decimal reader against math/big: a value it
// accepts is the number's exact value times 10^scale, written back with
// scale digits; a number it refuses is not exact at that scale or too
// large for the precision.
func FuzzDecimal(f *testing.F) {
	for _, s := range []string{"-12.30", "0", "1e3", "99999999999999999999999999999999999999", "0.000001", "-0.5e-1", "12.300", "1E+2", "18446744073709551616"} {
		f.Add(s, uint8(38), uint8(4))
	}
	f.Fuzz(func(t *testing.T, num string, prec, scale uint8) {
		p := 1 + int(prec)%38
		s := int(scale) % (p + 1)
		typ := "decimal(" + itoa(p) + "," + itoa(s) + ")"
		got, err := extractOne(t, Column{Name: "a", Type: typ}, `{"a":`+num+`}`)
		var syntax *SyntaxError
		if err != nil && asSyntax(err, &syntax) {
			return // not JSON: the record, not the column, is refused
		}
		if !json.Valid([]byte(num)) || len(num) > 0 && (num[0] == '"' || strings.TrimSpace(num) != num) {
			return
		}
		if i := strings.IndexAny(num, "eE"); i >= 0 && len(strings.TrimLeft(num[i+1:], "+-0")) > 3 {
			return // math/big would spend its time on 10^1000 and more; the table test has such exponents
		}
		r, ok := new(big.Rat).SetString(num)
		if !ok || strings.ContainsAny(num, "{[tfn") {
			return
		}
		scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil)))
		limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
		fits := scaled.IsInt() && new(big.Int).Abs(scaled.Num()).Cmp(limit) < 0
		if fits != (err == nil) {
			t.Fatalf("%s as %s: %q, %v; math/big says fits = %v", num, typ, got, err, fits)
		}
		if !fits {
			return
		}
		back, ok := new(big.Rat).SetString(got)
		if !ok || back.Cmp(r) != 0 {
			t.Fatalf("%s as %s reads back %q", num, typ, got)
		}
		if frac := len(got) - strings.IndexByte(got+".", '.') - 1; s > 0 && frac != s || s == 0 && strings.Contains(got, ".") {
			t.Fatalf("%s as %s is written %q, not with %d fractional digits", num, typ, got, s)
		}
	})
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

func asSyntax(err error, target **SyntaxError) bool {
	se, ok := err.(*SyntaxError)
	if ok {
		*target = se
	}
	return ok
}

// FuzzNested checks the nested normaliser: its output is JSON, and
// normalising it again gives it back (it is in its own normal form).
func FuzzNested(f *testing.F) {
	typs := []string{
		"struct<a:int32,b:list<string>,c:map<string,decimal(10,2)>,d:struct<t:timestamp,e:date,f:bytes,g:json,h:double,i:bool>>",
		"list<list<int64>>",
		"map<string,struct<x:float>>",
	}
	f.Add(uint8(0), `{"a":1,"b":["x",null],"c":{"k":1.5},"d":{"t":"2026-01-02T03:04:05+01:00","e":"2026-01-02","f":"aGk=","g":{"z":[1, 2]},"h":1e400,"i":true}}`)
	f.Add(uint8(1), `[[1,2],[],null,[-3]]`)
	f.Add(uint8(2), `{"a":{"x":3.4028235e38},"b":{"x":-1},"c":null}`)
	f.Fuzz(func(t *testing.T, which uint8, value string) {
		typ := typs[int(which)%len(typs)]
		s, err := NewSchema([]Column{{Name: "a", Type: typ}})
		if err != nil {
			t.Fatal(err)
		}
		x, err := NewExtractor(s.Fields())
		if err != nil {
			t.Fatal(err)
		}
		vals := make([]Value, 1)
		if err := x.Extract(&providers.Record{Value: []byte(`{"a":` + value + `}`)}, vals); err != nil || vals[0].Null {
			return
		}
		out := string(vals[0].Bytes)
		if !json.Valid([]byte(out)) {
			t.Fatalf("%s from %s: %s is not JSON", typ, value, out)
		}
		if err := x.Extract(&providers.Record{Value: []byte(`{"a":` + out + `}`)}, vals); err != nil {
			t.Fatalf("%s: the normal form %s of %s is refused: %v", typ, out, value, err)
		}
		if again := string(vals[0].Bytes); again != out {
			t.Fatalf("%s: %s normalises to %s, which normalises to %s", typ, value, out, again)
		}
	})
}
