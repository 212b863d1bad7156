package planner

import (
	"strings"
	"testing"

	"github.com/streamctl/streamctl/state"
)

// TestPlanTables: what plan does with a destination's table, from what the
// table, the state and the manifests say.
func TestPlanTables(t *testing.T) {
	committed := func(next int64, inflight *state.Batch) *state.Sink {
		st := sinkState(map[string]int64{"0": next * 10}, next, inflight)
		st.Destinations["a"] = &state.Destination{LastBatch: next - 1}
		if inflight != nil {
			st.NextBatch = inflight.ID + 1
		}
		return st
	}
	tb := func(ids ...int64) []TableBatch {
		var out []TableBatch
		for _, id := range ids {
			out = append(out, TableBatch{ID: id, Ranges: []state.Range{rng("0", id*10, id*10+10)}, Snapshot: 100 + id})
		}
		return out
	}
	tests := []struct {
		name  string
		state *state.Sink
		table TableObservation
		obs   func(*Observation)
		check func(*testing.T, *SinkPlan)
		err   string
	}{
		{
			name:  "a missing table is created",
			table: TableObservation{Create: "2 columns, partitioned by day(ts)"},
			check: func(t *testing.T, p *SinkPlan) {
				if len(p.Tables) != 1 || p.Tables[0].Create != "2 columns, partitioned by day(ts)" || !p.Changes() {
					t.Errorf("tables %+v", p.Tables)
				}
			},
		},
		{
			name:  "a nullable column added is a change",
			state: committed(3, nil),
			table: TableObservation{Exists: true, Batches: tb(0, 1, 2), Changes: []string{"add column note (string, optional)"}},
			check: func(t *testing.T, p *SinkPlan) {
				if len(p.Tables) != 1 || strings.Join(p.Tables[0].Changes, ",") != "add column note (string, optional)" || p.Tables[0].Create != "" {
					t.Errorf("tables %+v", p.Tables)
				}
			},
		},
		{
			name:  "an up-to-date table plans nothing",
			state: committed(3, nil),
			table: TableObservation{Exists: true, Batches: tb(0, 1, 2)},
			check: func(t *testing.T, p *SinkPlan) {
				if len(p.Tables) != 0 || p.tablesChange() {
					t.Errorf("tables %+v", p.Tables)
				}
			},
		},
		{
			name:  "an incompatible change is refused",
			state: committed(3, nil),
			table: TableObservation{Exists: true, Batches: tb(0, 1, 2), Problems: []string{`column "qty" is int in the table, and type "string" (Iceberg string) is declared`}},
			err:   `the declared columns do not fit iceberg table lake.orders: destination "a": column "qty" is int in the table`,
		},
		{
			name:  "a table rolled back is behind the state",
			state: committed(3, nil),
			table: TableObservation{Exists: true, Batches: tb(0), Detached: tb(2, 1)},
			err:   "iceberg table lake.orders is behind the state: destination \"a\": the state has committed batches up to 2 into the table, and its current snapshot records batch 0 last",
		},
		{
			name:  "the way back from a rollback names the snapshot",
			state: committed(3, nil),
			table: TableObservation{Exists: true, Batches: tb(0), Detached: tb(2, 1)},
			err:   "make snapshot 102 (batch 2) current again",
		},
		{
			name:  "a table rolled back before its first batch is behind",
			state: committed(3, nil),
			table: TableObservation{Exists: true, Detached: tb(2, 1, 0)},
			err:   "is behind the state",
		},
		{
			name:  "a dropped table is refused",
			state: committed(3, nil),
			table: TableObservation{Create: "2 columns, unpartitioned", NewestMetadata: "file:///d/_streamctl/iceberg/metadata/00003-u.metadata.json"},
			err:   "iceberg table lake.orders is missing: destination \"a\": the state has committed batches up to 2 into it",
		},
		{
			name:  "a table declared on a destination with history is created, with a warning",
			state: committed(3, nil),
			table: TableObservation{Create: "2 columns, unpartitioned"},
			check: func(t *testing.T, p *SinkPlan) {
				if len(p.Tables) != 1 || p.Tables[0].Create == "" || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "holds batches up to 2 committed before iceberg table lake.orders was declared") {
					t.Errorf("tables %+v, warnings %q", p.Tables, p.Warnings)
				}
			},
		},
		{
			name:  "the batch in flight that the table holds is finished, not appended again",
			state: committed(2, &state.Batch{ID: 2, Ranges: []state.Range{rng("0", 20, 30)}, Destinations: []string{"a"}}),
			table: TableObservation{Exists: true, Batches: tb(0, 1, 2)},
			check: func(t *testing.T, p *SinkPlan) {
				if p.Resume == nil || p.Resume.ID != 2 || len(p.Tables) != 1 || len(p.Tables[0].Holds) != 1 || p.Tables[0].Holds[0] != 2 {
					t.Errorf("resume %+v, tables %+v", p.Resume, p.Tables)
				}
			},
		},
		{
			name:  "the batch in flight with other ranges in the table is refused",
			state: committed(2, &state.Batch{ID: 2, Ranges: []state.Range{rng("0", 20, 25)}, Destinations: []string{"a"}}),
			table: TableObservation{Exists: true, Batches: tb(0, 1, 2)},
			err:   "iceberg table lake.orders holds batch 2 with other ranges than the state's",
		},
		{
			name:  "a table ahead of the state is adopted with its snapshot's ranges",
			state: committed(2, nil),
			table: TableObservation{Exists: true, Batches: tb(0, 1, 2)},
			check: func(t *testing.T, p *SinkPlan) {
				if len(p.Adopt) != 1 || p.Adopt[0].ID != 2 || !sameRangeList(p.Adopt[0].Ranges, []state.Range{rng("0", 20, 30)}) || strings.Join(p.Adopt[0].Pending, ",") != "a" {
					t.Errorf("adopt %+v", p.Adopt)
				}
				if p.New.FirstID != 3 || len(p.Tables) != 1 || len(p.Tables[0].Holds) != 1 {
					t.Errorf("new from %d, tables %+v", p.New.FirstID, p.Tables)
				}
			},
		},
		{
			name:  "a Delta log whose last versions were deleted is behind, with the way out for a log",
			state: committed(3, nil),
			table: TableObservation{Name: "Delta table /d", Format: TableDelta, Exists: true, Batches: tb(0)},
			err:   "Delta table /d is behind the state: destination \"a\": the state has committed batches up to 2 into the table, and its log records batch 0 last: versions of the log were deleted, or the log was restored from an older copy. Appending batch 3 on top would leave batches 1–2 out of the table for good",
		},
		{
			name:  "a Delta log behind tells to put the versions back or move _delta_log aside",
			state: committed(3, nil),
			table: TableObservation{Name: "Delta table /d", Format: TableDelta, Exists: true, Batches: tb(0)},
			err:   "Put the log's deleted versions back (_delta_log/<version>.json, from a copy or the store's object versions). To go on without those batches in the table, start it over: move the destination's folder _delta_log aside",
		},
		{
			name:  "an incompatible change to a Delta table says what a Delta table takes",
			state: committed(3, nil),
			table: TableObservation{Name: "Delta table /d", Format: TableDelta, Exists: true, Batches: tb(0, 1, 2), Problems: []string{`column "id" is long in the table, and string in the sink`}},
			err:   `the declared columns do not fit Delta table /d: destination "a": column "id" is long in the table, and string in the sink. Nothing was written. A Delta table takes only added nullable columns from the sink: restore the columns and partition_by the table was created with, or write the sink to another destination folder for the new layout.`,
		},
		{
			name:  "a table ahead by a batch that does not continue the state is refused",
			state: committed(2, nil),
			table: TableObservation{Exists: true, Batches: tb(0, 1, 3)},
			err:   "a table is ahead of the state: destination \"a\": iceberg table lake.orders records batch 3",
		},
		{
			name:  "data files of a batch nothing commits are orphans",
			state: committed(2, nil),
			table: TableObservation{Exists: true, Batches: tb(0, 1), Orphans: []string{"_streamctl/iceberg/metadata/snap-1-1-u.avro"}},
			obs: func(o *Observation) {
				o.Uncommitted = map[int64][]string{5: {"x/part-00000005-00001.parquet", "x/part-00000005-00000.parquet"}, 1: {"part-00000001-00000.parquet"}}
			},
			check: func(t *testing.T, p *SinkPlan) {
				if len(p.Tables) != 1 {
					t.Fatalf("tables %+v", p.Tables)
				}
				var got []string
				for _, o := range p.Tables[0].Orphans {
					got = append(got, o.Kind+":"+o.Path)
				}
				if strings.Join(got, " ") != "metadata:_streamctl/iceberg/metadata/snap-1-1-u.avro data:x/part-00000005-00000.parquet data:x/part-00000005-00001.parquet" || !p.Changes() {
					t.Errorf("orphans %v", got)
				}
			},
		},
		{
			name:  "data files of a batch a manifest, the table or the state holds are not orphans",
			state: committed(2, &state.Batch{ID: 2, Ranges: []state.Range{rng("0", 20, 30)}, Destinations: []string{"a"}}),
			table: TableObservation{Exists: true, Batches: tb(0, 1), Detached: tb(4)},
			obs: func(o *Observation) {
				o.Manifests = []int64{0, 1, 3}
				o.Uncommitted = map[int64][]string{2: {"part-00000002-00000.parquet"}, 3: {"part-00000003-00000.parquet"}, 4: {"part-00000004-00000.parquet"}}
				o.Ahead = map[int64][]state.Range{3: {rng("0", 30, 40)}}
			},
			check: func(t *testing.T, p *SinkPlan) {
				for _, tp := range p.Tables {
					if len(tp.Orphans) > 0 {
						t.Errorf("orphans %+v", tp.Orphans)
					}
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := SinkInput{Name: "s", SourceType: "generate", SourceName: "g", MaxRecords: 10, OnDataLoss: "fail", Destinations: []string{"a"}, Layout: "L",
				State: tc.state, Snapshot: snap("id", part("0", 0, 50))}
			if tc.table.Name == "" {
				tc.table.Name = "iceberg table lake.orders"
			}
			obs := &Observation{Table: &tc.table}
			if tc.obs != nil {
				tc.obs(obs)
			}
			in.Observed = map[string]*Observation{"a": obs}
			p, err := PlanSink(in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, p)
		})
	}
}
