package config

import (
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers/all"
)

func columnTypeConfig(format, typ string) string {
	return `source "generate" "orders" {
  records_per_partition = 10
}

sink "orders" {
  source = source.generate.orders
  format = "` + format + `"

  column "id" {
    type = "int64"
  }
  column "c" {
    type = "` + typ + `"
  }

  destination "local" "a" {
    path = "out/a"
  }
}
`
}

// validate checks column types: a malformed one is refused with where it
// goes wrong, a nested one where the format cannot write it with the way
// out; a valid one is kept in one spelling.
func TestValidateColumnTypes(t *testing.T) {
	for _, tc := range []struct {
		format, typ string
		err         string // "" : valid
		canonical   string
	}{
		{"parquet", "decimal( 10 , 2 )", "", "decimal(10,2)"},
		{"jsonl", "struct< a : list<string> , b : map<string, decimal(5,1)> >", "", "struct<a:list<string>,b:map<string,decimal(5,1)>>"},
		{"parquet", "decimal(40,2)", `Sink "orders": column "c": type "decimal(40,2)", at character 9: a decimal's precision is 1 to 38 digits, not 40.`, ""},
		{"jsonl", "map<int32,string>", `column "c": type "map<int32,string>", at character 5: a map's key must be string, not int32: maps are read from JSON objects, whose keys are strings.`, ""},
		{"parquet", "list< struct<a:int32> >", "", "list<struct<a:int32>>"},
		{"csv", "struct<a:int32>", `column "c": csv has no struct values; declare it type = "json" to keep the value as JSON text in one field, or write format = "parquet" or "jsonl".`, ""},
		{"iceberg", "map<string,int32>", "", "map<string,int32>"},
		{"delta", "map<string,list<int32>>", "", "map<string,list<int32>>"},
	} {
		hcl := columnTypeConfig(tc.format, tc.typ)
		if tc.format == "iceberg" || tc.format == "delta" {
			table := "table {\n      format    = \"iceberg\"\n      namespace = \"lake\"\n      name      = \"orders\"\n    }"
			if tc.format == "delta" {
				table = "table {\n      format = \"delta\"\n    }"
			}
			hcl = strings.Replace(columnTypeConfig("parquet", tc.typ), `path = "out/a"`, "path = \"out/a\"\n    "+table, 1)
		}
		dir := writeFiles(t, map[string]string{"main.hcl": hcl})
		cfg, diags := Load(dir, all.Kinds(), Inputs{})
		if tc.err == "" {
			if diags.HasErrors() {
				t.Errorf("%s %s: %v", tc.format, tc.typ, diags.Error())
				continue
			}
			if got := cfg.Sinks[0].Columns[1].Type; got != tc.canonical {
				t.Errorf("%s: the column's type is %q, want %q", tc.typ, got, tc.canonical)
			}
			continue
		}
		if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.err) {
			t.Errorf("%s %s: %v, want %q", tc.format, tc.typ, diags.Error(), tc.err)
		}
	}
}

// validate checks columns = "from_schema" offline: it needs a source read
// through a schema registry, no column blocks and no table; a parquet sink
// with it needs no column blocks.
func TestValidateColumnsFromSchema(t *testing.T) {
	const registry = `source "kafka" "orders" {
  brokers      = ["127.0.0.1:9092"]
  topic        = "orders"
  value_format = "avro"

  schema_registry {
    url = "http://127.0.0.1:8081"
  }
}
source "kafka" "plain" {
  brokers = ["127.0.0.1:9092"]
  topic   = "plain"
}
`
	sink := func(source, body string) string {
		table := ""
		if strings.Contains(body, "# table") {
			table = "    table {\n      format    = \"iceberg\"\n      namespace = \"lake\"\n      name      = \"orders\"\n    }\n"
		}
		return registry + `
sink "orders" {
  source  = source.kafka.` + source + `
  format  = "parquet"
` + body + `
  destination "local" "a" {
    path = "out/a"
` + table + `  }
}
`
	}
	for _, tc := range []struct {
		name, hcl, err string
	}{
		{"from the registry", sink("orders", `  columns = "from_schema"`), ""},
		{"another value", sink("orders", `  columns = "registry"`), `columns must be one of "from_schema", not "registry"`},
		{"and column blocks", sink("orders", "  columns = \"from_schema\"\n  column \"id\" {\n    type = \"int64\"\n  }"),
			`Sink "orders" takes its columns from its source's schema (columns = "from_schema") and declares column blocks too: keep one of them.`},
		{"a source without a registry", sink("plain", `  columns = "from_schema"`),
			`Sink "orders" takes its columns from its source's schema (columns = "from_schema"), but source.kafka.plain reads no schema registry`},
		{"a table", sink("orders", "  columns = \"from_schema\"\n  # table"),
			`Destination "a" of sink "orders" keeps a table, whose schema is made from declared columns`},
		{"parquet without columns", sink("orders", ""), `which needs a schema: declare its columns with column "NAME" { type = "…" } blocks, or take them from a schema registry with columns = "from_schema".`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.hcl": tc.hcl})
			cfg, diags := Load(dir, all.Kinds(), Inputs{})
			switch {
			case tc.err == "" && diags.HasErrors():
				t.Fatalf("refused: %v", diags.Error())
			case tc.err == "":
				if s := cfg.Sink("orders"); s.ColumnsFrom != ColumnsFromSchema || len(s.Columns) != 0 {
					t.Errorf("the sink's columns from %q, columns %v; want from_schema and none yet", s.ColumnsFrom, s.Columns)
				}
			case !diags.HasErrors() || !strings.Contains(diags.Error(), tc.err):
				t.Errorf("got %v\nwant %q", diags.Error(), tc.err)
			}
		})
	}
}
