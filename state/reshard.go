package state

import (
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Reshard is a change of a sink's number of shards in progress: the
// sink's committed offsets gathered from its checkpoints in the former
// layout, from which every checkpoint of the new one is derived (Shards).
// It is written into the state (a remote state's root document) before
// any checkpoint is rewritten, and removed once they all are: a run that
// dies in between leaves it, and the next run derives the same checkpoints
// from it again. A state with a reshard in progress is refused by a
// streamctl that does not know the field.
type Reshard struct {
	From int `json:"from"` // shards before; 1: not sharded
	To   int `json:"to"`   // shards after; 1: not sharded
	// Source is the stream the offsets belong to.
	Source SourceRef `json:"source"`
	// Offsets are the committed offsets of every partition of the sink.
	Offsets map[string]int64 `json:"offsets"`
	// NextBatch is the first batch number of every new checkpoint: past
	// every batch of the former ones, so that no batch number, manifest
	// or file name of the former layout is used again.
	NextBatch int64 `json:"next_batch"`
	// Destinations hold every batch committed before the change.
	Destinations []string   `json:"destinations"`
	LastCommit   *time.Time `json:"last_commit,omitempty"`
	// Layout is what the former checkpoints' latest batches were written
	// with (Sink.Layout), which the new ones carry on, so that a change of
	// output settings after the change of shards is still planned as one.
	Layout *Layout `json:"layout,omitempty"`
}

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

// CheckpointName is the name of shard k of count of sink: the sink's own
// name when count is 1.
func CheckpointName(sink string, k, count int) string {
	if count <= 1 {
		return sink
	}
	return ShardName(sink, k)
}

// Checkpoints lists the names of sink's checkpoints in s, in name order:
// the sink's own, or its shards', of whatever count. The count is 0 when
// there are none, and -1 when they disagree.
func (s *State) Checkpoints(sink string) (names []string, count int) {
	for _, name := range s.SinkNames() {
		ss := s.Sinks[name]
		c := 0
		switch {
		case name == sink && ss.Shard == nil:
			c = 1
		case ss.Shard != nil && ss.Shard.Sink == sink:
			c = ss.Shard.Count
		default:
			continue
		}
		names = append(names, name)
		if count == 0 {
			count = c
		} else if count != c {
			count = -1
		}
	}
	return names, count
}

// NewReshard gathers sink's checkpoints in s into the change to shards to.
// It is refused while a checkpoint has a batch in flight (its ranges are
// fixed, in the layout they were planned in) or a destination misses a
// committed batch (it is repaired from a history the change does not
// carry): the former layout finishes them first.
func NewReshard(s *State, sink string, to int) (*Reshard, error) {
	names, from := s.Checkpoints(sink)
	if from < 0 {
		return nil, fmt.Errorf("its checkpoints %s are of different numbers of shards; the state was edited by hand", strings.Join(names, ", "))
	}
	r := &Reshard{From: max(from, 1), To: max(to, 1), Offsets: map[string]int64{}}
	held := map[string]int{}
	active := 0 // the checkpoints that committed a batch: the others hold no destination yet
	for _, name := range names {
		ss := s.Sinks[name]
		if b := ss.InFlight; b != nil {
			return nil, fmt.Errorf("%s has batch %d in flight, whose ranges are fixed in the layout of %d shards: set shards = %d back, apply to finish it, then change shards", name, b.ID, r.From, r.From)
		}
		if r.Source.Identity == "" {
			r.Source = ss.Source
		} else if ss.Source.Identity != "" && ss.Source != r.Source {
			return nil, fmt.Errorf("%s reads %s, another stream than %s", name, ss.Source.Identity, r.Source.Identity)
		}
		for p, off := range ss.Offsets {
			r.Offsets[p] = max(r.Offsets[p], off)
		}
		r.NextBatch = max(r.NextBatch, ss.NextBatch)
		if ss.NextBatch > 0 {
			active++
		}
		for d, dest := range ss.Destinations {
			if dest.LastBatch != ss.NextBatch-1 && dest.From < ss.NextBatch {
				return nil, fmt.Errorf("destination %s of %s misses committed batches (it holds up to batch %d of %d): set shards = %d back and apply to repair it, then change shards", d, name, dest.LastBatch, ss.NextBatch-1, r.From)
			}
			held[d]++
		}
		if ss.LastCommit != nil && (r.LastCommit == nil || ss.LastCommit.After(*r.LastCommit)) {
			t := *ss.LastCommit
			r.LastCommit = &t
			r.Layout = ss.Layout // the latest committed batch's
		}
		if r.Layout == nil {
			r.Layout = ss.Layout
		}
	}
	for d, n := range held {
		if n >= active {
			r.Destinations = append(r.Destinations, d)
		}
	}
	sort.Strings(r.Destinations)
	return r, nil
}

// Shards derives the checkpoints of the new layout, by name: each holds the
// committed offsets of the partitions ShardOf gives it, and its batches
// start at NextBatch in every destination.
func (r *Reshard) Shards(sink string) map[string]*Sink {
	out := map[string]*Sink{}
	for k := range max(r.To, 1) {
		ss := NewSink(r.Source)
		if r.To > 1 {
			ss.Shard = &Shard{Sink: sink, Index: k, Count: r.To}
		}
		ss.NextBatch = r.NextBatch
		ss.Layout = r.Layout
		for _, d := range r.Destinations {
			ss.Destinations[d] = &Destination{LastBatch: r.NextBatch - 1, From: r.NextBatch}
		}
		if r.LastCommit != nil {
			t := *r.LastCommit
			ss.LastCommit = &t
		}
		out[CheckpointName(sink, k, r.To)] = ss
	}
	for p, off := range r.Offsets {
		out[CheckpointName(sink, ShardOf(p, r.To), r.To)].Offsets[p] = off
	}
	return out
}

// Move is a partition whose committed offset goes to another checkpoint.
type Move struct {
	Partition string `json:"partition"`
	From      string `json:"from"`
	To        string `json:"to"`
	Offset    int64  `json:"offset"`
}

// Moves lists the partitions the change moves, in partition order
// (numbers by value).
func (r *Reshard) Moves(sink string) []Move {
	var out []Move
	for p, off := range r.Offsets {
		from := CheckpointName(sink, ShardOf(p, r.From), r.From)
		to := CheckpointName(sink, ShardOf(p, r.To), r.To)
		if from != to {
			out = append(out, Move{Partition: p, From: from, To: to, Offset: off})
		}
	}
	slices.SortFunc(out, func(a, b Move) int {
		ai, aerr := strconv.ParseInt(a.Partition, 10, 64)
		bi, berr := strconv.ParseInt(b.Partition, 10, 64)
		if aerr == nil && berr == nil && ai != bi {
			if ai < bi {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Partition, b.Partition)
	})
	return out
}

// ApplyReshard replaces sink's checkpoints in s by the new layout's.
func (s *State) ApplyReshard(sink string, r *Reshard) {
	names, _ := s.Checkpoints(sink)
	for _, name := range names {
		delete(s.Sinks, name)
	}
	for name, ss := range r.Shards(sink) {
		s.Sinks[name] = ss
	}
}

func (r *Reshard) clone() *Reshard {
	if r == nil {
		return nil
	}
	c := *r
	c.Offsets = make(map[string]int64, len(r.Offsets))
	for p, o := range r.Offsets {
		c.Offsets[p] = o
	}
	c.Destinations = slices.Clone(r.Destinations)
	return &c
}
