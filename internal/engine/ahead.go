package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
)

// ahead is the next batch of a run, read and encoded while the batch before
// it is published and committed, so that on an object store the encoding of
// one batch overlaps the uploads of the other (a file goes whole at
// promotion, so within one batch they cannot overlap).
//
// The protocol's order still holds: nothing of a batch reaches a destination
// before its intent is logged. Its files are staged with held uploads
// (providers.StageOptions.Hold), which buffer locally and send nothing until
// take, after the intent, has cleared what an earlier attempt left staged.
// Until then a crash loses only local buffers, and a run that stops first
// drops them.
type ahead struct {
	batch   planner.Batch
	release chan struct{} // closed by take: the uploads may go
	cancel  context.CancelFunc
	done    chan struct{} // closed when the fields below are set

	skipped bool  // not staged: the batch takes the usual way
	pending []int // the destinations staged, indexed like batch.Destinations
	st      *staging
	stats   pipeline.Stats
	err     error
}

// canStageAhead says whether every destination stages on its final key, where
// held uploads keep the whole batch off the store. A destination staged under
// _temporary/<N>/ would be written before the batch's intent.
func canStageAhead(sink *Sink) bool {
	for _, d := range sink.Destinations {
		if d.Storage.Features().Stager == nil {
			return false
		}
	}
	return len(sink.Destinations) > 0
}

// stageAhead starts staging b, a new batch whose intent is not logged yet.
func (e *Engine) stageAhead(ctx context.Context, sink *Sink, b planner.Batch) *ahead {
	ctx, cancel := context.WithCancel(ctx)
	a := &ahead{batch: b, release: make(chan struct{}), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		defer crash.Report() // run as a goroutine
		// What runBatch looks up after the intent, read now: a destination
		// that is missing or already holds the batch takes the usual way,
		// which says why or cleans up.
		for i, name := range b.Destinations {
			d := sink.destination(name)
			if d == nil {
				a.skipped = true
				return
			}
			have, err := lookupManifest(ctx, d.Storage, sink.Name, b.ID, false)
			if have != nil || err != nil && !errors.Is(err, providers.ErrNotExist) {
				a.skipped = true
				return
			}
			a.pending = append(a.pending, i)
		}
		a.st, a.stats, a.err = e.encode(ctx, sink, b, a.pending, a.release)
	}()
	return a
}

// take lets the batch's uploads go once its intent is logged, and waits for
// its staging to end. Leftovers of an earlier attempt are cleared first, as
// stage does before it writes.
func (a *ahead) take(ctx context.Context, e *Engine, sink *Sink) error {
	if err := e.fence(sink.Name); err != nil {
		a.drop()
		return fmt.Errorf("stage batch %d: %w", a.batch.ID, err)
	}
	for _, name := range a.batch.Destinations {
		d := sink.destination(name)
		if d == nil {
			continue
		}
		if err := clearStaging(ctx, sink, d.Storage, a.batch.ID); err != nil {
			a.drop()
			return fmt.Errorf("stage batch %d to %s: clear %s: %w", a.batch.ID, d.Name, sink.temporaryPrefix(a.batch.ID), err)
		}
	}
	close(a.release)
	<-a.done
	return nil
}

// drop abandons the batch before its uploads went: they hold only local
// buffers, which are freed.
func (a *ahead) drop() {
	a.cancel()
	<-a.done
	if a.st != nil {
		for _, uploads := range a.st.staged {
			for _, u := range uploads {
				u.Release()
			}
		}
	}
}
