// Package spill is the buffer of an object being written to an object store.
// Its first bytes stay in memory; past MemoryLimit they go to a temporary
// file, so that a batch staging many files at once (one per partition folder)
// holds little memory per file however large the files grow, as Hadoop's S3A
// buffers uploads on disk. The uploads then read sections of the buffer.
//
// The temporary file is unlinked as soon as it is created, so that nothing is
// left behind when the process dies; its directory is os.TempDir() ($TMPDIR).
package spill

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MemoryLimit is what a Buffer keeps in memory before it spills: manifests,
// state files and small data files never touch the disk, and a batch writing
// to hundreds of partition folders at once holds at most 25 MiB per hundred.
const MemoryLimit = 256 << 10

// Buffer is an append-only byte buffer, in memory and then in a temporary
// file. Append is not safe for concurrent use; readers of written sections
// may run while it appends.
type Buffer struct {
	mem  []byte
	f    *os.File // nil until the buffer outgrows MemoryLimit
	path string   // f's name while it is linked
	size int64
	err  error // the first failed write: the buffer is unusable after it
}

// Write appends p. After an error, every Write fails with it: a buffer that
// lost bytes must not be uploaded.
func (b *Buffer) Write(p []byte) (n int, err error) {
	if b.err != nil {
		return 0, b.err
	}
	defer func() {
		if err != nil {
			b.err = err
		}
	}()
	if b.f == nil && b.size+int64(len(p)) <= MemoryLimit {
		if b.mem == nil {
			b.mem = make([]byte, 0, min(MemoryLimit, max(4<<10, 2*len(p))))
		}
		b.mem = append(b.mem, p...)
		b.size += int64(len(p))
		return len(p), nil
	}
	if b.f == nil {
		if err := b.spill(); err != nil {
			return 0, err
		}
	}
	n, err = b.f.WriteAt(p, b.size)
	b.size += int64(n)
	if err != nil {
		return n, fmt.Errorf("buffer on disk: %w", err)
	}
	return n, nil
}

// spill moves the memory buffer to a new temporary file.
func (b *Buffer) spill() error {
	f, err := os.CreateTemp("", "streamctl-upload-*")
	if err != nil {
		return fmt.Errorf("buffer on disk (set TMPDIR to a writable folder with room for a batch's files): %w", err)
	}
	b.f, b.path = f, f.Name()
	// Unlinked at once: the open file stays readable, and a killed process
	// leaves nothing. Where that is refused, Close removes it.
	if os.Remove(b.path) == nil {
		b.path = ""
	}
	if _, err := f.WriteAt(b.mem, 0); err != nil {
		return fmt.Errorf("buffer on disk: %w", err)
	}
	b.mem = nil
	return nil
}

// Size is the number of bytes written.
func (b *Buffer) Size() int64 { return b.size }

// InMemory says whether the bytes are all in memory (the buffer holds no
// file).
func (b *Buffer) InMemory() bool { return b.f == nil }

// Compact gives back the room an in-memory buffer grew beyond its bytes, for
// a buffer that is written no more and kept a while.
func (b *Buffer) Compact() {
	if b.f == nil && cap(b.mem)-len(b.mem) > len(b.mem)/8 {
		b.mem = append([]byte(nil), b.mem...)
	}
}

// Section returns a reader of the n bytes at off, which must be written
// already. It can seek, as the SDKs need to compute checksums and to rewind a
// body for a retry, and reads independently of other sections.
func (b *Buffer) Section(off, n int64) io.ReadSeeker {
	if off < 0 || n < 0 || off+n > b.size {
		panic(fmt.Sprintf("spill: section [%d, %d) outside the %d bytes written", off, off+n, b.size))
	}
	if b.f == nil {
		return io.NewSectionReader(bytesReaderAt(b.mem), off, n)
	}
	return io.NewSectionReader(b.f, off, n)
}

// Close releases the buffer: its memory, and its file.
func (b *Buffer) Close() error {
	b.mem = nil
	if b.f == nil {
		return nil
	}
	err := b.f.Close()
	if b.path != "" {
		if rerr := os.Remove(b.path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
	}
	b.f, b.path = nil, ""
	return err
}

type bytesReaderAt []byte

func (m bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(m)) {
		return 0, io.EOF
	}
	n := copy(p, m[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
