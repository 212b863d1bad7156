package workspace

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/faulty"
	"github.com/streamctl/streamctl/providers/mem"
	"github.com/streamctl/streamctl/state"
)

// Tests of the apply session's lock protocol on a remote state kept in
// memory: what a user sees of it is which sinks were applied, skipped or
// refused, the locks left in the state store, and the files in the
// destinations.

// The lock objects of the tests' state, whose key is streamctl/state.json.
const (
	rootLockKey = "streamctl/state.json.lock"
	sinkLockDir = "streamctl/state.json.d/sinks/"
)

// watchedStore is the state's store, telling each read of a key to reads.
type watchedStore struct {
	providers.Storage
	mu    sync.Mutex
	reads map[string]chan struct{}
}

// readsOf returns a channel told of each read of key from now on.
func (s *watchedStore) readsOf(key string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan struct{}, 64)
	s.reads[key] = ch
	return ch
}

func (s *watchedStore) Get(ctx context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	s.mu.Lock()
	if ch := s.reads[key]; ch != nil {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	s.mu.Unlock()
	return s.Storage.Get(ctx, key)
}

// remote is the fixture with its state in store, under the key
// streamctl/state.json, and sinks a and b, each into a bucket of its name.
func (f *fixture) remote(store providers.Storage) *config.Config {
	f.t.Helper()
	f.kinds = append(f.kinds, &providers.Kind{
		Type: "memstate",
		State: &providers.StateRole{
			Body: providers.Body{Config: memConfig{}},
			Open: func(context.Context, any) (providers.Storage, error) { return store, nil },
		},
	})
	return f.load(`
streamctl {
  state "memstate" {
    bucket = "state"
    key    = "streamctl/state.json"
  }
}
source "generate" "orders" {
  partitions            = 2
  records_per_partition = 10
}
` + memSink("a", "source.generate.orders", "a") + memSink("b", "source.generate.orders", "b"))
}

// sharded is the state backend of cfg, as another process opens it.
func (f *fixture) sharded(cfg *config.Config) state.ShardedBackend {
	f.t.Helper()
	b, err := StateBackend(context.Background(), cfg, f.kinds)
	if err != nil {
		f.t.Fatal(err)
	}
	return b.(state.ShardedBackend)
}

// hold takes l as another process (op) would, and releases it at the end.
func hold(t *testing.T, l state.Locker, op string) state.Unlocker {
	t.Helper()
	u, err := state.Lock(context.Background(), l, state.NewLockInfo(op, "other"), 0)
	if err != nil {
		t.Fatalf("%s: lock: %v", op, err)
	}
	t.Cleanup(func() { u.Unlock() })
	return u
}

// recorder is a Reporter that keeps what it is told.
type recorder struct {
	mu       sync.Mutex
	skipped  []string
	left     []string
	tookOver int
	lost     chan bool // told of each LockLost
	onEvent  func(engine.Event)
}

func newRecorder() *recorder { return &recorder{lost: make(chan bool, 4)} }

func (r *recorder) SinkSkipped(sink string, _ *state.LockInfo) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.skipped = append(r.skipped, sink)
}

func (r *recorder) TookOver(*state.LockInfo, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tookOver++
}

func (r *recorder) SinkLockLeft(sink, id string, _ error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.left = append(r.left, sink+" "+id)
}

func (r *recorder) LockLost(ofSink bool) { r.lost <- ofSink }

func (r *recorder) Event(ev engine.Event, _ []string) {
	if r.onEvent != nil {
		r.onEvent(ev)
	}
}

func (r *recorder) skippedSinks() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(slices.Values(r.skipped))
}

func sessionOptions(timeout time.Duration) SessionOptions {
	return SessionOptions{Lock: true, LockTimeout: timeout, Plan: PlanOptions{Refresh: true, Version: "test"}, Version: "test", Now: time.Now}
}

// begin starts a session that the test closes at its end.
func (f *fixture) begin(cfg *config.Config, opts SessionOptions, rep Reporter) *Session {
	f.t.Helper()
	s, err := Begin(context.Background(), cfg, f.kinds, opts, rep)
	f.t.Cleanup(func() { s.Close() })
	if err != nil {
		f.t.Fatalf("begin: %v", err)
	}
	return s
}

// planned is the session's plan, which must have changes.
func planned(t *testing.T, s *Session) *planner.Plan {
	t.Helper()
	p, errs := s.Plan(time.Now())
	if len(errs) > 0 {
		t.Fatalf("plan: %v", errs)
	}
	if !p.Changes() {
		t.Fatal("the plan has no changes")
	}
	return p
}

// applied lists the sinks the state holds committed records of.
func applied(t *testing.T, f *fixture, cfg *config.Config) []string {
	t.Helper()
	mgr := f.state(cfg)
	var out []string
	for name, s := range mgr.State().Sinks {
		if s.CommittedRecords > 0 {
			out = append(out, name)
		}
	}
	return slices.Sorted(slices.Values(out))
}

// dataKeys lists the objects of bucket outside streamctl's own folders: the
// data files readers see.
func dataKeys(f *fixture, bucket string) []string {
	var out []string
	for _, k := range f.bucket(bucket).Keys() {
		if !strings.HasPrefix(k, "_streamctl/") && !strings.HasPrefix(k, "_temporary/") {
			out = append(out, k)
		}
	}
	return out
}

func TestSessionSkipsASinkAnotherProcessHolds(t *testing.T) {
	f := newFixture(t)
	cfg := f.remote(mem.New("state"))
	other := hold(t, f.sharded(cfg).SinkLock("b"), "apply")

	rep := newRecorder()
	s := f.begin(cfg, sessionOptions(0), rep)
	r := s.Apply(planned(t, s), 2)
	if len(r.Errs) > 0 || r.Locked != nil {
		t.Fatalf("apply: errors %v, locked %v", r.Errs, r.Locked)
	}
	if got := rep.skippedSinks(); !slices.Equal(got, []string{"b"}) {
		t.Errorf("skipped %v, want [b]", got)
	}
	if got := applied(t, f, cfg); !slices.Equal(got, []string{"a"}) {
		t.Errorf("applied %v, want [a]", got)
	}
	if keys := dataKeys(f, "b"); len(keys) > 0 {
		t.Errorf("the held sink b was written: %v", keys)
	}

	// Once its holder is done, the next run applies it.
	other.Unlock()
	s.Close()
	s = f.begin(cfg, sessionOptions(0), newRecorder())
	if r := s.Apply(planned(t, s), 2); len(r.Errs) > 0 || r.Locked != nil {
		t.Fatalf("apply again: errors %v, locked %v", r.Errs, r.Locked)
	}
	if got := applied(t, f, cfg); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("applied %v, want [a b]", got)
	}
}

func TestSessionWithEverySinkHeldIsLocked(t *testing.T) {
	f := newFixture(t)
	cfg := f.remote(mem.New("state"))
	sb := f.sharded(cfg)
	hold(t, sb.SinkLock("a"), "apply")
	hold(t, sb.SinkLock("b"), "apply")

	rep := newRecorder()
	s := f.begin(cfg, sessionOptions(0), rep)
	r := s.Apply(planned(t, s), 2)
	if len(r.Errs) > 0 {
		t.Fatalf("apply: %v", r.Errs)
	}
	// The command reports it as a locked state: exit code 4.
	var locked *state.LockedError
	if !errors.As(error(r.Locked), &locked) || locked.Holder == nil || locked.Holder.Operation != "apply" {
		t.Fatalf("locked = %v, want the refusal naming the other apply", r.Locked)
	}
	if got := rep.skippedSinks(); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("skipped %v, want [a b]", got)
	}
	if got := applied(t, f, cfg); len(got) > 0 {
		t.Errorf("applied %v with every sink held by another process", got)
	}
}

func TestSessionGivesItsSinkBackToTheRunWideLock(t *testing.T) {
	f := newFixture(t)
	cfg := f.remote(mem.New("state"))
	sb := f.sharded(cfg)
	s := f.begin(cfg, sessionOptions(0), newRecorder())
	p := planned(t, s)

	// A command changing the whole state (state rm, a moved block) takes
	// the run-wide lock after this run began.
	hold(t, sb, "state rm")
	r := s.Apply(p, 1)
	if len(r.Errs) != 2 {
		t.Fatalf("apply: errors %v, want one per sink", r.Errs)
	}
	for _, err := range r.Errs {
		var locked *state.LockedError
		if !errors.As(err, &locked) || locked.Holder.Operation != "state rm" {
			t.Errorf("error %v, want the run-wide lock's refusal naming state rm", err)
		}
	}
	if got := applied(t, f, cfg); len(got) > 0 {
		t.Errorf("applied %v under the run-wide lock of another command", got)
	}
	// The sinks were given back: the command can take them.
	for _, name := range []string{"a", "b"} {
		if h, err := sb.SinkLock(name).LockInfo(context.Background()); err != nil || h != nil {
			t.Errorf("the lock of sink %s after the apply: %+v, %v; want it free", name, h, err)
		}
	}
}

func TestExclusiveLockIsRefusedWhileAnApplierHoldsASink(t *testing.T) {
	f := newFixture(t)
	cfg := f.remote(mem.New("state"))
	sb := f.sharded(cfg)
	hold(t, sb.SinkLock("b"), "apply")

	_, err := LockExclusive(context.Background(), sb, []string{"a", "b"}, "state rm", "test", 0)
	var locked *state.LockedError
	if !errors.As(err, &locked) || !strings.Contains(locked.Path, `(sink "b")`) {
		t.Fatalf("LockExclusive: %v, want refused on sink b", err)
	}
	// What it took is released: appliers go on, and so does the next try.
	for key, l := range map[string]state.Locker{"the run-wide lock": sb, "the lock of sink a": sb.SinkLock("a")} {
		if h, err := l.LockInfo(context.Background()); err != nil || h != nil {
			t.Errorf("%s after the refusal: %+v, %v; want it free", key, h, err)
		}
	}
}

// TestWholeStateLockHoldsEverySinkOfTheState: a command changing the whole
// state of a remote state (state rm, state mv) holds the run-wide lock and
// the lock of every sink the state holds, not only of those it names, so
// that no applier of any of them runs meanwhile; the locks are free after.
func TestWholeStateLockHoldsEverySinkOfTheState(t *testing.T) {
	f := newFixture(t)
	cfg := f.remote(mem.New("state"))
	s := f.begin(cfg, sessionOptions(0), newRecorder())
	if r := s.Apply(planned(t, s), 2); len(r.Errs) > 0 || r.Locked != nil {
		t.Fatalf("apply: errors %v, locked %v", r.Errs, r.Locked)
	}
	s.Close()
	sb := f.sharded(cfg)

	held, err := LockWholeState(context.Background(), sb, []string{"c"}, "state rm", "test", 0)
	if err != nil {
		t.Fatalf("LockWholeState: %v", err)
	}
	for _, name := range []string{"a", "b", "c"} {
		h, err := sb.SinkLock(name).LockInfo(context.Background())
		if err != nil || h == nil || h.Operation != "state rm" {
			t.Errorf("the lock of sink %s under state rm: %+v, %v; want held by state rm", name, h, err)
		}
	}
	if h, err := sb.LockInfo(context.Background()); err != nil || h == nil || h.Operation != "state rm" {
		t.Errorf("the run-wide lock under state rm: %+v, %v; want held by state rm", h, err)
	}
	if err := held.Unlock(); err != nil {
		t.Fatal(err)
	}
	for key, l := range map[string]state.Locker{"the run-wide lock": sb, "the lock of sink a": sb.SinkLock("a"), "the lock of sink c": sb.SinkLock("c")} {
		if h, err := l.LockInfo(context.Background()); err != nil || h != nil {
			t.Errorf("%s after the release: %+v, %v; want it free", key, h, err)
		}
	}

	// An applier holding a sink of the state refuses the command, as a lock.
	hold(t, sb.SinkLock("b"), "apply")
	_, err = LockWholeState(context.Background(), sb, nil, "state mv", "test", 0)
	var lockErr *LockError
	var locked *state.LockedError
	if !errors.As(err, &lockErr) || !errors.As(err, &locked) || !strings.Contains(locked.Path, `(sink "b")`) {
		t.Fatalf("LockWholeState with sink b held: %v, want a LockError refused on sink b", err)
	}
}

// TestSinkLockNamesOfConfigurationAndState: the sinks whose locks lock and
// force-unlock look at are those the configuration declares and those the
// state holds, a sink removed from the configuration included.
func TestSinkLockNamesOfConfigurationAndState(t *testing.T) {
	f := newFixture(t)
	cfg := f.remote(mem.New("state"))
	sb := f.sharded(cfg)
	onlyA := *cfg
	onlyA.Sinks = cfg.Sinks[:1]
	if got := SinkLockNames(context.Background(), &onlyA, sb, "test"); !slices.Equal(got, []string{"a"}) {
		t.Errorf("before any apply, with sink a declared: %v, want [a]", got)
	}
	s := f.begin(cfg, sessionOptions(0), newRecorder())
	if r := s.Apply(planned(t, s), 2); len(r.Errs) > 0 || r.Locked != nil {
		t.Fatalf("apply: errors %v, locked %v", r.Errs, r.Locked)
	}
	s.Close()
	if got := SinkLockNames(context.Background(), &onlyA, sb, "test"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("with sink a declared and a and b in the state: %v, want [a b]", got)
	}
}

// Issue 35: a worker with -lock-timeout=60s exited at once with "locked,
// retry with -lock-timeout" while another process held the run-wide lock.
func TestSessionWaitsForTheRunWideLockWithinTheTimeout(t *testing.T) {
	f := newFixture(t)
	store := &watchedStore{Storage: mem.New("state"), reads: map[string]chan struct{}{}}
	cfg := f.remote(store)
	other := hold(t, f.sharded(cfg), "state mv")

	reads := store.readsOf(rootLockKey)
	type begun struct {
		s   *Session
		err error
	}
	done := make(chan begun, 1)
	go func() {
		s, err := Begin(context.Background(), cfg, f.kinds, sessionOptions(time.Minute), newRecorder())
		done <- begun{s, err}
	}()
	// Released once the waiter has found it held and looked again.
	for range 2 {
		select {
		case <-reads:
		case b := <-done:
			b.s.Close()
			t.Fatalf("Begin returned while the run-wide lock was held, within -lock-timeout: %v", b.err)
		}
	}
	other.Unlock()
	b := <-done
	t.Cleanup(func() { b.s.Close() })
	if b.err != nil {
		t.Fatalf("Begin after the run-wide lock was released: %v", b.err)
	}
	if r := b.s.Apply(planned(t, b.s), 2); len(r.Errs) > 0 || r.Locked != nil {
		t.Fatalf("apply: errors %v, locked %v", r.Errs, r.Locked)
	}
	if got := applied(t, f, cfg); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("applied %v, want [a b]", got)
	}
}

func TestSessionClaimWaitsForTheRunWideLockWithinTheTimeout(t *testing.T) {
	f := newFixture(t)
	store := &watchedStore{Storage: mem.New("state"), reads: map[string]chan struct{}{}}
	cfg := f.remote(store)
	s := f.begin(cfg, sessionOptions(time.Minute), newRecorder())
	p := planned(t, s)
	other := hold(t, f.sharded(cfg), "state mv")

	reads := store.readsOf(rootLockKey)
	done := make(chan ApplyResult, 1)
	go func() { done <- s.Apply(p, 1) }()
	// The claim of the first sink reads the run-wide lock, gives the sink
	// back and waits: released once it looked again.
	for range 2 {
		select {
		case <-reads:
		case r := <-done:
			t.Fatalf("Apply returned while the run-wide lock was held, within -lock-timeout: errors %v", r.Errs)
		}
	}
	other.Unlock()
	if r := <-done; len(r.Errs) > 0 || r.Locked != nil {
		t.Fatalf("apply: errors %v, locked %v", r.Errs, r.Locked)
	}
	if got := applied(t, f, cfg); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("applied %v, want [a b]", got)
	}
}

func TestSessionWaitsForASinkWithinTheTimeout(t *testing.T) {
	f := newFixture(t)
	store := &watchedStore{Storage: mem.New("state"), reads: map[string]chan struct{}{}}
	cfg := f.remote(store)
	other := hold(t, f.sharded(cfg).SinkLock("b"), "apply")

	rep := newRecorder()
	s := f.begin(cfg, sessionOptions(time.Minute), rep)
	p := planned(t, s)
	reads := store.readsOf(sinkLockDir + "b.lock")
	done := make(chan ApplyResult, 1)
	go func() { done <- s.Apply(p, 2) }()
	for range 2 {
		select {
		case <-reads:
		case r := <-done:
			t.Fatalf("Apply returned while sink b was held, within -lock-timeout: errors %v, skipped %v", r.Errs, rep.skippedSinks())
		}
	}
	other.Unlock()
	if r := <-done; len(r.Errs) > 0 || r.Locked != nil {
		t.Fatalf("apply: errors %v, locked %v", r.Errs, r.Locked)
	}
	if got := rep.skippedSinks(); len(got) > 0 {
		t.Errorf("skipped %v, want none: b was released within the timeout", got)
	}
	if got := applied(t, f, cfg); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("applied %v, want [a b]", got)
	}
}

func TestSessionLockLostMidApplyFencesTheWrites(t *testing.T) {
	// A short heartbeat notices the force-unlock at once.
	defer func(d time.Duration) { state.HeartbeatInterval = d }(state.HeartbeatInterval)
	state.HeartbeatInterval = 10 * time.Millisecond

	f := newFixture(t)
	cfg := f.remote(mem.New("state"))
	sb := f.sharded(cfg)
	rep := newRecorder()
	var lost bool
	rep.onEvent = func(e engine.Event) {
		ev, ok := e.(engine.BatchStarted)
		if !ok || lost {
			return
		}
		// Another process force-unlocks the sink's lock while its first
		// batch runs; the batch goes on once this run knows.
		ctx := context.Background()
		h, err := sb.SinkLock(ev.Sink).LockInfo(ctx)
		if err != nil || h == nil {
			t.Errorf("the lock of sink %s while it runs: %+v, %v", ev.Sink, h, err)
			return
		}
		if err := sb.SinkLock(ev.Sink).ForceUnlock(ctx, h.ID); err != nil {
			t.Errorf("force-unlock: %v", err)
			return
		}
		select {
		case ofSink := <-rep.lost:
			if !ofSink {
				t.Error("the loss was reported as the run-wide lock's, not a sink's")
			}
		case <-time.After(time.Minute):
			t.Error("the loss of the sink's lock was not reported")
		}
		lost = true
	}
	s := f.begin(cfg, sessionOptions(0), rep)
	p := planned(t, s)
	// Sink a alone.
	p.Sinks = slices.DeleteFunc(p.Sinks, func(sp *planner.SinkPlan) bool { return sp.Name != "a" })
	r := s.Apply(p, 1)
	if !lost {
		t.Fatal("no batch started")
	}
	if len(r.Errs) != 1 || !(errors.Is(r.Errs[0], state.ErrLockLost) || errors.Is(r.Errs[0], context.Canceled)) {
		t.Fatalf("apply: errors %v, want the sink stopped by the lost lock", r.Errs)
	}
	if keys := dataKeys(f, "a"); len(keys) > 0 {
		t.Errorf("files published after the lock was lost: %v", keys)
	}
	if got := applied(t, f, cfg); len(got) > 0 {
		t.Errorf("committed %v after the lock was lost", got)
	}
	if s.Context().Err() == nil {
		t.Error("the session goes on after its lock was lost")
	}
}

func TestSessionReportsASinkLockLeftBehind(t *testing.T) {
	f := newFixture(t)
	// Every try of the release of sink a's lock fails: the first three
	// deletes of its key, each fault firing on its first match.
	store := faulty.Wrap(mem.New("state"),
		faulty.Fault{Op: faulty.DeleteIfMatch, Key: sinkLockDir + "a.lock", N: 1},
		faulty.Fault{Op: faulty.DeleteIfMatch, Key: "/a.lock", N: 1},
		faulty.Fault{Op: faulty.DeleteIfMatch, Key: "a.lock", N: 1})
	cfg := f.remote(store)
	rep := newRecorder()
	s := f.begin(cfg, sessionOptions(0), rep)
	if r := s.Apply(planned(t, s), 2); len(r.Errs) > 0 || r.Locked != nil {
		t.Fatalf("apply: errors %v, locked %v", r.Errs, r.Locked)
	}
	h, err := f.sharded(cfg).SinkLock("a").LockInfo(context.Background())
	if err != nil || h == nil {
		t.Fatalf("the lock of sink a: %+v, %v; want it left behind", h, err)
	}
	rep.mu.Lock()
	left := rep.left
	rep.mu.Unlock()
	if !slices.Equal(left, []string{"a " + h.ID}) {
		t.Errorf("reported left behind %v, want [a %s]: the ID force-unlock takes", left, h.ID)
	}
}
