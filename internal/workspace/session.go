package workspace

import (
	"context"
	"fmt"
	"time"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// Reporter is what an apply Session tells its caller while it runs, besides
// what its methods return. Calls about locks come one at a time; Event comes
// from the sinks' goroutines.
type Reporter interface {
	// SinkSkipped: another live process holds the lock of sink (holder,
	// when it could be read), so this run leaves the sink to it.
	SinkSkipped(sink string, holder *state.LockInfo)
	// TookOver: a lock was taken over from holder, a run that died, whose
	// lease the store had not seen refreshed for silent.
	TookOver(holder *state.LockInfo, silent time.Duration)
	// SinkLockLeft: the lock id of sink could not be released.
	SinkLockLeft(sink, id string, err error)
	// LockLost: a lock the session holds was lost (force-unlocked, or its
	// lease ran out); ofSink is set for the lock of one sink. The session
	// stops: its context is cancelled and every write is fenced.
	LockLost(ofSink bool)
	// Event reports what the engine did; destinations are the sink's.
	Event(ev engine.Event, destinations []string)
}

// SessionOptions tune an apply Session.
type SessionOptions struct {
	// Lock takes the state's locks; false runs without (-lock=false).
	Lock bool
	// LockTimeout bounds each wait for a lock another process holds.
	LockTimeout time.Duration
	// Saved is set when a saved plan is applied: its serial covers every
	// sink, so it runs under the run-wide lock.
	Saved bool
	// Plan tunes the session's plan and each sink's plan again under its
	// lock.
	Plan PlanOptions
	// Version is streamctl's, recorded in locks and the state.
	Version string
	// Now is the engine's clock; nil is time.Now.
	Now func() time.Time
	// WrapStorage, when set, wraps every destination's storage and a
	// remote state's (the debug log of store requests).
	WrapStorage func(providers.Storage) providers.Storage
}

// LockError is a lock Begin could not take, or could not check was free:
// Err is a *state.LockedError when another process holds it.
type LockError struct{ Err error }

func (e *LockError) Error() string { return e.Err.Error() }
func (e *LockError) Unwrap() error { return e.Err }

// ReleaseError is a lock Close could not release: it stays on Where until
// it is reachable and removed with force-unlock ID.
type ReleaseError struct {
	Err   error
	Where string
	ID    string
}

func (e *ReleaseError) Error() string { return e.Err.Error() }
func (e *ReleaseError) Unwrap() error { return e.Err }

// Session is one apply: its locks, state and workspace, from Begin to Close.
//
// On a remote state (a state.ShardedBackend) a session locks each sink in
// the sink's turn (see locks.go), unless it changes the whole state (a
// pending rename, a change of shards, a saved plan, the migration of a
// state in the one-document layout), which it locks whole up front, as it
// does any other state.
type Session struct {
	// Config is the configuration applied.
	Config *config.Config

	opts    SessionOptions
	rep     Reporter
	ctx     context.Context
	cancel  context.CancelFunc
	backend state.Backend
	mgr     *state.Manager
	ws      *Workspace
	held    *HeldLocks      // the locks held from the start
	runLock *state.LockInfo // the run-wide lock, when held from the start
	claims  *sinkClaims     // each sink's lock, in its turn
}

// Begin opens the state backend of cfg, takes its locks as opts says,
// watches them for loss, reads the state and opens the sources and
// destinations. The caller closes the session whatever Begin returns: a
// failing Begin may hold locks.
func Begin(ctx context.Context, cfg *config.Config, kinds providers.Kinds, opts SessionOptions, rep Reporter) (*Session, error) {
	s := &Session{Config: cfg, opts: opts, rep: rep}
	s.ctx, s.cancel = context.WithCancel(ctx)
	var err error
	if s.backend, err = StateBackendWrapped(s.ctx, cfg, kinds, opts.WrapStorage); err != nil {
		return s, err
	}
	if opts.Lock {
		if err := s.lock(); err != nil {
			return s, err
		}
		s.watch()
	}
	if s.mgr == nil {
		if s.mgr, err = state.Load(s.ctx, s.backend, opts.Version); err != nil {
			return s, err
		}
	}
	if s.ws, err = Open(s.ctx, cfg, kinds); err != nil {
		return s, err
	}
	if opts.WrapStorage != nil {
		s.ws.WrapStorages(opts.WrapStorage)
	}
	return s, nil
}

// lock chooses between per-sink locks and the run-wide lock and takes the
// locks held from the start.
func (s *Session) lock() error {
	ctx, cfg := s.ctx, s.Config
	sb, sharded := s.backend.(state.ShardedBackend)
	var (
		shared     bool
		stateSinks []string
		peek       *state.Manager
	)
	if sharded {
		// A remote state is applied per sink, unless the run changes
		// the whole state: a pending rename (moved blocks), a saved plan (whose
		// serial covers every sink), or the migration of a state still
		// in the one-document layout.
		var err error
		if peek, err = state.Load(ctx, s.backend, s.opts.Version); err != nil {
			return err
		}
		stateSinks = peek.State().SinkNames()
		// A moved block whose former sink the state no longer holds is
		// done: only a pending rename needs the whole state.
		pending := false
		for _, m := range cfg.Moved {
			pending = pending || peek.State().Sinks[m.From] != nil
		}
		// So does a change of a sink's number of shards.
		pending = pending || Resharding(cfg, peek.State())
		shared = !s.opts.Saved && !pending && (peek.Sharded() || !peek.Exists())
	}
	if shared {
		// Each sink's lock is taken in its turn (sinkClaims.claim); a
		// command changing the whole state holds the run off until it is
		// done, within -lock-timeout.
		if err := rootFree(ctx, sb, s.opts.LockTimeout); err != nil {
			return &LockError{err}
		}
		s.claims = &sinkClaims{backend: sb, timeout: s.opts.LockTimeout, version: s.opts.Version, rep: s.rep, plan: s.opts.Plan, lost: make(chan struct{})}
		s.claims.plan.Targeted = true
		s.held = newHeldLocks()
		// Read without a lock: each sink is read again once claimed.
		// The state is created first, so that workers started together
		// over none plan with the one lineage that wins.
		if err := peek.Create(context.WithoutCancel(ctx)); err != nil {
			return fmt.Errorf("create the state: %w", err)
		}
		s.mgr = peek
		return nil
	}
	sinks := stateSinks
	for _, sk := range cfg.Sinks {
		sinks = append(sinks, sk.Name)
		sinks = append(sinks, cfg.MovedFrom(sk.Name)...)
		if sh := sk.Shard; sh != nil {
			// Under -target too, a change of shards writes every
			// shard's checkpoint.
			for k := range sh.Count {
				sinks = append(sinks, config.ShardName(sh.Sink, k))
			}
		}
	}
	held, err := LockExclusive(ctx, s.backend, sinks, "apply", s.opts.Version, s.opts.LockTimeout)
	if err != nil {
		return &LockError{err}
	}
	s.held, s.runLock = held, held.infos[0]
	for _, u := range held.Locks() {
		reportTookOver(s.rep, u)
	}
	return nil
}

// watch stops the session when a lock is lost (force-unlock, a lease run
// out): the session's context is cancelled, and the state's
// compare-and-swap fences any write already under way.
func (s *Session) watch() {
	var claimLost chan struct{}
	if s.claims != nil {
		claimLost = s.claims.lost
	}
	held, ctx := s.held, s.ctx
	go func() {
		defer crash.Report()
		select {
		case <-held.Lost():
			s.rep.LockLost(false)
			s.cancel()
		case <-claimLost:
			s.rep.LockLost(true)
			s.cancel()
		case <-ctx.Done():
		}
	}()
}

// Context is the session's context: cancelled when a lock is lost or the
// session closes.
func (s *Session) Context() context.Context { return s.ctx }

// State is the session's state.
func (s *Session) State() *state.Manager { return s.mgr }

// Workspace is the session's opened sources and destinations.
func (s *Session) Workspace() *Workspace { return s.ws }

// CheckSaved checks a saved plan against the state: stale when the state or
// the configuration changed since the plan was made, mismatch for what the
// sources and destinations no longer match.
func (s *Session) CheckSaved(p *planner.Plan) (stale error, mismatch []error) {
	if err := CheckSaved(p, s.mgr, s.Config.Hash); err != nil {
		return err, nil
	}
	return nil, s.ws.VerifySaved(s.ctx, p, s.mgr.State())
}

// Plan plans the session's sinks against the state, stamped at now.
func (s *Session) Plan(now time.Time) (*planner.Plan, []error) {
	opts := s.opts.Plan
	// Read without a lock: each sink is planned again once claimed.
	opts.Provisional = s.claims != nil
	p, errs := s.ws.Plan(s.ctx, s.mgr.State(), opts)
	if len(errs) > 0 {
		return nil, errs
	}
	Stamp(p, s.mgr, s.Config, now)
	return p, nil
}

// ApplyResult is what Session.Apply did.
type ApplyResult struct {
	Sinks []SinkResult
	// Errs holds every sink's error.
	Errs []error
	// Locked is set when every sink with changes was held by another
	// process, so that nothing ran: the run is refused as locked.
	Locked *state.LockedError
}

// Apply runs p's sinks, up to parallelism at once, each under its lock:
// taken in its turn and the sink planned again on a per-sink state, or held
// from the start. Each write of a batch checks first that its locks are
// surely still held.
func (s *Session) Apply(p *planner.Plan, parallelism int) ApplyResult {
	eng := &engine.Engine{
		State:   s.mgr,
		Version: s.opts.Version,
		Now:     s.opts.Now,
		OnEvent: func(ev engine.Event) { s.rep.Event(ev, s.ws.DestinationNames(ev.SinkName())) },
		LockID:  s.lockID,
		Fence:   s.fence,
		Bound:   s.bound,
	}
	var prepare Prepare
	if s.claims != nil {
		s.claims.ws, s.claims.mgr = s.ws, s.mgr
		prepare = s.claims.claim
	}
	var r ApplyResult
	r.Sinks, r.Errs = s.ws.ApplyEach(s.ctx, eng, p, parallelism, prepare)
	if len(r.Errs) == 0 && s.claims != nil {
		r.Locked = s.claims.allSkipped()
	}
	return r
}

// lockID is the ID of the lock sink is applied under, or "".
func (s *Session) lockID(sink string) string {
	switch {
	case s.claims != nil:
		return s.claims.lockID(sink)
	case s.runLock != nil:
		return s.runLock.ID
	}
	return ""
}

// fence is the engine's Fence: each write of a batch checks the locks it is
// made under first (see state.Unlocker.Held), so that a heartbeat starved
// on a loaded host does not let this run write on after its lease could
// have been taken over.
func (s *Session) fence(sink string) error {
	if s.held != nil {
		if err := s.held.Held(); err != nil {
			return err
		}
	}
	if s.claims != nil {
		return s.claims.held(sink)
	}
	return nil
}

// bound is the engine's Bound: a state write of sink is abandoned once a
// lock it is made under may be lost, as fence refuses to start one then.
func (s *Session) bound(ctx context.Context, sink string) (context.Context, context.CancelFunc) {
	var locks []state.Unlocker
	if s.held != nil {
		locks = append(locks, s.held.Locks()...)
	}
	if s.claims != nil {
		if u := s.claims.lock(sink); u != nil {
			locks = append(locks, u)
		}
	}
	if len(locks) == 0 {
		return context.WithCancel(ctx)
	}
	return state.WhileHeld(ctx, locks...)
}

// Close closes the sources and destinations, stops the session's context
// and releases the locks held from the start; a *ReleaseError says which
// lock stays behind.
func (s *Session) Close() error {
	if s.ws != nil {
		s.ws.Close()
		s.ws = nil
	}
	s.cancel()
	if s.held == nil {
		return nil
	}
	if err := s.held.Unlock(); err != nil {
		id := "ID"
		if s.runLock != nil {
			id = s.runLock.ID
		}
		return &ReleaseError{Err: err, Where: s.backend.Describe(), ID: id}
	}
	return nil
}
