package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// UIVersion is the version of the machine-readable UI (-json), reported by the
// first message of every stream. Adding a message type or a field bumps the
// minor version; removing or changing one bumps the major version. Consumers
// must ignore types and fields they do not know. docs/json-output.md is the
// reference.
const UIVersion = "1.5"

// TimestampFormat is the format of every message's @timestamp.
const TimestampFormat = "2006-01-02T15:04:05.000000Z07:00"

// PlannedBatchLimit is how many planned_batch messages are written per sink;
// the sink_plan message describes every pending batch losslessly.
const PlannedBatchLimit = 1000

// JSONView writes the -json UI: one JSON object per line. It is safe for
// concurrent use; every message is written with one Write.
type JSONView struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time
}

// NewJSONView returns a view writing to w, stamping messages with now.
func NewJSONView(w io.Writer, now func() time.Time) *JSONView {
	if now == nil {
		now = time.Now
	}
	return &JSONView{w: w, now: now}
}

type header struct {
	Level     string `json:"@level"`
	Message   string `json:"@message"`
	Module    string `json:"@module"`
	Timestamp string `json:"@timestamp"`
	Type      string `json:"type"`
}

// emit writes one message: the common fields, then key: payload when key is
// not empty, then extra fields in order.
func (v *JSONView) emit(level, typ, message, key string, payload any, extra ...field) {
	var buf bytes.Buffer
	h, _ := json.Marshal(header{Level: level, Message: message, Module: "streamctl.ui", Timestamp: v.now().Format(TimestampFormat), Type: typ})
	buf.Write(h[:len(h)-1])
	if key != "" {
		extra = append([]field{{key, payload}}, extra...)
	}
	for _, f := range extra {
		data, err := json.Marshal(f.value)
		if err != nil {
			data, _ = json.Marshal(err.Error())
		}
		fmt.Fprintf(&buf, ",%q:", f.key)
		buf.Write(data)
	}
	buf.WriteString("}\n")
	v.mu.Lock()
	defer v.mu.Unlock()
	v.w.Write(buf.Bytes())
}

type field struct {
	key   string
	value any
}

// Version writes the first message of a stream.
func (v *JSONView) Version(streamctlVersion string) {
	v.emit("info", "version", "streamctl "+streamctlVersion, "", nil,
		field{"streamctl", streamctlVersion}, field{"ui", UIVersion})
}

// Diagnostic writes an error or warning.
func (v *JSONView) Diagnostic(d Diagnostic) {
	level := "error"
	if d.Severity == SeverityWarning {
		level = "warn"
	}
	msg := d.Summary
	if d.Severity == SeverityError {
		msg = "Error: " + msg
	} else {
		msg = "Warning: " + msg
	}
	v.emit(level, "diagnostic", msg, "diagnostic", d)
}

// Info writes a free-form informational message (type "log").
func (v *JSONView) Info(message string) {
	v.emit("info", "log", message, "", nil)
}

// Range is one partition range of a batch.
type Range struct {
	Partition string `json:"partition"`
	Start     int64  `json:"start"`
	End       int64  `json:"end"`
	Records   int64  `json:"records"`
}

func jsonRanges(rs []state.Range) []Range {
	out := make([]Range, len(rs))
	for i, r := range rs {
		out[i] = Range{Partition: r.Partition, Start: r.Start, End: r.End, Records: r.Records()}
	}
	return out
}

// BatchInfo is the payload of the batch messages.
type BatchInfo struct {
	Sink         string   `json:"sink"`
	ID           int64    `json:"id"`
	Records      int64    `json:"records"`
	Destinations []string `json:"destinations,omitempty"`
	// Pending are the destinations that still have to write a resumed batch.
	Pending []string `json:"pending,omitempty"`
	Ranges  []Range  `json:"ranges,omitempty"`
	Resume  bool     `json:"resume,omitempty"`
	// Replace is set on a committed batch written again (-replace).
	Replace        bool     `json:"replace,omitempty"`
	ElapsedSeconds *float64 `json:"elapsed_seconds,omitempty"`
}

// SinkPlanInfo is the payload of sink_plan: everything planned for one sink,
// with the new batches described rather than listed.
type SinkPlanInfo struct {
	Sink    string     `json:"sink"`
	Changes bool       `json:"changes"`
	Source  SourceInfo `json:"source"`
	// MovedFrom is the sink's former name when a moved block renames it.
	MovedFrom string `json:"moved_from,omitempty"`
	// UndoMove is the name an interrupted move gave the destinations, which
	// apply gives back.
	UndoMove string `json:"undo_move,omitempty"`
	// Takeovers are destinations without an owner record whose adopted
	// batches another state committed.
	Takeovers []planner.Takeover `json:"takeovers,omitempty"`
	// Start are the offsets a new sink starts at (starting_offsets = "latest").
	Start  []Range `json:"start,omitempty"`
	Resume *int64  `json:"resume_batch,omitempty"`
	// Adopt are batches a destination committed ahead of the state; Repairs
	// are committed batches rewritten where they are missing; Removed are
	// destinations no longer configured.
	Adopt   []BatchInfo  `json:"adopt"`
	Repairs []BatchInfo  `json:"repairs"`
	Removed []string     `json:"removed_destinations"`
	Pending PendingInfo  `json:"pending"`
	Cleanup []CleanupRef `json:"cleanups"`
	Skipped []Range      `json:"skipped"`
	Warning []string     `json:"warnings"`
	// Tables are what apply does to destinations' tables.
	Tables []TableInfo `json:"tables"`
	// LayoutChange is a change of the sink's output settings: the settings
	// that differ, and the first batch written with the new ones.
	LayoutChange *planner.LayoutChange `json:"layout_change,omitempty"`
	// Renamed are committed offsets recorded under their partitions'
	// current names.
	Renamed []planner.PartitionRename `json:"renamed_partitions,omitempty"`
}

// TableInfo is the payload of table_plan: what apply does to one
// destination's table besides appending the batches.
type TableInfo struct {
	Sink        string `json:"sink"`
	Destination string `json:"destination"`
	Table       string `json:"table"`
	// Create is what creating the table makes; "" when it exists.
	Create  string       `json:"create,omitempty"`
	Changes []string     `json:"changes"`
	Holds   []int64      `json:"holds_batches"`
	Orphans []OrphanInfo `json:"orphans"`
}

// OrphanInfo is the payload of table_orphan: a file nothing references.
type OrphanInfo struct {
	Sink        string `json:"sink"`
	Destination string `json:"destination"`
	Table       string `json:"table"`
	Path        string `json:"path"`
	Kind        string `json:"kind"` // data | metadata
	Batch       *int64 `json:"batch,omitempty"`
	// Status is "planned" in a plan and "removed" during an apply.
	Status string `json:"status,omitempty"`
}

func tableInfo(sink string, t planner.TablePlan) TableInfo {
	info := TableInfo{Sink: sink, Destination: t.Destination, Table: t.Table, Create: t.Create, Changes: nonNil(t.Changes), Holds: t.Holds, Orphans: []OrphanInfo{}}
	if info.Holds == nil {
		info.Holds = []int64{}
	}
	for _, o := range t.Orphans {
		info.Orphans = append(info.Orphans, OrphanInfo{Sink: sink, Destination: t.Destination, Table: t.Table, Path: o.Path, Kind: o.Kind, Batch: o.Batch})
	}
	return info
}

// tableSummary is a table_plan's @message.
func tableSummary(sink string, t planner.TablePlan) string {
	var parts []string
	if t.Create != "" {
		parts = append(parts, fmt.Sprintf("create %s (%s)", t.Table, t.Create))
	}
	for _, c := range t.Changes {
		parts = append(parts, fmt.Sprintf("%s: %s", t.Table, c))
	}
	if n := len(t.Orphans); n > 0 {
		parts = append(parts, fmt.Sprintf("remove %s in %s", Plural(int64(n), "orphan file", "orphan files"), t.Destination))
	}
	for _, id := range t.Holds {
		parts = append(parts, fmt.Sprintf("%s already holds batch %d: it is not appended again", t.Table, id))
	}
	return fmt.Sprintf("sink %q: %s", sink, strings.Join(parts, "; "))
}

// SourceInfo is a source snapshot.
type SourceInfo struct {
	Identity   string          `json:"identity"`
	Partitions []PartitionInfo `json:"partitions"`
}

// PartitionInfo is one partition of a source snapshot.
type PartitionInfo struct {
	ID       string `json:"id"`
	Earliest int64  `json:"earliest"`
	Latest   int64  `json:"latest"`
}

// PendingInfo describes the new batches: every partition's pending range cut
// into batches of at most max_records, numbered from first_batch.
type PendingInfo struct {
	FirstBatch   int64    `json:"first_batch"`
	Batches      int64    `json:"batches"`
	Records      int64    `json:"records"`
	MaxRecords   int64    `json:"max_records"`
	Destinations []string `json:"destinations"`
	Ranges       []Range  `json:"ranges"`
}

// CleanupRef is an orphan temporary, or a folder of manifests an
// interrupted move left.
type CleanupRef struct {
	Sink        string `json:"sink"`
	Destination string `json:"destination"`
	Batch       int64  `json:"batch"`
	// Manifests names the sink folder of manifests an interrupted move left.
	Manifests string `json:"manifests,omitempty"`
	// Status is "planned" in a plan and "removed" during an apply.
	Status string `json:"status,omitempty"`
}

func sourceInfo(s *planner.SinkPlan) SourceInfo {
	si := SourceInfo{Identity: s.Snapshot.Identity, Partitions: []PartitionInfo{}}
	for _, p := range s.Snapshot.Partitions {
		si.Partitions = append(si.Partitions, PartitionInfo{ID: p.ID, Earliest: p.Earliest, Latest: p.Latest})
	}
	return si
}

func sinkPlanInfo(s *planner.SinkPlan) SinkPlanInfo {
	info := SinkPlanInfo{
		Sink:      s.Name,
		Changes:   s.Changes(),
		Source:    sourceInfo(s),
		MovedFrom: s.MovedFrom,
		UndoMove:  s.UndoMove,
		Takeovers: s.Takeovers,
		Start:     nil,
		Pending: PendingInfo{
			FirstBatch:   s.New.FirstID,
			Batches:      s.New.Batches,
			Records:      s.New.Records,
			MaxRecords:   s.New.MaxRecords,
			Destinations: nonNil(s.New.Destinations),
			Ranges:       jsonRanges(s.New.Ranges),
		},
		Adopt:   batchInfos(s.Name, s.Adopt),
		Repairs: batchInfos(s.Name, s.Repairs),
		Removed: nonNil(s.Removed),
		Cleanup: []CleanupRef{},
		Skipped: jsonRanges(s.Skipped),
		Warning: nonNil(s.Warnings),
		Tables:  []TableInfo{},

		LayoutChange: s.LayoutChange,
		Renamed:      s.Renamed,
	}
	for _, t := range s.Tables {
		info.Tables = append(info.Tables, tableInfo(s.Name, t))
	}
	if len(s.Start) > 0 {
		info.Start = jsonRanges(s.Start)
	}
	if s.Resume != nil {
		id := s.Resume.ID
		info.Resume = &id
	}
	for _, c := range s.Cleanups {
		info.Cleanup = append(info.Cleanup, CleanupRef{Sink: s.Name, Destination: c.Destination, Batch: c.Batch, Manifests: c.Manifests})
	}
	return info
}

func batchInfos(sink string, bs []planner.Batch) []BatchInfo {
	out := make([]BatchInfo, len(bs))
	for i, b := range bs {
		out[i] = BatchInfo{Sink: sink, ID: b.ID, Records: b.Records, Destinations: nonNil(b.Destinations), Pending: nonNil(b.Pending), Ranges: jsonRanges(b.Ranges), Replace: b.Replace}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// PlanSummary is the payload of plan_summary.
type PlanSummary struct {
	Operation    string `json:"operation"` // plan | apply
	Changes      bool   `json:"changes"`
	Batches      int64  `json:"batches"`
	Records      int64  `json:"records"`
	Destinations int    `json:"destinations"`
	Cleanups     int    `json:"cleanups"`
	// OrphanFiles counts the orphan files of destinations' tables to remove.
	OrphanFiles int `json:"orphan_files"`
	Counts
}

// CompactionInfo is a planned compaction in a "compaction" message.
type CompactionInfo struct {
	Sink string `json:"sink"`
	planner.Compaction
}

// ExpiryInfo is a planned expiry of a table's snapshots in an "expiry"
// message.
type ExpiryInfo struct {
	Sink string `json:"sink"`
	planner.Expiry
}

// Plan writes a plan: per sink a sink_plan, the resume_batch, the planned
// cleanups and up to PlannedBatchLimit planned_batch messages, its warnings as
// diagnostics; then the plan_summary.
func (v *JSONView) Plan(p *planner.Plan, operation string) {
	cleanups := 0
	for _, r := range p.Reshards {
		if r.Moves == nil {
			r.Moves = []state.Move{}
		}
		v.emit("info", "reshard", fmt.Sprintf("sink %q: %s", r.Sink, ReshardText(r)), "reshard", r)
	}
	for _, s := range p.Sinks {
		v.emit("info", "sink_plan", fmt.Sprintf("sink %q: %s", s.Name, sinkSummary(s)), "sink", sinkPlanInfo(s))
		if c := s.LayoutChange; c != nil {
			v.emit("info", "layout_change", fmt.Sprintf("sink %q: update output settings in place: %s", s.Name, LayoutChangeText(s.Name, c)), "layout_change", LayoutChangeInfo{Sink: s.Name, LayoutChange: *c})
		}
		if b := s.Resume; b != nil {
			v.emit("info", "resume_batch", fmt.Sprintf("sink %q: resume batch %d (in flight): %s records", s.Name, b.ID, Count(b.Records)), "batch",
				BatchInfo{Sink: s.Name, ID: b.ID, Records: b.Records, Destinations: nonNil(b.Destinations), Pending: nonNil(b.Pending), Ranges: jsonRanges(b.Ranges), Resume: true})
		}
		for _, t := range s.Takeovers {
			v.emit("warn", "destination_takeover", fmt.Sprintf("sink %q: %s", s.Name, TakeoverText(t)), "takeover", t)
		}
		for _, b := range batchInfos(s.Name, s.Adopt) {
			v.emit("info", "adopt_batch", fmt.Sprintf("sink %q: adopt batch %d, committed by a destination but not in the state: %s records", s.Name, b.ID, Count(b.Records)), "batch", b)
		}
		for _, b := range batchInfos(s.Name, s.Repairs) {
			msg := fmt.Sprintf("sink %q: rewrite committed batch %d into %s (missing there): %s records", s.Name, b.ID, destList(b.Pending, "no destination"), Count(b.Records))
			if b.Replace {
				msg = fmt.Sprintf("sink %q: replace batch %d in %s (-replace): %s records written again from the source", s.Name, b.ID, destList(b.Pending, "no destination"), Count(b.Records))
			}
			v.emit("info", "repair_batch", msg, "batch", b)
		}
		for _, c := range s.Cleanups {
			cleanups++
			v.emit("info", "cleanup", fmt.Sprintf("sink %q: remove orphan %s in %s", s.Name, c.What(), c.Destination), "cleanup",
				CleanupRef{Sink: s.Name, Destination: c.Destination, Batch: c.Batch, Manifests: c.Manifests, Status: "planned"})
		}
		for _, c := range s.Compactions {
			v.emit("info", "compaction", fmt.Sprintf("sink %q: %s", s.Name, CompactionText(c)), "compaction", CompactionInfo{Sink: s.Name, Compaction: c})
		}
		for _, x := range s.Expiries {
			v.emit("info", "expiry", fmt.Sprintf("sink %q: %s", s.Name, ExpiryText(x)), "expiry", ExpiryInfo{Sink: s.Name, Expiry: x})
		}
		for _, t := range s.Tables {
			info := tableInfo(s.Name, t)
			v.emit("info", "table_plan", tableSummary(s.Name, t), "table", info)
			for i, o := range info.Orphans {
				o.Status = "planned"
				v.emit("info", "table_orphan", fmt.Sprintf("sink %q: remove orphan %s in %s", s.Name, t.Orphans[i].What(t.Table), t.Destination), "orphan", o)
			}
		}
		listed := 0
		s.New.Each(func(b planner.Batch) bool {
			if listed == PlannedBatchLimit {
				return false
			}
			listed++
			v.emit("info", "planned_batch", fmt.Sprintf("sink %q: batch %d: %s records → %s", s.Name, b.ID, Count(b.Records), destList(b.Destinations, "no destination")), "batch",
				BatchInfo{Sink: s.Name, ID: b.ID, Records: b.Records, Destinations: nonNil(b.Destinations), Ranges: jsonRanges(b.Ranges)})
			return true
		})
		for _, w := range s.Warnings {
			v.Diagnostic(Diagnostic{Severity: SeverityWarning, Summary: w, Address: "sink." + s.Name})
		}
	}
	for _, r := range p.Removed {
		v.emit("warn", "sink_removed", fmt.Sprintf("sink %q is no longer in the configuration: nothing is applied to it and nothing is deleted: %s", r.Name, RemovedSinkText(r)), "sink", r)
	}
	batches, records, dests := p.Totals()
	v.emit("info", "plan_summary", SummaryLine(p), "changes", PlanSummary{
		Operation: operation, Changes: p.Changes(), Batches: batches, Records: records, Destinations: dests, Cleanups: cleanups, OrphanFiles: orphanFiles(p), Counts: PlanCounts(p),
	})
}

// LayoutChangeInfo is the payload of layout_change.
type LayoutChangeInfo struct {
	Sink string `json:"sink"`
	planner.LayoutChange
}

func sinkSummary(s *planner.SinkPlan) string {
	if !s.Changes() {
		return "up to date"
	}
	// Counted as the plan's summary counts them (planner.Plan.Totals):
	// a batch resumed, adopted, repaired or replaced is written too.
	n := s.New.Batches
	r := s.New.Records
	if s.Resume != nil {
		n++
		r += s.Resume.Records
	}
	for _, b := range append(append([]planner.Batch(nil), s.Adopt...), s.Repairs...) {
		n++
		r += b.Records
	}
	text := fmt.Sprintf("%s, %s", Plural(n, "batch", "batches"), Plural(r, "record", "records"))
	if s.MovedFrom != "" {
		text += fmt.Sprintf(", moved from %s", s.MovedFrom)
	}
	if s.UndoMove != "" {
		text += fmt.Sprintf(", interrupted move to %s undone", s.UndoMove)
	}
	if s.LayoutChange != nil {
		text += ", output settings changed"
	}
	return text
}

// BatchStart writes batch_start.
func (v *JSONView) BatchStart(sink string, id, records int64, destinations []string, ranges []state.Range, resume bool) {
	verb := "started"
	if resume {
		verb = "resumed"
	}
	v.emit("info", "batch_start", fmt.Sprintf("%s: batch %d %s (%s records)", sink, id, verb, Count(records)), "batch",
		BatchInfo{Sink: sink, ID: id, Records: records, Destinations: nonNil(destinations), Ranges: jsonRanges(ranges), Resume: resume})
}

// BatchRepaired writes batch_repaired: a committed batch rewritten into the
// destinations that missed it.
func (v *JSONView) BatchRepaired(sink string, id, records int64, elapsed time.Duration) {
	secs := elapsed.Seconds()
	v.emit("info", "batch_repaired", fmt.Sprintf("%s: batch %d rewritten where it was missing", sink, id), "batch",
		BatchInfo{Sink: sink, ID: id, Records: records, ElapsedSeconds: &secs})
}

// DestinationInfo is the payload of destination_committed.
type DestinationInfo struct {
	Sink        string `json:"sink"`
	Batch       int64  `json:"batch"`
	Destination string `json:"destination"`
	Files       int    `json:"files"`
	Records     int64  `json:"records"`
	Bytes       int64  `json:"bytes"`
}

// DestinationCommitted writes destination_committed.
func (v *JSONView) DestinationCommitted(d DestinationInfo) {
	v.emit("info", "destination_committed", fmt.Sprintf("%s: batch %d committed to %s: %s, %s records, %s", d.Sink, d.Batch, d.Destination,
		Plural(int64(d.Files), "file", "files"), Count(d.Records), Bytes(d.Bytes)), "destination", d)
}

// BatchCommitted writes batch_committed.
func (v *JSONView) BatchCommitted(sink string, id, records int64, elapsed time.Duration, resume bool) {
	secs := elapsed.Seconds()
	v.emit("info", "batch_committed", fmt.Sprintf("%s: batch %d committed in %s", sink, id, elapsed.Round(time.Millisecond)), "batch",
		BatchInfo{Sink: sink, ID: id, Records: records, Resume: resume, ElapsedSeconds: &secs})
}

// Cleanup writes a cleanup that was done.
func (v *JSONView) Cleanup(sink, destination string, c planner.Cleanup) {
	batch := c.Batch
	v.emit("info", "cleanup", fmt.Sprintf("%s: removed orphan %s in %s", sink, c.What(), destination), "cleanup",
		CleanupRef{Sink: sink, Destination: destination, Batch: batch, Manifests: c.Manifests, Status: "removed"})
}

// TableOrphan writes a table_orphan that apply removed.
func (v *JSONView) TableOrphan(o OrphanInfo, what string) {
	o.Status = "removed"
	v.emit("info", "table_orphan", fmt.Sprintf("%s: removed orphan %s in %s", o.Sink, what, o.Destination), "orphan", o)
}

// MoveInfo is the payload of sink_moved.
type MoveInfo struct {
	Sink string `json:"sink"`
	From string `json:"from"`
}

// MovedLine is the line a sink's move is reported by.
func MovedLine(sink, from string) string {
	return fmt.Sprintf("sink.%s: moved from sink.%s", sink, from)
}

// SinkMoved writes sink_moved: apply renamed sink from from, as a moved
// block asks.
func (v *JSONView) SinkMoved(sink, from string) {
	v.emit("info", "sink_moved", MovedLine(sink, from), "move", MoveInfo{Sink: sink, From: from})
}

// Progress is the payload of batch_progress: where the whole apply stands.
type Progress struct {
	Sink             string  `json:"sink,omitempty"`
	Batch            *int64  `json:"batch,omitempty"`
	BatchesDone      int64   `json:"batches_done"`
	BatchesTotal     int64   `json:"batches_total"`
	RecordsDone      int64   `json:"records_done"`
	RecordsTotal     int64   `json:"records_total"`
	ElapsedSeconds   float64 `json:"elapsed_seconds"`
	RecordsPerSecond float64 `json:"records_per_second"`
	// ETASeconds is the estimated time left; absent until a rate is known.
	ETASeconds *float64 `json:"eta_seconds,omitempty"`
}

// Line renders the progress as one human line.
func (p Progress) Line() string {
	s := fmt.Sprintf("%s/%s batches, %s/%s records, %s records/s",
		Count(p.BatchesDone), Count(p.BatchesTotal), Count(p.RecordsDone), Count(p.RecordsTotal), Count(int64(p.RecordsPerSecond)))
	if p.ETASeconds != nil {
		s += ", ETA " + (time.Duration(*p.ETASeconds) * time.Second).String()
	}
	return s
}

// BatchProgress writes batch_progress.
func (v *JSONView) BatchProgress(p Progress) {
	v.emit("info", "batch_progress", "Progress: "+p.Line(), "progress", p)
}

// ApplySummary is the payload of apply_summary.
type ApplySummary struct {
	// Status is "complete", "failed" or "interrupted".
	Status           string        `json:"status"`
	Batches          int64         `json:"batches"`
	Records          int64         `json:"records"`
	Files            int64         `json:"files"`
	Bytes            int64         `json:"bytes"`
	ElapsedSeconds   float64       `json:"elapsed_seconds"`
	RecordsPerSecond float64       `json:"records_per_second"`
	Sinks            []SinkSummary `json:"sinks"`
}

// SinkSummary is what an apply did for one sink.
type SinkSummary struct {
	Sink    string `json:"sink"`
	Batches int64  `json:"batches"`
	Records int64  `json:"records"`
	Files   int64  `json:"files"`
	Bytes   int64  `json:"bytes"`
	Error   string `json:"error,omitempty"`
}

// Apply writes apply_summary with the human summary line as its message.
func (v *JSONView) Apply(s ApplySummary, line string) {
	level := "info"
	if s.Status != "complete" {
		level = "error"
	}
	v.emit(level, "apply_summary", line, "summary", s)
}

// Emit writes a message of another type (status, lock…) with its payload
// under key.
func (v *JSONView) Emit(level, typ, message, key string, payload any) {
	v.emit(level, typ, message, key, payload)
}
