package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
)

// An expiry removes the old snapshots of a destination's table in two
// steps (website/content/protocol.md#table-expiry): the table commits the
// snapshots' removal, which changes its metadata only; then the files that
// no remaining snapshot references are deleted. The second step is worked
// out again from the table and the destination on every apply with expiry
// configured, so a crash between the two, or among the deletions, leaves
// files that the next apply deletes.

// TableExpiry is what an expiry of a table's snapshots removes.
type TableExpiry struct {
	Snapshots      int
	Oldest, Newest time.Time // commit times of the snapshots removed
}

// TableReferences is what a table's snapshots reference. Paths are relative
// to the destination.
type TableReferences interface {
	// Data reports whether a snapshot holds the data file at path as live.
	Data(path string) bool
	// Unreferenced reports whether path is a metadata file of the table's
	// own shape (a manifest list, a manifest) that no snapshot references:
	// what an expiry leaves. Any other file is never unreferenced.
	Unreferenced(path string) bool
}

// TableExpirer is a Table whose old snapshots apply expires.
type TableExpirer interface {
	// PlanExpiry reads the table without writing anything: what
	// Expire(ctx, cutoff) would remove, and what the snapshots would
	// reference after it (nil for a table that does not exist).
	PlanExpiry(ctx context.Context, cutoff time.Time) (TableExpiry, TableReferences, error)
	// Expire commits the removal of the snapshots committed before
	// cutoff, keeping the current one and the newest of each sink and of
	// its compactions, which recognise a retried batch or compaction. It
	// commits nothing when no snapshot is to go, and deletes no file.
	Expire(ctx context.Context, cutoff time.Time) (TableExpiry, error)
	// References reads what the table's snapshots reference now.
	References(ctx context.Context) (TableReferences, error)
}

// PlanExpiries lists the expiries of sink's destinations' tables that apply
// makes after the compactions: every table that has snapshots committed
// before now-after to expire, or files only expired snapshots referenced
// left to delete. after 0: none.
func PlanExpiries(ctx context.Context, sink *Sink, after time.Duration, now time.Time) ([]planner.Expiry, error) {
	if after <= 0 {
		return nil, nil
	}
	cutoff := now.Add(-after).UTC()
	var out []planner.Expiry
	for _, d := range sink.Destinations {
		te, ok := d.Table.(TableExpirer)
		if !ok {
			continue
		}
		ex, refs, err := te.PlanExpiry(ctx, cutoff)
		if err != nil {
			return nil, fmt.Errorf("plan the expiry of %s of destination %s: %w", d.Table.Describe(), d.Name, err)
		}
		if refs == nil {
			continue // no table yet
		}
		garbage, err := expiryGarbage(ctx, sink, d, refs, cutoff)
		if err != nil {
			return nil, fmt.Errorf("plan the expiry of %s of destination %s: %w", d.Table.Describe(), d.Name, err)
		}
		if ex.Snapshots == 0 && len(garbage) == 0 {
			continue
		}
		out = append(out, planner.Expiry{Destination: d.Name, Table: d.Table.Describe(), OlderThan: cutoff,
			Snapshots: ex.Snapshots, Oldest: ex.Oldest, Newest: ex.Newest, Files: len(garbage)})
	}
	return out, nil
}

// expiryGarbage lists the files of destination d that refs no longer
// references and that only an expiry can have let go: the data files that
// the sink's compactions replaced (the sink's own, listed in its
// manifests), and the table's manifests and manifest lists written before
// cutoff (a commit still in progress wrote its own since). Data files come
// first: the order deletions are made in.
func expiryGarbage(ctx context.Context, sink *Sink, d Destination, refs TableReferences, cutoff time.Time) ([]string, error) {
	existing := map[string]time.Time{}
	err := d.Storage.List(ctx, "", func(info providers.ObjectInfo) error {
		existing[info.Key] = info.ModTime
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list the files: %w", err)
	}
	compactions, err := readCompactions(ctx, d.Storage, sink.storedName())
	if err != nil {
		return nil, fmt.Errorf("read the compactions: %w", err)
	}
	var data, meta []string
	seen := map[string]bool{}
	for _, c := range compactions {
		files, err := replacedFiles(ctx, d.Storage, sink.storedName(), c.Replaces)
		if err != nil {
			return nil, fmt.Errorf("compaction %d: %w", c.Compaction, err)
		}
		for _, f := range files {
			if _, ok := existing[f.Path]; ok && isDataFile(f.Path) && !seen[f.Path] && !refs.Data(f.Path) {
				seen[f.Path] = true
				data = append(data, f.Path)
			}
		}
	}
	for key, mod := range existing {
		if mod.Before(cutoff) && refs.Unreferenced(key) {
			meta = append(meta, key)
		}
	}
	slices.Sort(data)
	slices.Sort(meta)
	return append(data, meta...), nil
}

// runExpiries runs the plan's expiries, after the compactions.
func (e *Engine) runExpiries(ctx context.Context, sink *Sink, plan *planner.SinkPlan) error {
	for _, pe := range plan.Expiries {
		d := sink.destination(pe.Destination)
		if d == nil {
			return fmt.Errorf("expiry: the sink has no destination %s", pe.Destination)
		}
		te, ok := d.Table.(TableExpirer)
		if !ok {
			return fmt.Errorf("expiry: destination %s has no table whose snapshots expire", pe.Destination)
		}
		ev, err := e.expire(ctx, sink, d, te, pe.OlderThan)
		if err != nil {
			return fmt.Errorf("expire the snapshots of %s of destination %s: %w", d.Table.Describe(), d.Name, err)
		}
		e.emit(ev)
	}
	return nil
}

// expire commits the expiry of d's table, then deletes the files no
// remaining snapshot references.
func (e *Engine) expire(ctx context.Context, sink *Sink, d *Destination, te TableExpirer, cutoff time.Time) (Expired, error) {
	ev := Expired{Sink: sink.Name, Destination: d.Name, Table: d.Table.Describe()}
	if err := e.fence(sink.Name); err != nil {
		return ev, err
	}
	fault.Point("before-expiry-commit")
	ex, err := te.Expire(ctx, cutoff)
	if err != nil {
		return ev, err
	}
	ev.Snapshots = ex.Snapshots
	fault.Point("after-expiry-commit")
	refs, err := te.References(ctx)
	if err != nil {
		return ev, err
	}
	garbage, err := expiryGarbage(ctx, sink, *d, refs, cutoff)
	if err != nil {
		return ev, err
	}
	for i, p := range garbage {
		if err := e.fence(sink.Name); err != nil {
			return ev, err
		}
		if i == 1 {
			fault.Point("during-expiry-deletes")
		}
		if err := d.Storage.Delete(ctx, p); err != nil && !errors.Is(err, providers.ErrNotExist) {
			return ev, fmt.Errorf("delete %s, which no snapshot references any more: %w; the next apply deletes it", p, err)
		}
		ev.Files++
	}
	return ev, nil
}
