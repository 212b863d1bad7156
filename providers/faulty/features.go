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

// Features implements providers.Storage: the wrapped store's capabilities,
// each with faults. A capability this package does not know yet passes
// through unwrapped, still taking the bare store's path.
func (s *Storage) Features() providers.Features {
	f := s.Storage.Features()
	if f.ScratchCreator != nil {
		f.ScratchCreator = scratchCreator{s, f.ScratchCreator}
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
		f.StagedLister = stagedLister{s, f.StagedLister}
	}
	return f
}

type scratchCreator struct {
	s     *Storage
	inner providers.ScratchCreator
}

func (c scratchCreator) CreateScratch(ctx context.Context, key string) (providers.ObjectWriter, error) {
	w, err := c.inner.CreateScratch(ctx, key)
	if err != nil {
		return nil, err
	}
	return &writer{ObjectWriter: w, s: c.s, key: key}, nil
}

type renamer struct {
	s     *Storage
	inner providers.Renamer
}

func (r renamer) Rename(ctx context.Context, src, dst string) error {
	return r.s.call(Rename, dst, func() error { return r.inner.Rename(ctx, src, dst) })
}

type linker struct {
	s     *Storage
	inner providers.Linker
}

func (l linker) Link(ctx context.Context, src, dst string) error {
	return l.s.call(Link, dst, func() error { return l.inner.Link(ctx, src, dst) })
}

type prefixDeleter struct {
	s     *Storage
	inner providers.PrefixDeleter
}

func (d prefixDeleter) DeletePrefix(ctx context.Context, prefix string) error {
	return d.s.call(DeletePrefix, prefix, func() error { return d.inner.DeletePrefix(ctx, prefix) })
}

type stager struct {
	s     *Storage
	inner providers.Stager
}

func (st stager) Stage(ctx context.Context, key string, opt providers.StageOptions) (providers.StagedWriter, error) {
	w, err := st.inner.Stage(ctx, key, opt)
	if err != nil {
		return nil, err
	}
	return &stagedWriter{StagedWriter: w, s: st.s, key: key}, nil
}

type stagedWriter struct {
	providers.StagedWriter
	s   *Storage
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
	s *Storage
}

var _ providers.Staged = (*staged)(nil)

func (u *staged) Publish(ctx context.Context) error {
	key := u.Upload().Key
	return u.s.call(Publish, key, func() error { return u.Staged.Publish(ctx) })
}

type stagedLister struct {
	s     *Storage
	inner providers.StagedLister
}

func (l stagedLister) ListStaged(ctx context.Context, prefix string, fn func(providers.StagedUpload) error) error {
	if fail, _ := l.s.hit(ListStaged, prefix); fail {
		return injected(ListStaged, prefix)
	}
	return l.inner.ListStaged(ctx, prefix, fn)
}

func (l stagedLister) Discard(ctx context.Context, u providers.StagedUpload) error {
	return l.s.call(Discard, u.Key, func() error { return l.inner.Discard(ctx, u) })
}
