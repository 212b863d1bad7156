package e2e

// Schema evolution through the registry: a sink whose columns come from the
// registry (columns = "from_schema") gains the column a new version adds,
// shown by plan, and writes the records of both versions of one batch into
// one file set; a version its columns cannot hold is refused by plan and
// apply before anything is written. Records are registered and framed by
// the registry's JavaScript client.

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
)

// fromSchemaConf is one parquet sink reading topic through the registry at
// url, its columns from the registry, or declared by columns.
func fromSchemaConf(brokers, topic, url, format, columns string) string {
	if columns == "" {
		columns = `  columns = "from_schema"`
	}
	return fmt.Sprintf(`
source "kafka" "orders" {
  brokers      = [%q]
  topic        = %q
  timeout      = "20s"
  value_format = %q

  schema_registry {
    url = %q
  }
}

sink "orders" {
  source = source.kafka.orders
  format = "parquet"
%s

  destination "local" "disk" {
    path = "out/disk"
  }
}
`, brokers, topic, format, url, columns)
}

// parquetFiles lists the data files under root, relative to dir.
func parquetFiles(t *testing.T, dir, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(dir, root), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") && !strings.Contains(p, "_streamctl") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// TestRegistryFromSchemaEvolves: in each format, the sink's columns are
// version 1's; version 2 adds the optional coupon mid-stream, and plan shows
// the column added; the next batch, holding records of both versions, is
// one file with the coupon column, null in the version 1 records, which
// DuckDB reads.
func TestRegistryFromSchemaEvolves(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	for _, tc := range []struct {
		name    string
		schemas func(subject string) []testenv.RegistrySchema
		records func(func(int) int32) []testenv.RegistryRecord
		// v1 counts the schemas registered up to version 1 (Protobuf's
		// references first).
		v1 int
		// columns are lines the first plan shows.
		columns []string
	}{
		{"avro", testenv.AvroOrderSchemas, testenv.AvroOrderRecords, 1, []string{"id       int64, not nullable\n", "amount   decimal(12,2), not nullable\n",
			"at       timestamp, not nullable\n", "customer struct<name:string,email:string>, not nullable\n",
			"lines    list<struct<sku:string,qty:int32,price:decimal(8,2)>>, not nullable\n", "tags     map<string,string>, not nullable\n"}},
		{"protobuf", testenv.ProtoOrderSchemas, testenv.ProtoOrderRecords, 3, []string{"id       int64, not nullable\n", "amount   json\n",
			"at       timestamp\n", "customer struct<name:string,email:string>\n",
			"lines    list<struct<sku:string,qty:int32,price:json>>, not nullable\n", "tags     map<string,string>, not nullable\n"}},
		{"json_schema", testenv.JSONOrderSchemas, testenv.JSONOrderRecords, 1, []string{"id       int64, not nullable\n", "status   json\n", "amount   string\n",
			"customer struct<name:string,email:string>\n", "lines    list<struct<sku:string,qty:int64,price:string>>\n", "tags     map<string,string>\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			topic := kafkaTopic(t, broker, 2)
			subject := topic + "-value"
			schemas := tc.schemas(subject)
			records := tc.records(func(i int) int32 { return int32(i % 2) })
			// The first apply reads version 1 records only; the second
			// batch holds two more version 1 records, then the version 2
			// ones.
			split := testenv.EvolvedFrom - 2
			testenv.ProduceWithRegistry(t, broker, reg, topic, schemas[:tc.v1], records[:split])
			dir := writeConfig(t, fromSchemaConf(broker.Addr, topic, reg.URL, tc.name, ""))

			mustRun(t, dir, 0, nil, "validate", "-no-color")
			r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
			for _, want := range append([]string{"write the columns:"}, tc.columns...) {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("the first plan lacks %q:\n%s", want, r.stdout)
				}
			}
			if strings.Contains(r.stdout, "coupon") {
				t.Errorf("the first plan shows a coupon column, which version 1 has not:\n%s", r.stdout)
			}
			applyAndSettle(t, dir, nil)
			first := parquetFiles(t, dir, "out/disk")
			if len(first) != 1 {
				t.Fatalf("the first batch wrote %v, want one file", first)
			}

			testenv.ProduceWithRegistry(t, broker, reg, topic, schemas, records[split:])
			r = mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
			for _, want := range []string{"update output settings in place", `+ column "coupon" = { type = "string" }`,
				fmt.Sprintf(`~ schema = %q version 1 → %q version 2`, subject, subject)} {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("the plan after version 2 lacks %q:\n%s", want, r.stdout)
				}
			}
			applyAndSettle(t, dir, nil)
			var added []string
			for _, f := range parquetFiles(t, dir, "out/disk") {
				if f != first[0] {
					added = append(added, f)
				}
			}
			if len(added) != 1 {
				t.Fatalf("the batch of both versions wrote %v, want one file", added)
			}

			rows := duckdb(t, dir, fmt.Sprintf(`SELECT id, coupon, customer.name FROM read_parquet('%s') ORDER BY id`, added[0]))
			orders := testenv.Orders()
			if len(rows) != testenv.OrderCount-split {
				t.Fatalf("DuckDB read %d rows from %s, want %d: %v", len(rows), added[0], testenv.OrderCount-split, rows)
			}
			for k, row := range rows {
				o := orders[split+k]
				coupon := derefString(o.Coupon)
				if split+k < testenv.EvolvedFrom {
					coupon = nil // written with version 1
				}
				if fmt.Sprint(row) != fmt.Sprint([]any{o.ID, coupon, o.Name}) {
					t.Errorf("DuckDB read %v, the producer sent id %d coupon %v name %s", row, o.ID, coupon, o.Name)
				}
			}
			// Every order once across both file sets, the older one
			// without coupon.
			rows = duckdb(t, dir, `SELECT count(*), count(DISTINCT id), count(coupon) FROM read_parquet('out/disk/**/*.parquet', union_by_name = true)`)
			wantCoupons := 0
			for _, o := range orders[testenv.EvolvedFrom:] {
				if o.Coupon != nil {
					wantCoupons++
				}
			}
			if got := fmt.Sprint(rows[0]); got != fmt.Sprint([]any{testenv.OrderCount, testenv.OrderCount, wantCoupons}) {
				t.Errorf("DuckDB counts rows, ids, coupons: %s, want [%d %d %d]", got, testenv.OrderCount, testenv.OrderCount, wantCoupons)
			}
			if s := kafkaStateFile(t, dir).Sinks["orders"]; s == nil || s.Layout == nil || s.Layout.Settings["schema"] != fmt.Sprintf("%q version 2", subject) {
				t.Errorf("the state records the layout %+v, want the schema version 2", s)
			}
		})
	}
}

// TestRegistryIncompatibleVersionRefused: a version that changes a field's
// type is refused by plan and apply, naming the subject, version and field,
// with the state, the destination and the staging area untouched; with
// declared columns too.
func TestRegistryIncompatibleVersionRefused(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	for _, tc := range []struct{ name, columns, want string }{
		{"from_schema", "", `field "id" changes type from int64 to string`},
		{"declared", `  column "id" { type = "int64" }
  column "amount" { type = "decimal(12,2)" }`, `field "id" is string, which column "id" of type int64 cannot hold`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			topic := kafkaTopic(t, broker, 2)
			subject := topic + "-value"
			schemas := testenv.AvroOrderSchemas(subject)
			records := testenv.AvroOrderRecords(func(i int) int32 { return int32(i % 2) })
			testenv.ProduceWithRegistry(t, broker, reg, topic, schemas[:1], records[:testenv.EvolvedFrom])
			dir := writeConfig(t, fromSchemaConf(broker.Addr, topic, reg.URL, "avro", tc.columns))
			applyAndSettle(t, dir, nil)

			// Version 2 makes the id a string.
			bad := schemas[0]
			bad.Schema = strings.Replace(bad.Schema, `{"name": "id", "type": "long"}`, `{"name": "id", "type": "string"}`, 1)
			rec := records[testenv.EvolvedFrom-1]
			value := map[string]any{}
			for k, v := range rec.Value.(map[string]any) {
				value[k] = v
			}
			value["id"] = "order-99"
			rec.Schema, rec.Value = 1, value
			testenv.ProduceWithRegistry(t, broker, reg, topic, []testenv.RegistrySchema{schemas[0], bad}, []testenv.RegistryRecord{rec})
			statePath := filepath.Join(dir, ".streamctl", "state.json")
			before, err := os.ReadFile(statePath)
			if err != nil {
				t.Fatal(err)
			}
			filesBefore := dataTree(t, filepath.Join(dir, "out"))
			for _, cmd := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
				r := mustRun(t, dir, 1, nil, cmd...)
				for _, want := range []string{"subject " + subject + " version 2", tc.want} {
					if !strings.Contains(r.stderr, want) {
						t.Errorf("%s: the error lacks %q:\n%s", cmd[0], want, r.stderr)
					}
				}
			}
			if after, _ := os.ReadFile(statePath); string(after) != string(before) {
				t.Errorf("the refused runs changed the state")
			}
			filesAfter := dataTree(t, filepath.Join(dir, "out"))
			if fmt.Sprint(filesAfter) != fmt.Sprint(filesBefore) {
				t.Errorf("the refused runs changed the destination: %d files before, %d after", len(filesBefore), len(filesAfter))
			}
			if _, err := os.Stat(filepath.Join(dir, "out", "disk", "_temporary")); !os.IsNotExist(err) {
				t.Errorf("the refused runs staged files under out/disk/_temporary")
			}
		})
	}
}

// TestRegistryFromSchemaPinned: a batch in flight is finished with the
// columns it was started with, though a version adding a column was
// registered since, and the next apply writes the rest with the new
// column; a saved plan writes the columns it shows, though another version
// was registered after it was made.
func TestRegistryFromSchemaPinned(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	topic := kafkaTopic(t, broker, 2)
	subject := topic + "-value"
	schemas := testenv.AvroOrderSchemas(subject)
	records := testenv.AvroOrderRecords(func(i int) int32 { return int32(i % 2) })
	testenv.ProduceWithRegistry(t, broker, reg, topic, schemas[:1], records[:testenv.EvolvedFrom])
	dir := writeConfig(t, fromSchemaConf(broker.Addr, topic, reg.URL, "avro", ""))
	columnsOf := func(file string) string {
		rows := duckdb(t, dir, fmt.Sprintf(`SELECT string_agg(column_name, ',') FROM (DESCRIBE SELECT * FROM read_parquet('%s'))`, file))
		return fmt.Sprint(rows[0][0])
	}
	const v1Columns = "id,status,amount,at,day,customer,lines,tags"

	// Killed with batch 1 (version 1 columns) staged, not committed.
	if r := run(t, dir, []string{"STREAMCTL_FAULT=after-stage:1"}, "apply", "-auto-approve", "-no-color"); !r.killed {
		t.Fatalf("the fault after-stage:1 was not reached: %s", r)
	}
	testenv.ProduceWithRegistry(t, broker, reg, topic, schemas, records[testenv.EvolvedFrom:])
	r := mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	if want := fmt.Sprintf("the batch in flight is finished with the columns of subject %s version 1 it was started with", subject); !strings.Contains(r.stdout+r.stderr, want) {
		t.Errorf("the resuming apply does not say %q:\n%s", want, r)
	}
	files := parquetFiles(t, dir, "out/disk")
	if len(files) != 1 || columnsOf(files[0]) != v1Columns {
		t.Fatalf("after the resume the destination holds %v, want one file of version 1's columns", files)
	}
	applyAndSettle(t, dir, nil)
	files = parquetFiles(t, dir, "out/disk")
	rows := duckdb(t, dir, `SELECT count(*), count(DISTINCT id) FROM read_parquet('out/disk/**/*.parquet', union_by_name = true)`)
	if len(files) != 2 || fmt.Sprint(rows[0]) != fmt.Sprint([]any{testenv.OrderCount, testenv.OrderCount}) {
		t.Fatalf("after the next apply: files %v, rows and ids %v; want 2 files and every order once", files, rows[0])
	}

	// A saved plan made with version 2 is applied after version 3 (adding
	// the optional note) is registered: it writes version 2's columns.
	more := make([]testenv.RegistryRecord, 0, 2)
	for _, rec := range records[testenv.EvolvedFrom : testenv.EvolvedFrom+2] {
		value := map[string]any{}
		for k, v := range rec.Value.(map[string]any) {
			value[k] = v
		}
		value["id"] = value["id"].(int64) + 100
		rec.Value = value
		more = append(more, rec)
	}
	testenv.ProduceWithRegistry(t, broker, reg, topic, schemas, more)
	mustRun(t, dir, 0, nil, "plan", "-out=tfplan", "-no-color")
	v3 := schemas[1]
	v3.Schema = strings.Replace(v3.Schema, `{"name": "coupon"`, `{"name": "note", "type": ["null", "string"], "default": null},
    {"name": "coupon"`, 1)
	testenv.ProduceWithRegistry(t, broker, reg, topic, []testenv.RegistrySchema{v3}, nil)
	mustRun(t, dir, 0, nil, "apply", "-no-color", "tfplan")
	var added []string
	for _, f := range parquetFiles(t, dir, "out/disk") {
		if f != files[0] && f != files[1] {
			added = append(added, f)
		}
	}
	if len(added) != 1 || columnsOf(added[0]) != v1Columns+",coupon" {
		t.Errorf("the saved plan wrote %v, want one file of version 2's columns", added)
	}
	r = mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if !strings.Contains(r.stdout, `+ column "note" = { type = "string" }`) {
		t.Errorf("the plan after version 3 does not add the note column:\n%s", r.stdout)
	}
}
