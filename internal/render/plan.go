// Package render turns plans, apply progress and state into output: text for
// people (with colour on terminals). The summary lines ("Plan: …", "No
// changes. …", "Apply complete! …") are a stable interface: scripts grep them.
package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// Options tune the text rendering.
type Options struct {
	Color bool
	// Verbose lists every partition range of every batch.
	Verbose bool
	// MaxBatches is how many new batches are listed per sink before the rest are
	// summarised (0: 20).
	MaxBatches int
}

const (
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	red    = "\x1b[31m"
	bold   = "\x1b[1m"
	reset  = "\x1b[0m"
)

func (o Options) paint(code, s string) string {
	if !o.Color {
		return s
	}
	return code + s + reset
}

// PlanText renders a plan as a human diff.
func PlanText(w io.Writer, p *planner.Plan, o Options) {
	if o.MaxBatches == 0 {
		o.MaxBatches = 20
	}
	if !p.Changes() {
		for _, s := range p.Sinks {
			for _, warn := range s.Warnings {
				fmt.Fprintf(w, "%s sink %q: %s\n", o.paint(yellow, "Warning:"), s.Name, warn)
			}
		}
		if len(p.Removed) > 0 {
			writeRemovedSinks(w, p.Removed, o)
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, o.paint(bold, "No changes.")+" All sinks are up to date.")
		return
	}
	fmt.Fprintln(w, "streamctl will perform the following actions:")
	for _, r := range p.Reshards {
		fmt.Fprintln(w)
		writeReshard(w, r, o)
	}
	for _, s := range p.Sinks {
		fmt.Fprintln(w)
		if !s.Changes() {
			fmt.Fprintf(w, "  # sink %q is up to date\n", s.Name)
			continue
		}
		if s.MovedFrom != "" {
			fmt.Fprintf(w, "  # sink %q (moved from %q)\n", s.Name, s.MovedFrom)
		} else {
			fmt.Fprintf(w, "  # sink %q\n", s.Name)
		}
		writeSinkActions(w, s, o)
	}
	if len(p.Removed) > 0 {
		writeRemovedSinks(w, p.Removed, o)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, SummaryLine(p))
}

// writeReshard shows a change of a sink's number of shards and the
// partitions whose committed offsets it moves.
func writeReshard(w io.Writer, r planner.Reshard, o Options) {
	fmt.Fprintf(w, "  # sink %q: %s\n", r.Sink, ReshardText(r))
	fmt.Fprintf(w, "  %s reshard sink.%s %d → %d\n", o.paint(yellow, "~"), r.Sink, r.From, r.To)
	limit := len(r.Moves)
	if !o.Verbose && limit > o.MaxBatches {
		limit = o.MaxBatches
	}
	for _, m := range r.Moves[:limit] {
		fmt.Fprintf(w, "      partition %s: %s → %s (committed offset %s)\n", m.Partition, m.From, m.To, Count(m.Offset))
	}
	if limit < len(r.Moves) {
		fmt.Fprintf(w, "      … and %d more partitions (-verbose lists them)\n", len(r.Moves)-limit)
	}
}

// ReshardText says what a change of shards does.
func ReshardText(r planner.Reshard) string {
	what := fmt.Sprintf("the committed offsets of %s are split again from %d into %d shards, %s moving; no data is read or written, and each shard's batches go on from the highest batch number", Plural(int64(r.Partitions), "partition", "partitions"), r.From, r.To, Plural(int64(len(r.Moves)), "partition", "partitions"))
	if r.InProgress {
		what = "finishing a change a run that died began: " + what
	}
	return what
}

// writeRemovedSinks notes the sinks the configuration no longer declares:
// nothing is done to them, and what stays is said.
func writeRemovedSinks(w io.Writer, removed []planner.RemovedSink, o Options) {
	for _, r := range removed {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  # sink %q is no longer in the configuration\n", r.Name)
		fmt.Fprintf(w, "  %s nothing is applied to it and nothing is deleted: %s\n", o.paint(yellow, "!"), RemovedSinkText(r))
	}
}

// TakeoverText says which state's batches adopting a destination without
// an owner record takes over.
func TakeoverText(t planner.Takeover) string {
	whose := fmt.Sprintf("another state (lineage %s)", t.Lineage)
	if t.Lineage == "" {
		whose = "another state (its manifests do not record its lineage: an older streamctl wrote them)"
	}
	batches := fmt.Sprintf("batch %d", t.FirstBatch)
	if t.Batches > 1 {
		batches = fmt.Sprintf("batches %d–%d", t.FirstBatch, t.LastBatch)
	}
	return fmt.Sprintf("take over destination %s from %s: it has no owner record, and %s there (%s records) were committed by that state; this state adopts them and claims the destination. If that state still writes there, do not apply: restore its _streamctl/owner.json instead", t.Destination, whose, batches, Count(t.Records))
}

// RemovedSinkText says what stays of a removed sink and how to forget it.
func RemovedSinkText(r planner.RemovedSink) string {
	stays := fmt.Sprintf("its checkpoint stays in the state (%s, %s records committed from %s)", Plural(r.CommittedBatches, "batch", "batches"), Count(r.CommittedRecords), r.Source)
	if r.InFlight != nil {
		stays += fmt.Sprintf(", with batch %d in flight", *r.InFlight)
	}
	if r.SupersededBy != "" {
		// The rename it suggests otherwise is refused: the state holds both.
		where := strings.Join(r.Leftovers, ", ")
		return stays + fmt.Sprintf(", but a move of it to sink.%s was interrupted, and sink.%s now owns %s and has adopted its batches there: that checkpoint and the manifests under _streamctl/%s/ in %s are leftovers. To clean up: streamctl state rm %s, then remove the folder _streamctl/%s/ from %s; the data files and sink.%s's manifests stay.",
			r.SupersededBy, r.SupersededBy, where, r.Name, where, r.Name, r.Name, where, r.SupersededBy)
	}
	if len(r.Destinations) > 0 {
		stays += fmt.Sprintf(", and its files stay in %s", strings.Join(r.Destinations, ", "))
	}
	return stays + fmt.Sprintf(". If it was renamed, declare the rename: moved { from = sink.%s  to = sink.NEW_NAME }. To forget it: streamctl state rm %s.", r.Name, r.Name)
}

// writeSinkActions writes the actions of one sink that has changes, one per
// line, each indented by two spaces and starting with its symbol.
func writeSinkActions(w io.Writer, s *planner.SinkPlan, o Options) {
	if len(s.Start) > 0 {
		fmt.Fprintf(w, "  %s start at the latest offsets, skipping what the source already holds (starting_offsets = \"latest\")\n", o.paint(green, "+"))
		if o.Verbose {
			for _, r := range s.Start {
				fmt.Fprintf(w, "      partition %s at %d\n", r.Partition, r.Start)
			}
		}
	}
	for _, t := range s.Tables {
		if t.Create != "" {
			fmt.Fprintf(w, "  %s create %s (%s)\n", o.paint(green, "+"), t.Table, t.Create)
		}
		for _, c := range t.Changes {
			fmt.Fprintf(w, "  %s %s: %s\n", o.paint(yellow, "~"), t.Table, c)
		}
	}
	if len(s.Columns) > 0 {
		fmt.Fprintf(w, "  %s write the columns:\n", o.paint(green, "+"))
		width := 0
		for _, c := range s.Columns {
			width = max(width, len(c.Name))
		}
		for _, c := range s.Columns {
			notNull := ""
			if !c.Nullable {
				notNull = ", not nullable"
			}
			fmt.Fprintf(w, "      %-*s %s%s\n", width, c.Name, c.Type, notNull)
		}
	}
	for _, c := range s.Cleanups {
		fmt.Fprintf(w, "  %s remove orphan %s in %s\n", o.paint(red, "-"), c.What(), c.Destination)
	}
	for _, t := range s.Tables {
		for _, f := range t.Orphans {
			fmt.Fprintf(w, "  %s remove orphan %s in %s\n", o.paint(red, "-"), f.What(t.Table), t.Destination)
		}
	}
	for _, c := range s.Compactions {
		fmt.Fprintf(w, "  %s %s\n", o.paint(yellow, "~"), CompactionText(c))
		for _, f := range c.Folders {
			fmt.Fprintf(w, "      %s: %s (%s) into %s\n", f.Folder, Plural(int64(len(f.Files)), "file", "files"), Bytes(f.Bytes), CompactionInto(f))
			if o.Verbose {
				for _, p := range f.Files {
					fmt.Fprintf(w, "        - %s\n", p)
				}
			}
		}
	}
	for _, x := range s.Expiries {
		fmt.Fprintf(w, "  %s %s\n", o.paint(red, "-"), ExpiryText(x))
	}
	for _, d := range s.Removed {
		fmt.Fprintf(w, "  %s destination %s is no longer configured: it receives no more data; its files stay\n", o.paint(red, "-"), d)
	}
	if s.MovedFrom != "" {
		fmt.Fprintf(w, "  %s move sink.%s to sink.%s: its checkpoint, manifests and destination ownership\n", o.paint(yellow, "~"), s.MovedFrom, s.Name)
	}
	if s.UndoMove != "" {
		fmt.Fprintf(w, "  %s undo the interrupted move of sink.%s to sink.%s: its destinations go back to sink.%s and the manifests copied under _streamctl/%s/ are removed\n", o.paint(yellow, "~"), s.Name, s.UndoMove, s.Name, s.UndoMove)
	}
	for i, r := range s.Renamed {
		if i == o.MaxBatches && !o.Verbose {
			fmt.Fprintf(w, "  %s … and %d more partitions renamed (-verbose lists them)\n", o.paint(yellow, "~"), len(s.Renamed)-i)
			break
		}
		fmt.Fprintf(w, "  %s partition %s is now named %s: its committed offset %s carries over (the source names its files relative to its root folder now, wherever streamctl runs from)\n", o.paint(yellow, "~"), r.From, r.To, Count(r.Offset))
	}
	if c := s.LayoutChange; c != nil {
		fmt.Fprintf(w, "  %s update output settings in place: %s\n", o.paint(yellow, "~"), LayoutChangeText(s.Name, c))
		for _, a := range c.Attributes {
			fmt.Fprintf(w, "      %s %s\n", o.paint(symbolColor[a.Symbol()], a.Symbol()), a.Text())
		}
		if len(c.Attributes) == 0 {
			fmt.Fprintf(w, "      (the state, written by an older streamctl, does not record which settings the batches before were written with)\n")
		}
	}
	if b := s.Resume; b != nil {
		fmt.Fprintf(w, "  %s resume batch %d (in flight): %s records → %s\n",
			o.paint(yellow, "~"), b.ID, Count(b.Records), destList(b.Pending, "already committed everywhere; only the state commit remains"))
		writeRanges(w, b.Ranges, o)
	}
	for _, t := range s.Takeovers {
		fmt.Fprintf(w, "  %s %s\n", o.paint(yellow, "~"), TakeoverText(t))
	}
	for _, b := range s.Adopt {
		fmt.Fprintf(w, "  %s adopt batch %d, committed by a destination but not in the state: %s records → %s\n",
			o.paint(yellow, "~"), b.ID, Count(b.Records), destList(b.Pending, "no destination left to write"))
		writeRanges(w, b.Ranges, o)
	}
	for _, t := range s.Tables {
		for _, id := range t.Holds {
			fmt.Fprintf(w, "  %s %s already holds batch %d: its snapshot is kept, and the batch is not appended again\n", o.paint(yellow, "~"), t.Table, id)
		}
	}
	for _, b := range s.Repairs {
		if b.Replace {
			fmt.Fprintf(w, "  %s replace batch %d in %s (-replace): %s records written again from the source, into the files its manifest lists\n",
				o.paint(yellow, "-/+"), b.ID, strings.Join(b.Pending, ", "), Count(b.Records))
		} else {
			fmt.Fprintf(w, "  %s rewrite committed batch %d into %s (missing there): %s records\n",
				o.paint(yellow, "~"), b.ID, strings.Join(b.Pending, ", "), Count(b.Records))
		}
		if o.Verbose {
			writeRanges(w, b.Ranges, o)
		}
	}
	listed := 0
	s.New.Each(func(b planner.Batch) bool {
		if listed == o.MaxBatches {
			return false
		}
		listed++
		fmt.Fprintf(w, "  %s batch %d: %s records → %s", o.paint(green, "+"), b.ID, Count(b.Records), strings.Join(b.Destinations, ", "))
		if !o.Verbose {
			fmt.Fprintf(w, "  %s\n", rangesShort(b.Ranges))
			return true
		}
		fmt.Fprintln(w)
		writeRanges(w, b.Ranges, o)
		return true
	})
	if rest := s.New.Batches - int64(listed); rest > 0 {
		fmt.Fprintf(w, "  %s … and %s more batches up to batch %d\n", o.paint(green, "+"), Count(rest), s.New.FirstID+s.New.Batches-1)
	}
	if s.New.Deferred > 0 {
		fmt.Fprintf(w, "  %s %s left for a later plan (-max-batches)\n", o.paint(green, "+"), Plural(s.New.Deferred, "pending batch", "pending batches"))
	}
	for _, r := range s.Skipped {
		fmt.Fprintf(w, "  %s skip lost offsets [%d, %d) of partition %s\n", o.paint(red, "!"), r.Start, r.End, r.Partition)
	}
	for _, warn := range s.Warnings {
		fmt.Fprintf(w, "  %s %s\n", o.paint(yellow, "Warning:"), warn)
	}
}

// TargetedText is the warning of a plan made with -target or -exclude.
const TargetedText = "-target or -exclude is in effect: the plan covers only the sinks they select. Use it for exceptional situations, not routinely."

var symbolColor = map[string]string{"+": green, "-": red, "~": yellow}

// LayoutChangeText says what a change of a sink's output settings means
// for its readers.
func LayoutChangeText(sink string, c *planner.LayoutChange) string {
	if c.FirstBatch == 0 {
		return "new batches are written with the new settings"
	}
	return fmt.Sprintf("the committed batches, up to batch %d, stay as they were written; batches from %d on are written with the new settings beside them (a reader that lists the folder sees both; streamctl files %s lists each batch's files)", c.FirstBatch-1, c.FirstBatch, sink)
}

// Counts are the changes of a plan besides its batches.
type Counts struct {
	Moves         int `json:"moves"`
	LayoutChanges int `json:"layout_changes"`
	TablesCreated int `json:"tables_created"`
	TableChanges  int `json:"table_changes"`
	// RemovedDestinations are destinations no longer configured.
	RemovedDestinations int `json:"removed_destinations"`
	// PartitionsRenamed are committed offsets recorded under their
	// partitions' current names.
	PartitionsRenamed int `json:"partitions_renamed"`
}

// PlanCounts counts a plan's changes besides its batches, by sink.
func PlanCounts(p *planner.Plan) Counts {
	var c Counts
	// The shards of a sink share its name and its settings: it counts once.
	moved, changed := map[string]bool{}, map[string]bool{}
	for _, s := range p.Sinks {
		name := s.Name
		if s.Shard != nil {
			name = s.Shard.Sink
		}
		if (s.MovedFrom != "" || s.UndoMove != "") && !moved[name] {
			moved[name] = true
			c.Moves++
		}
		if s.LayoutChange != nil && !changed[name] {
			changed[name] = true
			c.LayoutChanges++
		}
		for _, t := range s.Tables {
			if t.Create != "" {
				c.TablesCreated++
			}
			if len(t.Changes) > 0 {
				c.TableChanges++
			}
		}
		c.RemovedDestinations += len(s.Removed)
		c.PartitionsRenamed += len(s.Renamed)
	}
	return c
}

// ChangesBesideBatches counts the changes of a plan that write no batch, as
// the summaries name them: "1 sink moved", "2 layout changes". A rename
// that writes nothing is still a change to review and to report. applied
// names them as made ("1 table created") rather than planned.
func ChangesBesideBatches(p *planner.Plan, applied bool) []string {
	c := PlanCounts(p)
	created := []string{"table to create", "tables to create"}
	if applied {
		created = []string{"table created", "tables created"}
	}
	var parts []string
	for _, n := range []struct {
		count     int
		one, many string
	}{
		{c.Moves, "sink moved", "sinks moved"},
		{c.LayoutChanges, "layout change", "layout changes"},
		{c.TablesCreated, created[0], created[1]},
		{c.TableChanges, "table change", "table changes"},
		{c.RemovedDestinations, "destination removed", "destinations removed"},
		{c.PartitionsRenamed, "partition renamed", "partitions renamed"},
	} {
		if n.count > 0 {
			parts = append(parts, Plural(int64(n.count), n.one, n.many))
		}
	}
	return parts
}

// SummaryLine is the plan's last line: "Plan: 1 batch, 200 records to 2
// destinations, 1 sink moved, 1 layout change." Scripts grep it: change it
// deliberately.
func SummaryLine(p *planner.Plan) string {
	if !p.Changes() {
		return "No changes. All sinks are up to date."
	}
	batches, records, dests := p.Totals()
	parts := []string{fmt.Sprintf("%s, %s to %s", Plural(batches, "batch", "batches"), Plural(records, "record", "records"), Plural(int64(dests), "destination", "destinations"))}
	line := "Plan: " + strings.Join(append(parts, ChangesBesideBatches(p, false)...), ", ") + "."
	cleanups, copies := 0, 0
	for _, s := range p.Sinks {
		for _, c := range s.Cleanups {
			if c.Manifests != "" {
				copies++
			} else {
				cleanups++
			}
		}
	}
	if cleanups > 0 {
		line += fmt.Sprintf(" %d orphan %s to remove.", cleanups, plural(int64(cleanups), "temporary", "temporaries"))
	}
	if copies > 0 {
		line += fmt.Sprintf(" %d %s of manifests left by an interrupted move to remove.", copies, plural(int64(copies), "folder", "folders"))
	}
	if n := orphanFiles(p); n > 0 {
		line += fmt.Sprintf(" %d orphan %s to remove.", n, plural(int64(n), "file", "files"))
	}
	compactions := 0
	for _, s := range p.Sinks {
		compactions += len(s.Compactions)
	}
	if compactions > 0 {
		line += fmt.Sprintf(" %s.", Plural(int64(compactions), "compaction", "compactions"))
	}
	expiries := 0
	for _, s := range p.Sinks {
		expiries += len(s.Expiries)
	}
	if expiries > 0 {
		line += fmt.Sprintf(" %s of snapshots.", Plural(int64(expiries), "table expiry", "table expiries"))
	}
	for _, r := range p.Reshards {
		line += fmt.Sprintf(" Sink %s goes from %d to %d shards.", r.Sink, r.From, r.To)
	}
	return line
}

// orphanFiles counts the orphan files of destinations' tables a plan removes.
func orphanFiles(p *planner.Plan) int {
	n := 0
	for _, s := range p.Sinks {
		for _, t := range s.Tables {
			n += len(t.Orphans)
		}
	}
	return n
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func destList(ds []string, none string) string {
	if len(ds) == 0 {
		return none
	}
	return strings.Join(ds, ", ")
}

func writeRanges(w io.Writer, ranges []state.Range, o Options) {
	for _, r := range ranges {
		fmt.Fprintf(w, "      partition %s [%d, %d) %s records\n", r.Partition, r.Start, r.End, Count(r.Records()))
	}
}

// rangesShort renders ranges on one line, eliding beyond four partitions.
func rangesShort(ranges []state.Range) string {
	var parts []string
	for i, r := range ranges {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("+%d partitions", len(ranges)-4))
			break
		}
		parts = append(parts, fmt.Sprintf("%s:[%d,%d)", r.Partition, r.Start, r.End))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// Count renders n with thousands separators.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Bytes renders a byte count in SI units.
func Bytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTPE"[exp])
}

// Plural renders "1 file", "2 files".
func Plural(n int64, one, many string) string {
	return Count(n) + " " + plural(n, one, many)
}

// CompactionText says what a compaction rewrites, and what a reader that
// globs the folders sees meanwhile.
func CompactionText(c planner.Compaction) string {
	files, bytes := 0, int64(0)
	for _, f := range c.Folders {
		files += len(f.Files)
		bytes += f.Bytes
	}
	readers := "readers that glob the folders read both sets until the old files are deleted"
	if c.Table != "" {
		readers = "committed to " + c.Table + " as one replace snapshot; the old files stay for its older snapshots until they expire, and readers that glob the folders read both sets until then"
	}
	what := fmt.Sprintf("compact destination %s (compaction %d): %s of %s (%s) in %s rewritten into files of %s, after the batches; %s",
		c.Destination, c.ID, Plural(int64(files), "file", "files"), Plural(int64(len(c.Replaces)), "manifest", "manifests"), Bytes(bytes),
		Plural(int64(len(c.Folders)), "folder", "folders"), Bytes(c.TargetSize), readers)
	if c.Resume {
		what = "finish what a run that died began: " + what
	}
	return what
}

// ExpiryText says what an expiry of a table's snapshots removes.
func ExpiryText(x planner.Expiry) string {
	if x.Snapshots == 0 {
		return fmt.Sprintf("delete %s in destination %s that only expired snapshots of %s referenced (an earlier expiry's, left by a run that died)", Plural(int64(x.Files), "file", "files"), x.Destination, x.Table)
	}
	what := fmt.Sprintf("expire %s of %s in destination %s, committed before %s", Plural(int64(x.Snapshots), "snapshot", "snapshots"), x.Table, x.Destination, x.OlderThan.UTC().Format(time.RFC3339))
	what += fmt.Sprintf(" (the oldest at %s, the newest at %s)", x.Oldest.UTC().Format(time.RFC3339), x.Newest.UTC().Format(time.RFC3339))
	return what + fmt.Sprintf(", after the compactions; then delete %s only expired snapshots referenced", Plural(int64(x.Files), "file", "files"))
}

// CompactionInto names the new files of a folder: the first, and how many
// there will be about.
func CompactionInto(f planner.CompactionFolder) string {
	if f.Estimate <= 1 {
		return f.Into
	}
	return fmt.Sprintf("%s … (about %d files)", f.Into, f.Estimate)
}
