package workspace

import (
	"context"
	"fmt"
	"sync"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/planner"
)

// SinkResult is what applying one sink did.
type SinkResult struct {
	Sink    string
	Summary engine.Summary
	// Err is why the sink stopped, prefixed with the sink's name.
	Err error
}

// Apply runs the sinks of p that have changes through eng, up to
// parallelism at once. A failing sink does not stop the others. Results come
// in the order the sinks finished; errs holds every error, a sink of the plan
// that the workspace lacks included.
func (w *Workspace) Apply(ctx context.Context, eng *engine.Engine, p *planner.Plan, parallelism int) (results []SinkResult, errs []error) {
	return w.ApplyEach(ctx, eng, p, parallelism, nil)
}

// Prepare is called for each sink of a plan just before it runs (in the
// sink's turn, within -parallelism): it returns the plan to run instead of
// sp, or nil to skip the sink, and release, called once the sink is done.
// Processes that share a state use it to take the sink's lock then and plan
// the sink again against the state as it is once they hold it.
type Prepare func(ctx context.Context, sp *planner.SinkPlan) (plan *planner.SinkPlan, release func(), err error)

// ApplyEach is Apply, with prepare (when not nil) called before each sink.
func (w *Workspace) ApplyEach(ctx context.Context, eng *engine.Engine, p *planner.Plan, parallelism int, prepare Prepare) (results []SinkResult, errs []error) {
	var (
		wg  sync.WaitGroup
		sem = make(chan struct{}, parallelism)
		mu  sync.Mutex
	)
	// A sink's checkpoints are split again before any of its batches, which
	// were planned against the new ones.
	unsplit := map[string]bool{}
	for _, r := range p.Reshards {
		if err := eng.Reshard(ctx, r.Sink, r.To); err != nil {
			err = fmt.Errorf("sink %q: %w", r.Sink, err)
			results = append(results, SinkResult{Sink: r.Sink, Err: err})
			errs = append(errs, err)
			unsplit[r.Sink] = true
		}
	}
	for _, sp := range p.Sinks {
		if !sp.Changes() || sp.Shard != nil && unsplit[sp.Shard.Sink] || unsplit[sp.Name] {
			continue
		}
		es := w.Sink(sp.Name)
		if es == nil {
			// Sinks started earlier may be appending already.
			mu.Lock()
			errs = append(errs, fmt.Errorf("the plan has a sink %q that the configuration does not", sp.Name))
			mu.Unlock()
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			defer crash.Report()
			run := sp
			if prepare != nil {
				next, release, err := prepare(ctx, sp)
				if err != nil {
					mu.Lock()
					defer mu.Unlock()
					err = fmt.Errorf("sink %q: %w", sp.Name, err)
					results = append(results, SinkResult{Sink: sp.Name, Err: err})
					errs = append(errs, err)
					return
				}
				if release != nil {
					defer release()
				}
				if next == nil {
					return
				}
				run = next
			}
			// A plan's MaxBatches was applied by the planner: the plan holds
			// exactly the batches to run.
			sum, err := eng.ApplySink(ctx, es, run, 0)
			if err != nil {
				err = fmt.Errorf("sink %q: %w", sp.Name, err)
			}
			mu.Lock()
			defer mu.Unlock()
			results = append(results, SinkResult{Sink: sp.Name, Summary: sum, Err: err})
			if err != nil {
				errs = append(errs, err)
			}
		}()
	}
	wg.Wait()
	return results, errs
}
