package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// AvroKind is the type of an Avro schema, as the specification names it.
type AvroKind uint8

const (
	AvroNull AvroKind = iota
	AvroBoolean
	AvroInt
	AvroLong
	AvroFloat
	AvroDouble
	AvroBytes
	AvroString
	AvroRecord
	AvroEnum
	AvroArray
	AvroMap
	AvroUnion
	AvroFixed
)

var avroPrimitives = map[string]AvroKind{
	"null": AvroNull, "boolean": AvroBoolean, "int": AvroInt, "long": AvroLong,
	"float": AvroFloat, "double": AvroDouble, "bytes": AvroBytes, "string": AvroString,
}

var avroKindNames = [...]string{"null", "boolean", "int", "long", "float", "double", "bytes", "string",
	"record", "enum", "array", "map", "union", "fixed"}

func (k AvroKind) String() string { return avroKindNames[k] }

// AvroSchema is a parsed Avro schema. A named type is one value shared by
// every reference to it, so a recursive type points to itself.
type AvroSchema struct {
	Kind     AvroKind
	Name     string // full name of a record, enum or fixed
	Logical  string // a logical type valid on this schema, else ""
	Fields   []AvroField
	Symbols  []string
	Items    *AvroSchema // array
	Values   *AvroSchema // map
	Branches []*AvroSchema
	Size     int // fixed
	// Precision and Scale of a decimal.
	Precision, Scale int
}

// AvroField is one field of a record.
type AvroField struct {
	Name string
	Type *AvroSchema
	// Default is set when the field declares a default value.
	Default bool
}

// avroParser parses schema texts into one table of named types: the
// referenced schemas' texts first, then the schema itself.
type avroParser struct {
	named map[string]*AvroSchema
}

// parse parses one schema text.
func (p *avroParser) parse(text string) (*AvroSchema, error) {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	return p.schema(v, "", "the schema")
}

func (p *avroParser) schema(v any, ns, where string) (*AvroSchema, error) {
	switch v := v.(type) {
	case string:
		return p.ref(v, ns, where)
	case []any:
		return p.union(v, ns, where)
	case map[string]any:
		return p.object(v, ns, where)
	}
	return nil, fmt.Errorf("%s is %s: an Avro schema is a type name, an object or an array (a union)", where, jsonKind(v))
}

func (p *avroParser) ref(name, ns, where string) (*AvroSchema, error) {
	if k, ok := avroPrimitives[name]; ok {
		return &AvroSchema{Kind: k}, nil
	}
	if s := p.named[fullName(name, ns)]; s != nil {
		return s, nil
	}
	if s := p.named[name]; s != nil && !strings.Contains(name, ".") {
		return s, nil
	}
	return nil, fmt.Errorf("%s names type %q, which is neither a primitive type nor a named type declared before it", where, name)
}

func (p *avroParser) union(v []any, ns, where string) (*AvroSchema, error) {
	s := &AvroSchema{Kind: AvroUnion}
	seen := map[string]bool{}
	for i, b := range v {
		bw := fmt.Sprintf("%s, union branch %d", where, i)
		bs, err := p.schema(b, ns, bw)
		if err != nil {
			return nil, err
		}
		if bs.Kind == AvroUnion {
			return nil, fmt.Errorf("%s is a union: a union cannot hold a union directly", bw)
		}
		key := bs.Kind.String()
		if bs.Name != "" {
			key = bs.Name
		}
		if seen[key] {
			return nil, fmt.Errorf("%s repeats type %s: a union holds one of each", bw, key)
		}
		seen[key] = true
		s.Branches = append(s.Branches, bs)
	}
	return s, nil
}

func (p *avroParser) object(v map[string]any, ns, where string) (*AvroSchema, error) {
	t, ok := v["type"]
	if !ok {
		return nil, fmt.Errorf("%s has no \"type\"", where)
	}
	name, ok := t.(string)
	if !ok {
		// {"type": {...}} or {"type": [...]}: the type itself, nested.
		return p.schema(t, ns, where)
	}
	switch name {
	case "record", "error", "enum", "fixed":
		return p.named1(name, v, ns, where)
	case "array":
		items, ok := v["items"]
		if !ok {
			return nil, fmt.Errorf("%s is an array without \"items\"", where)
		}
		it, err := p.schema(items, ns, where+", array items")
		if err != nil {
			return nil, err
		}
		return &AvroSchema{Kind: AvroArray, Items: it}, nil
	case "map":
		values, ok := v["values"]
		if !ok {
			return nil, fmt.Errorf("%s is a map without \"values\"", where)
		}
		vs, err := p.schema(values, ns, where+", map values")
		if err != nil {
			return nil, err
		}
		return &AvroSchema{Kind: AvroMap, Values: vs}, nil
	}
	s, err := p.ref(name, ns, where)
	if err != nil {
		return nil, err
	}
	if _, primitive := avroPrimitives[name]; primitive {
		p.logical(s, v)
	}
	return s, nil
}

// named1 parses a record, an enum or a fixed, declaring its name before its
// fields so that they can refer to it.
func (p *avroParser) named1(kind string, v map[string]any, ns, where string) (*AvroSchema, error) {
	name, ok := v["name"].(string)
	if !ok || name == "" {
		return nil, fmt.Errorf("%s is a %s without a \"name\" string", where, kind)
	}
	if n, ok := v["namespace"]; ok && !strings.Contains(name, ".") {
		switch n := n.(type) {
		case string:
			ns = n
		case nil:
			ns = ""
		default:
			return nil, fmt.Errorf("%s: the \"namespace\" of %s is %s, not a string", where, name, jsonKind(n))
		}
	}
	full := fullName(name, ns)
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		ns = full[:i]
	} else {
		ns = ""
	}
	for part := range strings.SplitSeq(full, ".") {
		if !validAvroName(part) {
			return nil, fmt.Errorf("%s: %q is not a valid Avro name (letters, digits and _, not starting with a digit)", where, full)
		}
	}
	if _, primitive := avroPrimitives[full]; primitive {
		return nil, fmt.Errorf("%s: a %s cannot be named %q, a primitive type", where, kind, full)
	}
	if p.named[full] != nil {
		return nil, fmt.Errorf("%s: type %s is declared twice", where, full)
	}
	s := &AvroSchema{Name: full}
	p.named[full] = s
	where = fmt.Sprintf("%s %s", kind, full)
	switch kind {
	case "record", "error":
		s.Kind = AvroRecord
		fields, ok := v["fields"].([]any)
		if !ok {
			return nil, fmt.Errorf("%s has no \"fields\" array", where)
		}
		seen := map[string]bool{}
		for i, f := range fields {
			fo, ok := f.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: field %d is %s, not an object", where, i, jsonKind(f))
			}
			fname, ok := fo["name"].(string)
			if !ok || !validAvroName(fname) {
				return nil, fmt.Errorf("%s: field %d has no valid \"name\" (letters, digits and _, not starting with a digit)", where, i)
			}
			if seen[fname] {
				return nil, fmt.Errorf("%s: field %s is declared twice", where, fname)
			}
			seen[fname] = true
			ft, ok := fo["type"]
			if !ok {
				return nil, fmt.Errorf("%s: field %s has no \"type\"", where, fname)
			}
			// The default is not checked: decoding never uses it, and
			// only its presence matters to schema evolution.
			_, hasDefault := fo["default"]
			t, err := p.schema(ft, ns, fmt.Sprintf("%s, field %s", where, fname))
			if err != nil {
				return nil, err
			}
			s.Fields = append(s.Fields, AvroField{Name: fname, Type: t, Default: hasDefault})
		}
	case "enum":
		s.Kind = AvroEnum
		syms, ok := v["symbols"].([]any)
		if !ok {
			return nil, fmt.Errorf("%s has no \"symbols\" array", where)
		}
		seen := map[string]bool{}
		for i, y := range syms {
			sym, ok := y.(string)
			if !ok || !validAvroName(sym) {
				return nil, fmt.Errorf("%s: symbol %d is not a valid Avro name (letters, digits and _, not starting with a digit)", where, i)
			}
			if seen[sym] {
				return nil, fmt.Errorf("%s: symbol %s is declared twice", where, sym)
			}
			seen[sym] = true
			s.Symbols = append(s.Symbols, sym)
		}
		if d, ok := v["default"]; ok {
			if ds, _ := d.(string); !seen[ds] {
				return nil, fmt.Errorf("%s: the default %v is not one of its symbols", where, d)
			}
		}
	case "fixed":
		s.Kind = AvroFixed
		size, ok := v["size"].(float64)
		if !ok || size < 0 || size != math.Trunc(size) || size > math.MaxInt32 {
			return nil, fmt.Errorf("%s has no \"size\" that is a non-negative integer", where)
		}
		s.Size = int(size)
		p.logical(s, v)
	}
	return s, nil
}

// logical sets the logical type of s if it is valid on s; an invalid one is
// ignored, and s read as its underlying type, as the specification says.
func (p *avroParser) logical(s *AvroSchema, v map[string]any) {
	l, _ := v["logicalType"].(string)
	valid := false
	switch l {
	case "decimal":
		if s.Kind != AvroBytes && s.Kind != AvroFixed {
			break
		}
		prec, ok1 := intAttr(v, "precision", -1)
		scale, ok2 := intAttr(v, "scale", 0)
		if !ok1 || !ok2 || prec < 1 || scale < 0 || scale > prec {
			break
		}
		if s.Kind == AvroFixed && float64(prec) > math.Floor(math.Log10(2)*float64(8*s.Size-1)) {
			break // more digits than the fixed's bytes can hold
		}
		s.Precision, s.Scale = prec, scale
		valid = true
	case "date", "time-millis":
		valid = s.Kind == AvroInt
	case "time-micros", "timestamp-millis", "timestamp-micros", "timestamp-nanos",
		"local-timestamp-millis", "local-timestamp-micros", "local-timestamp-nanos":
		valid = s.Kind == AvroLong
	case "duration":
		valid = s.Kind == AvroFixed && s.Size == 12
	case "uuid":
		valid = s.Kind == AvroString || (s.Kind == AvroFixed && s.Size == 16)
	}
	if valid {
		s.Logical = l
	}
}

// intAttr reads an integer attribute, def if it is absent.
func intAttr(v map[string]any, key string, def int) (int, bool) {
	x, ok := v[key]
	if !ok {
		return def, true
	}
	f, ok := x.(float64)
	if !ok || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}

func fullName(name, ns string) string {
	if strings.Contains(name, ".") || ns == "" {
		return name
	}
	return ns + "." + name
}

func validAvroName(n string) bool {
	if n == "" {
		return false
	}
	for i, c := range n {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}
