package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers/local"
)

// A files source names its partitions relative to its root folder, so the
// same configuration plans the same partitions wherever streamctl runs
// from; states that named them otherwise keep working; and the advice for
// lost partitions never leads to a second delivery.

// filesLayout is base/data/in/a.jsonl with lines [0, n), base/conf/main.hcl
// reading base/data/in/*.jsonl by its absolute path, and base/x/y/link, a
// link to base: another, deeper path to the same configuration.
func filesLayout(t *testing.T, n int) (base, conf string) {
	t.Helper()
	base = t.TempDir()
	conf = filepath.Join(base, "conf")
	os.MkdirAll(filepath.Join(base, "data", "in"), 0o755)
	os.MkdirAll(conf, 0o755)
	appendLines(t, filepath.Join(base, "data", "in", "a.jsonl"), 0, n)
	hcl := fmt.Sprintf(`
source "files" "clicks" {
  path = %q
}
sink "clicks" {
  source = source.files.clicks
  batch {
    max_records = 1000
  }
  destination "local" "lake" {
    path = "out"
  }
}
`, filepath.Join(base, "data", "in", "*.jsonl"))
	if err := os.WriteFile(filepath.Join(conf, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(base, "x", "y"), 0o755)
	if err := os.Symlink(base, filepath.Join(base, "x", "y", "link")); err != nil {
		t.Fatal(err)
	}
	return base, conf
}

// appendLines appends the records with ids [from, to) to path.
func appendLines(t *testing.T, path string, from, to int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, "{\"id\":%d}\n", i)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		t.Fatal(err)
	}
}

func ids(n int) map[int64]bool {
	out := map[int64]bool{}
	for i := range n {
		out[int64(i)] = true
	}
	return out
}

// TestFilesPartitionsDoNotDependOnWhereStreamctlRuns: applied from the
// configuration folder, then planned and applied through a deeper path to
// it, the same file is the same partition: the new lines only, once.
func TestFilesPartitionsDoNotDependOnWhereStreamctlRuns(t *testing.T) {
	t.Parallel()
	base, conf := filesLayout(t, 600)
	mustRun(t, conf, 0, nil, "apply", "-auto-approve", "-no-color")
	appendLines(t, filepath.Join(base, "data", "in", "a.jsonl"), 600, 700)
	elsewhere := []string{"-chdir=" + filepath.Join("x", "y", "link", "conf")}
	plan := mustRun(t, base, 0, nil, append(elsewhere, "plan", "-no-color")...)
	mustContain(t, "the plan through another path", plan.stdout, "+ batch 1: 100 records → lake", "Plan: 1 batch, 100 records to 1 destination.")
	mustRun(t, base, 0, nil, append(elsewhere, "apply", "-auto-approve", "-no-color")...)
	assertExactlyOnce(t, local.New(filepath.Join(conf, "out")), ids(700))
}

// TestFilesPartitionsOfAnOlderStateAreRenamed: a state that names the file
// relative to the configuration folder, as streamctl did before, is
// planned as a rename of the partition, its committed offset carried over;
// apply records the current name, and nothing is read twice.
func TestFilesPartitionsOfAnOlderStateAreRenamed(t *testing.T) {
	t.Parallel()
	base, conf := filesLayout(t, 600)
	mustRun(t, conf, 0, nil, "apply", "-auto-approve", "-no-color")
	// The state as an older streamctl wrote it from the configuration folder.
	statePath := filepath.Join(conf, ".streamctl", "state.json")
	data := readFile(t, statePath)
	if !strings.Contains(data, `"a.jsonl"`) {
		t.Fatalf("the state does not name the partition a.jsonl:\n%s", data)
	}
	if err := os.WriteFile(statePath, []byte(strings.ReplaceAll(data, `"a.jsonl"`, `"../data/in/a.jsonl"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	appendLines(t, filepath.Join(base, "data", "in", "a.jsonl"), 600, 700)
	plan := mustRun(t, base, 0, nil, "-chdir="+filepath.Join("x", "y", "link", "conf"), "plan", "-no-color")
	mustContain(t, "the plan of an older state", plan.stdout,
		"~ partition ../data/in/a.jsonl is now named a.jsonl: its committed offset 600 carries over",
		"+ batch 1: 100 records → lake",
		"Plan: 1 batch, 100 records to 1 destination, 1 partition renamed.")
	// status measures the partition under its current name: nothing lost.
	status := mustRun(t, conf, 0, nil, "status", "-detailed-exitcode", "-max-lag=1000000", "-no-color")
	if strings.Contains(status.stdout, "no longer in the source") {
		t.Errorf("status takes the partition of an older state for one gone:\n%s", status.stdout)
	}
	mustRun(t, conf, 0, nil, "apply", "-auto-approve", "-no-color")
	var st struct {
		Sinks map[string]struct {
			Offsets map[string]int64 `json:"offsets"`
		} `json:"sinks"`
	}
	if err := json.Unmarshal([]byte(readFile(t, statePath)), &st); err != nil {
		t.Fatal(err)
	}
	if got := st.Sinks["clicks"].Offsets; len(got) != 1 || got["a.jsonl"] != 700 {
		t.Errorf("committed offsets %v, want a.jsonl at 700 only", got)
	}
	mustRun(t, conf, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	assertExactlyOnce(t, local.New(filepath.Join(conf, "out")), ids(700))
}

// TestFilesDataLossAdviceNeverDuplicates: a file renamed is a partition
// gone and a new one unread; skipping the loss would deliver its records a
// second time, and the error says so instead of suggesting it.
func TestFilesDataLossAdviceNeverDuplicates(t *testing.T) {
	t.Parallel()
	base, conf := filesLayout(t, 600)
	mustRun(t, conf, 0, nil, "apply", "-auto-approve", "-no-color")
	in := filepath.Join(base, "data", "in")
	if err := os.Rename(filepath.Join(in, "a.jsonl"), filepath.Join(in, "b.jsonl")); err != nil {
		t.Fatal(err)
	}
	r := run(t, conf, nil, "plan", "-no-color")
	if r.code != 1 {
		t.Fatalf("plan after the file was renamed: %s", r)
	}
	mustContain(t, "the data loss error", r.stderr,
		"partition a.jsonl: it is no longer in the source",
		"1 partition the state never read appeared (b.jsonl)",
		`on_data_loss = "skip" would deliver all of their records a second time`)
	if strings.Contains(r.stderr, "To go on without them, set on_data_loss") {
		t.Errorf("the error suggests skipping, which would deliver the records again:\n%s", r.stderr)
	}
}
