package planner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/streamctl/streamctl/state"
)

// PartitionRename is a committed offset the state holds under a partition
// name an older streamctl gave: apply records it under the name the source
// gives the partition now. Ranges already logged (the batch in flight, the
// history) keep their names, so that a batch written again is written as
// it first was.
type PartitionRename struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Offset int64  `json:"offset"`
}

// partition is the name the source gives now to a partition the state names.
func (in SinkInput) partition(name string) string {
	if to, ok := in.Renamed[name]; ok {
		return to
	}
	return name
}

// renamedPartitions lists the committed offsets to record under their
// partitions' current names, by former name.
func renamedPartitions(in SinkInput, st *state.Sink) []PartitionRename {
	var out []PartitionRename
	for from, to := range in.Renamed {
		if off, ok := st.Offsets[from]; ok {
			out = append(out, PartitionRename{From: from, To: to, Offset: off})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out
}

// unreadPartitions lists the snapshot's partitions the state has no offset
// for that hold records: new batches read them from their start.
func unreadPartitions(in SinkInput, from map[string]int64) []string {
	var out []string
	for _, part := range in.Snapshot.Partitions {
		if _, known := from[part.ID]; !known && part.Latest > part.Earliest {
			out = append(out, part.ID)
		}
	}
	return out
}

// dataLossAdvice says what to do about lost records. Skipping them is safe
// when they are gone; when partitions vanished while others the state never
// read appeared, those may be the same records under other names (files
// moved, renamed, or reached by another path), and skipping would deliver
// them a second time: then it is not what the advice leads with.
func dataLossAdvice(vanished, unread []string) string {
	if len(vanished) == 0 || len(unread) == 0 {
		return "Those records can no longer be read, so they cannot be delivered. To go on without them, set on_data_loss = \"skip\" on the sink; the skipped ranges are then reported."
	}
	return fmt.Sprintf("At the same time, %s the state never read appeared (%s): if they hold the same records under other names (files moved or renamed, or the source's path changed), on_data_loss = \"skip\" would deliver all of their records a second time. Put the partitions back under the names the state has, or restore the source's settings. Set on_data_loss = \"skip\" only if the vanished records are truly gone and the new partitions hold other records.", plural(len(unread), "partition", "partitions"), listSome(unread))
}

// listSome lists up to five names, and how many more there are.
func listSome(names []string) string {
	if len(names) <= 5 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:5], ", "), len(names)-5)
}

// plural renders "1 partition", "2 partitions".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
