// Package generate is a deterministic synthetic source: record = f(seed,
// partition, offset). It backs the quickstart, the benchmarks and the crash
// tests, where every record must be reproducible without storing it.
package generate

import (
	"context"
	"fmt"
	"strconv"
	"time"

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

// Read implements providers.Source.
func (s *Source) Read(ctx context.Context, partition string, start, end int64, fn func(*providers.Record) error) error {
	p, err := strconv.Atoi(partition)
	if err != nil || p < 0 || p >= s.Partitions {
		return fmt.Errorf("generate: no partition %q: %w", partition, providers.ErrDataLoss)
	}
	if end > s.RecordsPerPartition {
		return fmt.Errorf("generate: partition %d has %d records, not %d: %w", p, s.RecordsPerPartition, end, providers.ErrDataLoss)
	}
	rec := providers.Record{Partition: partition}
	buf := make([]byte, 0, 256+s.PayloadBytes)
	for off := start; off < end; off++ {
		if off&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		buf = s.Append(buf[:0], p, off)
		rec.Offset = off
		rec.Value = buf
		rec.Timestamp = (epoch + off) * 1000
		if err := fn(&rec); err != nil {
			return err
		}
	}
	return nil
}

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
	h := splitmix64(uint64(s.Seed)*0x100000001b3 ^ uint64(partition)<<40 ^ uint64(offset))
	dst = append(dst, `{"id":`...)
	dst = strconv.AppendInt(dst, int64(partition)*IDBase+offset, 10)
	dst = append(dst, `,"partition":`...)
	dst = strconv.AppendInt(dst, int64(partition), 10)
	dst = append(dst, `,"offset":`...)
	dst = strconv.AppendInt(dst, offset, 10)
	dst = append(dst, `,"ts":"`...)
	dst = appendTimestamp(dst, epoch+offset)
	dst = append(dst, `","customer_id":`...)
	dst = strconv.AppendUint(dst, h%10000, 10)
	h2 := splitmix64(h)
	dst = append(dst, `,"country":"`...)
	dst = append(dst, Countries[h2%uint64(len(Countries))]...)
	dst = append(dst, `","amount":`...)
	cents := (h2 >> 8) % 100000
	dst = strconv.AppendUint(dst, cents/100, 10)
	dst = append(dst, '.', byte('0'+cents/10%10), byte('0'+cents%10))
	dst = append(dst, `,"note":"`...)
	r := splitmix64(h2)
	for i := 0; i < s.PayloadBytes; i++ {
		if i%8 == 7 {
			r = splitmix64(r)
		}
		dst = append(dst, letters[(r>>(uint(i%8)*8))%uint64(len(letters))])
	}
	return append(dst, `"}`...)
}

// appendTimestamp writes unix seconds as RFC 3339 UTC with milliseconds,
// without time.Format's cost on the hot path.
func appendTimestamp(dst []byte, unix int64) []byte {
	days := unix / 86400
	secs := unix % 86400
	y, m, d := civil(days)
	dst = appendPad(dst, int64(y), 4)
	dst = append(dst, '-')
	dst = appendPad(dst, int64(m), 2)
	dst = append(dst, '-')
	dst = appendPad(dst, int64(d), 2)
	dst = append(dst, 'T')
	dst = appendPad(dst, secs/3600, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, secs/60%60, 2)
	dst = append(dst, ':')
	dst = appendPad(dst, secs%60, 2)
	return append(dst, ".000Z"...)
}

func appendPad(dst []byte, v int64, width int) []byte {
	var tmp [20]byte
	s := strconv.AppendInt(tmp[:0], v, 10)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
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
