package e2e

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/gcs"
	"github.com/streamctl/streamctl/providers/local"
)

// The sharded table's workload: 16 partitions of 300 records, read by 8
// shards (2 partitions each) in batches of 150: 4 batches per shard, 32
// snapshots in all, committed by the 8 shards at once.
const (
	tableShards, tableShardPartitions, tableShardRecords = 8, 16, 300
)

// shardedIcebergConfig is icebergConfig read by tableShards shards, all
// applied at once (-parallelism), into the one table.
func shardedIcebergConfig() string { return shardedTableConfig(icebergConfig) }

// shardedTableConfig is hcl (icebergConfig, deltaConfig or a variant) with
// the sharded table's workload: tableShardPartitions partitions of
// tableShardRecords records, read by tableShards shards in batches of 150.
func shardedTableConfig(hcl string) string {
	for _, r := range [][2]string{
		{"partitions            = 3", fmt.Sprintf("partitions            = %d", tableShardPartitions)},
		{"default = 2000", fmt.Sprintf("default = %d", tableShardRecords)},
		{"max_records = 1500", "max_records = 150"},
		{"max_file_records = 500", "max_file_records = 100"},
		{`sink "orders" {`, fmt.Sprintf("sink \"orders\" {\n  shards = %d", tableShards)},
	} {
		// A configuration that no longer holds the text would run unsharded.
		if !strings.Contains(hcl, r[0]) {
			panic("the sharded table's configuration has no " + r[0])
		}
		hcl = strings.Replace(hcl, r[0], r[1], 1)
	}
	return hcl
}

// shardedIcebergFaultPoints are the Iceberg fault points, the later ones
// reached while other shards are between their table commit and their
// manifest, or committing to the table themselves.
var shardedIcebergFaultPoints = append(append([]string(nil), icebergFaultPoints...),
	"table-catalog-commit:11",
	"after-table-commit:17",
	"before-table-commit:23",
)

// racingIcebergFaultPoints are the sharded table's fault points where the
// store's conditional writes and the catalog's commit decide between shards:
// around the table commit, the first shard's and those reached while the
// others race. The object-store suites run these; every point runs on local
// disk (TestIcebergShardsCrashAtEveryFaultPoint), and each store runs every
// point of a single sink's table (TestIcebergOn*CrashAtEveryFaultPoint).
var racingIcebergFaultPoints = []string{
	"before-table-commit",
	"table-catalog-commit:2",
	"after-table-commit",
	"table-catalog-commit:11",
	"after-table-commit:17",
	"before-table-commit:23",
}

var applyAllShards = []string{"apply", "-auto-approve", "-no-color", "-parallelism=" + strconv.Itoa(tableShards)}

// TestIcebergShardsCrashAtEveryFaultPoint: the 8 shards of a sink commit to
// its one Iceberg table at once; killed at each fault point around the table
// commit (in whichever shard reaches it, others in flight), then applied
// again, the table holds every record once, read by iceberg-go's scan and by
// DuckDB over the files the scan lists; each snapshot is one whole batch of
// one shard, named in its summary; plan then has nothing to do.
func TestIcebergShardsCrashAtEveryFaultPoint(t *testing.T) {
	for _, fp := range shardedIcebergFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			dir := writeConfig(t, shardedIcebergConfig())
			crashShardedTable(t, dir, fp, nil)
			if got := fmt.Sprint(duckdb(t, dir, `SELECT count(*), count(DISTINCT id) FROM read_parquet('out/folder/**/*.parquet')`)); got != fmt.Sprintf("[[%d %d]]", tableShardPartitions*tableShardRecords, tableShardPartitions*tableShardRecords) {
				t.Errorf("the Hive-folder destination: %s (want %d records, each once)", got, tableShardPartitions*tableShardRecords)
			}
			checkShardedTable(t, dir, local.New(filepath.Join(dir, "out", "table")), iceberg.Config{
				Location: "file://" + filepath.ToSlash(filepath.Join(dir, "out", "table")),
			})
		})
	}
}

// crashShardedTable applies dir's configuration with every shard at once,
// killed at fp, then again to the end, and checks that plan has nothing
// left to do.
func crashShardedTable(t *testing.T, dir, fp string, env []string) {
	t.Helper()
	r := run(t, dir, append([]string{"STREAMCTL_FAULT=" + fp}, env...), applyAllShards...)
	if !r.killed {
		t.Fatalf("the fault %s was not reached: %s", fp, r)
	}
	mustRun(t, dir, 0, env, applyAllShards...)
	mustRun(t, dir, 0, env, "plan", "-detailed-exitcode", "-no-color")
}

// checkShardedTable opens the table of shardedIcebergConfig (cfg gives its
// location, catalog uri and file IO properties) with iceberg-go, whose scan
// must hold every record once, as must DuckDB reading the files the scan
// lists; its snapshots are the shards' committed batches, one each, adding
// the records of that batch's manifest in store.
func checkShardedTable(t *testing.T, dir string, store providers.Storage, cfg iceberg.Config) {
	t.Helper()
	ctx := context.Background()
	tb := openIcebergOrders(t, cfg)
	defer tb.Close()
	checkScan(t, dir, tb, store, cfg.Location, expectedIDs(tableShardPartitions, tableShardRecords))

	// One snapshot per committed shard-batch, adding that batch's records.
	batches := map[string]int64{}
	for s := range tableShards {
		shard := fmt.Sprintf("orders/shard-%d", s)
		ms, err := engine.ReadManifests(ctx, store, shard, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			batches[shard+" batch "+strconv.FormatInt(m.Batch, 10)] = m.Records
		}
	}
	snaps := tb.Iceberg().Metadata().Snapshots()
	if len(snaps) != len(batches) {
		t.Errorf("%d snapshots for %d committed shard-batches", len(snaps), len(batches))
	}
	for _, s := range snaps {
		p := s.Summary.Properties
		key := p[iceberg.PropSink] + " batch " + p[iceberg.PropBatch]
		records, ok := batches[key]
		if !ok {
			t.Errorf("snapshot %d records %s, which no manifest holds", s.SnapshotID, key)
			continue
		}
		if fmt.Sprint(records) != p["added-records"] {
			t.Errorf("snapshot %d (%s) adds %s records, its batch has %d", s.SnapshotID, key, p["added-records"], records)
		}
		delete(batches, key) // a second snapshot of it is reported above
	}
}

// duckdbOverStoredFiles copies the files the table's scan lists (URLs below
// location) out of store, and has DuckDB read them: want records, each once.
func duckdbOverStoredFiles(t *testing.T, dir string, store providers.Storage, location string, files []string, want int) {
	t.Helper()
	ctx := context.Background()
	scanDir := filepath.Join(dir, "scanned")
	if err := os.MkdirAll(scanDir, 0o755); err != nil {
		t.Fatal(err)
	}
	var quoted []string
	for i, f := range files {
		key, ok := strings.CutPrefix(f, strings.TrimRight(location, "/")+"/")
		if !ok {
			t.Fatalf("the scan lists %s, outside the table's location %s", f, location)
		}
		r, _, err := store.Get(ctx, key)
		if err != nil {
			t.Fatalf("read %s: %v", key, err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatalf("read %s: %v", key, err)
		}
		local := filepath.Join(scanDir, strconv.Itoa(i)+".parquet")
		if err := os.WriteFile(local, data, 0o644); err != nil {
			t.Fatal(err)
		}
		quoted = append(quoted, "'"+filepath.ToSlash(local)+"'")
	}
	if got := fmt.Sprint(duckdb(t, dir, "SELECT count(*), count(DISTINCT id) FROM read_parquet(["+strings.Join(quoted, ", ")+"])")); got != fmt.Sprintf("[[%d %d]]", want, want) {
		t.Errorf("DuckDB over the snapshot's %d files: %s, want %d records each once", len(files), got, want)
	}
}

// TestIcebergShardsOnS3CrashWhereShardsRace: the same with the table in S3
// (versitygw), its catalog a SQLite file beside the configuration, at the
// fault points where the shards race (racingIcebergFaultPoints).
func TestIcebergShardsOnS3CrashWhereShardsRace(t *testing.T) {
	srv := testenv.S3(t)
	for i, fp := range racingIcebergFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			bucket := bucketName("ice-shards-", i, "-", fp)
			srv.CreateBucket(t, bucket)
			dest := s3TableDestination(srv, "table", bucket, "lake/orders", remoteTableBlock)
			dir := writeConfig(t, withTableDestination(shardedIcebergConfig(), dest))
			crashShardedTable(t, dir, fp, srv.Env())
			checkShardedTable(t, dir, s3Storage(t, srv, bucket, "lake/orders"), iceberg.Config{
				URI: filepath.Join(dir, "catalog.db"), Location: "s3://" + bucket + "/lake/orders",
				Properties: s3TableProps(srv),
			})
		})
	}
}

// withTableDestination is hcl (icebergConfig or a variant) with dest in
// place of its local destination "table".
func withTableDestination(hcl, dest string) string {
	const localTable = `  destination "local" "table" {
    path = "out/table"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
  }
`
	if !strings.Contains(hcl, localTable) {
		panic("the configuration has no local destination \"table\"")
	}
	return strings.Replace(hcl, localTable, dest, 1)
}

// gcsTableDestination is the destination "table" of icebergConfig on a
// bucket of srv, with the table block of an object store's table.
func gcsTableDestination(srv *testenv.GCSServer, bucket string) string {
	return strings.Replace(gcsDestination(srv.Endpoint, "table", bucket, "lake/orders"), "  }\n", remoteTableBlock+"\n  }\n", 1)
}

// gcsTableProps are the properties of the gs:// file IO (gsio) that reach
// the bucket of gcsTableDestination: the destination's own.
func gcsTableProps(t *testing.T, srv *testenv.GCSServer, bucket string) (location string, props map[string]string) {
	t.Helper()
	location, props, err := gcs.Kind.Destination.TableLocation(&gcs.Config{Bucket: bucket, Prefix: "lake/orders", Endpoint: srv.Endpoint})
	if err != nil {
		t.Fatal(err)
	}
	return location, props
}

// TestIcebergOnGCSCrashAtEveryFaultPoint: the Iceberg table of one sink in
// Google Cloud Storage (fake-gcs-server), written through the gs:// file IO,
// killed at each fault point around the table commit and applied again:
// every record once, one snapshot per committed batch.
func TestIcebergOnGCSCrashAtEveryFaultPoint(t *testing.T) {
	srv := testenv.GCS(t)
	for i, fp := range icebergFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			bucket := bucketName("ice-", i, "-", fp)
			srv.CreateBucket(t, bucket)
			location, props := gcsTableProps(t, srv, bucket)
			crashRemoteTable(t, fp, gcsTableDestination(srv, bucket), srv.Env(), gcsStorage(t, srv, bucket, "lake/orders"), location, props)
		})
	}
}

// TestIcebergShardsOnGCSCrashWhereShardsRace: the sharded table's crash
// test with the table in Google Cloud Storage, where the shards race.
func TestIcebergShardsOnGCSCrashWhereShardsRace(t *testing.T) {
	srv := testenv.GCS(t)
	for i, fp := range racingIcebergFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			bucket := bucketName("ice-shards-", i, "-", fp)
			srv.CreateBucket(t, bucket)
			dir := writeConfig(t, withTableDestination(shardedIcebergConfig(), gcsTableDestination(srv, bucket)))
			crashShardedTable(t, dir, fp, srv.Env())
			location, props := gcsTableProps(t, srv, bucket)
			checkShardedTable(t, dir, gcsStorage(t, srv, bucket, "lake/orders"), iceberg.Config{
				URI: filepath.Join(dir, "catalog.db"), Location: location, Properties: props,
			})
		})
	}
}

// TestIcebergShardsTableAhead: a shard killed after the table committed its
// batch 1 and before the manifests, with the state's previous version
// restored, has its batch ahead in the table: plan adopts it in that
// shard's part, and in no other shard's (their batches of the same numbers
// are not in the table), and apply finishes with one snapshot per
// shard-batch.
func TestIcebergShardsTableAhead(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, shardedIcebergConfig())
	// One shard at a time: shard 0's batches come first.
	killThenRestoreState(t, dir, "after-table-commit:2", "-parallelism=1")
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	shard0 := r.stdout[strings.Index(r.stdout, `# sink "orders/shard-0"`)+1:]
	if i := strings.Index(shard0, "# sink"); i >= 0 {
		shard0 = shard0[:i]
	}
	if !strings.Contains(shard0, "~ iceberg table lake.orders already holds batch 1: its snapshot is kept, and the batch is not appended again") {
		t.Errorf("plan: no adoption of shard 0's batch 1 in its part:\n%s\nof\n%s", shard0, r.stdout)
	}
	// The backup may be from before batch 0's state commit: then shard 0's
	// batch 0 is in the table too. No other shard has a batch there.
	if n, in0 := strings.Count(r.stdout, "already holds batch"), strings.Count(shard0, "already holds batch"); n != in0 {
		t.Errorf("plan: %d batches already in the table, %d of them shard 0's, want only shard 0's:\n%s", n, in0, r.stdout)
	}
	mustRun(t, dir, 0, nil, applyAllShards...)
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	checkShardedTable(t, dir, local.New(filepath.Join(dir, "out", "table")), iceberg.Config{
		Location: "file://" + filepath.ToSlash(filepath.Join(dir, "out", "table")),
	})
}

// TestIcebergShardsReshard: a sink of 8 shards with a table is resharded to
// 4 halfway through its stream; the new shards number their batches past
// the former ones, so that none is taken for a batch of the former layout
// already in the table: every record once, one snapshot per shard-batch.
func TestIcebergShardsReshard(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, shardedIcebergConfig())
	mustRun(t, dir, 0, nil, append(applyAllShards, "-var", "records=150")...)
	hcl := strings.Replace(shardedIcebergConfig(), fmt.Sprintf("shards = %d", tableShards), "shards = 4", 1)
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, 0, nil, applyAllShards...)
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	checkShardedTable(t, dir, local.New(filepath.Join(dir, "out", "table")), iceberg.Config{
		Location: "file://" + filepath.ToSlash(filepath.Join(dir, "out", "table")),
	})
}
