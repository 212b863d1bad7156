package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
)

// orderColumnsV1 declare an order of the v1 schema as a user with the
// registry's schema in hand would: the amount and the lines' prices as the
// decimals they are, the customer a struct, the lines a list of structs,
// the tags a map. typedOrderColumns add the coupon, which v2 adds.
const (
	orderColumnsV1 = `
  column "id"       { type = "int64" }
  column "status"   { type = "string" }
  column "amount"   { type = "decimal(12,2)" }
  column "at"       { type = "timestamp" }
  column "customer" { type = "struct<name:string,email:string>" }
  column "lines"    { type = "list<struct<sku:string,qty:int32,price:decimal(8,2)>>" }
  column "tags"     { type = "map<string,string>" }
`
	typedOrderColumns = orderColumnsV1 + `  column "coupon"   { type = "string" }
`
)

// registryOrderFormats are the registry's formats, each with the orders'
// schemas (v2 adds the coupon) and their records as its JavaScript client
// frames them.
var registryOrderFormats = []struct {
	name    string
	schemas func(subject string) []testenv.RegistrySchema
	records func(func(int) int32) []testenv.RegistryRecord
}{
	{"avro", testenv.AvroOrderSchemas, testenv.AvroOrderRecords},
	{"protobuf", testenv.ProtoOrderSchemas, testenv.ProtoOrderRecords},
	{"json_schema", testenv.JSONOrderSchemas, testenv.JSONOrderRecords},
}

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
	for _, tc := range registryOrderFormats {
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
				"id BIGINT lines STRUCT(sku VARCHAR, qty INTEGER, price DECIMAL(8,2))[] status VARCHAR tags MAP(VARCHAR, VARCHAR)"
			if g := strings.Join(got, " "); g != wantTypes && g != strings.ReplaceAll(wantTypes, "TIMESTAMP WITH TIME ZONE", "TIMESTAMP") {
				t.Errorf("DuckDB reads the columns as\n%s\nwant\n%s", g, wantTypes)
			}

			checkOrderRows(t, "DuckDB over the Parquet files", duckdbOrderRows(t, dir, "'out/parquet/**/*.parquet'"))
		})
	}
}
