// Package partition turns partition_by expressions into Hive-style folders
// ("country=de/ts_day=2026-01-01").
//
// Expressions follow Iceberg's partition transforms, and folder names follow
// Iceberg's default partition field names (Spark writes the same):
//
//	expression        folder name            folder value
//	country           country                the value's canonical text (format.AppendText)
//	year(ts)          ts_year                2026
//	month(ts)         ts_month               2026-01
//	day(ts)           ts_day                 2026-01-02
//	hour(ts)          ts_hour                2026-01-02-15
//	bucket(16, id)    id_bucket              0…15: Iceberg's bucket transform (see Bucket)
//	truncate(4, s)    s_trunc                Iceberg's truncate transform (see Truncate)
//
// Spark's plural spellings years, months, days and hours are accepted too.
// Time transforms read timestamps (UTC) and dates; values are the ones
// Iceberg's human-readable partition paths show. Names and values are
// escaped by AppendEscaped, so no value can lead a path out of its prefix.
//
// A folder value is what readers of Hive folders read back, and for an
// identity partition it is the only copy of the value (the column is not in
// the files). So AppendPath refuses, with a *ValueError, the values a folder
// cannot hold as they are: longer than the folder takes once escaped (the
// folder would hold a shortened form), the literal __HIVE_DEFAULT_PARTITION__
// (it reads back as null), and "" from a source that is not nullable (its
// folder is the null folder). A null value, or "" from a nullable source,
// gets the null folder.
package partition

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/streamctl/streamctl/internal/format"
)

// Transform is a partition transform.
type Transform uint8

// The transforms.
const (
	Identity Transform = iota
	Year
	Month
	Day
	Hour
	BucketT
	TruncateT
)

var transformNames = [...]string{"identity", "year", "month", "day", "hour", "bucket", "truncate"}

// nameSuffix is Iceberg's default partition field name suffix per transform.
var nameSuffix = [...]string{"", "_year", "_month", "_day", "_hour", "_bucket", "_trunc"}

func (t Transform) String() string { return transformNames[t] }

// Field is one parsed partition_by expression.
type Field struct {
	Expr      string    // as written
	Transform Transform //
	Source    string    // the column, or dotted JSON path, the transform reads
	Param     int64     // bucket's N, truncate's W
	Name      string    // the folder name: Source plus Iceberg's suffix
}

// Parse parses one partition_by expression.
func Parse(expr string) (Field, error) {
	e := strings.TrimSpace(expr)
	f := Field{Expr: expr}
	open := strings.IndexByte(e, '(')
	if open < 0 {
		if strings.ContainsAny(e, "),") {
			return f, fmt.Errorf("partition_by %q: want a field name or a transform such as day(ts)", expr)
		}
		f.Transform, f.Source = Identity, e
	} else {
		if !strings.HasSuffix(e, ")") {
			return f, fmt.Errorf("partition_by %q: missing ')'", expr)
		}
		fn := strings.TrimSpace(e[:open])
		args := strings.Split(e[open+1:len(e)-1], ",")
		for i := range args {
			args[i] = strings.TrimSpace(args[i])
		}
		switch fn {
		case "year", "years":
			f.Transform = Year
		case "month", "months":
			f.Transform = Month
		case "day", "days":
			f.Transform = Day
		case "hour", "hours":
			f.Transform = Hour
		case "bucket":
			f.Transform = BucketT
		case "truncate":
			f.Transform = TruncateT
		default:
			return f, fmt.Errorf("partition_by %q: unknown transform %q (want year, month, day, hour, bucket or truncate)", expr, fn)
		}
		switch f.Transform {
		case BucketT, TruncateT:
			if len(args) != 2 {
				return f, fmt.Errorf("partition_by %q: want %s(N, field)", expr, fn)
			}
			n, err := strconv.ParseInt(args[0], 10, 32)
			if err != nil || n <= 0 {
				return f, fmt.Errorf("partition_by %q: %s(N, field) needs N a positive integer, got %q", expr, fn, args[0])
			}
			f.Param, f.Source = n, args[1]
		default:
			if len(args) != 1 {
				return f, fmt.Errorf("partition_by %q: want %s(field)", expr, fn)
			}
			f.Source = args[0]
		}
		if strings.ContainsAny(f.Source, "()") {
			return f, fmt.Errorf("partition_by %q: transforms do not nest", expr)
		}
	}
	if f.Source == "" {
		return f, fmt.Errorf("partition_by %q: no field", expr)
	}
	if !format.IsMeta(f.Source) {
		if err := format.ValidatePath(f.Source); err != nil {
			return f, fmt.Errorf("partition_by %q: %w", expr, err)
		}
	}
	f.Name = f.Source + nameSuffix[f.Transform]
	if n := len(AppendEscaped(nil, []byte(f.Name), MaxComponentBytes)); n > MaxNameBytes {
		return f, fmt.Errorf("partition_by %q: folder name %q is longer than %d bytes", expr, f.Name, MaxNameBytes)
	}
	return f, nil
}

// Spec is a sink's parsed partition_by list. Once bound to the kinds of its
// sources it computes folders; it keeps a buffer and is not safe for
// concurrent use.
type Spec struct {
	fields  []Field
	kinds   []format.Kind
	sources []Source
	limits  []int    // value limit per field, so each component fits MaxComponentBytes
	names   [][]byte // per field, its escaped folder name and '='
	scratch []byte
}

// NewSpec parses exprs and rejects two fields with the same folder name.
func NewSpec(exprs []string) (*Spec, error) {
	s := &Spec{}
	var errs []error
	seen := map[string]bool{}
	for _, e := range exprs {
		f, err := Parse(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if seen[f.Name] {
			errs = append(errs, fmt.Errorf("partition_by %q: folder name %q is used twice", e, f.Name))
		}
		seen[f.Name] = true
		s.fields = append(s.fields, f)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return s, nil
}

// Fields returns the parsed fields, in order.
func (s *Spec) Fields() []Field { return s.fields }

// Source is what a field's transform reads.
type Source struct {
	Kind     format.Kind // format.KindAny for a JSON field that no column declares
	Column   bool        // a declared column, named "column" in errors
	Nullable bool        // whether the source may be null: "" then shares the null folder
}

// Bind sets the kind of each field's source (format.KindAny for a JSON field
// that no column declares), each a nullable field rather than a column, and
// checks that each transform applies to it.
func (s *Spec) Bind(kinds []format.Kind) error {
	src := make([]Source, len(kinds))
	for i, k := range kinds {
		src[i] = Source{Kind: k, Nullable: true}
	}
	return s.BindSources(src)
}

// BindSources sets what each field's transform reads and checks that each
// transform applies to it.
func (s *Spec) BindSources(src []Source) error {
	if len(src) != len(s.fields) {
		return fmt.Errorf("partition: %d sources for %d fields", len(src), len(s.fields))
	}
	kinds := make([]format.Kind, len(src))
	var errs []error
	for i, f := range s.fields {
		kinds[i] = src[i].Kind
		if !Accepts(f.Transform, kinds[i]) {
			errs = append(errs, fmt.Errorf("partition_by %q: %s does not apply to %s %q", f.Expr, f.Transform, kinds[i], f.Source))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	s.kinds = kinds
	s.sources = src
	s.limits = make([]int, len(s.fields))
	s.names = make([][]byte, len(s.fields))
	for i, f := range s.fields {
		name := AppendEscaped(nil, []byte(f.Name), MaxComponentBytes)
		s.limits[i] = min(MaxValueBytes, MaxComponentBytes-len(name)-1)
		s.names[i] = append(name, '=')
	}
	return nil
}

// Accepts reports whether transform t applies to values of kind k, as
// Iceberg allows them (KindAny is checked per record instead).
// Decimals are not partitioned by yet: their folder names would need the
// scale, which the transforms do not get.
func Accepts(t Transform, k format.Kind) bool {
	if k >= format.KindDecimal {
		return false
	}
	if k == format.KindAny || t == Identity {
		return true
	}
	switch t {
	case Year, Month, Day:
		return k == format.KindTimestamp || k == format.KindDate
	case Hour:
		return k == format.KindTimestamp
	case BucketT:
		switch k {
		case format.KindInt32, format.KindInt64, format.KindString, format.KindBytes, format.KindDate, format.KindTimestamp:
			return true
		}
	case TruncateT:
		switch k {
		case format.KindInt32, format.KindInt64, format.KindString, format.KindBytes:
			return true
		}
	}
	return false
}

// ValueError is a record value a transform cannot read (only possible for
// fields without a declared column), or that a folder cannot hold as it is.
type ValueError struct {
	Field  string // the source field
	Column bool   // the source is a declared column
	Reason string
}

func (e *ValueError) Error() string {
	if e.Column {
		return fmt.Sprintf("column %q: %s", e.Field, e.Reason)
	}
	return fmt.Sprintf("field %q: %s", e.Field, e.Reason)
}

// AppendPath appends the folder of one record: "name=value" per field,
// joined by '/'. vals[i] is the value of field i's source. Bind must have
// been called. A value that the folder cannot hold as it is is a
// *ValueError (see the package comment).
func (s *Spec) AppendPath(dst []byte, vals []format.Value) ([]byte, error) {
	for i := range s.fields {
		if i > 0 {
			dst = append(dst, '/')
		}
		dst = append(dst, s.names[i]...)
		var err error
		s.scratch, err = s.appendValue(s.scratch[:0], i, vals[i])
		if err != nil {
			return dst, err
		}
		if !vals[i].Null {
			switch {
			case string(s.scratch) == DefaultPartitionName:
				return dst, s.valueError(i, fmt.Sprintf("%q is the folder name of a null value: readers would read null", DefaultPartitionName))
			case len(s.scratch) == 0 && !s.sources[i].Nullable:
				return dst, s.valueError(i, fmt.Sprintf(`"" is written as the folder of a null value (%s), and the column is not nullable: readers would read null`, DefaultPartitionName))
			}
		}
		start := len(dst)
		dst = AppendEscaped(dst, s.scratch, math.MaxInt)
		if n := len(dst) - start; n > s.limits[i] {
			return dst[:start], s.valueError(i, fmt.Sprintf("the value is %d bytes as a folder name (escaped); a folder takes at most %d", n, s.limits[i]))
		}
	}
	return dst, nil
}

func (s *Spec) valueError(i int, reason string) *ValueError {
	return &ValueError{Field: s.fields[i].Source, Column: s.sources[i].Column, Reason: reason}
}

// appendValue appends the transformed value of field i, unescaped; a null
// appends nothing (which escapes to DefaultPartitionName).
func (s *Spec) appendValue(dst []byte, i int, v format.Value) ([]byte, error) {
	if v.Null {
		return dst, nil
	}
	f, k := &s.fields[i], s.kinds[i]
	switch f.Transform {
	case Identity:
		return format.AppendText(dst, v, k), nil
	case Year, Month, Day, Hour:
		ms, isDate, err := timeOf(v, k)
		if err != nil {
			return dst, s.valueError(i, err.Error())
		}
		if isDate && f.Transform == Hour {
			return dst, s.valueError(i, "hour() needs a timestamp, got a date")
		}
		return appendTime(dst, f.Transform, ms), nil
	case BucketT:
		h, err := hashOf(v, k)
		if err != nil {
			return dst, s.valueError(i, "bucket(): "+err.Error())
		}
		return strconv.AppendInt(dst, int64(BucketOf(h, int32(f.Param))), 10), nil
	case TruncateT:
		out, err := appendTruncated(dst, v, k, f.Param)
		if err != nil {
			return dst, s.valueError(i, "truncate(): "+err.Error())
		}
		return out, nil
	}
	return dst, nil
}

// timeOf returns a time value in milliseconds since the epoch, and whether
// it is a date. Untyped values are RFC 3339 strings, YYYY-MM-DD dates or
// integer epoch milliseconds, in the range columns take (years 0001 to 9999).
func timeOf(v format.Value, k format.Kind) (ms int64, isDate bool, err error) {
	switch k {
	case format.KindTimestamp:
		return v.Int, false, nil
	case format.KindDate:
		return v.Int * 86_400_000, true, nil
	}
	switch v.Token {
	case format.TokString:
		if d, ok := format.ParseDate(v.Bytes); ok {
			if !format.DateInRange(d) {
				return 0, false, errors.New(quoteValue(v) + " " + format.OutsideDates)
			}
			return d * 86_400_000, true, nil
		}
		if ms, ok := format.ParseTimestamp(v.Bytes); ok {
			if !format.TimestampInRange(ms) {
				return 0, false, errors.New(quoteValue(v) + " " + format.OutsideTimestamps)
			}
			return ms, false, nil
		}
	case format.TokNumber:
		if ms, ok := format.ParseInt(v.Bytes); ok {
			if !format.TimestampInRange(ms) {
				return 0, false, errors.New(quoteValue(v) + " " + format.OutsideTimestamps)
			}
			return ms, false, nil
		}
	}
	return 0, false, fmt.Errorf("expected an RFC 3339 timestamp, a date or epoch milliseconds, got %s", quoteValue(v))
}

func quoteValue(v format.Value) string {
	if v.Token == format.TokString {
		return strconv.Quote(string(v.Bytes))
	}
	if v.Token == format.TokObject || v.Token == format.TokArray {
		return v.Token.String()
	}
	return string(v.Bytes)
}

func appendTime(dst []byte, t Transform, ms int64) []byte {
	days := format.FloorDiv(ms, 86_400_000)
	y, m, d := format.CivilFromDays(days)
	dst = appendYear(dst, y)
	if t == Year {
		return dst
	}
	dst = append(dst, '-')
	dst = append2(dst, m)
	if t == Month {
		return dst
	}
	dst = append(dst, '-')
	dst = append2(dst, d)
	if t == Day {
		return dst
	}
	dst = append(dst, '-')
	return append2(dst, (ms-days*86_400_000)/3_600_000)
}

func appendYear(dst []byte, y int64) []byte {
	if y < 0 {
		dst = append(dst, '-')
		y = -y
	}
	for p := int64(1000); p > 1 && y < p; p /= 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, y, 10)
}

func append2(dst []byte, v int64) []byte {
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}

// NameConflict is an output name that readers cannot tell apart from
// another: a column in the files and a partition folder (the folder's
// value shadows the column's in DuckDB, polars and Spark), or two names
// that differ only in case (DuckDB matches names without case and renames
// one of them, so that a query of either can read the other's values).
type NameConflict struct {
	Column string // the column at fault, or "" for a partition folder
	Expr   string // the partition_by expression of the folder at fault, or of the folder Column meets
	Folder string // that folder's name
	Other  string // the other column, or the other folder's expression, when two names differ in case
}

func (c NameConflict) Error() string {
	switch {
	case c.Column != "" && c.Other != "" && c.Other == c.Column:
		return fmt.Sprintf("column %q is declared twice", c.Column)
	case c.Column != "" && c.Other != "":
		return fmt.Sprintf("column %q: its name differs from column %q only in case, and readers match names without case "+
			"(DuckDB renames one of them, and a query of either can read the other's values)", c.Column, c.Other)
	case c.Column != "":
		return fmt.Sprintf("column %q: partition_by %q writes folders named %s, and readers of Hive folders read the folder's value "+
			"in place of the column's (DuckDB, polars, Spark); rename the column, or leave it out", c.Column, c.Expr, c.Folder)
	}
	return fmt.Sprintf("partition_by %q: its folder name differs from %q's only in case, and readers match names without case", c.Expr, c.Other)
}

// NameConflicts returns the names among a sink's output that readers could
// not tell apart: the columns written into the files (all of columns but
// those an identity partition reads, which are its folders) and the folders
// of fields. An identity partition's column is its folder: no conflict.
func NameConflicts(columns []string, fields []Field) []NameConflict {
	identity := map[string]bool{}
	for _, f := range fields {
		if f.Transform == Identity {
			identity[f.Source] = true
		}
	}
	type output struct {
		name string
		expr string // "" for a column
	}
	var outs []output
	for _, c := range columns {
		if !identity[c] {
			outs = append(outs, output{name: c})
		}
	}
	for _, f := range fields {
		outs = append(outs, output{name: f.Name, expr: f.Expr})
	}
	var conflicts []NameConflict
	for j, b := range outs {
		for _, a := range outs[:j] {
			if !strings.EqualFold(a.name, b.name) {
				continue
			}
			switch {
			case a.expr == "" && b.expr == "":
				conflicts = append(conflicts, NameConflict{Column: b.name, Other: a.name})
			case a.expr == "":
				conflicts = append(conflicts, NameConflict{Column: a.name, Expr: b.expr, Folder: b.name})
			case a.name != b.name: // the same name twice is NewSpec's error
				conflicts = append(conflicts, NameConflict{Expr: b.expr, Folder: b.name, Other: a.expr})
			}
			break
		}
	}
	return conflicts
}
