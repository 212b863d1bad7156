package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers/local"
)

// driftConfig is a generated stream into the destinations named, each a local
// folder out/NAME; extra is added to each destination block.
func driftConfig(extra string, dests ...string) string {
	var b strings.Builder
	b.WriteString(`
variable "records" {
  type    = number
  default = 1000
}
source "generate" "orders" {
  partitions            = 2
  records_per_partition = var.records
}
sink "orders" {
  source = source.generate.orders
  batch {
    max_records = 500
  }
`)
	for _, d := range dests {
		b.WriteString("  destination \"local\" \"" + d + "\" {\n    path = \"out/" + d + "\"\n" + extra + "  }\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func setConfig(t *testing.T, dir, hcl string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
}

func dest(dir, name string) *local.Storage { return local.New(filepath.Join(dir, "out", name)) }

func TestDriftOrphanTemporary(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a", "b"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	orphan := filepath.Join(dir, "out", "a", "_temporary", "99", "part-00000099-00000.jsonl")
	os.MkdirAll(filepath.Dir(orphan), 0o755)
	os.WriteFile(orphan, []byte(`{"id":1}`+"\n"), 0o644)

	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if !strings.Contains(plan.stdout, "- remove orphan _temporary/99 in a") {
		t.Errorf("plan does not show the orphan:\n%s", plan.stdout)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1000))
}

func TestDriftDestinationBehind(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a", "b"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	// Someone deletes batch 1 from a: its manifest and its file.
	os.Remove(filepath.Join(dir, "out", "a", "_streamctl", "orders", "1.json"))
	os.Remove(filepath.Join(dir, "out", "a", "part-00000001-00000.jsonl"))
	before := snapshotTree(t, filepath.Join(dir, "out", "b"))

	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if !strings.Contains(plan.stdout, "~ rewrite committed batch 1 into a (missing there): 500 records") {
		t.Errorf("plan does not show the drift:\n%s", plan.stdout)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	want := expectedIDs(2, 1000)
	assertExactlyOnce(t, dest(dir, "a"), want)
	assertExactlyOnce(t, dest(dir, "b"), want)
	if after := snapshotTree(t, filepath.Join(dir, "out", "b")); after != before {
		t.Errorf("the repair touched destination b")
	}
}

func TestDriftStateRestoredFromOlderCopy(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a", "b"))
	statePath := filepath.Join(dir, ".streamctl", "state.json")
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-max-batches=2")
	old, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	// Restore the older state: the destinations are ahead of it by 2 batches.
	os.WriteFile(statePath, old, 0o600)

	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	for _, want := range []string{"~ adopt batch 2", "~ adopt batch 3", "no destination left to write"} {
		if !strings.Contains(plan.stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
		}
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	want := expectedIDs(2, 1000)
	assertExactlyOnce(t, dest(dir, "a"), want)
	assertExactlyOnce(t, dest(dir, "b"), want)

	// Ahead by batches that do not continue the state: refused, explained.
	os.WriteFile(statePath, old, 0o600)
	setConfig(t, dir, strings.Replace(driftConfig("", "a", "b"), "max_records = 500", "max_records = 300", 1))
	os.Remove(filepath.Join(dir, "out", "a", "_streamctl", "orders", "2.json"))
	os.Remove(filepath.Join(dir, "out", "b", "_streamctl", "orders", "2.json"))
	r := run(t, dir, nil, "plan", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "a destination is ahead of the state") || !strings.Contains(r.stderr, "the state expects batch 2 next") {
		t.Errorf("plan over a gap: %s", r)
	}
}

func TestDestinationAddedGetsBackfill(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	before := snapshotTree(t, filepath.Join(dir, "out", "a"))

	setConfig(t, dir, driftConfig("", "a", "b"))
	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	for _, want := range []string{"rewrite committed batch 0 into b", "rewrite committed batch 3 into b", "Plan: 4 batches, 2,000 records to 1 destination."} {
		if !strings.Contains(plan.stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
		}
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	want := expectedIDs(2, 1000)
	assertExactlyOnce(t, dest(dir, "b"), want)
	if after := snapshotTree(t, filepath.Join(dir, "out", "a")); after != before {
		t.Errorf("the backfill touched destination a")
	}
	// Both now get new batches.
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-var=records=1200")
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1200))
	assertExactlyOnce(t, dest(dir, "b"), expectedIDs(2, 1200))
}

func TestDestinationAddedWithoutBackfill(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	setConfig(t, dir, strings.Replace(driftConfig("", "a", "b"), "path = \"out/b\"\n", "path = \"out/b\"\n    backfill = false\n", 1))
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-var=records=1100")
	want := map[int64]bool{}
	for p := int64(0); p < 2; p++ {
		for o := int64(1000); o < 1100; o++ {
			want[p*1_000_000_000_000+o] = true
		}
	}
	assertExactlyOnce(t, dest(dir, "b"), want)
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1100))
}

func TestDestinationRemoved(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a", "b"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	setConfig(t, dir, driftConfig("", "a"))
	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if !strings.Contains(plan.stdout, "destination b is no longer configured: it receives no more data; its files stay") {
		t.Errorf("plan:\n%s", plan.stdout)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	show := mustRun(t, dir, 0, nil, "state", "show", "orders")
	if strings.Contains(show.stdout, "    b ") {
		t.Errorf("the removed destination is still in the state:\n%s", show.stdout)
	}
	assertExactlyOnce(t, dest(dir, "b"), expectedIDs(2, 1000))
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
}

// TestCrashDuringBackfill kills streamctl while it backfills a new
// destination; the next apply completes it exactly once.
func TestCrashDuringBackfill(t *testing.T) {
	for _, fp := range []string{"after-stage-file:1", "after-stage", "after-promote-file:1", "after-manifest:2"} {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			dir := writeConfig(t, driftConfig("", "a"))
			mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
			setConfig(t, dir, driftConfig("", "a", "b"))
			r := run(t, dir, []string{"STREAMCTL_FAULT=" + fp}, "apply", "-auto-approve", "-no-color")
			if !r.killed {
				t.Fatalf("the fault %s was not reached: %s", fp, r)
			}
			mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
			mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
			want := expectedIDs(2, 1000)
			assertExactlyOnce(t, dest(dir, "a"), want)
			assertExactlyOnce(t, dest(dir, "b"), want)
		})
	}
}

// snapshotTree renders every file's path, size and modification time.
func snapshotTree(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			b.WriteString(p + " " + fi.ModTime().String() + " " + string(rune(fi.Size())) + "\n")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestVerifyAndFiles(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a", "b"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	ok := mustRun(t, dir, 0, nil, "verify", "-deep", "-no-color")
	if !strings.Contains(ok.stdout, "Verified 8 manifests and 8 files: 0 findings.") {
		t.Errorf("verify of intact destinations:\n%s", ok.stdout)
	}
	files := mustRun(t, dir, 0, nil, "files", "-destination=a", "orders")
	if strings.Count(files.stdout, "part-0000000") != 4 || !strings.Contains(files.stdout, "a            1      500") {
		t.Errorf("files:\n%s", files.stdout)
	}

	a := filepath.Join(dir, "out", "a")
	os.Remove(filepath.Join(a, "part-00000000-00000.jsonl"))
	data, _ := os.ReadFile(filepath.Join(a, "part-00000001-00000.jsonl"))
	data[10] ^= 1 // same size, other bytes
	os.WriteFile(filepath.Join(a, "part-00000001-00000.jsonl"), data, 0o644)
	os.WriteFile(filepath.Join(a, "stray.jsonl"), []byte("{}\n"), 0o644)
	r := run(t, dir, nil, "verify", "-no-color")
	if r.code != 2 {
		t.Fatalf("verify of tampered destinations: %s", r)
	}
	for _, want := range []string{
		"orders.a batch 0: missing part-00000000-00000.jsonl",
		"orders.a batch 1: changed part-00000001-00000.jsonl: SHA-256",
		"orders.a: unlisted stray.jsonl",
		"3 findings",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("verify output lacks %q:\n%s", want, r.stdout)
		}
	}
}
