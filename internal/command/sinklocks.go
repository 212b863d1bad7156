package command

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/workspace"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// Locking a remote state (a state.ShardedBackend):
//
//   - apply takes, per sink, in the sink's turn, that sink's lease lock
//     "<key>.d/sinks/<sink>.lock" and not the run-wide one; a sink another
//     live process holds is skipped (not an error: exit code 0 when the
//     rest succeeded; 4, "locked", when every sink with changes was held
//     by others, so that nothing ran). Holding it, it checks that the run-wide lock is free,
//     and gives the sink back (an error) if not.
//   - commands that change the whole state (state rm, state mv, moved
//     blocks, the migration of a state in the old layout) take the run-wide
//     lock first, then the lock of every sink they touch.
//
// Object stores have no shared locks, so this ordering is what excludes the
// two: an applier takes its sink lock S before it checks the run-wide lock
// R; an exclusive command takes R before S. Were both to go on, the
// applier's check of R came before the command took R, hence its S before the
// command's S, which the command would then have been refused.

// skippedSink is a sink another live process is applying.
type skippedSink struct {
	Sink   string
	Holder *state.LockInfo
}

func (s skippedSink) message() string {
	h := s.Holder
	if h == nil {
		return fmt.Sprintf("sink %q is being applied by another process: skipped", s.Sink)
	}
	user, host, ok := strings.Cut(h.Who, "@")
	if !ok {
		host = "an unknown host"
	}
	return fmt.Sprintf("sink %q is being applied by %s (pid %d on %s, lock %s, %s): skipped", s.Sink, user, h.PID, host, h.ID, h.Operation)
}

// heldLocks is a set of locks taken together and released together.
type heldLocks struct {
	names   []string // "" is the run-wide lock
	locks   []state.Unlocker
	infos   []*state.LockInfo
	lost    chan struct{}
	once    sync.Once
	stop    chan struct{}
	watched sync.WaitGroup
}

func newHeldLocks() *heldLocks {
	return &heldLocks{lost: make(chan struct{}), stop: make(chan struct{})}
}

func (h *heldLocks) add(name string, u state.Unlocker, info *state.LockInfo) {
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

// Lost is closed when any of the locks is lost.
func (h *heldLocks) Lost() <-chan struct{} { return h.lost }

// Held returns the first of the locks that may be lost (state.Unlocker.Held).
func (h *heldLocks) Held() error {
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

// sinks lists the sinks whose locks are held.
func (h *heldLocks) sinks() []string {
	var out []string
	for _, n := range h.names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// Unlock releases every lock, the sinks' before the run-wide one (the
// reverse of the order they are taken in), and returns the first failure.
func (h *heldLocks) Unlock() error {
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

// sinkClaims takes, for apply on a sharded state, each sink's lock in the
// sink's turn, rather than every lock up front: a process holds at most
// -parallelism sinks, and the processes started beside it take the others.
type sinkClaims struct {
	backend state.ShardedBackend
	timeout time.Duration
	v       applyView
	ws      *workspace.Workspace
	mgr     *state.Manager
	a       *applyArgs

	mu       sync.Mutex
	lost     chan struct{}
	lostOnce sync.Once
	// claimed counts the sinks this run held; skipped is the first sink
	// refused, with its holder.
	claimed int
	skipped *state.LockedError
	// skippedNames are the sinks held by another process, skipped.
	skippedNames map[string]bool
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

// lockID is the ID of the lock held on sink, or "".
func (c *sinkClaims) lockID(sink string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ids[sink]
}

// skippedSinks are the sinks skipped because another process held them.
func (c *sinkClaims) skippedSinks() map[string]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.skippedNames)
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

// claim is a workspace.Prepare: it takes the sink's lock (a sink another live
// process holds is skipped), checks that no command changing the whole state
// holds the run-wide lock, reads the sink's document again and plans the
// sink against it: another process may have applied it meanwhile.
func (c *sinkClaims) claim(ctx context.Context, sp *planner.SinkPlan) (*planner.SinkPlan, func(), error) {
	info := state.NewLockInfo("apply", Version)
	u, err := state.Lock(ctx, c.backend.SinkLock(sp.Name), info, c.timeout)
	var locked *state.LockedError
	if errors.As(err, &locked) {
		c.mu.Lock()
		c.v.warn("Sink skipped", skippedSink{Sink: sp.Name, Holder: locked.Holder}.message())
		if c.skipped == nil {
			c.skipped = locked
		}
		if c.skippedNames == nil {
			c.skippedNames = map[string]bool{}
		}
		c.skippedNames[sp.Name] = true
		c.mu.Unlock()
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("lock the sink: %w", err)
	}
	c.mu.Lock()
	c.claimed++
	if c.ids == nil {
		c.ids, c.locks = map[string]string{}, map[string]state.Unlocker{}
	}
	c.ids[sp.Name], c.locks[sp.Name] = info.ID, u
	tookOver(c.v, u)
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
	release := func() {
		close(stop)
		<-done
		if err := u.Unlock(); err != nil {
			c.mu.Lock()
			c.v.warn("Sink lock left behind", fmt.Sprintf("release the lock of sink %q: %v. It is taken over once its lease of %s expires, or now with: streamctl force-unlock %s", sp.Name, err, state.Lease, info.ID))
			c.mu.Unlock()
		}
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
		return fail(&state.LockedError{Holder: holder, Path: c.backend.Describe(), Leased: true, Silent: silent})
	}
	if err := c.mgr.ReloadSink(ctx, sp.Name); err != nil {
		return fail(err)
	}
	p, errs := c.ws.Only(sp.Name).Plan(ctx, c.mgr.State(), workspace.PlanOptions{Refresh: c.a.refresh, MaxBatches: c.a.maxBatches, Targeted: true, Version: Version})
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

// lockExclusive takes the run-wide lock, then the lock of every sink of
// sinks, waiting up to timeout for each, as the commands that change the
// whole state do. Any refusal releases what was taken.
func lockExclusive(ctx context.Context, b state.Backend, sinks []string, op string, timeout time.Duration) (*heldLocks, error) {
	held := newHeldLocks()
	info := state.NewLockInfo(op, Version)
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
		info := state.NewLockInfo(op, Version)
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

// tookOverAll warns for each lock taken over from a dead holder.
func tookOverAll(v ui, h *heldLocks) {
	for _, u := range h.locks {
		tookOver(v, u)
	}
}
