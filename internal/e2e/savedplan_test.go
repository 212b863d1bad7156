package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers/local"
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

// A saved plan applied after its source grew, with no change of the
// configuration, writes exactly the ranges that were reviewed, says that
// more came, and leaves the rest to the next plan.

// assertGrowthSaid checks that an apply of a saved plan warned that the
// source grew, naming want (the partitions and how much).
func assertGrowthSaid(t *testing.T, r result, want ...string) {
	t.Helper()
	for _, w := range append([]string{"Warning: The source grew since the plan was saved", "This saved plan writes exactly the ranges it lists, nothing more; run streamctl plan afterwards to see the rest."}, want...) {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("the apply of the saved plan does not say %q:\n%s", w, r)
		}
	}
}

func TestSavedPlanAfterFilesGrew(t *testing.T) {
	t.Parallel()
	base, conf := filesLayout(t, 2500)
	mustRun(t, conf, 2, nil, "plan", "-detailed-exitcode", "-no-color", "-out=reviewed.plan")
	appendLines(t, filepath.Join(base, "data", "in", "a.jsonl"), 2500, 2700)
	appendLines(t, filepath.Join(base, "data", "in", "b.jsonl"), 5000, 5300)

	r := mustRun(t, conf, 0, nil, "apply", "-no-color", "reviewed.plan")
	assertGrowthSaid(t, r, `sink "clicks": source.files.clicks has 500 more records than when the plan was made (a.jsonl: 200 more; b.jsonl: 300, a new partition)`)
	if !strings.Contains(r.stdout, "Apply complete! 3 batches, 2,500 records") {
		t.Errorf("the apply did not write the 2,500 reviewed records in 3 batches:\n%s", r.stdout)
	}
	assertExactlyOnce(t, local.New(filepath.Join(conf, "out")), ids(2500))

	plan := mustRun(t, conf, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if !strings.Contains(plan.stdout, "+ batch 3: 500 records → lake  (a.jsonl:[2500,2700) b.jsonl:[0,300))") {
		t.Errorf("the next plan does not show the rest:\n%s", plan.stdout)
	}
	mustRun(t, conf, 0, nil, "apply", "-auto-approve", "-no-color")
	want := ids(2700)
	for id := int64(5000); id < 5300; id++ {
		want[id] = true
	}
	assertExactlyOnce(t, local.New(filepath.Join(conf, "out")), want)
}

func TestSavedPlanAfterKafkaGrew(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	conf := kafkaConf{Brokers: broker.Addr, Topic: kafkaTopic(t, broker, 3), MaxRecords: 400}
	dir := writeConfig(t, conf.hcl())
	reviewed := newProducedIDs()
	produceIDs(t, broker, conf.Topic, reviewed, 1, 900, 3) // offsets [0, 300) each
	mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color", "-out=reviewed.plan")
	all := newProducedIDs()
	produceIDs(t, broker, conf.Topic, all, 10_001, 150, 3) // offsets [300, 350) each

	r := mustRun(t, dir, 0, nil, "apply", "-no-color", "reviewed.plan")
	assertGrowthSaid(t, r, `sink "events": source.kafka.events has 150 more records than when the plan was made (0: 50 more; 1: 50 more; 2: 50 more)`)
	if !strings.Contains(r.stdout, "Apply complete! 3 batches, 900 records") {
		t.Errorf("the apply did not write the 900 reviewed records in 3 batches:\n%s", r.stdout)
	}
	disk := local.New(filepath.Join(dir, "out", "disk"))
	assertExactlyOnce(t, disk, reviewed.want())

	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if !strings.Contains(plan.stdout, "+ batch 3: 150 records") {
		t.Errorf("the next plan does not show the rest:\n%s", plan.stdout)
	}
	applyAndSettle(t, dir, nil)
	want := reviewed.want()
	for id := range all.want() {
		want[id] = true
	}
	assertExactlyOnce(t, disk, want)
}

// TestStalePlanAdviceCanBeFollowed: a saved plan made stale by another
// apply is refused with what to do, which works: plan again and apply that
// file, planning again whenever another run committed in between.
func TestStalePlanAdviceCanBeFollowed(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "plan", "-no-color", "-out=tfplan")
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-max-batches=1")
	r := run(t, dir, nil, "apply", "-no-color", "tfplan")
	if r.code != 1 {
		t.Fatalf("apply of a stale plan: %s", r)
	}
	mustContain(t, "the refusal of a stale plan", r.stderr,
		"Error: Saved plan is stale",
		"Nothing was written. Make a new plan (streamctl plan -out=FILE) and apply that file.",
		"plan again when the apply finds the plan stale, as examples/ci does.")
	if n := strings.Count(strings.ToLower(r.stderr), "plan is stale"); n != 1 {
		t.Errorf("the refusal says its title %d times:\n%s", n, r.stderr)
	}
	if strings.Contains(r.stderr, "so that none commits in between") {
		t.Errorf("the advice promises that planning and applying in one job keeps other runs from committing:\n%s", r.stderr)
	}
	// Followed, it works.
	mustRun(t, dir, 0, nil, "plan", "-no-color", "-out=tfplan")
	mustRun(t, dir, 0, nil, "apply", "-no-color", "tfplan")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1000))
}
