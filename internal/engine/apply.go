package engine

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"

	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// Summary is what an apply of one sink did.
type Summary struct {
	Sink     string
	Batches  int64
	Repaired int64 // committed batches rewritten into destinations missing them
	Records  int64 // records read from the source
	Rejected int64 // records set aside under _rejected/ (on_invalid = "reject")
	Files    int64 // files written, all destinations
	Bytes    int64 // bytes written, all destinations
}

// ApplySink runs a sink's plan: cleanups, the batch in flight, then at most
// maxBatches new batches (0: all).
func (e *Engine) ApplySink(ctx context.Context, sink *Sink, plan *planner.SinkPlan, maxBatches int64) (Summary, error) {
	sum := Summary{Sink: sink.Name}
	// An unreachable catalog would fail the apply after the state and the
	// destinations were claimed: it fails it before anything is written.
	for _, d := range sink.Destinations {
		if d.Table != nil {
			if err := d.Table.Connect(ctx); err != nil {
				return sum, fmt.Errorf("open %s for destination %s: %w", d.Table.Catalog(), d.Name, err)
			}
		}
	}
	if plan.MovedFrom != "" {
		if err := e.MoveSink(ctx, sink, plan.MovedFrom); err != nil {
			return sum, err
		}
	}
	if plan.UndoMove != "" {
		if err := e.UndoMove(ctx, sink, plan.UndoMove); err != nil {
			return sum, err
		}
	}
	if err := e.claimAll(ctx, sink); err != nil {
		return sum, err
	}
	if err := checkWritable(ctx, sink); err != nil {
		return sum, err
	}
	for _, d := range sink.Destinations {
		if d.Table != nil {
			if err := d.Table.Open(ctx); err != nil {
				return sum, fmt.Errorf("open %s of destination %s: %w", d.Table.Describe(), d.Name, err)
			}
		}
	}
	if err := e.checkTables(ctx, sink); err != nil {
		return sum, err
	}
	if len(plan.Start) > 0 {
		err := e.update(ctx, sink.Name, func(s *state.State) error {
			if s.Sinks[sink.Name] != nil {
				return fmt.Errorf("the sink already has a checkpoint: the plan is stale")
			}
			ss := state.NewSink(state.SourceRef{Type: sink.SourceType, Name: sink.SourceName, Identity: plan.Snapshot.Identity})
			ss.Shard = sink.stateShard()
			for _, r := range plan.Start {
				ss.Offsets[r.Partition] = r.Start
			}
			s.Sinks[sink.Name] = ss
			return nil
		})
		if err != nil {
			return sum, fmt.Errorf("record the starting offsets of sink %s: %w", sink.Name, err)
		}
	}
	for _, c := range plan.Cleanups {
		d := sink.destination(c.Destination)
		if d == nil {
			continue
		}
		if err := e.fence(sink.Name); err != nil {
			return sum, fmt.Errorf("remove orphan %s from %s: %w", c.What(), d.Name, err)
		}
		var err error
		if c.Manifests != "" {
			err = removeMoveLeftover(ctx, sink, d, c.Manifests)
		} else {
			err = clearStaging(ctx, sink, d.Storage, c.Batch)
		}
		if err != nil {
			return sum, fmt.Errorf("remove orphan %s from %s: %w", c.What(), d.Name, err)
		}
		e.emit(Cleanup{Sink: sink.Name, Batch: c.Batch, Destination: c.Destination, StagedUploads: c.StagedUploads, Manifests: c.Manifests})
	}
	if err := e.removeOrphans(ctx, sink, plan.Tables); err != nil {
		return sum, err
	}
	if len(plan.Removed) > 0 {
		err := e.update(ctx, sink.Name, func(s *state.State) error {
			if ss := s.Sinks[sink.Name]; ss != nil {
				for _, d := range plan.Removed {
					delete(ss.Destinations, d)
				}
			}
			return nil
		})
		if err != nil {
			return sum, fmt.Errorf("drop removed destinations of sink %s: %w", sink.Name, err)
		}
	}
	if err := e.recordLayout(ctx, sink, plan); err != nil {
		return sum, err
	}
	if err := e.recordRenamed(ctx, sink, plan); err != nil {
		return sum, err
	}
	if plan.Resume != nil {
		if err := e.runBatch(ctx, sink, plan.Snapshot.Identity, *plan.Resume, resumed, &sum, nil); err != nil {
			return sum, err
		}
	}
	for _, b := range plan.Adopt {
		if err := e.runBatch(ctx, sink, plan.Snapshot.Identity, b, adopted, &sum, nil); err != nil {
			return sum, err
		}
	}
	for _, b := range plan.Repairs {
		if err := e.runBatch(ctx, sink, plan.Snapshot.Identity, b, repair, &sum, nil); err != nil {
			return sum, err
		}
	}
	if err := e.runNew(ctx, sink, plan, maxBatches, &sum); err != nil {
		return sum, err
	}
	if err := e.runCompactions(ctx, sink, plan); err != nil {
		return sum, err
	}
	return sum, e.runExpiries(ctx, sink, plan)
}

// runNew runs the plan's new batches. Each batch's intent is logged by the
// state write that commits the batch before it (group commit): one state
// write per batch instead of two, which is most of a small batch's cost. The
// state after that write is the state after the intent alone, so recovery is
// unchanged; the next batch is only chained while the run will go on to run
// it (not past -max-batches, not once interrupted).
func (e *Engine) runNew(ctx context.Context, sink *Sink, plan *planner.SinkPlan, maxBatches int64, sum *Summary) error {
	next, stop := iter.Pull(iter.Seq[planner.Batch](plan.New.Each))
	defer stop()
	b, ok := next()
	logged := false   // b's intent is in the state already
	var staged *ahead // b, staged already
	defer func() {
		if staged != nil {
			staged.drop() // the run stopped before it: nothing of it is on a store
		}
	}()
	for ok {
		if !logged {
			if maxBatches > 0 && sum.Batches >= maxBatches {
				return nil
			}
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		following, more := next()
		c := &chain{logged: logged, staged: staged}
		staged = nil // runBatch's now
		if more && (maxBatches <= 0 || sum.Batches+1 < maxBatches) {
			c.next = &following
		}
		err := e.runBatch(ctx, sink, plan.Snapshot.Identity, b, newBatch, sum, c)
		staged = c.ahead
		if err != nil {
			return err
		}
		b, ok, logged = following, more, c.nextLogged
	}
	return nil
}

// chain links a new batch to the one after it, whose intent its commit logs
// and which it may stage ahead.
type chain struct {
	logged     bool           // this batch's intent was logged by the previous commit
	staged     *ahead         // this batch, staged while the previous one committed
	next       *planner.Batch // the batch to log the intent of at commit, if any
	nextLogged bool           // the commit logged it
	ahead      *ahead         // next, being staged
}

// checkWritable writes and removes a small object in every destination, so
// that a destination that cannot be written fails before any intent is logged
// and the state stays untouched.
func checkWritable(ctx context.Context, sink *Sink) error {
	key := MetadataDir + "/" + sink.Name + "/.write-check"
	for _, d := range sink.Destinations {
		if err := providers.Put(ctx, d.Storage, key, []byte("streamctl write check\n")); err != nil {
			return fmt.Errorf("destination %s (%s) cannot be written: %w", d.Name, d.Storage.Describe(), err)
		}
		if err := d.Storage.Delete(ctx, key); err != nil {
			return fmt.Errorf("destination %s (%s): remove the write check: %w", d.Name, d.Storage.Describe(), err)
		}
	}
	return nil
}

// mode says which of the protocol's steps a batch goes through.
type mode int

const (
	newBatch mode = iota // intent, write, commit
	resumed              // write where missing, commit
	adopted              // intent with the ranges a destination committed, write where missing, commit
	repair               // write into destinations that miss a committed batch, record them
)

// logIntent records b as the sink's batch in flight: step 1 of the protocol.
func logIntent(s *state.State, sink *Sink, identity string, b planner.Batch, started time.Time) error {
	ss := s.Sinks[sink.Name]
	if ss == nil {
		ss = state.NewSink(state.SourceRef{Type: sink.SourceType, Name: sink.SourceName, Identity: identity})
		ss.Shard = sink.stateShard()
		s.Sinks[sink.Name] = ss
	}
	if ss.InFlight != nil {
		return fmt.Errorf("batch %d is already in flight", ss.InFlight.ID)
	}
	if b.ID != ss.NextBatch {
		return fmt.Errorf("the state expects batch %d next, not %d: it changed since the plan was made", ss.NextBatch, b.ID)
	}
	ss.Source = state.SourceRef{Type: sink.SourceType, Name: sink.SourceName, Identity: identity}
	t := started.UTC()
	ss.InFlight = &state.Batch{ID: b.ID, Ranges: b.Ranges, Destinations: b.Destinations, Layout: sink.LayoutHash, Records: b.Records, Started: &t}
	if sink.LayoutHash != "" && (ss.Layout == nil || ss.Layout.Hash != sink.LayoutHash) {
		ss.SetLayout(layoutOf(sink))
	}
	ss.NextBatch = b.ID + 1
	return nil
}

// runBatch takes one batch through the protocol. c, for a new batch, says
// whether its intent is logged already and which batch's intent its commit
// logs.
func (e *Engine) runBatch(ctx context.Context, sink *Sink, identity string, b planner.Batch, m mode, sum *Summary, c *chain) error {
	started := e.now()
	resume := m != newBatch
	switch {
	case c != nil && c.logged:
		// Logged by the previous batch's commit.
		fault.Point("after-intent")
	case m == newBatch || m == adopted:
		// 1. Intent.
		err := e.update(ctx, sink.Name, func(s *state.State) error {
			return logIntent(s, sink, identity, b, started)
		})
		if err != nil {
			return fmt.Errorf("log intent of batch %d of sink %s: %w", b.ID, sink.Name, err)
		}
		fault.Point("after-intent")
	}
	e.emit(BatchStarted{Sink: sink.Name, Batch: b.ID, Records: b.Records, Ranges: b.Ranges, Resume: resume, Repair: m == repair})

	// A batch staged ahead goes on once its intent is logged.
	var staged *ahead
	if c != nil && c.staged != nil {
		defer c.staged.cancel()
		if err := c.staged.take(ctx, e, sink); err != nil {
			return err
		}
		if !c.staged.skipped {
			staged = c.staged
		}
	}

	var pending []int
	if staged != nil {
		pending = staged.pending // looked up ahead
	} else {
		var err error
		if err = e.fence(sink.Name); err != nil { // it may clear what a crash left
			return fmt.Errorf("batch %d of sink %s: %w", b.ID, sink.Name, err)
		}
		if pending, err = pendingDestinations(ctx, sink, b, m); err != nil {
			return err
		}
	}

	if len(pending) > 0 {
		var (
			st    *staging
			stats pipeline.Stats
			err   error
		)
		if staged != nil {
			st, stats, err = staged.st, staged.stats, staged.err
		} else {
			st, stats, err = e.stage(ctx, sink, b, pending)
		}
		if err != nil {
			return err
		}
		fault.Point("after-stage")
		if c != nil && c.next != nil && canStageAhead(sink) {
			// Its encoding overlaps this batch's uploads; its own uploads
			// wait for its intent (see ahead).
			c.ahead = e.stageAhead(ctx, sink, *c.next)
		}
		if err := e.promoteAll(ctx, sink, identity, b, pending, st); err != nil {
			return err
		}
		sum.Records += stats.Records
		sum.Rejected += stats.Rejected
		for _, fl := range st.files {
			for _, f := range fl {
				sum.Files++
				sum.Bytes += f.Size
			}
		}
	}

	if m == repair {
		err := e.update(ctx, sink.Name, func(s *state.State) error {
			ss := s.Sinks[sink.Name]
			if ss == nil {
				return fmt.Errorf("the sink has no checkpoint")
			}
			ss.Record(b.ID, b.Pending)
			return nil
		})
		if err != nil {
			return fmt.Errorf("record the repair of batch %d of sink %s in the state: %w", b.ID, sink.Name, err)
		}
		sum.Repaired++
		e.emit(BatchRepaired{Sink: sink.Name, Batch: b.ID, Records: b.Records, Elapsed: e.now().Sub(started)})
		return nil
	}

	// 4. Commit.
	fault.Point("before-state-commit")
	var records int64
	committed := map[string]int64{}
	err := e.update(ctx, sink.Name, func(s *state.State) error {
		ss := s.Sinks[sink.Name]
		if ss == nil || ss.InFlight == nil || ss.InFlight.ID != b.ID {
			return fmt.Errorf("batch %d is no longer in flight in the state", b.ID)
		}
		records = ss.InFlight.Records
		now := e.now()
		ss.Commit(now, sink.History)
		for part, off := range ss.Offsets {
			committed[part] = off
		}
		// The next batch's intent, unless the run is being interrupted or
		// the state does not admit it: its own write then logs it, or
		// refuses it with the reason.
		if c != nil {
			c.nextLogged = false
			if c.next != nil && ctx.Err() == nil && ss.InFlight == nil && ss.NextBatch == c.next.ID {
				if err := logIntent(s, sink, identity, *c.next, now); err != nil {
					return err
				}
				c.nextLogged = true
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("commit batch %d of sink %s to the state: %w", b.ID, sink.Name, err)
	}
	fault.Point("after-state-commit")
	sum.Batches++
	if oc, ok := sink.Source.(providers.OffsetCommitter); ok {
		// For lag dashboards only: the state stays the truth, so a failure here
		// is reported and does not fail the batch.
		if err := oc.CommitGroup(ctx, committed); err != nil {
			e.emit(Warning{Sink: sink.Name, Batch: b.ID, Message: fmt.Sprintf("commit offsets to the consumer group: %v", err)})
		}
	}
	if (b.ID+1)%IndexInterval == 0 {
		e.compact(ctx, sink, b.ID+1)
	}
	e.emit(BatchCommitted{Sink: sink.Name, Batch: b.ID, Records: records, Elapsed: e.now().Sub(started), Resume: resume})
	return nil
}

// pendingDestinations returns the destinations (indexed like b.Destinations)
// that do not hold the batch's manifest yet. Those that do are done with it:
// what a crash left staged there is cleaned up.
func pendingDestinations(ctx context.Context, sink *Sink, b planner.Batch, m mode) ([]int, error) {
	var pending []int
	for i, name := range b.Destinations {
		if m == repair && !slices.Contains(b.Pending, name) {
			continue
		}
		d := sink.destination(name)
		if d == nil {
			return nil, fmt.Errorf("batch %d of sink %s: destination %s is not configured", b.ID, sink.Name, name)
		}
		// A new batch is past every block compacted so far; a batch replayed
		// (resumed, adopted, repaired) may sit in an indexed block.
		have, err := lookupManifest(ctx, d.Storage, sink.Name, b.ID, m != newBatch)
		if err != nil && !errors.Is(err, providers.ErrNotExist) {
			return nil, fmt.Errorf("check batch %d in %s: %w", b.ID, name, err)
		}
		if have != nil && !b.Replace {
			if !sameRanges(have, b.Ranges) {
				return nil, fmt.Errorf("batch %d in %s: its manifest covers other ranges than the state's in-flight batch; the destination was written under another state", b.ID, name)
			}
			// Committed there; a crash may have come before its cleanup.
			if err := clearStaging(ctx, sink, d.Storage, b.ID); err != nil {
				return nil, fmt.Errorf("clean up batch %d in %s: %w", b.ID, name, err)
			}
			continue
		}
		pending = append(pending, i)
	}
	return pending, nil
}

// compact gathers the manifests of the blocks committed below next into
// indexes, in every destination. The batches are committed already, so a
// failure is a warning: readers read single manifests as well, and the next
// block's compaction retries.
func (e *Engine) compact(ctx context.Context, sink *Sink, next int64) {
	for _, d := range sink.Destinations {
		if err := compactManifests(ctx, d.Storage, sink.Name, d.Name, next); err != nil {
			e.emit(Warning{Sink: sink.Name, Destination: d.Name, Message: fmt.Sprintf("%s: %v", d.Name, err)})
		}
	}
}
