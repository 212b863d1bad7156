package command

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/planner"
)

// applyView is what apply reports: the plan, the engine's events while the
// batches run, with progress, and the summary.
type applyView interface {
	ui
	plan(p *planner.Plan, verbose bool)
	// upToDate ends an apply that has nothing to do.
	upToDate()
	// running starts the reports of the batches: batches and records are
	// the totals progress counts against.
	running(batches, records int64)
	// event reports what the engine did; destinations are the sink's.
	event(ev engine.Event, destinations []string)
	// stopped ends progress; safe to call twice.
	stopped()
	// failed reports the sinks' errors and the totals of a failed apply.
	failed(sum render.ApplySummary, errs []error)
	// complete reports the totals of a successful apply, and the batches
	// -max-batches left for later (deferred, with maxBatches the limit).
	// changes are the plan's changes besides batches (moves, layout
	// changes, …), as render.ChangesBesideBatches names them.
	complete(sum render.ApplySummary, changes []string, deferred, maxBatches int64)
}

func (m *Meta) newApplyView(asJSON, noColor bool) applyView {
	if asJSON {
		return &applyJSON{jsonUI: m.newJSONUI(), m: m}
	}
	return &applyHuman{humanUI: m.newHumanUI(noColor)}
}

// failedDetail says what a sink's failure leaves behind.
func failedDetail(err error) string {
	if errors.Is(err, context.Canceled) {
		return "The apply was interrupted. The batch in flight stays logged in the state; the next apply finishes it exactly once."
	}
	return "Nothing committed is lost: a batch that was logged in the state before the failure stays in flight, and the next apply finishes it exactly once after the cause is fixed."
}

func failedLine(s render.ApplySummary) string {
	return fmt.Sprintf("Apply failed after %s, %s, %s, %s in %.1fs.",
		render.Plural(s.Batches, "batch", "batches"), render.Plural(s.Records, "record", "records"), render.Plural(s.Files, "file", "files"), render.Bytes(s.Bytes), s.ElapsedSeconds)
}

// completeLine is the apply's last line. The changes that write no batch
// come after the totals, so that scripts reading "Apply complete! N
// batches" still do.
func completeLine(s render.ApplySummary, changes []string) string {
	line := fmt.Sprintf("Apply complete! %s, %s, %s, %s written in %.2fs (%s records/s)",
		render.Plural(s.Batches, "batch", "batches"), render.Plural(s.Records, "record", "records"), render.Plural(s.Files, "file", "files"), render.Bytes(s.Bytes), s.ElapsedSeconds, render.Count(int64(s.RecordsPerSecond)))
	if len(changes) > 0 {
		line += "; " + strings.Join(changes, ", ")
	}
	return line + "."
}

func deferredMessage(deferred, maxBatches int64) string {
	return fmt.Sprintf("%s left for a later apply (-max-batches=%d).", render.Plural(deferred, "batch is", "batches are"), maxBatches)
}

// applyHuman prints the plan and a line per event on stdout, under a
// progress line redrawn in place on a terminal.
type applyHuman struct {
	*humanUI
	prog *progress
}

func (v *applyHuman) plan(p *planner.Plan, verbose bool) {
	render.PlanText(v.m.Stdout, p, render.Options{Color: v.color(), Verbose: verbose})
}

func (v *applyHuman) upToDate() {}

func (v *applyHuman) running(batches, records int64) {
	fmt.Fprintln(v.m.Stdout)
	v.prog = newProgress(v.m, v.m.IsTerminal, nil, batches, records)
}

func (v *applyHuman) event(ev engine.Event, _ []string) {
	prog := v.prog
	switch ev := ev.(type) {
	case engine.Cleanup:
		prog.printf("%s: removed orphan %s in %s\n", ev.Sink, cleanupOf(ev).What(), ev.Destination)
	case engine.TableOrphanRemoved:
		prog.printf("%s: removed orphan %s in %s\n", ev.Sink, ev.What, ev.Destination)
	case engine.BatchStarted:
		prog.started(ev.Sink, ev.Batch)
		verb := "started"
		if ev.Resume {
			verb = "resumed"
		}
		prog.printf("%s: batch %d %s (%s records)\n", ev.Sink, ev.Batch, verb, render.Count(ev.Records))
	case engine.DestinationCommitted:
		prog.printf("%s: batch %d committed to %s: %s, %s records, %s\n", ev.Sink, ev.Batch, ev.Destination, render.Plural(int64(ev.Files), "file", "files"), render.Count(ev.Records), render.Bytes(ev.Bytes))
	case engine.Warning:
		prog.printf("%s: warning: %s\n", ev.Sink, ev.Message)
	case engine.BatchRepaired:
		prog.committed(ev.Sink, ev.Batch, ev.Records)
		prog.printf("%s: batch %d rewritten where it was missing\n", ev.Sink, ev.Batch)
	case engine.BatchCommitted:
		prog.committed(ev.Sink, ev.Batch, ev.Records)
		prog.printf("%s: batch %d committed in %s\n", ev.Sink, ev.Batch, ev.Elapsed.Round(time.Millisecond))
	case engine.Resharded:
		prog.printf("%s: checkpoints split again: %s\n", ev.Sink, reshardedWhat(ev))
	case engine.Moved:
		prog.printf("%s\n", render.MovedLine(ev.Sink, ev.From))
	case engine.Compacted:
		prog.printf("%s\n", compactedLine(ev))
	case engine.Expired:
		prog.printf("%s\n", expiredLine(ev))
	}
}

func (v *applyHuman) stopped() {
	if v.prog != nil {
		v.prog.stop()
	}
}

func (v *applyHuman) failed(sum render.ApplySummary, errs []error) {
	for _, err := range errs {
		fmt.Fprintf(v.m.Stderr, "\nError: %s\n\n  %s\n", err, failedDetail(err))
	}
	fmt.Fprintf(v.m.Stdout, "\n%s\n", failedLine(sum))
}

func (v *applyHuman) complete(sum render.ApplySummary, changes []string, deferred, maxBatches int64) {
	if deferred > 0 {
		fmt.Fprintf(v.m.Stdout, "\n%s\n", deferredMessage(deferred, maxBatches))
	}
	fmt.Fprintf(v.m.Stdout, "\n%s\n", completeLine(sum, changes))
}

// applyJSON writes the plan, a message per event and batch_progress
// messages (after every batch and as a heartbeat), then apply_summary.
type applyJSON struct {
	*jsonUI
	m    *Meta
	prog *progress
}

func (v *applyJSON) plan(p *planner.Plan, _ bool) { v.json.Plan(p, "apply") }

func (v *applyJSON) upToDate() {
	v.json.Apply(render.ApplySummary{Status: "complete", Sinks: []render.SinkSummary{}}, "Apply complete! Nothing to do: all sinks are up to date.")
}

func (v *applyJSON) running(batches, records int64) {
	v.prog = newProgress(v.m, false, v.json.BatchProgress, batches, records)
}

func (v *applyJSON) event(ev engine.Event, destinations []string) {
	switch ev := ev.(type) {
	case engine.Cleanup:
		v.json.Cleanup(ev.Sink, ev.Destination, cleanupOf(ev))
	case engine.TableOrphanRemoved:
		o := render.OrphanInfo{Sink: ev.Sink, Destination: ev.Destination, Table: ev.Table, Path: ev.Path, Kind: ev.Kind}
		if ev.Kind == planner.OrphanData {
			batch := ev.Batch
			o.Batch = &batch
		}
		v.json.TableOrphan(o, ev.What)
	case engine.BatchStarted:
		v.prog.started(ev.Sink, ev.Batch)
		v.json.BatchStart(ev.Sink, ev.Batch, ev.Records, destinations, ev.Ranges, ev.Resume)
	case engine.DestinationCommitted:
		v.json.DestinationCommitted(render.DestinationInfo{Sink: ev.Sink, Batch: ev.Batch, Destination: ev.Destination, Files: ev.Files, Records: ev.Records, Bytes: ev.Bytes})
	case engine.Warning:
		v.json.Diagnostic(render.Diagnostic{Severity: render.SeverityWarning, Summary: ev.Message, Address: "sink." + ev.Sink})
	case engine.BatchRepaired:
		v.json.BatchRepaired(ev.Sink, ev.Batch, ev.Records, ev.Elapsed)
		v.prog.committed(ev.Sink, ev.Batch, ev.Records)
	case engine.BatchCommitted:
		v.json.BatchCommitted(ev.Sink, ev.Batch, ev.Records, ev.Elapsed, ev.Resume)
		v.prog.committed(ev.Sink, ev.Batch, ev.Records)
	case engine.Resharded:
		v.json.Diagnostic(render.Diagnostic{Severity: render.SeverityWarning, Summary: "checkpoints split again: " + reshardedWhat(ev), Address: "sink." + ev.Sink})
	case engine.Moved:
		v.json.SinkMoved(ev.Sink, ev.From)
	case engine.Compacted:
		v.json.Info(compactedLine(ev))
	case engine.Expired:
		v.json.Info(expiredLine(ev))
	}
}

func (v *applyJSON) stopped() {
	if v.prog != nil {
		v.prog.stop()
	}
}

func (v *applyJSON) failed(sum render.ApplySummary, errs []error) {
	for _, err := range errs {
		v.json.Diagnostic(render.Diagnostic{Severity: render.SeverityError, Summary: err.Error(), Detail: failedDetail(err)})
	}
	v.json.Apply(sum, failedLine(sum))
}

func (v *applyJSON) complete(sum render.ApplySummary, changes []string, deferred, maxBatches int64) {
	if deferred > 0 {
		v.json.Info(deferredMessage(deferred, maxBatches))
	}
	v.json.Apply(sum, completeLine(sum, changes))
}

// cleanupOf is the cleanup an engine event reports.
func cleanupOf(ev engine.Cleanup) planner.Cleanup {
	return planner.Cleanup{Destination: ev.Destination, Batch: ev.Batch, StagedUploads: ev.StagedUploads, Manifests: ev.Manifests}
}

// reshardedWhat says what a change of shards did, e.g. "1 → 4 shards".
func reshardedWhat(ev engine.Resharded) string {
	return fmt.Sprintf("%d → %d shards", ev.From, ev.To)
}

// compactedLine says what a compaction did.
func compactedLine(ev engine.Compacted) string {
	if ev.Dropped != "" {
		return fmt.Sprintf("%s: compaction %d of %s dropped, nothing committed: %s; the next plan plans anew", ev.Sink, ev.Compaction, ev.Destination, ev.Dropped)
	}
	return fmt.Sprintf("%s: compaction %d of %s committed: the files of %s replaced by %s, %s", ev.Sink, ev.Compaction, ev.Destination,
		render.Plural(int64(ev.Replaced), "manifest", "manifests"), render.Plural(int64(ev.Files), "file", "files"), render.Bytes(ev.Bytes))
}

// expiredLine says what an expiry of a table's snapshots did.
func expiredLine(ev engine.Expired) string {
	return fmt.Sprintf("%s: %s of %s expired, %s only they referenced deleted", ev.Sink, render.Plural(int64(ev.Snapshots), "snapshot", "snapshots"), ev.Table,
		render.Plural(int64(ev.Files), "file", "files"))
}
