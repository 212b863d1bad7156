package workspace

import (
	"context"
	"sort"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// SinkStatus is how far one sink is behind its source.
type SinkStatus struct {
	Name   string
	Source string // the source's key, "TYPE.NAME"
	// State is the sink's checkpoint, nil before its first commit.
	State *state.Sink
	// Err is set when the source could not be opened or read; Partitions,
	// Lag and Behind are then empty.
	Err error
	// Partitions are the source's, in its order.
	Partitions []PartitionLag
	// Lag is the records the source holds beyond the committed offsets, all
	// partitions together.
	Lag int64
	// Behind are the partitions whose source no longer holds records the
	// sink delivered: those ending below their committed offset, in the
	// source's order, then those gone from it, by ID.
	Behind []Behind
}

// PartitionLag is one partition of a sink's source against the committed
// offset. A sink without a checkpoint counts from where it would start.
type PartitionLag struct {
	ID                               string
	Committed, Earliest, Latest, Lag int64
}

// Behind is a partition whose source ends below the committed offset (a
// truncated file, a recreated topic), or that is no longer in the source
// (Vanished; Latest is nil).
type Behind struct {
	Partition string
	Committed int64
	Latest    *int64
	Vanished  bool
}

// Status reads each source of cfg's sinks once, without the lock and without
// contacting destinations, and measures every sink against its checkpoint in
// st. A source that cannot be read is that source's sinks' Err, not an error
// of the whole.
func Status(ctx context.Context, cfg *config.Config, kinds providers.Kinds, st *state.State) []SinkStatus {
	snapshots := map[string]providers.Snapshot{}
	renamers := map[string]partitionRenamer{}
	failures := map[string]error{}
	for _, s := range cfg.Sinks {
		if _, done := snapshots[s.Source]; done || failures[s.Source] != nil {
			continue
		}
		src, err := OpenSource(ctx, cfg.Sources[s.Source], kinds)
		if err != nil {
			failures[s.Source] = err
			continue
		}
		snap, err := src.Snapshot(ctx)
		if r, ok := src.(partitionRenamer); ok {
			renamers[s.Source] = r // works on names only: it needs no connection
		}
		src.Close()
		if err != nil {
			failures[s.Source] = err
			continue
		}
		snapshots[s.Source] = snap
	}

	// A sink whose shards change is measured in the layout its checkpoints
	// still have, until apply makes the change.
	type entry struct {
		name, source string
		shard        *planner.Shard
	}
	var entries []entry
	former := map[string]bool{}
	for _, s := range cfg.Sinks {
		if names, count := st.Checkpoints(s.Declared()); count > 0 && count != max(s.Shards, 1) {
			if !former[s.Declared()] {
				former[s.Declared()] = true
				for _, name := range names {
					entries = append(entries, entry{name, s.Source, st.Sinks[name].Shard})
				}
			}
			continue
		}
		e := entry{name: s.Name, source: s.Source}
		if s.Shard != nil {
			e.shard = &planner.Shard{Sink: s.Shard.Sink, Index: s.Shard.Index, Count: s.Shard.Count}
		}
		entries = append(entries, e)
	}
	var out []SinkStatus
	for _, s := range entries {
		ss := st.Sinks[s.name]
		status := SinkStatus{Name: s.name, Source: s.source, State: ss, Err: failures[s.source]}
		if status.Err != nil {
			out = append(out, status)
			continue
		}
		snap := planner.ShardSnapshot(snapshots[s.source], s.shard)
		offsets := committedOffsets(ss, renamers[s.source], snap)
		inSource := map[string]bool{}
		for _, part := range snap.Partitions {
			inSource[part.ID] = true
			committed := part.Earliest
			if ss != nil {
				if off, ok := offsets[part.ID]; ok {
					committed = off
				}
			} else if StartsAtLatest(cfg.Sources[s.source], kinds) {
				committed = part.Latest
			}
			if committed > part.Latest {
				latest := part.Latest
				status.Behind = append(status.Behind, Behind{Partition: part.ID, Committed: committed, Latest: &latest})
			}
			lag := max(part.Latest-max(committed, part.Earliest), 0)
			status.Partitions = append(status.Partitions, PartitionLag{ID: part.ID, Committed: committed, Earliest: part.Earliest, Latest: part.Latest, Lag: lag})
			status.Lag += lag
		}
		if ss != nil {
			// As the planner: a partition read up to offset 0 lost nothing.
			var vanished []Behind
			for id, off := range offsets {
				if !inSource[id] && off > 0 {
					vanished = append(vanished, Behind{Partition: id, Committed: off, Vanished: true})
				}
			}
			sort.Slice(vanished, func(i, j int) bool { return vanished[i].Partition < vanished[j].Partition })
			status.Behind = append(status.Behind, vanished...)
		}
		out = append(out, status)
	}
	return out
}

// Lag is how far a sink's committed offsets (ss, nil before its first
// commit) are behind the source snapshot its plan was made from.
func Lag(sp *planner.SinkPlan, ss *state.Sink) int64 {
	var lag int64
	for _, part := range sp.Snapshot.Partitions {
		from := part.Earliest
		if ss != nil {
			if off, ok := ss.Offsets[part.ID]; ok {
				from = off
			}
		}
		lag += max(part.Latest-from, 0)
	}
	return lag
}

// committedOffsets are a checkpoint's committed offsets by the names the
// source gives its partitions now: names an older streamctl gave are
// mapped as the planner maps them, so that they are not taken for
// partitions gone from the source.
func committedOffsets(ss *state.Sink, r partitionRenamer, snap providers.Snapshot) map[string]int64 {
	if ss == nil {
		return nil
	}
	if r == nil {
		return ss.Offsets
	}
	keys := make([]string, 0, len(ss.Offsets))
	for k := range ss.Offsets {
		keys = append(keys, k)
	}
	renamed := r.RenamedPartitions(snap, keys)
	if len(renamed) == 0 {
		return ss.Offsets
	}
	out := make(map[string]int64, len(ss.Offsets))
	for k, off := range ss.Offsets {
		if to, ok := renamed[k]; ok {
			k = to
		}
		out[k] = max(out[k], off)
	}
	return out
}
