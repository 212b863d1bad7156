package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Saved plans are complete: they carry their variables, run exactly as
// planned, and a plan file edited by hand is refused before anything is
// written.

func TestSavedPlanCarriesItsVariables(t *testing.T) {
	t.Parallel()
	hcl := driftConfig("", "a") + `
variable "token" {
  type      = string
  sensitive = true
  default   = "s3cr3t-t0ken"
}
locals {
  unused = var.token
}
`
	dir := writeConfig(t, hcl)
	plan := mustRun(t, dir, 0, nil, "plan", "-var", "records=1500", "-out=tfplan", "-no-color")
	if !strings.Contains(plan.stdout, "Plan: 6 batches, 3,000 records") {
		t.Fatalf("plan with -var records=1500:\n%s", plan.stdout)
	}
	data, err := os.ReadFile(filepath.Join(dir, "tfplan"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "s3cr3t") {
		t.Errorf("the plan file holds the sensitive value:\n%s", data)
	}
	show := mustRun(t, dir, 0, nil, "show", "-json", "tfplan")
	if strings.Contains(show.stdout, "s3cr3t") {
		t.Errorf("show -json of the plan holds the sensitive value")
	}
	// Without -var: the plan's own value, 1500, is applied.
	mustRun(t, dir, 0, nil, "apply", "-no-color", "tfplan")
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1500))
	mustRun(t, dir, 0, nil, "plan", "-var", "records=1500", "-detailed-exitcode", "-no-color")
}

func TestSavedPlanRefusesMaxBatches(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "plan", "-out=tfplan", "-no-color")
	r := run(t, dir, nil, "apply", "-max-batches=1", "tfplan")
	if r.code != 1 || !strings.Contains(r.stderr, "-max-batches does not apply to a saved plan") {
		t.Errorf("apply -max-batches of a saved plan: %s", r)
	}
	if _, err := os.Stat(filepath.Join(dir, ".streamctl", "state.json")); !os.IsNotExist(err) {
		t.Errorf("the refused apply wrote a state (%v)", err)
	}
}

func TestMaxBatchesIsPlannedAndReported(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	plan := mustRun(t, dir, 0, nil, "plan", "-max-batches=1", "-out=tfplan", "-no-color")
	for _, want := range []string{"+ batch 0: 500 records", "+ 3 pending batches left for a later plan (-max-batches)", "Plan: 1 batch, 500 records"} {
		if !strings.Contains(plan.stdout, want) {
			t.Errorf("plan -max-batches=1 lacks %q:\n%s", want, plan.stdout)
		}
	}
	if strings.Contains(plan.stdout, "+ batch 1:") {
		t.Errorf("plan -max-batches=1 shows batch 1:\n%s", plan.stdout)
	}
	mustRun(t, dir, 0, nil, "apply", "-no-color", "tfplan")
	if st := readState(t, dir); st.Sinks["orders"].NextBatch != 1 {
		t.Errorf("the saved plan of one batch ran %d", st.Sinks["orders"].NextBatch)
	}
	ap := mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-max-batches=2", "-no-color")
	if !strings.Contains(ap.stdout, "1 batch is left for a later apply (-max-batches=2).") {
		t.Errorf("apply -max-batches=2 does not say what remains:\n%s", ap.stdout)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1000))
}

// TestEditedPlanIsRefused edits a saved plan the ways that would lose or
// duplicate records; each is refused, and nothing is written.
func TestEditedPlanIsRefused(t *testing.T) {
	t.Parallel()
	type planFile = map[string]any
	pending := func(p planFile) map[string]any {
		return p["sinks"].([]any)[0].(map[string]any)["new"].(map[string]any)
	}
	firstRange := func(p planFile) map[string]any {
		return pending(p)["ranges"].([]any)[0].(map[string]any)
	}
	edits := []struct {
		name string
		edit func(planFile)
		want string
	}{
		{"range starts past the committed offset", func(p planFile) {
			r := firstRange(p)
			r["start"] = r["start"].(float64) + 100
			pending(p)["records"] = pending(p)["records"].(float64) - 100
			pending(p)["batches"] = 2.0
		}, "its new batches start at offset 600, but the committed offset is 500"},
		{"range starts before the committed offset", func(p planFile) {
			r := firstRange(p)
			r["start"] = r["start"].(float64) - 100
			pending(p)["records"] = pending(p)["records"].(float64) + 100
			pending(p)["batches"] = 3.0
		}, "its new batches start at offset 400, but the committed offset is 500"},
		{"batch ids restart", func(p planFile) { pending(p)["first_batch"] = 0.0 }, "its new batches start at batch 0, but the state continues at batch 2"},
		{"max_records zero", func(p planFile) { pending(p)["max_records"] = 0.0 }, "max_records 0 is not positive"},
		{"max_records changed", func(p planFile) {
			pending(p)["max_records"] = 250.0
			pending(p)["batches"] = 4.0
		}, "it cuts batches of 250 records, the configuration of 500"},
		{"records miscounted", func(p planFile) { pending(p)["records"] = 10.0 }, "pending ranges hold 1000 records, but it says 10"},
		{"not JSON", nil, "not a streamctl plan file"},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			dir := writeConfig(t, driftConfig("", "a"))
			mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-max-batches=2", "-no-color")
			mustRun(t, dir, 0, nil, "plan", "-out=tfplan", "-no-color")
			path := filepath.Join(dir, "tfplan")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if e.edit == nil {
				data = data[:len(data)/2]
			} else {
				var p planFile
				if err := json.Unmarshal(data, &p); err != nil {
					t.Fatal(err)
				}
				e.edit(p)
				if data, err = json.Marshal(p); err != nil {
					t.Fatal(err)
				}
			}
			os.WriteFile(path, data, 0o600)
			stateBefore, _ := os.ReadFile(filepath.Join(dir, ".streamctl", "state.json"))
			treeBefore := snapshotTree(t, filepath.Join(dir, "out", "a"))

			r := run(t, dir, nil, "apply", "-no-color", "tfplan")
			if r.code != 1 || !strings.Contains(r.stderr, e.want) {
				t.Errorf("apply of the edited plan: want exit 1 and %q, got %s", e.want, r)
			}
			if stateAfter, _ := os.ReadFile(filepath.Join(dir, ".streamctl", "state.json")); string(stateAfter) != string(stateBefore) {
				t.Errorf("the refused apply changed the state")
			}
			if snapshotTree(t, filepath.Join(dir, "out", "a")) != treeBefore {
				t.Errorf("the refused apply changed the destination")
			}
			mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
			assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1000))
		})
	}
}

// TestSavedPlanRefusesAnotherValue: a variable given another value beside a
// saved plan is refused, not silently overridden either way.
func TestSavedPlanRefusesAnotherValue(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "plan", "-var", "records=1500", "-out=tfplan", "-no-color")
	r := run(t, dir, nil, "apply", "-var", "records=2000", "-no-color", "tfplan")
	if r.code != 1 || !strings.Contains(r.stderr, `The plan file was made with variable "records" = 1500, and this run gives it 2000`) {
		t.Fatalf("apply of a saved plan with another -var: %s", r)
	}
	if _, err := os.Stat(filepath.Join(dir, ".streamctl", "state.json")); !os.IsNotExist(err) {
		t.Errorf("the refused apply wrote a state (%v)", err)
	}
	// The same value is no conflict.
	mustRun(t, dir, 0, nil, "apply", "-var", "records=1500", "-no-color", "tfplan")
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1500))
}
