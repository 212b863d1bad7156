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

	"github.com/streamctl/streamctl/internal/delta/deltacheck"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
)

// deltaConfig is icebergConfig with a Delta table, partitioned by country
// (a Delta table's partitions are columns), with a checkpoint every 2
// versions: 3 partitions × 2000 records in batches of 1500, files of 500,
// into the table's destination and a plain Hive-folder destination.
var deltaConfig = strings.NewReplacer(
	`partition_by = ["day(ts)"]`, `partition_by = ["country"]`,
	`      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
`, `      format              = "delta"
      checkpoint_interval = 2
`).Replace(icebergConfig)

// deltaFaultPoints are the table's fault points but the Iceberg catalog's
// (a Delta commit is the create-only write of one log entry), and between
// a checkpoint and _last_checkpoint.
var deltaFaultPoints = append(slices.DeleteFunc(slices.Clone(icebergFaultPoints), func(fp string) bool {
	return strings.HasPrefix(fp, "table-catalog-commit")
}), "delta-checkpoint", "delta-checkpoint:2")

// TestDeltaCrashAtEveryFaultPoint: killed at each point of the protocol
// around the table commit, then applied again, the Delta log replayed from
// the protocol text (deltacheck, which shares no code with the writer)
// follows the protocol's rules, lists every record once, and adds each batch
// whole in one version with its txn; DuckDB reading the files the replay
// lists agrees, and so does the Hive-folder destination of the same batches.
func TestDeltaCrashAtEveryFaultPoint(t *testing.T) {
	if !strings.Contains(deltaConfig, `format              = "delta"`) || !strings.Contains(deltaConfig, `["country"]`) {
		t.Fatal("deltaConfig no longer rewrites icebergConfig")
	}
	for _, fp := range deltaFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			crashDeltaTable(t, fp, dir, deltaConfig, nil, local.New(filepath.Join(dir, "out", "table")))
		})
	}
}

// TestDeltaOnS3CrashAtEveryFaultPoint: the same with the table in S3
// (versitygw): each log entry is a conditional create (If-None-Match).
func TestDeltaOnS3CrashAtEveryFaultPoint(t *testing.T) {
	srv := testenv.S3(t)
	for i, fp := range deltaFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			bucket := bucketName("delta-", i, "-", fp)
			srv.CreateBucket(t, bucket)
			dest := s3TableDestination(srv, "table", bucket, "lake/orders", deltaTableBlock)
			crashDeltaTable(t, fp, t.TempDir(), remoteDeltaConfig(t, dest), srv.Env(), s3Storage(t, srv, bucket, "lake/orders"))
		})
	}
}

// TestDeltaOnAzureCrashAtEveryFaultPoint: the same with the table in Azure
// Blob Storage (Azurite): each log entry is a conditional create
// (If-None-Match: *).
func TestDeltaOnAzureCrashAtEveryFaultPoint(t *testing.T) {
	az := testenv.Azurite(t)
	for i, fp := range deltaFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			container := bucketName("delta-", i, "-", fp)
			az.CreateContainer(t, container)
			dest := azDestination(az, "table", container, "lake/orders", deltaTableBlock)
			crashDeltaTable(t, fp, t.TempDir(), remoteDeltaConfig(t, dest), az.Env(), azStorage(t, az, container, "lake/orders"))
		})
	}
}

// TestDeltaOnGCSCrashAtEveryFaultPoint: the same with the table in Google
// Cloud Storage (fake-gcs-server): each log entry is a conditional create
// (ifGenerationMatch=0).
func TestDeltaOnGCSCrashAtEveryFaultPoint(t *testing.T) {
	srv := testenv.GCS(t)
	for i, fp := range deltaFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			bucket := bucketName("delta-", i, "-", fp)
			srv.CreateBucket(t, bucket)
			dest := strings.Replace(gcsDestination(srv.Endpoint, "table", bucket, "lake/orders"), "  }\n", deltaTableBlock+"\n  }\n", 1)
			crashDeltaTable(t, fp, t.TempDir(), remoteDeltaConfig(t, dest), srv.Env(), gcsStorage(t, srv, bucket, "lake/orders"))
		})
	}
}

// deltaTableBlock is the table block of a destination on an object store.
const deltaTableBlock = `    table {
      format              = "delta"
      checkpoint_interval = 2
    }`

// remoteDeltaConfig is deltaConfig with the table's destination dest.
func remoteDeltaConfig(t *testing.T, dest string) string {
	t.Helper()
	hcl := strings.Replace(deltaConfig, `  destination "local" "table" {
    path = "out/table"
    table {
      format              = "delta"
      checkpoint_interval = 2
    }
  }
`, dest, 1)
	if hcl == deltaConfig {
		t.Fatal("the local table destination was not replaced")
	}
	return hcl
}

// crashDeltaTable applies hcl in dir killed at fp, applies it again, and
// checks the Delta table in store and the Hive-folder destination.
func crashDeltaTable(t *testing.T, fp, dir, hcl string, env []string, store providers.Storage) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, append([]string{"STREAMCTL_FAULT=" + fp}, env...), "apply", "-auto-approve", "-no-color")
	if !r.killed {
		t.Fatalf("the fault %s was not reached: %s", fp, r)
	}
	mustRun(t, dir, 0, env, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, env, "plan", "-detailed-exitcode", "-no-color")
	mustRun(t, dir, 0, env, "verify", "-no-color")
	if got := fmt.Sprint(duckdb(t, dir, `SELECT count(*), count(DISTINCT id) FROM read_parquet('out/folder/**/*.parquet')`)); got != "[[6000 6000]]" {
		t.Errorf("the Hive-folder destination: %s (want 6000 records, each once)", got)
	}
	checkDeltaTable(t, dir, store, "orders", 6000)
}

// checkDeltaTable replays the Delta log of the table in store and checks it
// holds records records of sink, each once, each batch whole in its own
// version. DuckDB reads the files the replay lists, copied into dir.
func checkDeltaTable(t *testing.T, dir string, store providers.Storage, sink string, records int64) {
	t.Helper()
	ctx := context.Background()
	tb, err := deltacheck.Replay(ctx, store)
	if err != nil {
		t.Fatalf("the Delta log breaks the protocol: %v", err)
	}
	if got := strings.Join(tb.PartitionColumns, ","); got != "country" {
		t.Errorf("partition columns %q", got)
	}
	// With a checkpoint every 2 versions, _last_checkpoint names one, which
	// the replay found to be the snapshot of its version.
	if tb.Checkpoint < 2 {
		t.Errorf("the log's checkpoint is version %d, want one every 2 versions", tb.Checkpoint)
	}
	ms, err := engine.ReadManifests(ctx, store, sink, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Version 0 creates the table; each later version adds one batch, all
	// of it, in order, or changes the schema (a column added) and nothing
	// else.
	var batches []deltacheck.Version
	for _, v := range tb.Versions[1:] {
		if strings.Join(v.Actions, ",") == "commitInfo,metaData" {
			continue
		}
		batches = append(batches, v)
	}
	if len(batches) != len(ms) {
		t.Errorf("%d Delta versions add batches, for %d committed batches", len(batches), len(ms))
	}
	for i, m := range ms {
		if i >= len(batches) {
			break
		}
		v := batches[i]
		if v.Txns[sink] != m.Batch || len(v.Txns) != 1 || v.Records != m.Records {
			t.Errorf("version %d: txns %v adding %d records; batch %d has %d records", v.Number, v.Txns, v.Records, m.Batch, m.Records)
		}
	}
	checkDeltaFiles(t, dir, store, tb, records)
}

// checkDeltaFiles checks the files of the replayed snapshot: in their
// partition's folder, records records in all, and each file's statistics
// and the records, each once, as DuckDB reads the files, copied into dir.
func checkDeltaFiles(t *testing.T, dir string, store providers.Storage, tb *deltacheck.Table, records int64) {
	t.Helper()
	ctx := context.Background()
	var quoted []string
	var total int64
	for i, f := range tb.Files {
		if f.PartitionValues["country"] == nil || !strings.HasPrefix(f.Key, "country="+*f.PartitionValues["country"]+"/") {
			t.Errorf("file %s has partition values %v", f.Key, f.PartitionValues)
		}
		data, _, err := providers.ReadAll(ctx, store, f.Key)
		if err != nil {
			t.Fatalf("read %s, listed by the replay: %v", f.Key, err)
		}
		name := filepath.Join(dir, "replayed", fmt.Sprintf("%04d.parquet", i))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		quoted = append(quoted, "'"+name+"'")
		total += f.Records
	}
	if total != records {
		t.Errorf("the replay's files count %d records, want %d", total, records)
	}
	// Each file's statistics are its records' own, as DuckDB reads them.
	stats := duckdb(t, dir, "SELECT filename, min(id)::DOUBLE, max(id)::DOUBLE, (count(*) - count(amount))::DOUBLE, epoch_ms(min(ts))::DOUBLE, epoch_ms(max(ts))::DOUBLE FROM read_parquet(["+strings.Join(quoted, ", ")+"], filename = true, union_by_name = true) GROUP BY filename ORDER BY filename")
	if len(stats) != len(tb.Files) {
		t.Errorf("DuckDB reads %d files of the %d the replay lists", len(stats), len(tb.Files))
	}
	for i, row := range stats {
		if i >= len(tb.Files) {
			break
		}
		f := tb.Files[i]
		ms := func(v any) any {
			ts, err := time.Parse(time.RFC3339Nano, fmt.Sprint(v))
			if err != nil {
				return v
			}
			return float64(ts.UnixMilli())
		}
		text := func(vs ...any) string {
			var out []string
			for _, v := range vs {
				if x, ok := v.(float64); ok {
					v = strconv.FormatFloat(x, 'f', -1, 64)
				}
				out = append(out, fmt.Sprint(v))
			}
			return strings.Join(out, " ")
		}
		got := text(f.Min["id"], f.Max["id"], f.Nulls["amount"], ms(f.Min["ts"]), ms(f.Max["ts"]))
		if want := text(row[1:]...); got != want {
			t.Errorf("%s: stats (min id, max id, null amounts, min ts, max ts) %s, DuckDB reads %s", f.Key, got, want)
		}
	}
	want := fmt.Sprintf("[[%d %d]]", records, records)
	if got := fmt.Sprint(duckdb(t, dir, "SELECT count(*), count(DISTINCT id) FROM read_parquet(["+strings.Join(quoted, ", ")+"], union_by_name = true)")); got != want {
		t.Errorf("DuckDB over the replay's %d files: %s, want %s (each record once)", len(tb.Files), got, want)
	}
}

// BenchmarkDelta is the same batches applied to a local Parquet destination
// without and with a Delta table: the ratio is what the table's commit (one
// log entry a batch, reading the log's new versions, the files' statistics
// and a checkpoint every 10 versions) costs.
//
//	go test -run '^$' -bench Delta -benchtime 3x ./internal/e2e/
func BenchmarkDelta(b *testing.B) {
	// The default checkpoint interval (10), not the crash tests' 2.
	benchTable(b, strings.Replace(deltaConfig, "      checkpoint_interval = 2\n", "", 1), `    table {
      format              = "delta"
    }
`)
}
