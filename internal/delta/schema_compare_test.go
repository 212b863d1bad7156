package delta_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/delta"
	"github.com/streamctl/streamctl/internal/format"
)

func TestCompareSchema(t *testing.T) {
	required := false
	table := `{"type":"struct","fields":[` +
		`{"name":"id","type":"long","nullable":false,"metadata":{}},` +
		`{"name":"country","type":"string","nullable":true,"metadata":{"comment":"ISO code"}}]}`
	col := func(name, typ string, nullable bool) format.Column {
		c := format.Column{Name: name, Type: typ}
		if !nullable {
			c.Nullable = &required
		}
		return c
	}
	tests := []struct {
		name     string
		cols     []format.Column
		changes  string
		problems string
		fields   string // the evolved schema's fields
	}{
		{name: "the same columns", cols: []format.Column{col("id", "int64", false), col("country", "string", true)},
			fields: "id:long:false country:string:true"},
		{name: "reordered columns change nothing", cols: []format.Column{col("country", "string", true), col("id", "int64", false)},
			fields: "id:long:false country:string:true"},
		{name: "a nullable column is added at the end", cols: []format.Column{col("note", "string", true), col("id", "int64", false), col("country", "string", true)},
			changes: "add column note (string, nullable)", fields: "id:long:false country:string:true note:string:true"},
		{name: "a required column made nullable", cols: []format.Column{col("id", "int64", true), col("country", "string", true)},
			changes: "make column id nullable", fields: "id:long:true country:string:true"},
		{name: "a required column added", cols: []format.Column{col("id", "int64", false), col("country", "string", true), col("qty", "int32", false)},
			problems: `column "qty" is added as required, and the table's rows have no value for it: declare it nullable`},
		{name: "a column removed", cols: []format.Column{col("id", "int64", false)},
			problems: `column "country" of the table (string) is not among the sink's columns`},
		{name: "a type changed", cols: []format.Column{col("id", "string", false), col("country", "string", true)},
			problems: `column "id" is long in the table, and string in the sink`},
		{name: "a nullable column made required", cols: []format.Column{col("id", "int64", false), col("country", "string", false)},
			problems: `column "country" is nullable in the table, and required in the sink (the table's rows may hold null in it)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := delta.CompareSchema(table, tt.cols)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(d.Changes, "; "); got != tt.changes {
				t.Errorf("changes %q, want %q", got, tt.changes)
			}
			if got := strings.Join(d.Problems, "; "); got != tt.problems {
				t.Errorf("problems %q, want %q", got, tt.problems)
			}
			if tt.fields == "" {
				return
			}
			var fields []string
			for _, f := range d.Schema.Fields {
				fields = append(fields, f.Name+":"+fmt.Sprint(f.Type)+":"+map[bool]string{true: "true", false: "false"}[f.Nullable])
			}
			if got := strings.Join(fields, " "); got != tt.fields {
				t.Errorf("evolved schema %s, want %s", got, tt.fields)
			}
			// A field's metadata (a comment set by another engine) is kept.
			for _, f := range d.Schema.Fields {
				if f.Name == "country" && f.Metadata["comment"] != "ISO code" {
					t.Errorf("country's metadata %v lost", f.Metadata)
				}
			}
		})
	}
}
