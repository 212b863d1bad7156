package azblob

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/streaming"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"

	"github.com/streamctl/streamctl/internal/spill"
)

// maxInFlight bounds the blocks being staged at once.
const maxInFlight = 2

// writer streams one blob. See Storage.Create.
type writer struct {
	s      *Storage
	name   string
	blob   *blockblob.Client
	ctx    context.Context
	cancel context.CancelFunc

	// The whole blob: in memory while small, then in a temporary file. The
	// block uploads read sections of it.
	buf    spill.Buffer
	staged int64         // bytes handed to block uploads
	slot   chan struct{} // one token per block in flight
	wg     sync.WaitGroup

	mu  sync.Mutex
	ids []string // block IDs in order; set by the staging goroutines
	err error    // the first staging error

	done bool
}

func newWriter(ctx context.Context, s *Storage, name string) *writer {
	ctx, cancel := context.WithCancel(ctx)
	return &writer{
		s:      s,
		name:   name,
		blob:   s.blockBlob(name),
		ctx:    ctx,
		cancel: cancel,
		slot:   make(chan struct{}, maxInFlight),
	}
}

func (w *writer) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// fail records err as the writer's failure, so that Commit refuses to publish
// a blob that lost bytes, and returns it.
func (w *writer) fail(err error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
	return err
}

// Write implements io.Writer: it buffers p and stages every full block. It
// blocks while two blocks are in flight.
func (w *writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("write %s: the object is already committed or aborted", w.s.location(w.name))
	}
	if err := w.failed(); err != nil {
		return 0, err
	}
	n, err := w.buf.Write(p)
	if err != nil {
		return n, w.fail(fmt.Errorf("write %s: %w", w.s.location(w.name), err))
	}
	// A block is staged once a byte follows it: an object of exactly one
	// block still goes in one Put Blob.
	for w.buf.Size()-w.staged > int64(w.s.blockSize) {
		if err := w.stage(int64(w.s.blockSize)); err != nil {
			return n, w.fail(err)
		}
	}
	return n, nil
}

// stage sends the next n buffered bytes to the service as a block, in the
// background. Block IDs are the block's index and a hash of its bytes: the
// same object staged twice uses the same IDs, and two writers racing on one
// blob never mix their blocks.
func (w *writer) stage(n int64) error {
	if len(w.ids) >= maxBlocks {
		return fmt.Errorf("write %s: more than %d blocks of %d bytes: raise block_size", w.s.location(w.name), maxBlocks, w.s.blockSize)
	}
	select {
	case w.slot <- struct{}{}:
	case <-w.ctx.Done():
		return fmt.Errorf("write %s: %w", w.s.location(w.name), w.ctx.Err())
	}
	block := w.buf.Section(w.staged, n)
	w.staged += n
	index := len(w.ids)
	w.mu.Lock()
	w.ids = append(w.ids, "")
	w.mu.Unlock()

	w.wg.Go(func() {
		defer func() { <-w.slot }()
		h := sha256.New()
		_, err := io.Copy(h, block)
		var id string
		if err == nil {
			id = base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "%08d-%x", index, h.Sum(nil)[:16]))
			_, err = block.Seek(0, io.SeekStart)
		}
		if err != nil {
			err = fmt.Errorf("stage block of %s: read the buffer: %w", w.s.location(w.name), err)
		}
		var n *atomic.Int32
		if err == nil {
			var actx context.Context
			actx, n = withAttempts(w.ctx)
			if _, err = w.blob.StageBlock(actx, id, streaming.NopCloser(block), nil); err != nil {
				err = w.s.fail("stage block of", w.name, err, n)
			}
		}
		w.mu.Lock()
		w.ids[index] = id
		if err != nil && w.err == nil {
			w.err = err
		}
		w.mu.Unlock()
	})
	return nil
}

// Commit implements providers.ObjectWriter: one Put Blob for an object smaller
// than a block, else one Put Block List of the staged blocks.
func (w *writer) Commit() error {
	if w.done {
		return fmt.Errorf("commit %s: the object is already committed or aborted", w.s.location(w.name))
	}
	w.done = true
	defer w.cancel()
	defer w.buf.Close()
	if err := w.failed(); err != nil {
		w.wg.Wait()
		return err
	}
	if len(w.ids) == 0 {
		actx, n := withAttempts(w.ctx)
		size := w.buf.Size()
		_, err := w.blob.Upload(actx, streaming.NopCloser(w.buf.Section(0, size)), &blockblob.UploadOptions{Tier: w.s.tier})
		if err != nil {
			return w.s.fail("put", w.name, err, n)
		}
		return nil
	}
	if err := w.stageAll(); err != nil {
		return err
	}
	if err := w.failed(); err != nil {
		return err
	}
	actx, n := withAttempts(w.ctx)
	_, err := w.blob.CommitBlockList(actx, w.ids, &blockblob.CommitBlockListOptions{Tier: w.s.tier})
	if err != nil {
		return w.s.fail("commit block list of", w.name, err, n)
	}
	return nil
}

// Abort implements providers.ObjectWriter. It stops the blocks in flight; the
// staged ones are never committed and the service discards them.
func (w *writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.cancel()
	w.wg.Wait() // the block uploads read the buffer
	w.buf.Close()
	return nil
}

// stageAll stages everything written so far, the last partial block included,
// without committing; Commit then only commits the block list. The promotion
// benchmark times the two halves apart.
func (w *writer) stageAll() error {
	if rest := w.buf.Size() - w.staged; rest > 0 {
		if err := w.stage(rest); err != nil {
			w.wg.Wait()
			return err
		}
	}
	w.wg.Wait()
	return w.failed()
}
