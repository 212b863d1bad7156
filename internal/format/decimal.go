package format

import (
	"encoding/binary"
	"math/bits"
	"strconv"
)

// Decimals are read from their text exactly, never through a float64: the
// digits become an unscaled integer (the value times 10^scale), held in
// Value.Int up to precision 18 and in Value.Bytes, 16 bytes big-endian
// two's complement, above it.

// decimalDigits parses the JSON number literal text into its significant
// digits (no leading zeros; empty for zero) and the power of ten they are
// multiplied by. ok is false when text is not a JSON number.
func decimalDigits(text []byte, digits []byte) (_ []byte, exp int, neg, ok bool) {
	i := 0
	if i < len(text) && text[i] == '-' {
		neg = true
		i++
	}
	start := i
	for i < len(text) && text[i]-'0' <= 9 {
		if len(digits) > 0 || text[i] != '0' {
			digits = append(digits, text[i])
		}
		i++
	}
	if i == start || i-start > 1 && text[start] == '0' {
		return digits, 0, neg, false
	}
	if i < len(text) && text[i] == '.' {
		i++
		fstart := i
		for i < len(text) && text[i]-'0' <= 9 {
			if len(digits) > 0 || text[i] != '0' {
				digits = append(digits, text[i])
			}
			exp--
			i++
		}
		if i == fstart {
			return digits, 0, neg, false
		}
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		eneg := false
		if i < len(text) && (text[i] == '+' || text[i] == '-') {
			eneg = text[i] == '-'
			i++
		}
		estart := i
		e := 0
		for i < len(text) && text[i]-'0' <= 9 {
			if e < 1e6 { // far beyond any precision: the value is refused either way
				e = e*10 + int(text[i]-'0')
			}
			i++
		}
		if i == estart {
			return digits, 0, neg, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	return digits, exp, neg, i == len(text)
}

// parseDecimal reads text, a JSON number literal (or the content of a JSON
// string holding one), as a decimal of t. It returns the unscaled value as
// two's complement hi and lo words, or the reason it does not fit: more
// fractional digits than the scale (trailing zeros aside, which lose
// nothing) or more integer digits than precision - scale.
func (x *Extractor) parseDecimal(text []byte, t *Type) (hi int64, lo uint64, reason string) {
	digits, exp, neg, ok := decimalDigits(text, x.digits[:0])
	x.digits = digits[:0]
	if !ok {
		return 0, 0, "expected a decimal number"
	}
	for exp+t.Scale < 0 && len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	if len(digits) == 0 {
		return 0, 0, ""
	}
	if exp+t.Scale < 0 {
		return 0, 0, "has " + strconv.Itoa(-exp) + " fractional digits, and " + t.String() + " holds " + strconv.Itoa(t.Scale) + " (round it before it is written, or declare a larger scale)"
	}
	if n := len(digits) + exp + t.Scale; n > t.Precision {
		return 0, 0, "has " + strconv.Itoa(n-t.Scale) + " integer digits, and " + t.String() + " holds " + strconv.Itoa(t.Precision-t.Scale) + " (declare a larger precision)"
	}
	// At most 38 digits: the magnitude fits 127 bits.
	var uhi, ulo uint64
	mul10 := func(d uint64) {
		h1, l1 := bits.Mul64(ulo, 10)
		uhi = uhi*10 + h1
		var c uint64
		ulo, c = bits.Add64(l1, d, 0)
		uhi += c
	}
	for _, c := range digits {
		mul10(uint64(c - '0'))
	}
	for range exp + t.Scale {
		mul10(0)
	}
	if neg {
		ulo, uhi = negate128(ulo, uhi)
	}
	return int64(uhi), ulo, ""
}

func negate128(lo, hi uint64) (uint64, uint64) {
	lo, hi = ^lo, ^hi
	var c uint64
	lo, c = bits.Add64(lo, 1, 0)
	return lo, hi + c
}

// convertDecimal sets field f, a decimal, from a number or a string
// holding one.
func (x *Extractor) convertDecimal(f int, tok Token, text []byte, esc bool) {
	t := x.fields[f].Type
	num := text
	switch tok {
	case TokNumber:
	case TokString:
		if esc {
			x.fail(f, "expected a decimal number, got "+describe(tok, text))
			return
		}
		num = text[1 : len(text)-1]
	default:
		x.fail(f, "expected a decimal number, got "+describe(tok, text))
		return
	}
	hi, lo, reason := x.parseDecimal(num, t)
	if reason != "" {
		if reason == "expected a decimal number" {
			x.fail(f, "expected a decimal number, got "+describe(tok, text))
		} else {
			x.fail(f, describe(tok, text)+" "+reason)
		}
		return
	}
	v := &x.vals[f]
	if t.Decimal64() {
		v.Int = int64(lo)
		return
	}
	start := len(x.scratch)
	x.scratch = append(x.scratch, make([]byte, 16)...)
	putInt128(x.scratch[start:], hi, lo)
	v.Bytes = x.scratch[start:len(x.scratch):len(x.scratch)]
}

// putInt128 writes a 128-bit two's complement integer into b[:16],
// big-endian.
func putInt128(b []byte, hi int64, lo uint64) {
	binary.BigEndian.PutUint64(b, uint64(hi))
	binary.BigEndian.PutUint64(b[8:], lo)
}

// AppendDecimal appends the text of a non-null decimal of type t: its
// exact digits with exactly Scale of them after the point (-12.30), as
// JSONL and CSV write it.
func AppendDecimal(dst []byte, v Value, t *Type) []byte {
	var hi, lo uint64
	if t.Decimal64() {
		lo = uint64(v.Int)
		if v.Int < 0 {
			hi = ^uint64(0)
		}
	} else if len(v.Bytes) == 16 {
		hi, lo = binary.BigEndian.Uint64(v.Bytes), binary.BigEndian.Uint64(v.Bytes[8:])
	}
	if int64(hi) < 0 {
		dst = append(dst, '-')
		lo, hi = negate128(lo, hi)
	}
	// The magnitude is below 10^38: one division by 10^19 leaves a
	// quotient below 10^19, which fits a word.
	var digits [40]byte
	var d []byte
	const e19 = 10_000_000_000_000_000_000
	if hi == 0 {
		d = strconv.AppendUint(digits[:0], lo, 10)
	} else {
		q, r := bits.Div64(hi%e19, lo, e19)
		d = strconv.AppendUint(digits[:0], q, 10)
		n := len(d)
		d = strconv.AppendUint(d, r, 10)
		if pad := 19 - (len(d) - n); pad > 0 { // r's leading zeros
			d = append(d[:n], "0000000000000000000"[:pad]...)
			d = strconv.AppendUint(d, r, 10)
		}
	}
	s := t.Scale
	if len(d) <= s { // below 1: 0.05
		dst = append(dst, "0."...)
		for range s - len(d) {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	dst = append(dst, d[:len(d)-s]...)
	if s > 0 {
		dst = append(dst, '.')
		dst = append(dst, d[len(d)-s:]...)
	}
	return dst
}
