package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/delta"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/partition"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// deltaTable is a destination's Delta Lake table, for the engine: its log
// is the destination's _delta_log folder, written through the
// destination's storage; there is no catalog to connect to.
type deltaTable struct {
	log     *delta.Log
	where   string
	columns int
	parts   []string

	mu       sync.Mutex
	warnings []string // checkpoints not written
}

var (
	_ engine.Table              = (*deltaTable)(nil)
	_ engine.TableHistory       = (*deltaTable)(nil)
	_ engine.TableReader        = (*deltaTable)(nil)
	_ engine.TableFolder        = (*deltaTable)(nil)
	_ engine.TableInspector     = (*deltaTable)(nil)
	_ engine.TableInspectorFrom = (*deltaTable)(nil)
	_ engine.TableFooters       = (*deltaTable)(nil)
	_ engine.TableWarner        = (*deltaTable)(nil)
)

// newDeltaTable describes the Delta table of sink s in store; it reads
// nothing. Config has refused partition transforms: each partition_by is a
// column.
func newDeltaTable(s *config.Sink, checkpointInterval int64, store providers.Storage) (*deltaTable, error) {
	var cols []string
	for _, expr := range s.PartitionBy {
		f, err := partition.Parse(expr)
		if err != nil {
			return nil, err
		}
		if f.Transform != partition.Identity {
			return nil, fmt.Errorf("partition_by %q: a Delta table is partitioned by columns, not by a %s transform", expr, f.Transform)
		}
		cols = append(cols, f.Source)
	}
	t := &deltaTable{where: store.Describe(), columns: len(s.Columns), parts: cols}
	t.log = delta.New(store, delta.Config{Columns: s.Columns, PartitionBy: cols, CheckpointInterval: checkpointInterval,
		CheckpointFailed: func(err error) {
			t.mu.Lock()
			defer t.mu.Unlock()
			// Called with the log locked: nothing here may call the log.
			t.warnings = append(t.warnings, fmt.Sprintf("%v; the batch is committed, and readers replay the log's versions since the previous checkpoint instead, until the next one", err))
		},
		Warn: func(msg string) {
			t.mu.Lock()
			defer t.mu.Unlock()
			t.warnings = append(t.warnings, msg)
		}})
	return t, nil
}

func (t *deltaTable) Describe() string { return "Delta table " + t.where }

func (t *deltaTable) Catalog() string { return "Delta log " + t.where + "/" + delta.LogDir }

// Connect has nothing to reach: the log is in the destination, which the
// apply checks on its own.
func (t *deltaTable) Connect(context.Context) error { return nil }

func (t *deltaTable) Open(ctx context.Context) error { return t.log.Open(ctx) }

func (t *deltaTable) Committed(ctx context.Context, sink string, batch int64) (bool, error) {
	return t.log.Committed(ctx, sink, batch)
}

func (t *deltaTable) Append(ctx context.Context, sink string, batch int64, ranges []state.Range, files []engine.FileEntry) error {
	r, err := json.Marshal(ranges)
	if err != nil {
		return err
	}
	data := make([]delta.File, len(files))
	for i, f := range files {
		data[i] = delta.File{Key: f.Path, Size: f.Size, Records: f.Records, Footer: f.Footer}
	}
	return t.log.Append(ctx, sink, batch, r, data)
}

// TakeWarnings implements engine.TableWarner: the checkpoints that could
// not be written or read since the last call.
func (t *deltaTable) TakeWarnings() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	w := t.warnings
	t.warnings = nil
	return w
}

// Footers implements engine.TableFooters: the add actions' statistics come
// from the files' Parquet footers.
func (t *deltaTable) Footers() bool { return true }

// LastBatch implements engine.TableHistory: the sink's latest txn.
func (t *deltaTable) LastBatch(ctx context.Context, sink string) (int64, bool, error) {
	return t.log.LastTxn(ctx, sink)
}

// Files implements engine.TableReader: the current version's data files.
func (t *deltaTable) Files(ctx context.Context) ([]string, error) { return t.log.Files(ctx) }

// Folder implements engine.TableFolder: the log is the table's.
func (t *deltaTable) Folder() string { return delta.LogDir }

// setStorage makes the log go through the destination's wrapped storage.
func (t *deltaTable) setStorage(s providers.Storage) { t.log.SetStorage(s) }

// Close has nothing to close.
func (t *deltaTable) Close() {}

// Inspect implements engine.TableInspector: the log as plan shows it, read
// without writing. A Delta commit is one create-only write, so a failed one
// leaves no file behind: the table has no orphans of its own, only the data
// files of crashed batches, which plan finds in the destination's folder.
// store is the destination's storage, which the log reads already.
func (t *deltaTable) Inspect(ctx context.Context, sink string, store providers.Storage) (*planner.TableObservation, error) {
	return t.InspectFrom(ctx, sink, 0, store)
}

// InspectFrom implements engine.TableInspectorFrom: the log is read from
// its last checkpoint, and back from it only as far as the sink's batches
// from batch from on.
func (t *deltaTable) InspectFrom(ctx context.Context, sink string, from int64, _ providers.Storage) (*planner.TableObservation, error) {
	in, err := t.log.Inspect(ctx, sink, from)
	if err != nil {
		return nil, err
	}
	o := &planner.TableObservation{Name: t.Describe(), Format: planner.TableDelta, Exists: in.Exists, Changes: in.Changes, Problems: in.Problems,
		Warnings: t.TakeWarnings()}
	if !in.Exists {
		o.Create = createText(t.columns, t.parts)
		return o, nil
	}
	for _, b := range in.Batches {
		tb := planner.TableBatch{ID: b.Batch, Snapshot: b.Version}
		var r []state.Range
		if json.Unmarshal(b.Ranges, &r) == nil {
			tb.Ranges = r
		}
		o.Batches = append(o.Batches, tb)
	}
	return o, nil
}
