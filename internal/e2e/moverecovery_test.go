package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers/local"
)

// A move killed at any of its steps is followed by whatever the user does
// next: the move again, the configuration as it was, the configuration as it
// was with the reverse moved block, or no sink at all. Each converges, and
// each thing streamctl suggests on the way works when followed.

// movedBlock matches the moved block a refusal suggests.
var movedBlock = regexp.MustCompile(`moved \{\s*from = sink\.(\w+)\s*to\s*= sink\.(\w+)\s*\}`)

// stateRm matches the command a plan suggests for a sink no longer configured.
var stateRm = regexp.MustCompile("streamctl state rm (\\w+)")

func TestEveryNextStepAfterAKilledMove(t *testing.T) {
	t.Parallel()
	everyNextStepAfterAKilledMove(t, moveStore{})
}

func TestEveryNextStepAfterAKilledMoveOnObjectStores(t *testing.T) {
	t.Parallel()
	remoteStores(t, everyNextStepAfterAKilledMove)
}

func everyNextStepAfterAKilledMove(t *testing.T, s moveStore) {
	const records = "default = 1500"
	orders := strings.Replace(driftConfig("", "a", "b"), "default = 1000", records, 1)
	moved := renamed(orders, "orders_v2") + "moved {\n  from = sink.orders\n  to   = sink.orders_v2\n}\n"
	back := orders + "moved {\n  from = sink.orders_v2\n  to   = sink.orders\n}\n"
	// Only the source: the sink is removed from the configuration.
	none := orders[:strings.Index(orders, `sink "orders" {`)]
	next := []struct {
		name  string
		hcl   string
		want  int64    // records per partition in the destinations at the end
		flags []string // of the applies
	}{
		{"move-again", moved, 1500, nil},
		{"revert", orders, 1500, nil},
		{"revert-with-reverse-block", back, 1500, nil},
		{"revert-without-refresh", orders, 1500, []string{"-refresh=false"}},
		{"remove-the-sink", none, 1000, nil},
	}
	for _, point := range []string{"after-move-manifests", "before-move-state", "after-move-state"} {
		for _, n := range next {
			t.Run(point+"/"+n.name, func(t *testing.T) {
				t.Parallel()
				c := s.newCase(t, "next-"+point+"-"+n.name, driftConfig("", "a", "b"))
				c.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
				c.set(t, moved)
				if r := c.run(t, []string{"STREAMCTL_FAULT=" + point}, "apply", "-auto-approve", "-no-color"); !r.killed {
					t.Fatalf("apply did not reach %s: %s", point, r)
				}
				hcl := n.hcl
				c.set(t, hcl)
				converged := false
				flags := n.flags
				for step := 0; step < 4 && !converged; step++ {
					r := c.run(t, nil, append([]string{"apply", "-auto-approve", "-no-color"}, flags...)...)
					if r.killed || r.code != 0 && r.code != 1 {
						t.Fatalf("apply after %s (step %d): %s", point, step, r)
					}
					if r.code == 1 && len(flags) > 0 && strings.Contains(r.stderr, "without -refresh=false") {
						flags = nil
						continue
					}
					if r.code == 1 {
						m := movedBlock.FindStringSubmatch(r.stderr)
						if m == nil {
							t.Fatalf("apply after %s refused without a way out: %s", point, r)
						}
						block := "moved {\n  from = sink." + m[1] + "\n  to   = sink." + m[2] + "\n}\n"
						if strings.Contains(hcl, block) {
							t.Fatalf("apply after %s suggests the moved block the configuration already has: %s", point, r)
						}
						hcl += block
						c.set(t, hcl)
						continue
					}
					plan := c.run(t, nil, "plan", "-detailed-exitcode", "-no-color")
					if plan.code == 2 && len(flags) > 0 {
						// An apply that did not read the destinations left
						// what only they show: the next apply reads them.
						flags = nil
						continue
					}
					switch {
					case plan.code == 0 && !stateRm.MatchString(plan.stdout):
						converged = true
					case plan.code == 0:
						// A sink no longer configured: follow the suggestion.
						name := stateRm.FindStringSubmatch(plan.stdout)[1]
						c.mustRun(t, 0, nil, "state", "rm", "-force", name)
					default:
						t.Fatalf("plan after the apply that follows %s (step %d) is not empty: %s", point, step, plan)
					}
				}
				if !converged {
					t.Fatalf("no convergence after %s", point)
				}
				for _, d := range []string{"a", "b"} {
					assertExactlyOnce(t, c.dest(t, d), expectedIDs(2, n.want))
					if n.name == "remove-the-sink" {
						continue // its manifests stay, as its files do
					}
					// Only the owner's manifests are left: no copy, no original.
					owner := c.owner(t, d)
					for _, k := range c.keys(t, d, "_streamctl/") {
						if k != "_streamctl/owner.json" && !strings.HasPrefix(k, "_streamctl/"+owner+"/") {
							t.Errorf("%s: %s is left beside the manifests of its owner sink.%s", d, k, owner)
						}
					}
				}
			})
		}
	}
}

// TestUndoOfAKilledMoveIsPlanned: after a move killed before its state
// commit, the configuration as it was plans giving the destinations back, as
// a change in every form of the plan, and an apply killed while it does so is
// finished by the next.
func TestUndoOfAKilledMoveIsPlanned(t *testing.T) {
	t.Parallel()
	undoOfAKilledMoveIsPlanned(t, moveStore{})
}

func TestUndoOfAKilledMoveIsPlannedOnObjectStores(t *testing.T) {
	t.Parallel()
	remoteStores(t, undoOfAKilledMoveIsPlanned)
}

func undoOfAKilledMoveIsPlanned(t *testing.T, s moveStore) {
	orders := strings.Replace(driftConfig("", "a", "b"), "default = 1000", "default = 1500", 1)
	moved := renamed(orders, "orders_v2") + "moved {\n  from = sink.orders\n  to   = sink.orders_v2\n}\n"
	c := s.newCase(t, "undo", driftConfig("", "a", "b"))
	c.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
	c.set(t, moved)
	if r := c.run(t, []string{"STREAMCTL_FAULT=before-move-state"}, "apply", "-auto-approve", "-no-color"); !r.killed {
		t.Fatalf("apply did not reach before-move-state: %s", r)
	}
	c.set(t, orders)

	plan := c.mustRun(t, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if want := "~ undo the interrupted move of sink.orders to sink.orders_v2: its destinations go back to sink.orders and the manifests copied under _streamctl/orders_v2/ are removed"; !strings.Contains(plan.stdout, want) {
		t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
	}
	if js := c.mustRun(t, 0, nil, "plan", "-json"); !strings.Contains(js.stdout, `"undo_move":"orders_v2"`) {
		t.Errorf("plan -json has no undo_move:\n%s", js.stdout)
	}
	if md := c.mustRun(t, 0, nil, "plan", "-markdown"); !strings.Contains(md.stdout, "undo the interrupted move of sink.orders to sink.orders_v2") {
		t.Errorf("plan -markdown does not show the undo:\n%s", md.stdout)
	}

	if r := c.run(t, []string{"STREAMCTL_FAULT=after-undo-move-manifests"}, "apply", "-auto-approve", "-no-color"); !r.killed {
		t.Fatalf("apply did not reach after-undo-move-manifests: %s", r)
	}
	applied := c.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(applied.stdout, "sink.orders: moved from sink.orders_v2") {
		t.Errorf("apply does not report the undo:\n%s", applied.stdout)
	}
	c.mustRun(t, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	for _, d := range []string{"a", "b"} {
		if owner := c.owner(t, d); owner != "orders" {
			t.Errorf("%s: owned by %q after the undo", d, owner)
		}
		if left := c.keys(t, d, "_streamctl/orders_v2/"); len(left) > 0 {
			t.Errorf("%s: the copied manifests are still there: %v", d, left)
		}
		assertExactlyOnce(t, c.dest(t, d), expectedIDs(2, 1500))
	}
}

// TestSinkLeftBehindByAKilledMove: after a move killed before its state
// commit, an apply of the new name without the moved block adopts the
// batches, and the old sink stays behind in the state and its manifests in
// the destinations. The plan says so and how to clean up, in every form;
// followed, the cleanup converges.
func TestSinkLeftBehindByAKilledMove(t *testing.T) {
	t.Parallel()
	sinkLeftBehindByAKilledMove(t, moveStore{})
}

func TestSinkLeftBehindByAKilledMoveOnObjectStores(t *testing.T) {
	t.Parallel()
	remoteStores(t, sinkLeftBehindByAKilledMove)
}

func sinkLeftBehindByAKilledMove(t *testing.T, s moveStore) {
	v2 := renamed(strings.Replace(driftConfig("", "a", "b"), "default = 1000", "default = 1500", 1), "orders_v2")
	c := s.newCase(t, "left-behind", driftConfig("", "a", "b"))
	c.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
	c.set(t, v2+"moved {\n  from = sink.orders\n  to   = sink.orders_v2\n}\n")
	if r := c.run(t, []string{"STREAMCTL_FAULT=before-move-state"}, "apply", "-auto-approve", "-no-color"); !r.killed {
		t.Fatalf("apply did not reach before-move-state: %s", r)
	}
	c.set(t, v2)
	c.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")

	plan := c.mustRun(t, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	for _, want := range []string{`# sink "orders" is no longer in the configuration`, "a move of it to sink.orders_v2 was interrupted", "sink.orders_v2 now owns a, b and has adopted its batches there",
		"To clean up: streamctl state rm orders, then remove the folder _streamctl/orders/ from a, b"} {
		if !strings.Contains(plan.stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
		}
	}
	if strings.Contains(plan.stdout, "NEW_NAME") {
		t.Errorf("plan suggests a rename, which the state holding both sinks refuses:\n%s", plan.stdout)
	}
	if js := c.mustRun(t, 0, nil, "plan", "-json"); !strings.Contains(js.stdout, `"superseded_by":"orders_v2"`) || !strings.Contains(js.stdout, `"leftover_manifests_in":["a","b"]`) {
		t.Errorf("plan -json does not name the sink that took over:\n%s", js.stdout)
	}
	if md := c.mustRun(t, 0, nil, "plan", "-markdown"); !strings.Contains(md.stdout, "a move of it to sink.orders_v2 was interrupted") {
		t.Errorf("plan -markdown does not say the move was interrupted:\n%s", md.stdout)
	}

	// The cleanup, as the plan says.
	c.mustRun(t, 0, nil, "state", "rm", "-force", "orders")
	for _, d := range []string{"a", "b"} {
		c.removeAll(t, d, "_streamctl/orders/")
	}
	plan = c.mustRun(t, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	if strings.Contains(plan.stdout, `sink "orders"`) {
		t.Errorf("plan still shows sink orders after the cleanup:\n%s", plan.stdout)
	}
	c.mustRun(t, 0, nil, "verify")
	c.set(t, strings.Replace(v2, "default = 1500", "default = 1700", 1))
	c.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
	for _, d := range []string{"a", "b"} {
		assertExactlyOnce(t, c.dest(t, d), expectedIDs(2, 1700))
	}
}

// TestLostOwnerRecordTakeoverIsPlanned: a destination whose owner record
// was deleted is taken over by another state only through a plan that says
// whose batches it adopts, as a change to approve.
func TestLostOwnerRecordTakeoverIsPlanned(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "lake")
	first := writeConfig(t, sharedConfig(out))
	mustRun(t, first, 0, nil, "apply", "-auto-approve", "-no-color")
	var firstState struct{ Lineage string }
	readJSON(t, filepath.Join(first, ".streamctl", "state.json"), &firstState)
	if firstState.Lineage == "" {
		t.Fatal("the first state has no lineage")
	}
	if err := os.Remove(filepath.Join(out, "_streamctl", "owner.json")); err != nil {
		t.Fatal(err)
	}

	second := writeConfig(t, strings.Replace(sharedConfig(out), "default = 1000", "default = 1200", 1))
	plan := mustRun(t, second, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	want := "~ take over destination a from another state (lineage " + firstState.Lineage + "): it has no owner record, and batches 0–3 there (2,000 records) were committed by that state"
	if !strings.Contains(plan.stdout, want) {
		t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
	}
	if js := mustRun(t, second, 0, nil, "plan", "-json"); !strings.Contains(js.stdout, `"type":"destination_takeover"`) || !strings.Contains(js.stdout, `"lineage":"`+firstState.Lineage+`"`) {
		t.Errorf("plan -json has no destination_takeover naming the first state:\n%s", js.stdout)
	}
	if md := mustRun(t, second, 0, nil, "plan", "-markdown"); !strings.Contains(md.stdout, "take over destination a from another state (lineage "+firstState.Lineage+")") {
		t.Errorf("plan -markdown does not show the takeover:\n%s", md.stdout)
	}

	mustRun(t, second, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, second, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	if r := run(t, first, nil, "plan", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "another state") {
		t.Errorf("the first state's plan after the takeover: %s", r)
	}
	assertExactlyOnce(t, local.New(out), expectedIDs(2, 1200))
}

// TestLostOwnerRecordTakeoverIsPlannedOnObjectStores: the takeover of
// TestLostOwnerRecordTakeoverIsPlanned, between two states kept in two
// buckets (containers), of one destination in the first.
func TestLostOwnerRecordTakeoverIsPlannedOnObjectStores(t *testing.T) {
	t.Parallel()
	remoteStores(t, func(t *testing.T, s moveStore) {
		first := s.newCase(t, "takeover-first", driftConfig("", "a"))
		first.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
		lineage := first.lineage(t)
		if err := first.dest(t, "a").Delete(t.Context(), "_streamctl/owner.json"); err != nil {
			t.Fatal(err)
		}

		second := s.newCaseWriting(t, "takeover-second", strings.Replace(driftConfig("", "a"), "default = 1000", "default = 1200", 1), first)
		plan := second.mustRun(t, 2, nil, "plan", "-detailed-exitcode", "-no-color")
		want := "~ take over destination a from another state (lineage " + lineage + "): it has no owner record, and batches 0–3 there (2,000 records) were committed by that state"
		if !strings.Contains(plan.stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
		}
		if js := second.mustRun(t, 0, nil, "plan", "-json"); !strings.Contains(js.stdout, `"type":"destination_takeover"`) || !strings.Contains(js.stdout, `"lineage":"`+lineage+`"`) {
			t.Errorf("plan -json has no destination_takeover naming the first state:\n%s", js.stdout)
		}

		second.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
		second.mustRun(t, 0, nil, "plan", "-detailed-exitcode", "-no-color")
		if r := first.run(t, nil, "plan", "-no-color"); r.code != 1 || !strings.Contains(r.stderr, "another state") {
			t.Errorf("the first state's plan after the takeover: %s", r)
		}
		assertExactlyOnce(t, first.dest(t, "a"), expectedIDs(2, 1200))
	})
}

// TestMoveCopiesRemovedAfterARevert: a move killed after it copied the
// manifests under the new name, before it switched any owner record, and
// the configuration reverted: the plan shows the copies as orphans, apply
// removes them, and the destinations hold the sink's manifests alone.
func TestMoveCopiesRemovedAfterARevert(t *testing.T) {
	t.Parallel()
	moveCopiesRemovedAfterARevert(t, moveStore{})
}

func TestMoveCopiesRemovedAfterARevertOnObjectStores(t *testing.T) {
	t.Parallel()
	remoteStores(t, moveCopiesRemovedAfterARevert)
}

func moveCopiesRemovedAfterARevert(t *testing.T, s moveStore) {
	orders := strings.Replace(driftConfig("", "a", "b"), "default = 1000", "default = 1500", 1)
	c := s.newCase(t, "copies", driftConfig("", "a", "b"))
	c.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
	c.set(t, renamed(orders, "orders_v2")+"moved {\n  from = sink.orders\n  to   = sink.orders_v2\n}\n")
	if r := c.run(t, []string{"STREAMCTL_FAULT=after-move-manifests"}, "apply", "-auto-approve", "-no-color"); !r.killed {
		t.Fatalf("apply did not reach after-move-manifests: %s", r)
	}
	copied := []string{}
	for _, d := range []string{"a", "b"} {
		if len(c.keys(t, d, "_streamctl/orders_v2/")) > 0 {
			copied = append(copied, d)
		}
	}
	if len(copied) == 0 {
		t.Fatal("the killed move copied no manifest: the test proves nothing")
	}
	c.set(t, orders)

	plan := c.mustRun(t, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	for _, d := range copied {
		if want := "- remove orphan manifests under _streamctl/orders_v2/ (copies left by an interrupted move) in " + d; !strings.Contains(plan.stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
		}
	}
	if js := c.mustRun(t, 0, nil, "plan", "-json"); !strings.Contains(js.stdout, `"manifests":"orders_v2"`) {
		t.Errorf("plan -json does not name the folder of copies:\n%s", js.stdout)
	}
	applied := c.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
	if !strings.Contains(applied.stdout, "orders: removed orphan manifests under _streamctl/orders_v2/ (copies left by an interrupted move) in "+copied[0]) {
		t.Errorf("apply does not say it removed the copies:\n%s", applied.stdout)
	}
	c.mustRun(t, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	for _, d := range []string{"a", "b"} {
		if left := c.keys(t, d, "_streamctl/orders_v2/"); len(left) > 0 {
			t.Errorf("%s: the copies are still there: %v", d, left)
		}
		if owner := c.owner(t, d); owner != "orders" {
			t.Errorf("%s: owned by %q", d, owner)
		}
		if n := len(c.keys(t, d, "_streamctl/orders/")); n == 0 {
			t.Errorf("%s: the sink's own manifests are gone", d)
		}
		assertExactlyOnce(t, c.dest(t, d), expectedIDs(2, 1500))
	}
	c.mustRun(t, 0, nil, "verify")
}
