package planner

import (
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// Shard is shard Index of Count of the sharded sink Sink: it plans, writes
// and commits only the source partitions ShardOf gives it.
type Shard = state.Shard

// ShardOf is the shard of count that partition belongs to: see
// state.ShardOf.
func ShardOf(partition string, count int) int { return state.ShardOf(partition, count) }

// owns reports whether partition belongs to shard s (nil: every one does).
func owns(s *Shard, partition string) bool {
	return s == nil || ShardOf(partition, s.Count) == s.Index
}

// ShardSnapshot is the part of snap the shard reads: the partitions it owns,
// in the source's order. A nil shard reads them all.
func ShardSnapshot(snap providers.Snapshot, s *Shard) providers.Snapshot {
	if s == nil {
		return snap
	}
	out := providers.Snapshot{Identity: snap.Identity}
	for _, p := range snap.Partitions {
		if owns(s, p.ID) {
			out.Partitions = append(out.Partitions, p)
		}
	}
	return out
}
