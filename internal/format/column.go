// Package format turns source records into typed rows and encodes them as
// Parquet (package parquet), CSV or JSONL, selected by format name.
//
// A sink declares its columns in order (Column). The Extractor reads the
// declared fields out of a record's raw JSON in one pass, without reflection
// and without allocating per record, and yields one Value per field. Encoders
// stream rows to an io.Writer; their output depends only on the rows, so the
// same records always give the same bytes.
package format

import (
	"errors"
	"fmt"
	"strings"
)

// Column is one declared output column:
//
//	column "amount" { type = "double", nullable = false, from = "order.amount" }
type Column struct {
	Name string `hcl:"name,label"`
	// Type is a kind name (string, int32, int64, float, double, bool,
	// timestamp, date, bytes, json), decimal(p,s), list<T>, map<string,T>
	// or struct<name:T,…>; see row.ParseType.
	Type string `hcl:"type"`
	// Nullable is true when unset: a missing field or a JSON null gives a null.
	Nullable *bool `hcl:"nullable,optional"`
	// From is the dotted path of the JSON field to read ("a.b.c"), or one of
	// the record's metadata names (_key, _partition, _offset, _timestamp,
	// _headers). Empty means the column's name.
	From string `hcl:"from,optional"`
}

// IsNullable reports whether the column accepts nulls (the default).
func (c Column) IsNullable() bool { return c.Nullable == nil || *c.Nullable }

// Source is the path the column reads: From, or the column's name.
func (c Column) Source() string {
	if c.From != "" {
		return c.From
	}
	return c.Name
}

// Metadata names: a column whose source is one of these reads the record's
// envelope instead of its JSON.
const (
	MetaKey       = "_key"       // Record.Key: string or bytes; null without a key
	MetaPartition = "_partition" // Record.Partition: string, int32 or int64
	MetaOffset    = "_offset"    // Record.Offset: int64 or string
	MetaTimestamp = "_timestamp" // Record.Timestamp: timestamp or int64; null when 0
	MetaHeaders   = "_headers"   // Record.Headers as JSON [{"key":…,"value":…}]: json or string; null without headers
)

// metaKinds lists the kinds each metadata name can be read as.
var metaKinds = map[string][]Kind{
	MetaKey:       {KindString, KindBytes},
	MetaPartition: {KindString, KindInt32, KindInt64},
	MetaOffset:    {KindInt64, KindString},
	MetaTimestamp: {KindTimestamp, KindInt64},
	MetaHeaders:   {KindJSON, KindString},
}

// DefaultMetaKind is the kind a metadata name is read as when no column
// declares it (for partition_by or route_by): the first its list allows.
func DefaultMetaKind(path string) Kind { return metaKinds[path][0] }

// IsMeta reports whether path names record metadata rather than a JSON field.
func IsMeta(path string) bool {
	_, ok := metaKinds[path]
	return ok
}

// ValidatePath checks a dotted field path ("a.b.c").
func ValidatePath(path string) error {
	if path == "" {
		return errors.New("empty field path")
	}
	for seg := range strings.SplitSeq(path, ".") {
		if seg == "" {
			return fmt.Errorf("field path %q has an empty segment", path)
		}
	}
	return nil
}

// ValidateColumns checks a sink's columns: names present, unique and
// printable; known types; valid sources; metadata read as a type it has.
// It reports every problem, not only the first.
func ValidateColumns(cols []Column) error {
	var errs []error
	seen := make(map[string]bool, len(cols))
	for _, c := range cols {
		if c.Name == "" {
			errs = append(errs, errors.New("column with an empty name"))
			continue
		}
		if strings.ContainsFunc(c.Name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			errs = append(errs, fmt.Errorf("column %q: the name contains a control character", c.Name))
		}
		if seen[c.Name] {
			errs = append(errs, fmt.Errorf("column %q is declared twice", c.Name))
		}
		seen[c.Name] = true
		t, err := ParseType(c.Type)
		if err != nil {
			errs = append(errs, fmt.Errorf("column %q: %w", c.Name, err))
			continue
		}
		k := t.Kind
		src := c.Source()
		if kinds, ok := metaKinds[src]; ok {
			if !containsKind(kinds, k) {
				errs = append(errs, fmt.Errorf("column %q: %s can be read as %s, not %s", c.Name, src, joinKinds(kinds), k))
			}
			continue
		}
		if err := ValidatePath(src); err != nil {
			errs = append(errs, fmt.Errorf("column %q: from: %w", c.Name, err))
		}
	}
	return errors.Join(errs...)
}

func containsKind(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

func joinKinds(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = k.String()
	}
	return strings.Join(s, " or ")
}

// Schema is a validated list of columns with their types.
type Schema struct {
	Columns []Column
	Kinds   []Kind  // Kinds[i] is the kind of Columns[i], Types[i].Kind
	Types   []*Type // Types[i] is the type of Columns[i]
}

// NewSchema validates cols and returns their schema.
func NewSchema(cols []Column) (*Schema, error) {
	if err := ValidateColumns(cols); err != nil {
		return nil, err
	}
	s := &Schema{Columns: cols, Kinds: make([]Kind, len(cols)), Types: make([]*Type, len(cols))}
	for i, c := range cols {
		s.Types[i], _ = ParseType(c.Type)
		s.Kinds[i] = s.Types[i].Kind
	}
	return s, nil
}

// Fields returns the extraction fields of the schema's columns, in order.
func (s *Schema) Fields() []Field {
	fs := make([]Field, len(s.Columns))
	for i, c := range s.Columns {
		fs[i] = Field{Name: c.Name, Path: c.Source(), Kind: s.Kinds[i], Type: s.Types[i], Nullable: c.IsNullable(), Column: true}
	}
	return fs
}

// CheckNested refuses the nested columns (struct, list, map) of CSV,
// which has no nested values; JSONL and Parquet write them.
func CheckNested(cols []Column, format string) error {
	if format != CSV {
		return nil
	}
	var errs []error
	for _, c := range cols {
		if t, err := ParseType(c.Type); err == nil && t.Nested() {
			errs = append(errs, fmt.Errorf("column %q: csv has no %s values; declare it type = \"json\" to keep the value as JSON text in one field, or write format = \"parquet\" or \"jsonl\"", c.Name, t.Kind))
		}
	}
	return errors.Join(errs...)
}
