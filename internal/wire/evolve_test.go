package wire

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/format"
)

// avroVersions parses Avro record schemas as versions 1, 2, … of subject s.
func avroVersions(t *testing.T, schemas ...string) []Version {
	t.Helper()
	var out []Version
	for i, text := range schemas {
		s, err := ParseAvro(`{"type": "record", "name": "R", "fields": [` + text + `]}`)
		if err != nil {
			t.Fatal(err)
		}
		f, err := AvroFields(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Version{Subject: "s", Version: i + 1, Fields: f})
	}
	return out
}

func protoVersions(t *testing.T, bodies ...string) []Version {
	t.Helper()
	var out []Version
	for i, body := range bodies {
		fd, err := CompileProto(context.Background(), "syntax = \"proto3\";\nmessage M {\n"+body+"\n}\n", nil)
		if err != nil {
			t.Fatal(err)
		}
		md, _ := ProtoMessage(fd, nil)
		out = append(out, Version{Subject: "s", Version: i + 1, Fields: ProtoFields(md)})
	}
	return out
}

func jsonVersions(t *testing.T, schemas ...string) []Version {
	t.Helper()
	var out []Version
	for i, text := range schemas {
		f, err := JSONSchemaFields(text)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Version{Subject: "s", Version: i + 1, Fields: f})
	}
	return out
}

func renderColumns(cols []format.Column) string {
	var parts []string
	for _, c := range cols {
		p := c.Name + " " + c.Type
		if !c.IsNullable() {
			p += " not null"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

func TestDeriveColumns(t *testing.T) {
	const (
		id     = `{"name": "id", "type": "long"}`
		note   = `{"name": "note", "type": ["null", "string"], "default": null}`
		amount = `{"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}}`
	)
	for _, tc := range []struct {
		name     string
		versions func(t *testing.T) []Version
		want     string // the columns, or the error
	}{
		{"avro one version", func(t *testing.T) []Version { return avroVersions(t, id+","+note) },
			"id int64 not null, note string"},
		{"avro adds an optional field", func(t *testing.T) []Version { return avroVersions(t, id, id+","+note) },
			"id int64 not null, note string"},
		{"avro adds a defaulted field", func(t *testing.T) []Version {
			return avroVersions(t, id, id+`,{"name": "n", "type": "int", "default": 0}`)
		}, "id int64 not null, n int32"},
		{"avro new fields go last, in the order versions add them", func(t *testing.T) []Version {
			return avroVersions(t, id, note+","+id, note+`,{"name": "b", "type": ["null", "int"], "default": null},`+id)
		}, "id int64 not null, note string, b int32"},
		{"avro drops an optional field: its column stays", func(t *testing.T) []Version { return avroVersions(t, id+","+note, id) },
			"id int64 not null, note string"},
		{"avro widens int to long and a decimal's precision", func(t *testing.T) []Version {
			return avroVersions(t, `{"name": "id", "type": "int"},`+amount,
				id+`,{"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 2}}`)
		}, "id int64 not null, amount decimal(12,2) not null"},
		{"avro adds a field to a nested record", func(t *testing.T) []Version {
			return avroVersions(t, `{"name": "c", "type": {"type": "record", "name": "C", "fields": [{"name": "a", "type": "string"}]}}`,
				`{"name": "c", "type": {"type": "record", "name": "C", "fields": [{"name": "a", "type": "string"}, {"name": "b", "type": ["null", "int"]}]}}`)
		}, "c struct<a:string,b:int32> not null"},
		{"avro changes a type", func(t *testing.T) []Version {
			return avroVersions(t, id, `{"name": "id", "type": "string"}`)
		}, `subject s version 2: field "id" changes type from int64 to string`},
		{"avro narrows a decimal", func(t *testing.T) []Version {
			return avroVersions(t, amount, `{"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 1}}`)
		}, `subject s version 2: field "amount" changes type from decimal(10,2) to decimal(10,1)`},
		{"avro removes a required field", func(t *testing.T) []Version { return avroVersions(t, id+","+note, note) },
			`subject s version 2: field "id" is removed although earlier versions require it`},
		{"avro adds a required field without default", func(t *testing.T) []Version {
			return avroVersions(t, id, id+`,{"name": "n", "type": "int"}`)
		}, `subject s version 2: field "n" is added as required with no default`},
		{"avro makes a field required without default", func(t *testing.T) []Version {
			return avroVersions(t, id+","+note, id+`,{"name": "note", "type": "string"}`)
		}, `subject s version 2: field "note" is made required with no default`},
		{"avro the first incompatible version is named", func(t *testing.T) []Version {
			return avroVersions(t, id, id+","+note, `{"name": "id", "type": "string"},`+note)
		}, `subject s version 3: field "id" changes type`},
		{"protobuf adds an optional field", func(t *testing.T) []Version {
			return protoVersions(t, "int64 id = 1;", "int64 id = 1;\noptional string coupon = 2;")
		}, "id int64 not null, coupon string"},
		{"protobuf adds a scalar (it has a default)", func(t *testing.T) []Version {
			return protoVersions(t, "int64 id = 1;", "int64 id = 1;\nint32 n = 2;")
		}, "id int64 not null, n int32"},
		{"protobuf changes a type", func(t *testing.T) []Version {
			return protoVersions(t, "int64 id = 1;", "string id = 1;")
		}, `subject s version 2: field "id" changes type from int64 to string`},
		{"json schema adds an optional property", func(t *testing.T) []Version {
			return jsonVersions(t, `{"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}`,
				`{"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "note": {"type": "string"}}}`)
		}, "id int64 not null, note string"},
		{"json schema adds a required property", func(t *testing.T) []Version {
			return jsonVersions(t, `{"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}`,
				`{"type": "object", "required": ["id", "note"], "properties": {"id": {"type": "integer"}, "note": {"type": "string"}}}`)
		}, `subject s version 2: field "note" is added as required with no default`},
		{"json schema changes a type", func(t *testing.T) []Version {
			return jsonVersions(t, `{"type": "object", "properties": {"id": {"type": "integer"}}}`,
				`{"type": "object", "properties": {"id": {"type": "string"}}}`)
		}, `subject s version 2: field "id" changes type from int64 to string`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cols, err := DeriveColumns(tc.versions(t))
			got := renderColumns(cols)
			if err != nil {
				var ie *IncompatibleError
				if !errors.As(err, &ie) {
					t.Fatalf("error %v is not an *IncompatibleError", err)
				}
				got = err.Error()
			}
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestCheckDeclared(t *testing.T) {
	v := avroVersions(t, `{"name": "id", "type": "long"},
		{"name": "n", "type": "int"},
		{"name": "status", "type": {"type": "enum", "name": "S", "symbols": ["A"]}},
		{"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
		{"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}},
		{"name": "c", "type": {"type": "record", "name": "C", "fields": [{"name": "name", "type": "string"}, {"name": "age", "type": "int"}]}},
		{"name": "tags", "type": {"type": "map", "values": "string"}}`)[0]
	no := false
	for _, tc := range []struct {
		col  format.Column
		want string // "" when the column holds the field
	}{
		{format.Column{Name: "id", Type: "int64"}, ""},
		{format.Column{Name: "id", Type: "decimal(20,0)"}, ""},
		{format.Column{Name: "id", Type: "int32"}, `field "id" is int64, which column "id" of type int32 cannot hold`},
		{format.Column{Name: "id", Type: "string"}, `field "id" is int64`},
		{format.Column{Name: "id", Type: "json"}, ""},
		{format.Column{Name: "n", Type: "int64"}, ""},
		{format.Column{Name: "n", Type: "double"}, ""},
		{format.Column{Name: "status", Type: "string"}, ""},
		{format.Column{Name: "at", Type: "timestamp"}, ""},
		{format.Column{Name: "at", Type: "string"}, ""},
		{format.Column{Name: "at", Type: "int64"}, `field "at" is timestamp`},
		{format.Column{Name: "amount", Type: "decimal(12,2)"}, ""},
		{format.Column{Name: "amount", Type: "decimal(12,4)"}, ""},
		{format.Column{Name: "amount", Type: "decimal(9,2)"}, `field "amount" is decimal(10,2)`},
		{format.Column{Name: "amount", Type: "double"}, ""},
		{format.Column{Name: "amount", Type: "float"}, `field "amount" is decimal(10,2)`},
		{format.Column{Name: "name", Type: "string", From: "c.name"}, ""},
		{format.Column{Name: "age", Type: "string", From: "c.age"}, `field "c.age" is int32, which column "age"`},
		{format.Column{Name: "c", Type: "struct<name:string,age:int64,extra:string>"}, ""},
		{format.Column{Name: "c", Type: "struct<name:int64>"}, `field "c" is struct<name:string,age:int32>`},
		{format.Column{Name: "tags", Type: "map<string,string>"}, ""},
		{format.Column{Name: "tags", Type: "map<string,int64>"}, `field "tags" is map<string,string>`},
		{format.Column{Name: "gone", Type: "string"}, ""},
		{format.Column{Name: "gone", Type: "string", Nullable: &no}, `field "gone" is not in the schema, and column "gone", which reads it, is not nullable`},
		{format.Column{Name: "k", Type: "string", From: "_key"}, ""},
	} {
		t.Run(fmt.Sprintf("%s %s", tc.col.Source(), tc.col.Type), func(t *testing.T) {
			err := CheckDeclared([]format.Column{tc.col}, v)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && err == nil:
				t.Errorf("accepted, want %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("got %v\nwant %q", err, tc.want)
			}
		})
	}
}

// TestCheckDeclaredJSONSchema: JSON Schema numbers have no width, and its
// topics carry decimals and timestamps as strings.
func TestCheckDeclaredJSONSchema(t *testing.T) {
	v := jsonVersions(t, `{"type": "object", "properties": {
		"id": {"type": "integer"}, "amount": {"type": "string"}, "weight": {"type": "number"},
		"status": {"enum": ["A", "B"]}, "ok": {"type": "boolean"},
		"lines": {"type": "array", "items": {"type": "object", "properties": {"qty": {"type": "integer"}}}}}}`)[0]
	for _, tc := range []struct {
		col  format.Column
		want string
	}{
		{format.Column{Name: "id", Type: "int32"}, ""},
		{format.Column{Name: "id", Type: "decimal(10,0)"}, ""},
		{format.Column{Name: "amount", Type: "decimal(12,2)"}, ""},
		{format.Column{Name: "amount", Type: "timestamp"}, ""},
		{format.Column{Name: "amount", Type: "int64"}, `field "amount" is string`},
		{format.Column{Name: "weight", Type: "float"}, ""},
		{format.Column{Name: "weight", Type: "decimal(8,3)"}, ""},
		{format.Column{Name: "weight", Type: "int64"}, `field "weight" is double`},
		{format.Column{Name: "status", Type: "string"}, ""},
		{format.Column{Name: "ok", Type: "string"}, `field "ok" is bool`},
		{format.Column{Name: "lines", Type: "list<struct<qty:int32>>"}, ""},
	} {
		err := CheckDeclared([]format.Column{tc.col}, v)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s refused: %v", tc.col.Name, tc.col.Type, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s %s: got %v, want %q", tc.col.Name, tc.col.Type, err, tc.want)
		}
	}
}
