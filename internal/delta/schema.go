package delta

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/streamctl/streamctl/internal/format"
)

// StructField is a field of the table's schema, as the protocol's schema
// serialization format (Spark's StructType JSON) writes it.
type StructField struct {
	Name string `json:"name"`
	// Type is a primitive type's name, or a nested type: StructType,
	// ArrayType or MapType.
	Type     any            `json:"type"`
	Nullable bool           `json:"nullable"`
	Metadata map[string]any `json:"metadata"`
}

// StructType is the table's schema, and a struct column's type.
type StructType struct {
	Type   string        `json:"type"`
	Fields []StructField `json:"fields"`
}

// ArrayType is a list column's type.
type ArrayType struct {
	Type         string `json:"type"`
	ElementType  any    `json:"elementType"`
	ContainsNull bool   `json:"containsNull"`
}

// MapType is a map column's type.
type MapType struct {
	Type              string `json:"type"`
	KeyType           any    `json:"keyType"`
	ValueType         any    `json:"valueType"`
	ValueContainsNull bool   `json:"valueContainsNull"`
}

// typeOf is the Delta type of t: TypeName's for a flat type; struct,
// array and map for nested ones, every nested field, element and value
// nullable (JSON may leave any out).
func typeOf(t *format.Type) (any, error) {
	switch t.Kind {
	case format.KindStruct:
		st := StructType{Type: "struct", Fields: make([]StructField, len(t.Fields))}
		for i, f := range t.Fields {
			ft, err := typeOf(f.Type)
			if err != nil {
				return nil, err
			}
			st.Fields[i] = StructField{Name: f.Name, Type: ft, Nullable: true, Metadata: map[string]any{}}
		}
		return st, nil
	case format.KindList:
		et, err := typeOf(t.Elem)
		return ArrayType{Type: "array", ElementType: et, ContainsNull: true}, err
	case format.KindMap:
		vt, err := typeOf(t.Elem)
		return MapType{Type: "map", KeyType: "string", ValueType: vt, ValueContainsNull: true}, err
	}
	return TypeName(t)
}

// TypeName is the Delta primitive type of a column type, as the sink's
// Parquet files hold it: timestamps are UTC (Parquet's adjusted-to-UTC),
// JSON is text, decimals are decimal(p,s).
func TypeName(t *format.Type) (string, error) {
	switch k := t.Kind; k {
	case format.KindDecimal:
		return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale), nil
	case format.KindString, format.KindJSON:
		return "string", nil
	case format.KindInt32:
		return "integer", nil
	case format.KindInt64:
		return "long", nil
	case format.KindFloat:
		return "float", nil
	case format.KindDouble:
		return "double", nil
	case format.KindBool:
		return "boolean", nil
	case format.KindTimestamp:
		return "timestamp", nil
	case format.KindDate:
		return "date", nil
	case format.KindBytes:
		return "binary", nil
	}
	return "", fmt.Errorf("no Delta type for the column type %s", t)
}

// Schema is the table's schema for the sink's columns.
func Schema(cols []format.Column) (StructType, error) {
	st := StructType{Type: "struct", Fields: make([]StructField, 0, len(cols))}
	for _, c := range cols {
		ft, err := format.ParseType(c.Type)
		if err != nil {
			return st, fmt.Errorf("column %s: %w", c.Name, err)
		}
		t, err := typeOf(ft)
		if err != nil {
			return st, fmt.Errorf("column %s: %w", c.Name, err)
		}
		st.Fields = append(st.Fields, StructField{Name: c.Name, Type: t, Nullable: c.IsNullable(), Metadata: map[string]any{}})
	}
	return st, nil
}

// SchemaString is Schema as metaData's schemaString.
func SchemaString(cols []format.Column) (string, error) {
	st, err := Schema(cols)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(st)
	return string(b), err
}

// SchemaDiff is how the sink's columns differ from a table's schema.
type SchemaDiff struct {
	// Schema is the table's schema once the sink's columns are in: the
	// table's fields in their order, then the added ones. Equal to the
	// table's when Changes is empty.
	Schema StructType
	// Changes are what a metaData action makes of the table: "add column
	// note (string, nullable)". Problems are the differences no Delta
	// writer may make to a table with rows, each naming its column.
	Changes  []string
	Problems []string
}

// CompareSchema compares the sink's columns with a table's schemaString.
// The sink may add nullable columns and make a required column nullable;
// it may not change a column's type, make a nullable column required, add
// a required column (the table's rows have none) or drop a column (its
// values would be gone from the table's later rows, which Delta's column
// mapping-free tables cannot say). Columns match by name, so that a reorder
// of the sink's columns changes nothing: readers read Parquet by name.
func CompareSchema(schemaString string, cols []format.Column) (SchemaDiff, error) {
	var have struct {
		Type   string `json:"type"`
		Fields []struct {
			Name     string          `json:"name"`
			Type     json.RawMessage `json:"type"`
			Nullable bool            `json:"nullable"`
			Metadata map[string]any  `json:"metadata"`
		} `json:"fields"`
	}
	if err := json.Unmarshal([]byte(schemaString), &have); err != nil {
		return SchemaDiff{}, fmt.Errorf("read the table's schemaString: %w", err)
	}
	want, err := Schema(cols)
	if err != nil {
		return SchemaDiff{}, err
	}
	wanted := make(map[string]StructField, len(want.Fields))
	for _, f := range want.Fields {
		wanted[f.Name] = f
	}
	d := SchemaDiff{Schema: StructType{Type: "struct"}}
	inTable := map[string]bool{}
	for _, h := range have.Fields {
		inTable[h.Name] = true
		var typ any
		if err := json.Unmarshal(h.Type, &typ); err != nil {
			return SchemaDiff{}, fmt.Errorf("read the table's schemaString: column %q: %w", h.Name, err)
		}
		meta := h.Metadata
		if meta == nil {
			meta = map[string]any{}
		}
		// The table's own type is kept as written (a nested field's
		// metadata included); the comparison leaves metadata out.
		field := StructField{Name: h.Name, Type: json.RawMessage(h.Type), Nullable: h.Nullable, Metadata: meta}
		if name, ok := typ.(string); ok {
			field.Type = name
		}
		w, ok := wanted[h.Name]
		switch {
		case !ok:
			d.Problems = append(d.Problems, fmt.Sprintf("column %q of the table (%s) is not among the sink's columns", h.Name, typeText(typ)))
		case !sameType(typ, w.Type):
			d.Problems = append(d.Problems, fmt.Sprintf("column %q is %s in the table, and %s in the sink", h.Name, typeText(typ), typeText(w.Type)))
		case h.Nullable && !w.Nullable:
			d.Problems = append(d.Problems, fmt.Sprintf("column %q is nullable in the table, and required in the sink (the table's rows may hold null in it)", h.Name))
		case !h.Nullable && w.Nullable:
			d.Changes = append(d.Changes, fmt.Sprintf("make column %s nullable", h.Name))
			field.Nullable = true
		}
		d.Schema.Fields = append(d.Schema.Fields, field)
	}
	for _, w := range want.Fields {
		switch {
		case inTable[w.Name]:
		case !w.Nullable:
			d.Problems = append(d.Problems, fmt.Sprintf("column %q is added as required, and the table's rows have no value for it: declare it nullable", w.Name))
		default:
			d.Changes = append(d.Changes, fmt.Sprintf("add column %s (%s, nullable)", w.Name, typeText(w.Type)))
			d.Schema.Fields = append(d.Schema.Fields, w)
		}
	}
	return d, nil
}

// generic is a Delta type as JSON decodes it: a string, or a map for a
// struct, array or map type.
func generic(t any) any {
	if raw, ok := t.(json.RawMessage); ok {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			return v
		}
		return string(raw)
	}
	if _, ok := t.(string); ok {
		return t
	}
	if _, ok := t.(map[string]any); ok {
		return t
	}
	b, err := json.Marshal(t)
	if err != nil {
		return fmt.Sprint(t)
	}
	var v any
	_ = json.Unmarshal(b, &v)
	return v
}

// withoutMetadata drops the metadata of nested fields, which another
// engine may set (a comment) without changing the type.
func withoutMetadata(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if k != "metadata" {
				out[k] = withoutMetadata(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = withoutMetadata(e)
		}
		return out
	}
	return v
}

// sameType reports whether two Delta types are the same, nested fields'
// metadata aside.
func sameType(a, b any) bool {
	return reflect.DeepEqual(withoutMetadata(generic(a)), withoutMetadata(generic(b)))
}

// typeText is a Delta type for messages: a primitive's name, or a nested
// type's JSON without its fields' metadata.
func typeText(t any) string {
	v := withoutMetadata(generic(t))
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
