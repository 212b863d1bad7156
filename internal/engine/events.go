package engine

import (
	"time"

	"github.com/streamctl/streamctl/state"
)

// Event is a step of an apply, for progress output.
type Event struct {
	Type        string // batch_start | destination_committed | batch_committed | cleanup | table_orphan | warning
	Sink        string
	Batch       int64
	Destination string
	Records     int64
	Rejected    int64
	Bytes       int64
	Files       int
	Ranges      []state.Range
	Resume      bool
	Repair      bool // a committed batch rewritten into destinations that miss it
	Elapsed     time.Duration
	Message     string // warning; table_orphan: what was removed
	Table       string // table_orphan: the table, e.g. "iceberg table lake.orders"
	Path        string // table_orphan: the file removed
	Kind        string // table_orphan: planner.OrphanData or planner.OrphanMetadata
}

func (e *Engine) emit(ev Event) {
	if e.OnEvent != nil {
		e.OnEvent(ev)
	}
}
