package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/streamctl/streamctl/providers"
)

// HeartbeatInterval is how often a remote lock's holder refreshes it. A lock
// whose heartbeat is older than StaleAfter is reported as stale.
const (
	HeartbeatInterval = 15 * time.Second
	StaleAfter        = 4 * HeartbeatInterval
)

// RemoteBackend keeps the state as one object in an object store (S3, Azure
// Blob). Writes are compare-and-swap on the object's version, so a writer that
// lost its lock cannot overwrite a newer state (fencing); the lock is a
// create-only "<key>.lock" object carrying the LockInfo.
type RemoteBackend struct {
	store providers.Storage
	key   string
}

var _ Backend = (*RemoteBackend)(nil)

// NewRemote returns the backend for the state object key in store.
func NewRemote(store providers.Storage, key string) *RemoteBackend {
	return &RemoteBackend{store: store, key: key}
}

// Describe implements Backend.
func (b *RemoteBackend) Describe() string { return b.store.Describe() + "/" + b.key }

// Read implements Backend.
func (b *RemoteBackend) Read(ctx context.Context) ([]byte, string, error) {
	data, info, err := providers.ReadAll(ctx, b.store, b.key)
	if errors.Is(err, providers.ErrNotExist) {
		return nil, "", ErrNoState
	}
	if err != nil {
		return nil, "", err
	}
	return data, info.Version, nil
}

// Write implements Backend. The previous state is copied to "<key>.backup" first.
func (b *RemoteBackend) Write(ctx context.Context, data []byte, version string) (string, error) {
	if version == "" {
		v, err := b.store.PutIfAbsent(ctx, b.key, data)
		if errors.Is(err, providers.ErrExist) {
			return "", ErrConflict
		}
		return v, err
	}
	if err := b.store.Copy(ctx, b.key, b.key+".backup"); err != nil && !errors.Is(err, providers.ErrNotExist) {
		return "", fmt.Errorf("keep backup: %w", err)
	}
	v, err := b.store.PutIfMatch(ctx, b.key, data, version)
	if errors.Is(err, providers.ErrPrecondition) || errors.Is(err, providers.ErrNotExist) {
		return "", ErrConflict
	}
	return v, err
}

func (b *RemoteBackend) lockKey() string { return b.key + ".lock" }

// Lock implements Backend. The holder refreshes the lock's heartbeat with
// compare-and-swap; if that fails the lock was taken away (force-unlock) and
// Lost is closed.
func (b *RemoteBackend) Lock(ctx context.Context, info *LockInfo) (Unlocker, error) {
	info.Path = b.Describe()
	data, _ := json.Marshal(info)
	version, err := b.store.PutIfAbsent(ctx, b.lockKey(), data)
	if errors.Is(err, providers.ErrExist) {
		holder, herr := b.LockInfo(ctx)
		if herr != nil {
			return nil, fmt.Errorf("lock state %s: it is locked, and reading the holder failed: %w", b.Describe(), herr)
		}
		if holder == nil { // released in between: try once more
			return b.Lock(ctx, info)
		}
		stale := time.Since(holder.Heartbeat) > StaleAfter
		return nil, &LockedError{Holder: holder, Path: b.Describe(), Stale: stale}
	}
	if err != nil {
		return nil, fmt.Errorf("lock state %s: %w", b.Describe(), err)
	}
	l := &remoteLock{b: b, info: *info, version: version, stop: make(chan struct{}), lost: make(chan struct{})}
	l.wg.Add(1)
	go l.heartbeat()
	return l, nil
}

type remoteLock struct {
	b       *RemoteBackend
	info    LockInfo
	version string
	once    sync.Once
	stop    chan struct{}
	lost    chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
}

func (l *remoteLock) heartbeat() {
	defer l.wg.Done()
	t := time.NewTicker(HeartbeatInterval)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		l.mu.Lock()
		l.info.Heartbeat = time.Now().UTC().Truncate(time.Millisecond)
		data, _ := json.Marshal(l.info)
		ctx, cancel := context.WithTimeout(context.Background(), HeartbeatInterval)
		v, err := l.b.store.PutIfMatch(ctx, l.b.lockKey(), data, l.version)
		cancel()
		if err == nil {
			l.version = v
		}
		l.mu.Unlock()
		if errors.Is(err, providers.ErrPrecondition) || errors.Is(err, providers.ErrNotExist) {
			close(l.lost)
			return
		}
	}
}

func (l *remoteLock) Lost() <-chan struct{} { return l.lost }

func (l *remoteLock) Unlock() error {
	var err error
	l.once.Do(func() {
		close(l.stop)
		l.wg.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		holder, herr := l.b.LockInfo(ctx)
		if herr != nil {
			err = fmt.Errorf("unlock state %s: %w", l.b.Describe(), herr)
			return
		}
		if holder == nil || holder.ID != l.info.ID {
			return // already released or taken over: not ours to delete
		}
		if derr := l.b.store.Delete(ctx, l.b.lockKey()); derr != nil {
			err = fmt.Errorf("unlock state %s: %w", l.b.Describe(), derr)
		}
	})
	return err
}

// LockInfo implements Backend.
func (b *RemoteBackend) LockInfo(ctx context.Context) (*LockInfo, error) {
	data, _, err := providers.ReadAll(ctx, b.store, b.lockKey())
	if errors.Is(err, providers.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var info LockInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return &LockInfo{ID: "unknown", Operation: "unknown", Who: "unknown"}, nil
	}
	return &info, nil
}

// ForceUnlock implements Backend.
func (b *RemoteBackend) ForceUnlock(ctx context.Context, id string) error {
	data, info, err := providers.ReadAll(ctx, b.store, b.lockKey())
	if errors.Is(err, providers.ErrNotExist) {
		return fmt.Errorf("the state %s is not locked", b.Describe())
	}
	if err != nil {
		return err
	}
	var holder LockInfo
	if json.Unmarshal(data, &holder) == nil && holder.ID != id {
		return fmt.Errorf("the lock on %s has ID %s, not %s", b.Describe(), holder.ID, id)
	}
	// Replace the lock with a tombstone by version first, so that a holder
	// refreshing it at this moment notices, then delete it.
	if _, err := b.store.PutIfMatch(ctx, b.lockKey(), []byte(`{"id":"force-unlocked"}`), info.Version); err != nil {
		return fmt.Errorf("force-unlock %s: %w", b.Describe(), err)
	}
	return b.store.Delete(ctx, b.lockKey())
}
