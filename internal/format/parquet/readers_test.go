package parquet

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/streamctl/streamctl/internal/format/row"
)

// encodeValues writes rows of values as one Parquet file.
func encodeValues(cols []Column, o Options, rows [][]row.Value) ([]byte, error) {
	f, err := NewFormat(cols, o)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := f.NewEncoder(&buf)
	for _, r := range rows {
		if err := enc.Append(nil, r); err != nil {
			enc.Abort()
			return nil, err
		}
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// stringRows is one string value per row; "\x00null" stands for a null.
func stringRows(vals ...string) [][]row.Value {
	rows := make([][]row.Value, len(vals))
	for i, v := range vals {
		if v == "\x00null" {
			rows[i] = []row.Value{{Null: true}}
		} else {
			rows[i] = []row.Value{{Bytes: []byte(v), Token: row.TokString}}
		}
	}
	return rows
}

// created_by follows "<app> version <X.Y.Z> (build <hash>)", the form
// arrow's and parquet-mr's readers parse to tell writers' releases apart.
func TestParquetCreatedByParses(t *testing.T) {
	for _, tc := range []struct {
		version, build, want string
		major, minor, patch  int
		pre                  string
	}{
		{"0.1.0-dev", "unknown", "streamctl version 0.1.0-dev (build unknown)", 0, 1, 0, "dev"},
		{"1.2.3", "0123456789ab", "streamctl version 1.2.3 (build 0123456789ab)", 1, 2, 3, ""},
		{"v2.10.4-rc.1", "", "streamctl version 2.10.4-rc.1 (build unknown)", 2, 10, 4, "rc.1"},
	} {
		o := Options{CreatedBy: CreatedBy(tc.version, tc.build)}
		data, err := encodeValues([]Column{{Name: "s", Kind: row.KindString, Nullable: true}}, o, stringRows("a"))
		if err != nil {
			t.Fatal(err)
		}
		f := arrowRead(t, data)
		if f.createdBy != tc.want {
			t.Errorf("created_by = %q, want %q", f.createdBy, tc.want)
		}
		w := f.writer
		if w.App != "streamctl" || w.Version.Major != tc.major || w.Version.Minor != tc.minor || w.Version.Patch != tc.patch ||
			w.Version.PreRelease != tc.pre || w.Build != strings.ToLower(cmp(tc.build, "unknown")) {
			t.Errorf("%q: arrow-go parses app %q version %d.%d.%d pre %q build %q", f.createdBy, w.App,
				w.Version.Major, w.Version.Minor, w.Version.Patch, w.Version.PreRelease, w.Build)
		}
		// The same binary writes the same bytes.
		again, _ := encodeValues([]Column{{Name: "s", Kind: row.KindString, Nullable: true}}, o, stringRows("a"))
		if !bytes.Equal(data, again) {
			t.Errorf("%s: two files of the same rows differ", tc.version)
		}
	}
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// checkByteStats fails unless min ≤ every value ≤ max bytewise (when
// arrow-go sees a min and max), and string bounds are valid UTF-8 (the
// spec asks bounds to be values of the column's logical type).
func checkByteStats(t testing.TB, what string, st arrowStats, vals []any, utf bool) {
	t.Helper()
	if !st.hasMinMax {
		return
	}
	for _, v := range vals {
		if v == nil {
			continue
		}
		b := []byte(v.(string))
		if bytes.Compare(b, st.min) < 0 || bytes.Compare(b, st.max) > 0 {
			t.Fatalf("%s: value %.40q outside [%.40q, %.40q]", what, b, st.min, st.max)
		}
	}
	if utf && (!utf8.Valid(st.min) || !utf8.Valid(st.max)) {
		t.Fatalf("%s: bounds not UTF-8: %q %q", what, st.min, st.max)
	}
}

// Byte-array statistics are exact, or bounds truncated to a prefix (min)
// and a rounded-up prefix (max), never a max below a value, and kept when
// a long value was the min or max only for a while.
func TestParquetByteArrayStatsBounds(t *testing.T) {
	long := func(s string, n int) string { return strings.Repeat(s, n) }
	tests := []struct {
		name     string
		typ      string
		vals     []string
		min, max string // "" with none: no statistics
		none     bool
	}{
		{name: "empty min", typ: "string", vals: []string{"", "b", ""}, min: "", max: "b"},
		{name: "only empty", typ: "string", vals: []string{"", "\x00null", ""}, min: "", max: ""},
		{name: "long value was the max", typ: "string", vals: []string{"m", long("n", 300), "z"}, min: "m", max: "z"},
		{name: "long value was the min", typ: "string", vals: []string{"m", long("b", 300), "a"}, min: "a", max: "m"},
		{name: "long min", typ: "string", vals: []string{"m", long("a", 300)}, min: long("a", maxStatBytes), max: "m"},
		{name: "long max", typ: "string", vals: []string{"a", long("x", 300)}, min: "a", max: long("x", maxStatBytes-1) + "y"},
		{name: "long max of 0xff", typ: "bytes", vals: []string{"a", "b" + long("\xff", 300)}, min: "a", max: "c"},
		{name: "no bound above", typ: "bytes", vals: []string{"a", long("\xff", 300)}, none: true},
		{name: "utf-8 cut", typ: "string", vals: []string{"a", long("é", 200)}, min: "a", max: long("é", maxStatBytes/2-1) + "ê"},
		{name: "utf-8 cut mid-rune", typ: "string", vals: []string{"x" + long("é", 200), "z"}, min: "x" + long("é", maxStatBytes/2-1), max: "z"},
		{name: "utf-8 carry", typ: "string", vals: []string{"a", "b" + long("\U0010FFFF", 100)}, min: "a", max: "c"},
		{name: "utf-8 no bound above", typ: "string", vals: []string{"a", long("\U0010FFFF", 100)}, none: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, err := encodeValues([]Column{{Name: "s", Kind: kind(tc.typ), Nullable: true}}, Options{}, stringRows(tc.vals...))
			if err != nil {
				t.Fatal(err)
			}
			f := arrowRead(t, data)
			st := f.rowGroups[0].cols[0]
			checkByteStats(t, tc.name, st, f.columns[0], tc.typ == "string")
			if tc.none {
				if st.hasMinMax {
					t.Fatalf("min %.20q max %.20q: want none, no bound above the max fits", st.min, st.max)
				}
				return
			}
			if !st.hasMinMax || string(st.min) != tc.min || string(st.max) != tc.max {
				t.Fatalf("statistics %v min %q max %q, want %q %q", st.hasMinMax, st.min, st.max, tc.min, tc.max)
			}
		})
	}
}

// A file holds at most 32,768 row groups, the ordinals an i16 numbers:
// one more is refused, not written with a wrapped ordinal.
func TestParquetRowGroupOrdinalsDoNotWrap(t *testing.T) {
	cols := []Column{{Name: "id", Kind: row.KindInt64}}
	rows := make([][]row.Value, maxRowGroups+1)
	for i := range rows {
		rows[i] = []row.Value{{Int: int64(i)}}
	}
	_, err := encodeValues(cols, Options{Compression: "none", RowGroupRecords: 1}, rows)
	if !errors.Is(err, ErrTooManyRowGroups) {
		t.Fatalf("%d row groups: error %v, want ErrTooManyRowGroups", len(rows), err)
	}
	data, err := encodeValues(cols, Options{Compression: "none", RowGroupRecords: 1}, rows[:maxRowGroups])
	if err != nil {
		t.Fatal(err)
	}
	f := arrowRead(t, data)
	if len(f.rowGroups) != maxRowGroups {
		t.Fatalf("arrow-go reads %d row groups, want %d", len(f.rowGroups), maxRowGroups)
	}
	for i, rg := range f.rowGroups {
		if int(rg.ordinal) != i {
			t.Fatalf("row group %d has ordinal %d", i, rg.ordinal)
		}
	}
	if last := f.columns[0][maxRowGroups-1]; last != int64(maxRowGroups-1) {
		t.Fatalf("last value %v", last)
	}
}

// A page's sizes are i32 in its header: a value whose page would not fit
// is refused before it is copied, and row groups, whose pages count their
// values in an i32, are bounded too.
func TestParquetPageSizesFitInt32(t *testing.T) {
	huge := make([]byte, math.MaxInt32) // never written to: the OS maps it lazily
	for _, typ := range []string{"string", "bytes", "json"} {
		f, err := NewFormat([]Column{{Name: "v", Kind: kind(typ), Nullable: true}}, Options{Compression: "none"})
		if err != nil {
			t.Fatal(err)
		}
		enc := f.NewEncoder(&bytes.Buffer{})
		err = enc.Append(nil, []row.Value{{Bytes: huge, Token: row.TokString}})
		enc.Abort()
		if !errors.Is(err, ErrValueTooLarge) {
			t.Fatalf("%s: a value of %d bytes: error %v, want ErrValueTooLarge", typ, len(huge), err)
		}
	}
	cols := []Column{{Name: "v", Kind: row.KindString, Nullable: true}}
	if _, err := NewFormat(cols, Options{RowGroupRecords: math.MaxInt32 + 1}); err == nil {
		t.Fatal("row groups of more than 2^31-1 rows accepted")
	}
	if _, err := NewFormat(cols, Options{RowGroupRecords: math.MaxInt32}); err != nil {
		t.Fatal(err)
	}
}
