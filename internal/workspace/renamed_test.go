package workspace

import (
	"fmt"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/files"
	"github.com/streamctl/streamctl/state"
)

// TestRenamedAcrossShards: a partition an older streamctl named otherwise
// keeps its offset when its current name belongs to the same shard, and
// both shards concerned are refused, with the way out, when it belongs to
// another: the other would read it from its start.
func TestRenamedAcrossShards(t *testing.T) {
	const count = 3
	// Two files: one whose current name stays in shard 0, one that moves.
	var stays, moves string
	for i := 0; stays == "" || moves == ""; i++ {
		name := fmt.Sprintf("f%d.jsonl", i)
		if state.ShardOf(name, count) == 0 {
			if stays == "" {
				stays = name
			}
		} else if moves == "" {
			moves = name
		}
	}
	full := providers.Snapshot{Identity: "files:in/*.jsonl", Partitions: []providers.PartitionSnapshot{{ID: stays, Latest: 10}, {ID: moves, Latest: 10}}}
	src := &files.Source{Dir: t.TempDir(), Pattern: "in/*.jsonl"}
	checkpoints := func(old ...string) func(int) *state.Sink {
		cp := state.NewSink(state.SourceRef{})
		for _, name := range old {
			cp.Offsets["in/"+name] = 10
		}
		return func(index int) *state.Sink {
			if index == 0 {
				return cp
			}
			return nil
		}
	}
	shard := func(index int) *planner.Shard { return &planner.Shard{Sink: "events", Index: index, Count: count} }
	movedTo := state.ShardOf(moves, count)
	for _, tc := range []struct {
		name    string
		shard   int
		held    []string
		refused bool
	}{
		{"renamed within its shard", 0, []string{stays}, false},
		{"renamed into another shard: the holder is refused", 0, []string{stays, moves}, true},
		{"renamed into another shard: the shard it goes to is refused", movedTo, []string{moves}, true},
		{"a third shard is not concerned", 3 - movedTo, []string{moves}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := renamedAcrossShards(src, full, shard(tc.shard), checkpoints(tc.held...))
			if (err != nil) != tc.refused {
				t.Fatalf("refused: %v, want %v", err, tc.refused)
			}
			if err != nil && !strings.Contains(err.Error(), "Set shards = 1 and apply") {
				t.Errorf("the refusal does not say what to do: %v", err)
			}
		})
	}
}
