package planner

import (
	"hash/fnv"
	"strconv"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// Shard is shard Index of Count of the sharded sink Sink: it plans, writes
// and commits only the source partitions ShardOf gives it.
type Shard = state.Shard

// ShardOf is the shard of count that partition belongs to. A partition
// whose ID is a decimal number (Kafka partitions, generate) goes to ID mod
// count, so that consecutive partitions spread evenly; any other ID (a file
// path) to the 32-bit FNV-1a hash of its bytes mod count. Both depend on the
// partition alone, so that a partition added later lands in a shard without
// moving any other.
func ShardOf(partition string, count int) int {
	if count <= 1 {
		return 0
	}
	if n, err := strconv.ParseUint(partition, 10, 63); err == nil && strconv.FormatUint(n, 10) == partition {
		return int(n % uint64(count))
	}
	h := fnv.New32a()
	h.Write([]byte(partition))
	return int(h.Sum32() % uint32(count))
}

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
