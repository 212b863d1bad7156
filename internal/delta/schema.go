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

// sameSchema reports whether two schema strings describe the same fields,
// whatever their spacing and key order.
func sameSchema(a, b string) (bool, error) {
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		return false, err
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		return false, err
	}
	return reflect.DeepEqual(x, y), nil
}
