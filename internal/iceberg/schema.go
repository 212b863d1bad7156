package iceberg

import (
	"fmt"
	"strings"

	ice "github.com/apache/iceberg-go"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/partition"
)

// icebergType is the Iceberg type of a streamctl column type. The Parquet
// files hold timestamps in milliseconds (UTC-adjusted); Iceberg's timestamptz
// is microseconds, and readers widen the stored milliseconds. JSON has no
// Iceberg type before v3's variant: it is a string holding the JSON text.
func icebergType(t *format.Type) (ice.Type, error) {
	switch k := t.Kind; k {
	case format.KindDecimal:
		return ice.DecimalTypeOf(t.Precision, t.Scale), nil
	case format.KindString, format.KindJSON:
		return ice.PrimitiveTypes.String, nil
	case format.KindInt32:
		return ice.PrimitiveTypes.Int32, nil
	case format.KindInt64:
		return ice.PrimitiveTypes.Int64, nil
	case format.KindFloat:
		return ice.PrimitiveTypes.Float32, nil
	case format.KindDouble:
		return ice.PrimitiveTypes.Float64, nil
	case format.KindBool:
		return ice.PrimitiveTypes.Bool, nil
	case format.KindTimestamp:
		return ice.PrimitiveTypes.TimestampTz, nil
	case format.KindDate:
		return ice.PrimitiveTypes.Date, nil
	case format.KindBytes:
		return ice.PrimitiveTypes.Binary, nil
	}
	return nil, fmt.Errorf("type %s has no Iceberg type", t)
}

// newSchema is the Iceberg schema of the columns: field ids 1… in order,
// then the ids of nested fields, elements, keys and values. A catalog
// creating the table may number the nested ones otherwise: compareSchema
// compares types without their ids, and the files are read by names.
func newSchema(cols []format.Column) (*ice.Schema, error) {
	s, err := format.NewSchema(cols)
	if err != nil {
		return nil, err
	}
	ids := &idAlloc{next: len(cols) + 1}
	fields := make([]ice.NestedField, len(cols))
	for i, c := range cols {
		fields[i] = ice.NestedField{ID: i + 1, Name: c.Name, Required: !c.IsNullable()}
	}
	for i, c := range cols {
		t, err := ids.typeOf(s.Types[i])
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", c.Name, err)
		}
		fields[i].Type = t
	}
	return ice.NewSchema(0, fields...), nil
}

// idAlloc numbers the nested fields of a schema.
type idAlloc struct{ next int }

func (a *idAlloc) id() int {
	a.next++
	return a.next - 1
}

// typeOf is the Iceberg type of t, numbering its nested fields breadth
// first: the ids of a struct's fields (a list's element, a map's key and
// value) before those of what they hold. Nested fields are optional, as
// JSON leaves any of them out; a map's key is required.
func (a *idAlloc) typeOf(t *format.Type) (ice.Type, error) {
	switch t.Kind {
	case format.KindStruct:
		st := &ice.StructType{FieldList: make([]ice.NestedField, len(t.Fields))}
		for i, f := range t.Fields {
			st.FieldList[i] = ice.NestedField{ID: a.id(), Name: f.Name}
		}
		for i, f := range t.Fields {
			ft, err := a.typeOf(f.Type)
			if err != nil {
				return nil, err
			}
			st.FieldList[i].Type = ft
		}
		return st, nil
	case format.KindList:
		l := &ice.ListType{ElementID: a.id()}
		et, err := a.typeOf(t.Elem)
		l.Element = et
		return l, err
	case format.KindMap:
		m := &ice.MapType{KeyID: a.id(), ValueID: a.id(), KeyType: ice.PrimitiveTypes.String}
		vt, err := a.typeOf(t.Elem)
		m.ValueType = vt
		return m, err
	}
	return icebergType(t)
}

// transform is the Iceberg transform of a partition_by field.
func transform(f partition.Field) ice.Transform {
	switch f.Transform {
	case partition.Year:
		return ice.YearTransform{}
	case partition.Month:
		return ice.MonthTransform{}
	case partition.Day:
		return ice.DayTransform{}
	case partition.Hour:
		return ice.HourTransform{}
	case partition.BucketT:
		return ice.BucketTransform{NumBuckets: int(f.Param)}
	case partition.TruncateT:
		return ice.TruncateTransform{Width: int(f.Param)}
	}
	return ice.IdentityTransform{}
}

// newSpec is the partition spec of partition_by over schema. Each field
// must read a column, and is named as streamctl names its folder (Iceberg's
// default names: ts_day, id_bucket, …).
func newSpec(exprs []string, cols []format.Column, schema *ice.Schema) (ice.PartitionSpec, []partition.Field, error) {
	ps, err := partition.NewSpec(exprs)
	if err != nil {
		return ice.PartitionSpec{}, nil, err
	}
	kinds := map[string]format.Kind{}
	for _, c := range cols {
		k, _ := format.ParseKind(c.Type)
		kinds[c.Name] = k
	}
	var opts []ice.PartitionOption
	var errs []string
	for _, f := range ps.Fields() {
		k, ok := kinds[f.Source]
		if !ok {
			errs = append(errs, fmt.Sprintf("partition_by %q: %q is not a column; an Iceberg table partitions by its columns", f.Expr, f.Source))
			continue
		}
		if !partition.Accepts(f.Transform, k) {
			errs = append(errs, fmt.Sprintf("partition_by %q: %s does not apply to column %q of type %s", f.Expr, f.Transform, f.Source, k))
			continue
		}
		opts = append(opts, ice.AddPartitionFieldByName(f.Source, f.Name, transform(f), schema, nil))
	}
	if len(errs) > 0 {
		return ice.PartitionSpec{}, nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	spec, err := ice.NewPartitionSpecOpts(opts...)
	if err != nil {
		return ice.PartitionSpec{}, nil, fmt.Errorf("partition_by: %w", err)
	}
	return spec, ps.Fields(), nil
}

// SchemaChange is a difference between the declared columns and an existing
// table's schema that streamctl can apply: a nullable column added.
type SchemaChange struct {
	Column string // the column's name
	Type   string // its streamctl type
	// Iceberg is its Iceberg type (as Iceberg prints it: long, timestamptz…).
	Iceberg string
}

func (c SchemaChange) String() string {
	return fmt.Sprintf("add nullable column %q (%s, Iceberg %s)", c.Column, c.Type, c.Iceberg)
}

// SchemaError is a table whose schema or partitioning the declared columns
// and partition_by cannot be written into. Problems says each difference.
type SchemaError struct {
	Table    string
	Problems []string
}

func (e *SchemaError) Error() string {
	return fmt.Sprintf("iceberg table %s: the declared columns do not fit its schema: %s", e.Table, strings.Join(e.Problems, "; "))
}

// compareSchema compares the table's current schema (have) with the one the
// columns make (want). Columns only in want and nullable are changes;
// everything else that differs is a problem. A table column that is not
// declared is left alone when it is optional (new files hold no value for
// it: readers read null) and a problem when it is required.
func compareSchema(have, want *ice.Schema, cols []format.Column) (changes []SchemaChange, problems []string) {
	for i, w := range want.Fields() {
		h, ok := have.FindFieldByName(w.Name)
		if !ok {
			if w.Required {
				problems = append(problems, fmt.Sprintf("column %q is new and not nullable: the table's files have no value for it (declare it nullable = true)", w.Name))
				continue
			}
			changes = append(changes, SchemaChange{Column: w.Name, Type: cols[i].Type, Iceberg: w.Type.String()})
			continue
		}
		if !sameType(h.Type, w.Type) {
			problems = append(problems, fmt.Sprintf("column %q is %s in the table, and type %q (Iceberg %s) is declared", w.Name, h.Type, cols[i].Type, w.Type))
		}
		if h.Required && !w.Required {
			problems = append(problems, fmt.Sprintf("column %q is required in the table and declared nullable: nulls cannot be written into it", w.Name))
		}
	}
	for _, h := range have.Fields() {
		if _, ok := want.FindFieldByName(h.Name); !ok && h.Required {
			problems = append(problems, fmt.Sprintf("column %q is required in the table and not declared: new files would have no value for it", h.Name))
		}
	}
	return changes, problems
}

// compareSpec reports how the table's partition spec differs from the one
// partition_by makes, by source column name, transform and field name.
func compareSpec(have ice.PartitionSpec, haveSchema *ice.Schema, want ice.PartitionSpec, wantSchema *ice.Schema) string {
	desc := func(spec ice.PartitionSpec, s *ice.Schema) string {
		var parts []string
		for _, f := range spec.Fields() {
			name, _ := s.FindColumnName(f.SourceID())
			parts = append(parts, fmt.Sprintf("%s(%s) as %s", f.Transform, name, f.Name))
		}
		if len(parts) == 0 {
			return "unpartitioned"
		}
		return strings.Join(parts, ", ")
	}
	h, w := desc(have, haveSchema), desc(want, wantSchema)
	if h == w {
		return ""
	}
	return fmt.Sprintf("the table is partitioned by [%s] and partition_by gives [%s] (partition evolution is not supported)", h, w)
}

// sameType reports whether two Iceberg types are the same but for the ids
// of their nested fields, which the catalog assigns.
func sameType(a, b ice.Type) bool {
	switch a := a.(type) {
	case *ice.StructType:
		b, ok := b.(*ice.StructType)
		if !ok || len(a.FieldList) != len(b.FieldList) {
			return false
		}
		for i, f := range a.FieldList {
			g := b.FieldList[i]
			if f.Name != g.Name || f.Required != g.Required || !sameType(f.Type, g.Type) {
				return false
			}
		}
		return true
	case *ice.ListType:
		b, ok := b.(*ice.ListType)
		return ok && a.ElementRequired == b.ElementRequired && sameType(a.Element, b.Element)
	case *ice.MapType:
		b, ok := b.(*ice.MapType)
		return ok && a.ValueRequired == b.ValueRequired && sameType(a.KeyType, b.KeyType) && sameType(a.ValueType, b.ValueType)
	}
	return a.Equals(b)
}
