package format

import (
	"bytes"
	"encoding/base64"
	"math"
	"strconv"
)

// AppendText appends the canonical text of a non-null value of kind k: the
// form CSV writes, identity partitions name folders with and route_by hashes.
//
//	string, json, any  the bytes as they are (a string's unescaped content)
//	int32, int64       decimal
//	float, double      shortest decimal that reads back the same, as JSON
//	                   writes numbers (1e+21 and up, and below 1e-6, in
//	                   exponent form)
//	bool               true | false
//	timestamp          RFC 3339 UTC with milliseconds: 2026-01-02T03:04:05.678Z
//	date               2026-01-02
//	bytes              standard base64 with padding
func AppendText(dst []byte, v Value, k Kind) []byte {
	switch k {
	case KindInt32, KindInt64:
		return strconv.AppendInt(dst, v.Int, 10)
	case KindFloat:
		return appendFloat(dst, v.Float, 32)
	case KindDouble:
		return appendFloat(dst, v.Float, 64)
	case KindBool:
		if v.Int != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case KindTimestamp:
		return AppendTimestamp(dst, v.Int)
	case KindDate:
		return AppendDate(dst, v.Int)
	case KindBytes:
		return base64.StdEncoding.AppendEncode(dst, v.Bytes)
	}
	return append(dst, v.Bytes...)
}

// appendFloat formats like encoding/json (and JavaScript): plain decimal
// unless the exponent is below -6 or at least 21.
func appendFloat(dst []byte, f float64, bits int) []byte {
	abs := math.Abs(f)
	fmtByte := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			fmtByte = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, fmtByte, -1, bits)
	if fmtByte == 'e' {
		// clean up e-09 to e-9
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// appendCSVField appends s as an RFC 4180 field: quoted, with quotes
// doubled, when it holds a comma, quote, CR or LF, and also when it is
// empty, so that an empty string ("") differs from a null (nothing).
func appendCSVField(dst, s []byte) []byte {
	if len(s) > 0 && bytes.IndexAny(s, ",\"\r\n") < 0 {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for {
		i := bytes.IndexByte(s, '"')
		if i < 0 {
			break
		}
		dst = append(dst, s[:i+1]...)
		dst = append(dst, '"')
		s = s[i+1:]
	}
	dst = append(dst, s...)
	return append(dst, '"')
}

// appendCompactJSON appends valid JSON text without its insignificant
// whitespace.
func appendCompactJSON(dst, src []byte) []byte {
	inStr := false
	start := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case ' ', '\t', '\n', '\r':
			dst = append(dst, src[start:i]...)
			start = i + 1
		}
	}
	return append(dst, src[start:]...)
}
