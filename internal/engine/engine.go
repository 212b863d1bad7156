// Package engine runs batches through the commit protocol of
// website/content/protocol.md. It is the only place that protocol is written:
//
//  1. intent: the batch's ranges are written into the state as in flight,
//     before any destination is touched; a retry replays exactly these ranges;
//  2. stage: the records are encoded once and written, in every destination
//     that still needs the batch, under <dest>/_temporary/<N>/ — or, on a
//     store that stages uploads (providers.Stager: S3 multipart uploads,
//     Azure blocks), on the files' final keys, invisible until published;
//  3. promote: each staged file is renamed (local), published (a Stager:
//     one request that moves no data) or copied then deleted (other object
//     stores) into place, then the batch manifest is written create-only:
//     the destination's commit point; _temporary/<N> is removed;
//  4. commit: once every destination has its manifest, the state marks the
//     batch committed.
//
// Which way a step takes on a destination (rename or copy, staged uploads
// or _temporary/<N>/, a prefix removed whole or object by object) follows
// the capabilities its store declares in providers.Features.
//
// A crash at any instant leaves a state from which the next run finishes the
// batch with the same ranges, the same file names and the same bytes.
package engine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// Engine runs sinks' batches against one state.
type Engine struct {
	State   *state.Manager
	Version string
	// OnEvent receives progress events; it may be called from several goroutines
	// at once, never concurrently for one sink.
	OnEvent func(Event)
	// Now is the clock; tests may fix it.
	Now func() time.Time
	// LockID, when set, gives the ID of the lock sink is applied under,
	// recorded in its manifests.
	LockID func(sink string) string
	// Fence, when set, is asked right before each write of sink's batches
	// reaches a store or the state, and stops the sink with its error: the
	// lock the sink is applied under may be gone (state.Unlocker.Held).
	Fence func(sink string) error
	// Bound, when set, returns ctx cancelled once the lock sink's writes
	// are made under may be lost (state.WhileHeld). Fence is asked before a
	// write starts; Bound stops a state write still under way then (a slow
	// store, the client's retries), which would otherwise land after the
	// lock's next holder read the sink's document.
	Bound func(ctx context.Context, sink string) (context.Context, context.CancelFunc)

	stateMu sync.Mutex
	// probe checks each destination's conditional writes once per run.
	probe providers.ConditionProbe
}

func (e *Engine) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// update changes the checkpoint of sink alone. The manager writes only that
// sink's document where the state keeps one per sink (so that sinks applied
// in parallel, here or by other processes, do not contend), and orders the
// writes of a state kept in one document.
func (e *Engine) update(ctx context.Context, sink string, change func(*state.State) error) error {
	if err := e.fence(sink); err != nil {
		return err
	}
	// Not cancelled with the run (a state write is finished, not cut), but
	// with the lock.
	wctx := context.WithoutCancel(ctx)
	if e.Bound != nil {
		var cancel context.CancelFunc
		wctx, cancel = e.Bound(wctx, sink)
		defer cancel()
	}
	err := e.State.UpdateSink(wctx, sink, change)
	if err != nil {
		// A write abandoned as the lease ran out, or one that waited past
		// it (a stalled host) and lost to the lock's next holder: say so,
		// rather than blame the store or "another writer".
		if ferr := e.fence(sink); ferr != nil {
			return fmt.Errorf("%w; %v", ferr, err)
		}
	}
	return err
}

// fence returns why sink's writes must stop, or nil (see Engine.Fence).
func (e *Engine) fence(sink string) error {
	if e.Fence == nil {
		return nil
	}
	return e.Fence(sink)
}

// ensureState writes the state if it does not exist yet, so that its lineage,
// which owner records name, outlives a crash before the first batch.
func (e *Engine) ensureState(ctx context.Context) error {
	e.stateMu.Lock()
	defer e.stateMu.Unlock()
	if e.State.Exists() {
		return nil
	}
	if err := e.State.Update(context.WithoutCancel(ctx), func(*state.State) error { return nil }); err != nil {
		return fmt.Errorf("create the state: %w", err)
	}
	return nil
}

// ownership is who this engine writes destinations as.
func (e *Engine) ownership() Ownership {
	e.stateMu.Lock()
	defer e.stateMu.Unlock()
	return Ownership{Lineage: e.State.State().Lineage, State: e.State.Backend().Describe()}
}

func (e *Engine) owner(sink *Sink, d *Destination) planner.Owner {
	own := e.ownership()
	return planner.Owner{Lineage: own.Lineage, Sink: sink.ownerName(), Destination: d.Name, State: own.State}
}

// claimAll claims every destination of the sink before anything is staged:
// a destination owned by another sink or state is refused untouched.
func (e *Engine) claimAll(ctx context.Context, sink *Sink) error {
	if err := e.ensureState(ctx); err != nil {
		return err
	}
	for i := range sink.Destinations {
		d := &sink.Destinations[i]
		// Owner records and manifests are create-only writes: a store that
		// ignores the condition would let two writers commit.
		if err := e.probe.Check(ctx, d.Storage, MetadataDir+"/.conditional-probe"); err != nil {
			return fmt.Errorf("destination %s: %w", d.Name, err)
		}
		if err := e.fence(sink.Name); err != nil {
			return fmt.Errorf("destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
		}
		if err := claim(ctx, d, sink.ownerName(), e.owner(sink, d), e.Version, e.now()); err != nil {
			return fmt.Errorf("destination %s (%s): %w", d.Name, d.Storage.Describe(), e.interruptedMoveError(sink, err))
		}
	}
	return nil
}
