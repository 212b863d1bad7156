package planner

import (
	"testing"

	"github.com/streamctl/streamctl/providers"
)

func TestShardOf(t *testing.T) {
	for _, c := range []struct {
		partition string
		count     int
		want      int
	}{
		{"0", 8, 0}, {"7", 8, 7}, {"8", 8, 0}, {"13", 4, 1}, {"5", 1, 0},
		// Not a canonical number: hashed like a file path.
		{"007", 8, ShardOf("007", 8)},
	} {
		if got := ShardOf(c.partition, c.count); got != c.want {
			t.Errorf("ShardOf(%q, %d) = %d, want %d", c.partition, c.count, got, c.want)
		}
	}
	// A file path lands in one fixed shard, whatever the other files.
	seen := map[int]bool{}
	for _, p := range []string{"logs/a.jsonl", "logs/b.jsonl", "logs/c.jsonl", "logs/d.jsonl", "logs/e.jsonl", "logs/f.jsonl"} {
		k := ShardOf(p, 3)
		if k < 0 || k >= 3 || ShardOf(p, 3) != k {
			t.Fatalf("ShardOf(%q, 3) = %d", p, k)
		}
		seen[k] = true
	}
	if len(seen) < 2 {
		t.Errorf("six file paths all hash to one of 3 shards: %v", seen)
	}
}

func TestShardSnapshot(t *testing.T) {
	snap := providers.Snapshot{Identity: "x"}
	for _, id := range []string{"0", "1", "2", "3", "4", "5"} {
		snap.Partitions = append(snap.Partitions, providers.PartitionSnapshot{ID: id, Latest: 10})
	}
	got := ShardSnapshot(snap, &Shard{Sink: "orders", Index: 1, Count: 4})
	if got.Identity != "x" || len(got.Partitions) != 2 || got.Partitions[0].ID != "1" || got.Partitions[1].ID != "5" {
		t.Fatalf("shard 1 of 4 reads %+v, want partitions 1 and 5", got)
	}
	if all := ShardSnapshot(snap, nil); len(all.Partitions) != 6 {
		t.Fatalf("no shard reads %d partitions, want 6", len(all.Partitions))
	}
	// Empty shards plan nothing.
	if none := ShardSnapshot(snap, &Shard{Sink: "orders", Index: 7, Count: 8}); len(none.Partitions) != 0 {
		t.Fatalf("shard 7 of 8 of six partitions reads %+v", none.Partitions)
	}
}
