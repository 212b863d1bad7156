// Package files reads append-only JSONL files (or CSV, lines, Avro Object
// Container Files) matched by a glob. Each file is a
// partition named by its path relative to the pattern's root, the folder its
// leading run of names without glob characters names ("in" for
// "in/*/*.jsonl"), resolved once against the configuration directory: the
// same files have the same names wherever the command runs from. The offset
// of a record is its line number (from 0). Only newline-terminated lines are
// available, so a line being written is read once it is complete.
//
// Older streamctl named a file by its path relative to the configuration
// directory as the command saw it (or its absolute path), which changed with
// the path the directory was reached by: RenamedPartitions maps those names
// to the current ones, and Read accepts them, so that committed ranges are
// read again with the name they were written with.
package files

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/providers"
)

// Source reads the files matching Pattern under Dir.
type Source struct {
	Dir     string // the configuration directory
	Pattern string // a glob relative to Dir
	Format  string // FormatJSONL (default), FormatCSV or FormatLines

	mu sync.Mutex
	// cursors remember where the last Read of each file ended, so sequential
	// batches continue there instead of rescanning from the start.
	cursors map[string]cursor

	rootOnce sync.Once
	root     string // the pattern's root, absolute when Dir is
	glob     string // the pattern joined to Dir
}

type cursor struct {
	line int64
	pos  int64
}

var _ providers.Source = (*Source)(nil)

// Snapshot implements providers.Source: the matched files in name order, each
// with its number of complete lines.
func (s *Source) Snapshot(ctx context.Context) (providers.Snapshot, error) {
	matches, err := filepath.Glob(s.pattern())
	if err != nil {
		return providers.Snapshot{}, fmt.Errorf("files: bad pattern %q: %w", s.Pattern, err)
	}
	sort.Strings(matches)
	snap := providers.Snapshot{Identity: "files:" + s.Pattern}
	if s.Format != "" && s.Format != FormatJSONL {
		snap.Identity += "?format=" + s.Format
	}
	for _, m := range matches {
		fi, err := os.Stat(m)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		var lines int64
		if s.Format == FormatAvro {
			lines, err = countAvroRecords(ctx, m, s.partitionID(m))
		} else if lines, err = countLines(ctx, m); err != nil {
			err = fmt.Errorf("files: count lines of %s: %w", m, err)
		}
		if err != nil {
			return snap, err
		}
		snap.Partitions = append(snap.Partitions, providers.PartitionSnapshot{ID: s.partitionID(m), Latest: lines})
	}
	return snap, nil
}

// resolve computes the pattern's root and the pattern joined to Dir, once.
func (s *Source) resolve() {
	s.rootOnce.Do(func() {
		s.glob = s.Pattern
		if !filepath.IsAbs(s.glob) {
			s.glob = filepath.Join(s.Dir, s.glob)
		}
		s.glob = filepath.Clean(s.glob)
		root := filepath.Dir(s.glob)
		for hasMeta(root) {
			root = filepath.Dir(root)
		}
		s.root = root
	})
}

func (s *Source) pattern() string { s.resolve(); return s.glob }

// Root is the folder the partitions are named relative to.
func (s *Source) Root() string { s.resolve(); return s.root }

// hasMeta reports whether path holds glob characters (as filepath.Match
// reads them).
func hasMeta(path string) bool {
	magic := `*?[`
	if runtime.GOOS != "windows" {
		magic = `*?[\`
	}
	return strings.ContainsAny(path, magic)
}

func (s *Source) partitionID(path string) string {
	if rel, err := filepath.Rel(s.Root(), path); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

// path is the file of a partition: named relative to the root, or by an
// older streamctl (see RenamedPartitions).
func (s *Source) path(partition string) string {
	p := filepath.FromSlash(partition)
	if filepath.IsAbs(p) {
		return p
	}
	current := filepath.Join(s.Root(), p)
	if s.matches(current) {
		return current
	}
	if legacy := filepath.Join(s.Dir, p); s.matches(legacy) {
		return legacy
	}
	if matches, err := filepath.Glob(s.pattern()); err == nil {
		var ids []string
		for _, m := range matches {
			ids = append(ids, s.partitionID(m))
		}
		if id := renamedTo(partition, ids); id != "" {
			return filepath.Join(s.Root(), filepath.FromSlash(id))
		}
	}
	return current
}

func (s *Source) matches(path string) bool {
	ok, err := filepath.Match(s.pattern(), path)
	return err == nil && ok
}

// RenamedPartitions maps the partition names among keys that an older
// streamctl gave (the path relative to the configuration directory as the
// command saw it, or absolute) to the names the snapshot's files have now:
// a name maps to the one it ends with, the longest if several do. Names
// the snapshot has, or that no file's name ends, are left out.
func (s *Source) RenamedPartitions(snap providers.Snapshot, keys []string) map[string]string {
	ids := make([]string, len(snap.Partitions))
	have := make(map[string]bool, len(ids))
	for i, p := range snap.Partitions {
		ids[i] = p.ID
		have[p.ID] = true
	}
	out := map[string]string{}
	for _, k := range keys {
		if have[k] {
			continue
		}
		if id := renamedTo(k, ids); id != "" {
			out[k] = id
		}
	}
	return out
}

// renamedTo is the longest of ids that key ends with as a path, or "".
func renamedTo(key string, ids []string) string {
	best := ""
	for _, id := range ids {
		if strings.HasSuffix(key, "/"+id) && len(id) > len(best) {
			best = id
		}
	}
	return best
}

// countLines counts newline characters, complete lines, up to the file's
// size when it is opened. The plan waits for it, so the file is read in
// segments on GOMAXPROCS goroutines.
func countLines(ctx context.Context, path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	const segment = 4 << 20
	size := fi.Size()
	var next, lines atomic.Int64
	workers := int(min(int64(runtime.GOMAXPROCS(0)), (size+segment-1)/segment))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			defer crash.Report()
			buf := make([]byte, segment)
			for {
				off := next.Add(segment) - segment
				if off >= size {
					return
				}
				if err := ctx.Err(); err != nil {
					errs[w] = err
					return
				}
				k, err := f.ReadAt(buf[:min(segment, size-off)], off)
				lines.Add(int64(bytes.Count(buf[:k], []byte{'\n'})))
				if err != nil {
					if err != io.EOF { // EOF: the file shrank; count what is there
						errs[w] = err
					}
					return
				}
			}
		})
	}
	wg.Wait()
	return lines.Load(), errors.Join(errs...)
}

// Read implements providers.Source. Blank lines count as offsets but yield no
// record. A file that vanished or no longer has end lines is data loss.
func (s *Source) Read(ctx context.Context, partition string, start, end int64, fn func(*providers.Record) error) error {
	if s.Format == FormatAvro {
		return s.readAvro(ctx, partition, start, end, fn)
	}
	conv, err := newConverter(s.Format)
	if err != nil {
		return err
	}
	if conv != nil {
		if _, ok := conv.(*csvConverter); ok && start > 0 {
			// The header is needed to name the fields: read it first.
			if err := s.readLines(ctx, partition, 0, 1, conv, func(*providers.Record) error { return nil }); err != nil {
				return err
			}
		}
	}
	return s.readLines(ctx, partition, start, end, conv, fn)
}

func (s *Source) readLines(ctx context.Context, partition string, start, end int64, conv lineConverter, fn func(*providers.Record) error) error {
	path := s.path(partition)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("files: %s vanished, but offsets [%d, %d) of it were still to be read: %w", partition, start, end, providers.ErrDataLoss)
	}
	if err != nil {
		return fmt.Errorf("files: read %s: %w", partition, err)
	}
	defer f.Close()

	line, pos := int64(0), int64(0)
	s.mu.Lock()
	if c, ok := s.cursors[partition]; ok && c.line <= start {
		line, pos = c.line, c.pos
	}
	s.mu.Unlock()
	if _, err := f.Seek(pos, io.SeekStart); err != nil {
		return fmt.Errorf("files: read %s: %w", partition, err)
	}
	r := bufio.NewReaderSize(f, 256<<10)
	rec := providers.Record{Partition: partition}
	var converted []byte
	for line < end {
		data, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: gather it whole.
			long := append([]byte(nil), data...)
			for errors.Is(err, bufio.ErrBufferFull) {
				data, err = r.ReadSlice('\n')
				long = append(long, data...)
			}
			data = long
		}
		if err == io.EOF || (err == nil && len(data) == 0) {
			return fmt.Errorf("files: %s has %d complete lines, but offsets up to %d were to be read (the file shrank or was replaced): %w", partition, line, end, providers.ErrDataLoss)
		}
		if err != nil {
			return fmt.Errorf("files: read %s at line %d: %w", partition, line, err)
		}
		pos += int64(len(data))
		if line >= start {
			value := trimNewline(data)
			if len(bytes.TrimSpace(value)) > 0 {
				skip := false
				if conv != nil {
					var err error
					converted, skip, err = conv.convert(converted[:0], value, line)
					if err != nil {
						return fmt.Errorf("files: %s: %w", partition, err)
					}
					value = converted
				}
				if !skip {
					rec.Offset = line
					rec.Value = value
					if err := fn(&rec); err != nil {
						return err
					}
				}
			}
		}
		line++
		if line&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	s.mu.Lock()
	if s.cursors == nil {
		s.cursors = map[string]cursor{}
	}
	s.cursors[partition] = cursor{line: line, pos: pos}
	s.mu.Unlock()
	return nil
}

// trimNewline cuts the line ending: the '\n' and any '\r' before it
// (bytes.TrimRight with a cutset costs more than the rest of the loop).
func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// Close implements providers.Source.
func (s *Source) Close() error { return nil }
