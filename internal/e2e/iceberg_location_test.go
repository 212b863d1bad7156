package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/avro/ocf"
)

// TestIcebergTableByLocation: after an apply killed right after a table
// commit and the apply that finishes it, the table is found by its folder
// alone, as engines that read Hadoop tables find it: version-hint.text
// names vN.metadata.json in <location>/metadata, which is the metadata the
// catalog holds, and the data files its current snapshot's manifests list
// hold every record once (read by DuckDB). Followed by hand, without
// iceberg-go.
func TestIcebergTableByLocation(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, icebergConfig)
	if r := run(t, dir, []string{"STREAMCTL_FAULT=after-table-commit:3"}, "apply", "-auto-approve", "-no-color"); !r.killed {
		t.Fatalf("the fault was not reached: %s", r)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")

	table := filepath.Join(dir, "out", "table")
	hint, err := os.ReadFile(filepath.Join(table, "metadata", "version-hint.text"))
	if err != nil {
		t.Fatal(err)
	}
	version, err := strconv.Atoi(string(hint))
	if err != nil {
		t.Fatalf("version-hint.text holds %q", hint)
	}
	copied, err := os.ReadFile(filepath.Join(table, "metadata", fmt.Sprintf("v%d.metadata.json", version)))
	if err != nil {
		t.Fatalf("the hint names version %d: %v", version, err)
	}
	var current string
	if err := catalogDB(t, dir).QueryRow(`SELECT metadata_location FROM iceberg_tables WHERE table_name = 'orders'`).Scan(&current); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(current, "file://"+table+"/metadata/") || !strings.HasPrefix(path.Base(current), fmt.Sprintf("%05d-", version)) {
		t.Errorf("the catalog's metadata is %s, the hint names version %d", current, version)
	}
	if catalogs, err := os.ReadFile(strings.TrimPrefix(current, "file://")); err != nil || string(catalogs) != string(copied) {
		t.Errorf("v%d.metadata.json is not a copy of the catalog's %s (%v)", version, current, err)
	}

	var meta struct {
		Current   int64 `json:"current-snapshot-id"`
		Snapshots []struct {
			ID           int64             `json:"snapshot-id"`
			ManifestList string            `json:"manifest-list"`
			Summary      map[string]string `json:"summary"`
		} `json:"snapshots"`
	}
	if err := json.Unmarshal(copied, &meta); err != nil {
		t.Fatal(err)
	}
	list := ""
	for _, s := range meta.Snapshots {
		if s.ID == meta.Current {
			list = s.ManifestList
		}
	}
	if list == "" || len(meta.Snapshots) != 4 {
		t.Fatalf("v%d.metadata.json: %d snapshots, current %d not among them or without a manifest list (want 4 batches)", version, len(meta.Snapshots), meta.Current)
	}
	var quoted []string
	for _, m := range avroFile(t, list) {
		if fmt.Sprint(m["content"]) != "0" {
			continue
		}
		for _, e := range avroFile(t, m["manifest_path"].(string)) {
			if fmt.Sprint(e["status"]) != "2" {
				quoted = append(quoted, "'"+strings.TrimPrefix(e["data_file"].(map[string]any)["file_path"].(string), "file://")+"'")
			}
		}
	}
	if got := fmt.Sprint(duckdb(t, dir, "SELECT count(*), count(DISTINCT id) FROM read_parquet(["+strings.Join(quoted, ", ")+"])")); got != "[[6000 6000]]" {
		t.Errorf("the %d data files the hint leads to: %s, want 6000 records, each once", len(quoted), got)
	}
}

// avroFile reads the records of a local Avro file (a manifest list or a
// manifest) at a file:// URL.
func avroFile(t *testing.T, fileURL string) []map[string]any {
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
		if err := r.Decode(&rec); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatalf("%s: %v", fileURL, err)
		}
		out = append(out, rec)
	}
}
