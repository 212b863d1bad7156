package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/delta/deltacheck"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
)

// shardedDeltaFaultPoints are the Delta fault points, the later ones reached
// while other shards are between their commit and their manifest, or
// racing for the next version themselves.
var shardedDeltaFaultPoints = append(append([]string(nil), deltaFaultPoints...),
	"after-table-commit:17",
	"before-table-commit:23",
	"delta-checkpoint:7",
)

// racingDeltaFaultPoints are the sharded table's fault points where the
// store's create-only writes decide between shards racing for a version:
// around the first commit and checkpoint, and those reached while the
// others race. The object-store suites run these; every point runs on local
// disk, and each store runs every point of a single sink's table
// (TestDeltaOn*CrashAtEveryFaultPoint).
var racingDeltaFaultPoints = []string{
	"before-table-commit",
	"after-table-commit",
	"delta-checkpoint",
	"after-table-commit:17",
	"before-table-commit:23",
	"delta-checkpoint:7",
}

// TestDeltaShardsCrashAtEveryFaultPoint: the 8 shards of a sink commit to
// its one Delta table at once, each under its own appId (orders/shard-N),
// racing for each version; killed at each fault point around the table
// commit (in whichever shard reaches it, others in flight), then applied
// again, the log replayed from the protocol text follows its rules, holds
// each committed shard-batch whole in one version with its txn, and lists
// every record once; DuckDB reading the files the replay lists agrees, and
// plan has nothing left to do.
func TestDeltaShardsCrashAtEveryFaultPoint(t *testing.T) {
	hcl := shardedTableConfig(deltaConfig)
	if !strings.Contains(hcl, "shards = 8") || !strings.Contains(hcl, "max_records = 150") {
		t.Fatal("shardedTableConfig no longer rewrites deltaConfig")
	}
	for _, fp := range shardedDeltaFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			dir := writeConfig(t, hcl)
			crashShardedTable(t, dir, fp, nil)
			checkShardedDeltaTable(t, dir, local.New(filepath.Join(dir, "out", "table")))
		})
	}
}

// TestDeltaShardsOnS3CrashWhereShardsRace: the same at the fault points
// where the shards race (racingDeltaFaultPoints), with the table in S3
// (versitygw): they race for each version with conditional creates
// (If-None-Match).
func TestDeltaShardsOnS3CrashWhereShardsRace(t *testing.T) {
	srv := testenv.S3(t)
	for i, fp := range racingDeltaFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			bucket := bucketName("delta-shards-", i, "-", fp)
			srv.CreateBucket(t, bucket)
			dest := s3TableDestination(srv, "table", bucket, "lake/orders", deltaTableBlock)
			dir := writeConfig(t, shardedTableConfig(remoteDeltaConfig(t, dest)))
			crashShardedTable(t, dir, fp, srv.Env())
			checkShardedDeltaTable(t, dir, s3Storage(t, srv, bucket, "lake/orders"))
		})
	}
}

// TestDeltaShardsOnAzureCrashWhereShardsRace: the same where the shards
// race, with the table in Azure Blob Storage (Azurite): conditional creates
// with If-None-Match: *.
func TestDeltaShardsOnAzureCrashWhereShardsRace(t *testing.T) {
	az := testenv.Azurite(t)
	for i, fp := range racingDeltaFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			container := bucketName("delta-shards-", i, "-", fp)
			az.CreateContainer(t, container)
			dest := azDestination(az, "table", container, "lake/orders", deltaTableBlock)
			dir := writeConfig(t, shardedTableConfig(remoteDeltaConfig(t, dest)))
			crashShardedTable(t, dir, fp, az.Env())
			checkShardedDeltaTable(t, dir, azStorage(t, az, container, "lake/orders"))
		})
	}
}

// TestDeltaShardsOnGCSCrashWhereShardsRace: the same where the shards race,
// with the table in Google Cloud Storage (fake-gcs-server): conditional
// creates with ifGenerationMatch=0.
func TestDeltaShardsOnGCSCrashWhereShardsRace(t *testing.T) {
	srv := testenv.GCS(t)
	for i, fp := range racingDeltaFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			bucket := bucketName("delta-shards-", i, "-", fp)
			srv.CreateBucket(t, bucket)
			dest := strings.Replace(gcsDestination(srv.Endpoint, "table", bucket, "lake/orders"), "  }\n", deltaTableBlock+"\n  }\n", 1)
			dir := writeConfig(t, shardedTableConfig(remoteDeltaConfig(t, dest)))
			crashShardedTable(t, dir, fp, srv.Env())
			checkShardedDeltaTable(t, dir, gcsStorage(t, srv, bucket, "lake/orders"))
		})
	}
}

// checkShardedDeltaTable checks the Hive-folder destination and the Delta
// table in store of shardedTableConfig(deltaConfig): each version after the table's
// creation is one shard-batch of a manifest, with its txn and its records,
// each committed shard-batch in exactly one version.
func checkShardedDeltaTable(t *testing.T, dir string, store providers.Storage) {
	t.Helper()
	ctx := context.Background()
	want := tableShardPartitions * tableShardRecords
	if got := fmt.Sprint(duckdb(t, dir, `SELECT count(*), count(DISTINCT id) FROM read_parquet('out/folder/**/*.parquet')`)); got != fmt.Sprintf("[[%d %d]]", want, want) {
		t.Errorf("the Hive-folder destination: %s (want %d records, each once)", got, want)
	}
	tb, err := deltacheck.Replay(ctx, store)
	if err != nil {
		t.Fatalf("the Delta log breaks the protocol: %v", err)
	}
	if tb.Checkpoint < 2 {
		t.Errorf("the log's checkpoint is version %d, want one every 2 versions", tb.Checkpoint)
	}
	batches := map[string]int64{} // "orders/shard-k@b": records
	for s := range tableShards {
		shard := fmt.Sprintf("orders/shard-%d", s)
		ms, err := engine.ReadManifests(ctx, store, shard, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			batches[shard+"@"+strconv.FormatInt(m.Batch, 10)] = m.Records
		}
		if got := tb.Txns[shard]; len(ms) == 0 || got != ms[len(ms)-1].Batch {
			t.Errorf("%s: the log's txn at %d, its manifests %d batches", shard, got, len(ms))
		}
	}
	seen := map[string]bool{}
	for _, v := range tb.Versions[1:] {
		if strings.Join(v.Actions, ",") == "commitInfo,metaData" {
			continue
		}
		if len(v.Txns) != 1 {
			t.Errorf("version %d holds the txns %v, want one shard's", v.Number, v.Txns)
			continue
		}
		for app, b := range v.Txns {
			key := app + "@" + strconv.FormatInt(b, 10)
			records, ok := batches[key]
			switch {
			case !ok:
				t.Errorf("version %d commits %s, which no manifest holds", v.Number, key)
			case seen[key]:
				t.Errorf("version %d commits %s a second time", v.Number, key)
			case records != v.Records:
				t.Errorf("version %d adds %d records of %s, its manifest %d", v.Number, v.Records, key, records)
			}
			seen[key] = true
		}
	}
	if len(seen) != len(batches) {
		t.Errorf("the log commits %d shard-batches, the manifests hold %d", len(seen), len(batches))
	}
	checkDeltaFiles(t, dir, store, tb, int64(want))
}

// TestDeltaShardsTableAhead: shard 0, killed after the log committed its
// batch 1 (with a checkpoint every 2 versions, the version the checkpoint
// is of) and its state's previous version restored, has its batch ahead in
// the table: plan, reading the log from the checkpoint and back from it to
// the shard's batch, adopts it in that shard's part, and in no other
// shard's; apply finishes with one version per shard-batch.
func TestDeltaShardsTableAhead(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, shardedTableConfig(deltaConfig))
	// One shard at a time: shard 0's batches come first.
	if r := run(t, dir, []string{"STREAMCTL_FAULT=after-table-commit:2"}, "apply", "-auto-approve", "-no-color", "-parallelism=1"); !r.killed {
		t.Fatalf("the fault was not reached: %s", r)
	}
	if log := strings.Join(deltaLog(t, dir), " "); !strings.Contains(log, "_last_checkpoint") {
		t.Fatalf("no checkpoint after shard 0's batch 1: %s", log)
	}
	st := filepath.Join(dir, ".streamctl", "state.json")
	data, err := os.ReadFile(st + ".backup")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(st, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	shard0 := r.stdout[strings.Index(r.stdout, `# sink "orders/shard-0"`)+1:]
	if i := strings.Index(shard0, "# sink"); i >= 0 {
		shard0 = shard0[:i]
	}
	if !regexp.MustCompile(`~ Delta table \S+ already holds batch 1: its snapshot is kept, and the batch is not appended again`).MatchString(shard0) {
		t.Errorf("plan: no adoption of shard 0's batch 1 in its part:\n%s\nof\n%s", shard0, r.stdout)
	}
	if n, in0 := strings.Count(r.stdout, "already holds batch"), strings.Count(shard0, "already holds batch"); n != in0 {
		t.Errorf("plan: %d batches already in the table, %d of them shard 0's, want only shard 0's:\n%s", n, in0, r.stdout)
	}
	mustRun(t, dir, 0, nil, applyAllShards...)
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	checkShardedDeltaTable(t, dir, local.New(filepath.Join(dir, "out", "table")))
}
