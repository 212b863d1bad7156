package kafka_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/kafka"
)

// readRanges returns what ReadRanges delivers; one that does not end fails
// the test instead of hanging it.
func readRanges(t testing.TB, s *kafka.Source, ranges []providers.Range) ([]rec, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var out []rec
	err := s.ReadRanges(ctx, ranges, func(r *providers.Record) error {
		out = append(out, copyRec(r))
		return nil
	})
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
		t.Fatalf("ReadRanges(%v) did not end within 60s", ranges)
	}
	return out, err
}

// readEach is what Reads of ranges one after another deliver.
func readEach(t testing.TB, s *kafka.Source, ranges []providers.Range) []rec {
	t.Helper()
	var out []rec
	for _, r := range ranges {
		out = append(out, mustRead(t, s, r.Partition, r.Start, r.End)...)
	}
	return out
}

// TestReadRangesAhead: ReadRanges delivers the records of each range in
// turn, exactly as Reads of them one after another: with more ranges than it
// fetches ahead, of several pieces each, an empty one, a partition twice.
func TestReadRangesAhead(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t)
	b.CreateTopic(t, "ahead", 5)
	for p := range int32(5) {
		n := 2_000 + 1_000*int(p) // per produce: partition 4 ends at 18,000
		for from := 0; from < 3*n; from += n {
			b.Produce(t, "ahead", spreadRecords(p, from, n)...)
		}
	}
	s := newSource(t, b.Addr, "ahead", nil)
	ranges := []providers.Range{
		{Partition: "3", Start: 100, End: 14_000},
		{Partition: "0", Start: 0, End: 6_000},
		{Partition: "4", Start: 17_999, End: 18_000},
		{Partition: "1", Start: 5, End: 5},
		{Partition: "2", Start: 2_500, End: 2_600},
		{Partition: "0", Start: 10, End: 20},
		{Partition: "1", Start: 3_000, End: 9_000},
		{Partition: "4", Start: 0, End: 18_000},
	}
	want := readEach(t, s, ranges)
	i := 0
	for _, r := range ranges {
		for o := r.Start; o < r.End; o, i = o+1, i+1 {
			if w := want[i]; w.Partition != r.Partition || w.Offset != o {
				t.Fatalf("Reads: record %d is %s@%d, want %s@%d", i, w.Partition, w.Offset, r.Partition, o)
			}
		}
	}
	for run := range 3 {
		got, err := readRanges(t, s, ranges)
		if err != nil {
			t.Fatalf("ReadRanges: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("run %d: ReadRanges delivered %d records, not the %d of the Reads one after another (first difference at %d)", run, len(got), len(want), firstDiff(got, want))
		}
	}
	if got, err := readRanges(t, s, nil); err != nil || len(got) != 0 {
		t.Errorf("ReadRanges of no range: %d records, %v", len(got), err)
	}
}

func firstDiff(a, b []rec) int {
	for i := range min(len(a), len(b)) {
		if !reflect.DeepEqual(a[i], b[i]) {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestReadRangesStops: an error ends ReadRanges at its range's turn, after
// the records of the ranges before it, naming its range; fn's error and a
// cancellation end it too; and every fetching goroutine, those of the ranges
// fetched ahead included, has ended. Not parallel: it counts the fetching
// goroutines of the whole process.
func TestReadRangesStops(t *testing.T) {
	b := testenv.Kafka(t)
	b.CreateTopic(t, "stops", 4)
	// Each partition is read in several pieces, so that the ranges fetched
	// ahead wait on their full channels. Partition 1, read when the context
	// is canceled, holds more than its channel and a fetch.
	const n, n1 = 20_000, 60_000
	for p := range int32(4) {
		for from := 0; from < n || p == 1 && from < n1; from += 5_000 {
			b.Produce(t, "stops", spreadRecords(p, from, 5_000)...)
		}
	}
	var del kadm.Offsets
	del.Add(kadm.Offset{Topic: "stops", Partition: 3, At: 6_000})
	if resp, err := b.Admin(t).DeleteRecords(context.Background(), del); err != nil || resp.Error() != nil {
		t.Fatalf("DeleteRecords: %v %v", err, resp.Error())
	}
	s := newSource(t, b.Addr, "stops", nil)
	if k := fetchLoops(); k != 0 {
		t.Fatalf("%d fetching goroutines before the test", k)
	}
	whole := func(p string) providers.Range { return providers.Range{Partition: p, Start: 0, End: n} }
	ranges := []providers.Range{whole("0"), {Partition: "1", Start: 0, End: n1}, whole("2"), {Partition: "3", Start: 6_000, End: n}}
	// check checks err is a *RangeError of r, wrapping cause unless nil.
	check := func(what string, err error, r providers.Range, cause error) {
		t.Helper()
		var re *providers.RangeError
		if !errors.As(err, &re) || re.Range != r || cause != nil && !errors.Is(err, cause) {
			t.Errorf("%s: error %v, want a *RangeError of %v wrapping %v", what, err, r, cause)
		}
		if want := fmt.Sprintf("read partition %s [%d, %d): ", r.Partition, r.Start, r.End); err != nil && !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %q does not start with %q", what, err, want)
		}
		if k := fetchLoops(); k != 0 {
			t.Errorf("%s: %d fetching goroutines left after ReadRanges returned", what, k)
		}
	}
	// partition1 is what a ReadRanges delivered of partition 1, after all of
	// partition 0 and before anything else.
	partition1 := func(what string, got []rec) int64 {
		t.Helper()
		for i, r := range got {
			want := rec{Partition: "0", Offset: int64(i)}
			if i >= n {
				want = rec{Partition: "1", Offset: int64(i - n)}
			}
			if r.Partition != want.Partition || r.Offset != want.Offset {
				t.Fatalf("%s: record %d is %s@%d, want %s@%d", what, i, r.Partition, r.Offset, want.Partition, want.Offset)
			}
		}
		if len(got) < n {
			t.Fatalf("%s: %d records, not all %d of partition 0", what, len(got), n)
		}
		return int64(len(got) - n)
	}

	// fn's error, in the second range.
	stop := errors.New("stop")
	var got []rec
	err := s.ReadRanges(context.Background(), ranges, func(r *providers.Record) error {
		got = append(got, copyRec(r))
		if r.Partition == "1" && r.Offset == 4 {
			return stop
		}
		return nil
	})
	if k := partition1("fn error", got); k != 5 {
		t.Errorf("fn error at the 5th record of partition 1: %d of its records delivered", k)
	}
	check("fn error", err, ranges[1], stop)

	// A cancellation, in the second range.
	ctx, cancel := context.WithCancel(context.Background())
	got = nil
	err = s.ReadRanges(ctx, ranges, func(r *providers.Record) error {
		got = append(got, copyRec(r))
		if r.Partition == "1" && r.Offset == 100 {
			cancel()
			time.Sleep(100 * time.Millisecond) // for the fetching goroutines to see it
		}
		return nil
	})
	cancel()
	if k := partition1("cancel", got); k >= n1 {
		t.Errorf("canceled in partition 1: all its %d records delivered", k)
	}
	check("cancel", err, ranges[1], context.Canceled)

	// Data loss in the third range, once the first two are delivered.
	loss := []providers.Range{whole("0"), whole("1"), {Partition: "3", Start: 2_000, End: n}, whole("2")}
	got, err = readRanges(t, s, loss)
	if k := partition1("data loss", got); k != n {
		t.Errorf("data loss in the third range: %d records of the second delivered, want %d", k, n)
	}
	check("data loss", err, loss[2], providers.ErrDataLoss)
	if err != nil && !strings.Contains(err.Error(), "[2000, 6000)") {
		t.Errorf("data-loss error %q does not name the lost offsets [2000, 6000)", err)
	}

	// An invalid range is reported at its turn too.
	bad := []providers.Range{{Partition: "0", Start: 0, End: 10}, {Partition: "x", Start: 0, End: 1}, whole("1")}
	got, err = readRanges(t, s, bad)
	if !reflect.DeepEqual(offsets(got), []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Errorf("before an invalid range: offsets %v, want 0-9", offsets(got))
	}
	check("invalid range", err, bad[1], nil)
}

// fetchLoops counts the goroutines fetching for a Read or ReadRanges,
// waiting up to 2 s for those that are just ending: a leaked one stays,
// blocked on its full channel or in a fetch.
func fetchLoops() int {
	deadline := time.Now().Add(2 * time.Second)
	for {
		buf := make([]byte, 1<<20)
		for {
			k := runtime.Stack(buf, true)
			if k < len(buf) {
				buf = buf[:k]
				break
			}
			buf = make([]byte, 2*len(buf))
		}
		k := 0
		for _, g := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(g, "kafka.(*reader).fetchLoop(") {
				k++
			}
		}
		if k == 0 || time.Now().After(deadline) {
			return k
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// BenchmarkReadRanges reads batches as the engine stages them, 100,000
// records of a topic of 3 (or 8) partitions per batch, a range of each
// partition, with Reads one after another and with ReadRanges. next-µs is
// the mean wait from the end of a range to the first record of the next one
// of its batch: the cold start of a Read, a request to the leader and the
// decoding of its first piece, which ReadRanges hides. first-µs is that of
// the batch's first range, from the start of the batch.
//
//	go test -run '^$' -bench BenchmarkReadRanges -count 6 ./providers/kafka/
func BenchmarkReadRanges(b *testing.B) {
	const total, batch = 300_000, 100_000
	broker := testenv.Kafka(b)
	for _, parts := range []int{3, 8} {
		topic := fmt.Sprintf("bench%d", parts)
		broker.CreateTopic(b, topic, int32(parts))
		per := total / parts
		var wantSum int64
		for p := range parts {
			rs := make([]*kgo.Record, 0, per)
			for i := range per {
				v := fmt.Appendf(nil, `{"id":%d,"country":"DE","amount":%d.%02d,"note":"order %d of the benchmark stream"}`, i, i%1000, i%100, i)
				wantSum += checksum(v)
				rs = append(rs, &kgo.Record{Partition: int32(p), Key: []byte(strconv.Itoa(i)), Value: v})
			}
			broker.Produce(b, topic, rs...)
		}
		var batches [][]providers.Range
		for from := 0; from < per; from += batch / parts {
			var rs []providers.Range
			for p := range parts {
				rs = append(rs, providers.Range{Partition: strconv.Itoa(p), Start: int64(from), End: int64(min(from+batch/parts, per))})
			}
			batches = append(batches, rs)
		}
		for _, mode := range []string{"Read", "ReadRanges"} {
			b.Run(fmt.Sprintf("partitions=%d/%s", parts, mode), func(b *testing.B) {
				s := newSource(b, broker.Addr, topic, nil)
				ctx := context.Background()
				var first, next time.Duration
				firsts, nexts := 0, 0
				b.ReportAllocs()
				for b.Loop() {
					var count, sum int64
					for _, rs := range batches {
						turn, part, end := time.Now(), "", int64(0)
						fn := func(r *providers.Record) error {
							if r.Partition != part {
								if part == "" {
									first += time.Since(turn)
									firsts++
								} else {
									next += time.Since(turn)
									nexts++
								}
								part = r.Partition
								p, _ := strconv.Atoi(part)
								end = rs[p].End
							}
							count++
							sum += checksum(r.Value)
							if r.Offset == end-1 {
								turn = time.Now()
							}
							return nil
						}
						var err error
						if mode == "Read" {
							for _, r := range rs {
								if err = s.Read(ctx, r.Partition, r.Start, r.End, fn); err != nil {
									break
								}
							}
						} else {
							err = s.ReadRanges(ctx, rs, fn)
						}
						if err != nil {
							b.Fatal(err)
						}
					}
					if count != int64(parts*per) || sum != wantSum {
						b.Fatalf("%d records, checksum %d (want %d, %d)", count, sum, parts*per, wantSum)
					}
				}
				b.ReportMetric(float64(parts*per*b.N)/b.Elapsed().Seconds(), "records/s")
				b.ReportMetric(float64(first.Microseconds())/float64(firsts), "first-µs")
				b.ReportMetric(float64(next.Microseconds())/float64(nexts), "next-µs")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
