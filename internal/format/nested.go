package format

import (
	"encoding/base64"
	"math"
	"strconv"

	"github.com/streamctl/streamctl/internal/jsonstr"
)

// A struct, list or map column's value is its JSON normalised to the
// declared type, in Value.Bytes: a struct's declared fields in their order
// (a missing one null, an undeclared one left out), a list's elements, a
// map's entries in their order, every leaf converted as a column of its type
// is (a timestamp as RFC 3339 UTC with milliseconds, a decimal with its
// scale's digits). A value that does not fit makes the record invalid,
// naming where: `column "order": at items[2].qty: expected an integer, got "x"`.

// nestedError is a value that does not fit its nested type: where in it
// (".items[2].qty") and why.
type nestedError struct {
	path   []byte // built from the inside out, reversed pieces joined on return
	reason string
}

// convertNested sets field f, of a nested type, from the JSON value text.
func (x *Extractor) convertNested(f int, tok Token, text []byte) {
	out, nerr := x.appendNested(x.nested[:0], x.fields[f].Type, tok, text, 0)
	x.nested = out[:0]
	if nerr != nil {
		reason := nerr.reason
		if len(nerr.path) > 0 {
			reason = "at " + string(nerr.path) + ": " + reason
		}
		x.fail(f, reason)
		return
	}
	start := len(x.scratch)
	x.scratch = append(x.scratch, out...)
	x.vals[f].Bytes = x.scratch[start:len(x.scratch):len(x.scratch)]
}

func fitErr(reason string) *nestedError { return &nestedError{reason: reason} }

// under prefixes the path of err with one step (".name" or "[3]").
func (e *nestedError) under(step string) *nestedError {
	e.path = append([]byte(step), e.path...)
	return e
}

// appendNested appends the normalised JSON of the value text, of token
// tok, as type t. text is a whole JSON value scanValue accepted.
func (x *Extractor) appendNested(dst []byte, t *Type, tok Token, text []byte, depth int) ([]byte, *nestedError) {
	if tok == TokNull {
		return append(dst, "null"...), nil
	}
	switch t.Kind {
	case KindStruct:
		if tok != TokObject {
			return dst, fitErr("expected an object for " + t.String() + ", got " + describe(tok, text))
		}
		// Each declared field's value, by the field's index; the last of
		// a key given twice wins, as in most JSON readers.
		base := len(x.spans)
		for range t.Fields {
			x.spans = append(x.spans, span{})
		}
		defer func() { x.spans = x.spans[:base] }()
		err := eachMember(text, func(quoted []byte, esc bool, tok Token, val []byte) {
			name := quoted[1 : len(quoted)-1]
			if esc {
				x.keyBuf, _ = appendUnescaped(x.keyBuf[:0], name)
				name = x.keyBuf
			}
			for i, fl := range t.Fields {
				if fl.Name == string(name) {
					x.spans[base+i] = span{tok: tok, text: val}
				}
			}
		})
		if err != nil {
			return dst, fitErr(err.Error())
		}
		dst = append(dst, '{')
		for i, fl := range t.Fields {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(jsonstr.Append(dst, fl.Name), ':')
			sp := x.spans[base+i]
			if sp.tok == TokNone {
				dst = append(dst, "null"...)
				continue
			}
			var nerr *nestedError
			if dst, nerr = x.appendNested(dst, fl.Type, sp.tok, sp.text, depth+1); nerr != nil {
				return dst, nerr.under("." + fl.Name)
			}
		}
		return append(dst, '}'), nil
	case KindList:
		if tok != TokArray {
			return dst, fitErr("expected an array for " + t.String() + ", got " + describe(tok, text))
		}
		dst = append(dst, '[')
		n := 0
		var nerr *nestedError
		eachElement(text, func(tok Token, val []byte) {
			if nerr != nil {
				return
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			if dst, nerr = x.appendNested(dst, t.Elem, tok, val, depth+1); nerr != nil {
				nerr.under("[" + strconv.Itoa(n) + "]")
			}
			n++
		})
		if nerr != nil {
			return dst, nerr
		}
		return append(dst, ']'), nil
	case KindMap:
		if tok != TokObject {
			return dst, fitErr("expected an object for " + t.String() + ", got " + describe(tok, text))
		}
		dst = append(dst, '{')
		n := 0
		var nerr *nestedError
		err := eachMember(text, func(quoted []byte, _ bool, tok Token, val []byte) {
			if nerr != nil {
				return
			}
			if !x.validText(quoted) {
				nerr = fitErr("the key " + describe(TokString, quoted) + " is not UTF-8 text")
				return
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			dst = append(append(dst, quoted...), ':')
			if dst, nerr = x.appendNested(dst, t.Elem, tok, val, depth+1); nerr != nil {
				nerr.under("[" + string(quoted) + "]")
			}
			n++
		})
		if err != nil {
			return dst, fitErr(err.Error())
		}
		if nerr != nil {
			return dst, nerr
		}
		return append(dst, '}'), nil
	}
	return x.appendLeaf(dst, t, tok, text)
}

// validText reports whether the JSON text (a string, object or array) is
// UTF-8 without a lone surrogate escape.
func (x *Extractor) validText(text []byte) bool {
	return invalidUTF8(text) < 0 && loneSurrogate(text) < 0
}

// appendLeaf appends a flat value of a nested column, converted as a
// column of type t converts it.
func (x *Extractor) appendLeaf(dst []byte, t *Type, tok Token, text []byte) ([]byte, *nestedError) {
	switch t.Kind {
	case KindString:
		switch tok {
		case TokString:
			if !x.validText(text) {
				return dst, fitErr("the text is not UTF-8, or holds a lone surrogate")
			}
			return append(dst, text...), nil
		case TokNumber, TokBool:
			return jsonstr.Append(dst, text), nil
		}
		return dst, fitErr("expected a string, got " + describe(tok, text))
	case KindJSON:
		if !x.validText(text) {
			return dst, fitErr("the text is not UTF-8, or holds a lone surrogate")
		}
		return appendCompactJSON(dst, text), nil
	case KindInt32, KindInt64:
		n, ok := ParseInt(text)
		if tok != TokNumber || !ok {
			return dst, fitErr("expected an integer, got " + describe(tok, text))
		}
		if t.Kind == KindInt32 && (n < math.MinInt32 || n > math.MaxInt32) {
			return dst, fitErr(describe(tok, text) + " is out of range for int32")
		}
		return strconv.AppendInt(dst, n, 10), nil
	case KindFloat, KindDouble:
		if tok != TokNumber {
			return dst, fitErr("expected a number, got " + describe(tok, text))
		}
		bits := 64
		if t.Kind == KindFloat {
			bits = 32
		}
		fl, err := strconv.ParseFloat(string(text), bits)
		if err != nil {
			return dst, fitErr(describe(tok, text) + " is out of range for " + t.Kind.String())
		}
		return appendFloat(dst, fl, bits), nil
	case KindBool:
		if tok != TokBool {
			return dst, fitErr("expected true or false, got " + describe(tok, text))
		}
		return append(dst, text...), nil
	case KindTimestamp:
		var ms int64
		var ok bool
		switch tok {
		case TokString:
			ms, ok = x.dates.parseTimestamp(x.str(text, hasEscape(text)))
		case TokNumber:
			ms, ok = ParseInt(text)
		}
		if !ok {
			return dst, fitErr("expected an RFC 3339 timestamp or epoch milliseconds, got " + describe(tok, text))
		}
		if !TimestampInRange(ms) {
			return dst, fitErr(describe(tok, text) + " " + OutsideTimestamps)
		}
		return append(AppendTimestamp(append(dst, '"'), ms), '"'), nil
	case KindDate:
		var days int64
		ok := false
		if tok == TokString {
			days, ok = ParseDate(x.str(text, hasEscape(text)))
		}
		if !ok {
			return dst, fitErr("expected a date (YYYY-MM-DD), got " + describe(tok, text))
		}
		if !DateInRange(days) {
			return dst, fitErr(describe(tok, text) + " " + OutsideDates)
		}
		return append(AppendDate(append(dst, '"'), days), '"'), nil
	case KindBytes:
		if tok == TokString {
			start := len(x.scratch)
			raw, err := base64.StdEncoding.AppendDecode(x.scratch, x.str(text, hasEscape(text)))
			if err == nil {
				dst = append(base64.StdEncoding.AppendEncode(append(dst, '"'), raw[start:]), '"')
				return dst, nil
			}
		}
		return dst, fitErr("expected base64 text, got " + describe(tok, text))
	case KindDecimal:
		num := text
		if tok == TokString && !hasEscape(text) {
			num = text[1 : len(text)-1]
		} else if tok != TokNumber {
			return dst, fitErr("expected a decimal number, got " + describe(tok, text))
		}
		hi, lo, reason := x.parseDecimal(num, t)
		if reason == "expected a decimal number" {
			return dst, fitErr("expected a decimal number, got " + describe(tok, text))
		} else if reason != "" {
			return dst, fitErr(describe(tok, text) + " " + reason)
		}
		var v Value
		if t.Decimal64() {
			v.Int = int64(lo)
		} else {
			var b [16]byte
			putInt128(b[:], hi, lo)
			v.Bytes = b[:]
		}
		return AppendDecimal(dst, v, t), nil
	}
	return dst, fitErr("no value of type " + t.String())
}

func hasEscape(text []byte) bool {
	for _, c := range text {
		if c == '\\' {
			return true
		}
	}
	return false
}

// span is a JSON value found in an object: its token and text.
type span struct {
	tok  Token
	text []byte
}

// eachMember calls fn with each member of the JSON object text (valid
// JSON): the key with its quotes, whether it has escapes, and the value.
func eachMember(text []byte, fn func(quoted []byte, esc bool, tok Token, val []byte)) error {
	i := skipSpace(text, 1)
	if text[i] == '}' {
		return nil
	}
	for {
		end, esc, _, err := scanString(text, i)
		if err != nil {
			return err
		}
		quoted := text[i:end]
		i = skipSpace(text, skipSpace(text, end)+1)
		tok, vend, _, err := scanValue(text, i, 0)
		if err != nil {
			return err
		}
		fn(quoted, esc, tok, text[i:vend])
		i = skipSpace(text, vend)
		if text[i] != ',' {
			return nil
		}
		i = skipSpace(text, i+1)
	}
}

// eachElement calls fn with each element of the JSON array text (valid
// JSON).
func eachElement(text []byte, fn func(tok Token, val []byte)) {
	i := skipSpace(text, 1)
	if text[i] == ']' {
		return
	}
	for {
		tok, end, _, err := scanValue(text, i, 0)
		if err != nil {
			return
		}
		fn(tok, text[i:end])
		i = skipSpace(text, end)
		if text[i] != ',' {
			return
		}
		i = skipSpace(text, i+1)
	}
}
