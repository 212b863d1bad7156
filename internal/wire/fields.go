package wire

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Field is a top-level field of a schema as a column: its column type in
// the configuration's spelling (decimal(12,2), struct<a:string>), whether a
// record may lack it or hold null, and whether the schema gives it a default.
type Field struct {
	Name     string
	Type     string
	Nullable bool
	Default  bool
	// Loose is set for a JSON Schema field, whose integers and numbers
	// have no declared width (see CheckDeclared).
	Loose bool
}

// AvroFields are the fields of an Avro record schema as columns, in schema
// order (see website/content/schema-registry.md#columns).
func AvroFields(s *AvroSchema) ([]Field, error) {
	if s.Kind != AvroRecord {
		return nil, fmt.Errorf("the schema is an Avro %s, not a record: its records have no fields to make columns of", s.Kind)
	}
	out := make([]Field, 0, len(s.Fields))
	for _, f := range s.Fields {
		typ, nullable := avroColumnType(f.Type, map[*AvroSchema]bool{s: true})
		out = append(out, Field{Name: f.Name, Type: typ, Nullable: nullable, Default: f.Default})
	}
	return out, nil
}

// avroColumnType is the column type of s's values and whether they may be
// null. A recursive record has no finite column type: its JSON text.
func avroColumnType(s *AvroSchema, open map[*AvroSchema]bool) (string, bool) {
	switch s.Logical {
	case "decimal":
		return fmt.Sprintf("decimal(%d,%d)", s.Precision, s.Scale), false
	case "date":
		return "date", false
	case "timestamp-millis", "timestamp-micros", "timestamp-nanos",
		"local-timestamp-millis", "local-timestamp-micros", "local-timestamp-nanos":
		return "timestamp", false
	case "time-millis", "time-micros":
		return "string", false // "HH:MM:SS.ffffff"
	case "duration", "uuid":
		return "string", false // ISO 8601 "P1M2DT3.004S"; a fixed uuid's text
	}
	switch s.Kind {
	case AvroNull:
		return "json", true
	case AvroBoolean:
		return "bool", false
	case AvroInt:
		return "int32", false
	case AvroLong:
		return "int64", false
	case AvroFloat:
		return "float", false
	case AvroDouble:
		return "double", false
	case AvroBytes, AvroFixed:
		return "bytes", false
	case AvroString, AvroEnum:
		return "string", false
	case AvroArray:
		elem, _ := avroColumnType(s.Items, open)
		return "list<" + elem + ">", false
	case AvroMap:
		elem, _ := avroColumnType(s.Values, open)
		return "map<string," + elem + ">", false
	case AvroUnion:
		var branches []*AvroSchema
		nullable := false
		for _, b := range s.Branches {
			if b.Kind == AvroNull {
				nullable = true
			} else {
				branches = append(branches, b)
			}
		}
		if len(branches) != 1 {
			// A union of several types holds any of them: only JSON text
			// holds them all.
			return "json", true
		}
		typ, _ := avroColumnType(branches[0], open)
		return typ, nullable
	case AvroRecord:
		if open[s] {
			return "json", false
		}
		open[s] = true
		defer delete(open, s)
		parts := make([]string, len(s.Fields))
		for i, f := range s.Fields {
			typ, _ := avroColumnType(f.Type, open)
			parts[i] = f.Name + ":" + typ
		}
		return "struct<" + strings.Join(parts, ",") + ">", false
	}
	return "json", true
}

// ProtoFields are the fields of a Protobuf message as columns, in field
// order. A field without presence (a proto3 scalar) always has a value.
func ProtoFields(md protoreflect.MessageDescriptor) []Field {
	fields := md.Fields()
	out := make([]Field, 0, fields.Len())
	for i := range fields.Len() {
		fd := fields.Get(i)
		typ, nullable := protoFieldType(fd, map[protoreflect.FullName]bool{md.FullName(): true})
		out = append(out, Field{Name: string(fd.Name()), Type: typ, Nullable: nullable, Default: !nullable})
	}
	return out
}

func protoFieldType(fd protoreflect.FieldDescriptor, open map[protoreflect.FullName]bool) (string, bool) {
	switch {
	case fd.IsMap():
		elem, _ := protoSingularType(fd.MapValue(), open)
		return "map<string," + elem + ">", false
	case fd.IsList():
		elem, _ := protoSingularType(fd, open)
		return "list<" + elem + ">", false
	}
	typ, nullable := protoSingularType(fd, open)
	return typ, nullable || fd.HasPresence()
}

// protoSingularType is the column type of one value of fd, and whether it
// may be null besides fd's presence (a wrapper's value).
func protoSingularType(fd protoreflect.FieldDescriptor, open map[protoreflect.FullName]bool) (string, bool) {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return "bool", false
	case protoreflect.EnumKind, protoreflect.StringKind:
		return "string", false
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return "int32", false
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind,
		protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return "int64", false
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "decimal(20,0)", false
	case protoreflect.FloatKind:
		return "float", false
	case protoreflect.DoubleKind:
		return "double", false
	case protoreflect.BytesKind:
		return "bytes", false
	}
	md := fd.Message()
	switch md.FullName() {
	case "google.protobuf.Timestamp":
		return "timestamp", false
	case "google.protobuf.Duration":
		return "string", false // "-1.500s", as Protobuf's JSON mapping writes it
	case "google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue", "google.protobuf.Any":
		// The JSON they hold (an Any: its type URL and base64 value).
		return "json", false
	case "google.type.Date":
		return "date", false
	case "confluent.type.Decimal":
		// Precision and scale travel in each value, not in the schema: a
		// declared decimal(p,s) column reads them exactly.
		return "json", false
	case "google.protobuf.DoubleValue", "google.protobuf.FloatValue", "google.protobuf.Int64Value",
		"google.protobuf.UInt64Value", "google.protobuf.Int32Value", "google.protobuf.UInt32Value",
		"google.protobuf.BoolValue", "google.protobuf.StringValue", "google.protobuf.BytesValue":
		typ, _ := protoSingularType(md.Fields().ByName("value"), open)
		return typ, true
	}
	if open[md.FullName()] {
		return "json", false
	}
	open[md.FullName()] = true
	defer delete(open, md.FullName())
	fields := md.Fields()
	parts := make([]string, fields.Len())
	for i := range fields.Len() {
		f := fields.Get(i)
		typ, _ := protoFieldType(f, open)
		parts[i] = string(f.Name()) + ":" + typ
	}
	return "struct<" + strings.Join(parts, ",") + ">", false
}

// JSONSchemaFields are the properties of a JSON Schema object as columns,
// in the order the schema lists them.
func JSONSchemaFields(text string) ([]Field, error) {
	v, err := decodeOrdered(text)
	if err != nil {
		return nil, fmt.Errorf("JSON Schema is not JSON: %w", err)
	}
	root, ok := v.(*object)
	if !ok || !root.isObjectSchema() {
		return nil, fmt.Errorf("the JSON Schema does not describe an object with properties: its records have no fields to make columns of")
	}
	required := root.required()
	props, _ := root.get("properties").(*object)
	var out []Field
	for _, kv := range props.entries() {
		typ, nullable := jsonSchemaType(kv.value, 0)
		_, hasDefault := kv.value.(*object)
		hasDefault = hasDefault && kv.value.(*object).get("default") != nil
		out = append(out, Field{Name: kv.key, Type: typ, Nullable: nullable || !required[kv.key], Default: hasDefault, Loose: true})
	}
	return out, nil
}

func jsonSchemaType(v any, depth int) (string, bool) {
	o, ok := v.(*object)
	if !ok || depth > maxDepth {
		return "json", true
	}
	var types []string
	nullable := false
	switch t := o.get("type").(type) {
	case string:
		types = []string{t}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				types = append(types, s)
			}
		}
	}
	var kinds []string
	for _, t := range types {
		if t == "null" {
			nullable = true
		} else {
			kinds = append(kinds, t)
		}
	}
	if len(kinds) != 1 {
		return "json", true
	}
	switch kinds[0] {
	case "string":
		switch o.get("format") {
		case "date-time":
			return "timestamp", nullable
		case "date":
			return "date", nullable
		}
		return "string", nullable
	case "integer":
		return "int64", nullable
	case "number":
		return "double", nullable
	case "boolean":
		return "bool", nullable
	case "array":
		elem, _ := jsonSchemaType(o.get("items"), depth+1)
		return "list<" + elem + ">", nullable
	case "object":
		props, _ := o.get("properties").(*object)
		if props == nil || len(props.entries()) == 0 {
			if ap, ok := o.get("additionalProperties").(*object); ok {
				elem, _ := jsonSchemaType(ap, depth+1)
				return "map<string," + elem + ">", nullable
			}
			return "json", nullable
		}
		var parts []string
		for _, kv := range props.entries() {
			typ, _ := jsonSchemaType(kv.value, depth+1)
			parts = append(parts, kv.key+":"+typ)
		}
		return "struct<" + strings.Join(parts, ",") + ">", nullable
	}
	return "json", true
}

// object is a JSON object that keeps its keys' order: a JSON Schema's
// properties are columns in the order the schema lists them.
type object struct{ kvs []keyValue }

type keyValue struct {
	key   string
	value any
}

func (o *object) get(key string) any {
	if o == nil {
		return nil
	}
	for _, kv := range o.kvs {
		if kv.key == key {
			return kv.value
		}
	}
	return nil
}

func (o *object) entries() []keyValue {
	if o == nil {
		return nil
	}
	return o.kvs
}

func (o *object) isObjectSchema() bool {
	t := o.get("type")
	_, hasProps := o.get("properties").(*object)
	return hasProps && (t == nil || t == "object")
}

func (o *object) required() map[string]bool {
	out := map[string]bool{}
	if list, ok := o.get("required").([]any); ok {
		for _, r := range list {
			if s, ok := r.(string); ok {
				out[s] = true
			}
		}
	}
	return out
}

// decodeOrdered decodes JSON text with objects as *object.
func decodeOrdered(text string) (any, error) {
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	v, err := decodeValue(d, 0)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the schema")
	}
	return v, nil
}

func decodeValue(d *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d", maxDepth)
	}
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &object{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(d, depth+1)
			if err != nil {
				return nil, err
			}
			o.kvs = append(o.kvs, keyValue{k.(string), v})
		}
		_, err := d.Token()
		return o, err
	case json.Delim('['):
		var list []any
		for d.More() {
			v, err := decodeValue(d, depth+1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := d.Token()
		return list, err
	}
	return tok, nil
}
