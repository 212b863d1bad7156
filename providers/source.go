package providers

import (
	"context"
	"errors"
)

// ErrDataLoss marks a source that no longer holds offsets it is asked for: a file
// that shrank or vanished, a topic whose retention deleted them.
var ErrDataLoss = errors.New("data loss")

// PartitionSnapshot is one partition of a source at the moment it was observed:
// offsets [Earliest, Latest) are available.
type PartitionSnapshot struct {
	ID       string `json:"id"`
	Earliest int64  `json:"earliest"`
	Latest   int64  `json:"latest"`
}

// Snapshot is a source observed at one moment.
type Snapshot struct {
	// Identity names the stream, not its position: another topic or cluster gives
	// another identity, and committed offsets do not carry over to it.
	Identity   string              `json:"identity"`
	Partitions []PartitionSnapshot `json:"partitions"` // in the source's order
}

// Record is one source record. Its slices are only valid during the callback that
// received it: sources reuse their buffers.
type Record struct {
	Partition string
	Offset    int64
	Value     []byte // the record as JSON
	Key       []byte // nil when the source has no keys
	Timestamp int64  // milliseconds since the epoch; 0 when unknown
	Headers   []Header
}

// Header is one record header (Kafka headers).
type Header struct {
	Key   string
	Value []byte
}

// Source is a replayable input: reading [start, end) of a partition twice yields
// the same records in the same order.
type Source interface {
	// Snapshot lists the partitions with their earliest and latest offsets.
	Snapshot(ctx context.Context) (Snapshot, error)

	// Read calls fn for every record of partition in [start, end), in offset
	// order. Offsets may have gaps (compacted topics, transaction markers); Read
	// still stops only at end. It returns an error wrapping ErrDataLoss when the
	// source no longer holds part of the range.
	Read(ctx context.Context, partition string, start, end int64, fn func(*Record) error) error

	// Close releases connections.
	Close() error
}

// OffsetCommitter is the optional capability of a source that can publish the
// committed offsets elsewhere (a Kafka consumer group), for monitoring. The
// state stays the truth; a failure is only reported.
type OffsetCommitter interface {
	CommitGroup(ctx context.Context, offsets map[string]int64) error
}
