package format

import (
	"encoding/base64"
	"errors"
	"strconv"

	"github.com/streamctl/streamctl/internal/format/parquet"
	"github.com/streamctl/streamctl/internal/format/row"
)

// shredder splits the normalised JSON of nested values into the entries of
// their Parquet leaves (parquet.ShredFunc), with Dremel's repetition and
// definition levels. The JSON is the extractor's normal form, so its leaves
// parse without surprise; an error means a bug, and fails the file.
type shredder struct {
	x   Extractor // for its decimal reader
	buf []byte    // unescaped strings and decoded bytes of the current value
}

// newShredFunc makes the shredder of one Parquet file.
func newShredFunc() parquet.ShredFunc {
	s := &shredder{}
	return s.shred
}

var errShred = errors.New("a nested value that is not in normal form")

func (s *shredder) shred(t *Type, nullable bool, v Value, leaves [][]row.Entry) error {
	s.buf = s.buf[:0]
	if v.Null {
		s.nulls(t, 0, 0, leaves)
		return nil
	}
	tok, end, _, err := scanValue(v.Bytes, 0, 0)
	if err != nil || end != len(v.Bytes) {
		return errShred
	}
	// The column is optional when it can be null; its def level then
	// counts it. A required column's value is always there.
	def := uint8(0)
	if nullable {
		def = 1
	}
	_, err = s.node(t, tok, v.Bytes, 0, 0, def, leaves)
	return err
}

// nulls gives every leaf under t one entry at rep and def: the value, or
// a list or map around it, is null, missing or empty at that level.
func (s *shredder) nulls(t *Type, rep, def uint8, leaves [][]row.Entry) [][]row.Entry {
	n := t.Leaves()
	for k := range n {
		leaves[k] = append(leaves[k], row.Entry{Rep: rep, Def: def, Value: Value{Null: true}})
	}
	return leaves[n:]
}

// node adds the value text (token tok), defined at level def, of type t,
// first at repetition level rep, with depth repeated groups above it. It
// returns the leaves after t's.
func (s *shredder) node(t *Type, tok Token, text []byte, rep, depth, def uint8, leaves [][]row.Entry) ([][]row.Entry, error) {
	switch t.Kind {
	case KindStruct:
		rest := leaves
		var err error
		for _, f := range t.Fields {
			ftok, ftext := TokNone, []byte(nil)
			eachMember(text, func(quoted []byte, esc bool, tok Token, val []byte) {
				if !esc && string(quoted[1:len(quoted)-1]) == f.Name || esc && s.unescaped(quoted) == f.Name {
					ftok, ftext = tok, val
				}
			})
			if rest, err = s.field(f.Type, ftok, ftext, rep, depth, def, rest); err != nil {
				return nil, err
			}
		}
		return rest, nil
	case KindList:
		n := t.Elem.Leaves()
		if len(text) == 2 || text[1] == ']' { // [] (the normal form has no spaces)
			return s.nulls(t.Elem, rep, def, leaves), nil
		}
		var err error
		first := true
		eachElement(text, func(tok Token, val []byte) {
			r := depth + 1
			if first {
				r, first = rep, false
			}
			if err == nil {
				_, err = s.field(t.Elem, tok, val, r, depth+1, def+1, leaves)
			}
		})
		return leaves[n:], err
	case KindMap:
		n := 1 + t.Elem.Leaves()
		if len(text) == 2 {
			return s.nulls(t, rep, def, leaves), nil
		}
		var err error
		first := true
		eachMember(text, func(quoted []byte, _ bool, tok Token, val []byte) {
			r := depth + 1
			if first {
				r, first = rep, false
			}
			if err != nil {
				return
			}
			key, kerr := s.leaf(row.Flat(KindString), TokString, quoted)
			if kerr != nil {
				err = kerr
				return
			}
			leaves[0] = append(leaves[0], row.Entry{Rep: r, Def: def + 1, Value: key}) // the key is required
			_, err = s.field(t.Elem, tok, val, r, depth+1, def+1, leaves[1:])
		})
		return leaves[n:], err
	}
	v, err := s.leaf(t, tok, text)
	if err != nil {
		return nil, err
	}
	leaves[0] = append(leaves[0], row.Entry{Rep: rep, Def: def, Value: v})
	return leaves[1:], nil
}

// field adds an optional value (a struct's field, a list's element, a
// map's value) whose parent is defined at def.
func (s *shredder) field(t *Type, tok Token, text []byte, rep, depth, def uint8, leaves [][]row.Entry) ([][]row.Entry, error) {
	if tok == TokNone || tok == TokNull {
		return s.nulls(t, rep, def, leaves), nil
	}
	return s.node(t, tok, text, rep, depth, def+1, leaves)
}

func (s *shredder) unescaped(quoted []byte) string {
	b, _ := appendUnescaped(nil, quoted[1:len(quoted)-1])
	return string(b)
}

// leaf is the value of a flat type from its normal-form JSON.
func (s *shredder) leaf(t *Type, tok Token, text []byte) (Value, error) {
	content := func() []byte {
		start := len(s.buf)
		s.buf, _ = appendUnescaped(s.buf, text[1:len(text)-1])
		return s.buf[start:len(s.buf):len(s.buf)]
	}
	var ok bool
	var v Value
	switch t.Kind {
	case KindString:
		if tok == TokString {
			v.Bytes, ok = content(), true
		}
	case KindJSON:
		v.Bytes, ok = text, true
	case KindInt32, KindInt64:
		v.Int, ok = ParseInt(text)
	case KindFloat, KindDouble:
		bits := 64
		if t.Kind == KindFloat {
			bits = 32
		}
		f, err := strconv.ParseFloat(string(text), bits)
		v.Float, ok = f, err == nil
	case KindBool:
		if ok = tok == TokBool; ok && text[0] == 't' {
			v.Int = 1
		}
	case KindTimestamp:
		if tok == TokString {
			v.Int, ok = ParseTimestamp(content())
		}
	case KindDate:
		if tok == TokString {
			v.Int, ok = ParseDate(content())
		}
	case KindBytes:
		if tok == TokString {
			start := len(s.buf)
			var err error
			s.buf, err = base64.StdEncoding.AppendDecode(s.buf, text[1:len(text)-1])
			v.Bytes, ok = s.buf[start:len(s.buf):len(s.buf)], err == nil
		}
	case KindDecimal:
		hi, lo, reason := s.x.parseDecimal(text, t)
		if ok = reason == ""; ok {
			if t.Decimal64() {
				v.Int = int64(lo)
			} else {
				start := len(s.buf)
				s.buf = append(s.buf, make([]byte, 16)...)
				putInt128(s.buf[start:], hi, lo)
				v.Bytes = s.buf[start:len(s.buf):len(s.buf)]
			}
		}
	}
	if !ok {
		return v, errShred
	}
	return v, nil
}
