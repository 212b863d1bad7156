package planner

import (
	"strings"
	"testing"

	"github.com/streamctl/streamctl/state"
)

// TestPlanReplace: -replace writes a committed batch again into every
// destination that wrote it, with the state's ranges; a batch that is not
// committed, no longer described, in flight, lost from the source or
// written with other settings is refused with the reason.
func TestPlanReplace(t *testing.T) {
	committed := func() *state.Sink {
		st := sinkState(map[string]int64{"0": 200}, 2, nil)
		st.History = []state.Batch{
			{ID: 0, Ranges: []state.Range{rng("0", 0, 100)}, Records: 100, Destinations: []string{"a", "b"}, Layout: "L"},
			{ID: 1, Ranges: []state.Range{rng("0", 100, 200)}, Records: 100, Destinations: []string{"a", "b"}, Layout: "L"},
		}
		return st
	}
	base := SinkInput{Name: "s", SourceType: "generate", SourceName: "g", MaxRecords: 100, OnDataLoss: "fail", Destinations: []string{"a", "b"}, Layout: "L",
		Snapshot: snap("id", part("0", 0, 200))}
	tests := []struct {
		name    string
		in      func(SinkInput) SinkInput
		err     string
		pending []string
	}{
		{name: "a committed batch", pending: []string{"a", "b"}},
		{name: "not committed", in: func(in SinkInput) SinkInput { in.Replace = []int64{5}; return in }, err: "batch 5 is not committed"},
		{name: "older than the history", in: func(in SinkInput) SinkInput {
			in.State.History = in.State.History[1:]
			in.Replace = []int64{0}
			return in
		}, err: "batch 0 is no longer described by the state"},
		{name: "lost from the source", in: func(in SinkInput) SinkInput { in.Snapshot = snap("id", part("0", 150, 200)); return in }, err: "the source no longer holds its records"},
		{name: "other settings", in: func(in SinkInput) SinkInput { in.Layout = "M"; return in }, err: "cannot be replaced with other output settings"},
		{name: "a destination removed", in: func(in SinkInput) SinkInput { in.Destinations = []string{"b"}; return in }, pending: []string{"b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := base
			in.State = committed()
			in.Replace = []int64{1}
			if tc.in != nil {
				in = tc.in(in)
			}
			p, err := PlanSink(in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Repairs) != 1 || !p.Repairs[0].Replace || p.Repairs[0].ID != 1 || !sameRangeList(p.Repairs[0].Ranges, []state.Range{rng("0", 100, 200)}) || !sameSet(p.Repairs[0].Pending, tc.pending) {
				t.Errorf("repairs %+v, want batch 1 replaced in %v", p.Repairs, tc.pending)
			}
		})
	}
}
