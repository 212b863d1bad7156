package delta

import (
	"encoding/json"
	"fmt"

	"github.com/streamctl/streamctl/internal/format"
)

// StructField is a field of the table's schema, as the protocol's schema
// serialization format (Spark's StructType JSON) writes it.
type StructField struct {
	Name     string         `json:"name"`
	Type     string         `json:"type"`
	Nullable bool           `json:"nullable"`
	Metadata map[string]any `json:"metadata"`
}

// StructType is the table's schema.
type StructType struct {
	Type   string        `json:"type"`
	Fields []StructField `json:"fields"`
}

// TypeName is the Delta primitive type of a column kind, as the sink's
// Parquet files hold it: timestamps are UTC (Parquet's adjusted-to-UTC),
// JSON is text.
func TypeName(k format.Kind) (string, error) {
	switch k {
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
	return "", fmt.Errorf("no Delta type for the column kind %s", k)
}

// Schema is the table's schema for the sink's columns.
func Schema(cols []format.Column) (StructType, error) {
	st := StructType{Type: "struct", Fields: make([]StructField, 0, len(cols))}
	for _, c := range cols {
		k, err := format.ParseKind(c.Type)
		if err != nil {
			return st, fmt.Errorf("column %s: %w", c.Name, err)
		}
		t, err := TypeName(k)
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
		var typ string
		if json.Unmarshal(h.Type, &typ) != nil {
			typ = string(h.Type) // a struct, array or map: no sink column has one
		}
		meta := h.Metadata
		if meta == nil {
			meta = map[string]any{}
		}
		field := StructField{Name: h.Name, Type: typ, Nullable: h.Nullable, Metadata: meta}
		w, ok := wanted[h.Name]
		switch {
		case !ok:
			d.Problems = append(d.Problems, fmt.Sprintf("column %q of the table (%s) is not among the sink's columns", h.Name, typ))
		case w.Type != typ:
			d.Problems = append(d.Problems, fmt.Sprintf("column %q is %s in the table, and %s in the sink", h.Name, typ, w.Type))
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
			d.Changes = append(d.Changes, fmt.Sprintf("add column %s (%s, nullable)", w.Name, w.Type))
			d.Schema.Fields = append(d.Schema.Fields, w)
		}
	}
	return d, nil
}
