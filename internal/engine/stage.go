package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strings"
	"sync"

	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
)

// stage encodes the batch once and writes it under _temporary/<N>/ of every
// pending destination. It returns each destination's files (indexed like
// b.Destinations).
func (e *Engine) stage(ctx context.Context, sink *Sink, b planner.Batch, pending []int) (*staging, pipeline.Stats, error) {
	tmp := sink.temporaryPrefix(b.ID)
	if err := e.fence(sink.Name); err != nil {
		return nil, pipeline.Stats{}, fmt.Errorf("stage batch %d: %w", b.ID, err)
	}
	for _, i := range pending {
		d := sink.destination(b.Destinations[i])
		// Leftovers of a crashed attempt are not trusted: staging starts clean.
		if err := clearStaging(ctx, sink, d.Storage, b.ID); err != nil {
			return nil, pipeline.Stats{}, fmt.Errorf("stage batch %d to %s: clear %s: %w", b.ID, d.Name, tmp, err)
		}
	}
	return e.encode(ctx, sink, b, pending, nil)
}

// encode reads the batch's ranges once and writes its files to the staging
// area of every pending destination. hold, when not nil, keeps uploads off
// the stores until it is closed (see ahead).
func (e *Engine) encode(ctx context.Context, sink *Sink, b planner.Batch, pending []int, hold <-chan struct{}) (*staging, pipeline.Stats, error) {
	out := &stagingOutput{ctx: ctx, sink: sink, batch: b, prefix: sink.temporaryPrefix(b.ID), hold: hold, staging: staging{
		files:  make([][]FileEntry, len(b.Destinations)),
		staged: make([][]providers.Staged, len(b.Destinations)),
	}}
	layout := sink.Layout
	layout.Destinations = b.Destinations
	layout.Shard = sink.fileShard()
	w, err := pipeline.New(layout, b.ID, pending, out)
	if err != nil {
		return nil, pipeline.Stats{}, fmt.Errorf("stage batch %d of sink %s: %w", b.ID, sink.Name, err)
	}
	ranges := make([]providers.Range, len(b.Ranges))
	for i, r := range b.Ranges {
		ranges[i] = providers.Range(r)
	}
	// The error names its range: "read partition %s [%d, %d): ...".
	if err := providers.ReadRanges(ctx, sink.Source, ranges, w.Write); err != nil {
		w.Abort()
		out.discard(sink)
		return nil, pipeline.Stats{}, fmt.Errorf("stage batch %d of sink %s: %w", b.ID, sink.Name, err)
	}
	stats, err := w.Close()
	if err != nil {
		w.Abort()
		out.discard(sink)
		return nil, stats, fmt.Errorf("stage batch %d of sink %s: %w", b.ID, sink.Name, err)
	}
	return &out.staging, stats, nil
}

// staging is what a batch staged, per destination (indexed like
// b.Destinations): the manifest's files, and the uploads that publishing
// makes them, on a providers.Stager.
type staging struct {
	files  [][]FileEntry
	staged [][]providers.Staged
}

// stagingOutput is the pipeline's Output: each file is written once and teed
// to the staging area of every destination that gets it, with one checksum.
type stagingOutput struct {
	ctx    context.Context
	sink   *Sink
	batch  planner.Batch
	prefix string
	hold   <-chan struct{} // see providers.StageOptions

	mu sync.Mutex
	staging
}

func (o *stagingOutput) Create(dests []int, relPath string) (pipeline.File, error) {
	f := &stagedFile{out: o, rel: relPath, dests: dests, hash: sha256.New()}
	for _, i := range dests {
		d := o.sink.destination(o.batch.Destinations[i])
		if tf, ok := d.Table.(TableFooters); ok && tf.Footers() && strings.HasSuffix(relPath, ".parquet") {
			f.keepTail = true
		}
		var (
			w   fileWriter
			err error
		)
		features := d.Storage.Features()
		if st := features.Stager; st != nil {
			var sw providers.StagedWriter
			sw, err = st.Stage(o.ctx, relPath, providers.StageOptions{Hold: o.hold})
			w = stagedWriter{sw}
		} else {
			var ow providers.ObjectWriter
			if sc := features.ScratchCreator; sc != nil {
				// Promoted by rename, which makes the name durable; a
				// staged file a crash loses is staged again.
				ow, err = sc.CreateScratch(o.ctx, o.prefix+relPath)
			} else {
				ow, err = d.Storage.Create(o.ctx, o.prefix+relPath)
			}
			w = temporaryWriter{ow}
		}
		if err != nil {
			f.Abort()
			return nil, fmt.Errorf("stage batch %d to %s: %w", o.batch.ID, d.Name, err)
		}
		f.writers = append(f.writers, w)
	}
	return f, nil
}

// discard drops the uploads staged before a failure, so that a failed run
// leaves no billed parts behind; what it misses, the next attempt's
// clearStaging removes.
func (o *stagingOutput) discard(sink *Sink) {
	o.mu.Lock()
	defer o.mu.Unlock()
	ctx := context.WithoutCancel(o.ctx)
	for i, uploads := range o.staged {
		d := sink.destination(o.batch.Destinations[i])
		l := d.Storage.Features().StagedLister
		for _, u := range uploads {
			u.Release()
			if l != nil && u.Upload().ID != "" {
				_ = l.Discard(ctx, u.Upload())
			}
		}
	}
}

// fileWriter writes one staged file to one destination: under _temporary/<N>/
// (promoted by rename or copy), or staged on its final key (published).
type fileWriter interface {
	io.Writer
	finish() (providers.Staged, error)
	abort()
}

type temporaryWriter struct{ providers.ObjectWriter }

func (w temporaryWriter) finish() (providers.Staged, error) { return nil, w.Commit() }
func (w temporaryWriter) abort()                            { _ = w.Abort() }

type stagedWriter struct{ providers.StagedWriter }

func (w stagedWriter) finish() (providers.Staged, error) { return w.Finish() }
func (w stagedWriter) abort()                            { _ = w.Abort() }

type stagedFile struct {
	out     *stagingOutput
	rel     string
	dests   []int
	writers []fileWriter
	hash    hash.Hash
	size    int64
	// keepTail keeps the file's last bytes in tail, for its footer.
	keepTail bool
	tail     []byte
}

// footerTail bounds the end of a file kept for its Parquet footer (at most
// twice this is held per open file, so that trimming copies it once per
// footerTail bytes written): ten columns over twenty row groups take about
// 30 KiB; a larger footer is not kept, and the table goes without the
// file's statistics.
const footerTail = 32 << 10

func (f *stagedFile) Write(p []byte) (int, error) {
	f.hash.Write(p)
	if f.keepTail {
		f.tail = append(f.tail, p...)
		if len(f.tail) > 2*footerTail {
			f.tail = append(f.tail[:0], f.tail[len(f.tail)-footerTail:]...)
		}
	}
	for k, w := range f.writers {
		if _, err := w.Write(p); err != nil {
			name := f.out.batch.Destinations[f.dests[k]]
			return 0, fmt.Errorf("stage batch %d to %s: write %s: %w", f.out.batch.ID, name, f.rel, err)
		}
	}
	f.size += int64(len(p))
	return len(p), nil
}

// parquetFooter is the footer at the end of a Parquet file's tail
// (FileMetaData, its length, "PAR1"), or nil when the tail lacks it.
func parquetFooter(tail []byte) []byte {
	n := len(tail)
	if n < 8 || string(tail[n-4:]) != "PAR1" {
		return nil
	}
	size := int(binary.LittleEndian.Uint32(tail[n-8 : n-4]))
	if size > n-8 {
		return nil
	}
	return bytes.Clone(tail[n-8-size : n-8])
}

func (f *stagedFile) Finish(records int64) error {
	sum := hex.EncodeToString(f.hash.Sum(nil))
	var footer []byte
	if f.keepTail {
		footer, f.tail = parquetFooter(f.tail), nil
	}
	for k, w := range f.writers {
		i := f.dests[k]
		staged, err := w.finish()
		if err != nil {
			return fmt.Errorf("stage batch %d to %s: write %s: %w", f.out.batch.ID, f.out.batch.Destinations[i], f.rel, err)
		}
		f.out.mu.Lock()
		f.out.files[i] = append(f.out.files[i], FileEntry{Path: f.rel, Size: f.size, Records: records, SHA256: sum, Footer: footer})
		if staged != nil {
			f.out.staged[i] = append(f.out.staged[i], staged)
		}
		f.out.mu.Unlock()
		fault.Point("after-stage-file")
	}
	return nil
}

func (f *stagedFile) Abort() {
	for _, w := range f.writers {
		w.abort()
	}
}
