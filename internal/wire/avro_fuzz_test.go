package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hamba/avro/v2"
)

// FuzzAvro is differential: a random schema and a random value of it,
// encoded by hamba/avro, decode with DecodeAvro to the JSON that hamba/avro's
// own generic decoding of the same bytes gives, mapped as the package
// documents. The fuzzer's payload is also decoded with the schema as it
// comes: whatever it holds, DecodeAvro returns, without panicking.
func FuzzAvro(f *testing.F) {
	for seed := range uint64(24) {
		f.Add(seed, []byte{0x02, 0x04, 'a', 'b'})
	}
	f.Fuzz(func(t *testing.T, seed uint64, payload []byte) {
		g := &avroGen{rng: rand.New(rand.NewPCG(seed, seed>>32|1))}
		text := g.schema(0)
		s, err := ParseAvro(text)
		if err != nil {
			t.Fatalf("schema %s: %v", text, err)
		}
		// hamba/avro parses the same text on its own: the reference shares
		// nothing with the parser under test.
		hs, err := avro.Parse(text)
		if err != nil {
			t.Fatalf("hamba/avro parse of %s: %v", text, err)
		}
		v := g.value(hs)
		b, err := avro.Marshal(hs, v)
		if err != nil {
			t.Fatalf("hamba/avro Marshal of %v with %s: %v", v, text, err)
		}
		got, err := AppendAvro(nil, s, b)
		if err != nil {
			t.Fatalf("decode %x with %s: %v", b, text, err)
		}
		var generic any
		if err := avro.Unmarshal(hs, b, &generic); err != nil {
			t.Fatalf("hamba/avro Unmarshal: %v", err)
		}
		want, err := json.Marshal(canonical(hs, generic))
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(t, got, want) {
			t.Fatalf("schema %s\nvalue %v\n got  %s\n want %s", text, v, got, want)
		}
		DecodeAvro(nil, s, payload)
	})
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	parse := func(x []byte) any {
		d := json.NewDecoder(bytes.NewReader(x))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("%s is not JSON: %v", x, err)
		}
		return normNumbers(v)
	}
	return fmt.Sprint(parse(a)) == fmt.Sprint(parse(b))
}

// normNumbers compares numbers by value: 1.5e0 and 1.5 are one number.
func normNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if r, ok := new(big.Rat).SetString(string(v)); ok {
			return r.RatString()
		}
		return string(v)
	case []any:
		for i := range v {
			v[i] = normNumbers(v[i])
		}
	case map[string]any:
		for k := range v {
			v[k] = normNumbers(v[k])
		}
	}
	return v
}

// canonical maps hamba/avro's generic value of schema s to the JSON the
// package documents, independently of the decoder under test.
func canonical(s avro.Schema, v any) any {
	switch s := s.(type) {
	case *avro.RefSchema:
		return canonical(s.Schema(), v)
	case *avro.RecordSchema:
		m := v.(map[string]any)
		out := orderedObject{}
		for _, f := range s.Fields() {
			out = append(out, [2]any{f.Name(), canonical(f.Type(), m[f.Name()])})
		}
		return out
	case *avro.ArraySchema:
		out := []any{}
		for _, x := range v.([]any) {
			out = append(out, canonical(s.Items(), x))
		}
		return out
	case *avro.MapSchema:
		out := map[string]any{}
		for k, x := range v.(map[string]any) {
			out[k] = canonical(s.Values(), x)
		}
		return out
	case *avro.UnionSchema:
		if v == nil {
			return nil
		}
		if m, ok := v.(map[string]any); ok && len(m) == 1 {
			for name, x := range m {
				for _, b := range s.Types() {
					if unionName(b) == name {
						return canonical(b, x)
					}
				}
			}
		}
		// A union of null and one type decodes to the value itself.
		for _, b := range s.Types() {
			if b.Type() != avro.Null {
				return canonical(b, v)
			}
		}
	case *avro.FixedSchema:
		if d, ok := s.Logical().(*avro.DecimalLogicalSchema); ok {
			return json.Number(v.(*big.Rat).FloatString(d.Scale()))
		}
		if d, ok := v.(avro.LogicalDuration); ok {
			return fmt.Sprintf("P%dM%dDT%d.%03dS", d.Months, d.Days, d.Milliseconds/1000, d.Milliseconds%1000)
		}
		return base64.StdEncoding.EncodeToString(fixedBytes(v))
	case *avro.PrimitiveSchema:
		var logical avro.LogicalType
		if l := s.Logical(); l != nil {
			logical = l.Type()
		}
		switch logical {
		case avro.Decimal:
			return json.Number(v.(*big.Rat).FloatString(s.Logical().(*avro.DecimalLogicalSchema).Scale()))
		case avro.Date:
			return v.(time.Time).UTC().Format(time.DateOnly)
		case avro.TimestampMillis:
			return v.(time.Time).UTC().Format("2006-01-02T15:04:05.000Z")
		case avro.TimestampMicros:
			return v.(time.Time).UTC().Format("2006-01-02T15:04:05.000000Z")
		}
		switch x := v.(type) {
		case []byte:
			return base64.StdEncoding.EncodeToString(x)
		case float32:
			return json.Number(fmt.Sprint(x))
		}
		return v
	}
	return v
}

// fixedBytes is a fixed's bytes: hamba/avro gives an array, [N]byte.
func fixedBytes(v any) []byte {
	if b, ok := v.([]byte); ok {
		return b
	}
	rv := reflect.ValueOf(v)
	out := make([]byte, rv.Len())
	for i := range out {
		out[i] = byte(rv.Index(i).Uint())
	}
	return out
}

func unionName(s avro.Schema) string {
	if n, ok := s.(avro.NamedSchema); ok {
		return n.FullName()
	}
	if p, ok := s.(*avro.PrimitiveSchema); ok && p.Logical() != nil {
		return string(p.Type()) + "." + string(p.Logical().Type())
	}
	return string(s.Type())
}

// orderedObject is a JSON object whose fields keep their order.
type orderedObject [][2]any

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(kv[0])
		v, err := json.Marshal(kv[1])
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// avroGen makes random schemas and values.
type avroGen struct {
	rng   *rand.Rand
	names int
}

func (g *avroGen) name() string {
	g.names++
	return fmt.Sprintf("T%d", g.names)
}

var leafSchemas = []string{
	`"null"`, `"boolean"`, `"int"`, `"long"`, `"float"`, `"double"`, `"string"`, `"bytes"`,
	`{"type": "bytes", "logicalType": "decimal", "precision": 18, "scale": 3}`,
	`{"type": "int", "logicalType": "date"}`,
	`{"type": "long", "logicalType": "timestamp-millis"}`,
	`{"type": "long", "logicalType": "timestamp-micros"}`,
}

func (g *avroGen) schema(depth int) string {
	n := 6
	if depth < 3 {
		n = 11
	}
	switch k := g.rng.IntN(n); {
	case k < 5:
		return leafSchemas[g.rng.IntN(len(leafSchemas))]
	case k == 5:
		return fmt.Sprintf(`{"type": "enum", "name": %q, "symbols": ["A", "B", "C"]}`, g.name())
	case k == 6:
		if g.rng.IntN(3) == 0 {
			return fmt.Sprintf(`{"type": "fixed", "name": %q, "size": 12, "logicalType": "duration"}`, g.name())
		}
		return fmt.Sprintf(`{"type": "fixed", "name": %q, "size": %d}`, g.name(), 1+g.rng.IntN(8))
	case k == 7:
		return fmt.Sprintf(`{"type": "array", "items": %s}`, g.schema(depth+1))
	case k == 8:
		return fmt.Sprintf(`{"type": "map", "values": %s}`, g.schema(depth+1))
	case k == 9:
		inner := g.schema(depth + 1)
		if inner == `"null"` || strings.HasPrefix(inner, "[") { // no union in a union
			inner = `"string"`
		}
		return fmt.Sprintf(`["null", %s]`, inner)
	}
	var fields []string
	for i := range 1 + g.rng.IntN(4) {
		fields = append(fields, fmt.Sprintf(`{"name": "f%d", "type": %s}`, i, g.schema(depth+1)))
	}
	return fmt.Sprintf(`{"type": "record", "name": %q, "fields": [%s]}`, g.name(), strings.Join(fields, ", "))
}

func (g *avroGen) value(s avro.Schema) any {
	switch s := s.(type) {
	case *avro.RefSchema:
		return g.value(s.Schema())
	case *avro.RecordSchema:
		m := map[string]any{}
		for _, f := range s.Fields() {
			m[f.Name()] = g.value(f.Type())
		}
		return m
	case *avro.EnumSchema:
		return s.Symbols()[g.rng.IntN(len(s.Symbols()))]
	case *avro.NullSchema:
		return nil
	case *avro.FixedSchema:
		if l := s.Logical(); l != nil && l.Type() == avro.Duration {
			return avro.LogicalDuration{Months: g.rng.Uint32(), Days: g.rng.Uint32(), Milliseconds: g.rng.Uint32()}
		}
		// hamba/avro takes a fixed as a [N]byte.
		a := reflect.New(reflect.ArrayOf(s.Size(), reflect.TypeFor[byte]())).Elem()
		for i := range s.Size() {
			a.Index(i).SetUint(uint64(byte(g.rng.Uint32())))
		}
		return a.Interface()
	case *avro.ArraySchema:
		out := []any{}
		for range g.rng.IntN(4) {
			out = append(out, g.value(s.Items()))
		}
		return out
	case *avro.MapSchema:
		out := map[string]any{}
		for i := range g.rng.IntN(4) {
			out[fmt.Sprintf("k%d", i)] = g.value(s.Values())
		}
		return out
	case *avro.UnionSchema:
		if g.rng.IntN(2) == 0 {
			return nil
		}
		b := s.Types()[1]
		return map[string]any{unionName(b): g.value(b)}
	case *avro.PrimitiveSchema:
		if l := s.Logical(); l != nil {
			switch l.Type() {
			case avro.Decimal:
				return big.NewRat(g.rng.Int64N(1<<40)-1<<39, 1000)
			case avro.Date:
				return time.Unix(g.rng.Int64N(100000)*86400-2000000000, 0).UTC()
			case avro.TimestampMillis:
				return time.UnixMilli(g.rng.Int64N(1<<42) - 1<<41).UTC()
			case avro.TimestampMicros:
				return time.UnixMicro(g.rng.Int64N(1<<52) - 1<<51).UTC()
			}
		}
		switch s.Type() {
		case avro.Null:
			return nil
		case avro.Boolean:
			return g.rng.IntN(2) == 0
		case avro.Int:
			return int(int32(g.rng.Uint32()))
		case avro.Long:
			return int64(g.rng.Uint64())
		case avro.Float:
			return float32(g.rng.NormFloat64() * 1e3)
		case avro.Double:
			v := g.rng.NormFloat64() * math.Pow(10, float64(g.rng.IntN(40)-20))
			return v
		case avro.String:
			return fmt.Sprintf("s\"%d\\é\u2028", g.rng.IntN(100))
		case avro.Bytes:
			b := make([]byte, g.rng.IntN(6))
			for i := range b {
				b[i] = byte(g.rng.Uint32())
			}
			return b
		}
	}
	panic(fmt.Sprintf("no value for %s", s))
}
