package format

// Time values are converted by hand rather than with package time: time.Parse
// allocates a Location for every non-UTC offset, and the hot path must not
// allocate. Dates use the proleptic Gregorian calendar, as RFC 3339 does.

const msPerDay = 86_400_000

// The timestamps and dates a record may hold: years 0001 to 9999, UTC. Every
// mainstream reader holds them and prints them as RFC 3339: DuckDB fails a
// whole Parquet file on a millisecond timestamp at ±2^63 microseconds and
// reads the largest int64 as infinity, Spark and Java's date types stop at
// year 9999 (or earlier), and a year after 9999 renders as 10000-…, which
// is not RFC 3339. Values outside make the record invalid.
const (
	MinTimestamp int64 = -62_135_596_800_000 // 0001-01-01T00:00:00.000Z, in ms
	MaxTimestamp int64 = 253_402_300_799_999 // 9999-12-31T23:59:59.999Z
	MinDate      int64 = -719_162            // 0001-01-01, in days
	MaxDate      int64 = 2_932_896           // 9999-12-31
)

// What a value outside the range is, after its text, in errors.
const (
	OutsideTimestamps = "is outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, the timestamps every reader holds"
	OutsideDates      = "is outside 0001-01-01 to 9999-12-31, the dates every reader holds"
)

// TimestampInRange reports whether ms is between MinTimestamp and MaxTimestamp.
func TimestampInRange(ms int64) bool { return ms >= MinTimestamp && ms <= MaxTimestamp }

// DateInRange reports whether days is between MinDate and MaxDate.
func DateInRange(days int64) bool { return days >= MinDate && days <= MaxDate }

// daysFromCivil returns the days since 1970-01-01 of y-m-d (Howard Hinnant's
// algorithm, valid for every int64 year that does not overflow).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func daysIn(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// digits parses the n ASCII digits at s[i:].
func digits(s []byte, i, n int) (int64, bool) {
	if i+n > len(s) {
		return 0, false
	}
	var v int64
	for _, c := range s[i : i+n] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// parseDateAt parses YYYY-MM-DD at the start of s.
func parseDateAt(s []byte) (days int64, ok bool) {
	y, ok1 := digits(s, 0, 4)
	m, ok2 := digits(s, 5, 2)
	d, ok3 := digits(s, 8, 2)
	if !ok1 || !ok2 || !ok3 || s[4] != '-' || s[7] != '-' || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, false
	}
	return daysFromCivil(y, m, d), true
}

// ParseDate parses a YYYY-MM-DD date into days since the epoch.
func ParseDate(s []byte) (days int64, ok bool) {
	if len(s) != 10 {
		return 0, false
	}
	return parseDateAt(s)
}

// ParseTimestamp parses an RFC 3339 timestamp
// (YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM), 'T' also 't' or ' ', 'Z' also
// 'z') into milliseconds since the epoch. Digits of the fraction beyond
// milliseconds are dropped (the result is floored to the millisecond).
func ParseTimestamp(s []byte) (ms int64, ok bool) {
	var c dateCache
	return c.parseTimestamp(s)
}

// dateCache is the last date a stream of timestamps had. Records of a stream
// share their date for a day's worth of them, and the date is half of the
// parsing.
type dateCache struct {
	date  [10]byte
	days  int64
	valid bool
}

// parseTimestamp is ParseTimestamp, reusing the last date when s starts with it.
func (c *dateCache) parseTimestamp(s []byte) (ms int64, ok bool) {
	if len(s) < 20 {
		return 0, false
	}
	days := c.days
	if !c.valid || [10]byte(s) != c.date {
		if days, ok = parseDateAt(s); !ok {
			return 0, false
		}
		c.date, c.days, c.valid = [10]byte(s), days, true
	}
	if s[10] != 'T' && s[10] != 't' && s[10] != ' ' {
		return 0, false
	}
	hh, ok1 := digits(s, 11, 2)
	mm, ok2 := digits(s, 14, 2)
	ss, ok3 := digits(s, 17, 2)
	if !ok1 || !ok2 || !ok3 || s[13] != ':' || s[16] != ':' || hh > 23 || mm > 59 || ss > 59 {
		return 0, false
	}
	ms = days*msPerDay + (hh*3600+mm*60+ss)*1000
	i := 19
	if s[i] == '.' {
		i++
		start := i
		var frac, scale int64 = 0, 100
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			frac += int64(s[i]-'0') * scale
			scale /= 10
			i++
		}
		if i == start {
			return 0, false
		}
		ms += frac
	}
	if i >= len(s) {
		return 0, false
	}
	switch s[i] {
	case 'Z', 'z':
		i++
	case '+', '-':
		oh, ok1 := digits(s, i+1, 2)
		om, ok2 := digits(s, i+4, 2)
		if !ok1 || !ok2 || s[i+3] != ':' || oh > 23 || om > 59 {
			return 0, false
		}
		off := (oh*60 + om) * 60_000
		if s[i] == '+' {
			ms -= off
		} else {
			ms += off
		}
		i += 6
	default:
		return 0, false
	}
	return ms, i == len(s)
}

func appendPad(dst []byte, v int64, width int) []byte {
	var buf [20]byte
	i := len(buf)
	for v >= 10 || width > 1 {
		i--
		buf[i] = byte('0' + v%10)
		v /= 10
		width--
	}
	i--
	buf[i] = byte('0' + v)
	return append(dst, buf[i:]...)
}

// appendYear writes a year with at least 4 digits, and a sign before
// negative years.
func appendYear(dst []byte, y int64) []byte {
	if y < 0 {
		dst = append(dst, '-')
		y = -y
	}
	return appendPad(dst, y, 4)
}

// AppendDate appends days since the epoch as YYYY-MM-DD.
func AppendDate(dst []byte, days int64) []byte {
	y, m, d := civilFromDays(days)
	dst = appendYear(dst, y)
	dst = append(dst, '-')
	dst = appendPad(dst, m, 2)
	dst = append(dst, '-')
	return appendPad(dst, d, 2)
}

// AppendTimestamp appends milliseconds since the epoch as RFC 3339 in UTC
// with exactly three fraction digits: 2026-01-02T03:04:05.678Z.
func AppendTimestamp(dst []byte, ms int64) []byte {
	days := floorDiv(ms, msPerDay)
	rem := ms - days*msPerDay
	dst = AppendDate(dst, days)
	dst = append(dst, 'T')
	dst = appendPad(dst, rem/3_600_000, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, rem/60_000%60, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, rem/1000%60, 2)
	dst = append(dst, '.')
	dst = appendPad(dst, rem%1000, 3)
	return append(dst, 'Z')
}

// CivilFromDays returns the year, month and day of days since the epoch.
func CivilFromDays(days int64) (y, m, d int64) { return civilFromDays(days) }

// DaysFromCivil returns the days since the epoch of year y, month m, day d.
func DaysFromCivil(y, m, d int64) int64 { return daysFromCivil(y, m, d) }

// FloorDiv is integer division rounding toward negative infinity.
func FloorDiv(a, b int64) int64 { return floorDiv(a, b) }
