package wire

import (
	"fmt"
	"strings"
	"testing"
)

// describe renders a parsed schema compactly, following a named type only
// the first time it is met (recursive types end).
func describe(s *AvroSchema, seen map[*AvroSchema]bool) string {
	if s.Name != "" {
		if seen[s] {
			return s.Name
		}
		seen[s] = true
	}
	var b strings.Builder
	b.WriteString(s.Kind.String())
	if s.Name != "" {
		b.WriteString(" " + s.Name)
	}
	if s.Logical != "" {
		b.WriteString(" " + s.Logical)
		if s.Logical == "decimal" {
			fmt.Fprintf(&b, "(%d,%d)", s.Precision, s.Scale)
		}
	}
	switch s.Kind {
	case AvroRecord:
		b.WriteString("{")
		for i, f := range s.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name + ": " + describe(f.Type, seen))
		}
		b.WriteString("}")
	case AvroEnum:
		b.WriteString(" " + strings.Join(s.Symbols, "|"))
	case AvroFixed:
		fmt.Fprintf(&b, "[%d]", s.Size)
	case AvroArray:
		b.WriteString("<" + describe(s.Items, seen) + ">")
	case AvroMap:
		b.WriteString("<" + describe(s.Values, seen) + ">")
	case AvroUnion:
		var bs []string
		for _, x := range s.Branches {
			bs = append(bs, describe(x, seen))
		}
		b.WriteString("(" + strings.Join(bs, " | ") + ")")
	}
	return b.String()
}

func TestParseAvro(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		refs       []string
		want       string
	}{
		{"primitive", `"long"`, nil, "long"},
		{"primitive object", `{"type": "string"}`, nil, "string"},
		{"all primitives", `["null", "boolean", "int", "long", "float", "double", "bytes", "string"]`, nil,
			"union(null | boolean | int | long | float | double | bytes | string)"},
		{"record", `{"type": "record", "name": "Order", "namespace": "shop", "fields": [
			{"name": "id", "type": "long", "default": 0},
			{"name": "note", "type": ["null", "string"], "default": null}]}`, nil,
			"record shop.Order{id: long, note: union(null | string)}"},
		{"error is a record", `{"type": "error", "name": "E", "fields": []}`, nil, "record E{}"},
		{"enum", `{"type": "enum", "name": "Suit", "symbols": ["HEARTS", "SPADES"], "default": "SPADES"}`, nil,
			"enum Suit HEARTS|SPADES"},
		{"array and map", `{"type": "map", "values": {"type": "array", "items": "int"}}`, nil, "map<array<int>>"},
		{"fixed", `{"type": "fixed", "name": "md5", "size": 16}`, nil, "fixed md5[16]"},
		{"nested type object", `{"type": {"type": "array", "items": "int"}}`, nil, "array<int>"},
		{"dotted name ignores namespace", `{"type": "fixed", "name": "a.b.F", "namespace": "x", "size": 1}`, nil, "fixed a.b.F[1]"},
		{"namespace is inherited", `{"type": "record", "name": "R", "namespace": "n", "fields": [
			{"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A"]}},
			{"name": "again", "type": "E"},
			{"name": "full", "type": "n.E"}]}`, nil,
			"record n.R{e: enum n.E A, again: n.E, full: n.E}"},
		{"null namespace reference", `{"type": "record", "name": "R", "namespace": "n", "fields": [
			{"name": "f", "type": {"type": "fixed", "name": "F", "namespace": "", "size": 2}},
			{"name": "g", "type": "F"}]}`, nil,
			"record n.R{f: fixed F[2], g: F}"},
		{"recursive", `{"type": "record", "name": "List", "fields": [
			{"name": "value", "type": "int"}, {"name": "next", "type": ["null", "List"]}]}`, nil,
			"record List{value: int, next: union(null | List)}"},
		{"reference to a registry reference", `{"type": "record", "name": "Order", "fields": [{"name": "money", "type": "shop.Money"}]}`,
			[]string{`{"type": "record", "name": "Money", "namespace": "shop", "fields": [{"name": "units", "type": "long"}]}`},
			"record Order{money: record shop.Money{units: long}}"},
		{"decimal bytes", `{"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}`, nil, "bytes decimal(9,2)"},
		{"decimal scale defaults to 0", `{"type": "bytes", "logicalType": "decimal", "precision": 4}`, nil, "bytes decimal(4,0)"},
		{"decimal fixed", `{"type": "fixed", "name": "D", "size": 8, "logicalType": "decimal", "precision": 18, "scale": 3}`, nil,
			"fixed D decimal(18,3)[8]"},
		{"decimal too precise for its fixed is a fixed", `{"type": "fixed", "name": "D", "size": 2, "logicalType": "decimal", "precision": 5}`, nil,
			"fixed D[2]"},
		{"decimal scale above precision is bytes", `{"type": "bytes", "logicalType": "decimal", "precision": 2, "scale": 3}`, nil, "bytes"},
		{"decimal without precision is bytes", `{"type": "bytes", "logicalType": "decimal"}`, nil, "bytes"},
		{"decimal on a string is a string", `{"type": "string", "logicalType": "decimal", "precision": 2}`, nil, "string"},
		{"date", `{"type": "int", "logicalType": "date"}`, nil, "int date"},
		{"time-millis", `{"type": "int", "logicalType": "time-millis"}`, nil, "int time-millis"},
		{"time-micros", `{"type": "long", "logicalType": "time-micros"}`, nil, "long time-micros"},
		{"timestamp-millis", `{"type": "long", "logicalType": "timestamp-millis"}`, nil, "long timestamp-millis"},
		{"timestamp-micros", `{"type": "long", "logicalType": "timestamp-micros"}`, nil, "long timestamp-micros"},
		{"local-timestamp-millis", `{"type": "long", "logicalType": "local-timestamp-millis"}`, nil, "long local-timestamp-millis"},
		{"local-timestamp-micros", `{"type": "long", "logicalType": "local-timestamp-micros"}`, nil, "long local-timestamp-micros"},
		{"uuid", `{"type": "string", "logicalType": "uuid"}`, nil, "string uuid"},
		{"date on a long is a long", `{"type": "long", "logicalType": "date"}`, nil, "long"},
		{"unknown logical type is ignored", `{"type": "int", "logicalType": "color"}`, nil, "int"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseAvro(tc.text, tc.refs...)
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(s, map[*AvroSchema]bool{}); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestParseAvroErrors(t *testing.T) {
	for _, tc := range []struct {
		text, want string
	}{
		{`{"type": `, "parse Avro schema: not JSON: unexpected end of JSON input"},
		{`12`, "parse Avro schema: the schema is a number: an Avro schema is a type name, an object or an array (a union)"},
		{`"integer"`, `parse Avro schema: the schema names type "integer", which is neither a primitive type nor a named type declared before it`},
		{`{"name": "x"}`, `parse Avro schema: the schema has no "type"`},
		{`{"type": "array"}`, `parse Avro schema: the schema is an array without "items"`},
		{`{"type": "map"}`, `parse Avro schema: the schema is a map without "values"`},
		{`{"type": "record", "fields": []}`, `parse Avro schema: the schema is a record without a "name" string`},
		{`{"type": "record", "name": "R"}`, `parse Avro schema: record R has no "fields" array`},
		{`{"type": "record", "name": "1R", "fields": []}`, `parse Avro schema: the schema: "1R" is not a valid Avro name (letters, digits and _, not starting with a digit)`},
		{`{"type": "record", "name": "R", "namespace": 3, "fields": []}`, `parse Avro schema: the schema: the "namespace" of R is a number, not a string`},
		{`{"type": "fixed", "name": "int", "size": 1}`, `parse Avro schema: the schema: a fixed cannot be named "int", a primitive type`},
		{`{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"}, {"name": "a", "type": "int"}]}`,
			`parse Avro schema: record R: field a is declared twice`},
		{`{"type": "record", "name": "R", "fields": [{"name": "a"}]}`, `parse Avro schema: record R: field a has no "type"`},
		{`{"type": "record", "name": "R", "fields": ["a"]}`, `parse Avro schema: record R: field 0 is a string, not an object`},
		{`{"type": "record", "name": "R", "fields": [{"name": "a-b", "type": "int"}]}`,
			`parse Avro schema: record R: field 0 has no valid "name" (letters, digits and _, not starting with a digit)`},
		{`{"type": "record", "name": "R", "fields": [{"name": "a", "type": "Other"}]}`,
			`parse Avro schema: record R, field a names type "Other", which is neither a primitive type nor a named type declared before it`},
		{`{"type": "record", "name": "R", "fields": [{"name": "a", "type": {"type": "enum", "name": "R", "symbols": ["X"]}}]}`,
			`parse Avro schema: record R, field a: type R is declared twice`},
		{`{"type": "enum", "name": "E", "symbols": ["A", "A"]}`, `parse Avro schema: enum E: symbol A is declared twice`},
		{`{"type": "enum", "name": "E", "symbols": ["A", 1]}`,
			`parse Avro schema: enum E: symbol 1 is not a valid Avro name (letters, digits and _, not starting with a digit)`},
		{`{"type": "enum", "name": "E"}`, `parse Avro schema: enum E has no "symbols" array`},
		{`{"type": "enum", "name": "E", "symbols": ["A"], "default": "B"}`, `parse Avro schema: enum E: the default B is not one of its symbols`},
		{`{"type": "fixed", "name": "F", "size": -1}`, `parse Avro schema: fixed F has no "size" that is a non-negative integer`},
		{`{"type": "fixed", "name": "F", "size": 1.5}`, `parse Avro schema: fixed F has no "size" that is a non-negative integer`},
		{`["null", ["int"]]`, `parse Avro schema: the schema, union branch 1 is a union: a union cannot hold a union directly`},
		{`["null", "string", "null"]`, `parse Avro schema: the schema, union branch 2 repeats type null: a union holds one of each`},
		{`{"type": "map", "values": {"type": "array", "items": [true]}}`,
			`parse Avro schema: the schema, map values, array items, union branch 0 is a boolean: an Avro schema is a type name, an object or an array (a union)`},
	} {
		t.Run(tc.text, func(t *testing.T) {
			_, err := ParseAvro(tc.text)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v\nwant  %s", err, tc.want)
			}
		})
	}
	_, err := ParseAvro(`"int"`, `{"type": "record"}`)
	if want := `parse referenced Avro schema: the schema is a record without a "name" string`; err == nil || err.Error() != want {
		t.Errorf("reference: error %v\nwant  %s", err, want)
	}
}

// TestAppendAvroRecursive decodes a linked list: a recursive record.
func TestAppendAvroRecursive(t *testing.T) {
	s, err := ParseAvro(`{"type": "record", "name": "List", "fields": [
		{"name": "v", "type": "int"}, {"name": "next", "type": ["null", "List"]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	// v=1, next=branch 1 {v=2, next=branch 0 (null)}
	got, err := AppendAvro(nil, s, []byte{2, 2, 4, 0})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"v":1,"next":{"v":2,"next":null}}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
