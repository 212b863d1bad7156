package row

import (
	"fmt"
	"strconv"
	"strings"
)

// Type is a column's full type: a Kind, and for the kinds that have them,
// a decimal's precision and scale, a list's element, a map's key and value,
// a struct's fields. Flat kinds are leaves; nesting goes to any depth.
// Types are immutable once parsed and may be shared.
type Type struct {
	Kind Kind
	// Precision (1..38) and Scale (0..Precision) of a decimal.
	Precision, Scale int
	// Elem is a list's element and a map's value.
	Elem *Type
	// Key is a map's key: always string, as JSON object keys are.
	Key *Type
	// Fields are a struct's fields, in declared order.
	Fields []StructField
}

// StructField is one field of a struct type.
type StructField struct {
	Name string
	Type *Type
}

// MaxDecimalPrecision is the most digits a decimal holds: what Parquet's and
// Iceberg's 16-byte decimals, and Spark's and DuckDB's, hold.
const MaxDecimalPrecision = 38

// MaxDecimal64Precision is the most digits a decimal held in Value.Int
// holds; above it Value.Bytes holds the 16 bytes of a 128-bit integer.
const MaxDecimal64Precision = 18

var flatTypes [KindMap + 1]*Type

func init() {
	for k := range flatTypes {
		flatTypes[k] = &Type{Kind: Kind(k)}
	}
}

// Flat returns the type of a kind without parameters (string, int64, …,
// and KindAny for fields no column declares).
func Flat(k Kind) *Type { return flatTypes[k] }

// Nested reports whether t is a struct, list or map.
func (t *Type) Nested() bool {
	return t.Kind == KindStruct || t.Kind == KindList || t.Kind == KindMap
}

// Decimal64 reports whether a decimal of t keeps its unscaled value in
// Value.Int (precision up to 18) rather than in 16 bytes.
func (t *Type) Decimal64() bool { return t.Precision <= MaxDecimal64Precision }

// String is t as configuration writes it, without spaces:
// decimal(10,2), list<string>, map<string,double>, struct<a:int32,b:bytes>.
func (t *Type) String() string { return string(t.AppendString(nil)) }

// AppendString appends t.String().
func (t *Type) AppendString(b []byte) []byte {
	switch t.Kind {
	case KindDecimal:
		b = append(b, "decimal("...)
		b = strconv.AppendInt(b, int64(t.Precision), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(t.Scale), 10)
		return append(b, ')')
	case KindList:
		b = append(b, "list<"...)
		return append(t.Elem.AppendString(b), '>')
	case KindMap:
		b = append(b, "map<"...)
		b = append(t.Key.AppendString(b), ',')
		return append(t.Elem.AppendString(b), '>')
	case KindStruct:
		b = append(b, "struct<"...)
		for i, f := range t.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFieldName(b, f.Name)
			b = f.Type.AppendString(append(b, ':'))
		}
		return append(b, '>')
	}
	return append(b, t.Kind.String()...)
}

// appendFieldName writes a struct field's name bare when it is an
// identifier, else between backquotes, a backquote doubled.
func appendFieldName(b []byte, name string) []byte {
	if isIdent(name) {
		return append(b, name...)
	}
	b = append(b, '`')
	b = append(b, strings.ReplaceAll(name, "`", "``")...)
	return append(b, '`')
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !identByte(s[i]) {
			return false
		}
	}
	return true
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Equal reports whether t and u are the same type.
func (t *Type) Equal(u *Type) bool {
	if t.Kind != u.Kind || t.Precision != u.Precision || t.Scale != u.Scale || len(t.Fields) != len(u.Fields) {
		return false
	}
	if (t.Elem == nil) != (u.Elem == nil) || t.Elem != nil && !t.Elem.Equal(u.Elem) {
		return false
	}
	if (t.Key == nil) != (u.Key == nil) || t.Key != nil && !t.Key.Equal(u.Key) {
		return false
	}
	for i, f := range t.Fields {
		if f.Name != u.Fields[i].Name || !f.Type.Equal(u.Fields[i].Type) {
			return false
		}
	}
	return true
}

// TypeError is a type string that does not parse: Pos is the 1-based
// byte position in the string where Want was expected.
type TypeError struct {
	Text string
	Pos  int
	Msg  string
}

func (e *TypeError) Error() string {
	return fmt.Sprintf("type %q, at character %d: %s", e.Text, e.Pos, e.Msg)
}

// maxTypeDepth bounds nesting, so that a type string cannot exhaust the
// stack; no real schema nests this deep.
const maxTypeDepth = 64

// ParseType parses a column type: a kind name (string, int64, …),
// decimal(p,s), list<T>, map<string,T> or struct<name:T,…>, nested to any
// depth, with spaces allowed between the parts. A struct field's name is
// an identifier (letters, digits, _) or any text between backquotes, a
// backquote doubled (`zip-code`).
func ParseType(s string) (*Type, error) {
	p := typeParser{s: s}
	t, err := p.parse(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(s) {
		return nil, p.errorf("unexpected %q after the type %s", s[p.i:], t)
	}
	return t, nil
}

type typeParser struct {
	s string
	i int
}

func (p *typeParser) errorf(format string, args ...any) error {
	return &TypeError{Text: p.s, Pos: p.i + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *typeParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

// next reports what is at the current position, for errors.
func (p *typeParser) next() string {
	if p.i >= len(p.s) {
		return "the end"
	}
	return strconv.Quote(p.s[p.i : p.i+1])
}

func (p *typeParser) expect(c byte, what string) error {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return nil
	}
	return p.errorf("expected %s, found %s", what, p.next())
}

func (p *typeParser) word() string {
	start := p.i
	for p.i < len(p.s) && identByte(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

func (p *typeParser) parse(depth int) (*Type, error) {
	p.space()
	if depth > maxTypeDepth {
		return nil, p.errorf("types nest deeper than %d levels", maxTypeDepth)
	}
	start := p.i
	name := p.word()
	switch name {
	case "":
		return nil, p.errorf("expected a type, found %s", p.next())
	case "decimal":
		return p.decimal()
	case "list":
		if err := p.expect('<', `"<" after list (list<element type>)`); err != nil {
			return nil, err
		}
		elem, err := p.parse(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.expect('>', `">" to close list<`); err != nil {
			return nil, err
		}
		return &Type{Kind: KindList, Elem: elem}, nil
	case "map":
		if err := p.expect('<', `"<" after map (map<string,value type>)`); err != nil {
			return nil, err
		}
		p.space()
		keyAt := p.i
		key, err := p.parse(depth + 1)
		if err != nil {
			return nil, err
		}
		if key.Kind != KindString {
			p.i = keyAt
			return nil, p.errorf("a map's key must be string, not %s: maps are read from JSON objects, whose keys are strings", key)
		}
		if err := p.expect(',', `"," between a map's key and value types`); err != nil {
			return nil, err
		}
		val, err := p.parse(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.expect('>', `">" to close map<`); err != nil {
			return nil, err
		}
		return &Type{Kind: KindMap, Key: key, Elem: val}, nil
	case "struct":
		return p.structType(depth)
	}
	for k, n := range kindNames {
		if n == name && Kind(k) != KindAny && !Flat(Kind(k)).parameterized() {
			return Flat(Kind(k)), nil
		}
	}
	want := strings.Join(flatNames(), ", ") + ", decimal(p,s), list<T>, map<string,T>, struct<name:T,…>"
	if start == 0 && p.i == len(p.s) { // the whole text: its position says nothing
		return nil, fmt.Errorf("unknown type %q (want one of %s)", name, want)
	}
	p.i = start
	return nil, p.errorf("unknown type %q (want one of %s)", name, want)
}

// parameterized reports whether t's kind needs parameters to be a type.
func (t *Type) parameterized() bool { return t.Kind >= KindDecimal }

func flatNames() []string {
	var names []string
	for k, n := range kindNames {
		if Kind(k) != KindAny && !Flat(Kind(k)).parameterized() {
			names = append(names, n)
		}
	}
	return names
}

func (p *typeParser) decimal() (*Type, error) {
	if err := p.expect('(', `"(" after decimal (decimal(precision,scale), such as decimal(10,2))`); err != nil {
		return nil, err
	}
	num := func(what string) (int, error) {
		p.space()
		start := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if start == p.i {
			return 0, p.errorf("expected the %s, a number, found %s", what, p.next())
		}
		n, err := strconv.Atoi(p.s[start:p.i])
		if err != nil || n > 1000 {
			p.i = start
			return 0, p.errorf("the %s %s is too large", what, p.s[start:])
		}
		return n, nil
	}
	precAt := p.i
	prec, err := num("precision")
	if err != nil {
		return nil, err
	}
	if err := p.expect(',', `"," and the scale (decimal(precision,scale))`); err != nil {
		return nil, err
	}
	scaleAt := p.i
	scale, err := num("scale")
	if err != nil {
		return nil, err
	}
	if err := p.expect(')', `")" to close decimal(`); err != nil {
		return nil, err
	}
	end := p.i
	if prec < 1 || prec > MaxDecimalPrecision {
		p.i = precAt
		p.space()
		return nil, p.errorf("a decimal's precision is 1 to %d digits, not %d", MaxDecimalPrecision, prec)
	}
	if scale > prec {
		p.i = scaleAt
		p.space()
		return nil, p.errorf("a decimal's scale is 0 to its precision (%d), not %d", prec, scale)
	}
	p.i = end
	return &Type{Kind: KindDecimal, Precision: prec, Scale: scale}, nil
}

func (p *typeParser) structType(depth int) (*Type, error) {
	if err := p.expect('<', `"<" after struct (struct<name:type,…>)`); err != nil {
		return nil, err
	}
	t := &Type{Kind: KindStruct}
	seen := map[string]bool{}
	for {
		p.space()
		nameAt := p.i
		name, err := p.fieldName()
		if err != nil {
			return nil, err
		}
		if seen[name] {
			p.i = nameAt
			return nil, p.errorf("the struct field %q is declared twice", name)
		}
		seen[name] = true
		if err := p.expect(':', `":" and the type of field `+strconv.Quote(name)); err != nil {
			return nil, err
		}
		ft, err := p.parse(depth + 1)
		if err != nil {
			return nil, err
		}
		t.Fields = append(t.Fields, StructField{Name: name, Type: ft})
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if err := p.expect('>', `"," and another field, or ">" to close struct<`); err != nil {
			return nil, err
		}
		return t, nil
	}
}

func (p *typeParser) fieldName() (string, error) {
	if p.i < len(p.s) && p.s[p.i] == '`' {
		start := p.i
		var b strings.Builder
		for p.i++; p.i < len(p.s); p.i++ {
			if p.s[p.i] != '`' {
				b.WriteByte(p.s[p.i])
				continue
			}
			if p.i+1 < len(p.s) && p.s[p.i+1] == '`' {
				b.WriteByte('`')
				p.i++
				continue
			}
			p.i++
			if b.Len() == 0 {
				p.i = start
				return "", p.errorf("a struct field's name is empty")
			}
			return b.String(), nil
		}
		p.i = start
		return "", p.errorf("the backquote that opens a field name is not closed")
	}
	name := p.word()
	if name == "" {
		return "", p.errorf("expected a field name (letters, digits and _, or any text between backquotes), found %s", p.next())
	}
	return name, nil
}

// Entry is one value of a nested column's leaf, as Parquet stores it: its
// repetition and definition levels, and its value when it is defined at the
// leaf's own level (else it stands for a null or an empty list or map above).
type Entry struct {
	Rep, Def uint8
	Value    Value
}

// Leaves counts the flat values under t: one for a flat type, the sum of
// its fields' for a struct, the element's for a list, one (the key) and the
// value's for a map.
func (t *Type) Leaves() int {
	switch t.Kind {
	case KindStruct:
		n := 0
		for _, f := range t.Fields {
			n += f.Type.Leaves()
		}
		return n
	case KindList:
		return t.Elem.Leaves()
	case KindMap:
		return 1 + t.Elem.Leaves()
	}
	return 1
}
