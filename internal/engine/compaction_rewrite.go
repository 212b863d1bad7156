package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"path"

	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// rewriter writes the rows of a folder's files into new files of the
// target size, in order: by file as given, then by row. CSV and JSONL rows
// are copied byte for byte; Parquet rows are decoded and encoded again.
type rewriter struct {
	sink   *Sink
	c      *state.Compaction
	format *format.Format
	ext    string
	seq    map[string]int
}

func newRewriter(sink *Sink, c *state.Compaction) (*rewriter, error) {
	f, err := pipeline.FileFormat(sink.Layout)
	if err != nil {
		return nil, err
	}
	return &rewriter{sink: sink, c: c, format: f, ext: f.Ext(), seq: map[string]int{}}, nil
}

// outFile is a new file being written under the compaction's temporary
// folder.
type outFile struct {
	w       providers.ObjectWriter
	hash    hash.Hash
	size    int64
	records int64
	entry   FileEntry
}

func (o *outFile) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	o.hash.Write(p[:n])
	o.size += int64(n)
	return n, err
}

func (r *rewriter) create(ctx context.Context, s providers.Storage, tmp, dir string) (*outFile, error) {
	rel := path.Join(dir, compactedFileName(r.sink.fileShard(), r.c.ID, r.seq[dir], r.ext))
	r.seq[dir]++
	var (
		w   providers.ObjectWriter
		err error
	)
	if sc := s.Features().ScratchCreator; sc != nil {
		w, err = sc.CreateScratch(ctx, tmp+rel)
	} else {
		w, err = s.Create(ctx, tmp+rel)
	}
	if err != nil {
		return nil, fmt.Errorf("stage %s: %w", rel, err)
	}
	return &outFile{w: w, hash: sha256.New(), entry: FileEntry{Path: rel}}, nil
}

func (o *outFile) finish() (FileEntry, error) {
	if err := o.w.Commit(); err != nil {
		return FileEntry{}, fmt.Errorf("stage %s: %w", o.entry.Path, err)
	}
	o.entry.Size, o.entry.Records, o.entry.SHA256 = o.size, o.records, hex.EncodeToString(o.hash.Sum(nil))
	fault.Point("after-compaction-stage-file")
	return o.entry, nil
}

func (r *rewriter) rewriteFolder(ctx context.Context, s providers.Storage, tmp, dir string, files []FileEntry) ([]FileEntry, error) {
	var (
		out  []FileEntry
		cur  *outFile
		enc  format.Encoder // Parquet's; nil for text
		head []byte         // the CSV header
	)
	target := r.c.TargetSize
	abort := func() {
		if enc != nil {
			enc.Abort()
		}
		if cur != nil {
			_ = cur.w.Abort()
		}
	}
	finish := func() error {
		if enc != nil {
			if err := enc.Close(); err != nil {
				return fmt.Errorf("write %s: %w", cur.entry.Path, err)
			}
			enc = nil
		}
		f, err := cur.finish()
		if err != nil {
			return err
		}
		out = append(out, f)
		cur = nil
		return nil
	}
	// full reports whether the open file has reached the target, as
	// pipeline's max_file_size decides it.
	full := func() (bool, error) {
		if cur == nil {
			return false, nil
		}
		if enc == nil {
			return cur.size >= target, nil
		}
		if enc.Full() {
			return true, nil
		}
		size, guess := enc.Size()
		if size >= target && guess {
			if err := enc.Flush(); err != nil {
				return false, err
			}
			size, _ = enc.Size()
		}
		return size >= target, nil
	}
	open := func() error {
		if ok, err := full(); err != nil {
			return err
		} else if ok {
			if err := finish(); err != nil {
				return err
			}
		}
		if cur != nil {
			return nil
		}
		var err error
		if cur, err = r.create(ctx, s, tmp, dir); err != nil {
			return err
		}
		if r.ext == format.Parquet {
			enc = r.format.NewEncoder(cur)
		} else if head != nil {
			_, err = cur.Write(head)
		}
		return err
	}
	for _, f := range files {
		if err := ctxErr(ctx); err != nil {
			abort()
			return nil, err
		}
		data, _, err := providers.ReadAll(ctx, s, f.Path)
		if err != nil {
			abort()
			return nil, fmt.Errorf("read %s: %w", f.Path, err)
		}
		if r.ext == format.Parquet {
			err = format.ReadParquet(data, r.format.Schema(), func(vals []format.Value) error {
				if err := open(); err != nil {
					return err
				}
				cur.records++
				return enc.Append(nil, vals)
			})
		} else {
			err = r.copyLines(data, &head, open, func(line []byte) error {
				cur.records++
				_, err := cur.Write(line)
				return err
			})
		}
		if err != nil {
			abort()
			return nil, fmt.Errorf("rewrite %s: %w", f.Path, err)
		}
	}
	if cur != nil {
		if err := finish(); err != nil {
			abort()
			return nil, err
		}
	}
	return out, nil
}

// copyLines hands each line of a CSV or JSONL file to write, after open;
// a CSV file's header is kept once, in head, and written at the top of each
// new file.
func (r *rewriter) copyLines(data []byte, head *[]byte, open func() error, write func([]byte) error) error {
	if r.ext == format.CSV {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return errors.New("a CSV file without a header line")
		}
		if *head == nil {
			*head = bytes.Clone(data[:i+1])
		} else if !bytes.Equal(*head, data[:i+1]) {
			return errors.New("its header differs from the other files'")
		}
		data = data[i+1:]
	}
	for len(data) > 0 {
		i := recordEnd(data, r.ext == format.CSV)
		if i < 0 {
			return errors.New("its last line has no newline: it was not written whole")
		}
		if err := open(); err != nil {
			return err
		}
		if err := write(data[:i+1]); err != nil {
			return err
		}
		data = data[i+1:]
	}
	return nil
}

func ctxErr(ctx context.Context) error { return context.Cause(ctx) }

// recordEnd is the index of the newline that ends the first record of
// data, or -1. A JSON line holds no newline (JSON escapes them); a CSV field
// may, quoted, and its quotes inside are doubled, so a newline ends a
// record where the quotes before it pair up.
func recordEnd(data []byte, csv bool) int {
	if !csv {
		return bytes.IndexByte(data, '\n')
	}
	quoted := false
	for i, b := range data {
		switch b {
		case '"':
			quoted = !quoted
		case '\n':
			if !quoted {
				return i
			}
		}
	}
	return -1
}
