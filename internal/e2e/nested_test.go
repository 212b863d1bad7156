package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/iceberg"
)

// TestNestedColumnsEndToEnd: the binary lands nested records from files
// as Parquet and JSONL with struct, list and map columns, decimals inside;
// a record whose nested value does not fit its type is rejected with where;
// DuckDB reads every value back, nulls and empty lists apart, and
// iceberg-go's scan of the Iceberg table of the same batches agrees.
func TestNestedColumnsEndToEnd(t *testing.T) {
	t.Parallel()
	columns := `
  column "id" {
    type     = "int64"
    nullable = false
  }
  column "address" {
    type = "struct<city:string, zip:int32, geo:struct<lat:double,lon:double>>"
    from = "customer.address"
  }
  column "items" {
    type = "list<struct<sku:string,qty:int32,price:decimal(10,2)>>"
  }
  column "attributes" {
    type = "map<string,string>"
  }
`
	dir := writeConfig(t, `
source "files" "in" {
  path = "in/*.jsonl"
}

sink "parquet" {
  source     = source.files.in
  format     = "parquet"
  on_invalid = "reject"
`+columns+`
  destination "local" "lake" {
    path = "out/parquet"
  }
  destination "local" "table" {
    path = "out/table"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
  }
}

sink "jsonl" {
  source     = source.files.in
  format     = "jsonl"
  on_invalid = "reject"
`+columns+`
  destination "local" "lake" {
    path = "out/jsonl"
  }
}
`)
	var lines []string
	for i := range 300 {
		switch i % 3 {
		case 0:
			lines = append(lines, fmt.Sprintf(`{"id":%d,"customer":{"address":{"city":"City %d","zip":%d,"geo":{"lat":%d.25,"lon":-1.5}}},"items":[{"sku":"a%d","qty":%d,"price":"%d.5"},{"sku":"b","qty":1,"price":0.99}],"attributes":{"color":"red","size":"%d"}}`, i, i, 10000+i, i, i, i, i, i))
		case 1:
			lines = append(lines, fmt.Sprintf(`{"id":%d,"items":[],"attributes":{}}`, i))
		default:
			lines = append(lines, fmt.Sprintf(`{"id":%d,"customer":{"address":null},"items":[null,{"sku":null}]}`, i))
		}
	}
	lines = append(lines, `{"id":1000,"items":[{"qty":"two"}]}`) // rejected
	if err := os.MkdirAll(filepath.Join(dir, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "in", "orders.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")

	jsonl := `read_json('out/jsonl/*.jsonl', columns={'id':'BIGINT','address':'STRUCT(city VARCHAR, zip INTEGER, geo STRUCT(lat DOUBLE, lon DOUBLE))',` +
		`'items':'STRUCT(sku VARCHAR, qty INTEGER, price DECIMAL(10,2))[]','attributes':'MAP(VARCHAR, VARCHAR)'})`
	for name, src := range map[string]string{"parquet": "read_parquet('out/parquet/*.parquet')", "jsonl": jsonl} {
		got := fmt.Sprint(duckdb(t, dir, `SELECT count(*), count(DISTINCT id),`+
			` count(*) FILTER (WHERE id % 3 = 0 AND address.city = 'City ' || id AND address.zip = 10000 + id AND address.geo.lat::VARCHAR = id || '.25'`+
			`   AND len(items) = 2 AND items[1].sku = 'a' || id AND items[1].qty = id AND items[1].price::VARCHAR = id || '.50' AND items[2].price::VARCHAR = '0.99'`+
			`   AND attributes['color'] = 'red' AND attributes['size'] = id::VARCHAR),`+
			` count(*) FILTER (WHERE id % 3 = 1 AND address IS NULL AND items = [] AND cardinality(attributes) = 0),`+
			` count(*) FILTER (WHERE id % 3 = 2 AND address IS NULL AND len(items) = 2 AND items[1] IS NULL AND items[2].sku IS NULL AND attributes IS NULL)`+
			` FROM `+src))
		if got != "[[300 300 100 100 100]]" {
			t.Errorf("DuckDB over the %s files: %s, want 300 records each once, each of the three kinds read back as written", name, got)
		}
	}
	// iceberg-go's scan of the table: each record once, as written.
	ctx := context.Background()
	cols := []format.Column{{Name: "id", Type: "int64", Nullable: new(bool)},
		{Name: "address", Type: "struct<city:string,zip:int32,geo:struct<lat:double,lon:double>>"},
		{Name: "items", Type: "list<struct<sku:string,qty:int32,price:decimal(10,2)>>"},
		{Name: "attributes", Type: "map<string,string>"}}
	tb, err := iceberg.Open(ctx, iceberg.Config{Namespace: []string{"lake"}, Table: "orders",
		Location: "file://" + filepath.ToSlash(filepath.Join(dir, "out", "table")), Columns: cols})
	if err != nil {
		t.Fatalf("open the table: %v", err)
	}
	defer tb.Close()
	seen := map[int64]int{}
	scanRecords(t, tb, func(rec arrow.RecordBatch) {
		ids := rec.Column(rec.Schema().FieldIndices("id")[0]).(*array.Int64)
		items := rec.Column(rec.Schema().FieldIndices("items")[0]).(*array.List)
		for i := range ids.Len() {
			id := ids.Value(i)
			seen[id]++
			if id == 3 {
				b, _ := json.Marshal(items.GetOneForMarshal(i))
				// The prices exactly, as their decimals' text.
				elems := items.ListValues().(*array.Struct)
				prices := elems.Field(2).(*array.Decimal128)
				start, end := items.ValueOffsets(i)
				var texts []string
				for k := start; k < end; k++ {
					texts = append(texts, prices.Value(int(k)).ToString(2))
				}
				if want := `[{"price":"3.5","qty":3,"sku":"a3"},{"price":"0.99","qty":1,"sku":"b"}]`; string(b) != want || fmt.Sprint(texts) != "[3.50 0.99]" {
					t.Errorf("record 3's items in the table: %s, prices %v; want %s, prices [3.50 0.99]", b, texts, want)
				}
			}
		}
	})
	want := map[int64]bool{}
	for id := range int64(300) {
		want[id] = true
	}
	checkIDsOnce(t, "iceberg-go's scan", seen, want)

	rejected := fmt.Sprint(duckdb(t, dir, `SELECT count(*), any_value(reason) FROM read_json('out/parquet/_streamctl/_rejected/*.ndjson')`))
	if want := `[[1 column "items": at [0].qty: expected an integer, got "two"]]`; rejected != want {
		t.Errorf("the rejects: %s, want %s", rejected, want)
	}
}
