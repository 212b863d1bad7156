package planner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/streamctl/streamctl/state"
)

// A destination may commit its batches to a table (an Iceberg table whose
// location is the destination) besides its manifests. Plan reads the table
// through its catalog without writing, and the planner compares it with
// the state and the destination's manifests:
//
//   - missing: apply creates it; refused when the state has committed
//     batches into it and its metadata is still there (a dropped table);
//   - schema: added nullable columns are changes apply makes; any other
//     difference is refused before anything is written;
//   - ahead: a snapshot of a batch the state has in flight, or has not
//     logged at all, is kept: the batch is finished (or adopted with the
//     snapshot's ranges) and never appended again;
//   - behind: the state has committed batches into the table that its
//     current snapshot lacks (rolled back or restored): refused, since
//     appending past them would leave them out for good;
//   - orphans: data files of batches the state never committed that no
//     manifest and no snapshot holds, and metadata files of failed commits.

// TableObservation is what a destination's table holds, read through its
// catalog without writing.
type TableObservation struct {
	// Name names the table for messages: "iceberg table lake.orders".
	Name string
	// Format is the table's format, TableIceberg when empty: it picks the
	// ways out that messages give.
	Format string
	Exists bool
	// Create says what creating the table makes: "4 columns, partitioned
	// by day(ts)".
	Create string
	// Changes are the schema changes apply makes: "add column note
	// (string, optional)". Problems are differences apply cannot make.
	Changes  []string
	Problems []string
	// Undeclared are optional table columns the sink no longer declares.
	Undeclared []string
	// Batches are the sink's batches in the current snapshot's ancestry,
	// oldest first; Detached the sink's snapshots outside it, newest first.
	Batches  []TableBatch
	Detached []TableBatch
	// NewestMetadata is, for a missing table, the newest metadata file left
	// in the destination (a dropped table's), as a URL; "" when none is.
	NewestMetadata string
	// Orphans are metadata files of failed commits, relative to the
	// destination.
	Orphans []string
	// Warnings are what reading the table passed over (a Delta checkpoint
	// that does not read), for plan to show.
	Warnings []string
}

// Table formats.
const (
	TableIceberg = "iceberg"
	TableDelta   = "delta"
)

// TableBatch is a batch a table's snapshot records (for a Delta table,
// Snapshot is the log's version).
type TableBatch struct {
	ID       int64
	Ranges   []state.Range
	Snapshot int64
}

func (o *TableObservation) records(id int64) bool {
	for _, list := range [][]TableBatch{o.Batches, o.Detached} {
		for _, b := range list {
			if b.ID == id {
				return true
			}
		}
	}
	return false
}

// TablePlan is what apply does to a destination's table besides appending
// the batches.
type TablePlan struct {
	Destination string `json:"destination"`
	// Table names it: "iceberg table lake.orders".
	Table string `json:"table"`
	// Create is set when apply creates the table: what it makes.
	Create string `json:"create,omitempty"`
	// Changes are the schema changes apply commits.
	Changes []string `json:"changes,omitempty"`
	// Holds are batches the table already records that the state has not
	// committed (in flight, or adopted): their snapshots are kept and the
	// batches are not appended again.
	Holds []int64 `json:"holds_batches,omitempty"`
	// Orphans are files apply removes from the destination.
	Orphans []OrphanFile `json:"orphans,omitempty"`
}

// changes reports whether apply changes the table (Holds change nothing).
func (t TablePlan) changes() bool {
	return t.Create != "" || len(t.Changes) > 0 || len(t.Orphans) > 0
}

// Orphan kinds.
const (
	OrphanData     = "data"     // a data file of a batch nothing commits
	OrphanMetadata = "metadata" // a metadata file of a failed table commit
)

// OrphanFile is a file apply removes: nothing references it, and no
// reader sees it but one that globs the folder.
type OrphanFile struct {
	Path string `json:"path"` // relative to the destination
	Kind string `json:"kind"` // OrphanData or OrphanMetadata
	// Batch is the batch a data file's name gives.
	Batch *int64 `json:"batch,omitempty"`
}

// What names the orphan for messages.
func (o OrphanFile) What(table string) string {
	if o.Kind == OrphanMetadata {
		return fmt.Sprintf("metadata file %s of %s (left by a failed commit)", o.Path, table)
	}
	return fmt.Sprintf("data file %s of batch %d (no manifest, no snapshot, not in flight)", o.Path, *o.Batch)
}

// tableAhead collects the batches tables record that the state has not
// committed. A batch in flight must have the same ranges in the table; one
// at or after the next batch joins ahead (the manifests' batches ahead of
// the state) with the table's ranges, and tableIn says which tables hold it.
func tableAhead(in SinkInput, st *state.Sink, ahead map[int64][]state.Range, tableIn map[int64][]string) error {
	for _, d := range in.Destinations {
		obs := in.Observed[d]
		if obs == nil || obs.Table == nil {
			continue
		}
		for _, b := range obs.Table.Batches {
			if len(b.Ranges) == 0 && (b.ID >= st.NextBatch || st.InFlight != nil && b.ID == st.InFlight.ID) {
				return &Error{Sink: in.Name, Summary: fmt.Sprintf("%s holds batch %d without its ranges", obs.Table.Name, b.ID),
					Detail: fmt.Sprintf("destination %q: snapshot %d records batch %d, which the state has not committed, and its summary's streamctl.ranges cannot be read, so the batch cannot be finished or adopted. Restore the state that wrote the table, or roll the table back to the snapshot before it.", d, b.Snapshot, b.ID)}
			}
			switch {
			case st.InFlight != nil && b.ID == st.InFlight.ID:
				if !sameRangeList(b.Ranges, st.InFlight.Ranges) {
					return &Error{Sink: in.Name, Summary: fmt.Sprintf("%s holds batch %d with other ranges than the state's", obs.Table.Name, b.ID),
						Detail: fmt.Sprintf("destination %q: snapshot %d of the table records batch %d with %s, and the state has it in flight with %s. The table was written under another state, or the state was restored from a copy of another run. Restore the state that wrote the table, or point the table block at another table.", d, b.Snapshot, b.ID, rangesText(b.Ranges), rangesText(st.InFlight.Ranges))}
				}
			case b.ID >= st.NextBatch:
				if prev, seen := ahead[b.ID]; seen && !sameRangeList(prev, b.Ranges) {
					return &Error{Sink: in.Name, Summary: "a table is ahead of the state",
						Detail: fmt.Sprintf("destination %q: %s records batch %d (snapshot %d) with %s, and another destination's manifest or table gives it %s: it cannot be adopted. Restore the state that wrote them.", d, obs.Table.Name, b.ID, b.Snapshot, rangesText(b.Ranges), rangesText(prev))}
				}
				ahead[b.ID] = b.Ranges
				tableIn[b.ID] = append(tableIn[b.ID], d)
			}
		}
	}
	return nil
}

// planTables fills p.Tables, once the batches are planned, and refuses a
// table apply cannot write into.
func planTables(in SinkInput, st *state.Sink, p *SinkPlan) error {
	kept := map[int64]bool{}
	if p.Resume != nil {
		kept[p.Resume.ID] = true
	}
	for _, b := range p.Adopt {
		kept[b.ID] = true
	}
	for _, d := range in.Destinations {
		obs := in.Observed[d]
		if obs == nil || obs.Table == nil {
			continue
		}
		t := obs.Table
		for _, w := range t.Warnings {
			p.Warnings = append(p.Warnings, fmt.Sprintf("destination %q: %s", d, w))
		}
		tp := TablePlan{Destination: d, Table: t.Name}
		ds := st.Destinations[d]
		last := int64(-1) // the last batch the state committed into d
		if ds != nil && ds.LastBatch >= ds.From {
			last = ds.LastBatch
		}
		switch {
		case !t.Exists && last >= 0 && t.NewestMetadata != "":
			return &Error{Sink: in.Name, Summary: fmt.Sprintf("%s is missing", t.Name),
				Detail: fmt.Sprintf("destination %q: the state has committed batches up to %d into it, the catalog has no such table, and its metadata is still in the destination (newest: %s): the table was dropped, or the table block now names another table. An empty table would leave those batches out of it for good, so nothing is written. Register the table again from that metadata file (Spark: CALL system.register_table; PyIceberg: catalog.register_table), or restore the previous name in the table block. To start the table over without those batches, move the destination's folders %s aside: plan then shows the table to create.", d, last, t.NewestMetadata, "metadata and _streamctl/iceberg")}
		case !t.Exists:
			tp.Create = t.Create
			if last >= 0 {
				p.Warnings = append(p.Warnings, fmt.Sprintf("destination %q holds batches up to %d committed before %s was declared: they are not in the table, whose readers see the records of the batches after them", d, last, t.Name))
			}
		case len(t.Problems) > 0:
			return &Error{Sink: in.Name, Summary: fmt.Sprintf("the declared columns do not fit %s", t.Name),
				Detail: fmt.Sprintf("destination %q: %s. Nothing was written. %s", d, strings.Join(t.Problems, "; "), problemsWayOut(t))}
		default:
			tp.Changes = t.Changes
			for _, c := range t.Undeclared {
				p.Warnings = append(p.Warnings, fmt.Sprintf("column %q of %s is no longer declared: the rows of new batches hold null in it", c, t.Name))
			}
			if err := tableBehind(in.Name, d, t, last); err != nil {
				return err
			}
		}
		for _, b := range t.Batches {
			if kept[b.ID] {
				tp.Holds = append(tp.Holds, b.ID)
			}
		}
		for _, f := range t.Orphans {
			tp.Orphans = append(tp.Orphans, OrphanFile{Path: f, Kind: OrphanMetadata})
		}
		if len(obs.ForeignSinks) == 0 {
			tp.Orphans = append(tp.Orphans, dataOrphans(st, obs)...)
		}
		if tp.changes() || len(tp.Holds) > 0 {
			p.Tables = append(p.Tables, tp)
		}
	}
	return nil
}

// tableBehind refuses a table whose current snapshot lacks batches the
// state committed into it (last): appending the next batch would leave
// them out of the table for good, and writing them again would be a
// second copy in every destination that has them.
func tableBehind(sink, d string, t *TableObservation, last int64) error {
	if last < 0 {
		return nil
	}
	top := int64(-1)
	if n := len(t.Batches); n > 0 {
		top = t.Batches[n-1].ID
	}
	if top >= last || top < 0 && len(t.Detached) == 0 {
		// Up to date, or a table declared on a destination with history
		// that has no batch yet (planTables warns about it).
		return nil
	}
	has := "no batch of the sink"
	if top >= 0 {
		has = fmt.Sprintf("batch %d last", top)
	}
	if t.Format == TableDelta {
		return &Error{Sink: sink, Summary: fmt.Sprintf("%s is behind the state", t.Name),
			Detail: fmt.Sprintf("destination %q: the state has committed batches up to %d into the table, and its log records %s: versions of the log were deleted, or the log was restored from an older copy. Appending batch %d on top would leave batches %d–%d out of the table for good, and writing them again would duplicate them in the destination's folder, so nothing is written. Put the log's deleted versions back (_delta_log/<version>.json, from a copy or the store's object versions). To go on without those batches in the table, start it over: move the destination's folder _delta_log aside; plan then shows a new table, which receives the batches after %d.", d, last, has, last+1, top+1, last, last)}
	}
	undo := "If the rollback was a mistake, make the snapshot of the last batch current again"
	for _, b := range t.Detached {
		if b.ID == last {
			undo = fmt.Sprintf("If the rollback was a mistake, make snapshot %d (batch %d) current again: it is still in the table's metadata (Spark: CALL system.set_current_snapshot)", b.Snapshot, b.ID)
			break
		}
	}
	return &Error{Sink: sink, Summary: fmt.Sprintf("%s is behind the state", t.Name),
		Detail: fmt.Sprintf("destination %q: the state has committed batches up to %d into the table, and its current snapshot records %s: it was rolled back, or restored from an older copy. Appending batch %d on top would leave batches %d–%d out of the table for good, and writing them again would duplicate them in the destination's folder, so nothing is written. %s, or restore the table from a copy that has them. To go on without those batches in the table, start it over: drop it and move the destination's folders metadata and _streamctl/iceberg aside; plan then shows a new table, which receives the batches after %d.", d, last, has, last+1, top+1, last, undo, last)}
}

// problemsWayOut says what to do about a table's incompatible changes.
func problemsWayOut(t *TableObservation) string {
	if t.Format == TableDelta {
		return "A Delta table takes only added nullable columns from the sink: restore the columns and partition_by the table was created with, or write the sink to another destination folder for the new layout."
	}
	return "An Iceberg table takes only added nullable columns from the sink: restore the columns and partition_by the table was created with, or name another table in the table block for the new layout."
}

// dataOrphans lists the data files a crashed attempt at a batch left: the
// batch is neither committed nor in flight in the state, and no manifest
// and no snapshot holds it. The engine observes only such batches' files
// (Observation.Uncommitted), under the lock at apply, so no other
// streamctl is writing them.
func dataOrphans(st *state.Sink, obs *Observation) []OrphanFile {
	ids := make([]int64, 0, len(obs.Uncommitted))
	for id := range obs.Uncommitted {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var out []OrphanFile
	for _, id := range ids {
		if id < st.NextBatch || st.InFlight != nil && id == st.InFlight.ID || obs.hasManifest(id) || obs.Table.records(id) {
			continue
		}
		files := append([]string(nil), obs.Uncommitted[id]...)
		sort.Strings(files)
		for _, f := range files {
			out = append(out, OrphanFile{Path: f, Kind: OrphanData, Batch: &id})
		}
	}
	return out
}
