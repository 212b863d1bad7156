package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
)

// icebergConfig is a generated stream of 3 partitions × var.records, in
// batches of 1500 records and files of 500, as Parquet, into a local
// destination that also commits an Iceberg table (SQLite catalog in its
// folder) and a plain Hive-folder destination, in the same batches.
const icebergConfig = `
variable "records" {
  type    = number
  default = 2000
}

source "generate" "orders" {
  partitions            = 3
  records_per_partition = var.records
  payload_bytes         = 8
}

sink "orders" {
  source       = source.generate.orders
  format       = "parquet"
  partition_by = ["day(ts)"]

  column "id" {
    type = "int64"
  }
  column "ts" {
    type = "timestamp"
  }
  column "country" {
    type = "string"
  }
  column "amount" {
    type = "double"
  }

  max_file_records = 500

  batch {
    max_records = 1500
  }

  destination "local" "table" {
    path = "out/table"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
  }

  destination "local" "folder" {
    path = "out/folder"
  }
}
`

var icebergFaultPoints = []string{
	"after-stage",
	"after-promote-file:2",
	"before-table-commit",
	"before-table-commit:2",
	"after-table-commit",
	"after-table-commit:3",
	"table-catalog-commit:2",
	"after-manifest:1",
	"before-state-commit:2",
}

// TestIcebergCrashAtEveryFaultPoint: killed at each point of the protocol
// around the table commit, then applied again, the table read through
// iceberg-go holds every record exactly once, each snapshot adds exactly one
// whole batch (no snapshot ever exposed part of one), and the Hive-folder
// destination of the same batches agrees. With each server of the SQL
// catalog: SQLite in the destination's folder, and PostgreSQL.
func TestIcebergCrashAtEveryFaultPoint(t *testing.T) {
	for _, catalog := range []string{"sqlite", "postgres"} {
		t.Run(catalog, func(t *testing.T) {
			for _, fp := range icebergFaultPoints {
				t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
					t.Parallel()
					uri := ""
					if catalog == "postgres" {
						uri = testenv.Postgres(t)
					}
					dir := writeConfig(t, icebergConfigWith(uri))
					r := run(t, dir, []string{"STREAMCTL_FAULT=" + fp}, "apply", "-auto-approve", "-no-color")
					if !r.killed {
						t.Fatalf("the fault %s was not reached: %s", fp, r)
					}
					mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
					mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
					want := expectedIDs(3, 2000)
					if got := fmt.Sprint(duckdb(t, dir, `SELECT count(*), count(DISTINCT id) FROM read_parquet('out/folder/**/*.parquet')`)); got != "[[6000 6000]]" {
						t.Errorf("the Hive-folder destination: %s (want 6000 records, each once)", got)
					}
					checkTable(t, dir, uri, want)
				})
			}
		})
	}
}

// icebergConfigWith is icebergConfig with the table's catalog at uri
// (empty: the default, SQLite in the destination's folder).
func icebergConfigWith(uri string) string {
	if uri == "" {
		return icebergConfig
	}
	return strings.Replace(icebergConfig, `      format    = "iceberg"
`, fmt.Sprintf("      format    = \"iceberg\"\n      uri       = %q\n", uri), 1)
}

// checkTable reads the table of icebergConfig, its catalog at uri, back
// through iceberg-go.
func checkTable(t *testing.T, dir, uri string, want map[int64]bool) {
	t.Helper()
	checkSinkTable(t, dir, uri, "orders", want)
}

// checkSinkTable is checkTable for icebergConfig with its sink and its
// table named name.
func checkSinkTable(t *testing.T, dir, uri, name string, want map[int64]bool) {
	t.Helper()
	ctx := context.Background()
	location := "file://" + filepath.ToSlash(filepath.Join(dir, "out", "table"))
	tb := openIcebergOrders(t, iceberg.Config{URI: uri, Table: name, Location: location})
	defer tb.Close()
	// DuckDB, reading the current snapshot's data files as iceberg-go lists
	// them, agrees with iceberg-go's scan.
	checkScan(t, dir, tb, nil, location, want)

	// Each snapshot adds one whole batch: the records its manifest counts.
	ms, err := engine.ReadManifests(ctx, local.New(filepath.Join(dir, "out", "table")), name, 0)
	if err != nil {
		t.Fatal(err)
	}
	batches := map[string]int64{}
	for _, m := range ms {
		batches[strconv.FormatInt(m.Batch, 10)] = m.Records
	}
	snaps := tb.Iceberg().Metadata().Snapshots()
	if len(snaps) != len(ms) {
		t.Errorf("%d snapshots for %d committed batches", len(snaps), len(ms))
	}
	for _, s := range snaps {
		if got := s.Summary.Properties[iceberg.PropSink]; got != name {
			t.Errorf("snapshot %d of table %s records sink %q", s.SnapshotID, name, got)
		}
		batch := s.Summary.Properties[iceberg.PropBatch]
		added := s.Summary.Properties["added-records"]
		if fmt.Sprint(batches[batch]) != added {
			t.Errorf("snapshot %d (batch %q) adds %s records, its batch has %d", s.SnapshotID, batch, added, batches[batch])
		}
	}
}

// TestIcebergOnS3CrashAtEveryFaultPoint: the same with the table in S3
// (versitygw), its catalog a SQLite file beside the configuration.
func TestIcebergOnS3CrashAtEveryFaultPoint(t *testing.T) {
	srv := testenv.S3(t)
	for i, fp := range icebergFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			bucket := bucketName("ice-", i, "-", fp)
			srv.CreateBucket(t, bucket)
			dest := s3TableDestination(srv, "table", bucket, "lake/orders", remoteTableBlock)
			crashRemoteTable(t, fp, dest, srv.Env(), s3Storage(t, srv, bucket, "lake/orders"), "s3://"+bucket+"/lake/orders",
				s3TableProps(srv))
		})
	}
}

// TestIcebergOnAzureCrashAtEveryFaultPoint: the same with the table in Azure
// Blob Storage (Azurite), through iceberg-go's Azure IO.
func TestIcebergOnAzureCrashAtEveryFaultPoint(t *testing.T) {
	az := testenv.Azurite(t)
	for i, fp := range icebergFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			container := bucketName("ice-", i, "-", fp)
			az.CreateContainer(t, container)
			crashRemoteTable(t, fp, azDestination(az, "table", container, "lake/orders", remoteTableBlock), az.Env(),
				azStorage(t, az, container, "lake/orders"), "wasb://"+container+"@"+az.AccountName+".blob.core.windows.net/lake/orders",
				map[string]string{"adls.endpoint": fmt.Sprintf("127.0.0.1:%d", az.Port), "adls.protocol": "http",
					"adls.auth.shared-key.account.name": az.AccountName, "adls.auth.shared-key.account.key": az.AccountKey})
		})
	}
}

// remoteTableBlock is the table of a destination on an object store: its
// catalog a SQLite file beside the configuration.
const remoteTableBlock = `    table {
      format    = "iceberg"
      uri       = "catalog.db"
      namespace = "lake"
      name      = "orders"
    }`

// crashRemoteTable runs icebergConfig with dest (a destination "table" on
// an object store, with a table block) in place of its local table: killed
// at fp, then applied again, the table at location, read through iceberg-go
// with props, holds every record once, as do the files its scan lists read
// by DuckDB, and one snapshot per committed batch (checkRemoteTable).
func crashRemoteTable(t *testing.T, fp, dest string, env []string, store providers.Storage, location string, props map[string]string) {
	t.Helper()
	dir := writeConfig(t, withTableDestination(icebergConfig, dest))
	r := run(t, dir, append([]string{"STREAMCTL_FAULT=" + fp}, env...), "apply", "-auto-approve", "-no-color")
	if !r.killed {
		t.Fatalf("the fault %s was not reached: %s", fp, r)
	}
	mustRun(t, dir, 0, env, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, env, "plan", "-detailed-exitcode", "-no-color")
	checkRemoteTable(t, dir, filepath.Join(dir, "catalog.db"), location, props, store, expectedIDs(3, 2000))
}

// checkScan checks the current snapshot of tb, at location: iceberg-go's
// scan holds every record of want once, and so do the data files the scan
// lists, read by DuckDB (copied out of store, rooted at location, when the
// table is not on local disk).
func checkScan(t *testing.T, dir string, tb *iceberg.Table, store providers.Storage, location string, want map[int64]bool) {
	t.Helper()
	checkIDsOnce(t, "iceberg-go's scan", scanIDs(t, tb), want)
	files, err := tb.Files(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(location, "file://") {
		duckdbOverStoredFiles(t, dir, store, location, files, len(want))
		return
	}
	var quoted []string
	for _, f := range files {
		quoted = append(quoted, "'"+strings.TrimPrefix(f, "file://")+"'")
	}
	if got := fmt.Sprint(duckdb(t, dir, "SELECT count(*), count(DISTINCT id) FROM read_parquet(["+strings.Join(quoted, ", ")+"])")); got != fmt.Sprintf("[[%d %d]]", len(want), len(want)) {
		t.Errorf("DuckDB over the snapshot's %d files: %s, want %d records each once", len(files), got, len(want))
	}
}

// icebergOrdersColumns are icebergConfig's columns, as iceberg.Open takes
// them.
var icebergOrdersColumns = []format.Column{{Name: "id", Type: "int64"}, {Name: "ts", Type: "timestamp"},
	{Name: "country", Type: "string"}, {Name: "amount", Type: "double"}}

// openIcebergOrders opens the table of icebergConfig (or a variant) with
// iceberg-go: cfg says where it is (Location; URI and Properties for a
// catalog or files elsewhere than the local disk) and, when it is not
// orders, its name; extra are columns declared after icebergConfig's.
func openIcebergOrders(t *testing.T, cfg iceberg.Config, extra ...format.Column) *iceberg.Table {
	t.Helper()
	cfg.Namespace = []string{"lake"}
	if cfg.Table == "" {
		cfg.Table = "orders"
	}
	cfg.Columns = append(slices.Clip(icebergOrdersColumns), extra...)
	cfg.PartitionBy = []string{"day(ts)"}
	tb, err := iceberg.Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("open the table: %v", err)
	}
	return tb
}

// scanRecords calls fn with each Arrow record of the table's current
// snapshot, as iceberg-go's scan reads them.
func scanRecords(t *testing.T, tb *iceberg.Table, fn func(rec arrow.RecordBatch)) {
	t.Helper()
	_, it, err := tb.Iceberg().Scan().ToArrowRecords(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for rec, err := range it {
		if err != nil {
			t.Fatal(err)
		}
		fn(rec)
		rec.Release()
	}
}

// scanIDs counts each id the table's current snapshot holds, read by iceberg-go.
func scanIDs(t *testing.T, tb *iceberg.Table) map[int64]int {
	t.Helper()
	seen := map[int64]int{}
	scanRecords(t, tb, func(rec arrow.RecordBatch) {
		ids := rec.Column(rec.Schema().FieldIndices("id")[0]).(*array.Int64)
		for i := range ids.Len() {
			seen[ids.Value(i)]++
		}
	})
	return seen
}

// checkIDsOnce checks the ids reader read (each with how many times):
// every id of want once, and no other.
func checkIDsOnce(t *testing.T, reader string, seen map[int64]int, want map[int64]bool) {
	t.Helper()
	if len(seen) != len(want) {
		t.Errorf("%s reads %d distinct records, want %d", reader, len(seen), len(want))
	}
	for id, n := range seen {
		if n != 1 || !want[id] {
			t.Errorf("%s reads record %d %d times (produced: %v)", reader, id, n, want[id])
		}
	}
}

// BenchmarkIceberg is the same batches applied to a local Parquet
// destination without and with an Iceberg table: the ratio is what the
// table's commit (footers read back, manifests, metadata, catalog) costs.
//
//	go test -run '^$' -bench Iceberg -benchtime 3x ./internal/e2e/
func BenchmarkIceberg(b *testing.B) {
	benchTable(b, icebergConfig, `    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
`)
}

// benchTable applies the batches of hcl (icebergConfig or a variant) to its
// table's destination without and with its table block, tableBlock, and
// reports the ratio of the medians.
func benchTable(b *testing.B, hcl, tableBlock string) {
	if raceEnabled {
		b.Skip("figures under the race detector mean nothing")
	}
	if !strings.Contains(hcl, tableBlock) {
		b.Fatal("the configuration has no such table block")
	}
	records := benchRecordCount(b, 1_000_000)
	var plain, table []time.Duration
	for b.Loop() {
		for _, withTable := range []bool{false, true} {
			b.StopTimer()
			hcl := strings.Replace(hcl, "default = 2000", fmt.Sprintf("default = %d", records/3), 1)
			hcl = strings.Replace(hcl, "max_records = 1500", fmt.Sprintf("max_records = %d", records/10), 1)
			hcl = strings.Replace(hcl, "max_file_records = 500", "max_file_records = 1000000", 1)
			if !withTable {
				hcl = strings.Replace(hcl, tableBlock, "", 1)
			}
			dir := b.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			start := time.Now()
			if out, err := command(dir, nil, "apply", "-auto-approve", "-no-color").CombinedOutput(); err != nil {
				b.Fatalf("apply: %v\n%s", err, out)
			}
			if withTable {
				table = append(table, time.Since(start))
			} else {
				plain = append(plain, time.Since(start))
			}
		}
	}
	ratio := medianDuration(plain).Seconds() / medianDuration(table).Seconds()
	b.ReportMetric(ratio, "vs-parquet")
	b.ReportMetric(float64(records)/medianDuration(table).Seconds(), "records/s")
	b.ReportMetric(0, "ns/op")
}

// TestIcebergVerify: verify compares the table's current snapshot with the
// manifests, and reports a file the snapshot holds that no manifest lists.
func TestIcebergVerify(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, icebergConfig)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "verify", "-no-color")
	if err := os.Remove(filepath.Join(dir, "out", "table", filepath.FromSlash(engine.ManifestKey("orders", 1)))); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, nil, "verify", "-no-color")
	if r.code != 2 || !strings.Contains(r.stdout, "in the current snapshot of iceberg table lake.orders, and in no manifest") {
		t.Errorf("verify after a manifest was removed: want exit 2 and the table's finding, got %s", r)
	}
}
