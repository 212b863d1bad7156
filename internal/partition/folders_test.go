package partition

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/format"
)

// A folder value is the value readers read back: never shortened, never one
// that reads back as null for a value that is not null. Values a folder
// cannot hold as they are make the record invalid, with the reason.
func TestFolderValuesAreReadBackOrRefused(t *testing.T) {
	s, err := NewSpec([]string{"c", "truncate(250, t)"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.BindSources([]Source{{Kind: format.KindString, Column: true}, {Kind: format.KindString, Nullable: true}}); err != nil {
		t.Fatal(err)
	}
	str := func(v string) format.Value { return format.Value{Bytes: []byte(v), Token: format.TokString} }
	ok := str("x")
	for _, tc := range []struct {
		c, t format.Value
		want string
	}{
		{str("de"), ok, ""},
		{str(strings.Repeat("a", 200)), ok, ""},
		{str(strings.Repeat("/", 66)), ok, ""}, // 198 bytes escaped
		{str(strings.Repeat("a", 201)), ok, `column "c": the value is 201 bytes as a folder name (escaped); a folder takes at most 200`},
		{str(strings.Repeat("/", 67)), ok, `column "c": the value is 201 bytes as a folder name (escaped)`},
		{str(""), ok, `column "c": "" is written as the folder of a null value (__HIVE_DEFAULT_PARTITION__), and the column is not nullable`},
		{str(DefaultPartitionName), ok, `column "c": "__HIVE_DEFAULT_PARTITION__" is the folder name of a null value`},
		{ok, str(""), ""}, // a nullable source: "" and null share the folder
		{ok, str(DefaultPartitionName), `field "t": "__HIVE_DEFAULT_PARTITION__" is the folder name of a null value`},
		{ok, str(strings.Repeat("é", 250)), `field "t": the value is 500 bytes as a folder name (escaped); a folder takes at most 200`},
	} {
		got, err := s.AppendPath(nil, []format.Value{tc.c, tc.t})
		if tc.want == "" {
			if err != nil || strings.Contains(string(got), "~") {
				t.Errorf("%q, %q: %q, %v", tc.c.Bytes, tc.t.Bytes, got, err)
			}
			continue
		}
		var ve *ValueError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q, %q: %q, %v; want an error containing %q", tc.c.Bytes, tc.t.Bytes, got, err, tc.want)
		}
	}
}

// Time transforms of fields without a declared type read only the
// timestamps every reader holds, as columns do.
func TestTimeTransformsRefuseYearsOutside0001To9999(t *testing.T) {
	s, err := NewSpec([]string{"year(ts)"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Bind([]format.Kind{format.KindAny}); err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		"253402300799999":             "ts_year=9999",
		"-62135596800000":             "ts_year=0001",
		"253402300800000":             "253402300800000 is outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z",
		"9223372036854775807":         "9223372036854775807 is outside",
		`"0000-01-01"`:                `"0000-01-01" is outside 0001-01-01 to 9999-12-31`,
		`"0000-12-31T23:00:00Z"`:      `"0000-12-31T23:00:00Z" is outside`,
		`"9999-12-31T23:00:00Z"`:      "ts_year=9999",
		`"9999-12-31T23:00:00-02:00"`: `"9999-12-31T23:00:00-02:00" is outside`,
	} {
		v := format.Value{Bytes: []byte(text), Token: format.TokNumber}
		if text[0] == '"' {
			v = format.Value{Bytes: []byte(text[1 : len(text)-1]), Token: format.TokString}
		}
		got, err := s.AppendPath(nil, []format.Value{v})
		if strings.HasPrefix(want, "ts_year=") {
			if err != nil || string(got) != want {
				t.Errorf("%s: %q, %v; want %s", text, got, err, want)
			}
		} else if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %q, %v; want an error containing %q", text, got, err, want)
		}
	}
}

// Readers could not tell apart two output names differing only in case
// (DuckDB renames one, and `select id` returns the other's values), nor a
// column from a transform's folder of the same name (the folder's value
// shadows the column's). An identity partition's column is not in the
// files: its folder is the column.
func TestNameConflicts(t *testing.T) {
	for _, tc := range []struct {
		columns []string
		exprs   []string
		want    []string
	}{
		{[]string{"id", "country", "ts"}, []string{"country", "day(ts)"}, nil},
		{[]string{"id", "ts", "ts_day"}, []string{"day(ts)"}, []string{`column "ts_day": partition_by "day(ts)" writes folders named ts_day, and readers of Hive folders read the folder's value in place of the column's`}},
		{[]string{"id", "ts", "TS_Day"}, []string{"days(ts)"}, []string{`column "TS_Day": partition_by "days(ts)" writes folders named ts_day`}},
		{[]string{"id", "n", "id_bucket"}, []string{"bucket(4, id)", "truncate(2, n)"}, []string{`column "id_bucket": partition_by "bucket(4, id)"`}},
		{[]string{"ID", "id"}, nil, []string{`column "id": its name differs from column "ID" only in case, and readers match names without case`}},
		{[]string{"Country", "x"}, []string{"country"}, []string{`column "Country": partition_by "country" writes folders named country`}},
		{[]string{"a"}, []string{"country", "Country"}, []string{`partition_by "Country": its folder name differs from "country"'s only in case`}},
	} {
		var fields []Field
		for _, e := range tc.exprs {
			f, err := Parse(e)
			if err != nil {
				t.Fatal(err)
			}
			fields = append(fields, f)
		}
		got := NameConflicts(tc.columns, fields)
		if len(got) != len(tc.want) {
			t.Errorf("%v %v: %v, want %d conflicts", tc.columns, tc.exprs, got, len(tc.want))
			continue
		}
		for i, c := range got {
			if !strings.Contains(c.Error(), tc.want[i]) {
				t.Errorf("%v %v: %q, want it to contain %q", tc.columns, tc.exprs, c.Error(), tc.want[i])
			}
		}
	}
}
