package format

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/streamctl/streamctl/internal/jsonstr"
	"github.com/streamctl/streamctl/providers"
)

// Field is one value to extract from each record.
type Field struct {
	Name     string // named in errors: a column's name, or the path
	Path     string // dotted JSON path, or a metadata name (_key, …)
	Kind     Kind
	Type     *Type // the full type when Kind has parameters (decimal); nil for the others
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
	index    int     // in the parent's children
	fields   []int   // fields whose path ends here
	below    []int   // fields whose path goes through here
	children []*node // in declaration order
	// A node without children that one field reads is a leaf: its field,
	// the field's kind and its bit in Extractor.seen, kept here for leaf.
	leaf     int // -1: not a leaf
	leafKind Kind
	seenWord int
	seenBit  uint64
	// Records of a stream usually list their keys in the same order, which
	// need not be the columns' order: each object remembers which child came
	// first in the last record, and each child which came after it, and
	// those are compared first, quotes included, without scanning the key.
	first int // index of the child to expect first; -1: none learned
	next  int // in the parent: the sibling to expect after this one; -1: none
	// quoted, when it is at most 16 bytes (short), as two little-endian
	// words and the masks of its bytes, compared without a call (keyAt).
	short        bool
	qword, qmask [2]uint64
}

// keyAt reports whether the JSON text at b[i] starts with n's quoted name.
func (n *node) keyAt(b []byte, i int) bool {
	if n.short && i+16 <= len(b) {
		w := b[i : i+16 : i+16]
		return binary.LittleEndian.Uint64(w)&n.qmask[0] == n.qword[0] &&
			binary.LittleEndian.Uint64(w[8:])&n.qmask[1] == n.qword[1]
	}
	q := n.quoted
	return q != "" && len(b)-i >= len(q) && string(b[i:i+len(q)]) == q
}

// setQuoted sets quoted and its words for keyAt.
func (n *node) setQuoted(q string) {
	n.quoted = q
	if len(q) > 16 {
		return
	}
	n.short = true
	var w [16]byte
	copy(w[:], q)
	for k := range 2 {
		n.qword[k] = binary.LittleEndian.Uint64(w[8*k:])
		for j := range 8 {
			if 8*k+j < len(q) {
				n.qmask[k] |= 0xff << (8 * j)
			}
		}
	}
}

// expect returns the child learned to come at index h, if any.
func (n *node) expect(h int) *node {
	if h >= 0 && h < len(n.children) {
		return n.children[h]
	}
	return nil
}

// find returns the child named key.
func (n *node) find(key []byte) *node {
	for _, ch := range n.children {
		if ch.name == string(key) {
			return ch
		}
	}
	return nil
}

// Extractor reads fields out of records. It keeps buffers between records
// and is not safe for concurrent use.
type Extractor struct {
	fields   []Field
	root     *node
	json     []int // fields read from the JSON value
	meta     []int // fields read from the record's envelope
	required []int // fields that are not nullable
	// A bit per field. jsonBits: the fields read from the JSON; seen: those
	// the current record set. The fields a record lacks are set to null at
	// its end, rather than every field before it.
	jsonBits, seen []uint64
	scratch        []byte
	keyBuf         []byte
	digits         []byte // a decimal's significant digits
	nested         []byte // a nested value's normalised JSON, being built
	spans          []span // the values of the struct fields being normalised
	vals           []Value
	err            error // the first field error of the current record
	dates          dateCache
}

// NewExtractor returns an extractor for fields; Extract fills one Value per
// field, in the same order.
func NewExtractor(fields []Field) (*Extractor, error) {
	x := &Extractor{fields: fields, root: &node{first: -1, leaf: -1}}
	words := (len(fields) + 63) / 64
	x.jsonBits, x.seen = make([]uint64, words), make([]uint64, words)
	for i, f := range fields {
		if !f.Nullable {
			x.required = append(x.required, i)
		}
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
		x.jsonBits[i/64] |= 1 << (i % 64)
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
				next = &node{name: seg, depth: n.depth + 1, index: len(n.children), first: -1, next: -1, leaf: -1}
				if !strings.ContainsFunc(seg, func(r rune) bool { return r < 0x20 || r == '"' || r == '\\' }) {
					next.setQuoted(`"` + seg + `"`)
				}
				n.children = append(n.children, next)
			}
			n = next
		}
		n.fields = append(n.fields, i)
	}
	x.setLeaves(x.root)
	return x, nil
}

// setLeaves sets the leaf fields of n and the nodes below it.
func (x *Extractor) setLeaves(n *node) {
	n.leaf = -1
	if len(n.children) == 0 && len(n.fields) == 1 {
		f := n.fields[0]
		n.leaf, n.leafKind = f, x.fields[f].Kind
		n.seenWord, n.seenBit = f/64, 1<<(f%64)
	}
	for _, c := range n.children {
		x.setLeaves(c)
	}
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
		clear(x.seen)
		b := rec.Value
		i := skipSpace(b, 0)
		if i >= len(b) || b[i] != '{' {
			x.setMissing()
			if i < len(b) {
				if tok, _, _, err := scanValue(b, i, 0); err == nil {
					return &SyntaxError{Offset: i, Msg: "the record is " + tok.String() + ", not an object"}
				}
			}
			return syntaxErr(b, i, "expected '{'")
		}
		i, err := x.object(b, i, x.root, 0)
		x.setMissing()
		if err != nil {
			return err
		}
		if i = skipSpace(b, i); i != len(b) {
			return syntaxErr(b, i, "after the object")
		}
	}
	for _, i := range x.required {
		if v := &vals[i]; v.Null && !v.Invalid {
			if v.Token == TokNull {
				x.fail(i, "null, and the column is not nullable")
			} else {
				x.fail(i, "missing, and the column is not nullable")
			}
		}
	}
	return x.err
}

// mark records that the current record set field f.
func (x *Extractor) mark(f int) { x.seen[f/64] |= 1 << (f % 64) }

// setMissing sets the JSON fields the record did not set to null.
func (x *Extractor) setMissing() {
	for w, json := range x.jsonBits {
		for missing := json &^ x.seen[w]; missing != 0; missing &= missing - 1 {
			x.vals[w*64+bits.TrailingZeros64(missing)] = Value{Null: true}
		}
	}
}

func (x *Extractor) object(b []byte, i int, n *node, depth int) (int, error) {
	if depth > maxDepth {
		return i, &SyntaxError{Offset: i, Msg: "nesting deeper than 512 levels"}
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	var prev *node // the last child seen in this object
	want := n.first
	for {
		if i >= len(b) || b[i] != '"' {
			return i, syntaxErr(b, i, "expected a string key")
		}
		var child *node
		var end int
		if c := n.expect(want); c != nil && c.keyAt(b, i) {
			child, end = c, i+len(c.quoted)
		} else {
			e, esc, _, err := scanString(b, i)
			if err != nil {
				return e, err
			}
			key := b[i+1 : e-1]
			if esc {
				x.keyBuf, _ = appendUnescaped(x.keyBuf[:0], key)
				key = x.keyBuf
			}
			child, end = n.find(key), e
		}
		if child != nil {
			if prev == nil {
				n.first = child.index
			} else {
				prev.next = child.index
			}
			prev, want = child, child.next
		}
		i = end
		if i >= len(b) || b[i] != ':' { // compact JSON has no space here
			if i = skipSpace(b, i); i >= len(b) || b[i] != ':' {
				return i, syntaxErr(b, i, "expected ':' after a key")
			}
		}
		i = skipSpace(b, i+1)
		var err error
		switch {
		case child == nil:
			_, i, _, err = scanValue(b, i, depth)
		case child.leaf >= 0:
			if end, ok := x.leaf(b, i, child); ok {
				i = end
				x.seen[child.seenWord] |= child.seenBit
			} else {
				i, err = x.visit(b, i, child, depth)
			}
		default:
			i, err = x.visit(b, i, child, depth)
		}
		if err != nil {
			return i, err
		}
		i = skipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		return closeItems(b, i, '}')
	}
}

// visit reads the value at b[i], which is at the path of n, the general
// way: object calls leaf first for a leaf's common values.
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

// leaf reads the most common values in one pass: a plain integer into an
// integer or timestamp field, a short decimal into a double field, a UTF-8
// string without escapes into a string or timestamp field. Anything else, errors
// included, is left to the general path (scanValue, then convert): ok is
// false.
func (x *Extractor) leaf(b []byte, i int, n *node) (end int, ok bool) {
	if i >= len(b) {
		return i, false
	}
	kind := n.leafKind
	v := &x.vals[n.leaf]
	switch c := b[i]; {
	case c >= '0' && c <= '9' && (kind == KindInt64 || kind == KindTimestamp || kind == KindInt32):
		if c == '0' { // a zero, or not an integer ("01", "0.5")
			if j := i + 1; j < len(b) && (b[j]-'0' <= 9 || b[j] == '.' || b[j] == 'e' || b[j] == 'E') {
				return i, false
			}
			*v = Value{Token: TokNumber}
			return i + 1, true
		}
		var u uint64
		j := i
		for ; j < len(b) && j-i < 18; j++ {
			d := b[j] - '0'
			if d > 9 {
				break
			}
			u = u*10 + uint64(d)
		}
		// 18 digits always fit; a fraction, an exponent or more digits
		// go the general way.
		if j < len(b) && (b[j]-'0' <= 9 || b[j] == '.' || b[j] == 'e' || b[j] == 'E') {
			return i, false
		}
		if kind == KindInt32 && u > math.MaxInt32 || kind == KindTimestamp && u > uint64(MaxTimestamp) {
			return i, false
		}
		*v = Value{Int: int64(u), Token: TokNumber}
		return j, true
	case (c >= '0' && c <= '9' || c == '-') && kind == KindDouble:
		// What convert does for a double, without its detour.
		fl, end, ok := parseDecimal(b, i)
		if !ok {
			return i, false
		}
		*v = Value{Float: fl, Token: TokNumber}
		return end, true
	case c == '"' && (kind == KindString || kind == KindTimestamp):
		end, esc, ascii, err := scanString(b, i)
		if err != nil || esc {
			return i, false
		}
		s := b[i+1 : end-1]
		if kind == KindString { // text that is not UTF-8 goes the general way, to fail
			*v = Value{Bytes: s, Token: TokString}
			return end, ascii || utf8.Valid(s)
		}
		ms, ok := x.dates.parseTimestamp(s)
		if !ok || !TimestampInRange(ms) {
			return i, false
		}
		*v = Value{Int: ms, Token: TokString}
		return end, true
	}
	return i, false
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
	x.mark(f)
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
	x.scratch, _ = appendUnescaped(x.scratch, s)
	// Later appends may move scratch; this slice keeps pointing at the old
	// array, which nothing writes again during this record.
	return x.scratch[start:len(x.scratch):len(x.scratch)]
}

// text returns the content of the string token text, which field f writes
// as text: it fails f, and returns false, when the content is not UTF-8 or
// escapes a lone surrogate (readers refuse a whole file for either).
func (x *Extractor) text(f int, text []byte, esc bool) ([]byte, bool) {
	s := text[1 : len(text)-1]
	if i := invalidUTF8(s); i >= 0 {
		x.fail(f, invalidUTF8Reason(i))
		return nil, false
	}
	if !esc {
		return s, true
	}
	start := len(x.scratch)
	var lone int
	x.scratch, lone = appendUnescaped(x.scratch, s)
	if lone >= 0 {
		x.fail(f, loneSurrogateReason(s[lone:lone+6]))
		return nil, false
	}
	return x.scratch[start:len(x.scratch):len(x.scratch)], true
}

// checkJSON fails field f, and returns false, when the JSON text of its
// value (an object, an array or a string) is not UTF-8 or escapes a lone
// surrogate.
func (x *Extractor) checkJSON(f int, text []byte) bool {
	if i := invalidUTF8(text); i >= 0 {
		x.fail(f, invalidUTF8Reason(i))
		return false
	}
	if i := loneSurrogate(text); i >= 0 {
		x.fail(f, loneSurrogateReason(text[i:i+6]))
		return false
	}
	return true
}

func invalidUTF8Reason(at int) string {
	return "invalid UTF-8 at byte " + strconv.Itoa(at) + " of its value"
}

func loneSurrogateReason(escape []byte) string {
	return "lone surrogate " + string(escape) + " (half of a UTF-16 pair; UTF-8 text cannot hold it)"
}

// convert sets field f from a JSON token.
func (x *Extractor) convert(f int, tok Token, text []byte, esc bool) {
	v := &x.vals[f]
	*v = Value{Token: tok}
	x.mark(f)
	if tok == TokNull {
		v.Null = true
		return
	}
	kind := x.fields[f].Kind
	switch kind {
	case KindAny:
		switch tok {
		case TokString:
			v.Bytes, _ = x.text(f, text, esc)
		case TokObject, TokArray:
			if x.checkJSON(f, text) {
				v.Bytes = text
			}
		default:
			v.Bytes = text
		}
	case KindJSON:
		if tok == TokString && !esc && utf8.Valid(text) || x.checkJSON(f, text) {
			v.Bytes = text
		}
	case KindString:
		switch tok {
		case TokString:
			v.Bytes, _ = x.text(f, text, esc)
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
			ms, ok := x.dates.parseTimestamp(x.str(text, esc))
			if !ok {
				x.fail(f, "expected an RFC 3339 timestamp or epoch milliseconds, got "+describe(tok, text))
				return
			}
			if !TimestampInRange(ms) {
				x.fail(f, describe(tok, text)+" "+OutsideTimestamps)
				return
			}
			v.Int = ms
		case TokNumber:
			ms, ok := ParseInt(text)
			if !ok {
				x.fail(f, "expected an RFC 3339 timestamp or integer epoch milliseconds, got "+describe(tok, text))
				return
			}
			if !TimestampInRange(ms) {
				x.fail(f, describe(tok, text)+" "+OutsideTimestamps)
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
		} else if !DateInRange(v.Int) {
			x.fail(f, describe(tok, text)+" "+OutsideDates)
		}
	case KindDecimal:
		x.convertDecimal(f, tok, text, esc)
	case KindStruct, KindList, KindMap:
		x.convertNested(f, tok, text)
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

// parseSimpleFloat parses text when it is one of the common decimals
// parseDecimal reads.
func parseSimpleFloat(text []byte) (float64, bool) {
	f, end, ok := parseDecimal(text, 0)
	return f, ok && end == len(text)
}

// parseDecimal reads the JSON number at b[i] in one pass when it is a
// common decimal: at most 15 digits and no exponent. The mantissa and the
// power of ten are then exact float64s and one division rounds correctly
// (strconv's own exact path). It returns the index after the number; other
// numbers, and text that is not a number, return false, for scanNumber and
// strconv.ParseFloat.
func parseDecimal(b []byte, i int) (float64, int, bool) {
	j := i
	neg := j < len(b) && b[j] == '-'
	if neg {
		j++
	}
	var mant uint64
	start := j
	for j < len(b) && b[j]-'0' <= 9 {
		mant = mant*10 + uint64(b[j]-'0')
		j++
	}
	digits := j - start
	if digits == 0 || digits > 1 && b[start] == '0' {
		return 0, i, false
	}
	frac := 0
	if j < len(b) && b[j] == '.' {
		j++
		start = j
		for j < len(b) && b[j]-'0' <= 9 {
			mant = mant*10 + uint64(b[j]-'0')
			j++
		}
		if frac = j - start; frac == 0 {
			return 0, i, false
		}
	}
	if digits+frac > 15 || j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		return 0, i, false
	}
	f := float64(mant)
	if frac > 0 {
		f /= float64pow10[frac]
	}
	if neg {
		f = -f
	}
	return f, j, true
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
		if kind == KindString {
			if i := invalidUTF8(rec.Key); i >= 0 {
				x.fail(f, invalidUTF8Reason(i))
				return
			}
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
		if kind == KindTimestamp && !TimestampInRange(rec.Timestamp) {
			x.fail(f, strconv.FormatInt(rec.Timestamp, 10)+" "+OutsideTimestamps)
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
			b = jsonstr.Append(b, h.Key)
			b = append(b, `,"value":`...)
			b = jsonstr.Append(b, h.Value)
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
