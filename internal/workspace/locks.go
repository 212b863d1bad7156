package workspace

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// Locking a remote state (a state.ShardedBackend):
//
//   - apply takes, per sink, in the sink's turn, that sink's lease lock
//     "<key>.d/sinks/<sink>.lock" and not the run-wide one; a sink another
//     live process holds is skipped (not an error: exit code 0 when the
//     rest succeeded; 4, "locked", when every sink with changes was held
//     by others, so that nothing ran). Holding it, it checks that the
//     run-wide lock is free, and gives the sink back if not.
//   - commands that change the whole state (state rm, state mv, moved
//     blocks, the migration of a state in the old layout) take the run-wide
//     lock first, then the lock of every sink they touch.
//
// Object stores have no shared locks, so this ordering is what excludes the
// two: an applier takes its sink lock S before it checks the run-wide lock
// R; an exclusive command takes R before S. Were both to go on, the
// applier's check of R came before the command took R, hence its S before the
// command's S, which the command would then have been refused.
//
// -lock-timeout bounds every wait for another holder: for a lock taken
// (state.Lock), and for the run-wide lock to be free where an applier only
// checks it (rootFree).

// HeldLocks is a set of locks taken together and released together.
type HeldLocks struct {
	names   []string // "" is the run-wide lock
	locks   []state.Unlocker
	infos   []*state.LockInfo
	lost    chan struct{}
	once    sync.Once
	stop    chan struct{}
	watched sync.WaitGroup
}

func newHeldLocks() *HeldLocks {
	return &HeldLocks{lost: make(chan struct{}), stop: make(chan struct{})}
}

func (h *HeldLocks) add(name string, u state.Unlocker, info *state.LockInfo) {
	h.names = append(h.names, name)
	h.locks = append(h.locks, u)
	h.infos = append(h.infos, info)
	h.watched.Add(1)
	go func() {
		defer h.watched.Done()
		defer crash.Report()
		select {
		case <-u.Lost():
			h.once.Do(func() { close(h.lost) })
		case <-h.stop:
		}
	}()
}

// Locks are the locks held, the run-wide one first.
func (h *HeldLocks) Locks() []state.Unlocker { return h.locks }

// Lost is closed when any of the locks is lost.
func (h *HeldLocks) Lost() <-chan struct{} { return h.lost }

// Held returns the first of the locks that may be lost (state.Unlocker.Held).
func (h *HeldLocks) Held() error {
	for i, u := range h.locks {
		if err := u.Held(); err != nil {
			if h.names[i] != "" {
				return fmt.Errorf("the lock of sink %q: %w", h.names[i], err)
			}
			return err
		}
	}
	return nil
}

// Unlock releases every lock, the sinks' before the run-wide one (the
// reverse of the order they are taken in), and returns the first failure.
func (h *HeldLocks) Unlock() error {
	select {
	case <-h.stop:
		return nil
	default:
		close(h.stop)
	}
	h.watched.Wait()
	var first error
	for i := len(h.locks) - 1; i >= 0; i-- {
		if err := h.locks[i].Unlock(); err != nil && first == nil {
			what := "the state lock"
			if h.names[i] != "" {
				what = fmt.Sprintf("the lock of sink %q", h.names[i])
			}
			first = fmt.Errorf("%s (ID %s): %w", what, h.infos[i].ID, err)
		}
	}
	return first
}

// LockExclusive takes the run-wide lock, then the lock of every sink of
// sinks, waiting up to timeout for each, as the commands that change the
// whole state do. Any refusal releases what was taken.
func LockExclusive(ctx context.Context, b state.Backend, sinks []string, op, version string, timeout time.Duration) (*HeldLocks, error) {
	held := newHeldLocks()
	info := state.NewLockInfo(op, version)
	u, err := state.Lock(ctx, b, info, timeout)
	if err != nil {
		return nil, err
	}
	held.add("", u, info)
	sb, ok := b.(state.ShardedBackend)
	if !ok {
		return held, nil
	}
	sinks = slices.Compact(slices.Sorted(slices.Values(sinks)))
	for _, name := range sinks {
		info := state.NewLockInfo(op, version)
		u, err := state.Lock(ctx, sb.SinkLock(name), info, timeout)
		if err != nil {
			held.Unlock()
			var locked *state.LockedError
			if errors.As(err, &locked) {
				locked.Path = fmt.Sprintf("%s (sink %q)", b.Describe(), name)
			}
			return nil, err
		}
		held.add(name, u, info)
	}
	return held, nil
}

// LockWholeState takes the locks of a command that changes the whole state
// (state rm, state mv): LockExclusive of sinks and, on a remote state, of
// every sink the state holds, so that no apply of one of them runs
// meanwhile. The state is read first, without a lock, to list those. A
// lock not taken is a *LockError; a state that could not be read is not.
func LockWholeState(ctx context.Context, b state.Backend, sinks []string, op, version string, timeout time.Duration) (*HeldLocks, error) {
	if _, ok := b.(state.ShardedBackend); ok {
		peek, err := state.Load(ctx, b, version)
		if err != nil {
			return nil, err
		}
		sinks = append(slices.Clone(sinks), peek.State().SinkNames()...)
	}
	held, err := LockExclusive(ctx, b, sinks, op, version, timeout)
	if err != nil {
		return nil, &LockError{err}
	}
	return held, nil
}

// SinkLockNames lists, in name order, the sinks whose locks a remote state
// may hold: those cfg declares and those the state holds, when it can be
// read (lock and force-unlock show and find locks whatever the state says).
func SinkLockNames(ctx context.Context, cfg *config.Config, b state.Backend, version string) []string {
	names := map[string]bool{}
	for _, s := range cfg.Sinks {
		names[s.Name] = true
	}
	if mgr, err := state.Load(ctx, b, version); err == nil {
		for _, n := range mgr.State().SinkNames() {
			names[n] = true
		}
	}
	return slices.Sorted(maps.Keys(names))
}

// rootFree waits up to timeout for the run-wide lock of sb to have no live
// holder, polling as state.Lock retries, and returns the *state.LockedError
// naming the holder when it still has one.
func rootFree(ctx context.Context, sb state.ShardedBackend, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	delay := 100 * time.Millisecond
	for {
		holder, silent, err := sb.RootLock().Live(ctx)
		if err != nil || holder == nil {
			return err
		}
		locked := &state.LockedError{Holder: holder, Path: sb.Describe(), Leased: true, Silent: silent}
		remaining := time.Until(deadline)
		if remaining <= 0 {
			return locked
		}
		select {
		case <-ctx.Done():
			return locked
		case <-time.After(min(delay, remaining)):
		}
		if delay < 2*time.Second {
			delay *= 2
		}
	}
}

// sinkClaims takes, for apply on a sharded state, each sink's lock in the
// sink's turn, rather than every lock up front: a process holds at most
// -parallelism sinks, and the processes started beside it take the others.
type sinkClaims struct {
	backend state.ShardedBackend
	timeout time.Duration
	version string
	rep     Reporter
	ws      *Workspace
	mgr     *state.Manager
	plan    PlanOptions

	mu       sync.Mutex
	lost     chan struct{}
	lostOnce sync.Once
	// claimed counts the sinks this run held; skipped is the first sink
	// refused, with its holder.
	claimed int
	skipped *state.LockedError
	// ids are the IDs of the sinks' locks held, by sink, and locks the
	// locks.
	ids   map[string]string
	locks map[string]state.Unlocker
}

// held says whether the lock of sink is surely still held
// (state.Unlocker.Held); nil for a sink this run holds no lock of.
func (c *sinkClaims) held(sink string) error {
	c.mu.Lock()
	u := c.locks[sink]
	c.mu.Unlock()
	if u == nil {
		return nil
	}
	if err := u.Held(); err != nil {
		return fmt.Errorf("the lock of sink %q: %w", sink, err)
	}
	return nil
}

// lock is the lock held on sink, or nil.
func (c *sinkClaims) lock(sink string) state.Unlocker {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.locks[sink]
}

// lockID is the ID of the lock held on sink, or "".
func (c *sinkClaims) lockID(sink string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ids[sink]
}

// allSkipped returns the refusal to report when every sink with changes was
// held by another process: nothing was applied because other runs are in
// progress, which apply reports as a locked state (exit 4), as it does for a
// state in one document. Nil when this run held any sink.
func (c *sinkClaims) allSkipped() *state.LockedError {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.claimed > 0 {
		return nil
	}
	return c.skipped
}

// claim is a Prepare: it takes the sink's lock (a sink another live process
// holds is skipped), checks that no command changing the whole state holds
// the run-wide lock, reads the sink's document again and plans the sink
// against it: another process may have applied it meanwhile. Holding the
// sink while the run-wide lock is held, it gives the sink back and waits
// for the run-wide lock to be free, within -lock-timeout, before it tries
// again.
func (c *sinkClaims) claim(ctx context.Context, sp *planner.SinkPlan) (*planner.SinkPlan, func(), error) {
	deadline := time.Now().Add(c.timeout)
	for {
		release, skipped, err := c.lockSink(ctx, sp.Name, time.Until(deadline))
		if err != nil || skipped {
			return nil, nil, err
		}
		fail := func(err error) (*planner.SinkPlan, func(), error) {
			release()
			return nil, nil, err
		}
		holder, silent, err := c.backend.RootLock().Live(ctx)
		if err != nil {
			return fail(fmt.Errorf("check the state lock: %w", err))
		}
		if holder != nil {
			// The sink is given back before waiting: the command holding
			// the run-wide lock may be waiting for it.
			release()
			if !time.Now().Before(deadline) {
				return nil, nil, &state.LockedError{Holder: holder, Path: c.backend.Describe(), Leased: true, Silent: silent}
			}
			if err := rootFree(ctx, c.backend, time.Until(deadline)); err != nil {
				var locked *state.LockedError
				if !errors.As(err, &locked) {
					err = fmt.Errorf("check the state lock: %w", err)
				}
				return nil, nil, err
			}
			continue
		}
		if err := c.mgr.ReloadSink(ctx, sp.Name); err != nil {
			return fail(err)
		}
		p, errs := c.ws.Only(sp.Name).Plan(ctx, c.mgr.State(), c.plan)
		if len(errs) > 0 {
			return fail(errors.Join(errs...))
		}
		if len(p.Reshards) > 0 {
			// Another process changed the sink's shards since this one looked:
			// the change is a whole-state command's, not a sink applier's.
			r := p.Reshards[0]
			return fail(fmt.Errorf("its sink %s is to be split from %d into %d shards, which is done under the run-wide lock; run apply again to do it", r.Sink, r.From, r.To))
		}
		if len(p.Sinks) != 1 || !p.Sinks[0].Changes() {
			// Applied by another process since this one planned it.
			return fail(nil)
		}
		return p.Sinks[0], release, nil
	}
}

// lockSink takes the lock of sink, waiting up to timeout, and watches it
// for loss; release gives it back. skipped is set when another live process
// holds it: the sink is reported as skipped.
func (c *sinkClaims) lockSink(ctx context.Context, sink string, timeout time.Duration) (release func(), skipped bool, err error) {
	info := state.NewLockInfo("apply", c.version)
	u, err := state.Lock(ctx, c.backend.SinkLock(sink), info, timeout)
	var locked *state.LockedError
	if errors.As(err, &locked) {
		c.mu.Lock()
		c.rep.SinkSkipped(sink, locked.Holder)
		if c.skipped == nil {
			c.skipped = locked
		}
		c.mu.Unlock()
		return nil, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("lock the sink: %w", err)
	}
	c.mu.Lock()
	c.claimed++
	if c.ids == nil {
		c.ids, c.locks = map[string]string{}, map[string]state.Unlocker{}
	}
	c.ids[sink], c.locks[sink] = info.ID, u
	reportTookOver(c.rep, u)
	c.mu.Unlock()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer crash.Report()
		select {
		case <-u.Lost():
			c.lostOnce.Do(func() { close(c.lost) })
		case <-stop:
		}
	}()
	release = func() {
		close(stop)
		<-done
		if err := u.Unlock(); err != nil {
			c.mu.Lock()
			c.rep.SinkLockLeft(sink, info.ID, err)
			c.mu.Unlock()
		}
	}
	return release, false, nil
}

// reportTookOver tells rep when u was taken over from a holder that died.
func reportTookOver(rep Reporter, u state.Unlocker) {
	t, ok := u.(state.TakenOver)
	if !ok {
		return
	}
	if h, silent := t.TookOver(); h != nil {
		rep.TookOver(h, silent)
	}
}
