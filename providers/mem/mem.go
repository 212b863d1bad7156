// Package mem implements providers.Storage in memory, for fast tests of the
// commit protocol (as restic's mem backend serves its tests). Like S3 and
// Azure it has no rename: promotion goes through Copy and Delete. It passes
// the same conformance suite as the real stores; integration tests still run
// against those.
package mem

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/streamctl/streamctl/providers"
)

// Storage is an object store held in a map. Its zero value is not usable;
// call New.
type Storage struct {
	name string

	mu      sync.Mutex
	objects map[string]object
	clock   int64 // advances on every write, for ModTime
}

type object struct {
	data    []byte
	version string
	mod     time.Time
}

var _ providers.Storage = (*Storage)(nil)

// Features implements providers.Storage: none, as an object store without
// staged uploads (see Staging for one with them).
func (s *Storage) Features() providers.Features { return providers.Features{} }

// New returns an empty storage described as "mem://name".
func New(name string) *Storage {
	return &Storage{name: name, objects: map[string]object{}}
}

// Describe implements providers.Storage.
func (s *Storage) Describe() string { return "mem://" + s.name }

func checkKey(key string) error { return providers.CheckKey(key) }

// put stores data at key; the caller holds mu.
func (s *Storage) put(key string, data []byte) string {
	s.clock++
	sum := sha256.Sum256(data)
	v := fmt.Sprintf("%s-%d", hex.EncodeToString(sum[:8]), s.clock)
	s.objects[key] = object{data: bytes.Clone(data), version: v, mod: time.Unix(1_800_000_000+s.clock, 0).UTC()}
	return v
}

// Create implements providers.Storage: the object appears on Commit.
func (s *Storage) Create(_ context.Context, key string) (providers.ObjectWriter, error) {
	if err := checkKey(key); err != nil {
		return nil, fmt.Errorf("create %s: %w", s.Describe(), err)
	}
	return &writer{s: s, key: key}, nil
}

type writer struct {
	s    *Storage
	key  string
	buf  bytes.Buffer
	done bool
}

func (w *writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("write %s/%s: already committed or aborted", w.s.Describe(), w.key)
	}
	return w.buf.Write(p)
}

func (w *writer) Commit() error {
	if w.done {
		return fmt.Errorf("commit %s/%s: already committed or aborted", w.s.Describe(), w.key)
	}
	w.done = true
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.s.put(w.key, w.buf.Bytes())
	return nil
}

func (w *writer) Abort() error {
	w.done = true
	w.buf.Reset()
	return nil
}

// PutIfAbsent implements providers.Storage.
func (s *Storage) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	if err := checkKey(key); err != nil {
		return "", fmt.Errorf("put %s: %w", s.Describe(), err)
	}
	s.mu.Lock()
	if _, ok := s.objects[key]; ok {
		s.mu.Unlock()
		return providers.SettleCondition(ctx, s, key, data, fmt.Errorf("put %s/%s: %w", s.Describe(), key, providers.ErrExist))
	}
	defer s.mu.Unlock()
	return s.put(key, data), nil
}

// PutIfMatch implements providers.Storage.
func (s *Storage) PutIfMatch(ctx context.Context, key string, data []byte, version string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", fmt.Errorf("put %s: %w", s.Describe(), err)
	}
	s.mu.Lock()
	o, ok := s.objects[key]
	if !ok {
		s.mu.Unlock()
		return "", fmt.Errorf("put %s/%s: %w", s.Describe(), key, providers.ErrNotExist)
	}
	if o.version != version {
		s.mu.Unlock()
		return providers.SettleCondition(ctx, s, key, data, fmt.Errorf("put %s/%s: %w", s.Describe(), key, providers.ErrPrecondition))
	}
	defer s.mu.Unlock()
	return s.put(key, data), nil
}

func (s *Storage) info(key string, o object) providers.ObjectInfo {
	return providers.ObjectInfo{Key: key, Size: int64(len(o.data)), Version: o.version, ModTime: o.mod}
}

// Get implements providers.Storage.
func (s *Storage) Get(_ context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[key]
	if !ok {
		return nil, providers.ObjectInfo{}, fmt.Errorf("get %s/%s: %w", s.Describe(), key, providers.ErrNotExist)
	}
	return io.NopCloser(bytes.NewReader(o.data)), s.info(key, o), nil
}

// Stat implements providers.Storage.
func (s *Storage) Stat(_ context.Context, key string) (providers.ObjectInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[key]
	if !ok {
		return providers.ObjectInfo{}, fmt.Errorf("stat %s/%s: %w", s.Describe(), key, providers.ErrNotExist)
	}
	return s.info(key, o), nil
}

// Copy implements providers.Storage.
func (s *Storage) Copy(_ context.Context, src, dst string) error {
	if err := checkKey(dst); err != nil {
		return fmt.Errorf("copy %s: %w", s.Describe(), err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[src]
	if !ok {
		return fmt.Errorf("copy %s/%s: %w", s.Describe(), src, providers.ErrNotExist)
	}
	s.put(dst, o.data)
	return nil
}

// Delete implements providers.Storage.
func (s *Storage) Delete(_ context.Context, key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.objects, key)
	return nil
}

// DeleteIfMatch implements providers.Storage.
func (s *Storage) DeleteIfMatch(_ context.Context, key, version string) error {
	if err := checkKey(key); err != nil {
		return fmt.Errorf("delete %s: %w", s.Describe(), err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[key]
	if !ok {
		return nil
	}
	if o.version != version {
		return fmt.Errorf("delete %s/%s: %w", s.Describe(), key, providers.ErrPrecondition)
	}
	delete(s.objects, key)
	return nil
}

// List implements providers.Storage: fn runs without the lock held, on a
// snapshot of the keys, so that it may call the storage.
func (s *Storage) List(_ context.Context, prefix string, fn func(providers.ObjectInfo) error) error {
	s.mu.Lock()
	var infos []providers.ObjectInfo
	for k, o := range s.objects {
		if strings.HasPrefix(k, prefix) {
			infos = append(infos, s.info(k, o))
		}
	}
	s.mu.Unlock()
	sort.Slice(infos, func(i, j int) bool { return infos[i].Key < infos[j].Key })
	for _, info := range infos {
		if err := fn(info); err != nil {
			return err
		}
	}
	return nil
}

// Keys lists every key, for tests.
func (s *Storage) Keys() []string {
	var out []string
	s.List(context.Background(), "", func(info providers.ObjectInfo) error {
		out = append(out, info.Key)
		return nil
	})
	return out
}
