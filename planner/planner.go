// Package planner computes what apply would do: plan = f(configuration, state,
// source snapshots, destination observations). It is a pure function: it reads
// nothing and writes nothing, so every case is a table test.
package planner

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// SinkInput is everything the planner needs to know about one sink.
type SinkInput struct {
	Name string
	// Shard is set on a shard of a sharded sink: Snapshot holds only its
	// partitions, and the destinations belong to the sharded sink.
	Shard      *Shard
	SourceType string
	SourceName string
	MaxRecords int64
	OnDataLoss string // "fail" | "skip"
	// StartAtLatest starts a sink that has no state at the source's latest
	// offsets (Kafka's starting_offsets = "latest"). Partitions found later
	// start at their earliest offset, as in Spark.
	StartAtLatest bool
	// RouteBy is the sink's route_by: records are split across destinations
	// by it, and a new destination then gets no backfill.
	RouteBy string
	// NoBackfill lists destinations with backfill = false: when new, they start
	// at the current head.
	NoBackfill map[string]bool
	// Destinations are the configured destination names, in config order.
	Destinations []string
	// Layout is a hash of the output settings; see state.Batch.Layout.
	Layout string
	// LayoutSettings are those settings by attribute name
	// (pipeline.Layout.Settings), to show what a layout change changes.
	LayoutSettings map[string]string
	// Columns are the sink's declared columns, shown by the plan of its
	// first batches.
	Columns []Column
	// Lineage is the state's lineage: its destinations must be owned by it.
	Lineage string
	// MovedFrom is the sink's former name when a moved block renames it and
	// the state still holds the checkpoint under that name; State and
	// Observed are then the former sink's.
	MovedFrom string
	// UndoMove is the name a move killed before its state commit switched
	// the sink's destinations to (their owner records name it, the state
	// still holds the checkpoint under Name): apply switches them back.
	UndoMove string
	// MaxBatches limits the new batches planned (plan and apply -max-batches);
	// 0 plans them all.
	MaxBatches int64
	// ResumeOnly, when set, says why only the batch in flight is planned
	// (its columns are older than those the pending records need, see
	// workspace.resolveSchema): the plan warns with it, and the next plan
	// cuts the pending records.
	ResumeOnly string
	// Renamed maps partition names an older streamctl gave, found in State,
	// to the names the source gives the same partitions now (see
	// providers/files): their committed offsets carry over.
	Renamed map[string]string
	// Replace are committed batches to write again from the source into
	// every destination that wrote them (-replace).
	Replace []int64
	// State is the sink's checkpoint; nil when it has none yet.
	State    *state.Sink
	Snapshot providers.Snapshot
	// Observed holds what each destination holds; nil when not observed
	// (-refresh=false), and then no cleanup is planned.
	Observed map[string]*Observation
	// Provisional is set when State was read without the sink's lock (the
	// first plan of workers sharing a state): another process may be
	// writing a batch the state read does not show, so files at the names
	// of the next batches are not refused; the plan made once the sink is
	// claimed checks them.
	Provisional bool
}

// Observation is what one destination holds for a sink.
type Observation struct {
	Manifests   []int64 // batches with a manifest, in ascending order
	Temporaries []int64 // batches with a _temporary/<N> folder, or staged uploads
	// StagedUploads counts, per batch, the uploads staged on final keys and
	// never published (S3 multipart uploads) that a crashed run left.
	StagedUploads map[int64]int
	// Ahead holds the ranges of manifests at or after the state's next batch,
	// read so that the planner can check whether they can be adopted.
	Ahead map[int64][]state.Range
	// AheadSource holds the source identity those manifests were written from.
	AheadSource map[int64]string
	// AheadLineage holds the lineage of the state that committed them; ""
	// for manifests written before it was recorded.
	AheadLineage map[int64]string
	// Location is where the destination is, for messages.
	Location string
	// Owner is the destination's owner record; nil when it has none.
	Owner *Owner
	// ForeignSinks are other sinks whose manifests a destination without an
	// owner record holds (written before owner records existed).
	ForeignSinks []string
	// MoveLeftovers are, in a destination the sink owns, the other sink
	// names whose folders under _streamctl/ hold nothing but copies of this
	// sink's manifests and indexes: what an interrupted move left (see
	// Cleanup.Manifests). The caller drops the names it knows for sinks.
	MoveLeftovers []string
	// Table is the destination's table, read through its catalog; nil for a
	// destination without one.
	Table *TableObservation
	// Uncommitted are, for a destination with a table, the data files of
	// batches the state has neither committed nor in flight, by batch.
	Uncommitted map[int64][]string
	// Foreign are, for a destination without a table, the files at the
	// names of batches the state has neither committed nor in flight, by
	// batch (see checkForeign).
	Foreign map[int64][]string
}

// hasManifest reports whether the destination holds batch id's manifest.
// Manifests are sorted (Observe sorts them), so this is a binary search: a
// sink may have a million.
func (o *Observation) hasManifest(id int64) bool {
	if o == nil {
		return false
	}
	_, found := slices.BinarySearch(o.Manifests, id)
	return found
}

// SinkPlan is what apply will do for one sink.
type SinkPlan struct {
	Name string `json:"name"`
	// Shard is set on a shard of a sharded sink.
	Shard    *Shard             `json:"shard,omitempty"`
	Snapshot providers.Snapshot `json:"source"`
	// MovedFrom is the sink's former name (a moved block): apply first moves
	// its checkpoint, manifests and ownership to Name.
	MovedFrom string `json:"moved_from,omitempty"`
	// UndoMove is the name an interrupted move switched the destinations'
	// owner records to: apply first removes the manifests it copied there
	// and gives the destinations back to Name.
	UndoMove string `json:"undo_move,omitempty"`
	// Start are the offsets a new sink starts from when it skips what the source
	// already holds (StartAtLatest); apply records them before any batch.
	Start []state.Range `json:"start,omitempty"`
	// Resume is the in-flight batch to finish, or nil.
	Resume *Batch `json:"resume,omitempty"`
	// Adopt are batches whose manifests some destinations hold although the
	// state never logged them; each is logged, then finished like a resume.
	Adopt []Batch `json:"adopt,omitempty"`
	// Takeovers are destinations without an owner record whose adopted
	// batches another state committed: adopting them takes the destination
	// over from that state.
	Takeovers []Takeover `json:"takeovers,omitempty"`
	// Repairs are committed batches rewritten into destinations that miss them
	// (drift) or never had them (backfill of a new destination).
	Repairs []Batch `json:"repairs,omitempty"`
	// Removed are destinations no longer configured; their checkpoint is dropped.
	Removed []string `json:"removed,omitempty"`
	// New are the new batches, cut lazily from the pending ranges.
	New Pending `json:"new"`
	// Cleanups are orphan temporaries to remove, and the folders of
	// manifests an interrupted move left.
	Cleanups []Cleanup `json:"cleanups,omitempty"`
	// Compactions are what apply compacts after the sink's batches: the
	// compaction a run that died left in flight, and those the sink's
	// maintenance block makes due.
	Compactions []Compaction `json:"compactions,omitempty"`
	// Expiries are the expiries of destinations' Iceberg tables apply
	// makes after the compactions (the maintenance block's
	// expire_snapshots_after).
	Expiries []Expiry `json:"expiries,omitempty"`
	// Tables are what apply does to destinations' tables besides appending.
	Tables []TablePlan `json:"tables,omitempty"`
	// Renamed are the partitions whose committed offsets apply records
	// under the name the source now gives them.
	Renamed []PartitionRename `json:"renamed_partitions,omitempty"`
	// Skipped are ranges lost from the source and skipped (on_data_loss = "skip").
	Skipped  []state.Range `json:"skipped,omitempty"`
	Warnings []string      `json:"warnings,omitempty"`
	// RouteBy is the field records are routed by, or "" when every destination
	// gets every record.
	RouteBy string `json:"route_by,omitempty"`
	// Layout is the hash of the output settings new batches are written
	// with: a saved plan is applied with these settings only.
	Layout string `json:"layout,omitempty"`
	// LayoutChange is set when they differ from those of the sink's latest
	// batches.
	LayoutChange *LayoutChange `json:"layout_change,omitempty"`
	// Columns are the columns the sink's first batches are written with,
	// set when the sink has written none yet (later, a layout change shows
	// the columns that change).
	Columns []Column `json:"columns,omitempty"`
}

// Column is a declared column as the plan shows it: its type in the
// configuration's canonical spelling (decimal(10,2), list<string>).
type Column struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Nullable bool   `json:"nullable"`
}

// Changes reports whether applying the plan would do anything.
func (p *SinkPlan) Changes() bool {
	return p.Resume != nil || p.New.Batches > 0 || len(p.Cleanups) > 0 || len(p.Start) > 0 || p.MovedFrom != "" || p.UndoMove != "" ||
		len(p.Adopt) > 0 || len(p.Takeovers) > 0 || len(p.Repairs) > 0 || len(p.Removed) > 0 || len(p.Compactions) > 0 || len(p.Expiries) > 0 || p.tablesChange() || p.LayoutChange != nil || len(p.Renamed) > 0
}

func (p *SinkPlan) tablesChange() bool {
	for _, t := range p.Tables {
		if t.changes() {
			return true
		}
	}
	return false
}

// Batch is a batch with fixed ranges.
type Batch struct {
	ID     int64         `json:"id"`
	Ranges []state.Range `json:"ranges"`
	// Records is the number of offsets the ranges span.
	Records int64 `json:"records"`
	// Destinations are all the batch's destinations: routing is over these.
	Destinations []string `json:"destinations"`
	// Pending are the destinations that still have to write it.
	Pending []string `json:"pending"`
	// Replace is set on a repair that -replace asked for: the batch is
	// written again where its manifest is intact too, into the files it
	// lists.
	Replace bool `json:"replace,omitempty"`
}

// Compaction is a compaction of a destination: the files of the
// manifests Replaces rewritten into files of TargetSize, folder by folder
// (the protocol's compaction section).
type Compaction struct {
	Destination string `json:"destination"`
	// ID numbers the destination's compactions: its manifest is
	// _streamctl/<sink>/compaction-<ID>.json and its files are named
	// compact-<ID>-<seq>.
	ID int64 `json:"id"`
	// Replaces names the manifests whose files are rewritten ("7.json",
	// "compaction-2.json").
	Replaces   []string `json:"replaces"`
	TargetSize int64    `json:"target_size"`
	// Layout is the hash of the output settings of the files.
	Layout string `json:"layout,omitempty"`
	// Resume is set on the compaction a run that died left in flight.
	Resume bool `json:"resume,omitempty"`
	// Table names the destination's table, which commits the compaction
	// as one replace snapshot and keeps the replaced files for its older
	// snapshots; "" for a folder destination.
	Table   string             `json:"table,omitempty"`
	Folders []CompactionFolder `json:"folders"`
}

// Expiry is the expiry of a destination's table's old snapshots: those
// committed before OlderThan, but the current one and the newest of the
// sink and of its compactions; then the deletion of the files only expired
// snapshots referenced.
type Expiry struct {
	Destination string `json:"destination"`
	// Table names it: "iceberg table lake.orders".
	Table     string    `json:"table"`
	OlderThan time.Time `json:"older_than"`
	// Snapshots is how many snapshots are expired, Oldest and Newest
	// their commit times (zero when none is).
	Snapshots int       `json:"snapshots"`
	Oldest    time.Time `json:"oldest,omitzero"`
	Newest    time.Time `json:"newest,omitzero"`
	// Files is how many files apply deletes after the commit: data files
	// a compaction replaced, manifests and manifest lists, that no
	// remaining snapshot references (also those an earlier expiry left).
	Files int `json:"files"`
}

// CompactionFolder is what a compaction rewrites in one partition folder.
type CompactionFolder struct {
	Folder string `json:"folder"`
	// Files are the data files rewritten, in the order their rows are.
	Files []string `json:"files"`
	Bytes int64    `json:"bytes"`
	// Into is the first of the new files; Estimate how many there will
	// be, from the bytes (a Parquet file is encoded again, so only about).
	Into     string `json:"into"`
	Estimate int64  `json:"estimated_files"`
}

// Cleanup is an orphan _temporary/<Batch> in a destination, or the uploads
// of Batch's files staged there and never published, or (Manifests set) the
// manifests an interrupted move left under another sink's name.
type Cleanup struct {
	Destination string `json:"destination"`
	Batch       int64  `json:"batch"`
	// StagedUploads is the number of those uploads; 0 for a _temporary folder.
	StagedUploads int `json:"staged_uploads,omitempty"`
	// Manifests is the sink name whose folder _streamctl/<Manifests>/ holds
	// only copies of this sink's manifests, left by a move between the two
	// that was killed: before its state commit and then reverted (copies
	// under the new name), or after it (the originals under the old name).
	Manifests string `json:"manifests,omitempty"`
}

// What names what the cleanup removes, for messages.
func (c Cleanup) What() string {
	if c.Manifests != "" {
		return fmt.Sprintf("manifests under _streamctl/%s/ (copies left by an interrupted move)", c.Manifests)
	}
	switch c.StagedUploads {
	case 0:
		return fmt.Sprintf("_temporary/%d", c.Batch)
	case 1:
		return fmt.Sprintf("1 staged upload of batch %d", c.Batch)
	}
	return fmt.Sprintf("%d staged uploads of batch %d", c.StagedUploads, c.Batch)
}

// Pending are the new batches: every partition's [From, To), cut into batches
// of at most MaxRecords offsets. They are described, not listed, so that a plan
// of a million batches stays small; Each cuts them deterministically.
type Pending struct {
	FirstID      int64         `json:"first_batch"`
	MaxRecords   int64         `json:"max_records"`
	Ranges       []state.Range `json:"ranges"` // per partition, in the source's order; empty ones omitted
	Destinations []string      `json:"destinations"`
	Batches      int64         `json:"batches"`
	Records      int64         `json:"records"`
	// Deferred counts the pending batches left out by -max-batches; the next
	// plan cuts them again.
	Deferred int64 `json:"deferred_batches,omitempty"`
}

// limit keeps only the first n batches: the ranges shrink to what those
// batches cover, and the batches are cut again from them, so that the
// batches shown are exactly the ones apply runs.
func (p *Pending) limit(n int64) {
	if n <= 0 || p.Batches <= n {
		return
	}
	end := map[string]int64{}
	var k int64
	p.Each(func(b Batch) bool {
		for _, r := range b.Ranges {
			end[r.Partition] = r.End
		}
		k++
		return k < n
	})
	var ranges []state.Range
	var records int64
	for _, r := range p.Ranges {
		if e, ok := end[r.Partition]; ok {
			ranges = append(ranges, state.Range{Partition: r.Partition, Start: r.Start, End: e})
			records += e - r.Start
		}
	}
	p.Deferred = p.Batches - n
	p.Ranges, p.Records = ranges, records
	p.Batches = (records + p.MaxRecords - 1) / p.MaxRecords
}

// Each calls fn for every new batch in order until fn returns false. Every
// batch advances each partition in proportion to its pending records, so all
// partitions progress together (as Spark's maxOffsetsPerTrigger does).
func (p *Pending) Each(fn func(Batch) bool) {
	rem := make([]int64, len(p.Ranges))
	next := make([]int64, len(p.Ranges))
	var total int64
	for i, r := range p.Ranges {
		rem[i] = r.Records()
		next[i] = r.Start
		total += rem[i]
	}
	take := make([]int64, len(p.Ranges))
	for id := p.FirstID; total > 0; id++ {
		size := min(p.MaxRecords, total)
		var assigned int64
		for i := range rem {
			hi, lo := bits.Mul64(uint64(rem[i]), uint64(size))
			q, _ := bits.Div64(hi, lo, uint64(total))
			take[i] = int64(q)
			assigned += take[i]
		}
		for i := 0; assigned < size; i = (i + 1) % len(rem) {
			if take[i] < rem[i] {
				take[i]++
				assigned++
			}
		}
		b := Batch{ID: id, Records: size, Destinations: p.Destinations, Pending: p.Destinations}
		for i, r := range p.Ranges {
			if take[i] == 0 {
				continue
			}
			b.Ranges = append(b.Ranges, state.Range{Partition: r.Partition, Start: next[i], End: next[i] + take[i]})
			next[i] += take[i]
			rem[i] -= take[i]
		}
		total -= size
		if !fn(b) {
			return
		}
	}
}

// Error is a sink that cannot be planned, with what to do about it.
type Error struct {
	Sink    string
	Summary string
	Detail  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("sink %q: %s: %s", e.Sink, e.Summary, e.Detail)
}

// PlanSink plans one sink.
func PlanSink(in SinkInput) (*SinkPlan, error) {
	p := &SinkPlan{Name: in.Name, Shard: in.Shard, Snapshot: in.Snapshot, RouteBy: in.RouteBy, MovedFrom: in.MovedFrom, UndoMove: in.UndoMove}
	if err := checkOwners(in); err != nil {
		return nil, err
	}
	st := in.State
	if st == nil {
		st = state.NewSink(state.SourceRef{})
	} else if st.Source.Identity != "" {
		if st.Source.Type != in.SourceType || st.Source.Name != in.SourceName {
			return nil, &Error{Sink: in.Name, Summary: "its source changed",
				Detail: fmt.Sprintf("the state holds offsets of source.%s.%s, but the sink now reads source.%s.%s; those offsets do not apply to another stream. Point the sink back at source.%s.%s, or start it over with `streamctl state rm %s` (data already written stays in the destinations).",
					st.Source.Type, st.Source.Name, in.SourceType, in.SourceName, st.Source.Type, st.Source.Name, in.Name)}
		}
		if st.Source.Identity != in.Snapshot.Identity {
			return nil, &Error{Sink: in.Name, Summary: "its source is another stream",
				Detail: fmt.Sprintf("the state holds offsets of %q, but source.%s.%s is now %q (another topic, cluster, seed or path); those offsets do not apply to it. Restore the source's settings, or start the sink over with `streamctl state rm %s` (data already written stays in the destinations).",
					st.Source.Identity, in.SourceType, in.SourceName, in.Snapshot.Identity, in.Name)}
		}
	}

	// Where each partition stands: committed offsets, moved on by the batch in
	// flight, whose ranges are fixed.
	from := map[string]int64{}
	for part, off := range st.Offsets {
		part = in.partition(part)
		from[part] = max(from[part], off)
	}
	p.Renamed = renamedPartitions(in, st)
	nextID := st.NextBatch
	if b := st.InFlight; b != nil {
		if err := checkInFlight(in, st, b); err != nil {
			return nil, err
		}
		for _, r := range b.Ranges {
			if part := in.partition(r.Partition); r.End > from[part] {
				from[part] = r.End
			}
		}
		resume := &Batch{ID: b.ID, Ranges: b.Ranges, Records: b.Span(), Destinations: b.Destinations}
		for _, d := range b.Destinations {
			if !in.Observed[d].hasManifest(b.ID) {
				resume.Pending = append(resume.Pending, d)
			}
		}
		p.Resume = resume
		if b.ID >= nextID {
			nextID = b.ID + 1
		}
	}

	if in.RouteBy != "" && len(st.History) > 0 {
		last := st.History[len(st.History)-1].Destinations
		if !sameSet(last, in.Destinations) {
			p.Warnings = append(p.Warnings, fmt.Sprintf("the destinations of routed sink %q changed (%s → %s): new batches are routed over the new set; committed records stay where they were routed", in.Name, strings.Join(sorted(last), ", "), strings.Join(sorted(in.Destinations), ", ")))
		}
	}
	nextID, err := reconcile(in, st, p, from, nextID)
	if err != nil {
		return nil, err
	}
	if err := planReplace(in, st, p); err != nil {
		return nil, err
	}
	if err := checkForeign(in, p); err != nil {
		return nil, err
	}

	if in.State == nil && in.StartAtLatest {
		for _, part := range in.Snapshot.Partitions {
			p.Start = append(p.Start, state.Range{Partition: part.ID, Start: part.Latest, End: part.Latest})
			from[part.ID] = part.Latest
		}
	}

	inSnapshot := map[string]bool{}
	pending := Pending{FirstID: nextID, MaxRecords: in.MaxRecords, Destinations: in.Destinations}
	var lost []string
	for _, part := range in.Snapshot.Partitions {
		inSnapshot[part.ID] = true
		start, known := from[part.ID]
		if !known {
			start = part.Earliest
		}
		switch {
		case start < part.Earliest:
			r := state.Range{Partition: part.ID, Start: start, End: part.Earliest}
			lost = append(lost, fmt.Sprintf("partition %s: offsets [%d, %d) (%d records) are no longer in the source", part.ID, r.Start, r.End, r.Records()))
			p.Skipped = append(p.Skipped, r)
			start = part.Earliest
		case start > part.Latest:
			lost = append(lost, fmt.Sprintf("partition %s: the source now ends at offset %d, below the committed offset %d (it shrank or was replaced)", part.ID, part.Latest, start))
			continue
		}
		if part.Latest > start {
			r := state.Range{Partition: part.ID, Start: start, End: part.Latest}
			pending.Ranges = append(pending.Ranges, r)
			pending.Records += r.Records()
		}
	}
	var vanished []string
	for part, off := range st.Offsets {
		if !inSnapshot[in.partition(part)] && off > 0 {
			vanished = append(vanished, part)
		}
	}
	sort.Strings(vanished)
	for _, part := range vanished {
		lost = append(lost, fmt.Sprintf("partition %s: it is no longer in the source, which had been read up to offset %d", part, st.Offsets[part]))
	}
	if len(lost) > 0 {
		unread := unreadPartitions(in, from)
		if in.OnDataLoss != "skip" {
			return nil, &Error{Sink: in.Name, Summary: "data loss in the source",
				Detail: fmt.Sprintf("source.%s.%s (%s): ", in.SourceType, in.SourceName, in.Snapshot.Identity) + strings.Join(lost, "; ") + ". " + dataLossAdvice(vanished, unread)}
		}
		for _, l := range lost {
			p.Warnings = append(p.Warnings, "data loss skipped: "+l)
		}
		if len(vanished) > 0 && len(unread) > 0 {
			p.Warnings = append(p.Warnings, fmt.Sprintf("partitions vanished while %s the state never read appeared (%s): if they hold the same records under other names, this apply delivers those records a second time", plural(len(unread), "partition", "partitions"), listSome(unread)))
		}
	}
	if pending.Records > 0 {
		pending.Batches = (pending.Records + in.MaxRecords - 1) / in.MaxRecords
	}
	pending.limit(in.MaxBatches)
	if in.ResumeOnly != "" && p.Resume != nil && pending.Batches > 0 {
		pending = Pending{FirstID: pending.FirstID, MaxRecords: pending.MaxRecords, Destinations: pending.Destinations}
		p.Warnings = append(p.Warnings, in.ResumeOnly)
	}
	p.New = pending
	planLayout(in, st, p)

	for _, d := range in.Destinations {
		obs := in.Observed[d]
		if obs == nil {
			continue
		}
		for _, t := range obs.Temporaries {
			if st.InFlight != nil && t == st.InFlight.ID {
				continue // the resume clears it before redoing the batch
			}
			p.Cleanups = append(p.Cleanups, Cleanup{Destination: d, Batch: t, StagedUploads: obs.StagedUploads[t]})
		}
		for _, name := range obs.MoveLeftovers {
			if name != in.MovedFrom && name != in.UndoMove {
				p.Cleanups = append(p.Cleanups, Cleanup{Destination: d, Manifests: name})
			}
		}
	}
	if err := planTables(in, st, p); err != nil {
		return nil, err
	}
	return p, nil
}

// checkInFlight refuses to resume a batch whose destinations or output settings
// changed since it started: the retry would route or encode records otherwise,
// and files already promoted would no longer be overwritten by identical ones.
func checkInFlight(in SinkInput, st *state.Sink, b *state.Batch) error {
	configured := map[string]bool{}
	for _, d := range in.Destinations {
		configured[d] = true
	}
	var missing []string
	for _, d := range b.Destinations {
		if !configured[d] {
			missing = append(missing, d)
		}
	}
	if len(missing) > 0 {
		return &Error{Sink: in.Name, Summary: fmt.Sprintf("batch %d is in flight to destinations no longer configured", b.ID),
			Detail: fmt.Sprintf("batch %d started with destinations %s and must finish with the same ones, but %s are gone from the configuration. Restore them until the batch is committed, then remove them.", b.ID, strings.Join(b.Destinations, ", "), strings.Join(missing, ", "))}
	}
	if b.Layout != "" && in.Layout != "" && b.Layout != in.Layout {
		return &Error{Sink: in.Name, Summary: fmt.Sprintf("batch %d is in flight with other output settings", b.ID),
			Detail: fmt.Sprintf("batch %d started before a change of the sink's output settings (%s), and a retry must write the same files as the run that died, some of which may already be in place. Restore the previous settings and apply to finish the batch; then change them again: the next plan shows the change, and the batches after it are written with the new settings.", b.ID, layoutDiffText(in, st, b.Layout))}
	}
	return nil
}

func sorted(list []string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	return out
}

func sameSet(a, b []string) bool {
	return slices.Equal(sorted(a), sorted(b))
}
