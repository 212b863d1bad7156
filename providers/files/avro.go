package files

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"

	"github.com/streamctl/streamctl/internal/wire"
	"github.com/streamctl/streamctl/providers"
)

// FormatAvro reads Avro Object Container Files: self-describing (the schema
// is in the file's header), records in blocks. The offset of a record is its
// index in the file (from 0); only blocks written whole (their sync marker
// included) are available, so a block being appended is read once complete.
const FormatAvro = "avro"

// Codecs of the blocks of an Object Container File that streamctl reads.
var avroCodecs = []string{"null", "deflate", "snappy", "zstandard"}

// ocfMagic starts every Object Container File.
var ocfMagic = []byte{'O', 'b', 'j', 1}

// ocfFile is an Object Container File being read, block by block.
type ocfFile struct {
	name   string // the partition, for messages
	f      *os.File
	r      *bufio.Reader
	pos    int64 // of r in the file
	size   int64 // when opened: what is past it is not read
	schema *wire.AvroSchema
	codec  string
	sync   [16]byte
	zstd   *zstd.Decoder
}

func openOCF(path, name string) (*ocfFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	o := &ocfFile{name: name, f: f, r: bufio.NewReaderSize(f, 256<<10)}
	if err := o.readHeader(); err != nil {
		f.Close()
		return nil, err
	}
	return o, nil
}

func (o *ocfFile) Close() error {
	if o.zstd != nil {
		o.zstd.Close()
	}
	return o.f.Close()
}

func (o *ocfFile) corrupt(format string, args ...any) error {
	return fmt.Errorf("files: %s is not a valid Avro Object Container File: %s", o.name, fmt.Sprintf(format, args...))
}

func (o *ocfFile) readHeader() error {
	fi, err := o.f.Stat()
	if err != nil {
		return err
	}
	o.size = fi.Size()
	magic := make([]byte, 4)
	if _, err := io.ReadFull(o.r, magic); err != nil || !bytes.Equal(magic, ocfMagic) {
		return o.corrupt("it does not start with Obj\\x01")
	}
	o.pos = 4
	meta := map[string][]byte{}
	for {
		n, err := o.long()
		if err != nil {
			return o.corrupt("its header ends early")
		}
		if n == 0 {
			break
		}
		if n < 0 {
			n = -n
			if _, err := o.long(); err != nil {
				return o.corrupt("its header ends early")
			}
		}
		for range n {
			k, err1 := o.bytes()
			v, err2 := o.bytes()
			if err1 != nil || err2 != nil {
				return o.corrupt("its header ends early")
			}
			meta[string(k)] = v
		}
	}
	if _, err := io.ReadFull(o.r, o.sync[:]); err != nil {
		return o.corrupt("its header ends early")
	}
	o.pos += 16
	o.codec = string(meta["avro.codec"])
	switch o.codec {
	case "":
		o.codec = "null"
	case "null", "deflate", "snappy":
	case "zstandard":
		if o.zstd, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1)); err != nil {
			return err
		}
	default:
		return fmt.Errorf("files: %s: Avro codec %q is not supported (%v are)", o.name, o.codec, avroCodecs)
	}
	if o.schema, err = wire.ParseAvro(string(meta["avro.schema"])); err != nil {
		return fmt.Errorf("files: %s: the schema in its header: %w", o.name, err)
	}
	return nil
}

func (o *ocfFile) long() (int64, error) {
	v, err := binary.ReadVarint(byteCounter{o})
	return v, err
}

// byteCounter reads bytes of o, counting them in o.pos.
type byteCounter struct{ o *ocfFile }

func (b byteCounter) ReadByte() (byte, error) {
	c, err := b.o.r.ReadByte()
	if err == nil {
		b.o.pos++
	}
	return c, err
}

func (o *ocfFile) bytes() ([]byte, error) {
	n, err := o.long()
	if err != nil {
		return nil, err
	}
	if n < 0 || n > o.size {
		return nil, o.corrupt("a length of %d bytes", n)
	}
	b := make([]byte, n)
	_, err = io.ReadFull(o.r, b)
	o.pos += n
	return b, err
}

// seek moves to pos, the start of a block.
func (o *ocfFile) seek(pos int64) error {
	if _, err := o.f.Seek(pos, io.SeekStart); err != nil {
		return err
	}
	o.r.Reset(o.f)
	o.pos = pos
	return nil
}

// block reads the header of the next block: its record count and data size.
// ok is false at the end of the blocks written whole when the file was
// opened.
func (o *ocfFile) block() (count, size int64, ok bool, err error) {
	start := o.pos
	if start >= o.size {
		return 0, 0, false, nil
	}
	count, err1 := o.long()
	size, err2 := o.long()
	switch {
	case errors.Is(err1, io.EOF) || errors.Is(err1, io.ErrUnexpectedEOF) || errors.Is(err2, io.EOF) || errors.Is(err2, io.ErrUnexpectedEOF):
		return 0, 0, false, nil // a block header being written
	case err1 != nil || err2 != nil:
		return 0, 0, false, errors.Join(err1, err2)
	case count < 0 || size < 0:
		return 0, 0, false, o.corrupt("a block at byte %d has %d records of %d bytes", start, count, size)
	case o.pos+size+16 > o.size:
		return 0, 0, false, nil // a block being written
	}
	return count, size, true, nil
}

// checkSync reads the sync marker that ends a block.
func (o *ocfFile) checkSync() error {
	var sync [16]byte
	if _, err := io.ReadFull(o.r, sync[:]); err != nil {
		return err
	}
	o.pos += 16
	if sync != o.sync {
		return o.corrupt("the block ending at byte %d lacks the file's sync marker", o.pos)
	}
	return nil
}

// skipBlock passes over a block's data and its sync marker.
func (o *ocfFile) skipBlock(size int64) error {
	if _, err := o.r.Discard(int(size)); err != nil {
		return err
	}
	o.pos += size
	return o.checkSync()
}

// readBlock returns a block's data, decompressed.
func (o *ocfFile) readBlock(size int64, buf []byte) ([]byte, error) {
	buf = append(buf[:0], make([]byte, size)...)
	if _, err := io.ReadFull(o.r, buf); err != nil {
		return nil, err
	}
	o.pos += size
	if err := o.checkSync(); err != nil {
		return nil, err
	}
	switch o.codec {
	case "deflate":
		out, err := io.ReadAll(flate.NewReader(bytes.NewReader(buf)))
		if err != nil {
			return nil, o.corrupt("a deflate block: %v", err)
		}
		return out, nil
	case "snappy":
		// Snappy's block format, then the CRC-32 of the uncompressed data.
		if len(buf) < 4 {
			return nil, o.corrupt("a snappy block of %d bytes", len(buf))
		}
		out, err := s2.Decode(nil, buf[:len(buf)-4])
		if err != nil {
			return nil, o.corrupt("a snappy block: %v", err)
		}
		if crc32.ChecksumIEEE(out) != binary.BigEndian.Uint32(buf[len(buf)-4:]) {
			return nil, o.corrupt("a snappy block's checksum does not match")
		}
		return out, nil
	case "zstandard":
		out, err := o.zstd.DecodeAll(buf, nil)
		if err != nil {
			return nil, o.corrupt("a zstandard block: %v", err)
		}
		return out, nil
	}
	return buf, nil
}

// countAvroRecords counts the records of the blocks written whole.
func countAvroRecords(ctx context.Context, path, name string) (int64, error) {
	o, err := openOCF(path, name)
	if err != nil {
		return 0, err
	}
	defer o.Close()
	var n int64
	for {
		count, size, ok, err := o.block()
		if err != nil || !ok {
			return n, err
		}
		if err := o.skipBlock(size); err != nil {
			return n, err
		}
		n += count
		if err := ctx.Err(); err != nil {
			return n, err
		}
	}
}

// readAvro reads records [start, end) of an Object Container File, each
// decoded into JSON. A record holding a value JSON cannot is passed on
// Invalid, with the reason; a block that does not decode fails the read.
func (s *Source) readAvro(ctx context.Context, partition string, start, end int64, fn func(*providers.Record) error) error {
	o, err := openOCF(s.path(partition), partition)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("files: %s vanished, but offsets [%d, %d) of it were still to be read: %w", partition, start, end, providers.ErrDataLoss)
	}
	if err != nil {
		return err
	}
	defer o.Close()

	index := int64(0) // of the block's first record
	s.mu.Lock()
	c, ok := s.cursors[partition]
	s.mu.Unlock()
	if ok && c.line <= start {
		if err := o.seek(c.pos); err != nil {
			return fmt.Errorf("files: read %s: %w", partition, err)
		}
		index = c.line
	}
	rec := providers.Record{Partition: partition}
	var data, value []byte
	for index < end {
		blockPos := o.pos
		count, size, ok, err := o.block()
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("files: %s has %d complete records, but offsets up to %d were to be read (the file shrank or was replaced): %w", partition, index, end, providers.ErrDataLoss)
		}
		if index+count <= start {
			if err := o.skipBlock(size); err != nil {
				return fmt.Errorf("files: read %s: %w", partition, err)
			}
			index += count
			continue
		}
		if data, err = o.readBlock(size, data); err != nil {
			return fmt.Errorf("files: read %s: %w", partition, err)
		}
		rest := data
		for k := range count {
			var derr error
			value, rest, derr = wire.DecodeAvro(value[:0], o.schema, rest)
			if !wire.Whole(derr) {
				return fmt.Errorf("files: %s: record %d: %w", partition, index+k, derr)
			}
			if off := index + k; off >= start && off < end {
				rec.Offset, rec.Value, rec.Invalid = off, value, derr
				if err := fn(&rec); err != nil {
					return err
				}
			}
		}
		if len(rest) > 0 {
			return o.corrupt("a block's %d records end %d bytes before its data does", count, len(rest))
		}
		if index+count > end {
			// The next read starts inside this block: it starts here.
			s.setCursor(partition, cursor{line: index, pos: blockPos})
			return nil
		}
		index += count
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	s.setCursor(partition, cursor{line: index, pos: o.pos})
	return nil
}

func (s *Source) setCursor(partition string, c cursor) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cursors == nil {
		s.cursors = map[string]cursor{}
	}
	s.cursors[partition] = c
}
