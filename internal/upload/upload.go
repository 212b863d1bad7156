// Package upload streams one object to an object store in parts while it is
// written: S3's multipart upload parts, Azure's staged blocks. It holds what
// the two providers share — the spill buffer, the cut into parts, the bounded
// uploads in the background and the first failure — so that each provider
// writes only its requests.
package upload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/spill"
)

// Part uploads part index (0-based, in order of the object) whose bytes body
// holds; body can seek, for checksums and for the retries of a request. It
// runs in the background, at most InFlight at once, and returns the part's
// token (an ETag, a block ID) that the object's commit lists.
type Part func(ctx context.Context, index int, body io.ReadSeeker, size int64) (token string, err error)

// Options shape a Writer.
type Options struct {
	// PartSize is the size of every part but the last.
	PartSize int64
	// Threshold: parts are sent only once the object outgrew it, so that a
	// small object goes in one request (Small). 0 sends parts as they fill.
	Threshold int64
	// MaxParts bounds the number of parts; past it Write fails with a hint.
	MaxParts int
	// InFlight bounds the parts being uploaded at once (default 2).
	InFlight int
	// Begin is called once, before the first part is sent: S3 creates the
	// multipart upload there.
	Begin func(ctx context.Context) error
	// Hold, when not nil, keeps every request back until it is closed: the
	// object is buffered meanwhile, and Flush waits for it (see
	// providers.StageOptions).
	Hold <-chan struct{}
	// Part uploads one part.
	Part Part
	// Name names the object in errors, e.g. "s3://bucket/key".
	Name string
	// Hint says what to raise when MaxParts is reached, e.g. "part_size".
	Hint string
}

// Writer buffers an object and uploads it in parts. It is not safe for
// concurrent use, like any io.Writer; its uploads run in the background.
type Writer struct {
	opt    Options
	ctx    context.Context // cancelled by Abort and Close
	cancel context.CancelFunc

	// The whole object: in memory while small, then in a temporary file.
	// Uploads read sections of it.
	buf     spill.Buffer
	sent    int64 // bytes handed to part uploads
	begun   bool
	nparts  int
	slot    chan struct{}
	wg      sync.WaitGroup
	stopped bool

	mu     sync.Mutex // guards the fields below, written by the uploads
	tokens []string
	err    error // the first failure
}

// New returns a Writer whose uploads run under ctx.
func New(ctx context.Context, opt Options) *Writer {
	if opt.InFlight <= 0 {
		opt.InFlight = 2
	}
	ctx, cancel := context.WithCancel(ctx)
	return &Writer{opt: opt, ctx: ctx, cancel: cancel, slot: make(chan struct{}, opt.InFlight)}
}

// Context is the writer's context, cancelled by Abort and Close.
func (w *Writer) Context() context.Context { return w.ctx }

// Err is the first failure of a write or an upload.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// fail records err as the writer's failure, so that a commit never publishes
// an object that lost bytes, and returns it.
func (w *Writer) fail(err error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
	return w.err
}

// Write buffers p and, once the object outgrew the threshold, sends every
// full part that a byte follows (the last part is sent by Flush). It blocks
// while InFlight parts are being uploaded.
func (w *Writer) Write(p []byte) (int, error) {
	if w.stopped {
		return 0, fmt.Errorf("write %s: the object is already committed or aborted", w.opt.Name)
	}
	if err := w.Err(); err != nil {
		return 0, err
	}
	n, err := w.buf.Write(p)
	if err != nil {
		return n, w.fail(fmt.Errorf("write %s: %w", w.opt.Name, err))
	}
	if w.buf.Size() <= w.opt.Threshold || w.held() {
		return n, nil
	}
	if err := w.sendFull(); err != nil {
		return n, w.fail(err)
	}
	return n, nil
}

// sendFull sends every full part that a buffered byte follows.
func (w *Writer) sendFull() error {
	for w.buf.Size()-w.sent > w.opt.PartSize {
		if err := w.send(w.opt.PartSize); err != nil {
			return err
		}
	}
	return nil
}

// held says whether Hold still keeps the requests back.
func (w *Writer) held() bool {
	if w.opt.Hold == nil {
		return false
	}
	select {
	case <-w.opt.Hold:
		return false
	default:
		return true
	}
}

// send uploads the next n buffered bytes as the next part, in the background.
func (w *Writer) send(n int64) error {
	if w.opt.MaxParts > 0 && w.nparts == w.opt.MaxParts {
		return fmt.Errorf("write %s: the object exceeds %d parts of %d bytes: raise %s", w.opt.Name, w.opt.MaxParts, w.opt.PartSize, w.opt.Hint)
	}
	if !w.begun {
		w.begun = true
		if w.opt.Begin != nil {
			if err := w.opt.Begin(w.ctx); err != nil {
				return err
			}
		}
	}
	select {
	case w.slot <- struct{}{}:
	case <-w.ctx.Done():
		return fmt.Errorf("write %s: %w", w.opt.Name, w.ctx.Err())
	}
	if err := w.Err(); err != nil {
		<-w.slot
		return err
	}
	index := w.nparts
	w.nparts++
	body := w.buf.Section(w.sent, n)
	w.sent += n
	w.mu.Lock()
	w.tokens = append(w.tokens, "")
	w.mu.Unlock()
	w.wg.Go(func() {
		defer func() { <-w.slot }()
		defer crash.Report()
		token, err := w.opt.Part(w.ctx, index, body, n)
		w.mu.Lock()
		defer w.mu.Unlock()
		w.tokens[index] = token
		if err != nil && w.err == nil {
			w.err = err
		}
	})
	return nil
}

// Small returns the whole object when no part was sent: it goes in one
// request. It returns ok = false once parts are on their way.
func (w *Writer) Small() (body io.ReadSeeker, size int64, ok bool) {
	if w.begun {
		return nil, 0, false
	}
	size = w.buf.Size()
	return w.buf.Section(0, size), size, true
}

// Size is the number of bytes written.
func (w *Writer) Size() int64 { return w.buf.Size() }

// Began says whether the parts were begun (Begin was called).
func (w *Writer) Began() bool { return w.begun }

// Flush sends what is left as the last part, waits for every upload and
// returns the parts' tokens in order. An empty object has no parts: the
// provider decides what committing it takes.
func (w *Writer) Flush() ([]string, error) {
	if w.stopped {
		return nil, fmt.Errorf("write %s: the object is already committed or aborted", w.opt.Name)
	}
	var err error
	if w.opt.Hold != nil {
		select {
		case <-w.opt.Hold:
		case <-w.ctx.Done():
			err = fmt.Errorf("write %s: %w", w.opt.Name, w.ctx.Err())
		}
	}
	if err == nil {
		err = w.sendFull() // the parts held back
	}
	if rest := w.buf.Size() - w.sent; rest > 0 && err == nil {
		err = w.send(rest)
	}
	w.wg.Wait()
	if err != nil {
		return nil, w.fail(err)
	}
	if err := w.Err(); err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.tokens...), nil
}

// Close ends the writer after a commit: the uploads are done, the buffer is
// released. It reports a failed release of the buffer's file.
func (w *Writer) Close() error {
	w.stopped = true
	w.cancel()
	w.wg.Wait()
	return w.buf.Close()
}

// Abort stops the uploads in flight and releases the buffer. It is safe after
// Close and returns whether the writer was still open (the caller then
// discards the parts the store keeps).
func (w *Writer) Abort() bool {
	if w.stopped {
		return false
	}
	w.stopped = true
	w.cancel()
	w.wg.Wait() // the uploads read the buffer
	_ = w.buf.Close()
	_ = w.fail(errAborted)
	return true
}

var errAborted = errors.New("aborted")

// Budget bounds the objects that wait in their buffers for one write later
// (staged objects sent whole at promotion). Those past spill.MemoryLimit
// each hold a temporary file open: their number is bounded, and their bytes.
// Those in memory are bounded by their bytes alone, in a Memory shared by
// the storages of the process, so that a batch of ten thousand small files
// sends each with one request (not three, as a multipart upload takes)
// while its memory stays bounded however many destinations it writes. An
// object the budget refuses is uploaded at once instead.
type Budget struct {
	MaxObjects int     // objects on disk
	MaxBytes   int64   // bytes of the objects on disk and in memory
	Memory     *Memory // the bytes of the objects in memory; nil: none

	mu      sync.Mutex
	objects int
	bytes   int64
}

// Memory bounds bytes held in memory, for every Budget that shares it.
type Memory struct {
	Max int64

	mu   sync.Mutex
	used int64
}

func (m *Memory) take(size int64) bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.used+size > m.Max {
		return false
	}
	m.used += size
	return true
}

func (m *Memory) give(size int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.used -= size
}

// processMemory is the memory the waiting objects of all the storages of
// this process share: 32 MiB, some ten thousand files of 3 KB.
var processMemory = &Memory{Max: 32 << 20}

// DefaultBudget is what each storage lets wait: 64 objects on disk, 128 MiB
// in all, so that a batch of one 64 MiB object can be staged while the one
// before it is still being published; and a share of the process's memory
// for waiting objects.
func DefaultBudget() *Budget {
	return &Budget{MaxObjects: 64, MaxBytes: 128 << 20, Memory: processMemory}
}

// Take reserves room for an object of size bytes, in memory or on disk, or
// reports that there is none.
func (b *Budget) Take(size int64, inMemory bool) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bytes+size > b.MaxBytes {
		return false
	}
	if inMemory {
		if !b.Memory.take(size) {
			return false
		}
	} else {
		if b.objects+1 > b.MaxObjects {
			return false
		}
		b.objects++
	}
	b.bytes += size
	return true
}

// Give returns what Take reserved.
func (b *Budget) Give(size int64, inMemory bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if inMemory {
		b.Memory.give(size)
	} else {
		b.objects--
	}
	b.bytes -= size
}

// Deferred is an object kept whole in its Writer's buffer, under a Budget,
// until Send writes it with one request: a staged object published later.
type Deferred struct {
	w        *Writer
	budget   *Budget
	size     int64
	inMemory bool
	done     bool // sent or released: the buffer and the budget are given back
}

// Defer keeps the object in its buffer for one write later, when no part was
// sent, it is at most limit bytes and budget has room. Otherwise the caller
// uploads it in parts now.
func (w *Writer) Defer(limit int64, budget *Budget) (*Deferred, bool) {
	_, size, ok := w.Small()
	inMemory := w.buf.InMemory()
	if !ok || size > limit || !budget.Take(size, inMemory) {
		return nil, false
	}
	w.stopped = true // no more writes: the buffer is the object
	w.buf.Compact()
	return &Deferred{w: w, budget: budget, size: size, inMemory: inMemory}, true
}

// Send writes the object with put, once: sending it again is a no-op, as the
// retry of a write whose answer was lost wrote the same bytes.
func (d *Deferred) Send(ctx context.Context, put func(ctx context.Context, body io.ReadSeeker, size int64) error) error {
	if d.done {
		return nil
	}
	body, size, _ := d.w.Small()
	if err := put(ctx, body, size); err != nil {
		return err
	}
	d.Release()
	return nil
}

// Release frees the buffer and the budget; it does nothing after Send.
func (d *Deferred) Release() {
	if !d.done {
		d.done = true
		_ = d.w.Close()
		d.budget.Give(d.size, d.inMemory)
	}
}
