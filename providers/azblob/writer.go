package azblob

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"
)

// maxInFlight bounds the blocks being staged while the next one fills, so a
// writer holds at most maxInFlight+1 blocks in memory.
const maxInFlight = 2

// firstBuffer is what a writer allocates before it knows the object is large:
// manifests and state files stay small.
const firstBuffer = 64 << 10

// writer streams one blob. See Storage.Create.
type writer struct {
	s      *Storage
	name   string
	blob   *blockblob.Client
	ctx    context.Context
	cancel context.CancelFunc

	buf  []byte        // the block being filled
	free chan []byte   // block buffers back from staging
	slot chan struct{} // one token per block in flight
	wg   sync.WaitGroup

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
		free:   make(chan []byte, maxInFlight),
		slot:   make(chan struct{}, maxInFlight),
	}
}

func (w *writer) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Write implements io.Writer. It blocks while two blocks are in flight.
func (w *writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("write %s: the object is already committed or aborted", w.s.location(w.name))
	}
	written := 0
	for len(p) > 0 {
		if err := w.failed(); err != nil {
			return written, err
		}
		if len(w.buf) == w.s.blockSize {
			if err := w.stage(); err != nil {
				return written, err
			}
		}
		if room := cap(w.buf) - len(w.buf); room < len(p) && cap(w.buf) < w.s.blockSize {
			w.grow(len(w.buf) + len(p))
		}
		n := copy(w.buf[len(w.buf):cap(w.buf)], p)
		w.buf = w.buf[:len(w.buf)+n]
		p = p[n:]
		written += n
	}
	return written, nil
}

// grow makes room for want bytes in the current block: a small first buffer,
// then a whole block.
func (w *writer) grow(want int) {
	size := w.s.blockSize
	if want <= firstBuffer && firstBuffer < size {
		size = firstBuffer
	}
	if size <= cap(w.buf) {
		return
	}
	b := make([]byte, len(w.buf), size)
	copy(b, w.buf)
	w.buf = b
}

// stage sends the current block to the service in the background and starts a
// new one. Block IDs are the block's index and a hash of its bytes: the same
// object staged twice uses the same IDs, and two writers racing on one blob
// never mix their blocks.
func (w *writer) stage() error {
	if len(w.ids) >= maxBlocks {
		return fmt.Errorf("write %s: more than %d blocks of %d bytes: raise block_size", w.s.location(w.name), maxBlocks, w.s.blockSize)
	}
	select {
	case w.slot <- struct{}{}:
	case <-w.ctx.Done():
		return fmt.Errorf("write %s: %w", w.s.location(w.name), w.ctx.Err())
	}
	block := w.buf
	index := len(w.ids)
	w.mu.Lock()
	w.ids = append(w.ids, "")
	w.mu.Unlock()
	select {
	case w.buf = <-w.free:
		w.buf = w.buf[:0]
	default:
		w.buf = make([]byte, 0, w.s.blockSize)
	}

	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer func() { <-w.slot }()
		sum := sha256.Sum256(block)
		id := base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "%08d-%x", index, sum[:16]))
		actx, n := withAttempts(w.ctx)
		_, err := w.blob.StageBlock(actx, id, body(block), nil)
		w.mu.Lock()
		w.ids[index] = id
		if err != nil && w.err == nil {
			w.err = w.s.fail("stage block of", w.name, err, n)
		}
		w.mu.Unlock()
		if cap(block) == w.s.blockSize {
			select {
			case w.free <- block[:0]:
			default:
			}
		}
	}()
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
	if len(w.ids) == 0 {
		actx, n := withAttempts(w.ctx)
		_, err := w.blob.Upload(actx, body(w.buf), &blockblob.UploadOptions{Tier: w.s.tier})
		w.buf = nil
		if err != nil {
			return w.s.fail("put", w.name, err, n)
		}
		return nil
	}
	if len(w.buf) > 0 {
		if err := w.stage(); err != nil {
			w.wg.Wait()
			return err
		}
	}
	w.buf = nil
	w.wg.Wait()
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
	w.wg.Wait()
	w.buf = nil
	return nil
}

// stageAll stages everything written so far, the last partial block included,
// without committing; Commit then only commits the block list. The promotion
// benchmark times the two halves apart.
func (w *writer) stageAll() error {
	if len(w.buf) > 0 {
		if err := w.stage(); err != nil {
			return err
		}
	}
	w.wg.Wait()
	return w.failed()
}
