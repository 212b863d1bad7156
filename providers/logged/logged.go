// Package logged wraps a providers.Storage so that every request it serves is
// written to a debug log: the store, the method, the key, the result and how
// long it took. streamctl wraps each destination's storage in it when
// STREAMCTL_LOG=debug, to show what a command asks of a store.
//
// A wrapper must not hide or invent a capability: the engine chooses how to
// stage and promote by the optional interfaces a store implements. Wrap
// returns a value with exactly the optional interfaces of the store it wraps;
// forward is the one place that knows them.
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

// Wrap returns s logging to log, with exactly s's optional capabilities.
func Wrap(s providers.Storage, log *Log) providers.Storage {
	return forward(&Storage{inner: s, log: log, name: s.Describe()})
}

// Unwrap returns the storage s wraps.
func (s *Storage) Unwrap() providers.Storage { return s.inner }

// forward gives s the optional interfaces of the storage it wraps. A
// StagedLister without Stager, or a ScratchCreator without Renamer, is not a
// capability the engine uses: those are left out.
func forward(s *Storage) providers.Storage {
	const (
		hasStager = 1 << iota
		hasStagedLister
		hasRenamer
		hasScratchCreator
		hasPrefixDeleter
	)
	caps := 0
	if _, ok := s.inner.(providers.Stager); ok {
		caps |= hasStager
		if _, ok := s.inner.(providers.StagedLister); ok {
			caps |= hasStagedLister
		}
	}
	if _, ok := s.inner.(providers.Renamer); ok {
		caps |= hasRenamer
		if _, ok := s.inner.(providers.ScratchCreator); ok {
			caps |= hasScratchCreator
		}
	}
	if _, ok := s.inner.(providers.PrefixDeleter); ok {
		caps |= hasPrefixDeleter
	}
	switch caps {
	case 0:
		return s
	case hasPrefixDeleter:
		return struct {
			*Storage
			prefixDeleter
		}{s, prefixDeleter{s}}
	case hasRenamer:
		return struct {
			*Storage
			renamer
		}{s, renamer{s}}
	case hasRenamer | hasPrefixDeleter:
		return struct {
			*Storage
			renamer
			prefixDeleter
		}{s, renamer{s}, prefixDeleter{s}}
	case hasRenamer | hasScratchCreator:
		return struct {
			*Storage
			renamer
			scratcher
		}{s, renamer{s}, scratcher{s}}
	case hasRenamer | hasScratchCreator | hasPrefixDeleter:
		return struct {
			*Storage
			renamer
			scratcher
			prefixDeleter
		}{s, renamer{s}, scratcher{s}, prefixDeleter{s}}
	case hasStager:
		return struct {
			*Storage
			stager
		}{s, stager{s}}
	case hasStager | hasPrefixDeleter:
		return struct {
			*Storage
			stager
			prefixDeleter
		}{s, stager{s}, prefixDeleter{s}}
	case hasStager | hasRenamer:
		return struct {
			*Storage
			stager
			renamer
		}{s, stager{s}, renamer{s}}
	case hasStager | hasRenamer | hasPrefixDeleter:
		return struct {
			*Storage
			stager
			renamer
			prefixDeleter
		}{s, stager{s}, renamer{s}, prefixDeleter{s}}
	case hasStager | hasRenamer | hasScratchCreator:
		return struct {
			*Storage
			stager
			renamer
			scratcher
		}{s, stager{s}, renamer{s}, scratcher{s}}
	case hasStager | hasRenamer | hasScratchCreator | hasPrefixDeleter:
		return struct {
			*Storage
			stager
			renamer
			scratcher
			prefixDeleter
		}{s, stager{s}, renamer{s}, scratcher{s}, prefixDeleter{s}}
	case hasStager | hasStagedLister:
		return struct {
			*Storage
			stager
			lister
		}{s, stager{s}, lister{s}}
	case hasStager | hasStagedLister | hasPrefixDeleter:
		return struct {
			*Storage
			stager
			lister
			prefixDeleter
		}{s, stager{s}, lister{s}, prefixDeleter{s}}
	case hasStager | hasStagedLister | hasRenamer:
		return struct {
			*Storage
			stager
			lister
			renamer
		}{s, stager{s}, lister{s}, renamer{s}}
	case hasStager | hasStagedLister | hasRenamer | hasPrefixDeleter:
		return struct {
			*Storage
			stager
			lister
			renamer
			prefixDeleter
		}{s, stager{s}, lister{s}, renamer{s}, prefixDeleter{s}}
	case hasStager | hasStagedLister | hasRenamer | hasScratchCreator:
		return struct {
			*Storage
			stager
			lister
			renamer
			scratcher
		}{s, stager{s}, lister{s}, renamer{s}, scratcher{s}}
	case hasStager | hasStagedLister | hasRenamer | hasScratchCreator | hasPrefixDeleter:
		return struct {
			*Storage
			stager
			lister
			renamer
			scratcher
			prefixDeleter
		}{s, stager{s}, lister{s}, renamer{s}, scratcher{s}, prefixDeleter{s}}
	}
	panic(fmt.Sprintf("logged: capabilities %b not forwarded", caps))
}

func (s *Storage) Describe() string { return s.inner.Describe() }

// ConditionalWritesUnchecked answers as the wrapped store: a store without
// the method is checked, as false says.
func (s *Storage) ConditionalWritesUnchecked() bool {
	u, ok := s.inner.(providers.UncheckedConditions)
	return ok && u.ConditionalWritesUnchecked()
}

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

type stager struct{ s *Storage }

func (c stager) Stage(ctx context.Context, key string, opt providers.StageOptions) (providers.StagedWriter, error) {
	start := c.s.log.now()
	w, err := c.s.inner.(providers.Stager).Stage(ctx, key, opt)
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

type lister struct{ s *Storage }

func (c lister) ListStaged(ctx context.Context, prefix string, fn func(providers.StagedUpload) error) error {
	start := c.s.log.now()
	n := 0
	err := c.s.inner.(providers.StagedLister).ListStaged(ctx, prefix, func(u providers.StagedUpload) error {
		n++
		return fn(u)
	})
	c.s.log.request(c.s.name, "LIST-STAGED", prefix, start, err, fmt.Sprintf("%d uploads", n))
	return err
}

func (c lister) Discard(ctx context.Context, u providers.StagedUpload) error {
	start := c.s.log.now()
	err := c.s.inner.(providers.StagedLister).Discard(ctx, u)
	c.s.log.request(c.s.name, "DISCARD", u.Key, start, err, "")
	return err
}

type renamer struct{ s *Storage }

func (c renamer) Rename(ctx context.Context, src, dst string) error {
	start := c.s.log.now()
	err := c.s.inner.(providers.Renamer).Rename(ctx, src, dst)
	c.s.log.request(c.s.name, "RENAME", src+" "+dst, start, err, "")
	return err
}

type scratcher struct{ s *Storage }

func (c scratcher) CreateScratch(ctx context.Context, key string) (providers.ObjectWriter, error) {
	start := c.s.log.now()
	w, err := c.s.inner.(providers.ScratchCreator).CreateScratch(ctx, key)
	if err != nil {
		c.s.log.request(c.s.name, "CREATE-SCRATCH", key, start, err, "")
		return nil, err
	}
	return &writer{ObjectWriter: w, s: c.s, key: key, method: "PUT-SCRATCH", start: start}, nil
}

type prefixDeleter struct{ s *Storage }

func (c prefixDeleter) DeletePrefix(ctx context.Context, prefix string) error {
	start := c.s.log.now()
	err := c.s.inner.(providers.PrefixDeleter).DeletePrefix(ctx, prefix)
	c.s.log.request(c.s.name, "DELETE-PREFIX", prefix, start, err, "")
	return err
}
