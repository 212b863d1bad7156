// Package generate is a deterministic synthetic source: record = f(seed,
// partition, offset). It backs the quickstart, the benchmarks and the crash
// tests, where every record must be reproducible without storing it.
package generate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/providers"
)

// Countries are the values of the country field.
var Countries = []string{"de", "fr", "gb", "us", "br", "in", "jp", "au"}

// epoch is the ts of offset 0; each offset adds one second.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix()

// IDBase separates partitions in the id field: id = partition*IDBase + offset.
const IDBase = 1_000_000_000_000

// Source generates records for partitions "0" … "N-1".
type Source struct {
	Partitions          int
	RecordsPerPartition int64
	Seed                int64
	PayloadBytes        int
}

var _ providers.Source = (*Source)(nil)

// Snapshot implements providers.Source. Every partition holds
// [0, RecordsPerPartition).
func (s *Source) Snapshot(context.Context) (providers.Snapshot, error) {
	snap := providers.Snapshot{
		Identity: fmt.Sprintf("generate:seed=%d,payload_bytes=%d", s.Seed, s.PayloadBytes),
	}
	for p := 0; p < s.Partitions; p++ {
		snap.Partitions = append(snap.Partitions, providers.PartitionSnapshot{
			ID: strconv.Itoa(p), Latest: s.RecordsPerPartition,
		})
	}
	return snap, nil
}

// Read implements providers.Source. Records are made ahead, a block at a
// time, on a goroutine of their own, while fn consumes the previous block:
// making a record costs about as much as decoding it, and the two then run
// on two cores.
func (s *Source) Read(ctx context.Context, partition string, start, end int64, fn func(*providers.Record) error) error {
	p, err := strconv.Atoi(partition)
	if err != nil || p < 0 || p >= s.Partitions {
		return fmt.Errorf("generate: no partition %q: %w", partition, providers.ErrDataLoss)
	}
	if end > s.RecordsPerPartition {
		return fmt.Errorf("generate: partition %d has %d records, not %d: %w", p, s.RecordsPerPartition, end, providers.ErrDataLoss)
	}
	if start < 0 {
		return fmt.Errorf("generate: partition %d starts at offset 0, not %d: %w", p, start, providers.ErrDataLoss)
	}
	if start >= end {
		return nil
	}

	blocks := make(chan *block, blocksAhead)
	free := make(chan *block, blocksAhead+1)
	for range blocksAhead + 1 {
		free <- blockPool.Get().(*block)
	}
	stop := make(chan struct{})
	made := make(chan struct{})
	defer func() {
		close(stop)
		<-made
		// The blocks go back to the pool, grown: a run of small batches
		// reads each partition many times.
		for b := range blocks {
			blockPool.Put(b)
		}
		for len(free) > 0 {
			blockPool.Put(<-free)
		}
	}()
	go func() {
		defer close(made)
		defer close(blocks)
		defer crash.Report()
		var at position
		at.seek(start)
		for off := start; off < end; {
			var b *block
			select {
			case b = <-free:
			case <-stop:
				return
			}
			b.first, b.data, b.ends = off, b.data[:0], b.ends[:0]
			for ; off < end && len(b.ends) < blockRecords; off++ {
				b.data = s.appendRecord(b.data, p, &at)
				at.next()
				b.ends = append(b.ends, len(b.data))
			}
			select {
			case blocks <- b:
			case <-stop:
				return
			}
		}
	}()

	rec := providers.Record{Partition: partition}
	for b := range blocks {
		if err := ctx.Err(); err != nil {
			return err
		}
		from := 0
		for i, to := range b.ends {
			off := b.first + int64(i)
			rec.Offset = off
			rec.Value = b.data[from:to:to]
			rec.Timestamp = (epoch + off) * 1000
			if err := fn(&rec); err != nil {
				return err
			}
			from = to
		}
		free <- b
	}
	return nil
}

// blockPool keeps the blocks of finished reads, with their grown buffers.
var blockPool = sync.Pool{New: func() any { return &block{} }}

// block is a run of consecutive records: their JSON, one after the other.
type block struct {
	first int64 // the offset of the first record
	data  []byte
	ends  []int // where each record ends in data
}

// Records are made blockRecords at a time, at most blocksAhead blocks ahead
// of the consumer.
const (
	blockRecords = 1024
	blocksAhead  = 2
)

// Close implements providers.Source.
func (s *Source) Close() error { return nil }

// splitmix64 is a fast, well-mixed hash: each field draws from its own output.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// Append appends the JSON record of (partition, offset) to dst.
func (s *Source) Append(dst []byte, partition int, offset int64) []byte {
	var at position
	at.seek(offset)
	return s.appendRecord(dst, partition, &at)
}

// position is the offset of the next record to make, with what consecutive
// records share kept formatted: the offset's digits, advanced in place (the
// offset appears twice in a record, and incrementing its text costs less
// than formatting it), and the date of its ts.
type position struct {
	offset int64
	digits [20]byte // the offset in decimal, right-aligned, '0'-padded
	n      int      // the offset's digits: digits[20-n:]
	day    dayCache
}

func (at *position) seek(offset int64) {
	at.offset = offset
	if offset < 0 { // Append only: appendRecord formats it
		return
	}
	for i := range at.digits {
		at.digits[i] = '0'
	}
	d := strconv.AppendInt(nil, offset, 10)
	at.n = copy(at.digits[20-len(d):], d)
}

func (at *position) next() {
	at.offset++
	for i := 19; ; i-- {
		if at.digits[i] < '9' {
			at.digits[i]++
			at.n = max(at.n, 20-i)
			return
		}
		at.digits[i] = '0'
	}
}

// maxDigitsPartition is the last partition whose ids do not overflow, and
// so are the partition's digits followed by the offset's.
const maxDigitsPartition = math.MaxInt64/IDBase - 1

// appendRecord appends the record at (partition, at).
func (s *Source) appendRecord(dst []byte, partition int, at *position) []byte {
	offset := at.offset
	h := splitmix64(uint64(s.Seed)*0x100000001b3 ^ uint64(partition)<<40 ^ uint64(offset))
	dst = append(dst, `{"id":`...)
	switch {
	case offset < 0 || partition < 0 || partition > maxDigitsPartition:
		// Not made by Read; the id wraps as it always did.
		dst = strconv.AppendInt(dst, int64(partition)*IDBase+offset, 10)
	case partition == 0:
		dst = append(dst, at.digits[20-at.n:]...)
	case offset < IDBase: // partition*IDBase + offset: the partition, then 12 digits
		dst = appendInt(dst, int64(partition))
		dst = append(dst, at.digits[20-12:]...)
	default:
		dst = strconv.AppendInt(dst, int64(partition)*IDBase+offset, 10)
	}
	dst = append(dst, `,"partition":`...)
	dst = appendInt(dst, int64(partition))
	dst = append(dst, `,"offset":`...)
	if offset < 0 {
		dst = strconv.AppendInt(dst, offset, 10)
	} else {
		dst = append(dst, at.digits[20-at.n:]...)
	}
	dst = append(dst, `,"ts":"`...)
	dst = at.day.appendTimestamp(dst, epoch+offset)
	dst = append(dst, `","customer_id":`...)
	dst = appendInt(dst, int64(h%10000))
	h2 := splitmix64(h)
	dst = append(dst, `,"country":"`...)
	dst = append(dst, Countries[h2%uint64(len(Countries))]...)
	dst = append(dst, `","amount":`...)
	cents := (h2 >> 8) % 100000
	dst = appendInt(dst, int64(cents/100))
	dst = append(dst, '.', byte('0'+cents/10%10), byte('0'+cents%10))
	dst = append(dst, `,"note":"`...)
	dst = appendLetters(dst, splitmix64(h2), s.PayloadBytes)
	return append(dst, `"}`...)
}

// appendInt appends v in decimal, as strconv.AppendInt does; a record's
// numbers below 10,000 skip its call and copy.
func appendInt(dst []byte, v int64) []byte {
	switch {
	case v < 0:
		return strconv.AppendInt(dst, v, 10)
	case v < 10:
		return append(dst, byte('0'+v))
	case v < 100:
		return append(dst, byte('0'+v/10), byte('0'+v%10))
	case v < 1000:
		return append(dst, byte('0'+v/100), byte('0'+v/10%10), byte('0'+v%10))
	case v < 10000:
		return append(dst, byte('0'+v/1000), byte('0'+v/100%10), byte('0'+v/10%10), byte('0'+v%10))
	}
	return strconv.AppendInt(dst, v, 10)
}

// appendLetters appends n letters drawn from r: letter i is r shifted right
// by 8*(i%8) bits, modulo 52 (the whole shifted value, not just its low
// byte), and r advances (splitmix64) before each eighth letter. The letters
// are part of the records' bytes, which must not change between versions.
func appendLetters(dst []byte, r uint64, n int) []byte {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	b := dst[start:]
	// (r >> 8k) % 52 is ((r >> 8(k+1)) % 52 * 256 + byte k of r) % 52: the
	// draws of one r are taken from its top byte down, a look-up each,
	// instead of seven 64-bit divisions.
	m := mod52[0][r>>56]
	for len(b) >= 8 {
		m = mod52[m][byte(r>>48)]
		b[6] = letters[m]
		m = mod52[m][byte(r>>40)]
		b[5] = letters[m]
		m = mod52[m][byte(r>>32)]
		b[4] = letters[m]
		m = mod52[m][byte(r>>24)]
		b[3] = letters[m]
		m = mod52[m][byte(r>>16)]
		b[2] = letters[m]
		m = mod52[m][byte(r>>8)]
		b[1] = letters[m]
		m = mod52[m][byte(r)]
		b[0] = letters[m]
		r = splitmix64(r)
		m = mod52[0][r>>56]
		b[7] = letters[m]
		b = b[8:]
	}
	for i := range b {
		b[i] = letters[(r>>(uint(i)*8))%52]
	}
	return dst
}

// mod52[m][b] is (m*256 + b) % 52, for appendLetters.
var mod52 = func() (t [52][256]uint8) {
	for m := range t {
		for b := range t[m] {
			t[m][b] = uint8((m*256 + b) % 52)
		}
	}
	return t
}()

// dayCache is the date part of the last timestamp appended ("2026-01-01T"),
// so that consecutive records, a day of them at a time, skip the calendar.
type dayCache struct {
	days int64
	date [24]byte // date[:n]; n == 0: none yet
	n    int
}

// appendTimestamp writes unix seconds as RFC 3339 UTC with milliseconds,
// without time.Format's cost on the hot path.
func (c *dayCache) appendTimestamp(dst []byte, unix int64) []byte {
	days := unix / 86400
	secs := unix % 86400
	if c.n == 0 || days != c.days {
		y, m, d := civil(days)
		date := c.date[:0]
		if y > 9999 {
			date = strconv.AppendInt(date, int64(y), 10)
		} else {
			date = append2(append2(date, y/100), y%100)
		}
		date = append2(append(date, '-'), m)
		date = append2(append(date, '-'), d)
		c.days, c.n = days, len(append(date, 'T'))
	}
	dst = append(dst, c.date[:c.n]...)
	dst = append2(dst, int(secs/3600))
	dst = append2(append(dst, ':'), int(secs/60%60))
	dst = append2(append(dst, ':'), int(secs%60))
	return append(dst, ".000Z"...)
}

// append2 appends v (0 to 99) as two digits.
func append2(dst []byte, v int) []byte {
	return append(dst, byte('0'+v/10), byte('0'+v%10))
}

// civil converts days since 1970-01-01 to a date (Howard Hinnant's algorithm).
func civil(days int64) (int, int, int) {
	z := days + 719468
	era := z / 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return int(y), int(m), int(d)
}
