package state

import (
	"context"
	"sync"
	"time"

	"github.com/streamctl/streamctl/internal/crash"
)

// expiring is an Unlocker held until a time by this process's clock (a
// lease): Held fails from then on unless a heartbeat moved it.
type expiring interface {
	heldUntil() time.Time
}

// WhileHeld returns ctx cancelled, with the error of Unlocker.Held as its
// cause, as soon as one of locks may no longer be held: when its lease may
// have run out by this process's clock, or its loss is known. A write made
// with it (with the store client's retries) is abandoned then, rather than
// sent or retried after the lock's next holder may have read what it
// writes: checking Held before a write bounds when the write starts, not
// when it lands. Cancelling ctx itself cancels the result too; the cancel
// function returned waits for the watchers it started.
func WhileHeld(ctx context.Context, locks ...Unlocker) (context.Context, context.CancelFunc) {
	bounded, cancel := context.WithCancelCause(ctx)
	var wg sync.WaitGroup
	wg.Add(len(locks) + 1)
	for _, l := range locks {
		go func() {
			defer wg.Done()
			defer crash.Report() // run as a goroutine
			select {
			case <-l.Lost():
				cancel(held(locks))
			case <-bounded.Done():
			}
		}()
	}
	go func() {
		defer wg.Done()
		defer crash.Report() // run as a goroutine
		timer := time.NewTimer(0)
		defer timer.Stop()
		for {
			select {
			case <-bounded.Done():
				return
			case <-timer.C:
			}
			if err := held(locks); err != nil {
				cancel(err)
				return
			}
			// Each heartbeat that lands moves the end: look again then.
			var next time.Time
			for _, l := range locks {
				if e, ok := l.(expiring); ok {
					if u := e.heldUntil(); next.IsZero() || u.Before(next) {
						next = u
					}
				}
			}
			if next.IsZero() {
				return // held until its loss is known (Lost)
			}
			timer.Reset(max(time.Until(next), time.Millisecond))
		}
	}()
	// Its watchers are done once it returns.
	return bounded, func() {
		cancel(context.Canceled)
		wg.Wait()
	}
}

// held is the first error of the locks' Held, or ErrLockLost when a lock's
// loss is known before Held says it.
func held(locks []Unlocker) error {
	for _, l := range locks {
		if err := l.Held(); err != nil {
			return err
		}
	}
	for _, l := range locks {
		select {
		case <-l.Lost():
			return ErrLockLost
		default:
		}
	}
	return nil
}
