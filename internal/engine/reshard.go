package engine

import (
	"context"
	"fmt"

	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/state"
)

// Reshard changes the number of shards of sink to to: its checkpoints in the
// former layout are replaced by the new layout's, each holding the committed
// offsets of the partitions it now owns. No data is read or written; the
// destinations keep every batch, and the new checkpoints number theirs past
// every former one. The caller holds the run-wide lock and the lock of every
// checkpoint of the sink, former and new.
//
// The checkpoints are several documents on a remote state, which no store
// writes at once, so the change is logged first:
//
//  1. intent: the state records the change with every partition's
//     committed offset (state.Reshard), in one write;
//  2. rewrite: the former checkpoints are replaced by those derived from
//     the intent alone, document by document;
//  3. done: the intent is removed.
//
// A run that dies after 1 leaves the intent, and the next one redoes 2 from
// it, which writes the same checkpoints; until 3, plan shows the change as
// in progress and no shard of the sink is applied.
func (e *Engine) Reshard(ctx context.Context, sink string, to int) error {
	ctx = context.WithoutCancel(ctx) // each step is one write, and short
	r := e.State.State().Reshards[sink]
	switch {
	case r == nil:
		var err error
		if r, err = state.NewReshard(e.State.State(), sink, to); err != nil {
			return fmt.Errorf("split sink %s into %d shards: %w", sink, to, err)
		}
		err = e.State.Update(ctx, func(s *state.State) error {
			if s.Reshards == nil {
				s.Reshards = map[string]*state.Reshard{}
			}
			s.Reshards[sink] = r
			return nil
		})
		if err != nil {
			return fmt.Errorf("split sink %s into %d shards: log the change: %w", sink, to, err)
		}
		fault.Point("after-reshard-intent")
	case r.To != max(to, 1):
		return fmt.Errorf("split sink %s into %d shards: a change of the sink from %d to %d shards is in progress; set shards = %d to finish it, then change shards", sink, to, r.From, r.To, r.To)
	}
	err := e.State.Update(ctx, func(s *state.State) error {
		s.ApplyReshard(sink, r)
		return nil
	})
	if err != nil {
		return fmt.Errorf("split sink %s into %d shards: write the new checkpoints: %w; the next apply finishes the change", sink, to, err)
	}
	fault.Point("after-reshard-rewrite")
	err = e.State.Update(ctx, func(s *state.State) error {
		delete(s.Reshards, sink)
		return nil
	})
	if err != nil {
		return fmt.Errorf("split sink %s into %d shards: %w; the next apply finishes the change", sink, to, err)
	}
	e.emit(Resharded{Sink: sink, From: r.From, To: r.To})
	return nil
}
