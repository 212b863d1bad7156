package format

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers"
)

// Text that is not UTF-8 makes DuckDB, arrow-rs and polars refuse a whole
// Parquet, CSV or JSONL file, and a lone surrogate escape has no UTF-8 form
// at all: a record holding either in a field that is written is invalid,
// with the reason, on the fast path and on the general one alike.
func TestExtractRefusesTextThatIsNotUTF8(t *testing.T) {
	tests := []struct {
		typ, record, want, err string
	}{
		{"string", `{"a":"x` + "\xff" + `y"}`, "", `column "a": invalid UTF-8 at byte 1 of its value`},
		{"string", `{"a":"` + strings.Repeat("é", 20) + "\xc3" + `"}`, "", `column "a": invalid UTF-8 at byte 40 of its value`},
		{"string", `{"a":"x\n` + "\xff" + `"}`, "", `column "a": invalid UTF-8 at byte 3 of its value`},                          // escaped: the general path
		{"string", `{"a":"` + "\xed\xa0\x80" + `"}`, "", `column "a": invalid UTF-8 at byte 0 of its value`},                     // a surrogate, encoded
		{"string", `{"a":"\ud800"}`, "", `column "a": lone surrogate \ud800 (half of a UTF-16 pair; UTF-8 text cannot hold it)`}, // was U+FFFD
		{"string", `{"a":"x\ud800\u0041"}`, "", `lone surrogate \ud800`},
		{"string", `{"a":"\udc00"}`, "", `lone surrogate \udc00`},
		{"string", `{"a":"\\ud800"}`, `\ud800`, ""}, // an escaped backslash, then text
		{"string", `{"a":"\ud83d\ude00é"}`, "😀é", ""},
		{"json", `{"a":{"b":"` + "\xff" + `"}}`, "", `column "a": invalid UTF-8 at byte 6 of its value`},
		{"json", `{"a":["\ud800"]}`, "", `column "a": lone surrogate \ud800`},
		{"json", `{"a":"\uDBFF\uDFFF"}`, `"\uDBFF\uDFFF"`, ""},
		{"json", `{"a":"\\\\ud800"}`, `"\\\\ud800"`, ""},
		{"json", `{"a":{"k":"é"}}`, `{"k":"é"}`, ""},
		{"bytes", `{"a":"/w=="}`, "/w==", ""}, // bytes are binary: base64 of 0xff
	}
	for _, tc := range tests {
		for _, nested := range []bool{false, true} {
			record := tc.record
			if nested { // a sibling field keeps the value off the leaf path
				record = strings.Replace(record, `{"a":`, `{"z":1,"a":`, 1)
			}
			got, err := extractOne(t, Column{Name: "a", Type: tc.typ}, record)
			if tc.err == "" {
				if err != nil || got != tc.want {
					t.Errorf("%s %q: got %q, %v; want %q", tc.typ, record, got, err, tc.want)
				}
				continue
			}
			var fe *FieldError
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %q: got %q, %v; want an error containing %q", tc.typ, record, got, err, tc.err)
			}
		}
	}
}

// Fields that no column declares (KindAny: partition folders) and the
// record key read as a string are held to the same rule.
func TestExtractRefusesNonUTF8InHelperFieldsAndKeys(t *testing.T) {
	x, err := NewExtractor([]Field{{Name: "p", Path: "p", Kind: KindAny, Nullable: true}})
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]Value, 1)
	for rec, want := range map[string]string{
		`{"p":"a` + "\xff" + `"}`:  `field "p": invalid UTF-8 at byte 1 of its value`,
		`{"p":"\udfff"}`:           `field "p": lone surrogate \udfff`,
		`{"p":["` + "\xff" + `"]}`: `field "p": invalid UTF-8 at byte 2 of its value`,
	} {
		if err := x.Extract(&providers.Record{Value: []byte(rec)}, vals); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", rec, err, want)
		}
	}
	k, err := NewExtractor([]Field{{Name: "k", Path: MetaKey, Kind: KindString, Nullable: true, Column: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Extract(&providers.Record{Key: []byte("ab\xff"), Value: []byte(`{}`)}, vals); err == nil || !strings.Contains(err.Error(), `column "k": invalid UTF-8 at byte 2 of its value`) {
		t.Errorf("binary key read as a string: %v", err)
	}
	b, err := NewExtractor([]Field{{Name: "k", Path: MetaKey, Kind: KindBytes, Nullable: true, Column: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Extract(&providers.Record{Key: []byte("ab\xff"), Value: []byte(`{}`)}, vals); err != nil {
		t.Errorf("binary key read as bytes: %v", err)
	}
}

// CheckText is the check of a record passed through byte for byte.
func TestCheckText(t *testing.T) {
	for rec, want := range map[string]string{
		`{"a":"é","b":"\ud83d\ude00","c":"\\ud800"}`: "",
		`{"a":"` + "\xff" + `"}`:                     "invalid UTF-8 at byte 6 of the record",
		`{"a":1,"b":"\ud800"}`:                       `lone surrogate \ud800 at byte 12 of the record`,
		`{"a":"\ude00\ud83d"}`:                       `lone surrogate \ude00 at byte 6 of the record`,
		`{"a":"\ud83d"}`:                             `lone surrogate \ud83d at byte 6 of the record`,
		`not json at all, but UTF-8`:                 "",
	} {
		err := CheckText([]byte(rec))
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", rec, err)
		case want != "" && (err == nil || err.Error() != want):
			t.Errorf("%q: %v, want %q", rec, err, want)
		}
	}
}

// Timestamps and dates are accepted from year 0001 to year 9999 (UTC), what
// every reader holds: DuckDB fails a whole file at ±2^63 microseconds and
// reads the largest int64 as infinity; years after 9999 are not RFC 3339.
func TestExtractTimeRange(t *testing.T) {
	tests := []struct {
		typ, record, want, err string
	}{
		{"timestamp", `{"a":"0001-01-01T00:00:00Z"}`, "0001-01-01T00:00:00.000Z", ""},
		{"timestamp", `{"a":"9999-12-31T23:59:59.999Z"}`, "9999-12-31T23:59:59.999Z", ""},
		{"timestamp", `{"a":"9999-12-31T23:59:59.999999Z"}`, "9999-12-31T23:59:59.999Z", ""},
		{"timestamp", `{"a":-62135596800000}`, "0001-01-01T00:00:00.000Z", ""},
		{"timestamp", `{"a":253402300799999}`, "9999-12-31T23:59:59.999Z", ""},
		{"timestamp", `{"a":"0000-12-31T23:59:59Z"}`, "", `column "a": "0000-12-31T23:59:59Z" is outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, the timestamps every reader holds`},
		{"timestamp", `{"a":"0001-01-01T00:30:00+01:00"}`, "", `"0001-01-01T00:30:00+01:00" is outside 0001-01-01T00:00:00Z`},
		{"timestamp", `{"a":"9999-12-31T23:30:00-01:00"}`, "", `"9999-12-31T23:30:00-01:00" is outside`},
		{"timestamp", `{"a":253402300800000}`, "", `253402300800000 is outside`},
		{"timestamp", `{"a":-62135596800001}`, "", `-62135596800001 is outside`},
		{"timestamp", `{"a":9223372036854775807}`, "", `9223372036854775807 is outside`},
		{"timestamp", `{"a":-9223372036854775808}`, "", `-9223372036854775808 is outside`},
		{"timestamp", `{"a":999999999999999999}`, "", `999999999999999999 is outside`}, // 18 digits: the leaf path
		{"date", `{"a":"0001-01-01"}`, "0001-01-01", ""},
		{"date", `{"a":"9999-12-31"}`, "9999-12-31", ""},
		{"date", `{"a":"0000-12-31"}`, "", `column "a": "0000-12-31" is outside 0001-01-01 to 9999-12-31, the dates every reader holds`},
	}
	for _, tc := range tests {
		for _, nested := range []bool{false, true} {
			record := tc.record
			if nested {
				record = strings.Replace(record, `{"a":`, `{"z":1,"a":`, 1)
			}
			got, err := extractOne(t, Column{Name: "a", Type: tc.typ}, record)
			if tc.err == "" {
				if err != nil || got != tc.want {
					t.Errorf("%s %q: got %q, %v; want %q", tc.typ, record, got, err, tc.want)
				}
				continue
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %q: got %q, %v; want an error containing %q", tc.typ, record, got, err, tc.err)
			}
		}
	}
	// The record's own timestamp (metadata) too.
	x, err := NewExtractor([]Field{{Name: "t", Path: MetaTimestamp, Kind: KindTimestamp, Nullable: true, Column: true}})
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]Value, 1)
	if err := x.Extract(&providers.Record{Timestamp: 1 << 62, Value: []byte(`{}`)}, vals); err == nil || !strings.Contains(err.Error(), "is outside") {
		t.Errorf("_timestamp of 2^62 ms: %v", err)
	}
}
