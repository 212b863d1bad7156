package format

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/streamctl/streamctl/providers"
)

// Field is one value to extract from each record.
type Field struct {
	Name     string // named in errors: a column's name, or the path
	Path     string // dotted JSON path, or a metadata name (_key, …)
	Kind     Kind
	Nullable bool
	Column   bool // a declared column ("column" in errors) rather than a helper field
}

// FieldError is a record whose field does not fit its declared kind.
type FieldError struct {
	Field  string // the column's name, or the path of a helper field
	Column bool
	Reason string
}

func (e *FieldError) Error() string {
	if e.Column {
		return fmt.Sprintf("column %q: %s", e.Field, e.Reason)
	}
	return fmt.Sprintf("field %q: %s", e.Field, e.Reason)
}

// node is one step of the path trie: the fields read at this path and the
// paths below it.
type node struct {
	name     string
	quoted   string  // `"name"`, or "" when the name needs escaping in JSON
	depth    int     // path segments from the root to here
	fields   []int   // fields whose path ends here
	below    []int   // fields whose path goes through here
	children []*node // in declaration order
	hint     int     // the child to try first: the one after the last match
}

// find returns the child named key. Records of a stream usually list their
// keys in the same order, so the child after the last match is tried first.
func (n *node) find(key []byte) *node {
	c := n.children
	if h := n.hint; h < len(c) && c[h].name == string(key) {
		n.hint = h + 1
		return c[h]
	}
	for j, ch := range c {
		if ch.name == string(key) {
			n.hint = j + 1
			return ch
		}
	}
	return nil
}

// Extractor reads fields out of records. It keeps buffers between records
// and is not safe for concurrent use.
type Extractor struct {
	fields  []Field
	root    *node
	json    []int // fields read from the JSON value
	meta    []int // fields read from the record's envelope
	scratch []byte
	keyBuf  []byte
	vals    []Value
	err     error // the first field error of the current record
}

// NewExtractor returns an extractor for fields; Extract fills one Value per
// field, in the same order.
func NewExtractor(fields []Field) (*Extractor, error) {
	x := &Extractor{fields: fields, root: &node{}}
	for i, f := range fields {
		if IsMeta(f.Path) {
			if f.Kind == KindAny {
				return nil, fmt.Errorf("field %q: metadata needs a declared type", f.Name)
			}
			if !containsKind(metaKinds[f.Path], f.Kind) {
				return nil, fmt.Errorf("field %q: %s can be read as %s, not %s", f.Name, f.Path, joinKinds(metaKinds[f.Path]), f.Kind)
			}
			x.meta = append(x.meta, i)
			continue
		}
		if err := ValidatePath(f.Path); err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Name, err)
		}
		x.json = append(x.json, i)
		n := x.root
		for seg := range strings.SplitSeq(f.Path, ".") {
			n.below = append(n.below, i)
			var next *node
			for _, c := range n.children {
				if c.name == seg {
					next = c
				}
			}
			if next == nil {
				next = &node{name: seg, depth: n.depth + 1}
				if !strings.ContainsFunc(seg, func(r rune) bool { return r < 0x20 || r == '"' || r == '\\' }) {
					next.quoted = `"` + seg + `"`
				}
				n.children = append(n.children, next)
			}
			n = next
		}
		n.fields = append(n.fields, i)
	}
	return x, nil
}

// Fields returns the fields the extractor reads.
func (x *Extractor) Fields() []Field { return x.fields }

// Extract fills vals (one per field) from rec. Byte slices in vals stay
// valid until the next call. It returns a *SyntaxError when the record is not
// a JSON object, or the first *FieldError; after a FieldError the other
// fields are still filled and the failed ones are Null and Invalid.
func (x *Extractor) Extract(rec *providers.Record, vals []Value) error {
	x.scratch = x.scratch[:0]
	x.vals = vals
	x.err = nil
	for _, i := range x.meta {
		x.metaValue(i, rec)
	}
	if len(x.json) > 0 {
		for _, i := range x.json {
			vals[i] = Value{Null: true}
		}
		b := rec.Value
		i := skipSpace(b, 0)
		if i >= len(b) || b[i] != '{' {
			if i < len(b) {
				if tok, _, _, err := scanValue(b, i, 0); err == nil {
					return &SyntaxError{Offset: i, Msg: "the record is " + tok.String() + ", not an object"}
				}
			}
			return syntaxErr(b, i, "expected '{'")
		}
		i, err := x.object(b, i, x.root, 0)
		if err != nil {
			return err
		}
		if i = skipSpace(b, i); i != len(b) {
			return syntaxErr(b, i, "after the object")
		}
	}
	for i := range x.fields {
		if v := &vals[i]; v.Null && !v.Invalid && !x.fields[i].Nullable {
			if v.Token == TokNull {
				x.fail(i, "null, and the column is not nullable")
			} else {
				x.fail(i, "missing, and the column is not nullable")
			}
		}
	}
	return x.err
}

func (x *Extractor) object(b []byte, i int, n *node, depth int) (int, error) {
	if depth > maxDepth {
		return i, &SyntaxError{Offset: i, Msg: "nesting deeper than 512 levels"}
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, syntaxErr(b, i, "expected a string key")
		}
		// Records of a stream usually list their keys in the same order: the
		// key expected next is compared, quotes included, without scanning.
		var child *node
		var end int
		if h := n.hint; h < len(n.children) {
			if q := n.children[h].quoted; q != "" && len(b)-i >= len(q) && string(b[i:i+len(q)]) == q {
				child, end = n.children[h], i+len(q)
				n.hint = h + 1
			}
		}
		if child == nil {
			e, esc, err := scanString(b, i)
			if err != nil {
				return e, err
			}
			key := b[i+1 : e-1]
			if esc {
				x.keyBuf = appendUnescaped(x.keyBuf[:0], key)
				key = x.keyBuf
			}
			child, end = n.find(key), e
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return i, syntaxErr(b, i, "expected ':' after a key")
		}
		i = skipSpace(b, i+1)
		var err error
		if child != nil {
			i, err = x.visit(b, i, child, depth)
		} else {
			_, i, _, err = scanValue(b, i, depth)
		}
		if err != nil {
			return i, err
		}
		i = skipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return i + 1, nil
		}
		return i, syntaxErr(b, i, "expected ',' or '}' in an object")
	}
}

// visit reads the value at b[i], which is at the path of n.
func (x *Extractor) visit(b []byte, i int, n *node, depth int) (int, error) {
	start := i
	var (
		tok Token
		end int
		esc bool
		err error
	)
	if len(n.children) > 0 && i < len(b) && b[i] == '{' {
		tok = TokObject
		end, err = x.object(b, i, n, depth+1)
	} else {
		tok, end, esc, err = scanValue(b, i, depth)
		if err == nil && len(n.children) > 0 && tok != TokNull {
			for _, f := range n.below {
				x.fail(f, "expected an object at "+strconv.Quote(x.pathTo(f, n))+", got "+describe(tok, b[start:end]))
			}
		}
	}
	if err != nil {
		return end, err
	}
	for _, f := range n.fields {
		x.convert(f, tok, b[start:end], esc)
	}
	return end, nil
}

// pathTo returns the prefix of field f's path that ends at n.
func (x *Extractor) pathTo(f int, n *node) string {
	p := x.fields[f].Path
	d := n.depth
	for i := 0; i < len(p); i++ {
		if p[i] == '.' {
			if d--; d == 0 {
				return p[:i]
			}
		}
	}
	return p
}

func (x *Extractor) fail(f int, reason string) {
	x.vals[f] = Value{Null: true, Invalid: true}
	if x.err == nil {
		x.err = &FieldError{Field: x.fields[f].Name, Column: x.fields[f].Column, Reason: reason}
	}
}

// describe renders a JSON token for an error message: its text, shortened.
func describe(tok Token, text []byte) string {
	switch tok {
	case TokObject, TokArray, TokNone:
		return tok.String()
	}
	const max = 40
	if len(text) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		return string(text[:cut]) + "…"
	}
	return string(text)
}

// str returns the content of the string token text.
func (x *Extractor) str(text []byte, esc bool) []byte {
	s := text[1 : len(text)-1]
	if !esc {
		return s
	}
	start := len(x.scratch)
	x.scratch = appendUnescaped(x.scratch, s)
	// Later appends may move scratch; this slice keeps pointing at the old
	// array, which nothing writes again during this record.
	return x.scratch[start:len(x.scratch):len(x.scratch)]
}

// convert sets field f from a JSON token.
func (x *Extractor) convert(f int, tok Token, text []byte, esc bool) {
	v := &x.vals[f]
	*v = Value{Token: tok}
	if tok == TokNull {
		v.Null = true
		return
	}
	kind := x.fields[f].Kind
	switch kind {
	case KindAny:
		if tok == TokString {
			v.Bytes = x.str(text, esc)
		} else {
			v.Bytes = text
		}
	case KindJSON:
		v.Bytes = text
	case KindString:
		switch tok {
		case TokString:
			v.Bytes = x.str(text, esc)
		case TokNumber, TokBool:
			v.Bytes = text
		default:
			x.fail(f, "expected a string, got "+describe(tok, text)+` (use type = "json" for nested values)`)
		}
	case KindInt32, KindInt64:
		if tok != TokNumber {
			x.fail(f, "expected an integer, got "+describe(tok, text))
			return
		}
		n, ok := ParseInt(text)
		if !ok {
			x.fail(f, "expected an integer, got "+describe(tok, text))
			return
		}
		if kind == KindInt32 && (n < math.MinInt32 || n > math.MaxInt32) {
			x.fail(f, describe(tok, text)+" is out of range for int32")
			return
		}
		v.Int = n
	case KindFloat, KindDouble:
		if tok != TokNumber {
			x.fail(f, "expected a number, got "+describe(tok, text))
			return
		}
		bits := 64
		if kind == KindFloat {
			bits = 32
		}
		// Not for float: rounding to float64 and then to float32 can differ
		// from rounding the decimal to float32 once.
		if fl, ok := parseSimpleFloat(text); ok && kind == KindDouble {
			v.Float = fl
			return
		}
		fl, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(text), len(text)), bits)
		if err != nil {
			x.fail(f, describe(tok, text)+" is out of range for "+kind.String())
			return
		}
		v.Float = fl
	case KindBool:
		if tok != TokBool {
			x.fail(f, "expected true or false, got "+describe(tok, text))
			return
		}
		if text[0] == 't' {
			v.Int = 1
		}
	case KindTimestamp:
		switch tok {
		case TokString:
			ms, ok := ParseTimestamp(x.str(text, esc))
			if !ok {
				x.fail(f, "expected an RFC 3339 timestamp or epoch milliseconds, got "+describe(tok, text))
				return
			}
			v.Int = ms
		case TokNumber:
			ms, ok := ParseInt(text)
			if !ok {
				x.fail(f, "expected an RFC 3339 timestamp or integer epoch milliseconds, got "+describe(tok, text))
				return
			}
			v.Int = ms
		default:
			x.fail(f, "expected an RFC 3339 timestamp or epoch milliseconds, got "+describe(tok, text))
		}
	case KindDate:
		var ok bool
		if tok == TokString {
			v.Int, ok = ParseDate(x.str(text, esc))
		}
		if !ok {
			x.fail(f, "expected a date (YYYY-MM-DD), got "+describe(tok, text))
		}
	case KindBytes:
		if tok != TokString {
			x.fail(f, "expected base64 text, got "+describe(tok, text))
			return
		}
		start := len(x.scratch)
		out, err := base64.StdEncoding.AppendDecode(x.scratch, x.str(text, esc))
		if err != nil {
			x.fail(f, "expected base64 text, got "+describe(tok, text))
			return
		}
		x.scratch = out
		v.Bytes = out[start:len(out):len(out)]
	}
}

// float64pow10 are the powers of ten a float64 holds exactly.
var float64pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// parseSimpleFloat parses the common decimals exactly and quickly: at most
// 15 digits and no exponent. The mantissa and the power of ten are then
// exact float64s and one division rounds correctly (strconv's own exact
// path). Other numbers return false, for strconv.ParseFloat.
func parseSimpleFloat(text []byte) (float64, bool) {
	s := text
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	var mant uint64
	digits, frac := 0, -1
	for i, c := range s {
		switch {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			digits++
		case c == '.' && frac < 0:
			frac = len(s) - i - 1
		default:
			return 0, false
		}
	}
	if digits == 0 || digits > 15 {
		return 0, false
	}
	f := float64(mant)
	if frac > 0 {
		f /= float64pow10[frac]
	}
	if neg {
		f = -f
	}
	return f, true
}

// ParseInt parses an integral JSON number; false when it has a fraction or
// exponent or overflows int64.
func ParseInt(text []byte) (int64, bool) {
	s := text
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 19 {
		return 0, false
	}
	var u uint64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

// metaValue sets field f from the record's envelope.
func (x *Extractor) metaValue(f int, rec *providers.Record) {
	v := &x.vals[f]
	*v = Value{}
	kind := x.fields[f].Kind
	switch x.fields[f].Path {
	case MetaKey:
		if rec.Key == nil {
			v.Null = true
			return
		}
		v.Bytes = rec.Key
	case MetaPartition:
		if kind == KindString {
			v.Bytes = x.appendScratch(rec.Partition)
			return
		}
		n, err := strconv.ParseInt(rec.Partition, 10, 64)
		if err != nil || (kind == KindInt32 && (n < math.MinInt32 || n > math.MaxInt32)) {
			x.fail(f, fmt.Sprintf("source partition %q is not an %s", rec.Partition, kind))
			return
		}
		v.Int = n
	case MetaOffset:
		if kind == KindString {
			start := len(x.scratch)
			x.scratch = strconv.AppendInt(x.scratch, rec.Offset, 10)
			v.Bytes = x.scratch[start:len(x.scratch):len(x.scratch)]
			return
		}
		v.Int = rec.Offset
	case MetaTimestamp:
		if rec.Timestamp == 0 {
			v.Null = true
			return
		}
		v.Int = rec.Timestamp
	case MetaHeaders:
		if len(rec.Headers) == 0 {
			v.Null = true
			return
		}
		start := len(x.scratch)
		b := append(x.scratch, '[')
		for i, h := range rec.Headers {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"key":`...)
			b = AppendJSONString(b, h.Key)
			b = append(b, `,"value":`...)
			b = AppendJSONString(b, h.Value)
			b = append(b, '}')
		}
		b = append(b, ']')
		x.scratch = b
		v.Bytes = b[start:len(b):len(b)]
	}
}

func (x *Extractor) appendScratch(s string) []byte {
	start := len(x.scratch)
	x.scratch = append(x.scratch, s...)
	return x.scratch[start:len(x.scratch):len(x.scratch)]
}
