package providers

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
)

// ConditionError is a store that does not honour conditional writes: an
// S3-compatible endpoint that ignores If-None-Match or If-Match (older MinIO,
// Ceph, some gateways) would let two writers both take a lock or commit a
// batch.
type ConditionError struct {
	Store  string
	Failed string
}

func (e *ConditionError) Error() string {
	return fmt.Sprintf("%s does not honour conditional writes: %s. streamctl's locks and commits rely on them, so nothing was written there. "+
		"Use a store that supports If-None-Match and If-Match on PUT; for a setup with a single writer only, set skip_conditional_write_check = true on its block", e.Store, e.Failed)
}

// ProbeConditionalWrites checks, with a few writes to key (removed after),
// that s refuses a second create-only write and a write with a stale
// version. It returns a *ConditionError when the store accepts either. A
// store whose Features say ConditionalWritesUnchecked is not probed.
func ProbeConditionalWrites(ctx context.Context, s Storage, key string) error {
	if s.Features().ConditionalWritesUnchecked {
		return nil
	}
	var nonce [8]byte
	rand.Read(nonce[:])
	key += "-" + hex.EncodeToString(nonce[:])
	val := func(step string) []byte {
		return []byte("streamctl conditional write probe " + hex.EncodeToString(nonce[:]) + " " + step + "\n")
	}
	fail := func(what string) error { return &ConditionError{Store: s.Describe(), Failed: what} }

	v1, err := s.PutIfAbsent(ctx, key, val("1"))
	if err != nil {
		return fmt.Errorf("probe the conditional writes of %s: %w", s.Describe(), err)
	}
	defer s.Delete(context.WithoutCancel(ctx), key)
	switch _, err := s.PutIfAbsent(ctx, key, val("2")); {
	case err == nil:
		return fail("a second create-only write (If-None-Match: *) of one key succeeded")
	case !errors.Is(err, ErrExist):
		return fmt.Errorf("probe the conditional writes of %s: %w", s.Describe(), err)
	}
	if _, err := s.PutIfMatch(ctx, key, val("3"), v1); err != nil {
		return fmt.Errorf("probe the conditional writes of %s: a write with the current version (If-Match) failed: %w", s.Describe(), err)
	}
	switch _, err := s.PutIfMatch(ctx, key, val("4"), v1); {
	case err == nil:
		return fail("a write with a stale version (If-Match) succeeded")
	case !errors.Is(err, ErrPrecondition):
		return fmt.Errorf("probe the conditional writes of %s: %w", s.Describe(), err)
	}
	return nil
}

// ConditionProbe runs ProbeConditionalWrites once per store and key: a run
// checks each store before it first trusts it, not before every write. Its
// zero value is ready to use.
type ConditionProbe struct {
	mu   sync.Mutex
	done map[string]*probeResult
}

type probeResult struct {
	once sync.Once
	err  error
}

// Check probes s at key unless it was probed already in this run, and
// returns the outcome. A probe that failed on the network is not kept: the
// next Check probes again.
func (p *ConditionProbe) Check(ctx context.Context, s Storage, key string) error {
	id := s.Describe() + "\x00" + key
	p.mu.Lock()
	if p.done == nil {
		p.done = map[string]*probeResult{}
	}
	r := p.done[id]
	if r == nil {
		r = &probeResult{}
		p.done[id] = r
	}
	p.mu.Unlock()
	r.once.Do(func() { r.err = ProbeConditionalWrites(ctx, s, key) })
	var ce *ConditionError
	if r.err != nil && !errors.As(r.err, &ce) {
		p.mu.Lock()
		delete(p.done, id)
		p.mu.Unlock()
	}
	return r.err
}
