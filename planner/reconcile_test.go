package planner

import (
	"reflect"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/state"
)

// committedSink is a sink's checkpoint after batches 0 and 1, each of 10
// records of partition "0", written to a and b.
func committedSink() *state.Sink {
	st := sinkState(map[string]int64{"0": 20}, 2, nil)
	st.Layout = nil
	for id := range int64(2) {
		st.History = append(st.History, state.Batch{ID: id, Ranges: []state.Range{rng("0", id*10, id*10+10)}, Destinations: []string{"a", "b"}, Records: 10, Layout: "L"})
	}
	st.CommittedBatches, st.CommittedRecords = 2, 20
	st.Destinations = map[string]*state.Destination{"a": {LastBatch: 1}, "b": {LastBatch: 1}}
	return st
}

// observed is a destination holding the manifests of batches ids.
func observed(ids ...int64) *Observation {
	return &Observation{Manifests: ids, Ahead: map[int64][]state.Range{}, AheadSource: map[int64]string{}}
}

// TestReconcile: drift, backfill, adoption of manifests ahead of the state,
// and removed destinations, each against the checkpoint of committedSink.
func TestReconcile(t *testing.T) {
	type want struct {
		repairs  []Batch
		adopt    []Batch
		removed  []string
		next     int64  // the first batch new batches take
		warning  string // a substring of the one warning, if any
		errorSub string // a substring of the error, if any
	}
	tests := []struct {
		name string
		in   func(*SinkInput)
		st   func(*state.Sink)
		want want
	}{
		{
			name: "destinations holding every batch need nothing",
			want: want{next: 2},
		},
		{
			name: "a destination that lost a manifest gets the batch again (drift)",
			in:   func(in *SinkInput) { in.Observed["b"] = observed(0) },
			want: want{next: 2, repairs: []Batch{{ID: 1, Ranges: []state.Range{rng("0", 10, 20)}, Records: 10, Destinations: []string{"a", "b"}, Pending: []string{"b"}}}},
		},
		{
			name: "a batch lost from a destination and from the source cannot be rewritten",
			in: func(in *SinkInput) {
				in.Observed["b"] = observed(1)
				in.Snapshot = snap("id", part("0", 5, 40))
			},
			want: want{errorSub: "cannot rewrite batch 0 for b (partition 0 [0, 10))"},
		},
		{
			name: "a lost batch written with other output settings is refused, not rewritten in the new ones",
			in: func(in *SinkInput) {
				in.Observed["b"] = observed(0)
				in.Layout = "M"
			},
			want: want{errorSub: "batch 1 is missing from b and was written with other output settings"},
		},
		{
			name: "a new destination is backfilled with every committed batch",
			in: func(in *SinkInput) {
				in.Destinations = []string{"a", "b", "c"}
				in.Observed["c"] = observed()
			},
			want: want{next: 2, repairs: []Batch{
				{ID: 0, Ranges: []state.Range{rng("0", 0, 10)}, Records: 10, Destinations: []string{"a", "b", "c"}, Pending: []string{"c"}},
				{ID: 1, Ranges: []state.Range{rng("0", 10, 20)}, Records: 10, Destinations: []string{"a", "b", "c"}, Pending: []string{"c"}},
			}},
		},
		{
			name: "a new destination with backfill = false starts at the head",
			in: func(in *SinkInput) {
				in.Destinations = []string{"a", "b", "c"}
				in.Observed["c"] = observed()
				in.NoBackfill = map[string]bool{"c": true}
			},
			want: want{next: 2},
		},
		{
			name: "a new destination of a routed sink gets only new batches, with a warning",
			in: func(in *SinkInput) {
				in.Destinations = []string{"a", "b", "c"}
				in.Observed["c"] = observed()
				in.RouteBy = "id"
			},
			want: want{next: 2, warning: `destination "c" is new in a routed sink`},
		},
		{
			name: "a new destination cannot be backfilled past the history the state keeps",
			in: func(in *SinkInput) {
				in.Destinations = []string{"a", "b", "c"}
				in.Observed["c"] = observed()
			},
			st:   func(st *state.Sink) { st.CommittedBatches = 5 },
			want: want{errorSub: `destination "c" cannot be backfilled`},
		},
		{
			name: "a destination no longer configured is removed from the checkpoint",
			in: func(in *SinkInput) {
				in.Destinations = []string{"a"}
				delete(in.Observed, "b")
			},
			want: want{next: 2, removed: []string{"b"}},
		},
		{
			name: "a manifest ahead that continues the committed offsets is adopted",
			in: func(in *SinkInput) {
				o := observed(0, 1, 2)
				o.Ahead[2] = []state.Range{rng("0", 20, 30)}
				in.Observed["a"] = o
			},
			want: want{next: 3, adopt: []Batch{{ID: 2, Ranges: []state.Range{rng("0", 20, 30)}, Records: 10, Destinations: []string{"a", "b"}, Pending: []string{"b"}}}},
		},
		{
			name: "a manifest ahead that skips offsets is refused",
			in: func(in *SinkInput) {
				o := observed(0, 1, 2)
				o.Ahead[2] = []state.Range{rng("0", 25, 30)}
				in.Observed["a"] = o
			},
			want: want{errorSub: "does not continue the committed offset 20"},
		},
		{
			name: "a manifest ahead from another stream is never adopted",
			in: func(in *SinkInput) {
				o := observed(0, 1, 2)
				o.Ahead[2] = []state.Range{rng("0", 20, 30)}
				o.AheadSource[2] = "other-topic"
				in.Observed["a"] = o
			},
			want: want{errorSub: `it was written from "other-topic"`},
		},
		{
			name: "a manifest ahead past a gap is refused",
			in: func(in *SinkInput) {
				o := observed(0, 1, 3)
				o.Ahead[3] = []state.Range{rng("0", 20, 30)}
				in.Observed["a"] = o
			},
			want: want{errorSub: "the state expects batch 2 next"},
		},
		{
			name: "destinations holding one batch ahead with different ranges are refused",
			in: func(in *SinkInput) {
				a, b := observed(0, 1, 2), observed(0, 1, 2)
				a.Ahead[2] = []state.Range{rng("0", 20, 30)}
				b.Ahead[2] = []state.Range{rng("0", 20, 31)}
				in.Observed["a"], in.Observed["b"] = a, b
			},
			want: want{errorSub: "destinations hold manifests of it with different ranges"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := SinkInput{Name: "s", Destinations: []string{"a", "b"}, Layout: "L",
				Snapshot: snap("id", part("0", 0, 40)),
				Observed: map[string]*Observation{"a": observed(0, 1), "b": observed(0, 1)}}
			if tc.in != nil {
				tc.in(&in)
			}
			st := committedSink()
			if tc.st != nil {
				tc.st(st)
			}
			p := &SinkPlan{}
			next, err := reconcile(in, st, p, map[string]int64{"0": 20}, st.NextBatch)
			if tc.want.errorSub != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want.errorSub) {
					t.Fatalf("error %v, want one saying %q", err, tc.want.errorSub)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if next != tc.want.next {
				t.Errorf("new batches start at %d, want %d", next, tc.want.next)
			}
			if !reflect.DeepEqual(p.Repairs, tc.want.repairs) {
				t.Errorf("repairs\n got %+v\nwant %+v", p.Repairs, tc.want.repairs)
			}
			if !reflect.DeepEqual(p.Adopt, tc.want.adopt) {
				t.Errorf("adopted\n got %+v\nwant %+v", p.Adopt, tc.want.adopt)
			}
			if !reflect.DeepEqual(p.Removed, tc.want.removed) {
				t.Errorf("removed %v, want %v", p.Removed, tc.want.removed)
			}
			switch {
			case tc.want.warning == "" && len(p.Warnings) > 0:
				t.Errorf("unexpected warnings %q", p.Warnings)
			case tc.want.warning != "" && (len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], tc.want.warning)):
				t.Errorf("warnings %q, want one saying %q", p.Warnings, tc.want.warning)
			}
		})
	}
}
