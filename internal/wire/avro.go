package wire

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"time"

	"github.com/streamctl/streamctl/internal/jsonstr"
)

// InvalidError is a payload that does not decode: the record is invalid,
// for the reason given.
type InvalidError struct {
	Reason string
	whole  bool // the datum was read whole: what follows it can be read
}

func (e *InvalidError) Error() string { return e.Reason }

func invalidf(format string, args ...any) error {
	return &InvalidError{Reason: fmt.Sprintf(format, args...)}
}

// ParseAvro parses an Avro schema text. Named types are resolved in a cache
// of the schema's own, with refs (the texts of referenced schemas) parsed
// into it first: two versions of one record name never meet.
func ParseAvro(text string, refs ...string) (*AvroSchema, error) {
	p := &avroParser{named: map[string]*AvroSchema{}}
	for _, r := range refs {
		if _, err := p.parse(r); err != nil {
			return nil, fmt.Errorf("parse referenced Avro schema: %w", err)
		}
	}
	s, err := p.parse(text)
	if err != nil {
		return nil, fmt.Errorf("parse Avro schema: %w", err)
	}
	return s, nil
}

// AppendAvro decodes the Avro binary encoding of one datum of schema s from
// b and appends its canonical JSON to dst. Bytes left over after the datum
// make it invalid: they mean the schema is not the writer's.
func AppendAvro(dst []byte, s *AvroSchema, b []byte) ([]byte, error) {
	dst, rest, err := DecodeAvro(dst, s, b)
	if err != nil {
		return dst, err
	}
	if len(rest) > 0 {
		return dst, invalidf("Avro datum ends %d bytes before the payload does: is the schema the writer's?", len(rest))
	}
	return dst, nil
}

// DecodeAvro decodes one datum of schema s from the front of b, appends its
// canonical JSON to dst and returns the bytes after the datum. A datum that
// reads whole but holds a value JSON cannot (NaN, an enum index out of
// range) still returns the rest, with an *InvalidError: the datums after it
// in a block can still be read. Any other error leaves the rest unknown.
func DecodeAvro(dst []byte, s *AvroSchema, b []byte) (out, rest []byte, err error) {
	r := avroReader{b: b}
	dst, err = r.value(dst, s, "")
	if err != nil {
		return dst, nil, err
	}
	if r.bad != nil {
		return dst, r.b, r.bad
	}
	return dst, r.b, nil
}

// Whole reports whether err, from DecodeAvro, left the rest readable.
func Whole(err error) bool {
	var ie *InvalidError
	return err == nil || errors.As(err, &ie) && ie.whole
}

func (r *avroReader) badValue(format string, args ...any) {
	if r.bad == nil {
		r.bad = &InvalidError{Reason: fmt.Sprintf(format, args...), whole: true}
	}
}

type avroReader struct {
	b     []byte
	depth int
	items int64 // array and map items so far
	bad   error // the first value JSON cannot hold; decoding goes on
}

// maxDepth bounds recursion on recursive schemas fed hostile payloads.
const maxDepth = 256

// maxItems is how many array and map items of no bytes a datum may hold.
const maxItems = 1 << 20

func (r *avroReader) truncated(path string) error {
	return invalidf("Avro payload ends inside %s", fieldName(path))
}

func fieldName(path string) string {
	if path == "" {
		return "the record"
	}
	return "field " + path
}

func (r *avroReader) long(path string) (int64, error) {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		if n == 0 {
			return 0, r.truncated(path)
		}
		return 0, invalidf("Avro payload has an overlong integer in %s", fieldName(path))
	}
	r.b = r.b[n:]
	return v, nil
}

func (r *avroReader) take(n int64, path string) ([]byte, error) {
	if n < 0 {
		return nil, invalidf("Avro payload has a negative length %d in %s", n, fieldName(path))
	}
	if int64(len(r.b)) < n {
		return nil, r.truncated(path)
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v, nil
}

func (r *avroReader) bytes(path string) ([]byte, error) {
	n, err := r.long(path)
	if err != nil {
		return nil, err
	}
	return r.take(n, path)
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (r *avroReader) value(dst []byte, s *AvroSchema, path string) ([]byte, error) {
	r.depth++
	if r.depth > maxDepth {
		return dst, invalidf("Avro value nests deeper than %d levels in %s", maxDepth, fieldName(path))
	}
	dst, err := r.value1(dst, s, path)
	r.depth--
	return dst, err
}

func (r *avroReader) value1(dst []byte, s *AvroSchema, path string) ([]byte, error) {
	switch s.Kind {
	case AvroRecord:
		dst = append(dst, '{')
		for i, f := range s.Fields {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonstr.Append(dst, f.Name)
			dst = append(dst, ':')
			var err error
			if dst, err = r.value(dst, f.Type, join(path, f.Name)); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case AvroEnum:
		i, err := r.long(path)
		if err != nil {
			return dst, err
		}
		syms := s.Symbols
		if i < 0 || i >= int64(len(syms)) {
			r.badValue("Avro enum %s has no symbol %d in %s", s.Name, i, fieldName(path))
			return append(dst, "null"...), nil
		}
		return jsonstr.Append(dst, syms[i]), nil
	case AvroArray:
		dst = append(dst, '[')
		first := true
		err := r.blocks(path, func() error {
			if !first {
				dst = append(dst, ',')
			}
			first = false
			var err error
			dst, err = r.value(dst, s.Items, path+"[]")
			return err
		})
		return append(dst, ']'), err
	case AvroMap:
		dst = append(dst, '{')
		first := true
		err := r.blocks(path, func() error {
			k, err := r.bytes(path)
			if err != nil {
				return err
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = jsonstr.Append(dst, k)
			dst = append(dst, ':')
			dst, err = r.value(dst, s.Values, join(path, string(k)))
			return err
		})
		return append(dst, '}'), err
	case AvroUnion:
		i, err := r.long(path)
		if err != nil {
			return dst, err
		}
		types := s.Branches
		if i < 0 || i >= int64(len(types)) {
			return dst, invalidf("Avro union has no branch %d in %s", i, fieldName(path))
		}
		return r.value(dst, types[i], path)
	case AvroFixed:
		v, err := r.take(int64(s.Size), path)
		if err != nil {
			return dst, err
		}
		switch s.Logical {
		case "decimal":
			return AppendDecimal(dst, v, s.Scale), nil
		case "duration":
			return appendAvroDuration(dst, v), nil
		case "uuid":
			return appendUUID(dst, v), nil
		}
		return appendBase64(dst, v), nil
	}
	return r.primitive(dst, s, path)
}

// blocks reads the blocks of an array or a map, calling item for each item.
func (r *avroReader) blocks(path string, item func() error) error {
	for {
		n, err := r.long(path)
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if n < 0 {
			// A negative count is followed by the block's size in bytes.
			n = -n
			if _, err := r.long(path); err != nil {
				return err
			}
		}
		// Items of zero bytes (null, empty records) make any count
		// possible in a few bytes: a budget on all the items of a datum
		// bounds the work a hostile payload can ask for.
		if r.items += n; r.items > maxItems+int64(len(r.b)) {
			return invalidf("Avro value has more than %d array or map items, in %s", maxItems+int64(len(r.b)), fieldName(path))
		}
		for range n {
			if err := item(); err != nil {
				return err
			}
		}
	}
}

func (r *avroReader) primitive(dst []byte, s *AvroSchema, path string) ([]byte, error) {
	switch s.Kind {
	case AvroNull:
		return append(dst, "null"...), nil
	case AvroBoolean:
		v, err := r.take(1, path)
		if err != nil {
			return dst, err
		}
		switch v[0] {
		case 0:
			return append(dst, "false"...), nil
		case 1:
			return append(dst, "true"...), nil
		}
		r.badValue("Avro boolean is byte %d in %s", v[0], fieldName(path))
		return append(dst, "null"...), nil
	case AvroInt, AvroLong:
		v, err := r.long(path)
		if err != nil {
			return dst, err
		}
		if s.Kind == AvroInt && (v < math.MinInt32 || v > math.MaxInt32) {
			r.badValue("Avro int %d in %s is out of range", v, fieldName(path))
			return append(dst, "null"...), nil
		}
		switch s.Logical {
		case "date":
			return appendTime(dst, time.Unix(v*86400, 0).UTC(), -1), nil
		case "time-millis":
			return r.timeOfDay(dst, v*1000, path), nil
		case "time-micros":
			return r.timeOfDay(dst, v, path), nil
		case "timestamp-millis", "local-timestamp-millis":
			return appendTime(dst, time.UnixMilli(v).UTC(), 3), nil
		case "timestamp-micros", "local-timestamp-micros":
			return appendTime(dst, time.UnixMicro(v).UTC(), 6), nil
		case "timestamp-nanos", "local-timestamp-nanos":
			return appendTime(dst, time.Unix(0, v).UTC(), 9), nil
		}
		return strconv.AppendInt(dst, v, 10), nil
	case AvroFloat:
		v, err := r.take(4, path)
		if err != nil {
			return dst, err
		}
		return r.float(dst, float64(math.Float32frombits(binary.LittleEndian.Uint32(v))), 32, path), nil
	case AvroDouble:
		v, err := r.take(8, path)
		if err != nil {
			return dst, err
		}
		return r.float(dst, math.Float64frombits(binary.LittleEndian.Uint64(v)), 64, path), nil
	case AvroString:
		v, err := r.bytes(path)
		if err != nil {
			return dst, err
		}
		return jsonstr.Append(dst, v), nil
	case AvroBytes:
		v, err := r.bytes(path)
		if err != nil {
			return dst, err
		}
		if s.Logical == "decimal" {
			return AppendDecimal(dst, v, s.Scale), nil
		}
		return appendBase64(dst, v), nil
	}
	return dst, fmt.Errorf("Avro type %s in %s is not supported", s.Kind, fieldName(path))
}

// appendTime writes the UTC time t as a JSON string: "YYYY-MM-DD" with
// frac -1, else RFC 3339 with frac fractional digits and "Z". By hand, as
// time.AppendFormat took 40% of decoding a record; years outside 0 to 9999
// take AppendFormat's way.
func appendTime(dst []byte, t time.Time, frac int) []byte {
	year, month, day := t.Date()
	if year < 0 || year > 9999 {
		layout := time.DateOnly
		switch {
		case frac > 0:
			layout = "2006-01-02T15:04:05." + "000000000"[:frac] + "Z07:00"
		case frac == 0:
			layout = "2006-01-02T15:04:05Z07:00"
		}
		dst = append(dst, '"')
		dst = t.AppendFormat(dst, layout)
		return append(dst, '"')
	}
	dst = append(dst, '"')
	dst = appendDigits(dst, year, 4)
	dst = append(dst, '-')
	dst = appendDigits(dst, int(month), 2)
	dst = append(dst, '-')
	dst = appendDigits(dst, day, 2)
	if frac >= 0 {
		hour, minute, sec := t.Clock()
		dst = append(dst, 'T')
		dst = appendDigits(dst, hour, 2)
		dst = append(dst, ':')
		dst = appendDigits(dst, minute, 2)
		dst = append(dst, ':')
		dst = appendDigits(dst, sec, 2)
		if frac > 0 {
			dst = append(dst, '.')
			dst = appendDigits(dst, t.Nanosecond()/pow10[9-frac], frac)
		}
		dst = append(dst, 'Z')
	}
	return append(dst, '"')
}

var pow10 = [...]int{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000}

// appendDigits writes v, 0 ≤ v < 10^width, in exactly width digits.
func appendDigits(dst []byte, v, width int) []byte {
	for i := width - 1; i >= 0; i-- {
		dst = append(dst, byte('0'+v/pow10[i]%10))
	}
	return dst
}

// appendAvroDuration writes an Avro duration (three little-endian unsigned
// 32-bit counts: months, days, milliseconds) as an ISO 8601 duration with
// every part: "P14M3DT4.005S". The parts stay apart, never normalized: a
// month is not a number of days, nor a day of milliseconds (daylight
// saving).
func appendAvroDuration(dst, v []byte) []byte {
	months := binary.LittleEndian.Uint32(v[0:4])
	days := binary.LittleEndian.Uint32(v[4:8])
	millis := binary.LittleEndian.Uint32(v[8:12])
	dst = append(dst, `"P`...)
	dst = strconv.AppendUint(dst, uint64(months), 10)
	dst = append(dst, 'M')
	dst = strconv.AppendUint(dst, uint64(days), 10)
	dst = append(dst, "DT"...)
	dst = strconv.AppendUint(dst, uint64(millis/1000), 10)
	dst = append(dst, '.')
	dst = appendDigits(dst, int(millis%1000), 3)
	return append(dst, `S"`...)
}

// appendUUID writes the 16 bytes of a fixed uuid in the text form a string
// uuid has: "6ba7b810-9dad-11d1-80b4-00c04fd430c8".
func appendUUID(dst, v []byte) []byte {
	dst = append(dst, '"')
	for i, c := range v {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

func appendBase64(dst, v []byte) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, v)
	return append(dst, '"')
}

// appendFloat writes v as the shortest number that reads back as v; NaN and
// the infinities have no JSON form, so they make the record invalid.
func appendFloat(dst []byte, v float64, bits int, path string) ([]byte, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return dst, invalidf("%s is %v, which JSON cannot hold", fieldName(path), v)
	}
	return strconv.AppendFloat(dst, v, 'g', -1, bits), nil
}

func (r *avroReader) float(dst []byte, v float64, bits int, path string) []byte {
	out, err := appendFloat(dst, v, bits, path)
	if err != nil {
		r.badValue("%s", err.Error())
		return append(dst, "null"...)
	}
	return out
}

// timeOfDay writes micros since midnight as "HH:MM:SS.ffffff".
func (r *avroReader) timeOfDay(dst []byte, micros int64, path string) []byte {
	if micros < 0 || micros >= 86400e6 {
		r.badValue("time of day %dµs in %s is outside a day", micros, fieldName(path))
		return append(dst, "null"...)
	}
	s := micros / 1e6
	return fmt.Appendf(dst, `"%02d:%02d:%02d.%06d"`, s/3600, s/60%60, s%60, micros%1e6)
}

// AppendDecimal writes the decimal whose unscaled value is the big-endian
// two's-complement integer b as an exact JSON number with exactly scale
// fractional digits (scale 2: -1230 gives -12.30).
func AppendDecimal(dst, b []byte, scale int) []byte {
	if len(b) > 0 && len(b) < 8 && scale >= 0 && scale < 19 {
		// Fits an int64 (one byte short, so that negating cannot
		// overflow): no big.Int.
		v := int64(int8(b[0]))
		for _, c := range b[1:] {
			v = v<<8 | int64(c)
		}
		return appendScaledInt(dst, v, scale)
	}
	u := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		u.Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(len(b))*8))
	}
	return appendScaled(dst, u, scale)
}

func appendScaledInt(dst []byte, v int64, scale int) []byte {
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	}
	var buf [24]byte
	digits := strconv.AppendInt(buf[:0], v, 10)
	if scale == 0 {
		return append(dst, digits...)
	}
	if pad := scale + 1 - len(digits); pad > 0 {
		dst = append(dst, '0')
		dst = append(dst, '.')
		for range pad - 1 {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[:len(digits)-scale]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-scale:]...)
}

func appendScaled(dst []byte, u *big.Int, scale int) []byte {
	if u.Sign() < 0 {
		dst = append(dst, '-')
		u = new(big.Int).Neg(u)
	}
	digits := u.Text(10)
	if scale <= 0 {
		dst = append(dst, digits...)
		for range -scale {
			if digits != "0" {
				dst = append(dst, '0')
			}
		}
		return dst
	}
	for len(digits) <= scale {
		digits = "0" + digits
	}
	dst = append(dst, digits[:len(digits)-scale]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-scale:]...)
}
