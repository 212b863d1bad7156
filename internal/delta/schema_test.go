package delta

import (
	"testing"

	"github.com/streamctl/streamctl/internal/format"
)

// The schema string is what Spark's StructType JSON says for each type,
// decimals with their precision and scale.
func TestSchemaString(t *testing.T) {
	cols := []format.Column{
		{Name: "id", Type: "int64", Nullable: new(bool)},
		{Name: "price", Type: "decimal(9,2)"},
		{Name: "wide", Type: " decimal( 38 , 6 )"},
		{Name: "ts", Type: "timestamp"},
		{Name: "doc", Type: "json"},
	}
	got, err := SchemaString(cols)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"struct","fields":[` +
		`{"name":"id","type":"long","nullable":false,"metadata":{}},` +
		`{"name":"price","type":"decimal(9,2)","nullable":true,"metadata":{}},` +
		`{"name":"wide","type":"decimal(38,6)","nullable":true,"metadata":{}},` +
		`{"name":"ts","type":"timestamp","nullable":true,"metadata":{}},` +
		`{"name":"doc","type":"string","nullable":true,"metadata":{}}]}`
	if got != want {
		t.Errorf("schema string\n got %s\nwant %s", got, want)
	}
}

func TestSchemaStringNested(t *testing.T) {
	got, err := SchemaString([]format.Column{{Name: "s", Type: "struct<a:list<string>,m:map<string,decimal(5,1)>>"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"struct","fields":[{"name":"s","type":{"type":"struct","fields":[` +
		`{"name":"a","type":{"type":"array","elementType":"string","containsNull":true},"nullable":true,"metadata":{}},` +
		`{"name":"m","type":{"type":"map","keyType":"string","valueType":"decimal(5,1)","valueContainsNull":true},"nullable":true,"metadata":{}}]},` +
		`"nullable":true,"metadata":{}}]}`
	if got != want {
		t.Errorf("schema string\n got %s\nwant %s", got, want)
	}
}
