package iceberg_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/pipeline"
)

// tree lists every file under root with its size and modification time.
func tree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.IsDir() {
			out = append(out, p+"/")
			return nil
		}
		if strings.HasSuffix(p, "-wal") || strings.HasSuffix(p, "-shm") {
			return nil // SQLite's own, for any reader in WAL mode
		}
		info, _ := d.Info()
		out = append(out, fmt.Sprintf("%s %s %d", p, info.ModTime(), info.Size()))
		return nil
	})
	sort.Strings(out)
	return out
}

// TestInspectWritesNothing: Inspect reads a missing table as missing and
// creates no catalog, namespace or table; it reads an existing one's
// batches and the schema changes and problems of the declared columns,
// and changes nothing in it either.
func TestInspectWritesNothing(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	cfg := config(root, "day(ts)")
	in, err := iceberg.Inspect(ctx, cfg, "orders")
	if err != nil {
		t.Fatal(err)
	}
	if in.Exists || in.Columns != len(columns) || strings.Join(in.PartitionBy, ",") != "day(ts)" {
		t.Errorf("a missing table: %+v", in)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("Inspect wrote into the table's folder: %v", entries)
	}

	tb := open(t, cfg)
	l := pipeline.Layout{Columns: columns, PartitionBy: []string{"day(ts)"}}
	for b := range int64(2) {
		if err := tb.Append(ctx, "orders", b, `[{"partition":"0","start":0,"end":20}]`, writeBatch(t, root, l, b, records(int(b)*20, int(b)*20+20))); err != nil {
			t.Fatal(err)
		}
	}
	tb.Close()
	before := tree(t, root)

	cases := []struct {
		name    string
		edit    func([]format.Column) []format.Column
		changes string
		problem string
	}{
		{"same", func(cs []format.Column) []format.Column { return cs }, "", ""},
		{"added", func(cs []format.Column) []format.Column {
			return append(cs, format.Column{Name: "note", Type: "string"})
		}, "note string", ""},
		{"type", func(cs []format.Column) []format.Column { cs[1].Type = "string"; return cs }, "", `column "qty" is int in the table`},
		{"required", func(cs []format.Column) []format.Column {
			return append(cs, format.Column{Name: "n", Type: "int64", Nullable: new(bool)})
		}, "", `column "n" is new and not nullable`},
	}
	for _, c := range cases {
		cfg := config(root, "day(ts)")
		cfg.Columns = c.edit(append([]format.Column(nil), columns...))
		in, err := iceberg.Inspect(ctx, cfg, "orders")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var changes []string
		for _, ch := range in.Changes {
			changes = append(changes, ch.Column+" "+ch.Type)
		}
		if !in.Exists || strings.Join(changes, ",") != c.changes || c.problem == "" && len(in.Problems) > 0 || c.problem != "" && !strings.Contains(strings.Join(in.Problems, "; "), c.problem) {
			t.Errorf("%s: exists %v, changes %v, problems %v", c.name, in.Exists, changes, in.Problems)
		}
		if len(in.Batches) != 2 || in.Batches[0].Batch != 0 || in.Batches[1].Batch != 1 || !strings.Contains(in.Batches[1].Ranges, `"end":20`) {
			t.Errorf("%s: batches %+v", c.name, in.Batches)
		}
	}
	cfg = config(root)
	if in, err := iceberg.Inspect(ctx, cfg, "orders"); err != nil || !strings.Contains(strings.Join(in.Problems, ";"), "partitioned by [day(ts) as ts_day]") {
		t.Errorf("another partitioning: %v, %+v", err, in)
	}
	cfg = config(root, "day(ts)")
	cfg.Columns = columns[:len(columns)-1]
	if in, err := iceberg.Inspect(ctx, cfg, "orders"); err != nil || strings.Join(in.Undeclared, ",") != "country" || len(in.Problems) > 0 {
		t.Errorf("an optional column no longer declared: %v, %+v", err, in)
	}
	if after := tree(t, root); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("Inspect changed the table's folder:\n%s\nwas\n%s", strings.Join(after, "\n"), strings.Join(before, "\n"))
	}

	// A rollback leaves the later batch's snapshot outside the ancestry.
	tb = open(t, config(root, "day(ts)"))
	txn := tb.Iceberg().NewTransaction()
	if err := txn.RollbackToSnapshot(tb.Iceberg().Metadata().Snapshots()[0].SnapshotID); err != nil {
		t.Fatal(err)
	}
	if _, err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	in, err = iceberg.Inspect(ctx, config(root, "day(ts)"), "orders")
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Batches) != 1 || len(in.Detached) != 1 || in.Detached[0].Batch != 1 {
		t.Errorf("after a rollback to batch 0: batches %+v, detached %+v", in.Batches, in.Detached)
	}
}

// TestInspectOrphans: the metadata files of a failed commit, old enough and
// older than the last commit, are orphans; the table's own, young ones,
// and ones of another shape are not.
func TestInspectOrphans(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	cfg := config(root)
	tb := open(t, cfg)
	for b := range int64(2) {
		if err := tb.Append(ctx, "orders", b, "r", writeBatch(t, root, pipeline.Layout{Columns: columns}, b, records(int(b)*10, int(b)*10+10))); err != nil {
			t.Fatal(err)
		}
	}
	tb.Close()
	in, err := iceberg.Inspect(ctx, cfg, "orders")
	if err != nil {
		t.Fatal(err)
	}
	if in.MetadataFolder() != iceberg.MetadataDir {
		t.Fatalf("MetadataFolder = %q", in.MetadataFolder())
	}
	// Written between the table's creation and its last commit, looked at
	// two hours later.
	old := in.LastCommit.Add(-time.Millisecond)
	now := in.LastCommit.Add(2 * time.Hour)
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(iceberg.MetadataDir)))
	if err != nil {
		t.Fatal(err)
	}
	var commit string // a commit UUID of a snapshot's manifest list
	for _, e := range entries {
		rel := iceberg.MetadataDir + "/" + e.Name()
		if in.Orphan(rel, old, now) {
			t.Errorf("the table's own %s is an orphan", e.Name())
		}
		if strings.HasPrefix(e.Name(), "snap-") {
			commit = strings.TrimSuffix(e.Name()[len(e.Name())-41:], ".avro")
		}
	}
	const u = "0b4c3c8e-2f1a-4d36-9b1e-5a6f7c8d9e0f"
	for _, c := range []struct {
		name string
		mod  time.Time
		want bool
	}{
		{"00002-" + u + ".metadata.json", old, true},
		{"snap-123-1-" + u + ".avro", old, true},
		{u + "-m0.avro", old, true},
		{u + "-m0.avro", now.Add(-30 * time.Minute), false}, // young: maybe another writer's commit in progress
		{u + "-m0.avro", in.LastCommit.Add(time.Second), false},
		{u + "-m0.avro", in.LastCommit.Add(-time.Hour), false}, // before the table: a dropped table's
		{commit + "-m7.avro", old, false},                      // a manifest of a committed snapshot's commit
		{"00000-" + u + ".metadata.json", old, true},
		{"notes.txt", old, false},
		{"version-hint.text", old, false},
	} {
		if got := in.Orphan(iceberg.MetadataDir+"/"+c.name, c.mod, now); got != c.want {
			t.Errorf("Orphan(%s, %s) = %v, want %v", c.name, c.mod, got, c.want)
		}
	}
	if in.Orphan("data/"+u+"-m0.avro", old, now) {
		t.Error("a file outside the metadata folder is an orphan")
	}
}

// TestInspectEmptyCatalog: a SQLite file without the catalog's tables (a
// run that died while opening it) holds no table, and stays as it is.
func TestInspectEmptyCatalog(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "_streamctl", "iceberg")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "catalog.db"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	before := tree(t, root)
	in, err := iceberg.Inspect(context.Background(), config(root), "orders")
	if err != nil || in.Exists {
		t.Fatalf("Inspect of an empty catalog: %v, %+v", err, in)
	}
	if after := tree(t, root); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("Inspect changed the catalog:\n%s\nwas\n%s", strings.Join(after, "\n"), strings.Join(before, "\n"))
	}
}

// TestReadFiles: the current snapshot's files, read without writing; a
// missing table is not created.
func TestReadFiles(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	cfg := config(root)
	if files, exists, err := iceberg.ReadFiles(ctx, cfg); err != nil || exists || len(files) != 0 {
		t.Fatalf("ReadFiles of a missing table: %v, %v, %v", files, exists, err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Errorf("ReadFiles wrote into the table's folder: %v", entries)
	}
	tb := open(t, cfg)
	data := writeBatch(t, root, pipeline.Layout{Columns: columns}, 0, records(0, 10))
	if err := tb.Append(ctx, "orders", 0, "r", data); err != nil {
		t.Fatal(err)
	}
	tb.Close()
	before := tree(t, root)
	cfg.Columns = append(append([]format.Column(nil), columns...), format.Column{Name: "note", Type: "string"})
	files, exists, err := iceberg.ReadFiles(ctx, cfg)
	if err != nil || !exists || len(files) != len(data) || files[0] != data[0].URL {
		t.Errorf("ReadFiles: %v, %v, %v; want %d files", files, exists, err, len(data))
	}
	if after := tree(t, root); strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("ReadFiles changed the table:\n%s\nwas\n%s", strings.Join(after, "\n"), strings.Join(before, "\n"))
	}
}
