package parquet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	pq "github.com/parquet-go/parquet-go/format"

	"github.com/streamctl/streamctl/internal/crash"
)

// blockSize is the unit of a Parquet encoder's memory: a page's values are
// PLAIN-encoded into one block (a page is cut when the next value does not
// fit), and compressed pages are kept in blocks until their row group is
// written out. Blocks come from a pool shared by every file, so the memory of
// a row group written out is reused by the next, in any file, and what an
// encoder holds is a count of blocks (Buffered).
const blockSize = 64 << 10

var blockPool = sync.Pool{New: func() any { return new([blockSize]byte) }}

func getBlock() []byte { return blockPool.Get().(*[blockSize]byte)[:0] }

// putBlock returns b to the pool if it is a block (a page holding a value
// larger than a block has its own buffer, left to the collector).
func putBlock(b []byte) {
	if cap(b) == blockSize {
		blockPool.Put((*[blockSize]byte)(b[:blockSize]))
	}
}

// ErrValueTooLarge is returned for a value whose Parquet page would be
// larger than a page header can say (2 GiB).
var ErrValueTooLarge = errors.New("value too large for a Parquet page")

// maxPageBytes bounds a page, levels and values: its header's sizes are
// i32.
const maxPageBytes = math.MaxInt32

// pageRoom bounds a page's values and definition levels together, so that a
// page, with the levels' header, is one block of the zstd encoder (64 KiB at
// its fastest level): larger pages are compressed as two blocks, the second
// one tiny, which is slower and larger.
const pageRoom = blockSize - 16

// makeRoom cuts c's page, if it has rows, so that a value of n bytes fits.
func (e *Encoder) makeRoom(c *columnChunk, n int) error {
	if n > maxPageBytes-levelRoom {
		// Refused before it is copied: the row is half appended, so the
		// file is lost.
		return e.fail(fmt.Errorf("%w: column %q: a value of %d bytes (a page holds at most 2 GiB)", ErrValueTooLarge, c.name, n-4))
	}
	if c.pageRows > 0 {
		if err := e.cutPage(c); err != nil {
			return err
		}
	}
	if cap(c.block) == 0 {
		c.block = getBlock()
		c.values = c.block[levelRoom:levelRoom]
	}
	c.room = pageRoom
	if n > c.room { // a value larger than a block: a page of its own
		putBlock(c.block)
		c.block = make([]byte, 0, levelRoom+n)
		c.values = c.block[levelRoom:levelRoom]
		c.room = n
	}
	return nil
}

// appendLevels appends the page's definition levels: RLE/bit-packed hybrid
// with a 4-byte length, one run when every row is null or none is, else the
// bitmap.
func (c *columnChunk) appendLevels(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	switch c.pageNulls {
	case 0, c.pageRows:
		dst = binary.AppendUvarint(dst, uint64(c.pageRows)<<1)
		dst = append(dst, byte(min(c.pageNulls, 1)^1))
	default:
		dst = binary.AppendUvarint(dst, uint64(len(c.defs))<<1|1)
		dst = append(dst, c.defs...)
	}
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst
}

// levelRoom is kept free in front of a page's values, in its block, for its
// definition levels when they are one run (no nulls, or nothing but nulls):
// the page is then cut without copying its values.
const levelRoom = 16

// cutPage hands the current page of c to the encoder's compressor, which
// adds it to the column chunk, compressed, in the order pages were cut.
func (e *Encoder) cutPage(c *columnChunk) error {
	if c.pageRows == 0 {
		return nil
	}
	if e.pages == nil {
		e.pages = newPageCompressor(e.f.codec)
	}
	if err := e.pages.err(); err != nil {
		return e.fail(err)
	}
	job := pageJob{c: c, rows: c.pageRows, nulls: c.pageNulls}
	oneRun := !c.nullable || c.pageNulls == 0 || c.pageNulls == c.pageRows
	if c.nested {
		// Repetition levels, definition levels, values; the values' block
		// stays with the column.
		page := getBlock()
		if c.maxRep > 0 {
			page = appendRLE(page, c.reps)
		}
		if c.maxDef > 0 {
			page = appendRLE(page, c.defs)
		}
		job.page = append(page, c.values...)
		job.block = job.page
		if cap(c.block) != blockSize {
			c.block, c.values, c.room = nil, nil, 0
		}
	} else if oneRun && cap(c.block) > 0 {
		// The page is its block: the levels, if any, go in front of the values.
		var run [levelRoom]byte
		var levels []byte
		if c.nullable {
			levels = c.appendLevels(run[:0])
		}
		start := levelRoom - len(levels)
		copy(c.block[start:levelRoom], levels)
		job.page, job.block = c.block[start:levelRoom+len(c.values)], c.block
		c.block, c.values, c.room = nil, nil, 0
	} else {
		// A bitmap, or nulls alone: the page is a new block, and the values'
		// block stays with the column.
		page := getBlock()
		if c.nullable {
			page = c.appendLevels(page)
		}
		job.page = append(page, c.values...)
		job.block = job.page
		if cap(c.block) != blockSize {
			c.block, c.values, c.room = nil, nil, 0 // a large value's own buffer
		}
	}
	c.cut += int64(len(job.page))
	e.pages.add(job)
	c.values, c.defs, c.reps = c.values[:0], c.defs[:0], c.reps[:0]
	c.pageRows, c.pageNulls, c.bools = 0, 0, 0
	return nil
}

// pageCompressor compresses an encoder's pages on a goroutine of its own, so
// that compression (most of the encoding side's time with zstd) overlaps
// with the next pages' encoding. Pages are compressed one at a time in the
// order they were cut, so the file's bytes do not depend on scheduling.
type pageCompressor struct {
	codec   compress.Codec // nil: pages are stored uncompressed
	jobs    chan pageJob
	pending sync.WaitGroup // jobs added and not yet spooled
	done    chan struct{}  // closed when the goroutine has returned
	failed  atomic.Pointer[error]

	// The goroutine's own scratch.
	zpage  []byte
	header bytes.Buffer
	thrift *thrift.Encoder
}

// pageJob is a page cut from a column chunk: levels and values, uncompressed.
type pageJob struct {
	c           *columnChunk
	page        []byte // levels and values, in block
	block       []byte // a block from the pool (or a large value's own buffer)
	rows, nulls int
}

// pagesInFlight bounds the pages queued to one compressor: a few pages keep
// it busy; more would only hold memory.
const pagesInFlight = 4

func newPageCompressor(codec compress.Codec) *pageCompressor {
	p := &pageCompressor{codec: codec, jobs: make(chan pageJob, pagesInFlight), done: make(chan struct{})}
	p.thrift = thrift.NewEncoder(new(thrift.CompactProtocol).NewWriter(&p.header))
	go p.run()
	return p
}

func (p *pageCompressor) add(j pageJob) {
	p.pending.Add(1)
	p.jobs <- j
}

func (p *pageCompressor) run() {
	defer close(p.done)
	defer crash.Report() // run as a goroutine
	for j := range p.jobs {
		if p.err() == nil {
			if err := p.spool(j); err != nil {
				p.failed.Store(&err)
			}
		}
		putBlock(j.block)
		p.pending.Done()
	}
}

// spool compresses j's page and appends it, with its header, to the column
// chunk's spool. Only the compressor touches a chunk's spool, sizes and
// counts while pages are pending; the encoder reads them after wait.
func (p *pageCompressor) spool(j pageJob) error {
	body := j.page
	if p.codec != nil {
		var err error
		if p.zpage, err = p.codec.Encode(p.zpage, j.page); err != nil {
			return fmt.Errorf("compress parquet page: %w", err)
		}
		body = p.zpage
	}
	if len(j.page) > maxPageBytes || len(body) > maxPageBytes {
		return fmt.Errorf("%w: column %q: a page of %d bytes, %d compressed", ErrValueTooLarge, j.c.name, len(j.page), len(body))
	}
	p.header.Reset()
	err := p.thrift.Encode(&pq.PageHeader{
		Type:                 pq.DataPage,
		UncompressedPageSize: int32(len(j.page)),
		CompressedPageSize:   int32(len(body)),
		DataPageHeader: thrift.New(pq.DataPageHeader{
			NumValues:               int32(j.rows),
			Encoding:                pq.Plain,
			DefinitionLevelEncoding: pq.RLE,
			RepetitionLevelEncoding: pq.RLE,
			Statistics:              pq.Statistics{NullCount: int64(j.nulls)},
		}),
	})
	if err != nil {
		return fmt.Errorf("encode parquet page header: %w", err)
	}
	c := j.c
	c.pages.write(p.header.Bytes())
	c.pages.write(body)
	c.uncompressed += int64(p.header.Len() + len(j.page))
	c.rows += int64(j.rows)
	c.nulls += int64(j.nulls)
	return nil
}

func (p *pageCompressor) err() error {
	if e := p.failed.Load(); e != nil {
		return *e
	}
	return nil
}

// wait returns once every page added is spooled, with the first error.
func (p *pageCompressor) wait() error {
	p.pending.Wait()
	return p.err()
}

// stop ends the goroutine once the pages added are done.
func (p *pageCompressor) stop() {
	close(p.jobs)
	<-p.done
}
