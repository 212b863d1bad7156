package iceberg_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/avro/ocf"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/pipeline"
)

// hadoopCurrent follows the Hadoop tables' convention by hand, as an engine
// given only the table's folder does, without iceberg-go: the version in
// metadata/version-hint.text, then metadata/v<N>.metadata.json. It returns
// N and the metadata's location, current snapshot and that snapshot's
// manifest list.
func hadoopCurrent(t *testing.T, root string) (version int, location string, snapshot int64, manifestList string) {
	t.Helper()
	hint, err := os.ReadFile(filepath.Join(root, "metadata", "version-hint.text"))
	if err != nil {
		t.Fatalf("no version hint: %v", err)
	}
	version, err = strconv.Atoi(string(hint))
	if err != nil {
		t.Fatalf("version-hint.text holds %q, not a version number", hint)
	}
	raw, err := os.ReadFile(filepath.Join(root, "metadata", fmt.Sprintf("v%d.metadata.json", version)))
	if err != nil {
		t.Fatalf("the hint names version %d: %v", version, err)
	}
	var meta struct {
		Location  string `json:"location"`
		Current   *int64 `json:"current-snapshot-id"`
		Snapshots []struct {
			ID           int64  `json:"snapshot-id"`
			ManifestList string `json:"manifest-list"`
		} `json:"snapshots"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		t.Fatalf("v%d.metadata.json: %v", version, err)
	}
	if meta.Current == nil || *meta.Current < 0 {
		return version, meta.Location, -1, ""
	}
	for _, s := range meta.Snapshots {
		if s.ID == *meta.Current {
			return version, meta.Location, s.ID, s.ManifestList
		}
	}
	t.Fatalf("v%d.metadata.json: no snapshot %d", version, *meta.Current)
	return
}

// A local table is found by its folder alone: the version hint names a
// metadata file in <location>/metadata that holds the catalog's current
// snapshot, after the creation and after every commit, and its data files,
// found by hand from there and read by DuckDB, hold every record once.
func TestTableFoundByLocation(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	layout := pipeline.Layout{Columns: columns, PartitionBy: []string{"day(ts)"}, MaxFileRecords: 30}
	tb := open(t, config(root, "day(ts)"))

	if _, loc, snap, _ := hadoopCurrent(t, root); loc != "file://"+root || snap != -1 {
		t.Errorf("after creation: location %s, snapshot %d; want file://%s and none", loc, snap, root)
	}
	if !strings.HasPrefix(tb.Iceberg().MetadataLocation(), "file://"+root+"/metadata/") {
		t.Errorf("metadata at %s, want under <location>/metadata", tb.Iceberg().MetadataLocation())
	}
	for b := range 3 {
		if err := tb.Append(ctx, "orders", int64(b), "r", writeBatch(t, root, layout, int64(b), records(b*50, b*50+50))); err != nil {
			t.Fatal(err)
		}
		version, _, snap, list := hadoopCurrent(t, root)
		if want := tb.Iceberg().CurrentSnapshot().SnapshotID; snap != want {
			t.Errorf("after batch %d: the hint's v%d has snapshot %d, the catalog %d", b, version, snap, want)
		}
		if _, err := os.Stat(strings.TrimPrefix(list, "file://")); err != nil {
			t.Errorf("after batch %d: manifest list: %v", b, err)
		}
	}
	// A retry of a committed batch by a new process leaves the hint where it is.
	version, _, _, _ := hadoopCurrent(t, root)
	tb2 := open(t, config(root, "day(ts)"))
	if err := tb2.Append(ctx, "orders", 2, "r", writeBatch(t, root, layout, 2, records(100, 150))); err != nil {
		t.Fatal(err)
	}
	if v, _, _, _ := hadoopCurrent(t, root); v != version {
		t.Errorf("a retry moved the hint from %d to %d", version, v)
	}

	checkByLocation(t, root, 150)
}

// Writers that commit at once leave the hint at the version the catalog
// holds last, whatever order their hints are written in.
func TestHintAfterConcurrentCommits(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	layout := pipeline.Layout{Columns: columns}
	const writers = 4
	files := make([][]iceberg.DataFile, writers)
	for w := range writers {
		files[w] = writeBatch(t, root, layout, int64(w), records(w*25, w*25+25))
	}
	tables := make([]*iceberg.Table, writers)
	for w := range writers {
		tables[w] = open(t, config(root))
	}
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for w := range writers {
		wg.Go(func() {
			// One sink per writer: their batches do not follow each other.
			errs[w] = tables[w].Append(ctx, fmt.Sprintf("orders-%d", w), int64(w), "r", files[w])
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	// Reloaded without publishing (Open would publish the hint again).
	if _, _, err := tables[0].LastBatch(ctx, "orders-0"); err != nil {
		t.Fatal(err)
	}
	last := tables[0].Iceberg()
	if n := len(last.Metadata().Snapshots()); n != writers {
		t.Fatalf("%d snapshots, want %d", n, writers)
	}
	if _, _, snap, _ := hadoopCurrent(t, root); snap != last.CurrentSnapshot().SnapshotID {
		t.Errorf("the hint's snapshot is %d, the catalog's %d", snap, last.CurrentSnapshot().SnapshotID)
	}
	checkByLocation(t, root, writers*25)
}

// A table created by an earlier version keeps its metadata under
// _streamctl/iceberg/metadata (its write.metadata.path) and gets its
// version hint, with a copy of the current metadata, in <location>/metadata.
func TestLegacyTableGetsAHint(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	cfg := config(root)
	tb := open(t, cfg)
	// What earlier versions set on the tables they created.
	txn := tb.Iceberg().NewTransaction()
	if err := txn.SetProperties(map[string]string{"write.metadata.path": "file://" + root + "/" + iceberg.LegacyMetadataDir}); err != nil {
		t.Fatal(err)
	}
	if _, err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	tb.Close()
	tb = open(t, cfg)
	if err := tb.Append(ctx, "orders", 0, "r", writeBatch(t, root, pipeline.Layout{Columns: columns}, 0, records(0, 40))); err != nil {
		t.Fatal(err)
	}
	if loc := tb.Iceberg().MetadataLocation(); !strings.HasPrefix(loc, "file://"+root+"/"+iceberg.LegacyMetadataDir+"/") {
		t.Errorf("the legacy table's metadata moved to %s", loc)
	}
	if _, _, snap, _ := hadoopCurrent(t, root); snap != tb.Iceberg().CurrentSnapshot().SnapshotID {
		t.Errorf("the hint's snapshot is %d, the catalog's %d", snap, tb.Iceberg().CurrentSnapshot().SnapshotID)
	}
	checkByLocation(t, root, 40)
}

// hadoopDataFiles follows the hint by hand to the current snapshot's data
// files: its manifest list, the data manifests it lists, their entries that
// are not deleted. Avro is read with an Avro library, not iceberg-go.
func hadoopDataFiles(t *testing.T, root string) []string {
	t.Helper()
	_, _, snap, list := hadoopCurrent(t, root)
	if snap < 0 {
		return nil
	}
	var files []string
	for _, m := range avroRecords(t, list) {
		if fmt.Sprint(m["content"]) != "0" { // 1: a delete manifest
			continue
		}
		for _, e := range avroRecords(t, m["manifest_path"].(string)) {
			if fmt.Sprint(e["status"]) == "2" { // deleted
				continue
			}
			files = append(files, e["data_file"].(map[string]any)["file_path"].(string))
		}
	}
	return files
}

func avroRecords(t *testing.T, fileURL string) []map[string]any {
	t.Helper()
	f, err := os.Open(strings.TrimPrefix(fileURL, "file://"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ocf.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", fileURL, err)
	}
	var out []map[string]any
	for {
		var rec map[string]any
		err := r.Decode(&rec)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", fileURL, err)
		}
		out = append(out, rec)
	}
}

// checkByLocation reads the data files the hint leads to with DuckDB and
// checks that they hold records [0, n), each once, with their values.
func checkByLocation(t *testing.T, root string, n int) {
	t.Helper()
	files := hadoopDataFiles(t, root)
	if len(files) == 0 {
		t.Fatal("the hint leads to no data file")
	}
	var quoted []string
	for _, f := range files {
		quoted = append(quoted, "'"+strings.TrimPrefix(f, "file://")+"'")
	}
	got := fmt.Sprint(duckdb(t, "SELECT count(*)::VARCHAR, count(DISTINCT id)::VARCHAR, min(id)::VARCHAR, max(id)::VARCHAR, sum(qty)::VARCHAR, sum(amount)::VARCHAR, count(ts)::VARCHAR, string_agg(DISTINCT country, ',' ORDER BY country) FROM read_parquet(["+strings.Join(quoted, ", ")+"])")[0][0])
	var qty int
	var amount float64
	nts := 0
	for i := range n {
		r := record(i)
		if r["qty"] != nil {
			qty += r["qty"].(int)
			amount += r["amount"].(float64)
			nts++
		}
	}
	want := fmt.Sprint([]any{fmt.Sprint(n), fmt.Sprint(n), "0", fmt.Sprint(n - 1), fmt.Sprint(qty), fmt.Sprint(amount), fmt.Sprint(nts), "de,fr,sp ace,日本"})
	if got != want {
		t.Errorf("the data files the hint leads to hold %s, want %s", got, want)
	}
}
