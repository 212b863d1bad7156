package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A committed batch whose files verify finds missing or changed is written
// again from the source with plan -replace: shown in the plan, applied
// exactly once into the files its manifest lists.

// batchFile is a data file of batch id in destination name.
func batchFile(t *testing.T, dir, name string, id int) string {
	t.Helper()
	var found string
	filepath.Walk(filepath.Join(dir, "out", name), func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() && !strings.Contains(p, "_streamctl") && strings.Contains(filepath.Base(p), "part-"+pad8(id)) {
			found = p
		}
		return nil
	})
	if found == "" {
		t.Fatalf("no data file of batch %d in %s", id, name)
	}
	return found
}

func pad8(n int) string {
	s := "0000000" + string(rune('0'+n))
	return s[len(s)-8:]
}

func TestPlanReplaceRewritesAChangedBatch(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a", "b"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	changed := batchFile(t, dir, "a", 1)
	original := readFile(t, changed)
	if err := os.WriteFile(changed, []byte(`{"id":-1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(batchFile(t, dir, "b", 2)); err != nil {
		t.Fatal(err)
	}

	found := mustRun(t, dir, 2, nil, "verify", "-no-color")
	hint := "streamctl plan -replace='sink.orders[batch 1]' -replace='sink.orders[batch 2]' -out=replace.tfplan"
	mustContain(t, "verify's findings", found.stdout, "Verified 8 manifests and 8 files: 2 findings.", "orders.a batch 1: changed", "orders.b batch 2: missing", hint, "streamctl apply replace.tfplan")
	// plan alone does not see it: the manifests are intact.
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")

	plan := mustRun(t, dir, 2, nil, "plan", "-replace=sink.orders[batch 1]", "-replace=sink.orders[batch 2]", "-out=replace.tfplan", "-detailed-exitcode", "-no-color", "-markdown-out=replace.md", "-json-out=replace.jsonl")
	mustContain(t, "the plan with -replace", plan.stdout,
		"-/+ replace batch 1 in a, b (-replace): 500 records written again from the source, into the files its manifest lists",
		"-/+ replace batch 2 in a, b (-replace)",
		"Plan: 2 batches, 1,000 records to 2 destinations.")
	// The sink's own line counts what the summary counts.
	mustContain(t, "the Markdown plan with -replace", readFile(t, filepath.Join(dir, "replace.md")),
		"<summary>sink <code>orders</code>: 2 batches, 1,000 records</summary>", "-/+ replace batch 1 in a, b (-replace)")
	mustContain(t, "the JSON plan with -replace", readFile(t, filepath.Join(dir, "replace.jsonl")),
		`"@message":"sink \"orders\": 2 batches, 1,000 records"`, `"type":"repair_batch"`, `"replace":true`)
	mustRun(t, dir, 0, nil, "apply", "-no-color", "replace.tfplan")
	if got := readFile(t, changed); got != original {
		t.Errorf("batch 1's file was not written back as it was committed")
	}
	clean := mustRun(t, dir, 0, nil, "verify", "-no-color")
	mustContain(t, "verify after the replacement", clean.stdout, "Verified 8 manifests and 8 files: 0 findings.")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1000))
	assertExactlyOnce(t, dest(dir, "b"), expectedIDs(2, 1000))

	for arg, want := range map[string]string{
		"-replace=sink.orders[batch 9]": "batch 9 is not committed",
		"-replace=sink.nope[batch 1]":   `the configuration has no sink "nope"`,
		"-replace=orders.1":             "not a batch address",
	} {
		r := run(t, dir, nil, "plan", arg, "-no-color")
		if r.code != 1 || !strings.Contains(r.stderr, want) {
			t.Errorf("plan %s: want exit 1 and %q: %s", arg, want, r)
		}
	}
}

// TestPlanReplaceRefusesOtherFiles: a batch written again that would not
// give the files its manifest lists (here: a manifest whose checksum no
// longer matches what the source gives) is refused before any file is put
// in place, and the manifest stays as it is.
func TestPlanReplaceRefusesOtherFiles(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	data := batchFile(t, dir, "a", 1)
	if err := os.WriteFile(data, []byte(`{"id":-1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "out", "a", "_streamctl", "orders", "1.json")
	m := readFile(t, manifest)
	i := strings.Index(m, `"sha256": "`) + len(`"sha256": "`)
	if i < len(`"sha256": "`) {
		t.Fatalf("no checksum in the manifest:\n%s", m)
	}
	edited := m[:i] + strings.Repeat("0", 64) + m[i+64:]
	if err := os.WriteFile(manifest, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, nil, "apply", "-no-color", "-auto-approve")
	if r.code != 0 {
		t.Fatalf("apply without -replace: %s", r)
	}
	mustRun(t, dir, 2, nil, "plan", "-replace=sink.orders[batch 1]", "-out=replace.tfplan", "-detailed-exitcode", "-no-color")
	r = run(t, dir, nil, "apply", "-no-color", "replace.tfplan")
	if r.code != 1 {
		t.Fatalf("apply of a replacement that gives other files: %s", r)
	}
	mustContain(t, "the refused replacement", r.stderr+r.stdout, "replace batch 1 in a: written again from the source, it gives other files than its manifest lists", "Nothing was replaced")
	if got := readFile(t, data); got != `{"id":-1}`+"\n" {
		t.Errorf("the refused replacement wrote the file:\n%.100s", got)
	}
	if got := readFile(t, manifest); got != edited {
		t.Errorf("the refused replacement changed the manifest")
	}
}

// TestVerifyCountsInWords: verify's last line says "1 manifest", "1 file",
// "1 finding" as the plan says "1 batch".
func TestVerifyCountsInWords(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-var=records=100")
	clean := mustRun(t, dir, 0, nil, "verify", "-no-color")
	mustContain(t, "verify of one batch", clean.stdout, "Verified 1 manifest and 1 file: 0 findings.")
	if err := os.WriteFile(batchFile(t, dir, "a", 0), []byte(`{"id":-1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	found := mustRun(t, dir, 2, nil, "verify", "-no-color")
	mustContain(t, "verify of one changed batch", found.stdout, "Verified 1 manifest and 1 file: 1 finding.", "streamctl plan -replace='sink.orders[batch 0]'")
}
