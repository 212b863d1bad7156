package partition

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"math/bits"
	"strconv"
	"unicode/utf8"

	"github.com/streamctl/streamctl/internal/format"
)

// Murmur3 is the 32-bit x86 MurmurHash3 of data with seed 0, the hash
// Iceberg's bucket transform specifies.
func Murmur3(data []byte) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	var h uint32
	n := len(data)
	for len(data) >= 4 {
		k := binary.LittleEndian.Uint32(data)
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
		data = data[4:]
	}
	var k uint32
	switch len(data) {
	case 3:
		k ^= uint32(data[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(data[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(data[0])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// HashLong is Iceberg's hash of an int, long or date: Murmur3 of the value
// as 8 little-endian bytes.
func HashLong(v int64) uint32 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(v))
	return Murmur3(b[:])
}

// BucketOf is Iceberg's bucket number of a hash: (hash & MaxInt32) mod n.
func BucketOf(hash uint32, n int32) int32 {
	return int32(hash&0x7fffffff) % n
}

// hashOf returns Iceberg's bucket hash of a value:
//
//	int32, int64, date   HashLong of the integer (dates: days since the epoch)
//	timestamp            HashLong of microseconds since the epoch (Iceberg's unit)
//	string, bytes        Murmur3 of the UTF-8 text or the bytes
//	untyped JSON         integers as long, strings as string; other tokens refused
func hashOf(v format.Value, k format.Kind) (uint32, error) {
	switch k {
	case format.KindInt32, format.KindInt64, format.KindDate:
		return HashLong(v.Int), nil
	case format.KindTimestamp:
		return HashLong(v.Int * 1000), nil
	case format.KindString, format.KindBytes:
		return Murmur3(v.Bytes), nil
	}
	switch v.Token {
	case format.TokString:
		return Murmur3(v.Bytes), nil
	case format.TokNumber:
		if n, ok := format.ParseInt(v.Bytes); ok {
			return HashLong(n), nil
		}
	}
	return 0, errors.New("needs an integer or a string, got " + quoteValue(v))
}

// appendTruncated appends Iceberg's truncate transform of a value:
//
//	int32, int64   v - (((v % W) + W) % W), so -1 truncates to -W
//	string         the first W Unicode code points
//	bytes          the first W bytes (written as base64, like AppendText)
//	untyped JSON   integers as int64, strings as string; other tokens refused
func appendTruncated(dst []byte, v format.Value, k format.Kind, w int64) ([]byte, error) {
	switch k {
	case format.KindInt32, format.KindInt64:
		return strconv.AppendInt(dst, v.Int-(((v.Int%w)+w)%w), 10), nil
	case format.KindString:
		return append(dst, truncateRunes(v.Bytes, w)...), nil
	case format.KindBytes:
		b := v.Bytes
		if int64(len(b)) > w {
			b = b[:w]
		}
		return base64.StdEncoding.AppendEncode(dst, b), nil
	}
	switch v.Token {
	case format.TokString:
		return append(dst, truncateRunes(v.Bytes, w)...), nil
	case format.TokNumber:
		if n, ok := format.ParseInt(v.Bytes); ok {
			return strconv.AppendInt(dst, n-(((n%w)+w)%w), 10), nil
		}
	}
	return dst, errors.New("needs an integer or a string, got " + quoteValue(v))
}

func truncateRunes(s []byte, w int64) []byte {
	for i := 0; i < len(s); w-- {
		if w == 0 {
			return s[:i]
		}
		_, size := utf8.DecodeRune(s[i:])
		i += size
	}
	return s
}
