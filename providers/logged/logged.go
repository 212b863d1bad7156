// Package logged wraps a providers.Storage so that every request it serves is
// written to a debug log: the store, the method, the key, the result and how
// long it took. streamctl wraps each destination's storage, and a remote
// state's, in it when STREAMCTL_LOG=debug, to show what a command asks of a
// store.
//
// A wrapper must not hide or invent a capability: the engine chooses how to
// stage and promote by a store's Features. The wrapper's Features are the
// wrapped store's, each logged.
package logged

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/streamctl/streamctl/providers"
)

// Log is where the requests are written, one line each; it is safe for
// concurrent use.
type Log struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time
}

// NewLog writes to w.
func NewLog(w io.Writer) *Log { return &Log{w: w, now: time.Now} }

func (l *Log) request(store, method, key string, start time.Time, err error, extra string) {
	result := "ok"
	switch {
	case errors.Is(err, providers.ErrNotExist):
		result = "not found"
	case errors.Is(err, providers.ErrExist):
		result = "already exists"
	case errors.Is(err, providers.ErrPrecondition):
		result = "precondition failed"
	case err != nil:
		result = "error: " + err.Error()
	}
	if extra != "" {
		result += " " + extra
	}
	end := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "%s [DEBUG] store %s: %s %s -> %s (%s)\n", end.UTC().Format("2006-01-02T15:04:05.000Z"), store, method, key, result, end.Sub(start).Round(time.Microsecond))
}

// Storage logs the requests of the storage it wraps.
type Storage struct {
	inner providers.Storage
	log   *Log
	name  string
}

// Wrap returns s logging to log, with exactly s's capabilities (Features).
func Wrap(s providers.Storage, log *Log) providers.Storage {
	return &Storage{inner: s, log: log, name: s.Describe()}
}

// Unwrap returns the storage s wraps.
func (s *Storage) Unwrap() providers.Storage { return s.inner }

// Features implements providers.Storage: the wrapped store's capabilities,
// each logging its requests. A capability this package does not know yet
// passes through unlogged, still taking the bare store's path.
func (s *Storage) Features() providers.Features {
	f := s.inner.Features()
	if f.ScratchCreator != nil {
		f.ScratchCreator = scratcher{s, f.ScratchCreator}
	}
	if f.Renamer != nil {
		f.Renamer = renamer{s, f.Renamer}
	}
	if f.Linker != nil {
		f.Linker = linker{s, f.Linker}
	}
	if f.PrefixDeleter != nil {
		f.PrefixDeleter = prefixDeleter{s, f.PrefixDeleter}
	}
	if f.Stager != nil {
		f.Stager = stager{s, f.Stager}
	}
	if f.StagedLister != nil {
		f.StagedLister = lister{s, f.StagedLister}
	}
	return f
}

func (s *Storage) Describe() string { return s.inner.Describe() }

func (s *Storage) Create(ctx context.Context, key string) (providers.ObjectWriter, error) {
	start := s.log.now()
	w, err := s.inner.Create(ctx, key)
	if err != nil {
		s.log.request(s.name, "CREATE", key, start, err, "")
		return nil, err
	}
	return &writer{ObjectWriter: w, s: s, key: key, method: "PUT", start: start}, nil
}

func (s *Storage) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	start := s.log.now()
	v, err := s.inner.PutIfAbsent(ctx, key, data)
	s.log.request(s.name, "PUT-IF-ABSENT", key, start, err, fmt.Sprintf("%d bytes", len(data)))
	return v, err
}

func (s *Storage) PutIfMatch(ctx context.Context, key string, data []byte, version string) (string, error) {
	start := s.log.now()
	v, err := s.inner.PutIfMatch(ctx, key, data, version)
	s.log.request(s.name, "PUT-IF-MATCH", key, start, err, fmt.Sprintf("%d bytes", len(data)))
	return v, err
}

func (s *Storage) Get(ctx context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	start := s.log.now()
	r, info, err := s.inner.Get(ctx, key)
	extra := ""
	if err == nil {
		extra = fmt.Sprintf("%d bytes", info.Size)
	}
	s.log.request(s.name, "GET", key, start, err, extra)
	return r, info, err
}

func (s *Storage) Stat(ctx context.Context, key string) (providers.ObjectInfo, error) {
	start := s.log.now()
	info, err := s.inner.Stat(ctx, key)
	s.log.request(s.name, "STAT", key, start, err, "")
	return info, err
}

func (s *Storage) Copy(ctx context.Context, src, dst string) error {
	start := s.log.now()
	err := s.inner.Copy(ctx, src, dst)
	s.log.request(s.name, "COPY", src+" "+dst, start, err, "")
	return err
}

func (s *Storage) Delete(ctx context.Context, key string) error {
	start := s.log.now()
	err := s.inner.Delete(ctx, key)
	s.log.request(s.name, "DELETE", key, start, err, "")
	return err
}

func (s *Storage) DeleteIfMatch(ctx context.Context, key, version string) error {
	start := s.log.now()
	err := s.inner.DeleteIfMatch(ctx, key, version)
	s.log.request(s.name, "DELETE-IF-MATCH", key, start, err, "")
	return err
}

func (s *Storage) List(ctx context.Context, prefix string, fn func(providers.ObjectInfo) error) error {
	start := s.log.now()
	n := 0
	err := s.inner.List(ctx, prefix, func(info providers.ObjectInfo) error {
		n++
		return fn(info)
	})
	s.log.request(s.name, "LIST", prefix, start, err, fmt.Sprintf("%d objects", n))
	return err
}

// writer logs an object's write when it is committed or aborted.
type writer struct {
	providers.ObjectWriter
	s      *Storage
	key    string
	method string
	start  time.Time
	n      int64
}

func (w *writer) Write(p []byte) (int, error) {
	n, err := w.ObjectWriter.Write(p)
	w.n += int64(n)
	return n, err
}

func (w *writer) Commit() error {
	err := w.ObjectWriter.Commit()
	w.s.log.request(w.s.name, w.method, w.key, w.start, err, fmt.Sprintf("%d bytes", w.n))
	return err
}

func (w *writer) Abort() error {
	err := w.ObjectWriter.Abort()
	w.s.log.request(w.s.name, w.method+" (aborted)", w.key, w.start, err, fmt.Sprintf("%d bytes", w.n))
	return err
}

// The optional capabilities, each forwarded to the wrapped store and
// logged. forward embeds those the wrapped store has.

type stager struct {
	s     *Storage
	inner providers.Stager
}

func (c stager) Stage(ctx context.Context, key string, opt providers.StageOptions) (providers.StagedWriter, error) {
	start := c.s.log.now()
	w, err := c.inner.Stage(ctx, key, opt)
	if err != nil {
		c.s.log.request(c.s.name, "STAGE", key, start, err, "")
		return nil, err
	}
	return &stagedWriter{StagedWriter: w, s: c.s, key: key, start: start}, nil
}

type stagedWriter struct {
	providers.StagedWriter
	s     *Storage
	key   string
	start time.Time
	n     int64
}

func (w *stagedWriter) Write(p []byte) (int, error) {
	n, err := w.StagedWriter.Write(p)
	w.n += int64(n)
	return n, err
}

func (w *stagedWriter) Finish() (providers.Staged, error) {
	st, err := w.StagedWriter.Finish()
	w.s.log.request(w.s.name, "STAGE", w.key, w.start, err, fmt.Sprintf("%d bytes", w.n))
	if err != nil {
		return nil, err
	}
	return &staged{Staged: st, s: w.s, key: w.key}, nil
}

type staged struct {
	providers.Staged
	s   *Storage
	key string
}

func (p *staged) Publish(ctx context.Context) error {
	start := p.s.log.now()
	err := p.Staged.Publish(ctx)
	p.s.log.request(p.s.name, "PUBLISH", p.key, start, err, "")
	return err
}

type lister struct {
	s     *Storage
	inner providers.StagedLister
}

func (c lister) ListStaged(ctx context.Context, prefix string, fn func(providers.StagedUpload) error) error {
	start := c.s.log.now()
	n := 0
	err := c.inner.ListStaged(ctx, prefix, func(u providers.StagedUpload) error {
		n++
		return fn(u)
	})
	c.s.log.request(c.s.name, "LIST-STAGED", prefix, start, err, fmt.Sprintf("%d uploads", n))
	return err
}

func (c lister) Discard(ctx context.Context, u providers.StagedUpload) error {
	start := c.s.log.now()
	err := c.inner.Discard(ctx, u)
	c.s.log.request(c.s.name, "DISCARD", u.Key, start, err, "")
	return err
}

type renamer struct {
	s     *Storage
	inner providers.Renamer
}

func (c renamer) Rename(ctx context.Context, src, dst string) error {
	start := c.s.log.now()
	err := c.inner.Rename(ctx, src, dst)
	c.s.log.request(c.s.name, "RENAME", src+" "+dst, start, err, "")
	return err
}

type scratcher struct {
	s     *Storage
	inner providers.ScratchCreator
}

func (c scratcher) CreateScratch(ctx context.Context, key string) (providers.ObjectWriter, error) {
	start := c.s.log.now()
	w, err := c.inner.CreateScratch(ctx, key)
	if err != nil {
		c.s.log.request(c.s.name, "CREATE-SCRATCH", key, start, err, "")
		return nil, err
	}
	return &writer{ObjectWriter: w, s: c.s, key: key, method: "PUT-SCRATCH", start: start}, nil
}

type prefixDeleter struct {
	s     *Storage
	inner providers.PrefixDeleter
}

func (c prefixDeleter) DeletePrefix(ctx context.Context, prefix string) error {
	start := c.s.log.now()
	err := c.inner.DeletePrefix(ctx, prefix)
	c.s.log.request(c.s.name, "DELETE-PREFIX", prefix, start, err, "")
	return err
}

type linker struct {
	s     *Storage
	inner providers.Linker
}

func (c linker) Link(ctx context.Context, src, dst string) error {
	start := c.s.log.now()
	err := c.inner.Link(ctx, src, dst)
	c.s.log.request(c.s.name, "LINK", src+" "+dst, start, err, "")
	return err
}
