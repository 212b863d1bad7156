package planner

import (
	"reflect"
	"testing"

	"github.com/streamctl/streamctl/state"
)

// TestPlanLayout: a configuration whose output settings differ from those
// of the sink's latest batches plans a layout change naming the settings;
// the same settings, or a sink without batches, plan none.
func TestPlanLayout(t *testing.T) {
	jsonl := map[string]string{"format": `"jsonl"`, `column "id"`: `{ type = "int64" }`, "columns (order)": `["id"]`}
	csv := map[string]string{"format": `"csv"`, `column "id"`: `{ type = "int64" }`, `column "note"`: `{ type = "string" }`, "columns (order)": `["id", "note"]`}
	committed := func(layout *state.Layout, historyHash string) *state.Sink {
		st := sinkState(map[string]int64{"0": 100}, 2, nil)
		st.Layout = layout
		st.History = []state.Batch{{ID: 1, Ranges: []state.Range{rng("0", 50, 100)}, Records: 50, Layout: historyHash}}
		return st
	}
	tests := []struct {
		name string
		st   *state.Sink
		want *LayoutChange
	}{
		{"no batch yet", nil, nil},
		{"same settings", committed(&state.Layout{Hash: "J", Settings: jsonl}, "J"), nil},
		{"format and a column changed", committed(&state.Layout{Hash: "J", Settings: jsonl}, "J"),
			&LayoutChange{From: "J", To: "C", FirstBatch: 2, Attributes: []AttributeChange{
				{Name: `column "note"`, To: `{ type = "string" }`},
				{Name: "format", From: `"jsonl"`, To: `"csv"`},
			}}},
		{"a state that records only the batches' hash", committed(nil, "J"), &LayoutChange{From: "J", To: "C", FirstBatch: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := SinkInput{Name: "s", SourceType: "generate", SourceName: "g", MaxRecords: 100, OnDataLoss: "fail", Destinations: []string{"a"},
				Snapshot: snap("id", part("0", 0, 100)), State: tc.st, Layout: "C", LayoutSettings: csv}
			if tc.name == "same settings" {
				in.Layout, in.LayoutSettings = "J", jsonl
			}
			p, err := PlanSink(in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(p.LayoutChange, tc.want) {
				t.Errorf("layout change %+v, want %+v", p.LayoutChange, tc.want)
			}
			if p.Changes() != (tc.want != nil || tc.st == nil) {
				t.Errorf("Changes() = %v", p.Changes())
			}
		})
	}
}
