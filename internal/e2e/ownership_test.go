package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/streamctl/streamctl/providers/local"
)

// Destinations have an owner: a renamed sink, or a second state writing the
// same folder, is refused before anything is written, and a moved block
// carries a sink over to its new name.

func renamed(hcl, to string) string {
	return strings.Replace(hcl, `sink "orders" {`, `sink "`+to+`" {`, 1)
}

func TestRenamedSinkIsRefused(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	before := snapshotTree(t, filepath.Join(dir, "out", "a"))

	setConfig(t, dir, renamed(driftConfig("", "a"), "orders_v2"))
	for _, args := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		r := run(t, dir, nil, args...)
		if r.code != 1 {
			t.Fatalf("%s of a renamed sink: want exit 1, got %s", args[0], r)
		}
		for _, want := range []string{`destination "a"`, `holds the data of sink "orders", not of sink "orders_v2"`, "from = sink.orders", "to   = sink.orders_v2"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%s: the refusal lacks %q:\n%s", args[0], want, r.stderr)
			}
		}
	}
	if after := snapshotTree(t, filepath.Join(dir, "out", "a")); after != before {
		t.Errorf("the refused apply changed the destination")
	}
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1000))
}

// TestRenamedSinkIsRefusedInOldDestinations: a destination written before
// owner records existed is known by the manifests it holds.
func TestRenamedSinkIsRefusedInOldDestinations(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	if err := os.Remove(filepath.Join(dir, "out", "a", "_streamctl", "owner.json")); err != nil {
		t.Fatalf("the apply wrote no owner record: %v", err)
	}
	setConfig(t, dir, renamed(driftConfig("", "a"), "orders_v2"))
	r := run(t, dir, nil, "apply", "-auto-approve", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, `holds the data of sink "orders"`) {
		t.Fatalf("apply of a renamed sink over an old destination: %s", r)
	}
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1000))
}

func TestMovedBlockCarriesTheSinkOver(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a", "b"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")

	moved := renamed(driftConfig("", "a", "b"), "orders_v2") + "moved {\n  from = sink.orders\n  to   = sink.orders_v2\n}\n"
	setConfig(t, dir, moved)
	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	for _, want := range []string{`# sink "orders_v2" (moved from "orders")`, "~ move sink.orders to sink.orders_v2"} {
		if !strings.Contains(plan.stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
		}
	}
	if strings.Contains(plan.stdout, "+ batch") {
		t.Errorf("the move plans new batches:\n%s", plan.stdout)
	}
	applied := mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(applied.stdout, "\nsink.orders_v2: moved from sink.orders\n") {
		t.Errorf("apply does not report the move:\n%s", applied.stdout)
	}
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")

	st := readState(t, dir)
	if _, ok := st.Sinks["orders"]; ok {
		t.Errorf("the state still holds sink orders")
	}
	if s := st.Sinks["orders_v2"]; s == nil || s.CommittedRecords != 2000 || s.NextBatch != 4 {
		t.Fatalf("the state's orders_v2 is not orders' checkpoint: %+v", s)
	}
	for _, d := range []string{"a", "b"} {
		root := filepath.Join(dir, "out", d)
		if _, err := os.Stat(filepath.Join(root, "_streamctl", "orders")); !os.IsNotExist(err) {
			t.Errorf("%s: the old manifests are still there (%v)", d, err)
		}
		var owner struct{ Sink string }
		readJSON(t, filepath.Join(root, "_streamctl", "owner.json"), &owner)
		if owner.Sink != "orders_v2" {
			t.Errorf("%s: owned by %q after the move", d, owner.Sink)
		}
		var m struct{ Sink string }
		readJSON(t, filepath.Join(root, "_streamctl", "orders_v2", "3.json"), &m)
		if m.Sink != "orders_v2" {
			t.Errorf("%s: the moved manifest names sink %q", d, m.Sink)
		}
	}
	files := mustRun(t, dir, 0, nil, "files", "orders_v2")
	if n := strings.Count(files.stdout, "part-"); n != 8 {
		t.Errorf("files orders_v2 lists %d files, want 8 (4 batches in 2 destinations):\n%s", n, files.stdout)
	}

	// The stream grows: the moved sink goes on from its offsets.
	setConfig(t, dir, strings.Replace(moved, "default = 1000", "default = 1500", 1))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	for _, d := range []string{"a", "b"} {
		assertExactlyOnce(t, dest(dir, d), expectedIDs(2, 1500))
	}
}

// TestStateMvRenamesASink is the command-line form of the moved block, and
// finishes a move interrupted after the destinations were moved.
func TestStateMvRenamesASink(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	setConfig(t, dir, renamed(driftConfig("", "a"), "orders_v2"))

	r := run(t, dir, []string{"STREAMCTL_FAULT=before-move-state"}, "state", "mv", "orders", "orders_v2")
	if !r.killed {
		t.Fatalf("state mv did not reach the fault point: %s", r)
	}
	if readState(t, dir).Sinks["orders"] == nil {
		t.Fatalf("the interrupted move renamed the state")
	}
	mustRun(t, dir, 0, nil, "state", "mv", "orders", "orders_v2")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	setConfig(t, dir, strings.Replace(renamed(driftConfig("", "a"), "orders_v2"), "default = 1000", "default = 1200", 1))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	assertExactlyOnce(t, dest(dir, "a"), expectedIDs(2, 1200))
}

// TestMoveSurvivesACrashAtEveryStep kills the apply that carries out a moved
// block at each of its steps; the next apply finishes it exactly once.
func TestMoveSurvivesACrashAtEveryStep(t *testing.T) {
	t.Parallel()
	moveSurvivesACrashAtEveryStep(t, moveStore{})
}

func TestMoveSurvivesACrashAtEveryStepOnObjectStores(t *testing.T) {
	t.Parallel()
	remoteStores(t, moveSurvivesACrashAtEveryStep)
}

func moveSurvivesACrashAtEveryStep(t *testing.T, s moveStore) {
	for _, point := range []string{"after-move-manifests", "before-move-state", "after-move-state"} {
		t.Run(point, func(t *testing.T) {
			t.Parallel()
			c := s.newCase(t, "crash-"+point, driftConfig("", "a", "b"))
			c.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
			moved := renamed(driftConfig("", "a", "b"), "orders_v2") + "moved {\n  from = sink.orders\n  to   = sink.orders_v2\n}\n"
			c.set(t, strings.Replace(moved, "default = 1000", "default = 1500", 1))
			if r := c.run(t, []string{"STREAMCTL_FAULT=" + point}, "apply", "-auto-approve", "-no-color"); !r.killed {
				t.Fatalf("apply did not reach %s: %s", point, r)
			}
			c.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
			c.mustRun(t, 0, nil, "plan", "-detailed-exitcode", "-no-color")
			for _, d := range []string{"a", "b"} {
				assertExactlyOnce(t, c.dest(t, d), expectedIDs(2, 1500))
				if owner := c.owner(t, d); owner != "orders_v2" {
					t.Errorf("%s: owned by %q after the move", d, owner)
				}
				if left := c.keys(t, d, "_streamctl/orders/"); len(left) > 0 {
					t.Errorf("%s: the old manifests are still there: %v", d, left)
				}
			}
		})
	}
}

// sharedConfig writes into an absolute folder shared by several
// configurations, each with its own state.
func sharedConfig(out string) string {
	return strings.Replace(driftConfig("", "a"), `path = "out/a"`, `path = "`+out+`"`, 1)
}

func TestSecondStateIsRefused(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "lake")
	first := writeConfig(t, sharedConfig(out))
	mustRun(t, first, 0, nil, "apply", "-auto-approve", "-no-color")
	before := snapshotTree(t, out)

	// A copy of the configuration, without its state, on a longer stream.
	second := writeConfig(t, strings.Replace(sharedConfig(out), "max_records = 500", "max_records = 700", 1))
	for _, args := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		r := run(t, second, nil, args...)
		if r.code != 1 || !strings.Contains(r.stderr, `belongs to sink "orders" of another state`) || !strings.Contains(r.stderr, "_streamctl/owner.json") {
			t.Errorf("%s from a second state: want exit 1 and the owner, got %s", args[0], r)
		}
	}
	if after := snapshotTree(t, out); after != before {
		t.Errorf("the refused apply changed the destination")
	}
	mustRun(t, first, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	assertExactlyOnce(t, local.New(out), expectedIDs(2, 1000))
}

// TestTwoStatesRacingForOneDestination starts two configurations with their
// own states on one empty folder at once: one writes, the other is refused
// before it stages anything, and the folder holds every record once.
func TestTwoStatesRacingForOneDestination(t *testing.T) {
	t.Parallel()
	for round := range 3 {
		out := filepath.Join(t.TempDir(), "lake")
		dirs := []string{
			writeConfig(t, sharedConfig(out)),
			writeConfig(t, strings.Replace(sharedConfig(out), "max_records = 500", "max_records = 700", 1)),
		}
		results := make([]result, 2)
		var wg sync.WaitGroup
		for i, d := range dirs {
			wg.Go(func() { results[i] = run(t, d, nil, "apply", "-auto-approve", "-no-color") })
		}
		wg.Wait()
		won := raceWinner(t, round, results)
		mustRun(t, dirs[won], 0, nil, "plan", "-detailed-exitcode", "-no-color")
		assertExactlyOnce(t, local.New(out), expectedIDs(2, 1000))
	}
}

func TestRemovedSinkIsShown(t *testing.T) {
	t.Parallel()
	two := driftConfig("", "a") + strings.Replace(strings.Replace(driftConfig("", "c"), `sink "orders"`, `sink "returns"`, 1), "variable \"records\" {\n  type    = number\n  default = 1000\n}\n", "", 1)
	two = strings.Replace(two, `source "generate" "orders" {
  partitions            = 2
  records_per_partition = var.records
}
sink "returns"`, `sink "returns"`, 1)
	dir := writeConfig(t, two)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	setConfig(t, dir, driftConfig("", "a"))

	plan := mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	for _, want := range []string{`# sink "returns" is no longer in the configuration`, "nothing is deleted", "4 batches, 2,000 records committed", "its files stay in c", "streamctl state rm returns", "No changes."} {
		if !strings.Contains(plan.stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
		}
	}
	js := mustRun(t, dir, 0, nil, "plan", "-json")
	if !strings.Contains(js.stdout, `"type":"sink_removed"`) {
		t.Errorf("plan -json has no sink_removed:\n%s", js.stdout)
	}
	md := mustRun(t, dir, 0, nil, "plan", "-markdown")
	if !strings.Contains(md.stdout, "sink `returns` is no longer in the configuration") {
		t.Errorf("plan -markdown does not show the removed sink:\n%s", md.stdout)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	if readState(t, dir).Sinks["returns"] == nil {
		t.Errorf("apply dropped the removed sink's checkpoint")
	}
	assertExactlyOnce(t, dest(dir, "c"), expectedIDs(2, 1000))
}

type stateFile struct {
	Sinks map[string]*struct {
		NextBatch        int64 `json:"next_batch"`
		CommittedRecords int64 `json:"committed_records"`
	} `json:"sinks"`
}

func readState(t *testing.T, dir string) stateFile {
	t.Helper()
	var st stateFile
	readJSON(t, filepath.Join(dir, ".streamctl", "state.json"), &st)
	return st
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// raceWinner checks the results of applies of two states racing to claim
// the same destinations: one succeeded, the other was refused (exit 1) as
// the destinations are another state's. It returns the winner's index.
func raceWinner(t *testing.T, round int, results []result) int {
	t.Helper()
	won := -1
	for i, r := range results {
		switch {
		case r.code == 0:
			if won >= 0 {
				t.Fatalf("round %d: both applies succeeded", round)
			}
			won = i
		case r.code != 1 || !strings.Contains(r.stderr, "another state"):
			t.Fatalf("round %d: the losing apply: %s", round, r)
		}
	}
	if won < 0 {
		t.Fatalf("round %d: neither apply succeeded: %s\n%s", round, results[0], results[1])
	}
	return won
}
