package format

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers"
)

func boolp(b bool) *bool { return &b }

// render shows a value as a user would see it in CSV, or "null".
func render(v Value, k Kind) string {
	if v.Null {
		return "null"
	}
	return string(AppendText(nil, v, k))
}

// renderTyped is render for any type: a decimal's text needs its scale.
func renderTyped(v Value, t *Type) string {
	if t.Kind == KindDecimal && !v.Null {
		return string(AppendDecimal(nil, v, t))
	}
	return render(v, t.Kind)
}

func extractOne(t *testing.T, col Column, record string) (string, error) {
	t.Helper()
	s, err := NewSchema([]Column{col})
	if err != nil {
		t.Fatalf("NewSchema: %v", err)
	}
	x, err := NewExtractor(s.Fields())
	if err != nil {
		t.Fatalf("NewExtractor: %v", err)
	}
	vals := make([]Value, 1)
	err = x.Extract(&providers.Record{Partition: "0", Value: []byte(record)}, vals)
	return renderTyped(vals[0], s.Types[0]), err
}

func TestExtractTypes(t *testing.T) {
	tests := []struct {
		typ, record, want, err string
	}{
		{"string", `{"a":"x"}`, "x", ""},
		{"string", `{"a":"q\"b\\s\/\u00e9\ud83d\ude00\n"}`, "q\"b\\s/é😀\n", ""},
		{"string", `{"a":"\ud800x"}`, "", `column "a": lone surrogate \ud800`}, // unpaired: no UTF-8 holds it
		{"string", `{"a":""}`, "", ""},
		{"string", `{"a":12.50}`, "12.50", ""}, // numbers keep their text
		{"string", `{"a":true}`, "true", ""},
		{"string", `{"a":{"b":1}}`, "", `column "a": expected a string, got an object`},
		{"string", `{"a":[1]}`, "", `column "a": expected a string, got an array`},
		{"int32", `{"a":-2147483648}`, "-2147483648", ""},
		{"int32", `{"a":2147483647}`, "2147483647", ""},
		{"int32", `{"a":2147483648}`, "", `column "a": 2147483648 is out of range for int32`},
		{"int32", `{"a":"5"}`, "", `column "a": expected an integer, got "5"`},
		{"int64", `{"a":9223372036854775807}`, "9223372036854775807", ""},
		{"int64", `{"a":-9223372036854775808}`, "-9223372036854775808", ""},
		{"int64", `{"a":9223372036854775808}`, "", `expected an integer, got 9223372036854775808`},
		{"int64", `{"a":1.5}`, "", `column "a": expected an integer, got 1.5`},
		{"int64", `{"a":1e3}`, "", `expected an integer, got 1e3`},
		{"int64", `{"a":0}`, "0", ""},
		{"int64", `{"a":0 }`, "0", ""},
		{"int64", `{"a":0.0}`, "", `expected an integer, got 0.0`},
		{"int64", `{"a":0e1}`, "", `expected an integer, got 0e1`},
		{"int32", `{"a":0}`, "0", ""},
		{"timestamp", `{"a":0}`, "1970-01-01T00:00:00.000Z", ""},
		{"float", `{"a":1.5}`, "1.5", ""},
		{"float", `{"a":0.1}`, "0.1", ""},
		{"float", `{"a":1e39}`, "", `column "a": 1e39 is out of range for float`},
		{"double", `{"a":12.34}`, "12.34", ""},
		{"double", `{"a":5}`, "5", ""},
		{"double", `{"a":-0.000001}`, "-0.000001", ""},
		{"double", `{"a":1e-7}`, "1e-7", ""},
		{"double", `{"a":1e300}`, "1e+300", ""},
		{"double", `{"a":0.05}`, "0.05", ""},
		{"double", `{"a":-12.5}`, "-12.5", ""},
		{"double", `{"a":1.5E3}`, "1500", ""},
		{"double", `{"a":123456789012345.6}`, "123456789012345.6", ""}, // 16 digits: strconv parses it
		{"double", `{"a":0.1000000000000001}`, "0.1000000000000001", ""},
		{"double", `{"a":"abc"}`, "", `column "a": expected a number, got "abc"`},
		{"double", `{"a":"` + strings.Repeat("x", 60) + `"}`, "", `got "` + strings.Repeat("x", 39) + "…"},
		{"bool", `{"a":true}`, "true", ""},
		{"bool", `{"a":false}`, "false", ""},
		{"bool", `{"a":"true"}`, "", `column "a": expected true or false, got "true"`},
		{"bool", `{"a":1}`, "", `expected true or false, got 1`},
		{"timestamp", `{"a":"2026-01-02T03:04:05.678Z"}`, "2026-01-02T03:04:05.678Z", ""},
		{"timestamp", `{"a":"2026-01-02t03:04:05z"}`, "2026-01-02T03:04:05.000Z", ""},
		{"timestamp", `{"a":"2026-01-02 03:04:05+01:30"}`, "2026-01-02T01:34:05.000Z", ""},
		{"timestamp", `{"a":"2026-01-01T23:30:00-01:00"}`, "2026-01-02T00:30:00.000Z", ""},
		{"timestamp", `{"a":"2026-01-02T03:04:05.123456789Z"}`, "2026-01-02T03:04:05.123Z", ""},
		{"timestamp", `{"a":"1969-12-31T23:59:59.999Z"}`, "1969-12-31T23:59:59.999Z", ""},
		{"timestamp", `{"a":"2024-02-29T00:00:00Z"}`, "2024-02-29T00:00:00.000Z", ""},
		{"timestamp", `{"a":1767323045678}`, "2026-01-02T03:04:05.678Z", ""},
		{"timestamp", `{"a":-1}`, "1969-12-31T23:59:59.999Z", ""},
		{"timestamp", `{"a":"2023-02-29T00:00:00Z"}`, "", `expected an RFC 3339 timestamp or epoch milliseconds, got "2023-02-29T00:00:00Z"`},
		{"timestamp", `{"a":"2026-01-02T03:04:05"}`, "", `expected an RFC 3339 timestamp`},
		{"timestamp", `{"a":"2026-01-02T24:00:00Z"}`, "", `expected an RFC 3339 timestamp`},
		{"timestamp", `{"a":"yesterday"}`, "", `column "a": expected an RFC 3339 timestamp or epoch milliseconds, got "yesterday"`},
		{"timestamp", `{"a":1.5}`, "", `expected an RFC 3339 timestamp or integer epoch milliseconds, got 1.5`},
		{"date", `{"a":"2026-02-28"}`, "2026-02-28", ""},
		{"date", `{"a":"1900-01-01"}`, "1900-01-01", ""},
		{"date", `{"a":"2026-02-30"}`, "", `column "a": expected a date (YYYY-MM-DD), got "2026-02-30"`},
		{"date", `{"a":20260101}`, "", `expected a date (YYYY-MM-DD), got 20260101`},
		{"bytes", `{"a":"aGVsbG8="}`, "aGVsbG8=", ""},
		{"bytes", `{"a":""}`, "", ""},
		{"bytes", `{"a":"!!"}`, "", `column "a": expected base64 text, got "!!"`},
		{"json", `{"a":{"b":[1, 2]}}`, `{"b":[1, 2]}`, ""},
		{"json", `{"a":"x"}`, `"x"`, ""},
		{"json", `{"a":3.0}`, `3.0`, ""},
		{"json", `{"a":null}`, "null", ""},
	}
	for _, tc := range tests {
		t.Run(tc.typ+" "+tc.record, func(t *testing.T) {
			got, err := extractOne(t, Column{Name: "a", Type: tc.typ}, tc.record)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want it to contain %q", err, tc.err)
				}
				var fe *FieldError
				if !errors.As(err, &fe) || fe.Field != "a" || !fe.Column {
					t.Fatalf("error %T %v: want a *FieldError for column a", err, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestExtractNulls(t *testing.T) {
	tests := []struct {
		name     string
		nullable *bool
		record   string
		want     string
		err      string
	}{
		{"missing, nullable by default", nil, `{"b":1}`, "null", ""},
		{"null, nullable by default", nil, `{"a":null}`, "null", ""},
		{"missing, not nullable", boolp(false), `{"b":1}`, "", `column "a": missing, and the column is not nullable`},
		{"null, not nullable", boolp(false), `{"a":null}`, "", `column "a": null, and the column is not nullable`},
		{"present, not nullable", boolp(false), `{"a":7}`, "7", ""},
		{"empty object", boolp(true), `{}`, "null", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := extractOne(t, Column{Name: "a", Type: "int64", Nullable: tc.nullable}, tc.record)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestExtractNested(t *testing.T) {
	cols := []Column{
		{Name: "id", Type: "int64"},
		{Name: "city", Type: "string", From: "customer.address.city"},
		{Name: "cust", Type: "json", From: "customer"},
		{Name: "cid", Type: "int64", From: "customer.id"},
		{Name: "cid_text", Type: "string", From: "customer.id"},
		{Name: "tags", Type: "json"},
		{Name: "deep", Type: "string", From: "x.x.x"},
	}
	s, err := NewSchema(cols)
	if err != nil {
		t.Fatal(err)
	}
	x, err := NewExtractor(s.Fields())
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]Value, len(cols))
	tests := []struct {
		record string
		want   []string
		err    string
	}{
		{
			record: `{"id":1,"customer":{"id":7,"address":{"city":"Köln","zip":"50667"},"other":[1,{"a":2}]},"tags":["a","b"],"x":{"x":{"x":"deep"}}}`,
			want:   []string{"1", "Köln", `{"id":7,"address":{"city":"Köln","zip":"50667"},"other":[1,{"a":2}]}`, "7", "7", `["a","b"]`, "deep"},
		},
		{ // other key order, whitespace, unknown keys everywhere
			record: " {\n \"skip\" : {\"customer\":{\"id\":99}} , \"x\":{\"y\":1,\"x\":{\"x\":\"d\"}},\"customer\" : { \"address\" : null , \"id\" : 8 } , \"id\" : 2 }\n",
			want:   []string{"2", "null", `{ "address" : null , "id" : 8 }`, "8", "8", "null", "d"},
		},
		{ // parent missing or null: nulls
			record: `{"id":3,"customer":null}`,
			want:   []string{"3", "null", "null", "null", "null", "null", "null"},
		},
		{ // escaped key matches
			record: `{"\u0069d":4,"cust\u006fmer":{"id":5}}`,
			want:   []string{"4", "null", `{"id":5}`, "5", "5", "null", "null"},
		},
		{ // keys that start like the expected one are other keys
			record: `{"idx":9,"id":6,"i":8,"customer":{"id2":1,"id":3}}`,
			want:   []string{"6", "null", `{"id2":1,"id":3}`, "3", "3", "null", "null"},
		},
		{ // duplicate keys: the last one wins, as with encoding/json
			record: `{"id":1,"id":2}`,
			want:   []string{"2", "null", "null", "null", "null", "null", "null"},
		},
		{
			record: `{"id":1,"customer":"bob"}`,
			err:    `column "city": expected an object at "customer", got "bob"`,
		},
		{
			record: `{"id":1,"x":{"x":5}}`,
			err:    `column "deep": expected an object at "x.x", got 5`,
		},
	}
	for _, tc := range tests {
		err := x.Extract(&providers.Record{Value: []byte(tc.record)}, vals)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error = %v, want %q", tc.record, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.record, err)
			continue
		}
		for i, w := range tc.want {
			if got := render(vals[i], s.Kinds[i]); got != w {
				t.Errorf("%s: column %s = %q, want %q", tc.record, cols[i].Name, got, w)
			}
		}
	}
}

// After a field error the other fields are still extracted, so that a
// rejected record can still be routed.
func TestExtractContinuesAfterFieldError(t *testing.T) {
	x, err := NewExtractor([]Field{
		{Name: "a", Path: "a", Kind: KindInt64, Nullable: true, Column: true},
		{Name: "b", Path: "b", Kind: KindString, Nullable: true, Column: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]Value, 2)
	err = x.Extract(&providers.Record{Value: []byte(`{"a":"x","b":"y"}`)}, vals)
	if err == nil || !vals[0].Invalid || !vals[0].Null {
		t.Fatalf("err = %v, a = %+v: want an error and a invalid", err, vals[0])
	}
	if vals[1].Invalid || string(vals[1].Bytes) != "y" {
		t.Fatalf("b = %+v, want y", vals[1])
	}

	// A field below a value that is not an object is invalid too, not
	// missing.
	x, err = NewExtractor([]Field{
		{Name: "c", Path: "a.c", Kind: KindInt64, Nullable: true, Column: true},
		{Name: "b", Path: "b", Kind: KindString, Nullable: true, Column: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	vals = []Value{{Int: 1, Token: TokNumber}, {}} // not what the record gives
	err = x.Extract(&providers.Record{Value: []byte(`{"a":5,"b":"y"}`)}, vals)
	if err == nil || !vals[0].Invalid || !vals[0].Null {
		t.Fatalf("err = %v, c = %+v: want an error and c invalid", err, vals[0])
	}
	if vals[1].Invalid || string(vals[1].Bytes) != "y" {
		t.Fatalf("b = %+v, want y", vals[1])
	}
}

func TestExtractSyntaxErrors(t *testing.T) {
	tests := []struct{ record, want string }{
		{``, "not JSON: unexpected end of record, expected '{' at byte 0"},
		{`   `, "not JSON: unexpected end of record"},
		{`[1,2]`, "not JSON: the record is an array, not an object at byte 0"},
		{`"str"`, "not JSON: the record is a string, not an object"},
		{`null`, "not JSON: the record is null, not an object"},
		{`{"a":1`, "not JSON: unexpected end of record, expected ',' or '}' in an object at byte 6"},
		{`{"a":1}x`, "not JSON: invalid character 'x', after the object at byte 7"},
		{`{"a":1,}`, "not JSON: invalid character '}', expected a string key at byte 7"},
		{`{"a" 1}`, "expected ':' after a key"},
		{`{a:1}`, "expected a string key"},
		{`{"a":"x`, "unexpected end of record, in a string"},
		{"{\"a\":\"x\ny\"}", "control characters must be escaped"},
		{`{"a":"\x"}`, "in a string escape"},
		{`{"a":"\u12"}`, `in a \u escape`},
		{`{"a":01}`, "expected ',' or '}'"},
		{`{"a":-01}`, "expected ',' or '}'"},
		{`{"a":00.5}`, "expected ',' or '}'"},
		{`{"a":1.2.3}`, "invalid character '.', expected ',' or '}'"},
		{`{"a":.5}`, "invalid character '.', expected a value"},
		{`{"a":-}`, "in a number"},
		{`{"a":1.}`, "in a number"},
		{`{"a":1e}`, "in a number"},
		{`{"a":tru}`, "in a literal"},
		{`{"b":[1,2}`, "expected ',' or ']' in an array"},
		{`{"b":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`, "nesting deeper than 512 levels"},
		{`{"a":1}{"a":2}`, "after the object"},
	}
	// Integers and decimals each have a fast path that must leave bad
	// numbers to the general one.
	for _, kind := range []Kind{KindInt64, KindDouble} {
		x, err := NewExtractor([]Field{{Name: "a", Path: "a", Kind: kind, Nullable: true, Column: true}})
		if err != nil {
			t.Fatal(err)
		}
		vals := make([]Value, 1)
		for _, tc := range tests {
			err := x.Extract(&providers.Record{Value: []byte(tc.record)}, vals)
			var se *SyntaxError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %q: error = %v, want a SyntaxError containing %q", kind, tc.record, err, tc.want)
			}
		}
	}
}

func TestExtractMetadata(t *testing.T) {
	cols := []Column{
		{Name: "_key", Type: "string"},
		{Name: "k", Type: "bytes", From: "_key"},
		{Name: "_partition", Type: "int32"},
		{Name: "p", Type: "string", From: "_partition"},
		{Name: "_offset", Type: "int64"},
		{Name: "o", Type: "string", From: "_offset"},
		{Name: "_timestamp", Type: "timestamp"},
		{Name: "_headers", Type: "json"},
	}
	s, err := NewSchema(cols)
	if err != nil {
		t.Fatal(err)
	}
	x, err := NewExtractor(s.Fields())
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]Value, len(cols))
	rec := &providers.Record{
		Partition: "3", Offset: 42, Key: []byte("k1"), Timestamp: 1767323045678,
		Headers: []providers.Header{{Key: "h", Value: []byte("v\"1")}, {Key: "bin", Value: []byte{0xff}}},
		Value:   []byte(`not even JSON`), // no JSON field is read, so the value is not parsed
	}
	if err := x.Extract(rec, vals); err != nil {
		t.Fatal(err)
	}
	want := []string{"k1", "azE=", "3", "3", "42", "42", "2026-01-02T03:04:05.678Z", `[{"key":"h","value":"v\"1"},{"key":"bin","value":"\ufffd"}]`}
	for i, w := range want {
		if got := render(vals[i], s.Kinds[i]); got != w {
			t.Errorf("%s = %q, want %q", cols[i].Name, got, w)
		}
	}
	// Absent metadata is null.
	if err := x.Extract(&providers.Record{Partition: "0"}, vals); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 1, 6, 7} {
		if !vals[i].Null {
			t.Errorf("%s = %q, want null", cols[i].Name, render(vals[i], s.Kinds[i]))
		}
	}
	// A partition that is not a number cannot be read as int32.
	err = x.Extract(&providers.Record{Partition: "data/a.jsonl"}, vals)
	if err == nil || err.Error() != `column "_partition": source partition "data/a.jsonl" is not an int32` {
		t.Errorf("error = %v", err)
	}
}

func TestValidateColumns(t *testing.T) {
	tests := []struct {
		cols []Column
		err  string
	}{
		{[]Column{{Name: "a", Type: "string"}, {Name: "b", Type: "json", From: "x.y"}}, ""},
		{[]Column{{Name: "a", Type: "text"}}, `column "a": unknown type "text" (want one of string, int32, int64, float, double, bool, timestamp, date, bytes, json, decimal(p,s), list<T>, map<string,T>, struct<name:T,…>)`},
		{[]Column{{Name: "a", Type: "any"}}, `unknown type "any"`},
		{[]Column{{Name: "a", Type: "string"}, {Name: "a", Type: "int64"}}, `column "a" is declared twice`},
		{[]Column{{Name: "", Type: "string"}}, "column with an empty name"},
		{[]Column{{Name: "a\nb", Type: "string"}}, "control character"},
		{[]Column{{Name: "a", Type: "string", From: "x..y"}}, `column "a": from: field path "x..y" has an empty segment`},
		{[]Column{{Name: "a", Type: "string", From: ".x"}}, "empty segment"},
		{[]Column{{Name: "a", Type: "string", From: "x."}}, "empty segment"},
		{[]Column{{Name: "_offset", Type: "double"}}, `column "_offset": _offset can be read as int64 or string, not double`},
		{[]Column{{Name: "k", Type: "int64", From: "_key"}}, `_key can be read as string or bytes, not int64`},
		{[]Column{{Name: "a", Type: "x"}, {Name: "a", Type: "y"}}, `unknown type "y"`}, // every error is reported
		{[]Column{{Name: "a", Type: "decimal(10,2)"}, {Name: "b", Type: "decimal(38,38)"}}, ""},
		{[]Column{{Name: "a", Type: "decimal(10,12)"}}, `column "a": type "decimal(10,12)", at character 12: a decimal's scale is 0 to its precision (10), not 12`},
		{[]Column{{Name: "a", Type: "list<string"}}, `column "a": type "list<string", at character 12: expected ">" to close list<, found the end`},
		{[]Column{{Name: "_offset", Type: "decimal(20,0)"}}, `_offset can be read as int64 or string, not decimal`},
		{[]Column{{Name: "a", Type: "list<string>"}, {Name: "b", Type: "struct<x:map<string,decimal(5,2)>>"}}, ""},
	}
	for _, tc := range tests {
		err := ValidateColumns(tc.cols)
		if tc.err == "" {
			if err != nil {
				t.Errorf("%v: %v", tc.cols, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: error = %v, want it to contain %q", tc.cols, err, tc.err)
		}
	}
}

// parseSimpleFloat must agree with strconv.ParseFloat wherever it answers.
func TestParseSimpleFloat(t *testing.T) {
	cases := []string{"0", "-0", "1", "0.1", "0.3", "12.34", "-9450.95", "123456789012345", "0.000000000000001", "999999999999999", "1.5", "2.675", "0.1000000000000001"}
	for i := range 2000 {
		cases = append(cases, fmt.Sprintf("%d.%02d", i*7919%100000, i%100), fmt.Sprintf("%.6f", float64(i)/7))
	}
	for _, c := range cases {
		got, ok := parseSimpleFloat([]byte(c))
		want, err := strconv.ParseFloat(c, 64)
		if err != nil {
			t.Fatal(err)
		}
		if ok && (got != want || math.Signbit(got) != math.Signbit(want)) {
			t.Errorf("parseSimpleFloat(%q) = %v, strconv says %v", c, got, want)
		}
		if !ok && len(strings.ReplaceAll(strings.TrimPrefix(c, "-"), ".", "")) <= 15 {
			t.Errorf("parseSimpleFloat(%q) declined a simple decimal", c)
		}
	}
	for _, c := range []string{"1e5", "1234567890123456", "-", ""} {
		if _, ok := parseSimpleFloat([]byte(c)); ok {
			t.Errorf("parseSimpleFloat(%q) answered", c)
		}
	}
}

// The pipeline copies only the bytes of kinds that hold bytes (HoldsBytes):
// every other kind must leave Value.Bytes nil, whatever the record holds.
func TestOnlyByteKindsHoldBytes(t *testing.T) {
	texts := []string{`"x"`, `"2026-01-02T03:04:05Z"`, `"2026-01-02"`, `"aGk="`, `"a\"b"`, `12`, `-1.5`, `1e3`, `true`, `null`, `{"b":1}`, `[1]`}
	for k := KindAny; k <= KindJSON; k++ {
		x, err := NewExtractor([]Field{{Name: "a", Path: "a", Kind: k, Nullable: true, Column: true}})
		if err != nil {
			t.Fatal(err)
		}
		vals := make([]Value, 1)
		for _, text := range append(texts, "") {
			rec := `{"a":` + text + `}`
			if text == "" {
				rec = `{}`
			}
			x.Extract(&providers.Record{Value: []byte(rec)}, vals) // field errors are fine here
			if vals[0].Bytes != nil && !k.HoldsBytes() {
				t.Errorf("%s from %s: Bytes = %q, want nil", k, rec, vals[0].Bytes)
			}
		}
	}
	for path, kinds := range metaKinds {
		for _, k := range kinds {
			x, err := NewExtractor([]Field{{Name: "m", Path: path, Kind: k, Nullable: true, Column: true}})
			if err != nil {
				t.Fatal(err)
			}
			vals := make([]Value, 1)
			rec := &providers.Record{Key: []byte("k"), Partition: "3", Offset: 7, Timestamp: 1, Headers: []providers.Header{{Key: "h", Value: []byte("v")}}}
			x.Extract(rec, vals)
			if vals[0].Bytes != nil && !k.HoldsBytes() {
				t.Errorf("%s as %s: Bytes = %q, want nil", path, k, vals[0].Bytes)
			}
		}
	}
}

// Keys are compared as two words when they fit 16 bytes with their quotes and
// 16 bytes of the record remain, else as strings: both ways must tell a key
// from a longer or shorter one with the same start, anywhere in a record.
func TestExtractKeyLengths(t *testing.T) {
	names := []string{"a", "abcdefg", "abcdefgh", "abcdefghijklmn", "abcdefghijklmno", strings.Repeat("k", 30)}
	var fields []Field
	for _, n := range names {
		fields = append(fields, Field{Name: n, Path: n, Kind: KindInt64, Nullable: true, Column: true})
	}
	x, err := NewExtractor(fields)
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]Value, len(names))
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {3, 0, 5, 1, 4, 2}} {
		for _, pad := range []string{"", strings.Repeat(" ", 40)} {
			rec := "{"
			for _, i := range order {
				// Decoys before each key: one a byte longer, one that
				// differs in its last byte.
				rec += fmt.Sprintf(`"%sz":-1,"%sZ":-2,%s"%s":%d,`, names[i], names[i][:len(names[i])-1], pad, names[i], i+1)
			}
			rec = strings.TrimSuffix(rec, ",") + "}"
			for range 2 { // the second time with the key order learned
				if err := x.Extract(&providers.Record{Value: []byte(rec)}, vals); err != nil {
					t.Fatalf("%s: %v", rec, err)
				}
				for i, v := range vals {
					if v.Null || v.Int != int64(i+1) {
						t.Fatalf("%s: %s = %+v, want %d", rec, names[i], v, i+1)
					}
				}
			}
		}
	}
}

// Integers of every length, with what may follow them: the fast path must
// give what strconv gives, or leave the number to the general path, which
// reports the errors.
func TestExtractIntegerLengths(t *testing.T) {
	x, err := NewExtractor([]Field{{Name: "a", Path: "a", Kind: KindInt64, Nullable: true, Column: true}})
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]Value, 1)
	for digits := 1; digits <= 20; digits++ {
		num := "9876543210987654321098"[:digits]
		for _, after := range []string{"}", ",\"b\":1}", " }", ".5}", "e3}", "x}"} {
			for _, pad := range []string{"", strings.Repeat(" ", 20)} {
				rec := `{"a":` + num + after + pad
				err := x.Extract(&providers.Record{Value: []byte(rec)}, vals)
				want, perr := strconv.ParseInt(num, 10, 64)
				switch {
				case after == ".5}" || after == "e3}":
					if err == nil {
						t.Errorf("%s: no error, want one: not an integer", rec)
					}
				case after == "x}":
					var se *SyntaxError
					if !errors.As(err, &se) {
						t.Errorf("%s: error %v, want a SyntaxError", rec, err)
					}
				case perr != nil:
					if err == nil {
						t.Errorf("%s: no error, want one: out of range", rec)
					}
				case err != nil || vals[0].Int != want:
					t.Errorf("%s: got %d, %v; want %d", rec, vals[0].Int, err, want)
				}
			}
		}
	}
}

// A record that breaks off leaves no value of the record before it: the
// fields it did not reach are null (the pipeline still routes a rejected
// record by its fields).
func TestExtractSyntaxErrorLeavesNoStaleValues(t *testing.T) {
	x, err := NewExtractor([]Field{
		{Name: "a", Path: "a", Kind: KindInt64, Nullable: true, Column: true},
		{Name: "b", Path: "b", Kind: KindString, Nullable: true, Column: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]Value, 2)
	for _, broken := range []string{`{"a":0,"b":`, `{"a":0,"b":"x`, `[1]`, `{"a":0,"b":"x"} y`} {
		if err := x.Extract(&providers.Record{Value: []byte(`{"a":1,"b":"old"}`)}, vals); err != nil {
			t.Fatal(err)
		}
		var se *SyntaxError
		if err := x.Extract(&providers.Record{Value: []byte(broken)}, vals); !errors.As(err, &se) {
			t.Fatalf("%s: error %v, want a SyntaxError", broken, err)
		}
		if string(vals[1].Bytes) == "old" || vals[0].Int == 1 {
			t.Errorf("%s: values %+v keep the record before", broken, vals)
		}
	}
}

func TestExtractDecimal(t *testing.T) {
	tests := []struct {
		typ, value, want, err string
	}{
		{"decimal(10,2)", `-12.30`, "-12.30", ""},
		{"decimal(10,2)", `"-12.30"`, "-12.30", ""}, // some producers quote decimals
		{"decimal(10,2)", `12.3`, "12.30", ""},
		{"decimal(10,2)", `12`, "12.00", ""},
		{"decimal(10,2)", `0`, "0.00", ""},
		{"decimal(10,2)", `-0.00`, "0.00", ""},
		{"decimal(10,2)", `0.05`, "0.05", ""},
		{"decimal(10,2)", `-0.05`, "-0.05", ""},
		{"decimal(10,2)", `12.300`, "12.30", ""}, // a trailing zero loses nothing
		{"decimal(10,2)", `1.5e2`, "150.00", ""},
		{"decimal(10,2)", `15E-1`, "1.50", ""},
		{"decimal(10,2)", `99999999.99`, "99999999.99", ""},
		{"decimal(10,2)", `-99999999.99`, "-99999999.99", ""},
		{"decimal(10,2)", `12.345`, "", `column "a": 12.345 has 3 fractional digits, and decimal(10,2) holds 2 (round it before it is written, or declare a larger scale)`},
		{"decimal(10,2)", `"12.345"`, "", `column "a": "12.345" has 3 fractional digits`},
		{"decimal(10,2)", `100000000`, "", `column "a": 100000000 has 9 integer digits, and decimal(10,2) holds 8 (declare a larger precision)`},
		{"decimal(10,2)", `1e8`, "", `has 9 integer digits`},
		{"decimal(10,2)", `1e-3`, "", `has 3 fractional digits`},
		{"decimal(10,2)", `1e999999999999`, "", `integer digits`},
		{"decimal(10,2)", `"12,30"`, "", `column "a": expected a decimal number, got "12,30"`},
		{"decimal(10,2)", `" 12"`, "", `expected a decimal number`},
		{"decimal(10,2)", `"0x10"`, "", `expected a decimal number`},
		{"decimal(10,2)", `"01.5"`, "", `expected a decimal number`},
		{"decimal(10,2)", `""`, "", `expected a decimal number`},
		{"decimal(10,2)", `true`, "", `column "a": expected a decimal number, got true`},
		{"decimal(10,2)", `[1]`, "", `expected a decimal number, got an array`},
		{"decimal(10,2)", `null`, "null", ""},
		{"decimal(3,3)", `0.999`, "0.999", ""},
		{"decimal(3,3)", `1`, "", `1 has 1 integer digits, and decimal(3,3) holds 0`},
		{"decimal(5,0)", `-12345`, "-12345", ""},
		{"decimal(5,0)", `0.5`, "", `has 1 fractional digits`},
		{"decimal(9,2)", `-9999999.99`, "-9999999.99", ""},
		{"decimal(18,0)", `999999999999999999`, "999999999999999999", ""},
		{"decimal(18,0)", `-999999999999999999`, "-999999999999999999", ""},
		{"decimal(18,0)", `9999999999999999999`, "", `19 integer digits`},
		// Above 18 digits: 128 bits.
		{"decimal(19,0)", `9999999999999999999`, "9999999999999999999", ""},
		{"decimal(20,2)", `-123456789012345678.91`, "-123456789012345678.91", ""},
		{"decimal(38,0)", `99999999999999999999999999999999999999`, "99999999999999999999999999999999999999", ""},
		{"decimal(38,0)", `-99999999999999999999999999999999999999`, "-99999999999999999999999999999999999999", ""},
		{"decimal(38,0)", `100000000000000000000000000000000000000`, "", `39 integer digits`},
		{"decimal(38,10)", `1234567890123456789012345678.0123456789`, "1234567890123456789012345678.0123456789", ""},
		{"decimal(38,10)", `10000000000000000000.0000000001`, "10000000000000000000.0000000001", ""},
		{"decimal(38,10)", `-0.0000000001`, "-0.0000000001", ""},
		{"decimal(38,38)", `0.12345678901234567890123456789012345678`, "0.12345678901234567890123456789012345678", ""},
		{"decimal(38,2)", `0`, "0.00", ""},
		{"decimal(38,2)", `"-18446744073709551616.00"`, "-18446744073709551616.00", ""}, // -2^64: the low word is 0
		{"decimal(38,2)", `1e30`, "1000000000000000000000000000000.00", ""},
		{"decimal(38,2)", `0.001`, "", `has 3 fractional digits`},
	}
	for _, tt := range tests {
		got, err := extractOne(t, Column{Name: "a", Type: tt.typ}, `{"a":`+tt.value+`}`)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s from %s: error %v, want %q", tt.typ, tt.value, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s from %s: %v", tt.typ, tt.value, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s from %s = %s, want %s", tt.typ, tt.value, got, tt.want)
		}
	}
}

func TestExtractNestedTypes(t *testing.T) {
	const addr = "struct<city:string,zip:int32,geo:struct<lat:double,lon:double>>"
	tests := []struct {
		typ, value, want, err string
	}{
		{addr, `{"zip":10115,"city":"Berlin","geo":{"lon":13.4,"lat":52.52},"extra":[1]}`, `{"city":"Berlin","zip":10115,"geo":{"lat":52.52,"lon":13.4}}`, ""},
		{addr, `{"city":"Köln"}`, `{"city":"Köln","zip":null,"geo":null}`, ""},
		{addr, `{ "city" : "a\"b" , "geo" : { "lat" : 1e2 } }`, `{"city":"a\"b","zip":null,"geo":{"lat":100,"lon":null}}`, ""},
		{addr, `{"ci\u0074y":"x"}`, `{"city":"x","zip":null,"geo":null}`, ""}, // an escaped key is the key
		{addr, `{}`, `{"city":null,"zip":null,"geo":null}`, ""},
		{addr, `null`, "null", ""},
		{addr, `{"zip":"10115"}`, "", `column "a": at .zip: expected an integer, got "10115"`},
		{addr, `{"geo":{"lat":"north"}}`, "", `column "a": at .geo.lat: expected a number, got "north"`},
		{addr, `{"zip":3000000000}`, "", `at .zip: 3000000000 is out of range for int32`},
		{addr, `[1]`, "", `column "a": expected an object for struct<city:string,zip:int32,geo:struct<lat:double,lon:double>>, got an array`},
		{"list<int64>", `[1, 2,3]`, `[1,2,3]`, ""},
		{"list<int64>", `[]`, `[]`, ""},
		{"list<int64>", `[1,null]`, `[1,null]`, ""},
		{"list<int64>", `[1,"x"]`, "", `column "a": at [1]: expected an integer, got "x"`},
		{"list<int64>", `{"a":1}`, "", `expected an array for list<int64>, got an object`},
		{"list<list<string>>", `[["a"],[],null,[1,true]]`, `[["a"],[],null,["1","true"]]`, ""},
		{"list<string>", `[{"a":1}]`, "", `at [0]: expected a string, got an object`},
		{"map<string,double>", `{"b":1.50,"a":-0.25}`, `{"b":1.5,"a":-0.25}`, ""},
		{"map<string,double>", `{}`, `{}`, ""},
		{"map<string,double>", `{"x":null}`, `{"x":null}`, ""},
		{"map<string,double>", `{"x":"y"}`, "", `column "a": at ["x"]: expected a number, got "y"`},
		{"map<string,decimal(10,2)>", `{"eur":12.5,"usd":"3"}`, `{"eur":12.50,"usd":3.00}`, ""},
		{"map<string,decimal(10,2)>", `{"eur":12.345}`, "", `at ["eur"]: 12.345 has 3 fractional digits, and decimal(10,2) holds 2`},
		{"struct<ts:timestamp,d:date,b:bytes,ok:bool,j:json>", `{"ts":"2026-01-02T03:04:05.678+01:00","d":"2026-01-02","b":"aGk=","ok":true,"j":{ "n" : [1, 2] }}`,
			`{"ts":"2026-01-02T02:04:05.678Z","d":"2026-01-02","b":"aGk=","ok":true,"j":{"n":[1,2]}}`, ""},
		{"struct<ts:timestamp>", `{"ts":1767225600000}`, `{"ts":"2026-01-01T00:00:00.000Z"}`, ""},
		{"struct<d:date>", `{"d":"2026-02-30"}`, "", `at .d: expected a date (YYYY-MM-DD), got "2026-02-30"`},
		{"struct<b:bytes>", `{"b":"not base64!"}`, "", `at .b: expected base64 text, got "not base64!"`},
		{"struct<`zip-code`:string>", `{"zip-code":"x"}`, `{"zip-code":"x"}`, ""},
		{"list<struct<sku:string,qty:int32,price:decimal(38,4)>>", `[{"sku":"a","qty":2,"price":"12345678901234567890.1234"},{"sku":"b","qty":1,"price":-0.5}]`,
			`[{"sku":"a","qty":2,"price":12345678901234567890.1234},{"sku":"b","qty":1,"price":-0.5000}]`, ""},
		{"list<struct<sku:string,qty:int32>>", `[{"sku":"a","qty":2},{"sku":"b","qty":1.5}]`, "", `column "a": at [1].qty: expected an integer, got 1.5`},
		{"map<string,string>", `{"\ud800":"x"}`, "", `is not UTF-8 text`},
		{"list<string>", `["\ud800"]`, "", `at [0]: the text is not UTF-8, or holds a lone surrogate`},
	}
	for _, tt := range tests {
		got, err := extractOne(t, Column{Name: "a", Type: tt.typ}, `{"a":`+tt.value+`}`)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s from %s: error %v, want %q", tt.typ, tt.value, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s from %s: %v", tt.typ, tt.value, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s from %s\n got %s\nwant %s", tt.typ, tt.value, got, tt.want)
		}
	}
}
