package planner

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/state"
)

// savedInput is a sink with committed offsets and a batch in flight.
func savedInput() SinkInput {
	st := sinkState(map[string]int64{"0": 100, "1": 100}, 3, &state.Batch{ID: 2, Ranges: []state.Range{rng("0", 100, 150)}, Destinations: []string{"a"}})
	return SinkInput{Name: "s", SourceType: "generate", SourceName: "g", MaxRecords: 100, Destinations: []string{"a"}, Lineage: "L",
		State: st, Snapshot: snap("id", part("0", 0, 400), part("1", 0, 300))}
}

// TestVerifySavedPlan edits a saved plan every way that would lose or
// duplicate records; each is refused with the reason.
func TestVerifySavedPlan(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(p *SinkPlan)
		want string
	}{
		{"unchanged", func(p *SinkPlan) {}, ""},
		{"range skips offsets", func(p *SinkPlan) { p.New.Ranges[0].Start += 10 }, "partition 0: its new batches start at offset 160, but the committed offset is 150"},
		{"range repeats offsets", func(p *SinkPlan) { p.New.Ranges[1].Start -= 10 }, "partition 1: its new batches start at offset 90, but the committed offset is 100"},
		{"batch ids do not continue", func(p *SinkPlan) { p.New.FirstID = 0 }, "its new batches start at batch 0, but the state continues at batch 3"},
		{"other batch size", func(p *SinkPlan) { p.New.MaxRecords = 50 }, "it cuts batches of 50 records, the configuration of 100"},
		{"in-flight ranges changed", func(p *SinkPlan) { p.Resume.Ranges = []state.Range{rng("0", 100, 140)} }, "batch 2 in flight: its ranges or destinations are not the ones the state logged"},
		{"no resume", func(p *SinkPlan) { p.Resume = nil }, "its batch in flight does not match the state's"},
		{"a partition added", func(p *SinkPlan) { p.New.Ranges = append(p.New.Ranges, rng("9", 0, 10)) }, "it is not what the state"},
		{"a move made up", func(p *SinkPlan) { p.MovedFrom = "x" }, `it moves the sink from "x"`},
		{"an undone move made up", func(p *SinkPlan) { p.UndoMove = "x" }, `it undoes an interrupted move of the sink to "x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fresh, err := PlanSink(savedInput())
			if err != nil {
				t.Fatal(err)
			}
			saved, _ := PlanSink(savedInput())
			tc.edit(saved)
			err = Verify(saved, fresh)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("an unchanged plan is refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestDecodeRefusesInconsistentPlans: a plan file whose numbers contradict
// each other is refused when it is read, before any re-planning.
func TestDecodeRefusesInconsistentPlans(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(p *Plan)
		want string
	}{
		{"unchanged", func(p *Plan) {}, ""},
		{"max_records zero", func(p *Plan) { p.Sinks[0].New.MaxRecords = 0 }, "max_records 0 is not positive"},
		{"records miscounted", func(p *Plan) { p.Sinks[0].New.Records++ }, "pending ranges hold 450 records, but it says 451"},
		{"batches miscounted", func(p *Plan) { p.Sinks[0].New.Batches = 1 }, "pending says 1 batches, but 450 records in batches of 100 are 5"},
		{"inverted range", func(p *Plan) { p.Sinks[0].New.Ranges[0] = rng("0", 400, 150) }, "range [400, 150) of partition 0 is invalid"},
		{"batch id near the end of int64", func(p *Plan) { p.Sinks[0].New.FirstID = 1 << 62 }, "first_batch 4611686018427387904 is out of range"},
		{"negative resume id", func(p *Plan) { p.Sinks[0].Resume.ID = -1 }, "batch id -1 is out of range"},
		{"sink twice", func(p *Plan) { p.Sinks = append(p.Sinks, p.Sinks[0]) }, `sink "s" is planned twice`},
		{"partition twice", func(p *Plan) {
			p.Sinks[0].New.Ranges[1] = p.Sinks[0].New.Ranges[0]
			p.Sinks[0].New.Records = 500
		}, "list partition 0 twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp, err := PlanSink(savedInput())
			if err != nil {
				t.Fatal(err)
			}
			p := &Plan{FormatVersion: FormatVersion, ConfigHash: "h", Sinks: []*SinkPlan{sp}}
			tc.edit(p)
			data, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Decode(data)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("a consistent plan is refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestMaxBatchesLimitsThePlan: the batches planned under -max-batches are
// the first ones of the whole plan's offsets, cover them without gaps, and
// the rest is counted.
func TestMaxBatchesLimitsThePlan(t *testing.T) {
	in := savedInput()
	in.MaxBatches = 2
	p, err := PlanSink(in)
	if err != nil {
		t.Fatal(err)
	}
	got := batches(p)
	if len(got) != 2 || p.New.Batches != 2 || p.New.Records != 200 || p.New.Deferred != 3 {
		t.Fatalf("limited to 2 batches: %d batches listed, pending %+v", len(got), p.New)
	}
	next := map[string]int64{"0": 150, "1": 100}
	for _, b := range got {
		for _, r := range b.Ranges {
			if r.Start != next[r.Partition] {
				t.Fatalf("batch %d: partition %s starts at %d, want %d", b.ID, r.Partition, r.Start, next[r.Partition])
			}
			next[r.Partition] = r.End
		}
	}
	in.MaxBatches = 10
	if p, _ := PlanSink(in); p.New.Batches != 5 || p.New.Deferred != 0 {
		t.Errorf("a limit above the pending batches changed the plan: %+v", p.New)
	}
}

// TestOwnerOfAnInterruptedMove: a destination an interrupted move switched to
// another name is refused, unless the plan undoes that very move.
func TestOwnerOfAnInterruptedMove(t *testing.T) {
	for _, tc := range []struct {
		name  string
		owner string
		undo  string
		want  string
	}{
		{"owned by the sink", "s", "", ""},
		{"switched by a move, not undone", "s2", "", `holds the data of sink "s2", not of sink "s"`},
		{"switched by a move, undone", "s2", "s2", ""},
		{"switched to another name than the one undone", "s3", "s2", `holds the data of sink "s3", not of sink "s"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := savedInput()
			in.UndoMove = tc.undo
			in.Observed = map[string]*Observation{"a": {Manifests: []int64{0, 1}, Location: "/lake", Owner: &Owner{Lineage: "L", Sink: tc.owner, Destination: "a"}}}
			p, err := PlanSink(in)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want %q", err, tc.want)
			case tc.want == "" && p.UndoMove != tc.undo:
				t.Errorf("the plan undoes the move to %q, want %q", p.UndoMove, tc.undo)
			}
		})
	}
}

// TestTakeoverOfADestinationWithoutOwner: adopting the batches another state
// committed in a destination without an owner record is a takeover, and the
// plan names that state's lineage; this state's own batches are not.
func TestTakeoverOfADestinationWithoutOwner(t *testing.T) {
	for _, tc := range []struct {
		name    string
		owner   *Owner
		lineage string // of the manifests of batches 0 and 1
		want    []Takeover
	}{
		{"another state's batches", nil, "OTHER", []Takeover{{Destination: "a", Lineage: "OTHER", FirstBatch: 0, LastBatch: 1, Batches: 2, Records: 150}}},
		{"batches of a state that did not record its lineage", nil, "", []Takeover{{Destination: "a", Lineage: "", FirstBatch: 0, LastBatch: 1, Batches: 2, Records: 150}}},
		{"this state's own batches", nil, "L", nil},
		{"a destination with its owner record", &Owner{Lineage: "L", Sink: "s", Destination: "a"}, "OTHER", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := SinkInput{Name: "s", SourceType: "generate", SourceName: "g", MaxRecords: 100, Destinations: []string{"a"}, Lineage: "L",
				Snapshot: snap("id", part("0", 0, 100), part("1", 0, 50))}
			in.Observed = map[string]*Observation{"a": {
				Manifests:    []int64{0, 1},
				Ahead:        map[int64][]state.Range{0: {rng("0", 0, 50), rng("1", 0, 25)}, 1: {rng("0", 50, 100), rng("1", 25, 50)}},
				AheadSource:  map[int64]string{0: "id", 1: "id"},
				AheadLineage: map[int64]string{0: tc.lineage, 1: tc.lineage},
				Owner:        tc.owner,
			}}
			p, err := PlanSink(in)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Adopt) != 2 {
				t.Fatalf("adopts %d batches, want 2", len(p.Adopt))
			}
			if !reflect.DeepEqual(p.Takeovers, tc.want) {
				t.Errorf("takeovers %+v, want %+v", p.Takeovers, tc.want)
			}
			if !p.Changes() {
				t.Errorf("the plan has no changes")
			}
		})
	}
}
