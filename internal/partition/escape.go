package partition

import (
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"
)

// DefaultPartitionName is the folder value of a null or empty value, as Hive,
// Spark and DuckDB name it.
const DefaultPartitionName = "__HIVE_DEFAULT_PARTITION__"

// Component limits. File systems allow 255 bytes per path component; a
// folder is "name=value", names are at most MaxNameBytes, and values are
// capped at MaxValueBytes (or less, so that the component stays within 255).
const (
	MaxComponentBytes = 255
	MaxNameBytes      = 54
	MaxValueBytes     = 200
	// hashSuffixBytes is "~" and 16 hex digits of SHA-256.
	hashSuffixBytes = 17
)

// hiveEscaped marks the bytes Hive's FileUtils.escapePathName percent-encodes
// (its charToEscape list): the control characters 0x01-0x1F and 0x7F, and
// " # % ' * / : = ? \ { [ ] ^. NUL is added: Hive's list omits it, but no
// file system or object store takes it in a name.
var hiveEscaped = func() (t [256]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t[0x7f] = true
	for _, c := range []byte(`"#%'*/:=?\{[]^`) {
		t[c] = true
	}
	return t
}()

// AppendEscaped appends value escaped as a Hive partition value, which a path
// cannot be led out of the destination prefix by:
//
//   - the bytes Hive escapes (see hiveEscaped; notably '/' and '\') become
//     %XX with upper-case hex, exactly as Hive writes them, so Hive, Spark
//     and DuckDB read the original value back;
//   - bytes that are not valid UTF-8 become %XX too: object stores require
//     UTF-8 names (Hive never meets them, Java strings being Unicode);
//   - the values "." and ".." become %2E and %2E%2E;
//   - empty values become DefaultPartitionName;
//   - an escaped value longer than limit bytes is cut to at most limit-17
//     bytes (never inside an escape or a UTF-8 sequence) and followed by "~"
//     and 16 hex digits of the SHA-256 of the whole original value, so that
//     distinct long values stay in distinct folders. Readers would see the
//     shortened form as the partition value, so AppendPath refuses such
//     values instead (the limit then only bounds names).
//
// Other bytes, including UTF-8 text, are kept as they are.
func AppendEscaped(dst, value []byte, limit int) []byte {
	switch string(value) {
	case "":
		return append(dst, DefaultPartitionName...)
	case ".":
		return append(dst, "%2E"...)
	case "..":
		return append(dst, "%2E%2E"...)
	}
	start := len(dst)
	for i := 0; i < len(value); {
		c := value[i]
		if c < utf8.RuneSelf {
			if hiveEscaped[c] {
				dst = appendPercent(dst, c)
			} else {
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(value[i:])
		if r == utf8.RuneError && size == 1 {
			dst = appendPercent(dst, c)
			i++
			continue
		}
		dst = append(dst, value[i:i+size]...)
		i += size
	}
	if len(dst)-start <= limit {
		return dst
	}
	cut := start + limit - hashSuffixBytes
	// Step back to a boundary: not inside %XX, not inside a UTF-8 sequence.
	for cut > start {
		if cut-start >= 1 && dst[cut-1] == '%' {
			cut--
		} else if cut-start >= 2 && dst[cut-2] == '%' {
			cut -= 2
		} else if !utf8.RuneStart(dst[cut]) {
			cut--
		} else {
			break
		}
	}
	sum := sha256.Sum256(value)
	dst = append(dst[:cut], '~')
	return hex.AppendEncode(dst, sum[:8])
}

func appendPercent(dst []byte, c byte) []byte {
	const hexUpper = "0123456789ABCDEF"
	return append(dst, '%', hexUpper[c>>4], hexUpper[c&0xf])
}

// Unescape decodes %XX escapes as Hive, Spark and DuckDB do when they read a
// partition value; it is the inverse of AppendEscaped for values that were
// not shortened.
func Unescape(s string) string {
	if s == DefaultPartitionName {
		return ""
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if h, l := unhex(s[i+1]), unhex(s[i+2]); h >= 0 && l >= 0 {
				out = append(out, byte(h<<4|l))
				i += 2
				continue
			}
		}
		out = append(out, s[i])
	}
	return string(out)
}

func unhex(c byte) int {
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
