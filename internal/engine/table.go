package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// TableMetadataDir is where a destination's Iceberg table keeps its own
// metadata, relative to the destination (<location>/metadata): no data file
// of the sink's, and in no manifest.
const TableMetadataDir = "metadata"

// Table is a table format a destination commits its batches to, besides the
// manifests (an Iceberg table whose location is the destination). Its commit
// comes after the batch's files are in place and before the manifest, so
// that a destination with a manifest has its batch in the table too; a crash
// in between redoes the batch, and Committed keeps the retry from appending
// it twice.
type Table interface {
	// Describe names the table for messages, e.g. "iceberg table lake.orders".
	Describe() string
	// Catalog names the table's catalog for messages, without secrets, e.g.
	// "iceberg catalog postgres://db.example:5432/lake".
	Catalog() string
	// Connect reaches the catalog's server, if it has one, and changes
	// nothing: an apply checks it before it writes the state or a
	// destination. Its error says what to do.
	Connect(ctx context.Context) error
	// Open connects to the catalog, creates the table when missing and
	// refuses one whose schema or partitioning the sink cannot write: once
	// per apply, before any batch.
	Open(ctx context.Context) error
	// Committed reports whether a snapshot of the table records batch of sink.
	Committed(ctx context.Context, sink string, batch int64) (bool, error)
	// Append commits files (paths relative to the destination) as one
	// snapshot that records sink, batch and ranges. A lost answer is settled
	// by Committed on the retry.
	Append(ctx context.Context, sink string, batch int64, ranges []state.Range, files []FileEntry) error
}

// TableFolder is a Table whose own files are in the destination's folder,
// outside streamctl's: an Iceberg table's metadata, a Delta table's log.
// Verify leaves them to the table, as it leaves _streamctl to the manifests.
type TableFolder interface {
	// Folder is the folder of the table's files, relative to the
	// destination, e.g. "metadata" or "_delta_log".
	Folder() string
}

// TableFooters is a Table whose commits record statistics read from the
// data files' Parquet footers (a Delta table's add actions): staging keeps
// the footer of each Parquet file it writes for it, in FileEntry.Footer.
type TableFooters interface {
	Footers() bool
}

// TableWarner is a Table whose commits can go wrong in ways that leave the
// batch committed (a Delta checkpoint not written): the engine reports what
// TakeWarnings returns after each commit.
type TableWarner interface {
	TakeWarnings() []string
}

// TableInspector is a Table that plan can read. Inspect reads the table
// through its catalog and the destination's storage and writes nothing: it
// never creates the catalog, the namespace or the table, nor commits to it.
// sink is the name the table's snapshots record the sink's batches under.
type TableInspector interface {
	Inspect(ctx context.Context, sink string, store providers.Storage) (*planner.TableObservation, error)
}

// TableCompactor is a Table that a compaction of its destination commits
// to: one snapshot that replaces the data files old (paths relative to the
// destination) by the compaction's new files, and records the compaction,
// so that a retry after a lost answer or a crash finds it and commits
// nothing more. When a file of old is no longer live in the table
// (something else rewrote or removed it), it commits nothing and returns
// replaced false: the compaction is dropped. The replaced files stay in
// place for the table's snapshots that still reference them.
type TableCompactor interface {
	Compact(ctx context.Context, sink string, id int64, old, files []FileEntry) (replaced bool, err error)
}

// TableInspectorFrom is a TableInspector whose older history costs reads
// (a Delta log read from its last checkpoint): from is the sink's oldest
// batch plan needs listed, the state's batch in flight, else its next;
// the sink's last batch is listed whatever its number.
type TableInspectorFrom interface {
	InspectFrom(ctx context.Context, sink string, from int64, store providers.Storage) (*planner.TableObservation, error)
}

// TableHistory is a Table that says the last batch of a sink its current
// snapshot records (found is false when it records none).
type TableHistory interface {
	LastBatch(ctx context.Context, sink string) (batch int64, found bool, err error)
}

// observeTable reads d's table for plan, and lists the data files of the
// batches the state has neither committed nor in flight: the files a
// crashed attempt left that no manifest may list. Only a destination with a
// table is listed whole: its folder's readers and its table's must agree.
func observeTable(ctx context.Context, sink *Sink, d Destination, st *state.Sink, obs *planner.Observation) error {
	ti, ok := d.Table.(TableInspector)
	if !ok {
		return nil
	}
	var next int64
	inFlight := int64(-1)
	if st != nil {
		next = st.NextBatch
		if st.InFlight != nil {
			inFlight = st.InFlight.ID
		}
	}
	var t *planner.TableObservation
	var err error
	if tf, ok := d.Table.(TableInspectorFrom); ok {
		from := next
		if inFlight >= 0 {
			from = min(from, inFlight)
		}
		t, err = tf.InspectFrom(ctx, sink.storedName(), from, d.Storage)
	} else {
		t, err = ti.Inspect(ctx, sink.storedName(), d.Storage)
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", d.Table.Describe(), err)
	}
	obs.Table = t
	err = d.Storage.List(ctx, "", func(info providers.ObjectInfo) error {
		if strings.HasPrefix(info.Key, MetadataDir+"/") || strings.HasPrefix(info.Key, TemporaryDir+"/") {
			return nil
		}
		// Another shard's files number their batches on their own.
		shard, n, ok := pipeline.FileBatch(info.Key)
		if !ok || shard != sink.fileShard() || n < next || n == inFlight {
			return nil
		}
		if obs.Uncommitted == nil {
			obs.Uncommitted = map[int64][]string{}
		}
		obs.Uncommitted[n] = append(obs.Uncommitted[n], info.Key)
		return nil
	})
	if err != nil {
		return fmt.Errorf("list the data files: %w", err)
	}
	return nil
}

// checkTables refuses, before any batch, a table whose current snapshot
// lacks batches the state committed into it (rolled back since the plan
// was made): the next append would leave them out of the table for good.
func (e *Engine) checkTables(ctx context.Context, sink *Sink) error {
	ss := e.State.State().Sinks[sink.Name]
	if ss == nil {
		return nil
	}
	for _, d := range sink.Destinations {
		th, ok := d.Table.(TableHistory)
		ds := ss.Destinations[d.Name]
		if !ok || ds == nil || ds.LastBatch < ds.From {
			continue
		}
		last, found, err := th.LastBatch(ctx, sink.Name)
		if err != nil {
			return fmt.Errorf("read %s of destination %s: %w", d.Table.Describe(), d.Name, err)
		}
		// A table with no batch of the sink was declared on a destination
		// with history: plan said so, and it starts with the next batch.
		if found && last < ds.LastBatch {
			return fmt.Errorf("%s of destination %s is behind the state: the state has committed batches up to %d into it, and its current snapshot records batch %d last (rolled back since the plan?); nothing was written. Run streamctl plan for the ways out", d.Table.Describe(), d.Name, ds.LastBatch, last)
		}
	}
	return nil
}

// removeOrphans removes the files the plan found orphaned in the
// destinations' tables: data files of batches nothing commits and metadata
// files of failed table commits. A file already gone is fine.
func (e *Engine) removeOrphans(ctx context.Context, sink *Sink, tables []planner.TablePlan) error {
	for _, tp := range tables {
		d := sink.destination(tp.Destination)
		if d == nil {
			continue
		}
		for _, o := range tp.Orphans {
			if err := d.Storage.Delete(ctx, o.Path); err != nil && !errors.Is(err, providers.ErrNotExist) {
				return fmt.Errorf("remove orphan %s in %s: %w", o.What(tp.Table), d.Name, err)
			}
			ev := TableOrphanRemoved{Sink: sink.Name, Destination: d.Name, What: o.What(tp.Table), Table: tp.Table, Path: o.Path, Kind: o.Kind}
			if o.Batch != nil {
				ev.Batch = *o.Batch
			}
			e.emit(ev)
		}
	}
	return nil
}
