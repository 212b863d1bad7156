package state

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/mem"
)

// wallClock is an in-memory store that stamps each object version with the
// wall-clock time it was written (to the nanosecond, as GCS does), so that
// lease arithmetic is tested against real elapsed time rather than the mem
// store's one-second-per-write counter.
type wallClock struct {
	*mem.Storage
	mu     sync.Mutex
	stamps map[string]time.Time // by version
}

func newWallClock() *wallClock {
	return &wallClock{Storage: mem.New("lease"), stamps: map[string]time.Time{}}
}

func (s *wallClock) stamp(info providers.ObjectInfo) providers.ObjectInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.stamps[info.Version]
	if !ok {
		// Written through Create: first seen by the Stat that follows it.
		t = time.Now()
		s.stamps[info.Version] = t
	}
	info.ModTime = t
	return info
}

func (s *wallClock) landed(version string) {
	s.mu.Lock()
	s.stamps[version] = time.Now()
	s.mu.Unlock()
}

func (s *wallClock) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	v, err := s.Storage.PutIfAbsent(ctx, key, data)
	if err == nil {
		s.landed(v)
	}
	return v, err
}

func (s *wallClock) PutIfMatch(ctx context.Context, key string, data []byte, version string) (string, error) {
	v, err := s.Storage.PutIfMatch(ctx, key, data, version)
	if err == nil {
		s.landed(v)
	}
	return v, err
}

func (s *wallClock) Stat(ctx context.Context, key string) (providers.ObjectInfo, error) {
	info, err := s.Storage.Stat(ctx, key)
	if err != nil {
		return info, err
	}
	return s.stamp(info), nil
}

func (s *wallClock) Get(ctx context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	r, info, err := s.Storage.Get(ctx, key)
	if err != nil {
		return r, info, err
	}
	return r, s.stamp(info), nil
}

// refreshTrap counts the holder's refreshes of its lock once armed: the
// store views below fail them from then on.
type refreshTrap struct {
	mu    sync.Mutex
	armed bool
	calls int
}

func (r *refreshTrap) arm() {
	r.mu.Lock()
	r.armed = true
	r.mu.Unlock()
}

func (r *refreshTrap) tried() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls
}

// refresh is which refresh since armed a write of key is, from 1, or 0 when
// not armed or not a write of the lock.
func (r *refreshTrap) refresh(key string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.armed || !strings.HasSuffix(key, ".lock") {
		return 0
	}
	r.calls++
	return r.calls
}

// lateRefresh is the holder's view of the store once armed: the next
// refresh of the lock lands but its answer comes after the refresh gave up
// (a slow store), the one after reaches the store, and none lands after
// that (the store, or the holder's link to it, stalls).
type lateRefresh struct {
	providers.Storage
	refreshTrap
}

func (s *lateRefresh) PutIfMatch(ctx context.Context, key string, data []byte, version string) (string, error) {
	switch n := s.refresh(key); {
	case n == 1:
		if _, err := s.Storage.PutIfMatch(ctx, key, data, version); err != nil {
			return "", err
		}
		<-ctx.Done()
		return "", ctx.Err()
	case n > 2:
		<-ctx.Done()
		return "", ctx.Err()
	}
	return s.Storage.PutIfMatch(ctx, key, data, version)
}

// TestLeaseHeldEndsBeforeATakeOverAfterALateRefresh: a refresh that lands
// after its holder gave up on it moves the lock's version; the next refresh
// then fails its condition, finds the lock still carrying its ID, and has
// written nothing. The store last saw the lock when the late refresh
// landed, and may hand it over a lease after that: its holder must have
// stopped by then, so a refresh that wrote nothing may not extend its hold.
func TestLeaseHeldEndsBeforeATakeOverAfterALateRefresh(t *testing.T) {
	hb, lease := HeartbeatInterval, Lease
	HeartbeatInterval, Lease = 300*time.Millisecond, 2*time.Second
	t.Cleanup(func() { HeartbeatInterval, Lease = hb, lease })

	store := newWallClock()
	view := &lateRefresh{Storage: store}
	holder := NewRemote(view, "orders.json")
	u, info := mustLock(t, holder, "apply")
	defer u.Unlock()
	time.Sleep(HeartbeatInterval / 2)
	view.arm()

	taker := NewRemote(store, "orders.json")
	ctx := context.Background()
	deadline := time.Now().Add(4 * Lease)
	for {
		tu, err := taker.Lock(ctx, NewLockInfo("apply", "test"))
		var locked *LockedError
		if errors.As(err, &locked) {
			if time.Now().After(deadline) {
				t.Fatalf("the lock of a stalled holder was never taken over: %v", err)
			}
			time.Sleep(5 * time.Millisecond)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		defer tu.Unlock()
		break
	}
	if err := u.Held(); err == nil {
		t.Fatalf("the lock of %s was taken over while its holder still held it by its own clock (refreshes tried: %d)", info.ID, view.tried())
	} else if !errors.Is(err, ErrLockLost) {
		t.Fatalf("Held after the take-over: %v, want ErrLockLost", err)
	}
}

// stalled is the holder's view of the store once armed: no refresh of the
// lock lands.
type stalled struct {
	providers.Storage
	refreshTrap
}

func (s *stalled) PutIfMatch(ctx context.Context, key string, data []byte, version string) (string, error) {
	if s.refresh(key) > 0 {
		<-ctx.Done()
		return "", ctx.Err()
	}
	return s.Storage.PutIfMatch(ctx, key, data, version)
}

// TestWhileHeldEndsBeforeTheLease: a write made with WhileHeld is cancelled,
// with the lost lock as its cause, once the heartbeats stop landing, and
// before the lease can be taken over; while they land, it runs on past
// several leases.
func TestWhileHeldEndsBeforeTheLease(t *testing.T) {
	hb, lease := HeartbeatInterval, Lease
	HeartbeatInterval, Lease = 200*time.Millisecond, 1500*time.Millisecond
	t.Cleanup(func() { HeartbeatInterval, Lease = hb, lease })

	store := newWallClock()
	view := &stalled{Storage: store}
	holder := NewRemote(view, "orders.json")
	u, _ := mustLock(t, holder, "apply")
	defer u.Unlock()
	ctx, cancel := WhileHeld(context.Background(), u)
	defer cancel()
	select {
	case <-ctx.Done():
		t.Fatalf("cancelled while the heartbeats land: %v", context.Cause(ctx))
	case <-time.After(2 * Lease):
	}
	view.arm()
	select {
	case <-ctx.Done():
	case <-time.After(2 * Lease):
		t.Fatal("not cancelled once the heartbeats stopped landing")
	}
	if err := context.Cause(ctx); !errors.Is(err, ErrLockLost) {
		t.Fatalf("cancelled with %v, want the lost lock", err)
	}
	_, err := NewRemote(store, "orders.json").Lock(context.Background(), NewLockInfo("apply", "test"))
	var locked *LockedError
	if !errors.As(err, &locked) {
		t.Fatalf("when the write was cancelled, another run could already take the lock: %v", err)
	}
}
