package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The test build shrinks the manifest index interval from 1000 to 5 batches,
// so that 20 batches make 4 indexes.
var smallIndexes = []string{"STREAMCTL_TEST_MANIFEST_INDEX_INTERVAL=5"}

// controlFolder lists a destination's _streamctl/orders/.
func controlFolder(t *testing.T, dir, name string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "out", name, "_streamctl", "orders"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}

func TestManifestIndexes(t *testing.T) {
	t.Parallel()
	// 2 partitions x 1000 records in batches of 100: batches 0–19.
	dir := writeConfig(t, strings.Replace(localConfig(2, 100, 0), "default = 2000", "default = 1000", 1))
	mustRun(t, dir, 0, smallIndexes, "apply", "-auto-approve", "-no-color")
	indexes := []string{"index-0.json", "index-10.json", "index-15.json", "index-5.json"}
	for _, d := range []string{"a", "b"} {
		if got := controlFolder(t, dir, d); !slices.Equal(got, indexes) {
			t.Fatalf("destination %s: control folder %v, want only the 4 indexes", d, got)
		}
	}

	// Readers read through the indexes.
	files := mustRun(t, dir, 0, smallIndexes, "files", "-json", "orders")
	var listed []struct {
		Destination string `json:"destination"`
		Batch       int64  `json:"batch"`
		Records     int64  `json:"records"`
	}
	if err := json.Unmarshal([]byte(files.stdout), &listed); err != nil {
		t.Fatalf("files -json: %v\n%s", err, files.stdout)
	}
	batches := map[string]map[int64]bool{"a": {}, "b": {}}
	var records int64
	for _, f := range listed {
		batches[f.Destination][f.Batch] = true
		records += f.Records
	}
	if len(batches["a"]) != 20 || len(batches["b"]) != 20 || records != 4000 {
		t.Fatalf("files lists %d batches in a, %d in b, %d records; want 20, 20, 4000", len(batches["a"]), len(batches["b"]), records)
	}
	verify := mustRun(t, dir, 0, smallIndexes, "verify", "-deep", "-no-color")
	if !strings.Contains(verify.stdout, "Verified 40 manifests") {
		t.Errorf("verify:\n%s", verify.stdout)
	}
	mustRun(t, dir, 0, smallIndexes, "plan", "-detailed-exitcode", "-no-color")
	statePath := filepath.Join(dir, ".streamctl", "state.json")
	old, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}

	// Killed after writing an index, before deleting the manifests it holds:
	// the next apply finishes the compaction and the data stays exactly once.
	r := run(t, dir, append([]string{"STREAMCTL_FAULT=after-index"}, smallIndexes...), "apply", "-auto-approve", "-no-color", "-var=records=1500")
	if !r.killed {
		t.Fatalf("the fault after-index was not reached: %s", r)
	}
	if got := controlFolder(t, dir, "a"); !slices.Contains(got, "index-20.json") || !slices.Contains(got, "20.json") {
		t.Fatalf("destination a after the kill: %v; want index-20.json beside 20.json", got)
	}
	mustRun(t, dir, 0, smallIndexes, "verify", "-no-color")
	mustRun(t, dir, 0, smallIndexes, "apply", "-auto-approve", "-no-color", "-var=records=1500")
	indexes = []string{"index-0.json", "index-10.json", "index-15.json", "index-20.json", "index-25.json", "index-5.json"}
	for _, d := range []string{"a", "b"} {
		if got := controlFolder(t, dir, d); !slices.Equal(got, indexes) {
			t.Errorf("destination %s after recovery: %v, want %v", d, got, indexes)
		}
		assertExactlyOnce(t, dest(dir, d), expectedIDs(2, 1500))
	}
	mustRun(t, dir, 0, smallIndexes, "plan", "-detailed-exitcode", "-no-color", "-var=records=1500")

	// The state restored from before batches 20–29: the destinations hold
	// them in indexes, and apply adopts them from there without writing data.
	if err := os.WriteFile(statePath, old, 0o600); err != nil {
		t.Fatal(err)
	}
	before := snapshotTree(t, filepath.Join(dir, "out"))
	plan := mustRun(t, dir, 2, smallIndexes, "plan", "-detailed-exitcode", "-no-color", "-var=records=1500")
	if !strings.Contains(plan.stdout, "~ adopt batch 20") || !strings.Contains(plan.stdout, "~ adopt batch 29") {
		t.Errorf("plan does not adopt the indexed batches:\n%s", plan.stdout)
	}
	mustRun(t, dir, 0, smallIndexes, "apply", "-auto-approve", "-no-color", "-var=records=1500")
	mustRun(t, dir, 0, smallIndexes, "plan", "-detailed-exitcode", "-no-color", "-var=records=1500")
	if after := snapshotTree(t, filepath.Join(dir, "out")); after != before {
		t.Errorf("adopting indexed batches rewrote destination files")
	}

	// An index deleted is drift like a manifest deleted: its batches are
	// rewritten from the source, and b is not touched.
	if err := os.Remove(filepath.Join(dir, "out", "a", "_streamctl", "orders", "index-5.json")); err != nil {
		t.Fatal(err)
	}
	before = snapshotTree(t, filepath.Join(dir, "out", "b"))
	plan = mustRun(t, dir, 2, smallIndexes, "plan", "-detailed-exitcode", "-no-color", "-var=records=1500")
	for _, id := range []string{"5", "6", "7", "8", "9"} {
		if !strings.Contains(plan.stdout, "~ rewrite committed batch "+id+" into a (missing there)") {
			t.Errorf("plan does not show batch %s missing from a:\n%s", id, plan.stdout)
		}
	}
	mustRun(t, dir, 0, smallIndexes, "apply", "-auto-approve", "-no-color", "-var=records=1500")
	mustRun(t, dir, 0, smallIndexes, "plan", "-detailed-exitcode", "-no-color", "-var=records=1500")
	mustRun(t, dir, 0, smallIndexes, "verify", "-deep", "-no-color")
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1500))
	if after := snapshotTree(t, filepath.Join(dir, "out", "b")); after != before {
		t.Errorf("the repair of a touched b")
	}
}
