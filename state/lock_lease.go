package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/providers"
)

// A remote lock is a lease. Its holder refreshes it every HeartbeatInterval
// with a compare-and-swap; a lock the store has not seen refreshed for Lease
// belongs to a holder that died (OOM-killed, preempted) and is taken over by
// the next run, with a warning naming it. Taking over is safe because every
// state write is a compare-and-swap: the old holder, were it alive, cannot
// write anymore. Age is judged by the store's clock (the lock object's
// last-modified time against a write made just now), never by comparing two
// machines' wall clocks.
var (
	HeartbeatInterval = time.Duration(fault.Tunable("HEARTBEAT_MS", 15_000)) * time.Millisecond
	Lease             = time.Duration(fault.Tunable("LOCK_LEASE_MS", 60_000)) * time.Millisecond
)

// StaleAfter is the lease: kept under its former name for callers.
var StaleAfter = Lease

// now is this process's clock, which the lock's timestamps carry for people
// to read; test builds may skew it, and nothing is decided by it.
var now = func() time.Time { return time.Now().Add(fault.ClockSkew()) }

// LeaseLock is the lock of a document in an object store (S3, Azure Blob):
// a create-only "<key>.lock" object carrying the LockInfo, refreshed as a
// lease.
type LeaseLock struct {
	store providers.Storage
	key   string // of the document the lock guards
	where string // the document, for messages
	// probe checks the store's conditional writes once for all the locks
	// of one state (the run-wide one and every sink's).
	probe    *providers.ConditionProbe
	probeKey string
}

var _ Locker = (*LeaseLock)(nil)

// NewLeaseLock returns the lock of the document key in store.
func NewLeaseLock(store providers.Storage, key string) *LeaseLock {
	return &LeaseLock{store: store, key: key, where: store.Describe() + "/" + key, probe: &providers.ConditionProbe{}, probeKey: key + ".probe"}
}

// sibling is the lock of the document key in the same store, sharing b's
// probe of the store's conditional writes.
func (b *LeaseLock) sibling(key, where string) *LeaseLock {
	return &LeaseLock{store: b.store, key: key, where: where, probe: b.probe, probeKey: b.probeKey}
}

// Live returns the holder of the lock when it is held by a live holder: one
// the store has seen refresh it within the lease. A lock left by a dead
// holder, or none, gives nil.
func (b *LeaseLock) Live(ctx context.Context) (*LockInfo, time.Duration, error) {
	cur, info, err := providers.ReadAll(ctx, b.store, b.lockKey())
	if errors.Is(err, providers.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil || isReleased(cur) {
		return nil, 0, err
	}
	silent, err := b.silentFor(ctx, info.ModTime)
	if err != nil {
		return nil, 0, err
	}
	if silent > Lease {
		return nil, silent, nil
	}
	return parseLock(cur), silent, nil
}

func (b *LeaseLock) lockKey() string  { return b.key + ".lock" }
func (b *LeaseLock) clockKey() string { return b.key + ".lock.clock" }

// released is what a lock object holds once force-unlock freed it: the lock
// is free, and the next Lock takes it with a compare-and-swap. (Deleting the
// lock instead would be a second step that could remove a new holder's
// lock.) The first streamctl versions wrote {"id":"force-unlocked"}.
type released struct {
	ID         string    `json:"id"`
	Released   bool      `json:"released"`
	PreviousID string    `json:"previous_id,omitempty"`
	By         string    `json:"released_by,omitempty"`
	At         time.Time `json:"released_at"`
}

func isReleased(data []byte) bool {
	var r released
	return json.Unmarshal(data, &r) == nil && (r.Released || r.ID == "force-unlocked")
}

// maxLockTries bounds the create-or-take-over rounds of one Lock call.
const maxLockTries = 5

// Lock implements Locker: create-only, or take over a lock that was
// released or whose lease expired, by compare-and-swap on the version seen.
func (b *LeaseLock) Lock(ctx context.Context, info *LockInfo) (Unlocker, error) {
	// The lock and the state's compare-and-swap are conditional writes: a
	// store that ignores the conditions would let every run take the lock.
	if err := b.probe.Check(ctx, b.store, b.probeKey); err != nil {
		return nil, fmt.Errorf("lock state %s: %w", b.where, err)
	}
	info.Path = b.where
	t := now().UTC().Truncate(time.Millisecond)
	info.Created, info.Heartbeat = t, t
	data, _ := json.Marshal(info)
	for try := 1; ; try++ {
		sent := time.Now()
		version, err := b.store.PutIfAbsent(ctx, b.lockKey(), data)
		if err == nil {
			return b.held(info, version, nil, 0, sent), nil
		}
		if !errors.Is(err, providers.ErrExist) {
			return nil, fmt.Errorf("lock state %s: %w", b.where, err)
		}
		cur, curInfo, err := providers.ReadAll(ctx, b.store, b.lockKey())
		if errors.Is(err, providers.ErrNotExist) && try < maxLockTries {
			continue // released in between
		}
		if err != nil {
			return nil, fmt.Errorf("lock state %s: it is locked, and reading the holder failed: %w", b.where, err)
		}
		var holder *LockInfo
		var silent time.Duration
		if !isReleased(cur) {
			holder = parseLock(cur)
			if silent, err = b.silentFor(ctx, curInfo.ModTime); err != nil {
				return nil, fmt.Errorf("lock state %s: it is locked, and reading the store's clock failed: %w", b.where, err)
			}
			if silent <= Lease {
				return nil, &LockedError{Holder: holder, Path: b.where, Leased: holder != nil, Silent: silent}
			}
		}
		sent = time.Now()
		version, err = b.store.PutIfMatch(ctx, b.lockKey(), data, curInfo.Version)
		if err == nil {
			return b.held(info, version, holder, silent, sent), nil
		}
		if !errors.Is(err, providers.ErrPrecondition) && !errors.Is(err, providers.ErrNotExist) {
			return nil, fmt.Errorf("lock state %s: take over the lock: %w", b.where, err)
		}
		if try == maxLockTries {
			return nil, &LockedError{Holder: holder, Path: b.where, Leased: holder != nil, Silent: silent}
		}
		// Refreshed, released or taken meanwhile: look again.
	}
}

// silentFor is how long ago the store last saw the lock written, by the
// store's own clock: a small write now gives its current time.
func (b *LeaseLock) silentFor(ctx context.Context, modified time.Time) (time.Duration, error) {
	if err := providers.Put(ctx, b.store, b.clockKey(), []byte("streamctl lock clock\n")); err != nil {
		return 0, err
	}
	info, err := b.store.Stat(ctx, b.clockKey())
	if err != nil {
		return 0, err
	}
	return leastSilence(info.ModTime, modified), nil
}

// leastSilence is the least time that can have passed between two writes
// the store stamped modified and now. S3 and Azure give modification times
// in whole seconds (HTTP dates), each up to a second before the write, so
// their difference can overstate the silence by a second: counted whole, a
// lock refreshed 3.1 s ago could look 4 s silent and be taken over while its
// holder, by its own clock, still holds it. GCS gives the lock's time, read
// with the object, in whole seconds (Last-Modified) and now to the
// microsecond (its metadata's "updated"): a whole-second modified alone
// overstates it as much. A whole-second now only understates it.
func leastSilence(now, modified time.Time) time.Duration {
	d := now.Sub(modified)
	if modified.Nanosecond() == 0 {
		d -= time.Second
	}
	return d
}

func parseLock(data []byte) *LockInfo {
	var info LockInfo
	if err := json.Unmarshal(data, &info); err != nil || info.ID == "" {
		return &LockInfo{ID: "unknown", Operation: "unknown", Who: "unknown"}
	}
	return &info
}

// held starts the heartbeat of a lock the store took from a write sent at sent.
func (b *LeaseLock) held(info *LockInfo, version string, from *LockInfo, silent time.Duration, sent time.Time) *remoteLock {
	l := &remoteLock{b: b, info: *info, version: version, from: from, silent: silent, stop: make(chan struct{}), lost: make(chan struct{})}
	l.renewed(sent)
	l.wg.Add(1)
	go l.heartbeat()
	return l
}

type remoteLock struct {
	b       *LeaseLock
	info    LockInfo
	version string
	from    *LockInfo // the dead holder taken over from, or nil
	silent  time.Duration
	once    sync.Once
	stop    chan struct{}
	lost    chan struct{}
	isLost  bool
	wg      sync.WaitGroup
	mu      sync.Mutex
	// validUntil is when the lease may first have run out, by this
	// process's monotonic clock: Lease − HeartbeatInterval after the last
	// write the store confirmed, so that the holder stops before anyone
	// can take the lock over. Atomic: Held must not wait for a refresh in
	// flight, which holds mu.
	validUntil atomic.Pointer[time.Time]
}

// renewed records a write of the lock the store confirmed; sent is when it
// was sent, the earliest the store can have seen it.
func (l *remoteLock) renewed(sent time.Time) {
	until := sent.Add(Lease - HeartbeatInterval)
	l.validUntil.Store(&until)
}

// Held implements Unlocker, by this process's clock alone, without waiting
// for the heartbeat goroutine to run.
func (l *remoteLock) Held() error {
	if until := l.validUntil.Load(); !time.Now().Before(*until) {
		return fmt.Errorf("%w: no heartbeat of it reached %s for %s, and its lease of %s may have been taken over (an overloaded or paused host?)",
			ErrLockLost, l.b.where, (time.Since(*until) + Lease - HeartbeatInterval).Round(time.Millisecond), Lease)
	}
	select {
	case <-l.lost:
		return fmt.Errorf("%w: %s shows another holder (force-unlocked?)", ErrLockLost, l.b.where)
	default:
	}
	return nil
}

// heldUntil implements expiring: when Held starts failing unless a
// heartbeat lands before.
func (l *remoteLock) heldUntil() time.Time { return *l.validUntil.Load() }

// TookOver implements TakenOver.
func (l *remoteLock) TookOver() (*LockInfo, time.Duration) { return l.from, l.silent }

// heartbeat refreshes the lease. A failed refresh is retried (a lost or slow
// answer is no reason to stop); the lock is lost when the store shows another
// holder (a take-over, force-unlock), or when no refresh succeeded for so long
// that the lease may expire before the next one: the holder then stops before
// anyone can take the lock over.
func (l *remoteLock) heartbeat() {
	defer l.wg.Done()
	defer crash.Report() // run as a goroutine
	if stall := fault.Tunable("HEARTBEAT_STALL_MS", 0); stall > 0 {
		// Test builds: a heartbeat starved of CPU, while the holder runs on.
		select {
		case <-l.stop:
			return
		case <-time.After(time.Duration(stall) * time.Millisecond):
		}
	}
	wait := HeartbeatInterval
	for {
		deadline := *l.validUntil.Load()
		select {
		case <-l.stop:
			return
		case <-time.After(min(wait, max(time.Until(deadline), 0))):
		}
		if !time.Now().Before(deadline) {
			l.markLost()
			return
		}
		sent := time.Now()
		ok, lost := l.refresh(min(HeartbeatInterval, time.Until(deadline)))
		switch {
		case lost:
			l.markLost()
			return
		case ok:
			l.renewed(sent)
			wait = HeartbeatInterval
		default:
			wait = min(HeartbeatInterval, time.Second)
		}
	}
}

// refresh writes the lock with a new heartbeat. ok is set when the store holds
// it refreshed, lost when another holder has it.
func (l *remoteLock) refresh(timeout time.Duration) (ok, lost bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	l.info.Heartbeat = now().UTC().Truncate(time.Millisecond)
	data, _ := json.Marshal(l.info)
	v, err := l.b.store.PutIfMatch(ctx, l.b.lockKey(), data, l.version)
	if errors.Is(err, providers.ErrPrecondition) {
		// A refresh that timed out here may have landed there: the lock is
		// still ours while it carries our ID, at a version we did not see.
		// That refresh landed at a time we do not know, and this one wrote
		// nothing: it renews nothing. Written again at the version read, the
		// lock is renewed from now on (the caller's sent is earlier still).
		cur, info, rerr := providers.ReadAll(ctx, l.b.store, l.b.lockKey())
		if rerr != nil {
			return false, false
		}
		if isReleased(cur) || parseLock(cur).ID != l.info.ID {
			return false, true
		}
		l.version = info.Version
		v, err = l.b.store.PutIfMatch(ctx, l.b.lockKey(), data, l.version)
	}
	switch {
	case err == nil:
		l.version = v
		return true, false
	case errors.Is(err, providers.ErrNotExist):
		return false, true
	}
	// Not written: a slow or lost answer, or (after the read above) a lock
	// that changed again, which the next refresh reads.
	return false, false
}

func (l *remoteLock) markLost() {
	l.mu.Lock()
	l.isLost = true
	l.mu.Unlock()
	close(l.lost)
}

func (l *remoteLock) Lost() <-chan struct{} { return l.lost }

// unlockTries bounds the attempts to release a lock on a flaky network;
// a lock left behind anyway is taken over once its lease expires.
const unlockTries = 3

func (l *remoteLock) Unlock() error {
	var err error
	l.once.Do(func() {
		close(l.stop)
		l.wg.Wait()
		l.mu.Lock()
		lost := l.isLost
		l.mu.Unlock()
		if lost {
			return // another holder may have it now: not ours to delete
		}
		for try := 1; try <= unlockTries; try++ {
			if err = l.release(); err == nil {
				return
			}
			time.Sleep(time.Duration(try) * 200 * time.Millisecond)
		}
	})
	return err
}

// release reads the lock and deletes it at the version read while it
// carries our ID (If-Match on DELETE), so that a lock another holder took
// over meanwhile stays, even between the read and the delete. The read
// comes first for the stores that ignore the condition on DELETE (the
// conditional-write probe checks PUTs): there the release is as safe as a
// read and a delete can be.
func (l *remoteLock) release() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for range maxLockTries {
		version, ours, err := l.readOwn(ctx)
		if err != nil || !ours {
			return err
		}
		err = l.b.store.DeleteIfMatch(ctx, l.b.lockKey(), version)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, errors.ErrUnsupported):
			return l.releaseUnconditionally(ctx)
		case !errors.Is(err, providers.ErrPrecondition):
			return fmt.Errorf("unlock state %s: %w", l.b.where, err)
		}
		// Changed since the read: taken over, or a refresh of ours whose
		// answer was lost landed late. Read again.
	}
	return fmt.Errorf("unlock state %s: its version kept changing while it carried this run's ID", l.b.where)
}

// releaseUnconditionally is release on a store without conditional deletes:
// a take-over between the read and the delete loses the new holder its
// lock, which its heartbeat then reports, and the compare-and-swap of every
// state write keeps its writes safe.
func (l *remoteLock) releaseUnconditionally(ctx context.Context) error {
	if _, ours, err := l.readOwn(ctx); err != nil || !ours {
		return err
	}
	if err := l.b.store.Delete(ctx, l.b.lockKey()); err != nil {
		return fmt.Errorf("unlock state %s: %w", l.b.where, err)
	}
	return nil
}

// readOwn reads the lock and says whether it is still this holder's, and at
// which version. A lock gone, released or taken over is not ours to delete.
func (l *remoteLock) readOwn(ctx context.Context) (version string, ours bool, err error) {
	data, info, err := providers.ReadAll(ctx, l.b.store, l.b.lockKey())
	if errors.Is(err, providers.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("unlock state %s: %w", l.b.where, err)
	}
	if isReleased(data) || parseLock(data).ID != l.info.ID {
		return "", false, nil
	}
	return info.Version, true, nil
}

// LockInfo implements Locker.
func (b *LeaseLock) LockInfo(ctx context.Context) (*LockInfo, error) {
	data, _, err := providers.ReadAll(ctx, b.store, b.lockKey())
	if errors.Is(err, providers.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if isReleased(data) {
		return nil, nil
	}
	return parseLock(data), nil
}

// ForceUnlock implements Locker in one conditional step: the lock with ID id
// is replaced, by compare-and-swap on the version read, with a released
// marker. A holder refreshing it at this moment finds it gone; a
// force-unlock killed at any point leaves either the lock or a free one.
//
// A live holder's heartbeat changes the lock's version between the read and
// the write: the step is taken again while the lock keeps ID id, so that
// freeing the lock of a live holder (what force-unlock is for) does not
// depend on falling between two heartbeats.
func (b *LeaseLock) ForceUnlock(ctx context.Context, id string) error {
	const attempts = 5
	for attempt := 1; ; attempt++ {
		data, info, err := providers.ReadAll(ctx, b.store, b.lockKey())
		if errors.Is(err, providers.ErrNotExist) || (err == nil && isReleased(data)) {
			return fmt.Errorf("the state %s is not locked", b.where)
		}
		if err != nil {
			return err
		}
		if holder := parseLock(data); holder.ID != id {
			return fmt.Errorf("the lock on %s has ID %s, not %s", b.where, holder.ID, id)
		}
		marker, _ := json.Marshal(released{Released: true, PreviousID: id, By: "force-unlock", At: now().UTC().Truncate(time.Millisecond)})
		_, err = b.store.PutIfMatch(ctx, b.lockKey(), marker, info.Version)
		switch {
		case err == nil:
			return nil
		case !errors.Is(err, providers.ErrPrecondition):
			return fmt.Errorf("force-unlock %s: %w", b.where, err)
		case attempt == attempts:
			return fmt.Errorf("force-unlock %s: the lock changed %d times while it was being removed (its holder refreshes it faster than this store answers); run streamctl lock to see it, and try again", b.where, attempts)
		}
	}
}
