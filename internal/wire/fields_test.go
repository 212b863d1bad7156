package wire

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// render is fields as `name type [null] [default]`, one per line.
func render(fields []Field) string {
	var b strings.Builder
	for _, f := range fields {
		fmt.Fprintf(&b, "%s %s", f.Name, f.Type)
		if f.Nullable {
			b.WriteString(" null")
		}
		if f.Default {
			b.WriteString(" default")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestAvroFields(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"primitives", `{"type": "record", "name": "R", "fields": [
			{"name": "b", "type": "boolean"}, {"name": "i", "type": "int"}, {"name": "l", "type": "long"},
			{"name": "f", "type": "float"}, {"name": "d", "type": "double"}, {"name": "s", "type": "string"},
			{"name": "y", "type": "bytes"}, {"name": "x", "type": {"type": "fixed", "name": "X", "size": 4}}]}`,
			"b bool\ni int32\nl int64\nf float\nd double\ns string\ny bytes\nx bytes\n"},
		{"logical types", `{"type": "record", "name": "R", "fields": [
			{"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 2}},
			{"name": "fixed_amount", "type": {"type": "fixed", "name": "F", "size": 8, "logicalType": "decimal", "precision": 18, "scale": 4}},
			{"name": "day", "type": {"type": "int", "logicalType": "date"}},
			{"name": "ms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
			{"name": "us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
			{"name": "local", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
			{"name": "id", "type": {"type": "string", "logicalType": "uuid"}},
			{"name": "tod", "type": {"type": "int", "logicalType": "time-millis"}}]}`,
			"amount decimal(12,2)\nfixed_amount decimal(18,4)\nday date\nms timestamp\nus timestamp\nlocal timestamp\nid string\ntod string\n"},
		{"logical types decoded as text or to the nanosecond", `{"type": "record", "name": "R", "fields": [
			{"name": "ns", "type": {"type": "long", "logicalType": "timestamp-nanos"}},
			{"name": "local_ns", "type": {"type": "long", "logicalType": "local-timestamp-nanos"}},
			{"name": "took", "type": {"type": "fixed", "name": "D", "size": 12, "logicalType": "duration"}},
			{"name": "trace", "type": {"type": "fixed", "name": "U", "size": 16, "logicalType": "uuid"}}]}`,
			"ns timestamp\nlocal_ns timestamp\ntook string\ntrace string\n"},
		{"enum, nested and nullable", `{"type": "record", "name": "Order", "fields": [
			{"name": "status", "type": {"type": "enum", "name": "S", "symbols": ["A", "B"]}},
			{"name": "customer", "type": {"type": "record", "name": "C", "fields": [
				{"name": "name", "type": "string"}, {"name": "email", "type": ["null", "string"], "default": null}]}},
			{"name": "lines", "type": {"type": "array", "items": {"type": "record", "name": "L", "fields": [
				{"name": "sku", "type": "string"}, {"name": "qty", "type": "int"}]}}},
			{"name": "tags", "type": {"type": "map", "values": "long"}},
			{"name": "coupon", "type": ["null", "string"], "default": null},
			{"name": "count", "type": "int", "default": 0},
			{"name": "either", "type": ["int", "string"]}]}`,
			"status string\ncustomer struct<name:string,email:string>\nlines list<struct<sku:string,qty:int32>>\n" +
				"tags map<string,int64>\ncoupon string null default\ncount int32 default\neither json null\n"},
		{"recursion is json", `{"type": "record", "name": "Node", "fields": [
			{"name": "v", "type": "int"}, {"name": "next", "type": ["null", "Node"]}]}`,
			"v int32\nnext json null\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseAvro(tc.schema)
			if err != nil {
				t.Fatal(err)
			}
			got, err := AvroFields(s)
			if err != nil {
				t.Fatal(err)
			}
			if r := render(got); r != tc.want {
				t.Errorf("got\n%swant\n%s", r, tc.want)
			}
		})
	}
	s, _ := ParseAvro(`"long"`)
	if _, err := AvroFields(s); err == nil || !strings.Contains(err.Error(), "not a record") {
		t.Errorf("a long schema gives fields: %v", err)
	}
}

func TestProtoFields(t *testing.T) {
	for _, tc := range []struct {
		name, proto, want string
	}{
		{"scalars", `syntax = "proto3";
message M {
  int32 a = 1; sint32 b = 2; sfixed32 c = 3; int64 d = 4; uint32 e = 5; fixed32 f = 6;
  uint64 g = 7; fixed64 h = 8; float i = 9; double j = 10; bool k = 11; string l = 12; bytes m = 13;
  optional string n = 14;
}`, "a int32 default\nb int32 default\nc int32 default\nd int64 default\ne int64 default\nf int64 default\n" +
			"g decimal(20,0) default\nh decimal(20,0) default\ni float default\nj double default\nk bool default\n" +
			"l string default\nm bytes default\nn string null\n"},
		{"messages, lists, maps, well-known types", `syntax = "proto3";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
import "google/type/date.proto";
import "confluent/type/decimal.proto";
message Order {
  Status status = 1;
  Customer customer = 2;
  repeated Line lines = 3;
  map<int32, string> tags = 4;
  google.protobuf.Timestamp at = 5;
  google.type.Date day = 6;
  google.protobuf.Int64Value count = 7;
  confluent.type.Decimal amount = 8;
  repeated string notes = 9;
}
message Customer { string name = 1; optional string email = 2; }
message Line { string sku = 1; int32 qty = 2; }
enum Status { NEW = 0; PAID = 1; }
`, "status string default\ncustomer struct<name:string,email:string> null\nlines list<struct<sku:string,qty:int32>> default\n" +
			"tags map<string,string> default\nat timestamp null\nday date null\ncount int64 null\namount json null\nnotes list<string> default\n"},
		{"well-known types decoded as text or JSON", `syntax = "proto3";
import "google/protobuf/duration.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/any.proto";
message Event {
  google.protobuf.Duration took = 1;
  google.protobuf.Struct attrs = 2;
  google.protobuf.Value extra = 3;
  google.protobuf.ListValue items = 4;
  google.protobuf.Any payload = 5;
}
`, "took string null\nattrs json null\nextra json null\nitems json null\npayload json null\n"},
		{"recursion is json", `syntax = "proto3";
message Node { int32 v = 1; Node next = 2; }`, "v int32 default\nnext json null\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fd, err := CompileProto(context.Background(), tc.proto, nil)
			if err != nil {
				t.Fatal(err)
			}
			md, err := ProtoMessage(fd, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r := render(ProtoFields(md)); r != tc.want {
				t.Errorf("got\n%swant\n%s", r, tc.want)
			}
		})
	}
}

func TestJSONSchemaFields(t *testing.T) {
	for _, tc := range []struct {
		name, schema, want string
	}{
		{"types in schema order", `{"type": "object", "required": ["id", "at"], "properties": {
			"id": {"type": "integer"}, "name": {"type": "string"}, "weight": {"type": "number"},
			"ok": {"type": "boolean"}, "at": {"type": "string", "format": "date-time"},
			"day": {"type": "string", "format": "date"}, "maybe": {"type": ["null", "integer"]},
			"note": {"type": "string", "default": ""}, "any": {}}}`,
			"id int64\nname string null\nweight double null\nok bool null\nat timestamp\nday date null\nmaybe int64 null\nnote string null default\nany json null\n"},
		{"nested", `{"type": "object", "required": ["customer", "lines", "tags"], "properties": {
			"customer": {"type": "object", "properties": {"name": {"type": "string"}, "email": {"type": ["string", "null"]}}},
			"lines": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}}}},
			"tags": {"type": "object", "additionalProperties": {"type": "string"}}}}`,
			"customer struct<name:string,email:string>\nlines list<struct<sku:string,qty:int64>>\ntags map<string,string>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := JSONSchemaFields(tc.schema)
			if err != nil {
				t.Fatal(err)
			}
			if r := render(got); r != tc.want {
				t.Errorf("got\n%swant\n%s", r, tc.want)
			}
		})
	}
	for _, bad := range []string{`{"type": "string"}`, `{"type": "object"`, `[1]`} {
		if _, err := JSONSchemaFields(bad); err == nil {
			t.Errorf("JSONSchemaFields(%s) gives no error", bad)
		}
	}
}
