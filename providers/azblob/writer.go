package azblob

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/streaming"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"

	"github.com/streamctl/streamctl/internal/upload"
	"github.com/streamctl/streamctl/providers"
)

// maxInFlight bounds the blocks being staged at once.
const maxInFlight = 2

// blocks is one blob being written as staged blocks (internal/upload), which
// one Put Block List commits.
type blocks struct {
	s    *Storage
	name string
	blob *blockblob.Client
	up   *upload.Writer
}

func (s *Storage) newBlocks(ctx context.Context, name string, threshold int64, hold <-chan struct{}) *blocks {
	b := &blocks{s: s, name: name, blob: s.blockBlob(name)}
	b.up = upload.New(ctx, upload.Options{
		PartSize:  int64(s.blockSize),
		Threshold: threshold,
		MaxParts:  maxBlocks,
		InFlight:  maxInFlight,
		Part:      b.stage,
		Hold:      hold,
		Name:      s.location(name),
		Hint:      "block_size",
	})
	return b
}

// stage sends one block. Block IDs are the block's index and a hash of its
// bytes: the same object staged twice uses the same IDs, and two writers
// racing on one blob never mix their blocks.
func (b *blocks) stage(ctx context.Context, index int, block io.ReadSeeker, _ int64) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, block); err != nil {
		return "", fmt.Errorf("stage block of %s: read the buffer: %w", b.s.location(b.name), err)
	}
	if _, err := block.Seek(0, io.SeekStart); err != nil {
		return "", fmt.Errorf("stage block of %s: read the buffer: %w", b.s.location(b.name), err)
	}
	id := base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "%08d-%x", index, h.Sum(nil)[:16]))
	actx, n := withAttempts(ctx)
	if _, err := b.blob.StageBlock(actx, id, streaming.NopCloser(block), nil); err != nil {
		return "", b.s.fail("stage block of", b.name, err, n)
	}
	return id, nil
}

// commit makes the blocks the blob. A retry of a commit whose answer was lost
// commits the same list again: the blocks are then committed ones, which the
// default "latest" list type takes as well, so the retry is harmless.
func (b *blocks) commit(ctx context.Context, ids []string) error {
	actx, n := withAttempts(ctx)
	_, err := b.blob.CommitBlockList(actx, ids, &blockblob.CommitBlockListOptions{Tier: b.s.tier})
	if err != nil {
		return b.s.fail("commit block list of", b.name, err, n)
	}
	return nil
}

// writer is the ObjectWriter of Storage.Create: one Put Blob for an object
// smaller than a block, else staged blocks that Commit commits.
type writer struct {
	b    *blocks
	done bool
}

func newWriter(ctx context.Context, s *Storage, name string) *writer {
	return &writer{b: s.newBlocks(ctx, name, int64(s.blockSize), nil)}
}

// Write implements io.Writer: it buffers p and stages every full block that a
// byte follows, so that an object of exactly one block goes in one Put Blob.
func (w *writer) Write(p []byte) (int, error) { return w.b.up.Write(p) }

// Commit implements providers.ObjectWriter: one Put Blob for an object smaller
// than a block, else one Put Block List of the staged blocks.
func (w *writer) Commit() error {
	if w.done {
		return fmt.Errorf("commit %s: the object is already committed or aborted", w.b.s.location(w.b.name))
	}
	w.done = true
	b := w.b
	defer b.up.Close()
	if err := b.up.Err(); err != nil {
		return err
	}
	if body, _, ok := b.up.Small(); ok {
		actx, n := withAttempts(b.up.Context())
		if _, err := b.blob.Upload(actx, streaming.NopCloser(body), &blockblob.UploadOptions{Tier: b.s.tier}); err != nil {
			return b.s.fail("put", b.name, err, n)
		}
		return nil
	}
	ids, err := b.up.Flush()
	if err != nil {
		return err
	}
	return b.commit(b.up.Context(), ids)
}

// Abort implements providers.ObjectWriter. It stops the blocks in flight; the
// staged ones are never committed and the service discards them.
func (w *writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.b.up.Abort()
	return nil
}

// stagedWriter is the StagedWriter of Storage.Stage: blocks staged on the
// final blob, which Publish commits with one Put Block List.
type stagedWriter struct {
	b    *blocks
	done bool
}

func (w *stagedWriter) Write(p []byte) (int, error) { return w.b.up.Write(p) }

func (w *stagedWriter) Finish() (providers.Staged, error) {
	if w.done {
		return nil, fmt.Errorf("stage %s: the object is already finished or aborted", w.b.s.location(w.b.name))
	}
	w.done = true
	b := w.b
	if err := b.up.Err(); err != nil {
		b.up.Abort()
		return nil, err
	}
	if d, ok := b.up.Defer(b.s.deferLimit(), b.s.waiting); ok {
		return &deferredPut{Deferred: d, b: b, started: time.Now()}, nil
	}
	defer b.up.Close()
	ids, err := b.up.Flush()
	if err != nil {
		return nil, err
	}
	return &staged{b: b, ids: ids, started: time.Now()}, nil
}

// Abort stops the blocks in flight. The staged ones stay uncommitted: the
// next commit of the blob drops them, or the service after a week.
func (w *stagedWriter) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.b.up.Abort()
	return nil
}

type staged struct {
	b       *blocks
	ids     []string
	started time.Time
}

func (u *staged) Upload() providers.StagedUpload {
	return providers.StagedUpload{Key: u.b.s.key(u.b.name), Started: u.started}
}

// Publish commits the block list; an empty object commits an empty list.
func (u *staged) Publish(ctx context.Context) error { return u.b.commit(ctx, u.ids) }

// Release does nothing: uncommitted blocks expire on the service.
func (u *staged) Release() {}

// deferredPut is a blob of at most deferLimit bytes, staged in its buffer:
// Publish sends it with one Put Blob, which replaces the blob atomically and,
// retried after a lost answer, writes the same bytes again.
type deferredPut struct {
	*upload.Deferred
	b       *blocks
	started time.Time
}

func (u *deferredPut) Upload() providers.StagedUpload {
	return providers.StagedUpload{Key: u.b.s.key(u.b.name), Started: u.started}
}

func (u *deferredPut) Publish(ctx context.Context) error {
	return u.Send(ctx, func(ctx context.Context, body io.ReadSeeker, _ int64) error {
		actx, n := withAttempts(ctx)
		if _, err := u.b.blob.Upload(actx, streaming.NopCloser(body), &blockblob.UploadOptions{Tier: u.b.s.tier}); err != nil {
			return u.b.s.fail("put", u.b.name, err, n)
		}
		return nil
	})
}

// stageAll stages everything written so far, the last partial block included,
// without committing; Commit then only commits the block list. Tests use it to
// see staged blocks, and the promotion benchmark to time the two halves apart.
func (w *writer) stageAll() error {
	_, err := w.b.up.Flush()
	return err
}
