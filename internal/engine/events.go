package engine

import (
	"time"

	"github.com/streamctl/streamctl/state"
)

// Event is a step of an apply, for progress output: one of the types of
// this file, which alone can implement it. A view switches on the type;
// AllEvents holds one of each, so that a test can check that every view
// renders every event.
type Event interface {
	// SinkName is the sink, or shard, the event is about.
	SinkName() string
	isEvent()
}

// BatchStarted: a batch starts through the protocol.
type BatchStarted struct {
	Sink    string
	Batch   int64
	Records int64
	Ranges  []state.Range
	Resume  bool // the batch was in flight, adopted or repaired: not new
	Repair  bool // a committed batch rewritten into destinations that miss it
}

// DestinationCommitted: a destination wrote the batch's manifest, its
// commit point.
type DestinationCommitted struct {
	Sink        string
	Batch       int64
	Destination string
	Records     int64
	Rejected    int64
	Bytes       int64
	Files       int
}

// BatchCommitted: the state committed the batch.
type BatchCommitted struct {
	Sink    string
	Batch   int64
	Records int64
	Elapsed time.Duration
	Resume  bool
}

// BatchRepaired: a committed batch was rewritten into the destinations that
// missed it, and the state records them.
type BatchRepaired struct {
	Sink    string
	Batch   int64
	Records int64
	Elapsed time.Duration
}

// Cleanup: what an attempt at a batch left staged in a destination was
// removed.
type Cleanup struct {
	Sink          string
	Batch         int64
	Destination   string
	StagedUploads int // staged uploads discarded besides _temporary/<N>/
	// Manifests is set, instead of Batch, when the manifests an interrupted
	// move left under _streamctl/<Manifests>/ were removed.
	Manifests string
}

// TableOrphanRemoved: a file of a destination's table that nothing
// references was removed.
type TableOrphanRemoved struct {
	Sink        string
	Destination string
	What        string // what was removed, for people
	Table       string // e.g. "iceberg table lake.orders"
	Path        string // relative to the destination
	Kind        string // planner.OrphanData or planner.OrphanMetadata
	Batch       int64  // OrphanData: the batch the file's name gives
}

// Warning: something went wrong that does not fail the batch.
type Warning struct {
	Sink        string
	Batch       int64
	Destination string
	Message     string
}

// Resharded: the sink's checkpoints were split into another number of
// shards.
type Resharded struct {
	Sink     string
	From, To int
}

// Moved: a sink was renamed (a moved block, or state mv): its checkpoint,
// manifests and destinations' ownership now go by its new name.
type Moved struct {
	Sink string // the new name
	From string
}

// Compacted: a compaction of a destination is committed and the files it
// replaced are deleted (a table's are kept for its older snapshots); or,
// with Dropped, the destination's table refused it and nothing was
// committed.
type Compacted struct {
	Sink        string
	Destination string
	Compaction  int64
	Replaced    int   // manifests whose files it replaced
	Files       int   // new data files
	Bytes       int64 // of the new data files
	// Dropped says why the compaction was given up, with nothing
	// committed; "" when it was committed.
	Dropped string
}

// Expired: the old snapshots of a destination's table are expired, and the
// files only they referenced deleted.
type Expired struct {
	Sink        string
	Destination string
	Table       string
	Snapshots   int // expired by this apply
	Files       int // deleted, of this expiry and of earlier ones
}

// AllEvents holds one event of each type, for tests of the views. A test of
// this package checks it against the types that implement Event.
func AllEvents() []Event {
	return []Event{BatchStarted{}, DestinationCommitted{}, BatchCommitted{}, BatchRepaired{},
		Cleanup{}, TableOrphanRemoved{}, Warning{}, Resharded{}, Moved{}, Compacted{}, Expired{}}
}

func (e BatchStarted) SinkName() string         { return e.Sink }
func (e DestinationCommitted) SinkName() string { return e.Sink }
func (e BatchCommitted) SinkName() string       { return e.Sink }
func (e BatchRepaired) SinkName() string        { return e.Sink }
func (e Cleanup) SinkName() string              { return e.Sink }
func (e TableOrphanRemoved) SinkName() string   { return e.Sink }
func (e Warning) SinkName() string              { return e.Sink }
func (e Resharded) SinkName() string            { return e.Sink }
func (e Moved) SinkName() string                { return e.Sink }
func (e Compacted) SinkName() string            { return e.Sink }
func (e Expired) SinkName() string              { return e.Sink }

func (BatchStarted) isEvent()         {}
func (DestinationCommitted) isEvent() {}
func (BatchCommitted) isEvent()       {}
func (BatchRepaired) isEvent()        {}
func (Cleanup) isEvent()              {}
func (TableOrphanRemoved) isEvent()   {}
func (Warning) isEvent()              {}
func (Resharded) isEvent()            {}
func (Moved) isEvent()                {}
func (Compacted) isEvent()            {}
func (Expired) isEvent()              {}

func (e *Engine) emit(ev Event) {
	if e.OnEvent != nil {
		e.OnEvent(ev)
	}
}
