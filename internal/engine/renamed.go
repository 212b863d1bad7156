package engine

import (
	"context"
	"fmt"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// recordRenamed moves the committed offsets the state holds under partition
// names an older streamctl gave to the names the source gives now, before
// any batch: only the checkpoint's offsets change, so no record is read or
// written. The batch in flight and the history keep their ranges' names,
// with which they are written again if need be.
func (e *Engine) recordRenamed(ctx context.Context, sink *Sink, plan *planner.SinkPlan) error {
	if len(plan.Renamed) == 0 {
		return nil
	}
	err := e.update(ctx, sink.Name, func(s *state.State) error {
		ss := s.Sinks[sink.Name]
		if ss == nil {
			return nil
		}
		for _, r := range plan.Renamed {
			off, ok := ss.Offsets[r.From]
			if !ok {
				continue
			}
			if off > ss.Offsets[r.To] {
				ss.Offsets[r.To] = off
			}
			delete(ss.Offsets, r.From)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record the committed offsets of sink %s under the partitions' current names: %w", sink.Name, err)
	}
	return nil
}
