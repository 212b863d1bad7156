package providers

import (
	"context"
	"errors"
	"fmt"
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

	// Invalid, when set, is why the source could not turn the record into
	// JSON (a payload its schema does not decode): Value then holds the
	// bytes as read, and the sink's on_invalid decides, as for bad JSON.
	Invalid error
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

// Range is [Start, End) of one partition of a source: what a batch reads of
// it.
type Range struct {
	Partition  string
	Start, End int64
}

// RangeReader is the optional capability of a Source that reads the ranges of
// a batch ahead of their delivery. ReadRanges calls fn for the records of each
// range in turn, in the order given, exactly as Reads of them one after
// another would (the same records in the same order), while the following
// ranges are already being fetched, in bounded memory. It stops at the first
// error, fn's included, and returns it as a *RangeError naming the range
// being delivered; nothing it started outlives the call.
type RangeReader interface {
	ReadRanges(ctx context.Context, ranges []Range, fn func(*Record) error) error
}

// RangeError is an error of reading one range.
type RangeError struct {
	Range
	Err error
}

func (e *RangeError) Error() string {
	return fmt.Sprintf("read partition %s [%d, %d): %v", e.Partition, e.Start, e.End, e.Err)
}

func (e *RangeError) Unwrap() error { return e.Err }

// ReadRanges reads ranges with src's ReadRanges when it has one, else with a
// Read of each range in turn. Either way an error is a *RangeError naming the
// range it concerns.
func ReadRanges(ctx context.Context, src Source, ranges []Range, fn func(*Record) error) error {
	if rr, ok := src.(RangeReader); ok {
		return rr.ReadRanges(ctx, ranges, fn)
	}
	for _, r := range ranges {
		if err := src.Read(ctx, r.Partition, r.Start, r.End, fn); err != nil {
			return &RangeError{Range: r, Err: err}
		}
	}
	return nil
}

// OffsetCommitter is the optional capability of a source that can publish the
// committed offsets elsewhere (a Kafka consumer group), for monitoring. The
// state stays the truth; a failure is only reported.
type OffsetCommitter interface {
	CommitGroup(ctx context.Context, offsets map[string]int64) error
}
