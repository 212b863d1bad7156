package engine

import (
	"context"
	"fmt"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// layoutOf is the sink's output layout as the state records it.
func layoutOf(sink *Sink) *state.Layout {
	return &state.Layout{Hash: sink.LayoutHash, Settings: sink.LayoutSettings}
}

// recordLayout writes a layout change the plan shows into the sink's
// checkpoint before any batch, so that it is applied even when no batch
// is pending: the next plan then shows no change. Each batch's intent
// records the layout too (logIntent).
func (e *Engine) recordLayout(ctx context.Context, sink *Sink, plan *planner.SinkPlan) error {
	c := plan.LayoutChange
	if c == nil {
		return nil
	}
	if c.To != sink.LayoutHash {
		return fmt.Errorf("the plan writes sink %s with other output settings than the configuration now declares: it is stale. Run streamctl plan again", sink.Name)
	}
	err := e.update(ctx, sink.Name, func(s *state.State) error {
		if ss := s.Sinks[sink.Name]; ss != nil {
			ss.SetLayout(layoutOf(sink))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record the new output settings of sink %s in the state: %w", sink.Name, err)
	}
	return nil
}
