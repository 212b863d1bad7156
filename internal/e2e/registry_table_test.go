package e2e

// Schema registry topics into tables: Avro, Protobuf and JSON Schema orders
// framed by the registry's JavaScript client land in an Iceberg and a Delta
// table, the coupon column added to both when the topic's schema gains it;
// iceberg-go's scan, the Delta log's replay, DuckDB over the files each
// lists, and arrow-go over the plain Parquet files read every value back as
// the producer sent it.

import (
	"context"
	"encoding/base64"
	bigendian "encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/streamctl/streamctl/internal/delta/deltacheck"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers/local"
)

// couponColumn is the column added to the sink when the topic's schema
// gains the coupon.
const couponColumn = `  column "coupon" {
    type     = "string"
    nullable = true
  }
`

// tableSink is a sink "table" writing the orders with columns into an
// Iceberg table (out/iceberg, lake.orders) and a Delta table (out/delta).
func tableSink(columns string, maxRecords int) string {
	return fmt.Sprintf(`
sink "table" {
  source = source.kafka.orders
  format = "parquet"
%s
  batch {
    max_records = %d
  }

  destination "local" "iceberg" {
    path = "out/iceberg"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
  }

  destination "local" "delta" {
    path = "out/delta"
    table {
      format = "delta"
    }
  }
}
`, columns, maxRecords)
}

// orderTableCols are the sink's columns after the evolution, as iceberg.Open
// takes them.
func orderTableCols() []format.Column {
	return []format.Column{{Name: "id", Type: "int64"}, {Name: "status", Type: "string"}, {Name: "amount", Type: "decimal(12,2)"}, {Name: "at", Type: "timestamp"},
		{Name: "customer", Type: "struct<name:string,email:string>"},
		{Name: "lines", Type: "list<struct<sku:string,qty:int32,price:decimal(8,2)>>"},
		{Name: "tags", Type: "map<string,string>"}, {Name: "coupon", Type: "string"}}
}

// orderRowWant is order i as the row text orderRow makes of what a reader
// read, computed from the numbers the producer was given.
func orderRowWant(i int) string {
	o := testenv.Orders()[i]
	email := "NULL"
	if o.Email != nil {
		email = *o.Email
	}
	var lines []string
	for _, l := range o.Lines {
		lines = append(lines, fmt.Sprintf("{sku=%s qty=%d price=%s}", l.SKU, l.Qty, testenv.Decimal2(l.Price)))
	}
	var tags []string
	for _, kv := range o.Tags {
		tags = append(tags, kv[0]+"="+kv[1])
	}
	sort.Strings(tags)
	coupon := "NULL"
	if i >= testenv.EvolvedFrom && o.Coupon != nil {
		coupon = *o.Coupon
	}
	return fmt.Sprintf("id=%d status=%s amount=%s at=%s customer={name=%s email=%s} lines=[%s] tags=[%s] coupon=%s",
		o.ID, o.Status, testenv.Decimal2(o.Amount), time.UnixMicro(o.AtMicros).UTC().Truncate(time.Millisecond).Format(time.RFC3339Nano),
		o.Name, email, strings.Join(lines, " "), strings.Join(tags, " "), coupon)
}

// orderRow is row i of an Arrow record of orders as text: decimals with
// their scale's digits, timestamps RFC 3339 to the millisecond (a timestamp
// column's precision), struct fields by name, list items in order, map
// entries by key. A column the record lacks reads NULL, as a column added
// since its file was written does.
func orderRow(rec arrow.RecordBatch, i int) string {
	col := func(name string) string {
		idx := rec.Schema().FieldIndices(name)
		if len(idx) == 0 {
			return "NULL"
		}
		return arrowCell(rec.Column(idx[0]), i)
	}
	return fmt.Sprintf("id=%s status=%s amount=%s at=%s customer=%s lines=%s tags=%s coupon=%s",
		col("id"), col("status"), col("amount"), col("at"), col("customer"), col("lines"), col("tags"), col("coupon"))
}

func arrowCell(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "NULL"
	}
	switch a := a.(type) {
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return a.Value(i).ToTime(unit).UTC().Truncate(time.Millisecond).Format(time.RFC3339Nano)
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		var fields []string
		for f := range st.NumFields() {
			fields = append(fields, st.Field(f).Name+"="+arrowCell(a.Field(f), i))
		}
		return "{" + strings.Join(fields, " ") + "}"
	case *array.Map:
		start, end := a.ValueOffsets(i)
		var entries []string
		for k := start; k < end; k++ {
			entries = append(entries, arrowCell(a.Keys(), int(k))+"="+arrowCell(a.Items(), int(k)))
		}
		sort.Strings(entries)
		return "[" + strings.Join(entries, " ") + "]"
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		var items []string
		for k := start; k < end; k++ {
			items = append(items, arrowCell(a.ListValues(), int(k)))
		}
		return "[" + strings.Join(items, " ") + "]"
	}
	return a.ValueStr(i)
}

// checkOrderRows compares rows (keyed by their text, as read) with every
// order the producer sent, each once.
func checkOrderRows(t *testing.T, reader string, rows []string) {
	t.Helper()
	want := make([]string, testenv.OrderCount)
	for i := range want {
		want[i] = orderRowWant(i)
	}
	sort.Strings(want)
	sort.Strings(rows)
	if got := strings.Join(rows, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("%s reads the orders as\n%s\nthe producer sent\n%s", reader, got, strings.Join(want, "\n"))
	}
}

// orderRowsSQL is the DuckDB query that reads the orders of src as the rows
// orderRow makes.
func orderRowsSQL(src string) string {
	return `SELECT 'id=' || id || ' status=' || status || ' amount=' || CAST(amount AS VARCHAR) || ' at=' || strftime(timezone('UTC', "at"::TIMESTAMPTZ), '%Y-%m-%dT%H:%M:%S.%gZ') ||
		' customer={name=' || customer.name || ' email=' || coalesce(customer.email, 'NULL') || '}' ||
		' lines=[' || array_to_string(list_transform(lines, l -> '{sku=' || l.sku || ' qty=' || l.qty || ' price=' || CAST(l.price AS VARCHAR) || '}'), ' ') || ']' ||
		' tags=[' || array_to_string(list_sort(list_transform(map_entries(tags), e -> e."key" || '=' || e."value")), ' ') || ']' ||
		' coupon=' || coalesce(coupon, 'NULL')
		FROM read_parquet(` + src + `, union_by_name = true)`
}

func duckdbOrderRows(t *testing.T, dir, src string) []string {
	t.Helper()
	var rows []string
	for _, r := range duckdb(t, dir, orderRowsSQL(src)) {
		rows = append(rows, fmt.Sprint(r[0]))
	}
	return rows
}

func quotedList(paths []string) string {
	var q []string
	for _, p := range paths {
		q = append(q, "'"+p+"'")
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// scanOrderTable reads the Iceberg table of tableSink in dir with
// iceberg-go's scan, each row as orderRow makes it, and the data files its
// current snapshot lists.
func scanOrderTable(t *testing.T, dir string) (rows, files []string) {
	t.Helper()
	ctx := context.Background()
	tb, err := iceberg.Open(ctx, iceberg.Config{Namespace: []string{"lake"}, Table: "orders",
		Location: "file://" + filepath.ToSlash(filepath.Join(dir, "out", "iceberg")), Columns: orderTableCols()})
	if err != nil {
		t.Fatalf("open the Iceberg table: %v", err)
	}
	defer tb.Close()
	scanRecords(t, tb, func(rec arrow.RecordBatch) {
		for i := range int(rec.NumRows()) {
			rows = append(rows, orderRow(rec, i))
		}
	})
	urls, err := tb.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range urls {
		files = append(files, strings.TrimPrefix(u, "file://"))
	}
	return rows, files
}

// replayDeltaFiles replays the Delta log of tableSink in dir and returns the
// paths of the files its snapshot lists, and its schema's fields.
func replayDeltaFiles(t *testing.T, dir string) (files, fields []string) {
	t.Helper()
	root := filepath.Join(dir, "out", "delta")
	tb, err := deltacheck.Replay(context.Background(), local.New(root))
	if err != nil {
		t.Fatalf("the Delta log breaks the protocol: %v", err)
	}
	for _, f := range tb.Files {
		files = append(files, filepath.Join(root, filepath.FromSlash(f.Key)))
	}
	return files, tb.SchemaFields
}

// readParquetWithArrow reads every Parquet data file under root with
// arrow-go's pqarrow, each row as orderRow makes it.
func readParquetWithArrow(t *testing.T, root string) []string {
	t.Helper()
	var rows []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, "_streamctl") || !strings.HasSuffix(p, ".parquet") {
			return err
		}
		pf, err := file.OpenParquetFile(p, false)
		if err != nil {
			return fmt.Errorf("open %s: %w", p, err)
		}
		defer pf.Close()
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 3}, memory.DefaultAllocator)
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		rr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		defer rr.Release()
		for rr.Next() {
			rec := rr.RecordBatch()
			for i := range int(rec.NumRows()) {
				rows = append(rows, orderRow(rec, i))
			}
		}
		return rr.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestRegistryTableIcebergDelta lands Avro, Protobuf and JSON Schema orders
// in an Iceberg and a Delta table: the v1 records first, then the v2 ones
// with the coupon column added to the sink (plan shows it added to both
// tables, nullable). iceberg-go's scan, DuckDB over the files it lists,
// DuckDB over the files the Delta log's replay lists, and arrow-go over a
// plain Parquet sink of the same records read every order once, every value
// as the producer sent it: decimals exact, nested fields intact, no coupon
// in the records written before it existed.
func TestRegistryTableIcebergDelta(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	byPartition := func(i int) int32 { return int32(i % 2) }
	for _, tc := range registryOrderFormats {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			topic := kafkaTopic(t, broker, 2)
			schemas, records := tc.schemas(topic+"-value"), tc.records(byPartition)
			conf := func(columns string) string {
				return registryConf(registryOpts{Brokers: broker.Addr, Topic: topic, URL: reg.URL, Format: tc.name, ParquetColumns: columns}) +
					tableSink(columns, 3)
			}
			// The v1 records, into tables without the coupon.
			testenv.ProduceWithRegistry(t, broker, reg, topic, schemas, records[:testenv.EvolvedFrom])
			dir := writeConfig(t, conf(orderColumnsV1))
			applyAndSettle(t, dir, nil)

			// The v2 records, with the coupon: plan adds it to both
			// tables before anything is written.
			testenv.ProduceWithRegistry(t, broker, reg, topic, schemas, records[testenv.EvolvedFrom:])
			if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(conf(orderColumnsV1+couponColumn)), 0o644); err != nil {
				t.Fatal(err)
			}
			r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
			for _, want := range []*regexp.Regexp{
				regexp.MustCompile(`\n  ~ iceberg table lake\.orders: add column coupon \(string, optional\)\n`),
				regexp.MustCompile(`\n  ~ Delta table \S+: add column coupon \(string, nullable\)\n`),
			} {
				if !want.MatchString(r.stdout) {
					t.Errorf("plan with the coupon column added lacks %s:\n%s", want, r.stdout)
				}
			}
			applyAndSettle(t, dir, nil)

			rows, icebergFiles := scanOrderTable(t, dir)
			checkOrderRows(t, "iceberg-go's scan of the Iceberg table", rows)
			checkOrderRows(t, "DuckDB over the Iceberg snapshot's files", duckdbOrderRows(t, dir, quotedList(icebergFiles)))

			deltaFiles, fields := replayDeltaFiles(t, dir)
			if !slices.Contains(fields, "coupon:string") {
				t.Errorf("the Delta table's schema after the evolution: %v, want a coupon:string field", fields)
			}
			checkOrderRows(t, "DuckDB over the Delta snapshot's files", duckdbOrderRows(t, dir, quotedList(deltaFiles)))

			checkOrderRows(t, "arrow-go (pqarrow) over the Parquet files", readParquetWithArrow(t, filepath.Join(dir, "out", "parquet")))
			checkOrderRows(t, "DuckDB over the Parquet files", duckdbOrderRows(t, dir, "'out/parquet/**/*.parquet'"))
		})
	}
}

// eventsTableConf reads topic's Avro events through reg into the JSONL of
// registryConf and into an Iceberg table (out/iceberg, lake.events), in
// batches of 200 and files of 70.
func eventsTableConf(broker *testenv.KafkaBroker, topic string, reg *testenv.SchemaRegistry) string {
	return registryConf(registryOpts{Brokers: broker.Addr, Topic: topic, URL: reg.URL, Format: "avro", MaxRecords: 200, MaxFileRecords: 70}) + `
sink "table" {
  source           = source.kafka.orders
  format           = "parquet"
  max_file_records = 70

  column "id"   { type = "int64" }
  column "note" { type = "string" }

  batch {
    max_records = 200
  }

  destination "local" "iceberg" {
    path = "out/iceberg"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "events"
    }
  }
}
`
}

// TestRegistryTableCrashAtEveryFaultPoint: an Avro topic into an Iceberg
// table, killed at each point of the protocol around the table commit,
// then applied again: iceberg-go's scan finds every record once, one
// snapshot per batch, and the JSONL of the same topic agrees.
func TestRegistryTableCrashAtEveryFaultPoint(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	for _, fp := range icebergFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			topic := kafkaTopic(t, broker, 3)
			prod := newAvroIDProducer(t, broker, reg, topic)
			p := newProducedIDs()
			prod.produce(t, broker, topic, p, 1, 1000, 3)
			dir := writeConfig(t, eventsTableConf(broker, topic, reg))
			r := run(t, dir, []string{"STREAMCTL_FAULT=" + fp}, "apply", "-auto-approve", "-no-color")
			if !r.killed {
				t.Fatalf("the fault %s was not reached: %s", fp, r)
			}
			applyAndSettle(t, dir, nil)
			mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
			assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "jsonl")), p.want())
			checkEventsTable(t, dir, p.want())
		})
	}
}

// TestRegistryTableRandomKills kills apply with SIGKILL at random (seeded)
// moments while an Avro topic keeps growing, into an Iceberg table and a
// plain JSONL destination, then lets it finish: iceberg-go's scan finds
// every record exactly once, and each snapshot adds one whole batch.
func TestRegistryTableRandomKills(t *testing.T) {
	t.Parallel()
	const kills = 8
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	topic := kafkaTopic(t, broker, 3)
	prod := newAvroIDProducer(t, broker, reg, topic)
	dir := writeConfig(t, eventsTableConf(broker, topic, reg))
	p := newProducedIDs()
	interrupted, inFlight := killKafkaApplies(t, kafkaKills{
		dir: dir, sink: "table", seed: 20261204, stream: 3131, kills: kills, attempts: 100,
		produce: func(first, n int64) { prod.produce(t, broker, topic, p, first, n, 3) },
	})
	applyAndSettle(t, dir, nil)
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "jsonl")), p.want())

	want := p.want()
	checkEventsTable(t, dir, want)
	if inFlight < 2 {
		t.Errorf("only %d of %d kills left the table's batch in flight: the kills missed the commit protocol", inFlight, interrupted)
	}
	t.Logf("%d kills, %d of them with the table's batch in flight; %d records", interrupted, inFlight, len(want))
}

// checkEventsTable reads the Iceberg table of TestRegistryTableRandomKills
// with iceberg-go: every id of want once and no other, each note the one
// produced with it, one snapshot per committed batch adding its records.
func checkEventsTable(t *testing.T, dir string, want map[int64]bool) {
	t.Helper()
	ctx := context.Background()
	tb, err := iceberg.Open(ctx, iceberg.Config{Namespace: []string{"lake"}, Table: "events",
		Location: "file://" + filepath.ToSlash(filepath.Join(dir, "out", "iceberg")),
		Columns:  []format.Column{{Name: "id", Type: "int64"}, {Name: "note", Type: "string"}}})
	if err != nil {
		t.Fatalf("open the Iceberg table: %v", err)
	}
	defer tb.Close()
	seen := map[int64]int{}
	scanRecords(t, tb, func(rec arrow.RecordBatch) {
		ids := rec.Column(rec.Schema().FieldIndices("id")[0]).(*array.Int64)
		notes := rec.Column(rec.Schema().FieldIndices("note")[0])
		for i := range ids.Len() {
			id := ids.Value(i)
			seen[id]++
			if got := arrowCell(notes, i); got != fmt.Sprintf("event %d", id) {
				t.Errorf("record %d's note in the table: %q", id, got)
			}
		}
	})
	checkIDsOnce(t, "iceberg-go's scan", seen, want)
	manifests, err := engine.ReadManifests(ctx, local.New(filepath.Join(dir, "out", "iceberg")), "table", 0)
	if err != nil {
		t.Fatal(err)
	}
	ms := map[string]int64{}
	for _, m := range manifests {
		ms[strconv.FormatInt(m.Batch, 10)] = m.Records
	}
	snaps := tb.Iceberg().Metadata().Snapshots()
	if len(snaps) != len(ms) {
		t.Errorf("%d snapshots for %d committed batches", len(snaps), len(ms))
	}
	for _, s := range snaps {
		batch := s.Summary.Properties[iceberg.PropBatch]
		if added := s.Summary.Properties["added-records"]; fmt.Sprint(ms[batch]) != added {
			t.Errorf("snapshot %d (batch %q) adds %s records, its batch has %d", s.SnapshotID, batch, added, ms[batch])
		}
	}
}

// spanAvro is an Avro schema of the logical types Avro 1.12 added or that
// take a fixed: a timestamp and a local timestamp to the nanosecond, a
// duration and a uuid.
const spanAvro = `{"type": "record", "name": "Span", "namespace": "trace", "fields": [
  {"name": "id", "type": "long"},
  {"name": "at", "type": {"type": "long", "logicalType": "timestamp-nanos"}},
  {"name": "local", "type": {"type": "long", "logicalType": "local-timestamp-nanos"}},
  {"name": "took", "type": {"type": "fixed", "name": "Took", "size": 12, "logicalType": "duration"}},
  {"name": "trace", "type": {"type": "fixed", "name": "Trace", "size": 16, "logicalType": "uuid"}}]}`

// TestRegistryAvroLogicalTypesLand: records of spanAvro, framed by the
// registry's JavaScript client, land as JSONL (each line the JSON the
// mapping table gives, computed here from what the producer was given) and
// in an Iceberg table's timestamp and string columns, which iceberg-go's
// scan and DuckDB read back.
func TestRegistryAvroLogicalTypesLand(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	topic := kafkaTopic(t, broker, 1)
	const n = 6
	var records []testenv.RegistryRecord
	var wantLines, wantRows []string
	for i := range int64(n) {
		// Nanoseconds the client encodes exactly: it takes a long as a
		// JavaScript number and zig-zags it in floating point, exact
		// only below 2^52 either side of zero.
		ns := int64(3_000_000_000_000_123) + i*1_000_000_001 - 3*i*i*1_000_000_000_000
		months, days, millis := uint32(i*7), uint32(i*31%29), uint32(i*1_234_567)
		took := bigendian.LittleEndian.AppendUint32(nil, months)
		took = bigendian.LittleEndian.AppendUint32(took, days)
		took = bigendian.LittleEndian.AppendUint32(took, millis)
		trace := make([]byte, 16)
		for k := range trace {
			trace[k] = byte(int(i)*16 + k*11)
		}
		records = append(records, testenv.RegistryRecord{Value: map[string]any{
			"id": i, "at": ns, "local": -ns, "took": testenv.Bytes(took), "trace": testenv.Bytes(trace),
		}})
		at, local := time.Unix(0, ns).UTC(), time.Unix(0, -ns).UTC()
		tookText := fmt.Sprintf("P%dM%dDT%d.%03dS", months, days, millis/1000, millis%1000)
		traceText := fmt.Sprintf("%x-%x-%x-%x-%x", trace[0:4], trace[4:6], trace[6:8], trace[8:10], trace[10:16])
		wantLines = append(wantLines, fmt.Sprintf(`{"id":%d,"at":%q,"local":%q,"took":%q,"trace":%q}`, i,
			at.Format("2006-01-02T15:04:05.000000000Z"), local.Format("2006-01-02T15:04:05.000000000Z"), tookText, traceText))
		wantRows = append(wantRows, fmt.Sprintf("%d %d %s %s %s", i, at.UnixMilli(), at.Format("2006-01-02T15:04:05.000000000Z"), tookText, traceText))
	}
	testenv.ProduceWithRegistry(t, broker, reg, topic, []testenv.RegistrySchema{{Subject: topic + "-value", Type: "AVRO", Schema: spanAvro}}, records)
	columns := `
  column "id"      { type = "int64" }
  column "at"      { type = "timestamp" }
  column "at_text" {
    type = "string"
    from = "at"
  }
  column "took"    { type = "string" }
  column "trace"   { type = "string" }
`
	dir := writeConfig(t, registryConf(registryOpts{Brokers: broker.Addr, Topic: topic, URL: reg.URL, Format: "avro"})+`
sink "table" {
  source = source.kafka.orders
  format = "parquet"
`+columns+`
  destination "local" "iceberg" {
    path = "out/iceberg"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "spans"
    }
  }
}
`)
	applyAndSettle(t, dir, nil)

	lines := jsonlLines(t, filepath.Join(dir, "out", "jsonl"))
	sort.Strings(lines)
	sort.Strings(wantLines)
	if got, want := strings.Join(lines, "\n"), strings.Join(wantLines, "\n"); got != want {
		t.Errorf("JSONL lines:\n%s\nwant:\n%s", got, want)
	}

	ctx := context.Background()
	tb, err := iceberg.Open(ctx, iceberg.Config{Namespace: []string{"lake"}, Table: "spans",
		Location: "file://" + filepath.ToSlash(filepath.Join(dir, "out", "iceberg")),
		Columns: []format.Column{{Name: "id", Type: "int64"}, {Name: "at", Type: "timestamp"}, {Name: "at_text", Type: "string"},
			{Name: "took", Type: "string"}, {Name: "trace", Type: "string"}}})
	if err != nil {
		t.Fatalf("open the Iceberg table: %v", err)
	}
	defer tb.Close()
	var scanned []string
	scanRecords(t, tb, func(rec arrow.RecordBatch) {
		col := func(name string) arrow.Array { return rec.Column(rec.Schema().FieldIndices(name)[0]) }
		for i := range int(rec.NumRows()) {
			at := col("at").(*array.Timestamp)
			ms := at.Value(i).ToTime(at.DataType().(*arrow.TimestampType).Unit).UnixMilli()
			scanned = append(scanned, fmt.Sprintf("%s %d %s %s %s", arrowCell(col("id"), i), ms, arrowCell(col("at_text"), i), arrowCell(col("took"), i), arrowCell(col("trace"), i)))
		}
	})
	files, err := tb.Files(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range files {
		files[i] = strings.TrimPrefix(files[i], "file://")
	}
	var read []string
	for _, r := range duckdb(t, dir, `SELECT id || ' ' || epoch_ms("at") || ' ' || at_text || ' ' || took || ' ' || trace FROM read_parquet(`+quotedList(files)+`)`) {
		read = append(read, fmt.Sprint(r[0]))
	}
	sort.Strings(wantRows)
	for name, rows := range map[string][]string{"iceberg-go's scan": scanned, "DuckDB over the snapshot's files": read} {
		sort.Strings(rows)
		if got, want := strings.Join(rows, "\n"), strings.Join(wantRows, "\n"); got != want {
			t.Errorf("%s reads\n%s\nwant\n%s", name, got, want)
		}
	}
}

// The well-known types the registry's JavaScript client needs the text of,
// registered as references under their import paths, as Confluent's
// serializers register them.
var wellKnownRefs = []testenv.RegistrySchema{
	{Subject: "google/protobuf/duration.proto", Type: "PROTOBUF", Schema: `syntax = "proto3";
package google.protobuf;
message Duration {
  int64 seconds = 1;
  int32 nanos = 2;
}
`},
	{Subject: "google/protobuf/struct.proto", Type: "PROTOBUF", Schema: `syntax = "proto3";
package google.protobuf;
message Struct {
  map<string, Value> fields = 1;
}
message Value {
  oneof kind {
    NullValue null_value = 1;
    double number_value = 2;
    string string_value = 3;
    bool bool_value = 4;
    Struct struct_value = 5;
    ListValue list_value = 6;
  }
}
enum NullValue {
  NULL_VALUE = 0;
}
message ListValue {
  repeated Value values = 1;
}
`},
	{Subject: "google/protobuf/wrappers.proto", Type: "PROTOBUF", Schema: `syntax = "proto3";
package google.protobuf;
message Int64Value {
  int64 value = 1;
}
message StringValue {
  string value = 1;
}
`},
	{Subject: "google/protobuf/any.proto", Type: "PROTOBUF", Schema: `syntax = "proto3";
package google.protobuf;
message Any {
  string type_url = 1;
  bytes value = 2;
}
`},
	{Subject: "google/protobuf/timestamp.proto", Type: "PROTOBUF", Schema: `syntax = "proto3";
package google.protobuf;
message Timestamp {
  int64 seconds = 1;
  int32 nanos = 2;
}
`},
}

const wellKnownEventProto = `syntax = "proto3";
package shop;
import "google/protobuf/duration.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/wrappers.proto";
import "google/protobuf/any.proto";
import "google/protobuf/timestamp.proto";

message Event {
  int64 id = 1;
  google.protobuf.Duration took = 2;
  google.protobuf.Struct attrs = 3;
  google.protobuf.Value extra = 4;
  google.protobuf.Int64Value count = 5;
  google.protobuf.StringValue label = 6;
  google.protobuf.Any payload = 7;
  google.protobuf.Timestamp at = 8;
}
`

// TestRegistryProtoWellKnownTypesLand: Protobuf records with Duration,
// Struct, Value, wrappers (set to a default value, set, and unset), Any and
// Timestamp, encoded by the registry's JavaScript client, land as JSONL
// (each line the JSON the mapping table gives for what the producer was
// given) and as Parquet, where DuckDB reads an unset wrapper as NULL and
// one set to its default as that value, and the Struct as its JSON.
func TestRegistryProtoWellKnownTypesLand(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	reg := testenv.StartSchemaRegistry(t)
	topic := kafkaTopic(t, broker, 1)
	var refs []testenv.RegistryReference
	for _, r := range wellKnownRefs {
		refs = append(refs, testenv.RegistryReference{Name: r.Subject, Subject: r.Subject, Version: 1})
	}
	schemas := append(slices.Clone(wellKnownRefs), testenv.RegistrySchema{Subject: topic + "-value", Type: "PROTOBUF", Schema: wellKnownEventProto, References: refs})
	// Durations as the producer gives them, and their text by Protobuf's
	// JSON mapping.
	durations := []struct {
		seconds, nanos int64
		text           string
	}{{90, 0, "90s"}, {-1, -500_000_000, "-1.500s"}, {3, 5000, "3.000005s"}, {0, 7, "0.000000007s"}, {0, 0, "0s"}, {315_576_000_000, 0, "315576000000s"}}
	var records []testenv.RegistryRecord
	var wantLines, wantRows []string
	for i, d := range durations {
		v := map[string]any{
			"id":   i,
			"took": map[string]any{"seconds": d.seconds, "nanos": d.nanos},
			"attrs": map[string]any{"fields": map[string]any{
				"z": map[string]any{"numberValue": 1.5},
				"a": map[string]any{"listValue": map[string]any{"values": []any{
					map[string]any{"stringValue": "x"}, map[string]any{"boolValue": true}, map[string]any{"nullValue": 0}}}},
				"n": map[string]any{"structValue": map[string]any{"fields": map[string]any{"k": map[string]any{"stringValue": fmt.Sprint("v", i)}}}},
			}},
			"payload": map[string]any{"typeUrl": "type.googleapis.com/shop.Thing", "value": testenv.Bytes([]byte{1, 2, byte(i)})},
			"at":      map[string]any{"seconds": 1772600767 + i, "nanos": 123456789},
		}
		extra := `-0.25`
		if i%2 == 0 {
			v["extra"] = map[string]any{"stringValue": fmt.Sprint(`é"`, i)}
			extra = fmt.Sprintf(`"é\"%d"`, i)
		} else {
			v["extra"] = map[string]any{"numberValue": -0.25}
		}
		count := "null"
		if i%2 == 0 {
			v["count"] = map[string]any{"value": i * 1_000_000_000_000_000}
			count = fmt.Sprint(i * 1_000_000_000_000_000)
		}
		label := "null"
		switch i % 3 {
		case 0:
			v["label"] = map[string]any{"value": ""}
			label = `""`
		case 1:
			v["label"] = map[string]any{"value": "L1"}
			label = `"L1"`
		}
		records = append(records, testenv.RegistryRecord{Schema: len(schemas) - 1, Value: v})
		attrs := fmt.Sprintf(`{"a":["x",true,null],"n":{"k":"v%d"},"z":1.5}`, i)
		at := time.Unix(int64(1772600767+i), 123456789).UTC()
		payload := `{"@type":"type.googleapis.com/shop.Thing","value":"` + base64.StdEncoding.EncodeToString([]byte{1, 2, byte(i)}) + `"}`
		wantLines = append(wantLines, fmt.Sprintf(`{"id":%d,"took":%q,"attrs":%s,"extra":%s,"count":%s,"label":%s,"payload":%s,"at":%q}`,
			i, d.text, attrs, extra, count, label, payload, at.Format("2006-01-02T15:04:05.000000000Z")))
		wantRows = append(wantRows, fmt.Sprintf("%d|%s|%s|%s|%s|%s|%d", i, d.text, attrs, strings.ReplaceAll(count, "null", "NULL"),
			strings.Trim(strings.ReplaceAll(label, "null", "NULL"), `"`), payload, at.UnixMilli()))
	}
	testenv.ProduceWithRegistry(t, broker, reg, topic, schemas, records)
	dir := writeConfig(t, registryConf(registryOpts{Brokers: broker.Addr, Topic: topic, URL: reg.URL, Format: "protobuf", ParquetColumns: `
  column "id"      { type = "int64" }
  column "took"    { type = "string" }
  column "attrs"   { type = "json" }
  column "count"   { type = "int64" }
  column "label"   { type = "string" }
  column "payload" { type = "json" }
  column "at"      { type = "timestamp" }
`}))
	applyAndSettle(t, dir, nil)

	lines := jsonlLines(t, filepath.Join(dir, "out", "jsonl"))
	sort.Strings(lines)
	sort.Strings(wantLines)
	if got, want := strings.Join(lines, "\n"), strings.Join(wantLines, "\n"); got != want {
		t.Errorf("JSONL lines:\n%s\nwant:\n%s", got, want)
	}
	var rows []string
	for _, r := range duckdb(t, dir, `SELECT id || '|' || took || '|' || CAST(attrs AS VARCHAR) || '|' || coalesce(CAST("count" AS VARCHAR), 'NULL') || '|' ||
			coalesce(label, 'NULL') || '|' || CAST(payload AS VARCHAR) || '|' || epoch_ms("at") FROM read_parquet('out/parquet/**/*.parquet') ORDER BY id`) {
		rows = append(rows, fmt.Sprint(r[0]))
	}
	sort.Strings(wantRows)
	if got, want := strings.Join(rows, "\n"), strings.Join(wantRows, "\n"); got != want {
		t.Errorf("DuckDB over the Parquet files reads\n%s\nwant\n%s", got, want)
	}
}
