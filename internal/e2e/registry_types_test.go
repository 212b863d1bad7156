package e2e

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
)

// typedOrderColumns declare an order as a user with the registry's schema
// in hand would: the amount and the lines' prices as the decimals they are,
// the customer a struct, the lines a list of structs, the tags a map.
const typedOrderColumns = `
  column "id"       { type = "int64" }
  column "amount"   { type = "decimal(12,2)" }
  column "at"       { type = "timestamp" }
  column "customer" { type = "struct<name:string,email:string>" }
  column "lines"    { type = "list<struct<sku:string,qty:int32,price:decimal(8,2)>>" }
  column "tags"     { type = "map<string,string>" }
  column "coupon"   { type = "string" }
`

// TestRegistryTopicsLandInTypedColumns: Avro, Protobuf and JSON Schema
// orders, framed by the registry's JavaScript client with a schema evolution
// halfway (v2 adds the coupon), land in decimal, struct, list and map
// columns; DuckDB reads every value back as the producer gave it, the
// decimals exact.
func TestRegistryTopicsLandInTypedColumns(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	byPartition := func(i int) int32 { return int32(i % 2) }
	for _, tc := range []struct {
		name    string
		schemas func(subject string) []testenv.RegistrySchema
		records func(func(int) int32) []testenv.RegistryRecord
	}{
		{"avro", testenv.AvroOrderSchemas, testenv.AvroOrderRecords},
		{"protobuf", testenv.ProtoOrderSchemas, testenv.ProtoOrderRecords},
		{"json_schema", testenv.JSONOrderSchemas, testenv.JSONOrderRecords},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			topic := kafkaTopic(t, broker, 2)
			testenv.ProduceWithRegistry(t, broker, reg, topic, tc.schemas(topic+"-value"), tc.records(byPartition))
			dir := writeConfig(t, registryConf(registryOpts{Brokers: broker.Addr, Topic: topic, URL: reg.URL, Format: tc.name, ParquetColumns: typedOrderColumns}))
			applyAndSettle(t, dir, nil)

			types := duckdb(t, dir, `SELECT column_name || ' ' || column_type FROM (DESCRIBE SELECT * FROM read_parquet('out/parquet/**/*.parquet')) ORDER BY column_name`)
			var got []string
			for _, r := range types {
				got = append(got, fmt.Sprint(r[0]))
			}
			wantTypes := "amount DECIMAL(12,2) at TIMESTAMP WITH TIME ZONE coupon VARCHAR customer STRUCT(\"name\" VARCHAR, email VARCHAR) " +
				"id BIGINT lines STRUCT(sku VARCHAR, qty INTEGER, price DECIMAL(8,2))[] tags MAP(VARCHAR, VARCHAR)"
			if g := strings.Join(got, " "); g != wantTypes && g != strings.ReplaceAll(wantTypes, "TIMESTAMP WITH TIME ZONE", "TIMESTAMP") {
				t.Errorf("DuckDB reads the columns as\n%s\nwant\n%s", g, wantTypes)
			}

			rows := duckdb(t, dir, `SELECT id, CAST(amount AS VARCHAR), epoch_ms("at"), customer.name, customer.email,
					array_to_string(list_transform(lines, l -> l.sku || ':' || CAST(l.qty AS VARCHAR) || ':' || CAST(l.price AS VARCHAR)), ','),
					array_to_string(list_transform(list_sort(map_entries(tags)), e -> e."key" || '=' || e."value"), ','), coupon
				FROM read_parquet('out/parquet/**/*.parquet') ORDER BY id`)
			if len(rows) != testenv.OrderCount {
				t.Fatalf("DuckDB read %d rows, want %d: %v", len(rows), testenv.OrderCount, rows)
			}
			for i, o := range testenv.Orders() {
				var lines []string
				for _, l := range o.Lines {
					lines = append(lines, fmt.Sprintf("%s:%d:%s", l.SKU, l.Qty, testenv.Decimal2(l.Price)))
				}
				// A map's entries, in key order: the order of a map's
				// entries is not part of its value.
				var tags []string
				for _, kv := range o.Tags {
					tags = append(tags, kv[0]+"="+kv[1])
				}
				sort.Strings(tags)
				coupon := o.Coupon
				if i < testenv.EvolvedFrom {
					coupon = nil // written with v1, which has no coupon
				}
				want := []any{o.ID, testenv.Decimal2(o.Amount), o.AtMicros / 1000, o.Name, derefString(o.Email),
					strings.Join(lines, ","), strings.Join(tags, ","), derefString(coupon)}
				for c, w := range want {
					if fmt.Sprint(rows[i][c]) != fmt.Sprint(w) {
						t.Errorf("order %d column %d: DuckDB read %v, the producer sent %v", o.ID, c, rows[i][c], w)
					}
				}
			}
		})
	}
}
