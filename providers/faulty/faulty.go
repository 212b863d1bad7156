// Package faulty wraps a providers.Storage with the faults of a flaky store,
// for fast tests of the commit protocol: fail the Nth call of an operation,
// or apply it and lose the answer. A wrapped store keeps the capabilities of
// the one it wraps (its Features), with their calls faulty as well, so that it
// takes the same paths. The real stores, behind a real network fault proxy,
// remain the integration tests.
package faulty

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/streamctl/streamctl/providers"
)

// Op names a Storage operation.
type Op string

const (
	Create      Op = "create" // the writer's Commit
	PutIfAbsent Op = "put-if-absent"
	PutIfMatch  Op = "put-if-match"
	Get         Op = "get"
	Copy        Op = "copy"
	Delete      Op = "delete"
	// DeleteIfMatch is the conditional delete.
	DeleteIfMatch Op = "delete-if-match"
	List          Op = "list"
	// Operations of the capabilities of providers.Features; a scratch
	// object's Commit is a Create.
	Rename       Op = "rename" // on the destination key
	Link         Op = "link"   // on the destination key
	DeletePrefix Op = "delete-prefix"
)

// ErrInjected is the error of an injected fault.
var ErrInjected = errors.New("injected fault")

// Fault makes the Nth call of Op on a key containing Key fail.
type Fault struct {
	Op  Op
	Key string // a substring of the key; "" for any
	N   int    // 1 for the first matching call
	// Applied: the call reaches the store and takes effect, then fails, as
	// when its answer is lost.
	Applied bool
}

// Storage is a Storage with faults.
type Storage struct {
	providers.Storage

	mu     sync.Mutex
	faults []Fault
	calls  map[Fault]int
	fired  []string
}

// Wrap returns s with faults, each firing once.
func Wrap(s providers.Storage, faults ...Fault) *Storage {
	return &Storage{Storage: s, faults: faults, calls: map[Fault]int{}}
}

// Fired lists the faults that fired, in order.
func (s *Storage) Fired() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.fired...)
}

// hit reports whether this call of op on key fails, and whether it is
// applied first.
func (s *Storage) hit(op Op, key string) (fail, applied bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults {
		if f.Op != op || !strings.Contains(key, f.Key) {
			continue
		}
		s.calls[f]++
		if s.calls[f] == f.N {
			s.fired = append(s.fired, fmt.Sprintf("%s %s #%d applied=%v", op, key, f.N, f.Applied))
			return true, f.Applied
		}
	}
	return false, false
}

func injected(op Op, key string) error { return fmt.Errorf("%s %s: %w", op, key, ErrInjected) }

// call runs do as the call of op on key: failed before it, or applied and
// then failed, when a fault says so.
func (s *Storage) call(op Op, key string, do func() error) error {
	fail, applied := s.hit(op, key)
	if fail && !applied {
		return injected(op, key)
	}
	if err := do(); err != nil {
		return err
	}
	if fail {
		return injected(op, key)
	}
	return nil
}

func (s *Storage) Create(ctx context.Context, key string) (providers.ObjectWriter, error) {
	w, err := s.Storage.Create(ctx, key)
	if err != nil {
		return nil, err
	}
	return &writer{ObjectWriter: w, s: s, key: key}, nil
}

type writer struct {
	providers.ObjectWriter
	s   *Storage
	key string
}

func (w *writer) Commit() error {
	fail, applied := w.s.hit(Create, w.key)
	if fail && !applied {
		w.ObjectWriter.Abort()
		return injected(Create, w.key)
	}
	if err := w.ObjectWriter.Commit(); err != nil {
		return err
	}
	if fail {
		return injected(Create, w.key)
	}
	return nil
}

func (s *Storage) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	fail, applied := s.hit(PutIfAbsent, key)
	if fail && !applied {
		return "", injected(PutIfAbsent, key)
	}
	v, err := s.Storage.PutIfAbsent(ctx, key, data)
	if fail && err == nil {
		return "", injected(PutIfAbsent, key)
	}
	return v, err
}

func (s *Storage) PutIfMatch(ctx context.Context, key string, data []byte, version string) (string, error) {
	fail, applied := s.hit(PutIfMatch, key)
	if fail && !applied {
		return "", injected(PutIfMatch, key)
	}
	v, err := s.Storage.PutIfMatch(ctx, key, data, version)
	if fail && err == nil {
		return "", injected(PutIfMatch, key)
	}
	return v, err
}

func (s *Storage) Get(ctx context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	if fail, _ := s.hit(Get, key); fail {
		return nil, providers.ObjectInfo{}, injected(Get, key)
	}
	return s.Storage.Get(ctx, key)
}

func (s *Storage) Copy(ctx context.Context, src, dst string) error {
	return s.call(Copy, dst, func() error { return s.Storage.Copy(ctx, src, dst) })
}

func (s *Storage) Delete(ctx context.Context, key string) error {
	return s.call(Delete, key, func() error { return s.Storage.Delete(ctx, key) })
}

func (s *Storage) DeleteIfMatch(ctx context.Context, key, version string) error {
	return s.call(DeleteIfMatch, key, func() error { return s.Storage.DeleteIfMatch(ctx, key, version) })
}

func (s *Storage) List(ctx context.Context, prefix string, fn func(providers.ObjectInfo) error) error {
	if fail, _ := s.hit(List, prefix); fail {
		return injected(List, prefix)
	}
	return s.Storage.List(ctx, prefix, fn)
}
