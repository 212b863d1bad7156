package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// leaseRunsOut is a state store whose first write of the sink's document
// is held by a slow store (or a stalled link) until late, or until its
// writer gives up on it first; the sink's lock may be lost meanwhile.
type leaseRunsOut struct {
	providers.Storage
	delay time.Duration

	mu      sync.Mutex
	writes  int
	lost    chan struct{} // closed once the write is under way
	landed  bool          // the held write reached the store
	blocked bool
}

func (s *leaseRunsOut) hold(ctx context.Context, key string) error {
	if key != sinkDoc {
		return nil
	}
	s.mu.Lock()
	s.writes++
	first := s.writes == 1
	s.mu.Unlock()
	if !first {
		return nil
	}
	close(s.lost)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(s.delay):
	}
	s.mu.Lock()
	s.landed = true
	s.mu.Unlock()
	return nil
}

func (s *leaseRunsOut) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	if err := s.hold(ctx, key); err != nil {
		return "", err
	}
	return s.Storage.PutIfAbsent(ctx, key, data)
}

func (s *leaseRunsOut) PutIfMatch(ctx context.Context, key string, data []byte, version string) (string, error) {
	if err := s.hold(ctx, key); err != nil {
		return "", err
	}
	return s.Storage.PutIfMatch(ctx, key, data, version)
}

// lapsing is a lock whose loss is known once lost is closed.
type lapsing struct{ lost chan struct{} }

func (l lapsing) Unlock() error         { return nil }
func (l lapsing) Lost() <-chan struct{} { return l.lost }
func (l lapsing) Held() error {
	select {
	case <-l.lost:
		return fmt.Errorf("%w: its lease may have been taken over", state.ErrLockLost)
	default:
		return nil
	}
}

// TestAStateWriteUnderWayStopsWithTheLock: the fence passed, then the write
// of the intent waited on a slow store while the sink's lease ran out. The
// write is abandoned then, and the sink stops with the lock lost: sent on
// (or retried by the store's client), it would land after the lock's next
// holder read the sink's document, which then meets "another writer".
func TestAStateWriteUnderWayStopsWithTheLock(t *testing.T) {
	w := newWorld(10)
	view := &leaseRunsOut{delay: 2 * time.Second, lost: make(chan struct{})}
	w.stateView = func(s providers.Storage) providers.Storage {
		view.Storage = s
		return view
	}
	lock := lapsing{lost: view.lost}
	w.fence = func(string) error { return lock.Held() }
	w.bound = func(ctx context.Context, _ string) (context.Context, context.CancelFunc) {
		return state.WhileHeld(ctx, lock)
	}
	start := time.Now()
	err := w.apply(t, nil)
	if !errors.Is(err, state.ErrLockLost) {
		t.Fatalf("the apply returned %v, want the lost lock", err)
	}
	view.mu.Lock()
	landed := view.landed
	view.mu.Unlock()
	if landed {
		t.Fatalf("the state write under way when the lock was lost landed %s later", time.Since(start).Round(time.Millisecond))
	}
}
