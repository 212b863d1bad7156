// Package pipeline is the record path of one batch: records in, encoded files out.
// It decodes, routes, partitions and encodes; it knows nothing of staging,
// promotion or manifests, which are the engine's. Output is byte-deterministic:
// the same records in the same order give the same files with the same names.
package pipeline

import (
	"bufio"
	"fmt"
	"path"

	"github.com/streamctl/streamctl/providers"
)

// Layout is how a sink turns records into files. Destinations of a sink share it.
type Layout struct {
	Format string // "jsonl"
	// Destinations are the names of all the batch's destinations; the engine
	// fills them in per batch, and routing is over them.
	Destinations   []string
	MaxFileRecords int64 // 0: one file per partition folder per batch
}

// Output receives the files of a batch.
type Output interface {
	// Create opens the file at relPath (a partition folder, then the file name) for
	// the destinations dests (indices into the batch's destination list).
	Create(dests []int, relPath string) (File, error)
}

// File is one output file being written.
type File interface {
	Write(p []byte) (int, error)
	// Finish completes the file, which holds records records.
	Finish(records int64) error
	// Abort discards the file.
	Abort()
}

// Stats counts what a batch wrote.
type Stats struct {
	Records  int64 // records read
	Files    int64
	Rejected int64 // records that did not fit the schema and were set aside
}

// FileName is the deterministic name of file seq of batch.
func FileName(batch int64, seq int, ext string) string {
	return fmt.Sprintf("part-%08d-%05d.%s", batch, seq, ext)
}

// Writer encodes one batch. Write records in source order, then Close.
type Writer struct {
	layout Layout
	batch  int64
	dests  []int
	out    Output

	file    File
	buf     *bufio.Writer
	records int64 // in the open file
	seq     int
	stats   Stats
}

// New returns a Writer for batch, writing to the destinations active (indices
// into the batch's destination list).
func New(layout Layout, batch int64, active []int, out Output) (*Writer, error) {
	if layout.Format != "jsonl" {
		return nil, fmt.Errorf("format %q is not supported", layout.Format)
	}
	return &Writer{layout: layout, batch: batch, dests: active, out: out}, nil
}

// Write appends one record.
func (w *Writer) Write(rec *providers.Record) error {
	w.stats.Records++
	if len(w.dests) == 0 {
		return nil
	}
	if w.file != nil && w.layout.MaxFileRecords > 0 && w.records >= w.layout.MaxFileRecords {
		if err := w.finish(); err != nil {
			return err
		}
	}
	if w.file == nil {
		f, err := w.out.Create(w.dests, path.Join(FileName(w.batch, w.seq, "jsonl")))
		if err != nil {
			return err
		}
		w.seq++
		w.file = f
		if w.buf == nil {
			w.buf = bufio.NewWriterSize(f, 256<<10)
		} else {
			w.buf.Reset(f)
		}
	}
	w.records++
	w.buf.Write(rec.Value)
	return w.buf.WriteByte('\n')
}

func (w *Writer) finish() error {
	f := w.file
	w.file = nil
	if err := w.buf.Flush(); err != nil {
		f.Abort()
		return err
	}
	n := w.records
	w.records = 0
	w.stats.Files++
	return f.Finish(n)
}

// Close finishes the open files and returns what was written.
func (w *Writer) Close() (Stats, error) {
	if w.file != nil {
		if err := w.finish(); err != nil {
			return w.stats, err
		}
	}
	return w.stats, nil
}

// Abort discards the open files.
func (w *Writer) Abort() {
	if w.file != nil {
		w.file.Abort()
		w.file = nil
	}
}
