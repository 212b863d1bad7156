package wire

import (
	"fmt"
	"strings"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/format/row"
)

// Version is one version of a registry subject, its fields as columns.
type Version struct {
	Subject string
	Version int
	ID      int
	Fields  []Field
}

// IncompatibleError is a schema version whose records the sink's columns
// cannot hold: plan and apply refuse it before anything is written.
type IncompatibleError struct {
	Subject string
	Version int
	Field   string
	Reason  string
	// Fix is what the user can do.
	Fix string
}

func (e *IncompatibleError) Error() string {
	return fmt.Sprintf("subject %s version %d: field %q %s: %s", e.Subject, e.Version, e.Field, e.Reason, e.Fix)
}

// fixDerived and fixDeclared are the ways out of an incompatible version.
const (
	fixDerived  = "register a version that only adds optional fields (nullable, or with a default) instead, or declare the sink's columns with column blocks that hold every version's values"
	fixDeclared = "change the column's type to one that holds the field's values of every version, or register a version that keeps the field's type"
)

// DeriveColumns folds versions, oldest first, into the columns that hold
// the records of all of them: the first version's fields, then each
// field a later version adds, appended in the order it adds them. A later
// version may add nullable or defaulted fields (nullable columns: the older
// records lack them), widen a type (int32 to int64, float to double, a
// decimal's precision, a struct's fields), and drop an optional field (its
// column stays, null in the newer records). Any other change is an
// *IncompatibleError naming the version and the field.
func DeriveColumns(versions []Version) ([]format.Column, error) {
	var cols []format.Column
	for i, v := range versions {
		if i == 0 {
			for _, f := range v.Fields {
				cols = append(cols, fieldColumn(f, f.Nullable))
			}
			continue
		}
		next, err := evolve(cols, v)
		if err != nil {
			return nil, err
		}
		cols = next
	}
	return cols, nil
}

func fieldColumn(f Field, nullable bool) format.Column {
	c := format.Column{Name: f.Name, Type: f.Type}
	if !nullable {
		no := false
		c.Nullable = &no
	}
	return c
}

// evolve applies version v to cols, the columns of the versions before it.
func evolve(cols []format.Column, v Version) ([]format.Column, error) {
	bad := func(field, reason string) error {
		return &IncompatibleError{Subject: v.Subject, Version: v.Version, Field: field, Reason: reason, Fix: fixDerived}
	}
	byName := make(map[string]Field, len(v.Fields))
	for _, f := range v.Fields {
		byName[f.Name] = f
	}
	out := make([]format.Column, 0, len(cols)+len(v.Fields))
	known := make(map[string]bool, len(cols))
	for _, c := range cols {
		known[c.Name] = true
		f, ok := byName[c.Name]
		switch {
		case !ok && !c.IsNullable():
			return nil, bad(c.Name, "is removed although earlier versions require it")
		case !ok:
			out = append(out, c)
			continue
		case c.IsNullable() && !f.Nullable && !f.Default:
			return nil, bad(c.Name, "is made required with no default, while earlier versions' records may lack it")
		}
		from, _ := row.ParseType(c.Type)
		to, err := row.ParseType(f.Type)
		if err != nil || from == nil || !widens(from, to) {
			return nil, bad(c.Name, fmt.Sprintf("changes type from %s to %s, which column %q of the earlier versions' records cannot become", c.Type, f.Type, c.Name))
		}
		out = append(out, fieldColumn(f, c.IsNullable()))
	}
	for _, f := range v.Fields {
		if known[f.Name] {
			continue
		}
		if !f.Nullable && !f.Default {
			return nil, bad(f.Name, "is added as required with no default, while earlier versions' records lack it")
		}
		out = append(out, fieldColumn(f, true))
	}
	return out, nil
}

// widens reports whether every value of type from is a value of type to, so
// that a column of type to holds the records of both.
func widens(from, to *row.Type) bool {
	if from.Equal(to) {
		return true
	}
	switch {
	case from.Kind == row.KindInt32 && to.Kind == row.KindInt64,
		from.Kind == row.KindFloat && to.Kind == row.KindDouble:
		return true
	case from.Kind != to.Kind:
		return false
	}
	switch from.Kind {
	case row.KindDecimal:
		return to.Scale >= from.Scale && to.Precision-to.Scale >= from.Precision-from.Scale
	case row.KindList, row.KindMap:
		return widens(from.Elem, to.Elem)
	case row.KindStruct:
		// Nested fields are nullable: a field added is null in the
		// older values, and one removed null in the newer ones.
		for _, ff := range from.Fields {
			for _, tf := range to.Fields {
				if ff.Name == tf.Name && !widens(ff.Type, tf.Type) {
					return false
				}
			}
		}
		return true
	}
	return false
}

// CheckDeclared checks that declared columns hold the records of version v:
// each column that reads a field of the record (by its name or a from
// path) must find it, unless it is nullable, with a type it can hold.
func CheckDeclared(cols []format.Column, v Version) error {
	byName := make(map[string]Field, len(v.Fields))
	for _, f := range v.Fields {
		byName[f.Name] = f
	}
	for _, c := range cols {
		path := c.Source()
		if format.IsMeta(path) {
			continue
		}
		head, rest, _ := strings.Cut(path, ".")
		bad := func(reason string) error {
			return &IncompatibleError{Subject: v.Subject, Version: v.Version, Field: path, Reason: reason, Fix: fixDeclared}
		}
		f, ok := byName[head]
		if !ok {
			if !c.IsNullable() {
				return bad(fmt.Sprintf("is not in the schema, and column %q, which reads it, is not nullable", c.Name))
			}
			continue
		}
		typ, err := row.ParseType(f.Type)
		if err != nil {
			continue
		}
		for rest != "" && typ != nil {
			var name string
			name, rest, _ = strings.Cut(rest, ".")
			typ = structField(typ, name)
		}
		if typ == nil {
			continue // a nested field a struct lacks is null
		}
		want, err := row.ParseType(c.Type)
		if err != nil {
			continue
		}
		if !fits(typ, want, f.Loose) {
			return bad(fmt.Sprintf("is %s, which column %q of type %s cannot hold", typ, c.Name, c.Type))
		}
	}
	return nil
}

func structField(t *row.Type, name string) *row.Type {
	if t.Kind != row.KindStruct {
		return nil
	}
	for _, f := range t.Fields {
		if f.Name == name {
			return f.Type
		}
	}
	return nil
}

// fits reports whether a column of type col reads every value of a field
// of type field as the decoded JSON gives it. loose is set for JSON Schema,
// whose numbers have no width: an integer fits any integer column, a
// number any numeric one, and a value out of range is an invalid record.
func fits(field, col *row.Type, loose bool) bool {
	switch {
	case field.Kind == row.KindJSON || col.Kind == row.KindJSON || widens(field, col):
		// A json field is one the schema does not type (a Protobuf
		// decimal carries its scale in each value): the records decide.
		return true
	case field.Kind == row.KindString:
		// The column parses the text: enums, uuids and times are strings,
		// and JSON Schema topics carry decimals and timestamps as strings.
		switch col.Kind {
		case row.KindString, row.KindTimestamp, row.KindDate, row.KindDecimal:
			return true
		}
		return false
	case col.Kind == row.KindString:
		return field.Kind == row.KindTimestamp || field.Kind == row.KindDate
	case isInt(field) && isInt(col) && loose:
		return true
	case col.Kind == row.KindDouble:
		// A decimal is written as the nearest double, as Spark casts it:
		// configurations that read decimals into double columns stay valid.
		return isInt(field) || field.Kind == row.KindDecimal
	case col.Kind == row.KindFloat && loose:
		return isInt(field) || field.Kind == row.KindDouble
	case col.Kind == row.KindDecimal:
		switch {
		case loose:
			return isInt(field) || field.Kind == row.KindDouble
		case field.Kind == row.KindInt32:
			return col.Precision-col.Scale >= 10
		case field.Kind == row.KindInt64:
			return col.Precision-col.Scale >= 19
		}
		return false
	case col.Kind != field.Kind:
		return false
	}
	switch col.Kind {
	case row.KindList, row.KindMap:
		return fits(field.Elem, col.Elem, loose)
	case row.KindStruct:
		for _, cf := range col.Fields {
			if ft := structField(field, cf.Name); ft != nil && !fits(ft, cf.Type, loose) {
				return false
			}
		}
		return true
	}
	return false
}

func isInt(t *row.Type) bool { return t.Kind == row.KindInt32 || t.Kind == row.KindInt64 }
