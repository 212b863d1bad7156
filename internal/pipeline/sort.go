package pipeline

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/spill"
)

// maxOpenFiles bounds the targets (folder streams) a batch writes to at
// once, as Spark's spark.sql.maxConcurrentOutputFileWriters does. Each open
// file costs a page block per column (64 KiB each), a compressor goroutine,
// one or two descriptors on a local destination, and an upload buffer of up
// to 256 KiB on an object store; 64 of them fit the memory budget. Targets
// met after the first maxOpenFiles of a batch are sorted instead (sorter),
// and written one after the other when the batch closes.
const maxOpenFiles = 64

// sortRunBytes is how much of the sorted targets' rows is kept in memory
// before it is sorted and written out as a run.
const sortRunBytes = 16 << 20

// sortReadBuffer is the read buffer of each run while runs are merged.
const sortReadBuffer = 64 << 10

// sorter keeps the rows of the targets past the open-file bound, the way
// Spark's non-fanout writer sorts by partition: rows are encoded into runs
// sorted by target (stably, so rows keep their order within a target); runs
// that outgrow memory go to a temporary file; at the end the runs are merged
// and each target's rows come out together, in record order. Only the
// encoder touches it.
type sorter struct {
	runMax int
	buf    []byte      // the current run's rows, in arrival order
	idx    []sortEntry // one per row of buf
	disk   *spill.Buffer
	w      *bufio.Writer // onto disk
	runs   []int64       // end of each run in disk
	rows   int64
}

type sortEntry struct {
	target int32
	off, n uint32 // the row's bytes in buf
}

func newSorter(runMax int) *sorter {
	// Allocated once, whole: growing by appends would leave a trail of
	// smaller copies for the collector, a few times the run.
	return &sorter{runMax: runMax, buf: make([]byte, 0, runMax+64<<10), idx: make([]sortEntry, 0, runMax/64)}
}

// Row encodings: a kind byte, then the raw bytes or the values.
const (
	rowRaw  = 0
	rowVals = 1
)

// Value flags.
const (
	valNull = 1 << iota
	valInvalid
	valInt
	valFloat
	valBytes
)

// add keeps one row of target: raw bytes, or values when vals is not nil.
func (s *sorter) add(target int32, raw []byte, vals []format.Value) error {
	off := len(s.buf)
	if vals == nil {
		s.buf = append(s.buf, rowRaw)
		s.buf = binary.AppendUvarint(s.buf, uint64(len(raw)))
		s.buf = append(s.buf, raw...)
	} else {
		s.buf = append(s.buf, rowVals)
		for i := range vals {
			s.buf = appendValue(s.buf, &vals[i])
		}
	}
	if len(s.buf) > math.MaxUint32 {
		return errors.New("sort rows: a row of more than 4 GiB")
	}
	s.idx = append(s.idx, sortEntry{target: target, off: uint32(off), n: uint32(len(s.buf) - off)})
	s.rows++
	if len(s.buf) >= s.runMax {
		return s.writeRun()
	}
	return nil
}

func appendValue(dst []byte, v *format.Value) []byte {
	var flags byte
	if v.Null {
		flags |= valNull
	}
	if v.Invalid {
		flags |= valInvalid
	}
	if v.Int != 0 {
		flags |= valInt
	}
	if math.Float64bits(v.Float) != 0 {
		flags |= valFloat
	}
	if len(v.Bytes) > 0 {
		flags |= valBytes
	}
	dst = append(dst, flags, byte(v.Token))
	if flags&valInt != 0 {
		dst = binary.AppendVarint(dst, v.Int)
	}
	if flags&valFloat != 0 {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.Float))
	}
	if flags&valBytes != 0 {
		dst = binary.AppendUvarint(dst, uint64(len(v.Bytes)))
		dst = append(dst, v.Bytes...)
	}
	return dst
}

var errCorrupt = errors.New("sorted rows: corrupt temporary data")

// decodeRow reads a row that add encoded. The values' bytes point into p.
func decodeRow(p []byte, vals []format.Value) (raw []byte, isVals bool, err error) {
	if len(p) == 0 {
		return nil, false, errCorrupt
	}
	kind, p := p[0], p[1:]
	if kind == rowRaw {
		n, k := binary.Uvarint(p)
		if k <= 0 || uint64(len(p)-k) != n {
			return nil, false, errCorrupt
		}
		return p[k:], false, nil
	}
	for i := range vals {
		if len(p) < 2 {
			return nil, false, errCorrupt
		}
		flags := p[0]
		vals[i] = format.Value{Null: flags&valNull != 0, Invalid: flags&valInvalid != 0, Token: format.Token(p[1])}
		p = p[2:]
		if flags&valInt != 0 {
			x, k := binary.Varint(p)
			if k <= 0 {
				return nil, false, errCorrupt
			}
			vals[i].Int, p = x, p[k:]
		}
		if flags&valFloat != 0 {
			if len(p) < 8 {
				return nil, false, errCorrupt
			}
			vals[i].Float, p = math.Float64frombits(binary.LittleEndian.Uint64(p)), p[8:]
		}
		if flags&valBytes != 0 {
			n, k := binary.Uvarint(p)
			if k <= 0 || uint64(len(p)-k) < n {
				return nil, false, errCorrupt
			}
			vals[i].Bytes, p = p[k:k+int(n):k+int(n)], p[k+int(n):]
		}
	}
	if len(p) != 0 {
		return nil, false, errCorrupt
	}
	return nil, true, nil
}

func (s *sorter) sortRun() {
	// Stable: a target's rows stay in arrival order.
	slices.SortStableFunc(s.idx, func(a, b sortEntry) int { return int(a.target) - int(b.target) })
}

// writeRun sorts the rows in memory and appends them to the disk as a run:
// for each row its target, its length and its bytes.
func (s *sorter) writeRun() error {
	if len(s.idx) == 0 {
		return nil
	}
	if s.disk == nil {
		s.disk = &spill.Buffer{}
		s.w = bufio.NewWriterSize(s.disk, 256<<10)
	}
	s.sortRun()
	var hdr [2 * binary.MaxVarintLen64]byte
	for _, e := range s.idx {
		h := binary.AppendUvarint(hdr[:0], uint64(e.target))
		h = binary.AppendUvarint(h, uint64(e.n))
		s.w.Write(h)
		s.w.Write(s.buf[e.off : e.off+e.n])
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("sort rows: %w", err)
	}
	s.runs = append(s.runs, s.disk.Size())
	s.buf, s.idx = s.buf[:0], s.idx[:0]
	return nil
}

// close releases the memory and the temporary file.
func (s *sorter) close() {
	s.buf, s.idx = nil, nil
	if s.disk != nil {
		s.disk.Close()
		s.disk = nil
	}
}

// rowIter yields the sorter's rows grouped by target, targets in increasing
// order, each target's rows in arrival order.
type rowIter interface {
	next() (target int32, row []byte, ok bool, err error)
}

// iter ends the adding. Rows that all fit in memory never touch the disk.
func (s *sorter) iter() (rowIter, error) {
	if s.disk == nil {
		s.sortRun()
		return &memIter{s: s}, nil
	}
	if err := s.writeRun(); err != nil {
		return nil, err
	}
	m := &mergeIter{}
	start := int64(0)
	for i, end := range s.runs {
		r := &runReader{run: i, r: bufio.NewReaderSize(s.disk.Section(start, end-start), sortReadBuffer)}
		start = end
		ok, err := r.advance()
		if err != nil {
			return nil, err
		}
		if ok {
			m.h = append(m.h, r)
		}
	}
	heap.Init(&m.h)
	return m, nil
}

type memIter struct {
	s *sorter
	i int
}

func (m *memIter) next() (int32, []byte, bool, error) {
	if m.i >= len(m.s.idx) {
		return 0, nil, false, nil
	}
	e := m.s.idx[m.i]
	m.i++
	return e.target, m.s.buf[e.off : e.off+e.n], true, nil
}

// mergeIter merges the runs. Ties go to the earlier run, whose rows arrived
// first, so a target's rows keep their order across runs.
type mergeIter struct {
	h    runHeap
	last *runReader // returned its row last: advanced on the next call
}

func (m *mergeIter) next() (int32, []byte, bool, error) {
	if m.last != nil {
		ok, err := m.last.advance()
		if err != nil {
			return 0, nil, false, err
		}
		if ok {
			heap.Fix(&m.h, 0)
		} else {
			heap.Pop(&m.h)
		}
		m.last = nil
	}
	if len(m.h) == 0 {
		return 0, nil, false, nil
	}
	r := m.h[0]
	m.last = r
	// The row stays valid until the next call, which advances its run.
	return r.target, r.row, true, nil
}

type runReader struct {
	run    int
	r      *bufio.Reader
	target int32
	row    []byte
}

// advance reads the run's next row; false at the end of the run.
func (r *runReader) advance() (bool, error) {
	t, err := binary.ReadUvarint(r.r)
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("sort rows: read back: %w", err)
	}
	n, err := binary.ReadUvarint(r.r)
	if err != nil || t > math.MaxInt32 || n > math.MaxUint32 {
		return false, errCorrupt
	}
	r.target = int32(t)
	r.row = slices.Grow(r.row[:0], int(n))[:n]
	if _, err := io.ReadFull(r.r, r.row); err != nil {
		return false, fmt.Errorf("sort rows: read back: %w", err)
	}
	return true, nil
}

type runHeap []*runReader

func (h runHeap) Len() int { return len(h) }
func (h runHeap) Less(i, j int) bool {
	if h[i].target != h[j].target {
		return h[i].target < h[j].target
	}
	return h[i].run < h[j].run
}
func (h runHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)   { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
