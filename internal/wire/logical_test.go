package wire

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// avroLong is the Avro binary encoding of v (zig-zag varint).
func avroLong(v int64) []byte { return binary.AppendVarint(nil, v) }

func avroDurationBytes(months, days, millis uint32) []byte {
	b := binary.LittleEndian.AppendUint32(nil, months)
	b = binary.LittleEndian.AppendUint32(b, days)
	return binary.LittleEndian.AppendUint32(b, millis)
}

// TestAvroLogicalTypes: each logical type's JSON, from the Avro binary
// encoding of a value whose meaning the case states.
func TestAvroLogicalTypes(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.UTC)
	for _, tc := range []struct {
		name, schema string
		datum        []byte
		want         string
	}{
		{"timestamp-nanos", `{"type": "long", "logicalType": "timestamp-nanos"}`, avroLong(at.UnixNano()), `"2026-03-04T05:06:07.123456789Z"`},
		{"timestamp-nanos before 1970", `{"type": "long", "logicalType": "timestamp-nanos"}`, avroLong(-1), `"1969-12-31T23:59:59.999999999Z"`},
		{"timestamp-nanos, the earliest", `{"type": "long", "logicalType": "timestamp-nanos"}`, avroLong(math.MinInt64), `"1677-09-21T00:12:43.145224192Z"`},
		{"local-timestamp-nanos: the wall clock, as if in UTC", `{"type": "long", "logicalType": "local-timestamp-nanos"}`, avroLong(at.UnixNano()), `"2026-03-04T05:06:07.123456789Z"`},
		{"local-timestamp-millis", `{"type": "long", "logicalType": "local-timestamp-millis"}`, avroLong(at.UnixMilli()), `"2026-03-04T05:06:07.123Z"`},
		{"local-timestamp-micros", `{"type": "long", "logicalType": "local-timestamp-micros"}`, avroLong(at.UnixMicro()), `"2026-03-04T05:06:07.123456Z"`},
		{"timestamp-nanos on an int is an int", `{"type": "int", "logicalType": "timestamp-nanos"}`, avroLong(7), `7`},
		{"duration", `{"type": "fixed", "name": "D", "size": 12, "logicalType": "duration"}`, avroDurationBytes(14, 3, 4005), `"P14M3DT4.005S"`},
		{"duration zero", `{"type": "fixed", "name": "D", "size": 12, "logicalType": "duration"}`, avroDurationBytes(0, 0, 0), `"P0M0DT0.000S"`},
		{"duration, each part its largest", `{"type": "fixed", "name": "D", "size": 12, "logicalType": "duration"}`,
			avroDurationBytes(math.MaxUint32, math.MaxUint32, math.MaxUint32), `"P4294967295M4294967295DT4294967.295S"`},
		{"duration on another size is a fixed", `{"type": "fixed", "name": "D", "size": 4, "logicalType": "duration"}`, []byte{1, 2, 3, 4}, `"AQIDBA=="`},
		{"uuid on a fixed 16", `{"type": "fixed", "name": "U", "size": 16, "logicalType": "uuid"}`,
			[]byte{0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}, `"6ba7b810-9dad-11d1-80b4-00c04fd430c8"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseAvro(tc.schema)
			if err != nil {
				t.Fatal(err)
			}
			got, err := AppendAvro(nil, s, tc.datum)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// wellKnownProto holds a field of each well-known type.
const wellKnownProto = `syntax = "proto3";
package wkt;
import "google/protobuf/any.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";

message Known {
  google.protobuf.Duration duration = 1;
  google.protobuf.Struct struct = 2;
  google.protobuf.Value value = 3;
  google.protobuf.ListValue list = 4;
  google.protobuf.Any any = 5;
  google.protobuf.Int64Value count = 6;
  google.protobuf.BoolValue flag = 7;
  google.protobuf.Timestamp at = 8;
  repeated google.protobuf.Value values = 9;
}
`

// knownFields are Known's fields, in order, as they decode when unset.
var knownFields = []string{"duration", "struct", "value", "list", "any", "count", "flag", "at", "values"}

// TestProtoWellKnownTypes: each well-known type's JSON, from the payload
// protobuf-go's own types marshal, the other fields of Known unset.
func TestProtoWellKnownTypes(t *testing.T) {
	fd, err := CompileProto(context.Background(), wellKnownProto, nil)
	if err != nil {
		t.Fatal(err)
	}
	md, err := ProtoMessage(fd, nil)
	if err != nil {
		t.Fatal(err)
	}
	nested, err := structpb.NewStruct(map[string]any{"z": 1.5, "a": []any{"x", true, nil}, "m": map[string]any{"k": "v"}})
	if err != nil {
		t.Fatal(err)
	}
	anyMsg, err := anypb.New(wrapperspb.String("hi"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		field protowire.Number
		msg   proto.Message
		want  string // the field's JSON; "" for an invalid record
	}{
		{"duration", 1, durationpb.New(90 * time.Second), `"90s"`},
		{"duration, milliseconds", 1, durationpb.New(-1500 * time.Millisecond), `"-1.500s"`},
		{"duration, microseconds", 1, durationpb.New(2*time.Second + 5*time.Microsecond), `"2.000005s"`},
		{"duration, nanoseconds", 1, durationpb.New(-time.Nanosecond), `"-0.000000001s"`},
		{"duration, zero", 1, &durationpb.Duration{}, `"0s"`},
		{"duration with mixed signs", 1, &durationpb.Duration{Seconds: 1, Nanos: -1}, ""},
		{"duration beyond 10,000 years", 1, &durationpb.Duration{Seconds: 315_576_000_001}, ""},
		{"struct: keys sorted, nested", 2, nested, `{"a":["x",true,null],"m":{"k":"v"},"z":1.5}`},
		{"struct, empty", 2, &structpb.Struct{}, `{}`},
		{"value null", 3, structpb.NewNullValue(), `null`},
		{"value without a kind", 3, &structpb.Value{}, `null`},
		{"value number", 3, structpb.NewNumberValue(-0.25), `-0.25`},
		{"value NaN", 3, structpb.NewNumberValue(math.NaN()), ""},
		{"value string", 3, structpb.NewStringValue("é\""), `"é\""`},
		{"value bool", 3, structpb.NewBoolValue(false), `false`},
		{"value struct", 3, structpb.NewStructValue(nested), `{"a":["x",true,null],"m":{"k":"v"},"z":1.5}`},
		{"list", 4, &structpb.ListValue{Values: []*structpb.Value{structpb.NewNumberValue(1), structpb.NewListValue(&structpb.ListValue{})}}, `[1,[]]`},
		{"any: its type's URL and its bytes", 5, anyMsg, `{"@type":"type.googleapis.com/google.protobuf.StringValue","value":"CgJoaQ=="}`},
		{"int64 wrapper: a number", 6, wrapperspb.Int64(math.MaxInt64), `9223372036854775807`},
		{"int64 wrapper of zero, set", 6, wrapperspb.Int64(0), `0`},
		{"bool wrapper", 7, wrapperspb.Bool(true), `true`},
		{"timestamp", 8, timestamppb.New(time.Date(2026, 3, 4, 5, 6, 7, 8, time.UTC)), `"2026-03-04T05:06:07.000000008Z"`},
		{"timestamp with negative nanos", 8, &timestamppb.Timestamp{Seconds: 1, Nanos: -1}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inner, err := proto.Marshal(tc.msg)
			if err != nil {
				t.Fatal(err)
			}
			b := protowire.AppendTag(nil, tc.field, protowire.BytesType)
			b = protowire.AppendBytes(b, inner)
			got, err := AppendProto(nil, md, b)
			if tc.want == "" {
				var ie *InvalidError
				if !errors.As(err, &ie) {
					t.Fatalf("got %s, %v; want an invalid record", got, err)
				}
				if name := knownFields[tc.field-1]; !strings.Contains(ie.Reason, "field "+name) {
					t.Errorf("the reason %q does not name field %s", ie.Reason, name)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			want.WriteByte('{')
			for i, name := range knownFields {
				if i > 0 {
					want.WriteByte(',')
				}
				v := "null"
				switch {
				case protowire.Number(i+1) == tc.field:
					v = tc.want
				case name == "values":
					v = "[]"
				}
				want.WriteString(`"` + name + `":` + v)
			}
			want.WriteByte('}')
			if string(got) != want.String() {
				t.Errorf("got  %s\nwant %s", got, want.String())
			}
		})
	}
}
