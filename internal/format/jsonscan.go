package format

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// SyntaxError is a record that is not a JSON object.
type SyntaxError struct {
	Offset int // byte offset in the record where the problem was seen
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("not JSON: %s at byte %d", e.Msg, e.Offset)
}

func syntaxErr(b []byte, i int, what string) error {
	if i >= len(b) {
		return &SyntaxError{Offset: i, Msg: "unexpected end of record, " + what}
	}
	return &SyntaxError{Offset: i, Msg: fmt.Sprintf("invalid character %q, %s", b[i], what)}
}

// maxDepth bounds the nesting a record may have, so that a hostile record
// cannot exhaust the stack.
const maxDepth = 512

// strPlain[c] is true for the bytes of a JSON string that need no attention:
// anything but '"', '\\' and control characters.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// hasZeroByte is non-zero when a byte of v is zero.
func hasZeroByte(v uint64) uint64 { return (v - lsb) & ^v & msb }

// hasByteLess is non-zero when a byte of v is below n (n <= 128).
func hasByteLess(v uint64, n uint64) uint64 { return (v - lsb*n) & ^v & msb }

// isSpace reports JSON whitespace.
func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && isSpace(b[i]) {
		i++
	}
	return i
}

// scanString scans the string starting at b[i] == '"'. It returns the index
// after the closing quote, whether the content holds escapes, and whether
// it is all ASCII (and so valid UTF-8 without a second pass over it: one OR
// per eight bytes).
func scanString(b []byte, i int) (end int, esc, ascii bool, err error) {
	i++
	var high uint64
	for {
		// Eight bytes at a time while none needs attention (SWAR): most
		// strings are plain text.
		for i+8 <= len(b) {
			v := binary.LittleEndian.Uint64(b[i:])
			if hasZeroByte(v^(lsb*'"'))|hasZeroByte(v^(lsb*'\\'))|hasByteLess(v, 0x20) != 0 {
				break
			}
			high |= v
			i += 8
		}
		for i < len(b) && strPlain[b[i]] {
			high |= uint64(b[i])
			i++
		}
		if i >= len(b) {
			return i, esc, false, syntaxErr(b, i, "in a string")
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, esc, high&msb == 0, nil
		case c == '\\':
			esc = true
			if i+1 >= len(b) {
				return i + 1, esc, false, syntaxErr(b, i+1, "in a string escape")
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					return i, esc, false, syntaxErr(b, i, "in a \\u escape")
				}
				i += 6
			default:
				return i + 1, esc, false, syntaxErr(b, i+1, "in a string escape")
			}
		default:
			return i, esc, false, syntaxErr(b, i, "in a string (control characters must be escaped)")
		}
	}
}

func isHex4(b []byte) bool {
	for _, c := range b[:4] {
		if hexVal(c) < 0 {
			return false
		}
	}
	return true
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// scanNumber scans the JSON number starting at b[i]. integral reports a
// number without fraction or exponent.
func scanNumber(b []byte, i int) (end int, integral bool, err error) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return i, false, syntaxErr(b, i, "in a number")
	}
	integral = true
	if i < len(b) && b[i] == '.' {
		integral = false
		i++
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return i, false, syntaxErr(b, i, "in a number")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integral = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == d {
			return i, false, syntaxErr(b, i, "in a number")
		}
	}
	return i, integral, nil
}

func scanLiteral(b []byte, i int, lit string) (int, error) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return i, syntaxErr(b, i, "in a literal")
	}
	return i + len(lit), nil
}

// scanValue scans the JSON value starting at b[i] (no leading space). It
// returns its token type, the index after it, and for strings whether they
// hold escapes.
func scanValue(b []byte, i, depth int) (tok Token, end int, esc bool, err error) {
	if i >= len(b) {
		return TokNone, i, false, syntaxErr(b, i, "expected a value")
	}
	switch c := b[i]; {
	case c == '"':
		end, esc, _, err = scanString(b, i)
		return TokString, end, esc, err
	case c == '{':
		end, err = skipObject(b, i, depth+1)
		return TokObject, end, false, err
	case c == '[':
		end, err = skipArray(b, i, depth+1)
		return TokArray, end, false, err
	case c == 't':
		end, err = scanLiteral(b, i, "true")
		return TokBool, end, false, err
	case c == 'f':
		end, err = scanLiteral(b, i, "false")
		return TokBool, end, false, err
	case c == 'n':
		end, err = scanLiteral(b, i, "null")
		return TokNull, end, false, err
	case c == '-' || (c >= '0' && c <= '9'):
		end, _, err = scanNumber(b, i)
		return TokNumber, end, false, err
	}
	return TokNone, i, false, syntaxErr(b, i, "expected a value")
}

// closeItems ends the items of an object or an array at b[i], after the
// space: past the closing byte, or a syntax error. Every object and array
// reader ends so, with one set of messages; what goes on at a ',' stays in
// each loop, inline, as the hot path it is.
func closeItems(b []byte, i int, closing byte) (int, error) {
	if i < len(b) && b[i] == closing {
		return i + 1, nil
	}
	return i, itemsErr(b, i, closing)
}

// itemsErr is closeItems's error, out of line.
func itemsErr(b []byte, i int, closing byte) error {
	if closing == '}' {
		return syntaxErr(b, i, "expected ',' or '}' in an object")
	}
	return syntaxErr(b, i, "expected ',' or ']' in an array")
}

func skipObject(b []byte, i, depth int) (int, error) {
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
		end, _, _, err := scanString(b, i)
		if err != nil {
			return end, err
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return i, syntaxErr(b, i, "expected ':' after a key")
		}
		i = skipSpace(b, i+1)
		if _, i, _, err = scanValue(b, i, depth); err != nil {
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

func skipArray(b []byte, i, depth int) (int, error) {
	if depth > maxDepth {
		return i, &SyntaxError{Offset: i, Msg: "nesting deeper than 512 levels"}
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if _, i, _, err = scanValue(b, i, depth); err != nil {
			return i, err
		}
		i = skipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		return closeItems(b, i, ']')
	}
}

// appendUnescaped appends the content of a JSON string (without quotes) that
// scanString accepted, with its escapes decoded. Unpaired surrogates become
// U+FFFD, as encoding/json does; lone is the index in s of the first one's
// escape, -1 when there is none.
func appendUnescaped(dst, s []byte) (out []byte, lone int) {
	lone = -1
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			j := i + 1
			for j < len(s) && s[j] != '\\' {
				j++
			}
			dst = append(dst, s[i:j]...)
			i = j
			continue
		}
		switch s[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := rune(hex4(s[i+2:]))
			at := i
			i += 6
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					r2 = rune(hex4(s[i+2:]))
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					i += 6
					r = dec
				} else {
					r = utf8.RuneError
					if lone < 0 {
						lone = at
					}
				}
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default: // '"', '\\', '/'
			dst = append(dst, s[i+1])
		}
		i += 2
	}
	return dst, lone
}

func hex4(b []byte) int {
	return hexVal(b[0])<<12 | hexVal(b[1])<<8 | hexVal(b[2])<<4 | hexVal(b[3])
}

// TextError is a record passed through byte for byte whose text readers
// cannot take: bytes that are not UTF-8 (which JSON requires), or the \u
// escape of a lone surrogate, half of a UTF-16 pair, which no UTF-8 text
// can hold. DuckDB, arrow-rs and polars refuse a whole file for either.
type TextError struct {
	Offset    int    // in the record
	Surrogate string // the escape as written, e.g. `\ud800`; "" for invalid UTF-8
}

func (e *TextError) Error() string {
	if e.Surrogate != "" {
		return fmt.Sprintf("lone surrogate %s at byte %d of the record", e.Surrogate, e.Offset)
	}
	return fmt.Sprintf("invalid UTF-8 at byte %d of the record", e.Offset)
}

// CheckText returns a *TextError when b, JSON text, is not UTF-8 or holds
// the escape of a lone surrogate.
func CheckText(b []byte) error {
	if i := invalidUTF8(b); i >= 0 {
		return &TextError{Offset: i}
	}
	if i := loneSurrogate(b); i >= 0 {
		return &TextError{Offset: i, Surrogate: string(b[i : i+6])}
	}
	return nil
}

// invalidUTF8 returns the index of the first byte of b that is not part of
// valid UTF-8 (surrogates encoded in UTF-8 are not), or -1. Valid text, the
// common case, costs one utf8.Valid.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// loneSurrogate returns the index in the JSON text b of the first \u escape
// of a surrogate that is not half of a pair, or -1. Backslashes occur only
// in strings, so b may be any JSON value.
func loneSurrogate(b []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 {
			return -1
		}
		i += j
		if i+6 > len(b) || b[i+1] != 'u' || !isHex4(b[i+2:i+6]) {
			i += 2 // another escape, or text the scanner refuses
			if i >= len(b) {
				return -1
			}
			continue
		}
		r := rune(hex4(b[i+2:]))
		if !utf16.IsSurrogate(r) {
			i += 6
			continue
		}
		if r < 0xdc00 && i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' && isHex4(b[i+8:i+12]) {
			if r2 := rune(hex4(b[i+8:])); r2 >= 0xdc00 && r2 <= 0xdfff {
				i += 12
				continue
			}
		}
		return i
	}
}
