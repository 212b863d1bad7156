package e2e

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/apache/iceberg-go/table"
	_ "modernc.org/sqlite"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/testenv"
)

// Plan reads the destinations' Iceberg tables through their catalog and
// shows what apply does to them; these tests run the real binary over a
// local destination with its SQLite catalog.

// files lists every file under dir (relative) with its size and
// modification time, SQLite's -wal and -shm aside.
func files(t *testing.T, dir string) string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, "-wal") || strings.HasSuffix(p, "-shm") || strings.HasSuffix(p, ".lock") {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, fmt.Sprintf("%s %d %d", rel, info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// jsonTypes returns the messages of a -json stream of the given type.
func jsonMessages(t *testing.T, stream, typ string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not JSON: %s", line)
		}
		if m["type"] == typ {
			out = append(out, m)
		}
	}
	return out
}

// openTable opens the table of icebergConfig, with cols as its columns.
func openTable(t *testing.T, dir string, cols ...format.Column) *iceberg.Table {
	t.Helper()
	tb := openIcebergOrders(t, iceberg.Config{Location: "file://" + filepath.ToSlash(filepath.Join(dir, "out", "table"))}, cols...)
	t.Cleanup(func() { tb.Close() })
	return tb
}

// TestIcebergPlanCreatesNothing: plan of a new table shows it created,
// and writes nothing: no catalog, no table, no folder.
func TestIcebergPlanCreatesNothing(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, icebergConfig)
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if !strings.Contains(r.stdout, "  + create iceberg table lake.orders (4 columns, partitioned by day(ts))\n") {
		t.Errorf("plan of a new table:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("plan wrote into the destinations: %v\n%s", err, files(t, dir))
	}
}

// icebergConfigWithNote is icebergConfig with a nullable string column
// note declared after the amount.
func icebergConfigWithNote() string {
	return strings.Replace(icebergConfig, `  column "amount" {
    type = "double"
  }`, `  column "amount" {
    type = "double"
  }
  column "note" {
    type = "string"
  }`, 1)
}

// TestIcebergPlanSchemaEvolution: a nullable column added to the sink is
// shown by plan (text, -json, Markdown) and nothing is written; apply adds
// it to the table, and iceberg-go and DuckDB read every record once, the
// new batch's with the column.
func TestIcebergPlanSchemaEvolution(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, icebergConfig)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(icebergConfigWithNote()), 0o644); err != nil {
		t.Fatal(err)
	}
	before := files(t, dir)
	const change = "~ iceberg table lake.orders: add column note (string, optional)"
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color", "-var", "records=2500")
	if !strings.Contains(r.stdout, "\n  "+change+"\n") {
		t.Errorf("plan does not show the schema change:\n%s", r.stdout)
	}
	// The column is a change of what the sink writes, and of the table:
	// the summary counts both.
	if !strings.Contains(r.stdout, "\nPlan: 1 batch, 1,500 records to 2 destinations, 1 layout change, 1 table change.\n") || !strings.Contains(r.stdout, `+ column "note" = { type = "string" }`) {
		t.Errorf("the plan's summary does not count the schema change:\n%s", r.stdout)
	}
	r = mustRun(t, dir, 0, nil, "plan", "-json", "-var", "records=2500")
	if msgs := jsonMessages(t, r.stdout, "table_plan"); len(msgs) != 1 || fmt.Sprint(msgs[0]["table"].(map[string]any)["changes"]) != "[add column note (string, optional)]" {
		t.Errorf("plan -json: table_plan %v", msgs)
	}
	r = mustRun(t, dir, 0, nil, "plan", "-markdown", "-var", "records=2500")
	if !strings.Contains(r.stdout, "\n"+change+"\n") {
		t.Errorf("plan -markdown does not show the schema change:\n%s", r.stdout)
	}
	if after := files(t, dir); after != before {
		t.Errorf("plan wrote:\n%s\nwas\n%s", after, before)
	}

	// A saved plan with a table change is checked against a fresh one, and
	// runs.
	mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color", "-var", "records=2500", "-out", "tfplan")
	if after := files(t, dir); !strings.Contains(after, "tfplan") {
		t.Fatal("no plan file")
	}
	mustRun(t, dir, 0, nil, "apply", "-no-color", "tfplan")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color", "-var", "records=2500")
	tb := openTable(t, dir, format.Column{Name: "note", Type: "string"})
	if f, ok := tb.Iceberg().Schema().FindFieldByName("note"); !ok || f.Required || f.Type.String() != "string" {
		t.Errorf("the table's note column: %v, %v", f, ok)
	}
	checkTable(t, dir, "", expectedIDs(3, 2500))
	// The new batch's files hold the generator's note; the older batches
	// read it as null through the table.
	if got := fmt.Sprint(duckdb(t, dir, `SELECT count(*), count(note) FROM read_parquet('out/table/**/part-00000004-*.parquet')`)); got != "[[1500 1500]]" {
		t.Errorf("DuckDB over the new batch's files: %s", got)
	}
	var rows, notes int64
	scanRecords(t, tb, func(rec arrow.RecordBatch) {
		col := rec.Column(rec.Schema().FieldIndices("note")[0])
		rows += int64(col.Len())
		notes += int64(col.Len() - col.NullN())
	})
	if rows != 7500 || notes != 1500 {
		t.Errorf("iceberg-go reads %d rows, %d with a note: want 7500, 1500 (the batch after the change)", rows, notes)
	}
}

// TestIcebergPlanRefusesIncompatible: a type change, a required column
// added and another partitioning are refused by plan and by apply with
// exit 1 and what differs; nothing is written.
func TestIcebergPlanRefusesIncompatible(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, icebergConfig)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	for _, c := range []struct {
		name, old, new, want string
	}{
		{"type", `  column "amount" {
    type = "double"
  }`, `  column "amount" {
    type = "string"
  }`, `column "amount" is double in the table, and type "string" (Iceberg string) is declared`},
		{"required", `  column "amount" {
    type = "double"
  }`, `  column "amount" {
    type = "double"
  }
  column "qty" {
    type     = "int32"
    nullable = false
  }`, `column "qty" is new and not nullable`},
		{"partitioning", `partition_by = ["day(ts)"]`, `partition_by = ["country"]`, "the table is partitioned by [day(ts) as ts_day] and partition_by gives [identity(country) as country]"},
	} {
		hcl := strings.Replace(icebergConfig, c.old, c.new, 1)
		if hcl == icebergConfig {
			t.Fatalf("%s: the edit does not apply", c.name)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
			t.Fatal(err)
		}
		before := files(t, dir)
		for _, args := range [][]string{{"plan", "-no-color", "-var", "records=2500"}, {"apply", "-auto-approve", "-no-color", "-var", "records=2500"}} {
			r := mustRun(t, dir, 1, nil, args...)
			if !strings.Contains(r.stderr, "the declared columns do not fit iceberg table lake.orders") || !strings.Contains(r.stderr, c.want) {
				t.Errorf("%s: %s: want the refusal saying %q, got %s", c.name, args[0], c.want, r)
			}
		}
		if after := files(t, dir); after != before {
			t.Errorf("%s: something was written:\n%s\nwas\n%s", c.name, after, before)
		}
	}
}

// TestIcebergOrphans: a crash inside the table's catalog commit leaves its
// manifests and manifest list behind; once older than the table's last
// commit and iceberg.OrphanMinAge (a clock two hours on), plan shows them
// as orphans and apply removes them. A crash while promoting a batch, followed by the state's
// previous version restored, leaves data files of a batch the state does
// not know: in the table, plan shows them and apply removes them before
// writing the batch again in other batch sizes; in the folder destination
// beside it, plan refuses them by name until they are moved out. Every
// record is then in the table and its folder once.
func TestIcebergOrphans(t *testing.T) {
	t.Parallel()
	t.Run("metadata", func(t *testing.T) {
		t.Parallel()
		dir := writeConfig(t, icebergConfig)
		if r := run(t, dir, []string{"STREAMCTL_FAULT=table-catalog-commit:2"}, "apply", "-auto-approve", "-no-color"); !r.killed {
			t.Fatalf("the fault was not reached: %s", r)
		}
		mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
		// Young, they may be another writer's commit in progress.
		mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")

		meta := filepath.Join(dir, "out", "table", filepath.FromSlash(iceberg.MetadataDir))
		// Two hours on, they are old enough.
		later := []string{"STREAMCTL_TEST_CLOCK_SKEW=2h"}
		r := mustRun(t, dir, 2, later, "plan", "-detailed-exitcode", "-no-color")
		lines := regexp.MustCompile(`(?m)^  - remove orphan metadata file metadata/(\S+) of iceberg table lake.orders \(left by a failed commit\) in table$`).FindAllStringSubmatch(r.stdout, -1)
		if len(lines) != 2 || !strings.Contains(r.stdout, "2 orphan files to remove.") {
			t.Fatalf("plan after a failed commit: want its manifest and manifest list as orphans, got\n%s", r.stdout)
		}
		r = mustRun(t, dir, 0, later, "plan", "-json")
		if msgs := jsonMessages(t, r.stdout, "table_orphan"); len(msgs) != 2 || msgs[0]["orphan"].(map[string]any)["kind"] != "metadata" {
			t.Errorf("plan -json: table_orphan %v", msgs)
		}
		r = mustRun(t, dir, 0, later, "apply", "-auto-approve", "-no-color")
		for _, l := range lines {
			if _, err := os.Stat(filepath.Join(meta, l[1])); !os.IsNotExist(err) {
				t.Errorf("%s is still there: %v", l[1], err)
			}
			if !strings.Contains(r.stdout, "orders: removed orphan metadata file metadata/"+l[1]) {
				t.Errorf("apply does not report the removal of %s:\n%s", l[1], r.stdout)
			}
		}
		mustRun(t, dir, 0, later, "plan", "-detailed-exitcode", "-no-color")
		checkTable(t, dir, "", expectedIDs(3, 2000))
	})
	t.Run("data", func(t *testing.T) {
		t.Parallel()
		dir := writeConfig(t, icebergConfig)
		// Killed while promoting batch 0, then the state as it was before
		// batch 0's intent.
		killThenRestoreState(t, dir, "after-promote-file:5")
		// Batches of 600 records: batch 0 is other files than the crashed
		// attempt's, which would stay beside them.
		hcl := strings.Replace(icebergConfig, "max_records = 1500", "max_records = 600", 1)
		if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
			t.Fatal(err)
		}
		// The folder destination has no table to tell its files apart: the
		// crashed attempt's files there are at batch 0's names, which no
		// manifest lists and the state does not know, so plan refuses them,
		// naming them, before anything is written. Following its advice
		// (move them out) lets the sink go on.
		r := mustRun(t, dir, 1, nil, "plan", "-detailed-exitcode", "-no-color")
		folder := filepath.Join(dir, "out", "folder")
		var moved int
		err := filepath.WalkDir(folder, func(path string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".parquet") || strings.Contains(path, "_temporary") {
				return err
			}
			rel, _ := filepath.Rel(folder, path)
			if !strings.Contains(r.stderr, filepath.ToSlash(rel)) {
				t.Errorf("plan's refusal does not name %s:\n%s", rel, r.stderr)
			}
			moved++
			return os.Rename(path, filepath.Join(t.TempDir(), filepath.Base(path)))
		})
		if err != nil {
			t.Fatal(err)
		}
		if moved == 0 || !strings.Contains(r.stderr, `destination "folder" holds files streamctl did not write`) {
			t.Fatalf("plan after a crashed batch whose intent the state lost: want the folder's %d files refused, got\n%s", moved, r.stderr)
		}
		r = mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
		orphans := regexp.MustCompile(`(?m)^  - remove orphan data file (\S+) of batch 0 \(no manifest, no snapshot, not in flight\) in table$`).FindAllStringSubmatch(r.stdout, -1)
		if len(orphans) < 2 {
			t.Fatalf("plan after a crashed batch whose intent the state lost: want its promoted files as orphans, got\n%s", r.stdout)
		}
		r = mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-json")
		var removed []string
		for _, m := range jsonMessages(t, r.stdout, "table_orphan") {
			if o := m["orphan"].(map[string]any); o["status"] == "removed" && o["kind"] == "data" && o["batch"] == 0.0 {
				removed = append(removed, o["path"].(string))
			}
		}
		if len(removed) != len(orphans) {
			t.Errorf("apply -json reports %d data files removed, plan showed %d:\n%s", len(removed), len(orphans), r.stdout)
		}
		mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
		if got := fmt.Sprint(duckdb(t, dir, `SELECT count(*), count(DISTINCT id) FROM read_parquet('out/table/**/*.parquet')`)); got != "[[6000 6000]]" {
			t.Errorf("the table's folder: %s (want 6000 records, each once)", got)
		}
		checkTable(t, dir, "", expectedIDs(3, 2000))
	})
}

// TestIcebergTableBehind: a table rolled back, or dropped, is behind the
// state: plan and apply refuse with the way back, and write nothing;
// once the table is restored, apply goes on and every record is once in
// it.
func TestIcebergTableBehind(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("rolled back", func(t *testing.T) {
		t.Parallel()
		dir := writeConfig(t, icebergConfig)
		mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
		tb := openTable(t, dir)
		byBatch := map[string]int64{}
		for _, s := range tb.Iceberg().Metadata().Snapshots() {
			byBatch[s.Summary.Properties[iceberg.PropBatch]] = s.SnapshotID
		}
		txn := tb.Iceberg().NewTransaction()
		if err := txn.RollbackToSnapshot(byBatch["1"]); err != nil {
			t.Fatal(err)
		}
		if _, err := txn.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		before := files(t, dir)
		for _, args := range [][]string{{"plan", "-no-color", "-var", "records=2500"}, {"apply", "-auto-approve", "-no-color", "-var", "records=2500"}} {
			r := mustRun(t, dir, 1, nil, args...)
			for _, want := range []string{
				"iceberg table lake.orders is behind the state",
				"the state has committed batches up to 3 into the table, and its current snapshot records batch 1 last",
				fmt.Sprintf("make snapshot %d (batch 3) current again", byBatch["3"]),
			} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("%s over a table rolled back: want %q, got %s", args[0], want, r)
				}
			}
		}
		if after := files(t, dir); after != before {
			t.Errorf("something was written:\n%s\nwas\n%s", after, before)
		}

		// The way back: batch 3's snapshot current again.
		if err := setCurrentSnapshot(ctx, catalogDB(t, dir), byBatch["3"]); err != nil {
			t.Fatal(err)
		}
		mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-var", "records=2500")
		mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color", "-var", "records=2500")
		checkTable(t, dir, "", expectedIDs(3, 2500))
	})
	t.Run("dropped", func(t *testing.T) {
		t.Parallel()
		dir := writeConfig(t, icebergConfig)
		mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
		db := catalogDB(t, dir)
		var loc string
		if err := db.QueryRow(`SELECT metadata_location FROM iceberg_tables WHERE table_name = 'orders'`).Scan(&loc); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`DELETE FROM iceberg_tables WHERE table_name = 'orders'`); err != nil {
			t.Fatal(err)
		}
		before := files(t, dir)
		for _, args := range [][]string{{"plan", "-no-color", "-var", "records=2500"}, {"apply", "-auto-approve", "-no-color", "-var", "records=2500"}} {
			r := mustRun(t, dir, 1, nil, args...)
			for _, want := range []string{
				"iceberg table lake.orders is missing",
				"the state has committed batches up to 3 into it",
				"(newest: " + loc + ")",
			} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("%s over a dropped table: want %q, got %s", args[0], want, r)
				}
			}
		}
		if after := files(t, dir); after != before {
			t.Errorf("something was written:\n%s\nwas\n%s", after, before)
		}
		// The way back: the table registered again from that metadata file
		// (what register_table does in a SQL catalog).
		if _, err := db.Exec(`INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, iceberg_type, metadata_location) VALUES ('streamctl', 'lake', 'orders', 'TABLE', ?)`, loc); err != nil {
			t.Fatal(err)
		}
		mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-var", "records=2500")
		mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color", "-var", "records=2500")
		checkTable(t, dir, "", expectedIDs(3, 2500))
	})
}

// catalogDB opens the SQLite database of icebergConfig's table.
func catalogDB(t *testing.T, dir string) *sql.DB {
	t.Helper()
	return sqliteCatalog(t, filepath.Join(dir, "out", "table", "_streamctl", "iceberg", "catalog.db"))
}

// sqliteCatalog opens the SQLite database of a SQL catalog.
func sqliteCatalog(t *testing.T, file string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+file+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// setCurrentSnapshot makes snapshot id the table's current one, as an
// engine's set_current_snapshot does: a metadata file with main at id,
// recorded in the catalog.
func setCurrentSnapshot(ctx context.Context, db *sql.DB, id int64) error {
	cat, err := sqlcat.NewCatalog("streamctl", db, sqlcat.SQLite, nil)
	if err != nil {
		return err
	}
	ident := table.Identifier{"lake", "orders"}
	tbl, err := cat.LoadTable(ctx, ident)
	if err != nil {
		return err
	}
	_, _, err = cat.CommitTable(ctx, ident,
		[]table.Requirement{table.AssertTableUUID(tbl.Metadata().TableUUID())},
		[]table.Update{table.NewSetSnapshotRefUpdate(table.MainBranch, id, table.BranchRef, -1, -1, -1)})
	return err
}

// TestIcebergTableAhead: killed after the table committed batch 1 and
// before its manifest, with the state's previous version restored (batch 1
// not in flight any more), the table is ahead of the state: plan adopts
// the batch with the snapshot's ranges and says the table keeps it; apply
// writes the manifest without a second snapshot.
func TestIcebergTableAhead(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, icebergConfig)
	killThenRestoreState(t, dir, "after-table-commit:2")
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	// The folder's manifest of batch 1 may have been written before the
	// kill, in parallel with the table's commit: then only the table's
	// destination writes it.
	if !regexp.MustCompile(`\n  ~ adopt batch 1, committed by a destination but not in the state: 1,500 records → table(, folder)?\n`).MatchString(r.stdout) {
		t.Errorf("plan with the table ahead: no adoption of batch 1 in\n%s", r.stdout)
	}
	for _, want := range []string{
		"\n  ~ iceberg table lake.orders already holds batch 1: its snapshot is kept, and the batch is not appended again\n",
		"\n  + batch 2: 1,500 records",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("plan with the table ahead: want %q in\n%s", want, r.stdout)
		}
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	checkTable(t, dir, "", expectedIDs(3, 2000))
}

// TestIcebergOnS3Orphans: a failed table commit's manifests in S3, whose
// modification times cannot be set, are orphans for a clock two hours on:
// plan shows them, apply removes them, and the table holds every record
// once.
func TestIcebergOnS3Orphans(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	bucket := bucketName("ice-orphans")
	srv.CreateBucket(t, bucket)
	dest := strings.Replace(s3Destination(srv, "table", bucket, "lake/orders"), "force_path_style = true", `force_path_style = true
    table {
      format    = "iceberg"
      uri       = "catalog.db"
      namespace = "lake"
      name      = "orders"
    }`, 1)
	hcl := strings.Replace(icebergConfig, `  destination "local" "table" {
    path = "out/table"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
  }
`, dest, 1)
	dir := writeConfig(t, hcl)
	if r := run(t, dir, append([]string{"STREAMCTL_FAULT=table-catalog-commit:2"}, srv.Env()...), "apply", "-auto-approve", "-no-color"); !r.killed {
		t.Fatalf("the fault was not reached: %s", r)
	}
	mustRun(t, dir, 0, srv.Env(), "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, srv.Env(), "plan", "-detailed-exitcode", "-no-color")
	later := append([]string{"STREAMCTL_TEST_CLOCK_SKEW=2h"}, srv.Env()...)
	r := mustRun(t, dir, 2, later, "plan", "-detailed-exitcode", "-no-color")
	lines := regexp.MustCompile(`(?m)^  - remove orphan metadata file (metadata/\S+) of iceberg table lake.orders \(left by a failed commit\) in table$`).FindAllStringSubmatch(r.stdout, -1)
	if len(lines) != 2 {
		t.Fatalf("plan two hours after a failed commit: want its manifest and manifest list as orphans, got\n%s", r.stdout)
	}
	mustRun(t, dir, 0, later, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, later, "plan", "-detailed-exitcode", "-no-color")
	store := s3Storage(t, srv, bucket, "lake/orders")
	ctx := context.Background()
	for _, l := range lines {
		if _, err := store.Stat(ctx, l[1]); err == nil {
			t.Errorf("%s is still there", l[1])
		}
	}
	checkRemoteTable(t, dir, filepath.Join(dir, "catalog.db"), "s3://"+bucket+"/lake/orders", s3TableProps(srv), store, expectedIDs(3, 2000))
}

// TestIcebergVerifyWritesNothing: verify reads the table without writing:
// a column declared since is not added by it, and a table dropped is not
// created again (its committed files are reported as missing from it).
func TestIcebergVerifyWritesNothing(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, icebergConfig)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(icebergConfigWithNote()), 0o644); err != nil {
		t.Fatal(err)
	}
	before := files(t, dir)
	mustRun(t, dir, 0, nil, "verify", "-no-color")
	if after := files(t, dir); after != before {
		t.Errorf("verify wrote:\n%s\nwas\n%s", after, before)
	}
	if _, err := catalogDB(t, dir).Exec(`DELETE FROM iceberg_tables WHERE table_name = 'orders'`); err != nil {
		t.Fatal(err)
	}
	before = files(t, dir)
	r := run(t, dir, nil, "verify", "-no-color")
	if r.code != 2 || !strings.Contains(r.stdout, "committed by its manifest, absent from the current snapshot of iceberg table lake.orders") {
		t.Errorf("verify of a dropped table: want exit 2 and its files missing from it, got %s", r)
	}
	if after := files(t, dir); after != before {
		t.Errorf("verify wrote:\n%s\nwas\n%s", after, before)
	}
}

// TestIcebergTableDeclaredLater: a table block added to a destination that
// already holds batches creates the table, with a warning that those
// batches are not in it; it receives the batches after them.
func TestIcebergTableDeclaredLater(t *testing.T) {
	t.Parallel()
	block := `    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
`
	dir := writeConfig(t, strings.Replace(icebergConfig, block, "", 1))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(icebergConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color", "-var", "records=2500")
	for _, want := range []string{
		"\n  + create iceberg table lake.orders (4 columns, partitioned by day(ts))\n",
		`Warning: destination "table" holds batches up to 3 committed before iceberg table lake.orders was declared: they are not in the table`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("plan: want %q in\n%s", want, r.stdout)
		}
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-var", "records=2500")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color", "-var", "records=2500")
	if seen := scanIDs(t, openTable(t, dir)); len(seen) != 1500 {
		t.Errorf("the table holds %d records, want the 1,500 of the batch after its declaration", len(seen))
	}
}
