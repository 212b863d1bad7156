package faulty

import (
	"context"

	"github.com/streamctl/streamctl/providers"
)

// Operations of a store that stages uploads on their final keys.
const (
	Stage      Op = "stage"   // the staged writer's Finish
	Publish    Op = "publish" // on the upload's key
	ListStaged Op = "list-staged"
	Discard    Op = "discard"
)

// StagingStore is a Storage that stages uploads and lists them, as S3 does.
type StagingStore interface {
	providers.Storage
	providers.Stager
	providers.StagedLister
}

// Staging is a StagingStore with faults.
type Staging struct {
	*Storage
	inner StagingStore
}

var (
	_ providers.Stager       = (*Staging)(nil)
	_ providers.StagedLister = (*Staging)(nil)
)

// WrapStaging returns s with faults, each firing once.
func WrapStaging(s StagingStore, faults ...Fault) *Staging {
	return &Staging{Storage: Wrap(s, faults...), inner: s}
}

func (s *Staging) Stage(ctx context.Context, key string, opt providers.StageOptions) (providers.StagedWriter, error) {
	w, err := s.inner.Stage(ctx, key, opt)
	if err != nil {
		return nil, err
	}
	return &stagedWriter{StagedWriter: w, s: s, key: key}, nil
}

type stagedWriter struct {
	providers.StagedWriter
	s   *Staging
	key string
}

func (w *stagedWriter) Finish() (providers.Staged, error) {
	fail, applied := w.s.hit(Stage, w.key)
	if fail && !applied {
		w.StagedWriter.Abort()
		return nil, injected(Stage, w.key)
	}
	u, err := w.StagedWriter.Finish()
	if err != nil {
		return nil, err
	}
	if fail {
		// Staged, and the answer lost: the upload stays behind.
		return nil, injected(Stage, w.key)
	}
	return &staged{Staged: u, s: w.s}, nil
}

type staged struct {
	providers.Staged
	s *Staging
}

var _ providers.Staged = (*staged)(nil)

func (u *staged) Publish(ctx context.Context) error {
	key := u.Upload().Key
	fail, applied := u.s.hit(Publish, key)
	if fail && !applied {
		return injected(Publish, key)
	}
	if err := u.Staged.Publish(ctx); err != nil {
		return err
	}
	if fail {
		return injected(Publish, key)
	}
	return nil
}

func (s *Staging) ListStaged(ctx context.Context, prefix string, fn func(providers.StagedUpload) error) error {
	if fail, _ := s.hit(ListStaged, prefix); fail {
		return injected(ListStaged, prefix)
	}
	return s.inner.ListStaged(ctx, prefix, fn)
}

func (s *Staging) Discard(ctx context.Context, u providers.StagedUpload) error {
	fail, applied := s.hit(Discard, u.Key)
	if fail && !applied {
		return injected(Discard, u.Key)
	}
	if err := s.inner.Discard(ctx, u); err != nil {
		return err
	}
	if fail {
		return injected(Discard, u.Key)
	}
	return nil
}
