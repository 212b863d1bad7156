package planner

import (
	"strings"
	"testing"

	"github.com/streamctl/streamctl/state"
)

func TestCheckForeign(t *testing.T) {
	tests := []struct {
		name string
		obs  Observation
		err  string // "" when the plan is made
	}{
		{name: "no file at a batch's name"},
		{
			name: "a file at the next batch's name is refused, named",
			obs:  Observation{Foreign: map[int64][]string{2: {"x=1/part-00000002-00000.parquet"}}},
			err:  `destination "a" holds files streamctl did not write, at the names of its next batches: x=1/part-00000002-00000.parquet in /lake: no manifest of sink "s" lists them`,
		},
		{
			name: "six files: five are named",
			obs: Observation{Foreign: map[int64][]string{2: {"part-00000002-00000.parquet", "part-00000002-00001.parquet", "part-00000002-00002.parquet"},
				5: {"part-00000005-00000.parquet", "part-00000005-00001.parquet", "part-00000005-00002.parquet"}}},
			err: "part-00000002-00000.parquet, part-00000002-00001.parquet, part-00000002-00002.parquet, part-00000005-00000.parquet, part-00000005-00001.parquet and 1 more in /lake",
		},
		{
			name: "the files of a batch whose manifest the destination holds are the sink's",
			obs: Observation{Manifests: []int64{0, 1, 2}, Ahead: map[int64][]state.Range{2: {rng("0", 20, 30)}}, AheadSource: map[int64]string{2: "id"},
				Foreign: map[int64][]string{2: {"part-00000002-00000.parquet"}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := sinkState(map[string]int64{"0": 20}, 2, nil)
			st.Destinations["a"] = &state.Destination{LastBatch: 1}
			in := SinkInput{Name: "s", SourceType: "generate", SourceName: "g", MaxRecords: 10, OnDataLoss: "fail", Destinations: []string{"a"}, Layout: "L",
				State: st, Snapshot: snap("id", part("0", 0, 50))}
			obs := tc.obs
			if obs.Manifests == nil {
				obs.Manifests = []int64{0, 1}
			}
			obs.Location = "/lake"
			in.Observed = map[string]*Observation{"a": &obs}
			p, err := PlanSink(in)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if p.New.Records == 0 && len(p.Adopt) == 0 {
					t.Errorf("nothing planned: %+v", p)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("err = %v\nwant %q", err, tc.err)
			}
		})
	}
}
