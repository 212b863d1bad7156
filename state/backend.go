package state

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// Backend stores one state document with a lock beside it. The built-in
// backends are a document in a Docs (over any providers.Storage) and a
// Locker, each a separate piece.
type Backend interface {
	// Describe names where the state lives, for messages.
	Describe() string
	// Read returns the stored state bytes and their version. It returns
	// ErrNoState when there is none yet.
	Read(ctx context.Context) (data []byte, version string, err error)
	// Write replaces the state if its version is still version ("" means: only if
	// there is none yet), keeping the previous one as a backup. It returns
	// ErrConflict when another writer changed it in between.
	Write(ctx context.Context, data []byte, version string) (newVersion string, err error)
	Locker
}

// Locker guards a document against a second writer.
type Locker interface {
	// Lock takes the lock or returns a *LockedError saying who holds it.
	Lock(ctx context.Context, info *LockInfo) (Unlocker, error)
	// LockInfo returns the current holder of the lock, or nil when it is free.
	LockInfo(ctx context.Context) (*LockInfo, error)
	// ForceUnlock removes the lock if its ID is id.
	ForceUnlock(ctx context.Context, id string) error
}

// DocBackend is a Backend whose state is the document name of docs, so that
// documents can be kept beside it under names that start with name.
type DocBackend interface {
	Backend
	Documents() (docs *Docs, name string)
}

// Unlocker releases a lock. Unlock is safe to call more than once.
type Unlocker interface {
	Unlock() error
	// Lost is closed when the lock is known to be lost (a heartbeat failed);
	// a holder must then stop writing.
	Lost() <-chan struct{}
	// Held returns nil while the lock is surely still held, and an error
	// wrapping ErrLockLost once it may not be. A holder calls it right before
	// each write: Lost is closed by a goroutine, which on an overloaded or
	// paused host may run only after the holder's next write, when the
	// lease may belong to another run already.
	Held() error
}

var (
	// ErrNoState: no state has been written yet.
	ErrNoState = errors.New("no state yet")
	// ErrLockLost: a lock was lost (force-unlocked, or its lease ran out
	// before a heartbeat renewed it); its holder must stop writing.
	ErrLockLost = errors.New("the state lock was lost")
	// ErrConflict: the state changed since it was read (another writer).
	ErrConflict = errors.New("the state was changed by another writer since it was read")
)

// LockInfo says who holds a lock, as Terraform's lock info does.
type LockInfo struct {
	ID        string    `json:"id"`
	Operation string    `json:"operation"`
	Who       string    `json:"who"`
	PID       int       `json:"pid"`
	Version   string    `json:"version"`
	Created   time.Time `json:"created"`
	Path      string    `json:"path"`
	// Heartbeat is refreshed while the holder runs (remote backends), so that a
	// lock left by a killed process can be recognised as stale.
	Heartbeat time.Time `json:"heartbeat,omitempty"`
}

// NewLockInfo describes a lock this process is about to take.
func NewLockInfo(operation, version string) *LockInfo {
	who := "unknown"
	if u, err := user.Current(); err == nil {
		who = u.Username
	}
	if h, err := os.Hostname(); err == nil {
		who += "@" + h
	}
	now := time.Now().UTC().Truncate(time.Millisecond)
	return &LockInfo{
		ID:        uuid.NewString(),
		Operation: operation,
		Who:       who,
		PID:       os.Getpid(),
		Version:   version,
		Created:   now,
		Heartbeat: now,
	}
}

// LockedError is returned when another process holds the lock.
type LockedError struct {
	Holder *LockInfo
	Path   string
	// Leased is set for a lock with a lease (remote backends), and Silent is
	// then how long the store has not seen it refreshed. Past the lease the
	// lock is taken over, so a refusal means its holder is alive or died less
	// than a lease ago.
	Leased bool
	Silent time.Duration
}

// TakenOver is implemented by an Unlocker whose lock was taken over from a
// holder whose lease had expired: it names that holder, and how long the
// store had not seen it refresh the lock.
type TakenOver interface {
	TookOver() (holder *LockInfo, silent time.Duration)
}

func (e *LockedError) Error() string {
	h := e.Holder
	if h == nil {
		return fmt.Sprintf("the state %s is locked by another process", e.Path)
	}
	msg := fmt.Sprintf("the state %s is locked\n\n  ID:        %s\n  Operation: %s\n  Who:       %s (pid %d)\n  Version:   %s\n  Created:   %s (%s ago)",
		e.Path, h.ID, h.Operation, h.Who, h.PID, h.Version,
		h.Created.Format(time.RFC3339), time.Since(h.Created).Round(time.Second))
	msg += "\n\nWait for it to finish, or retry with -lock-timeout=DURATION."
	if e.Leased {
		msg = strings.Replace(msg, "\n\nWait", fmt.Sprintf("\n  Refreshed: %s ago (by the store's clock)\n\nWait", e.Silent.Round(time.Second)), 1)
		msg += fmt.Sprintf(" A lock whose holder died is taken over once the store has not seen it refreshed for %s.", Lease)
	}
	return msg
}

// Lock takes a lock (a backend's, or a sink's), retrying with backoff until
// timeout.
func Lock(ctx context.Context, b Locker, info *LockInfo, timeout time.Duration) (Unlocker, error) {
	deadline := time.Now().Add(timeout)
	delay := 100 * time.Millisecond
	for {
		u, err := b.Lock(ctx, info)
		var locked *LockedError
		remaining := time.Until(deadline)
		if err == nil || !errors.As(err, &locked) || remaining <= 0 {
			return u, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(min(delay, remaining)):
		}
		if delay < 2*time.Second {
			delay *= 2
		}
	}
}

// Manager reads and writes one state through a backend, keeping the version it
// last saw so that every write is a compare-and-swap.
type Manager struct {
	backend Backend
	version string // of the root document
	state   *State
	// shard is set on a sharded backend: each sink's document and version.
	shard *shards

	// wmu orders writes: a write of the whole state excludes every other
	// write; writes of single sinks' documents (each sink written by one
	// goroutine at a time) run side by side.
	wmu sync.RWMutex
	// mu guards state and shard, which writes replace.
	mu sync.Mutex
}

// Load reads the state, or starts a new one when there is none.
func Load(ctx context.Context, b Backend, streamctlVersion string) (*Manager, error) {
	data, version, err := b.Read(ctx)
	sb, sharded := b.(ShardedBackend)
	if errors.Is(err, ErrNoState) {
		m := &Manager{backend: b, state: New(streamctlVersion)}
		if sharded {
			docs, key := sb.Documents()
			m.shard = &shards{docs: docs, key: key, sinks: map[string]*sinkShard{}}
			m.state.Version = ShardedVersion
		}
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read state %s: %w", b.Describe(), err)
	}
	s, err := Decode(data)
	if err != nil {
		return nil, &CorruptError{Path: b.Describe(), Err: err}
	}
	if s.Version == ShardedVersion {
		if !sharded {
			return nil, &CorruptError{Path: b.Describe(), Err: errors.New("its sinks are kept in documents of their own, which this backend cannot read")}
		}
		if len(s.Sinks) > 0 {
			return nil, &CorruptError{Path: b.Describe(), Err: errors.New("it has format 3, whose root document holds no sinks, and holds some")}
		}
		docs, key := sb.Documents()
		sh, err := loadSharded(ctx, docs, key, s)
		if err != nil {
			return nil, &CorruptError{Path: b.Describe(), Err: err}
		}
		return &Manager{backend: b, version: version, state: s, shard: sh}, nil
	}
	if docs, name := documents(b); docs != nil {
		if err := s.readHistory(ctx, docs, name); err != nil {
			return nil, &CorruptError{Path: b.Describe(), Err: err}
		}
	} else if len(s.segmentIDs()) > 0 {
		return nil, &CorruptError{Path: b.Describe(), Err: errors.New("it keeps history segments beside it, which this backend cannot read")}
	}
	m := &Manager{backend: b, version: version, state: s}
	if sharded {
		// The one-document layout of earlier streamctl versions: the first
		// write moves each sink into its own document.
		docs, key := sb.Documents()
		m.shard = &shards{docs: docs, key: key, legacy: true, rootSerial: s.Serial, sinks: map[string]*sinkShard{}}
	}
	return m, nil
}

// Sharded reports whether the state is kept as a root and one document per
// sink (ShardedVersion), so that sinks can be applied by separate processes.
// A state still in the one-document layout is not: it is migrated by its
// first write, which must exclude every other writer.
func (m *Manager) Sharded() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.shard != nil && !m.shard.legacy
}

// documents returns where a backend keeps documents beside the state, or
// nil when it keeps only the state (the whole history is then in it).
func documents(b Backend) (*Docs, string) {
	if db, ok := b.(DocBackend); ok {
		return db.Documents()
	}
	return nil, ""
}

// CorruptError is a state that exists but cannot be read.
type CorruptError struct {
	Path string
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("the state %s cannot be used: %v.\n\nNothing was written. The previous version is kept at %s.backup: inspect it and, if it is right, restore it in place of the damaged file.", e.Path, e.Err, e.Path)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// State returns the current state. Callers must not modify it; use Update.
func (m *Manager) State() *State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

// Backend returns the backend.
func (m *Manager) Backend() Backend { return m.backend }

// Update applies change to a copy of the state and writes it with the serial
// incremented. On error the in-memory state stays as it was.
func (m *Manager) Update(ctx context.Context, change func(*State) error) error {
	m.wmu.Lock()
	defer m.wmu.Unlock()
	if m.shard != nil {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.updateSharded(ctx, change)
	}
	next := m.state.Clone()
	if err := change(next); err != nil {
		return err
	}
	next.Serial = m.state.Serial + 1
	docs, name := documents(m.backend)
	var segments []sealed
	if docs != nil {
		for _, sinkName := range next.SinkNames() {
			if sink := next.Sinks[sinkName]; sink != nil {
				sealed, err := sink.seal(next.Lineage)
				if err != nil {
					return fmt.Errorf("encode state: %w", err)
				}
				segments = append(segments, sealed...)
			}
		}
		// The segments this write stops naming stay for the backup, which
		// names them, until the next write.
		kept := next.segmentIDs()
		next.retired = nil
		for id := range m.state.segmentIDs() {
			if !kept[id] {
				next.retired = append(next.retired, id)
			}
		}
		slices.Sort(next.retired)
	}
	data, err := encodeDoc(next)
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	// Segments first: the state document that names them is the commit.
	for _, seg := range segments {
		if err := docs.Create(ctx, segmentName(name, seg.id), seg.data); err != nil {
			return fmt.Errorf("write state %s: history segment: %w", m.backend.Describe(), err)
		}
	}
	v, err := m.backend.Write(ctx, data, m.version)
	if err != nil {
		return fmt.Errorf("write state %s: %w", m.backend.Describe(), err)
	}
	if docs != nil {
		// The backup is now the state just replaced: the segments only its
		// own backup named are no one's anymore. A removal that fails
		// leaves a file that nothing reads.
		kept := next.segmentIDs()
		for _, id := range m.state.retired {
			if !kept[id] {
				_ = docs.Delete(ctx, segmentName(name, id))
			}
		}
	}
	next.Version = next.docVersion()
	m.mu.Lock()
	m.version = v
	m.state = next
	m.mu.Unlock()
	return nil
}

// UpdateSink applies change, which changes sink name alone, and writes it.
// On a sharded state only that sink's document is written, by
// compare-and-swap on its own version, so that writers of other sinks (in
// this process or others, each holding its sink's lock) do not conflict;
// change then sees a state holding only that sink. Elsewhere it is Update.
func (m *Manager) UpdateSink(ctx context.Context, name string, change func(*State) error) error {
	m.wmu.RLock()
	m.mu.Lock()
	whole := m.shard == nil || m.shard.legacy || m.version == ""
	m.mu.Unlock()
	if !whole {
		defer m.wmu.RUnlock()
		return m.updateSink(ctx, name, change)
	}
	m.wmu.RUnlock()
	return m.Update(ctx, change)
}

// Create writes the state if there is none yet. On a sharded state written
// by several processes at once, the one that loses the race to create it
// takes the winner's lineage instead, so that they all plan against the
// lineage the destinations are claimed with.
func (m *Manager) Create(ctx context.Context) error {
	if m.Exists() {
		return nil
	}
	return m.Update(ctx, func(*State) error { return nil })
}

// Exists reports whether the state was read from the backend (or written),
// rather than started new.
func (m *Manager) Exists() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.version != ""
}
