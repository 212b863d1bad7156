package wire

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/streamctl/streamctl/internal/jsonstr"
)

// schemaFile is the name the main .proto text is compiled under.
const schemaFile = "schema.proto"

// builtinProtos are the imports Confluent's serializers know without a
// reference; google/protobuf/* come with the compiler.
var builtinProtos = map[string]string{
	"confluent/type/decimal.proto": `syntax = "proto3";
package confluent.type;
message Decimal {
  bytes value = 1;
  uint32 precision = 2;
  int32 scale = 3;
}
`,
	"google/type/date.proto": `syntax = "proto3";
package google.type;
message Date {
  int32 year = 1;
  int32 month = 2;
  int32 day = 3;
}
`,
}

// CompileProto compiles a .proto text whose imports are in refs (import
// path → text) or built in.
func CompileProto(ctx context.Context, text string, refs map[string]string) (protoreflect.FileDescriptor, error) {
	srcs := map[string]string{schemaFile: text}
	for name, src := range builtinProtos {
		srcs[name] = src
	}
	for name, src := range refs {
		srcs[name] = src
	}
	c := protocompile.Compiler{
		Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{
			Accessor: protocompile.SourceAccessorFromMap(srcs),
		}),
	}
	files, err := c.Compile(ctx, schemaFile)
	if err != nil {
		return nil, fmt.Errorf("compile Protobuf schema: %w", err)
	}
	return files[0], nil
}

// ProtoMessage finds the message a Confluent message index names: the path of
// indexes from the file's top-level messages through nested ones.
func ProtoMessage(fd protoreflect.FileDescriptor, index []int) (protoreflect.MessageDescriptor, error) {
	if len(index) == 0 {
		index = []int{0}
	}
	msgs := fd.Messages()
	var md protoreflect.MessageDescriptor
	for _, i := range index {
		if i < 0 || i >= msgs.Len() {
			return nil, invalidf("Protobuf message index %v names no message of the schema", index)
		}
		md = msgs.Get(i)
		msgs = md.Messages()
	}
	return md, nil
}

// AppendProto decodes the Protobuf binary b as a message of md and appends
// its canonical JSON to dst.
func AppendProto(dst []byte, md protoreflect.MessageDescriptor, b []byte) ([]byte, error) {
	m := dynamicpb.NewMessage(md)
	if err := (proto.UnmarshalOptions{RecursionLimit: maxDepth}).Unmarshal(b, m); err != nil {
		return dst, invalidf("Protobuf payload does not decode as %s: %v", md.FullName(), err)
	}
	return appendMessage(dst, m, "")
}

func appendMessage(dst []byte, m protoreflect.Message, path string) ([]byte, error) {
	md := m.Descriptor()
	switch md.FullName() {
	case "google.protobuf.Timestamp":
		secs := m.Get(md.Fields().ByName("seconds")).Int()
		nanos := m.Get(md.Fields().ByName("nanos")).Int()
		if nanos < 0 || nanos > 999_999_999 {
			return dst, invalidf("google.protobuf.Timestamp in %s has nanos %d, outside 0 to 999999999", fieldName(path), nanos)
		}
		t := time.Unix(secs, nanos).UTC()
		return appendTime(dst, t, 9), nil
	case "google.protobuf.Duration":
		return appendProtoDuration(dst, m, path)
	case "google.protobuf.Struct":
		return appendField(dst, m, md.Fields().ByName("fields"), path)
	case "google.protobuf.ListValue":
		return appendField(dst, m, md.Fields().ByName("values"), path)
	case "google.protobuf.Value":
		fd := m.WhichOneof(md.Oneofs().ByName("kind"))
		if fd == nil || fd.Name() == "null_value" {
			return append(dst, "null"...), nil
		}
		return appendSingular(dst, fd, m.Get(fd), path)
	case "google.protobuf.Any":
		// The type the URL names is not in the registry's schema, so its
		// fields cannot be read: the URL and the bytes, for a reader
		// that knows the type.
		f := md.Fields()
		dst = append(dst, `{"@type":`...)
		dst = jsonstr.Append(dst, m.Get(f.ByName("type_url")).String())
		dst = append(dst, `,"value":`...)
		dst = appendBase64(dst, m.Get(f.ByName("value")).Bytes())
		return append(dst, '}'), nil
	case "google.protobuf.DoubleValue", "google.protobuf.FloatValue", "google.protobuf.Int64Value",
		"google.protobuf.UInt64Value", "google.protobuf.Int32Value", "google.protobuf.UInt32Value",
		"google.protobuf.BoolValue", "google.protobuf.StringValue", "google.protobuf.BytesValue":
		fd := md.Fields().ByName("value")
		return appendScalar(dst, fd, m.Get(fd), path)
	case "confluent.type.Decimal":
		v := m.Get(md.Fields().ByName("value")).Bytes()
		scale := m.Get(md.Fields().ByName("scale")).Int()
		return AppendDecimal(dst, v, int(scale)), nil
	case "google.type.Date":
		f := md.Fields()
		return fmt.Appendf(dst, `"%04d-%02d-%02d"`, m.Get(f.ByName("year")).Int(), m.Get(f.ByName("month")).Int(), m.Get(f.ByName("day")).Int()), nil
	}
	dst = append(dst, '{')
	fields := md.Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonstr.Append(dst, string(fd.Name()))
		dst = append(dst, ':')
		var err error
		if dst, err = appendField(dst, m, fd, join(path, string(fd.Name()))); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// appendProtoDuration writes a google.protobuf.Duration as Protobuf's JSON
// mapping does: seconds with 0, 3, 6 or 9 fractional digits and an "s",
// "-1.500s".
func appendProtoDuration(dst []byte, m protoreflect.Message, path string) ([]byte, error) {
	f := m.Descriptor().Fields()
	secs := m.Get(f.ByName("seconds")).Int()
	nanos := m.Get(f.ByName("nanos")).Int()
	const maxSeconds = 315_576_000_000 // 10,000 years, the type's range
	if secs < -maxSeconds || secs > maxSeconds || nanos <= -1e9 || nanos >= 1e9 || secs > 0 && nanos < 0 || secs < 0 && nanos > 0 {
		return dst, invalidf("google.protobuf.Duration in %s is not a duration: %d seconds and %d nanos", fieldName(path), secs, nanos)
	}
	dst = append(dst, '"')
	if secs < 0 || nanos < 0 {
		dst = append(dst, '-')
		secs, nanos = -secs, -nanos
	}
	dst = strconv.AppendInt(dst, secs, 10)
	switch {
	case nanos == 0:
	case nanos%1e6 == 0:
		dst = append(dst, '.')
		dst = appendDigits(dst, int(nanos/1e6), 3)
	case nanos%1e3 == 0:
		dst = append(dst, '.')
		dst = appendDigits(dst, int(nanos/1e3), 6)
	default:
		dst = append(dst, '.')
		dst = appendDigits(dst, int(nanos), 9)
	}
	return append(dst, `s"`...), nil
}

func appendField(dst []byte, m protoreflect.Message, fd protoreflect.FieldDescriptor, path string) ([]byte, error) {
	var err error
	switch {
	case fd.IsList():
		l := m.Get(fd).List()
		dst = append(dst, '[')
		for i := range l.Len() {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendSingular(dst, fd, l.Get(i), path+"[]"); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case fd.IsMap():
		mp := m.Get(fd).Map()
		keys := make([]protoreflect.MapKey, 0, mp.Len())
		mp.Range(func(k protoreflect.MapKey, _ protoreflect.Value) bool {
			keys = append(keys, k)
			return true
		})
		// Map order on the wire is the writer's whim: sorted keys keep
		// the output a function of the map's contents.
		slices.SortFunc(keys, compareMapKeys)
		dst = append(dst, '{')
		for i, k := range keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonstr.Append(dst, k.String())
			dst = append(dst, ':')
			if dst, err = appendSingular(dst, fd.MapValue(), mp.Get(k), join(path, k.String())); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case fd.HasPresence() && !m.Has(fd):
		return append(dst, "null"...), nil
	}
	return appendSingular(dst, fd, m.Get(fd), path)
}

func compareMapKeys(a, b protoreflect.MapKey) int {
	switch x := a.Interface().(type) {
	case string:
		return cmp.Compare(x, b.String())
	case bool:
		y := b.Bool()
		switch {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	case int32, int64:
		return cmp.Compare(a.Int(), b.Int())
	}
	return cmp.Compare(a.Uint(), b.Uint())
}

func appendSingular(dst []byte, fd protoreflect.FieldDescriptor, v protoreflect.Value, path string) ([]byte, error) {
	if k := fd.Kind(); k == protoreflect.MessageKind || k == protoreflect.GroupKind {
		return appendMessage(dst, v.Message(), path)
	}
	return appendScalar(dst, fd, v, path)
}

func appendScalar(dst []byte, fd protoreflect.FieldDescriptor, v protoreflect.Value, path string) ([]byte, error) {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return strconv.AppendBool(dst, v.Bool()), nil
	case protoreflect.EnumKind:
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			return jsonstr.Append(dst, string(ev.Name())), nil
		}
		// An open enum holds numbers its schema does not name yet.
		return strconv.AppendInt(dst, int64(v.Enum()), 10), nil
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind,
		protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return strconv.AppendInt(dst, v.Int(), 10), nil
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return strconv.AppendUint(dst, v.Uint(), 10), nil
	case protoreflect.FloatKind:
		return appendFloat(dst, v.Float(), 32, path)
	case protoreflect.DoubleKind:
		return appendFloat(dst, v.Float(), 64, path)
	case protoreflect.StringKind:
		return jsonstr.Append(dst, v.String()), nil
	case protoreflect.BytesKind:
		return appendBase64(dst, v.Bytes()), nil
	}
	return dst, fmt.Errorf("Protobuf kind %s in %s is not supported", fd.Kind(), fieldName(path))
}
