package mem

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/streamctl/streamctl/providers"
)

// Staging is a Storage that also stages uploads on their final keys, as S3's
// multipart uploads do (providers.Stager and providers.StagedLister), so that
// the engine's tests run both ways of promoting a batch.
type Staging struct {
	*Storage
	uploads map[string]*memUpload // by upload ID; guarded by Storage.mu
	next    int
}

type memUpload struct {
	key     string
	data    []byte
	started time.Time
}

var (
	_ providers.Stager       = (*Staging)(nil)
	_ providers.StagedLister = (*Staging)(nil)
)

// Features implements providers.Storage: uploads are staged and listed.
func (s *Staging) Features() providers.Features {
	return providers.Features{Stager: s, StagedLister: s}
}

// NewStaging returns an empty staging storage described as "mem://name".
func NewStaging(name string) *Staging {
	return &Staging{Storage: New(name), uploads: map[string]*memUpload{}}
}

// Stage implements providers.Stager. Every upload is listed from its Finish
// on, which therefore waits for opt.Hold.
func (s *Staging) Stage(ctx context.Context, key string, opt providers.StageOptions) (providers.StagedWriter, error) {
	if err := checkKey(key); err != nil {
		return nil, fmt.Errorf("stage %s: %w", s.Describe(), err)
	}
	return &stagedWriter{ctx: ctx, s: s, key: key, opt: opt}, nil
}

type stagedWriter struct {
	ctx  context.Context
	s    *Staging
	key  string
	opt  providers.StageOptions
	buf  bytes.Buffer
	done bool
}

func (w *stagedWriter) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("stage %s: write to a finished object", w.key)
	}
	return w.buf.Write(p)
}

func (w *stagedWriter) Finish() (providers.Staged, error) {
	if w.done {
		return nil, fmt.Errorf("stage %s: finish of a finished object", w.key)
	}
	w.done = true
	if err := w.opt.Wait(w.ctx); err != nil {
		return nil, fmt.Errorf("stage %s: %w", w.key, err)
	}
	s := w.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	s.clock++
	id := "upload-" + strconv.Itoa(s.next)
	u := &memUpload{key: w.key, data: bytes.Clone(w.buf.Bytes()), started: time.Unix(1_800_000_000+s.clock, 0).UTC()}
	s.uploads[id] = u
	return &staged{s: s, id: id, u: u}, nil
}

func (w *stagedWriter) Abort() error {
	w.done = true
	return nil
}

type staged struct {
	s  *Staging
	id string
	u  *memUpload
}

func (u *staged) Upload() providers.StagedUpload {
	return providers.StagedUpload{Key: u.u.key, ID: u.id, Started: u.u.started}
}

// Publish makes the upload the object at its key. Publishing twice is the
// lost answer of the rule in providers.Storage: success, when the object is
// still this upload's.
func (u *staged) Publish(context.Context) error {
	s := u.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.uploads[u.id]; !ok {
		if o, ok := s.objects[u.u.key]; ok && bytes.Equal(o.data, u.u.data) {
			return nil
		}
		return fmt.Errorf("publish %s/%s: no such upload %s", s.Describe(), u.u.key, u.id)
	}
	delete(s.uploads, u.id)
	s.put(u.u.key, u.u.data)
	return nil
}

// Release implements providers.Staged: the upload stays listed, as an S3
// multipart upload stays until aborted.
func (u *staged) Release() {}

// ListStaged implements providers.StagedLister, in key order.
func (s *Staging) ListStaged(_ context.Context, prefix string, fn func(providers.StagedUpload) error) error {
	s.mu.Lock()
	var list []providers.StagedUpload
	for id, u := range s.uploads {
		if strings.HasPrefix(u.key, prefix) {
			list = append(list, providers.StagedUpload{Key: u.key, ID: id, Started: u.started})
		}
	}
	s.mu.Unlock()
	sort.Slice(list, func(i, j int) bool {
		if list[i].Key != list[j].Key {
			return list[i].Key < list[j].Key
		}
		return list[i].ID < list[j].ID
	})
	for _, u := range list {
		if err := fn(u); err != nil {
			return err
		}
	}
	return nil
}

// Discard implements providers.StagedLister.
func (s *Staging) Discard(_ context.Context, u providers.StagedUpload) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.uploads, u.ID)
	return nil
}
