package planner

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

func snap(identity string, parts ...providers.PartitionSnapshot) providers.Snapshot {
	return providers.Snapshot{Identity: identity, Partitions: parts}
}

func part(id string, earliest, latest int64) providers.PartitionSnapshot {
	return providers.PartitionSnapshot{ID: id, Earliest: earliest, Latest: latest}
}

func rng(p string, start, end int64) state.Range {
	return state.Range{Partition: p, Start: start, End: end}
}

func sinkState(offsets map[string]int64, next int64, inflight *state.Batch) *state.Sink {
	s := state.NewSink(state.SourceRef{Type: "generate", Name: "g", Identity: "id"})
	for k, v := range offsets {
		s.Offsets[k] = v
	}
	s.NextBatch = next
	s.InFlight = inflight
	return s
}

func batches(p *SinkPlan) []Batch {
	var out []Batch
	p.New.Each(func(b Batch) bool { out = append(out, b); return true })
	return out
}

func TestPlanSink(t *testing.T) {
	base := SinkInput{Name: "s", SourceType: "generate", SourceName: "g", MaxRecords: 100, OnDataLoss: "fail", Destinations: []string{"a", "b"}, Layout: "L"}
	tests := []struct {
		name    string
		in      func(SinkInput) SinkInput
		batches [][]state.Range // ranges of each new batch
		resume  *Batch
		cleanup []Cleanup
		err     string
	}{
		{
			name: "fresh sink starts at the earliest offsets",
			in: func(in SinkInput) SinkInput {
				in.Snapshot = snap("id", part("0", 10, 60), part("1", 0, 30))
				return in
			},
			batches: [][]state.Range{{rng("0", 10, 60), rng("1", 0, 30)}},
		},
		{
			name: "pending ranges are cut proportionally into batches of max_records",
			in: func(in SinkInput) SinkInput {
				in.Snapshot = snap("id", part("0", 0, 150), part("1", 0, 50))
				return in
			},
			batches: [][]state.Range{
				{rng("0", 0, 75), rng("1", 0, 25)},
				{rng("0", 75, 150), rng("1", 25, 50)},
			},
		},
		{
			name: "remainders go to partitions in order",
			in: func(in SinkInput) SinkInput {
				in.MaxRecords = 2
				in.Snapshot = snap("id", part("0", 0, 1), part("1", 0, 1), part("2", 0, 1))
				return in
			},
			batches: [][]state.Range{
				{rng("0", 0, 1), rng("1", 0, 1)},
				{rng("2", 0, 1)},
			},
		},
		{
			name: "committed offsets are the start; new partitions start at earliest",
			in: func(in SinkInput) SinkInput {
				in.State = sinkState(map[string]int64{"0": 40}, 3, nil)
				in.Snapshot = snap("id", part("0", 0, 50), part("1", 5, 10))
				return in
			},
			batches: [][]state.Range{{rng("0", 40, 50), rng("1", 5, 10)}},
		},
		{
			name: "up to date: nothing to do",
			in: func(in SinkInput) SinkInput {
				in.State = sinkState(map[string]int64{"0": 50}, 3, nil)
				in.Snapshot = snap("id", part("0", 0, 50))
				return in
			},
		},
		{
			name: "an in-flight batch is resumed with its logged ranges, new batches follow it",
			in: func(in SinkInput) SinkInput {
				in.State = sinkState(map[string]int64{"0": 10}, 5, &state.Batch{ID: 4, Ranges: []state.Range{rng("0", 10, 30)}, Destinations: []string{"a", "b"}, Layout: "L"})
				in.Snapshot = snap("id", part("0", 0, 40))
				in.Observed = map[string]*Observation{"a": {Manifests: []int64{3, 4}}, "b": {Manifests: []int64{3}, Temporaries: []int64{4}}}
				return in
			},
			resume:  &Batch{ID: 4, Ranges: []state.Range{rng("0", 10, 30)}, Records: 20, Destinations: []string{"a", "b"}, Pending: []string{"b"}},
			batches: [][]state.Range{{rng("0", 30, 40)}},
		},
		{
			name: "an in-flight batch whose columns are older than the pending records' is resumed alone",
			in: func(in SinkInput) SinkInput {
				in.State = sinkState(map[string]int64{"0": 10}, 5, &state.Batch{ID: 4, Ranges: []state.Range{rng("0", 10, 30)}, Destinations: []string{"a", "b"}, Layout: "L"})
				in.Snapshot = snap("id", part("0", 0, 40))
				in.ResumeOnly = "the batch in flight is finished with its columns"
				return in
			},
			resume: &Batch{ID: 4, Ranges: []state.Range{rng("0", 10, 30)}, Records: 20, Destinations: []string{"a", "b"}, Pending: []string{"a", "b"}},
		},
		{
			name: "orphan temporaries are cleaned, the in-flight one is not an orphan",
			in: func(in SinkInput) SinkInput {
				in.State = sinkState(map[string]int64{"0": 10}, 8, nil)
				in.Snapshot = snap("id", part("0", 0, 10))
				in.Observed = map[string]*Observation{"a": {Temporaries: []int64{2, 7}}, "b": {}}
				return in
			},
			cleanup: []Cleanup{{Destination: "a", Batch: 2}, {Destination: "a", Batch: 7}},
		},
		{
			name: "the manifests an interrupted move left are cleaned, not those of the move under way",
			in: func(in SinkInput) SinkInput {
				in.State = sinkState(map[string]int64{"0": 10}, 8, nil)
				in.Snapshot = snap("id", part("0", 0, 10))
				in.MovedFrom = "old"
				in.Observed = map[string]*Observation{"a": {MoveLeftovers: []string{"old", "s_v2"}}, "b": {MoveLeftovers: []string{"s_v3"}}}
				return in
			},
			cleanup: []Cleanup{{Destination: "a", Manifests: "s_v2"}, {Destination: "b", Manifests: "s_v3"}},
		},
		{
			name: "data loss below the earliest offset is an error by default",
			in: func(in SinkInput) SinkInput {
				in.State = sinkState(map[string]int64{"0": 10}, 1, nil)
				in.Snapshot = snap("id", part("0", 25, 40))
				return in
			},
			err: "partition 0: offsets [10, 25) (15 records) are no longer in the source",
		},
		{
			name: "data loss is skipped with on_data_loss = skip",
			in: func(in SinkInput) SinkInput {
				in.OnDataLoss = "skip"
				in.State = sinkState(map[string]int64{"0": 10}, 1, nil)
				in.Snapshot = snap("id", part("0", 25, 40))
				return in
			},
			batches: [][]state.Range{{rng("0", 25, 40)}},
		},
		{
			name: "a vanished partition is data loss",
			in: func(in SinkInput) SinkInput {
				in.State = sinkState(map[string]int64{"logs/a.jsonl": 10}, 1, nil)
				in.Snapshot = snap("id", part("logs/b.jsonl", 0, 5))
				return in
			},
			err: "partition logs/a.jsonl: it is no longer in the source",
		},
		{
			name: "a shrunk partition is data loss",
			in: func(in SinkInput) SinkInput {
				in.State = sinkState(map[string]int64{"0": 10}, 1, nil)
				in.Snapshot = snap("id", part("0", 0, 4))
				return in
			},
			err: "the source now ends at offset 4, below the committed offset 10",
		},
		{
			name: "another stream under the same source is refused",
			in: func(in SinkInput) SinkInput {
				in.State = sinkState(map[string]int64{"0": 10}, 1, nil)
				in.Snapshot = snap("other", part("0", 0, 40))
				return in
			},
			err: "its source is another stream",
		},
		{
			name: "a sink pointed at another source is refused",
			in: func(in SinkInput) SinkInput {
				in.SourceName = "h"
				in.State = sinkState(map[string]int64{"0": 10}, 1, nil)
				in.Snapshot = snap("id", part("0", 0, 40))
				return in
			},
			err: "its source changed",
		},
		{
			name: "an in-flight batch needs its destinations",
			in: func(in SinkInput) SinkInput {
				in.Destinations = []string{"a"}
				in.State = sinkState(nil, 1, &state.Batch{ID: 0, Ranges: []state.Range{rng("0", 0, 5)}, Destinations: []string{"a", "b"}, Layout: "L"})
				in.Snapshot = snap("id", part("0", 0, 40))
				return in
			},
			err: "but b are gone from the configuration",
		},
		{
			name: "an in-flight batch needs its output settings",
			in: func(in SinkInput) SinkInput {
				in.Layout = "M"
				in.State = sinkState(nil, 1, &state.Batch{ID: 0, Ranges: []state.Range{rng("0", 0, 5)}, Destinations: []string{"a", "b"}, Layout: "L"})
				in.Snapshot = snap("id", part("0", 0, 40))
				return in
			},
			err: "in flight with other output settings",
		},
		{
			name: "a destination ahead of the state is refused",
			in: func(in SinkInput) SinkInput {
				in.State = sinkState(map[string]int64{"0": 10}, 2, nil)
				in.Snapshot = snap("id", part("0", 0, 40))
				in.Observed = map[string]*Observation{"a": {Manifests: []int64{0, 1, 2}}}
				return in
			},
			err: "destination \"a\" holds the manifest of batch 2",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := PlanSink(tt.in(base))
			if tt.err != "" {
				var pe *Error
				if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("want a planner error containing %q, got %v", tt.err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got [][]state.Range
			for _, b := range batches(p) {
				got = append(got, b.Ranges)
			}
			if !reflect.DeepEqual(got, tt.batches) {
				t.Errorf("batches:\n got %v\nwant %v", got, tt.batches)
			}
			if !reflect.DeepEqual(p.Resume, tt.resume) {
				t.Errorf("resume:\n got %+v\nwant %+v", p.Resume, tt.resume)
			}
			if !reflect.DeepEqual(p.Cleanups, tt.cleanup) {
				t.Errorf("cleanups:\n got %v\nwant %v", p.Cleanups, tt.cleanup)
			}
			if int64(len(got)) != p.New.Batches {
				t.Errorf("New.Batches = %d, but Each gave %d", p.New.Batches, len(got))
			}
		})
	}
}

// TestPendingCoversEveryOffsetOnce checks the cutting over many shapes: the
// batches tile each partition's pending range exactly, in order, each batch
// at most max_records, numbered consecutively.
func TestPendingCoversEveryOffsetOnce(t *testing.T) {
	for _, max := range []int64{1, 3, 7, 100, 1000} {
		for _, sizes := range [][]int64{{0}, {5}, {10, 0, 3}, {999, 1, 17, 250}, {1, 1, 1, 1, 1, 1, 1}} {
			p := Pending{FirstID: 10, MaxRecords: max}
			var total int64
			for i, n := range sizes {
				if n > 0 {
					p.Ranges = append(p.Ranges, rng(string(rune('a'+i)), 100, 100+n))
				}
				total += n
			}
			p.Records = total
			p.Batches = (total + max - 1) / max
			next := map[string]int64{}
			for _, r := range p.Ranges {
				next[r.Partition] = r.Start
			}
			id := int64(10)
			var seen int64
			p.Each(func(b Batch) bool {
				if b.ID != id {
					t.Fatalf("max %d sizes %v: batch id %d, want %d", max, sizes, b.ID, id)
				}
				id++
				var n int64
				for _, r := range b.Ranges {
					if r.Start != next[r.Partition] || r.End <= r.Start {
						t.Fatalf("max %d sizes %v: batch %d range %v does not continue at %d", max, sizes, b.ID, r, next[r.Partition])
					}
					next[r.Partition] = r.End
					n += r.Records()
				}
				if n != b.Records || n > max || n == 0 {
					t.Fatalf("max %d sizes %v: batch %d has %d records (says %d)", max, sizes, b.ID, n, b.Records)
				}
				seen += n
				return true
			})
			if seen != total || id-10 != p.Batches {
				t.Fatalf("max %d sizes %v: %d records in %d batches, want %d in %d", max, sizes, seen, id-10, total, p.Batches)
			}
		}
	}
}
