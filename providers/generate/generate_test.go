package generate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/providers"
)

type rec struct {
	ID         int64   `json:"id"`
	Partition  int     `json:"partition"`
	Offset     int64   `json:"offset"`
	TS         string  `json:"ts"`
	CustomerID int64   `json:"customer_id"`
	Country    string  `json:"country"`
	Amount     float64 `json:"amount"`
	Note       string  `json:"note"`
}

func TestRecordsAreValidAndDetermined(t *testing.T) {
	s := &Source{Partitions: 3, RecordsPerPartition: 200000, Seed: 7, PayloadBytes: 13}
	offsets := []int64{0, 1, 59, 86399, 86400, 199999}
	for _, p := range []int{0, 2} {
		for _, off := range offsets {
			var got []string
			for i := 0; i < 2; i++ {
				err := s.Read(context.Background(), string(rune('0'+p)), off, off+1, func(r *providers.Record) error {
					got = append(got, string(r.Value))
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			if got[0] != got[1] {
				t.Fatalf("record (%d, %d) differs between reads", p, off)
			}
			var r rec
			dec := json.NewDecoder(strings.NewReader(got[0]))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil {
				t.Fatalf("record (%d, %d) %s: %v", p, off, got[0], err)
			}
			wantTS := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(off) * time.Second).Format("2006-01-02T15:04:05.000Z")
			switch {
			case r.ID != int64(p)*IDBase+off, r.Partition != p, r.Offset != off:
				t.Errorf("ids of (%d, %d): %+v", p, off, r)
			case r.TS != wantTS:
				t.Errorf("ts of offset %d: %s, want %s", off, r.TS, wantTS)
			case r.CustomerID < 0 || r.CustomerID >= 10000:
				t.Errorf("customer_id %d out of range", r.CustomerID)
			case r.Amount < 0 || r.Amount >= 1000:
				t.Errorf("amount %v out of range", r.Amount)
			case len(r.Note) != 13:
				t.Errorf("note %q has %d letters, want 13", r.Note, len(r.Note))
			}
			if !contains(Countries, r.Country) {
				t.Errorf("country %q", r.Country)
			}
		}
	}
	other := &Source{Partitions: 3, RecordsPerPartition: 10, Seed: 8, PayloadBytes: 13}
	a, b := readAll(t, s, "0", 0, 10), readAll(t, other, "0", 0, 10)
	if a == b {
		t.Error("another seed gives the same records")
	}
}

func TestSnapshotAndBounds(t *testing.T) {
	s := &Source{Partitions: 2, RecordsPerPartition: 5}
	snap, err := s.Snapshot(context.Background())
	if err != nil || len(snap.Partitions) != 2 || snap.Partitions[1] != (providers.PartitionSnapshot{ID: "1", Latest: 5}) {
		t.Fatalf("snapshot %+v %v", snap, err)
	}
	if err := s.Read(context.Background(), "0", 0, 6, func(*providers.Record) error { return nil }); err == nil {
		t.Error("reading past the end must fail")
	}
	if err := s.Read(context.Background(), "9", 0, 1, func(*providers.Record) error { return nil }); err == nil {
		t.Error("reading a partition that does not exist must fail")
	}
}

func readAll(t *testing.T, s *Source, p string, start, end int64) string {
	var b strings.Builder
	if err := s.Read(context.Background(), p, start, end, func(r *providers.Record) error {
		b.Write(r.Value)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func BenchmarkRead(b *testing.B) {
	s := &Source{Partitions: 1, RecordsPerPartition: int64(b.N), PayloadBytes: 64}
	b.ReportAllocs()
	var n int64
	s.Read(context.Background(), "0", 0, int64(b.N), func(r *providers.Record) error { n += int64(len(r.Value)); return nil })
	b.SetBytes(n / int64(max(b.N, 1)))
}

// Records are a function of (seed, partition, offset) across versions too: a
// batch logged in flight by one version is replayed by the next, and must get
// the same records. The digest pins that function.
func TestRecordsAreStable(t *testing.T) {
	h := sha256.New()
	for _, payload := range []int{0, 13, 64, 100} {
		s := &Source{Partitions: 3, RecordsPerPartition: 200_000, Seed: 7, PayloadBytes: payload}
		for _, p := range []string{"0", "2"} {
			if err := s.Read(context.Background(), p, 86_000, 173_000, func(r *providers.Record) error {
				h.Write(r.Value)
				h.Write([]byte{'\n'})
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	const want = "23a8dfa346d586864b23adf14ded59c29a05daf1e52f02b55a29db7001f58af9"
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		t.Fatalf("records digest %s, want %s", got, want)
	}
}

// BenchmarkAppend is the cost of making one record, on one goroutine.
func BenchmarkAppend(b *testing.B) {
	s := &Source{Partitions: 1, PayloadBytes: 64}
	var at position
	var buf []byte
	for b.Loop() {
		buf = s.appendRecord(buf[:0], 1, &at)
		at.next()
	}
	b.SetBytes(int64(len(buf)))
}

// Offsets are formatted by incrementing their digits: across every carry, and
// for ids past a partition's 12 digits, each record must start as formatting
// the numbers gives.
func TestIDsAndOffsetsAcrossCarries(t *testing.T) {
	s := &Source{Partitions: 124, RecordsPerPartition: math.MaxInt64, PayloadBytes: 3}
	for _, r := range [][2]int64{{0, 1100}, {99_990, 100_010}, {999_999_990, 1_000_000_010}, {IDBase - 5, IDBase + 5}} {
		for _, p := range []int{0, 1, 7, 123} {
			off := r[0]
			err := s.Read(context.Background(), strconv.Itoa(p), r[0], r[1], func(rec *providers.Record) error {
				want := fmt.Sprintf(`{"id":%d,"partition":%d,"offset":%d,"ts":"`, int64(p)*IDBase+off, p, off)
				if rec.Offset != off || !strings.HasPrefix(string(rec.Value), want) {
					return fmt.Errorf("offset %d: record %s, want it to start with %s", rec.Offset, rec.Value, want)
				}
				if a := s.Append(nil, p, off); string(a) != string(rec.Value) {
					return fmt.Errorf("offset %d: Append gives %s, Read %s", off, a, rec.Value)
				}
				off++
				return nil
			})
			if err != nil {
				t.Fatalf("partition %d: %v", p, err)
			}
			if off != r[1] {
				t.Fatalf("partition %d: read up to %d, want %d", p, off, r[1])
			}
		}
	}
}

// Append makes any record the function defines, also ones Read never asks
// for: negative offsets, and partitions whose ids overflow (and wrap, as
// they always did). Read refuses a negative start.
func TestAppendOutsideRead(t *testing.T) {
	s := &Source{Partitions: 1, PayloadBytes: 3}
	for _, c := range []struct {
		partition int
		offset    int64
	}{{1, -3}, {0, -1}, {-1, 0}, {-2, 5}, {9_223_371, IDBase - 1}, {9_223_372, 5}, {9_223_373, 0}, {20_000_000, 7}} {
		want := fmt.Sprintf(`{"id":%d,"partition":%d,"offset":%d,"ts":"`, int64(c.partition)*IDBase+c.offset, c.partition, c.offset)
		if got := string(s.Append(nil, c.partition, c.offset)); !strings.HasPrefix(got, want) {
			t.Errorf("Append(%d, %d) = %s, want it to start with %s", c.partition, c.offset, got, want)
		}
	}
	err := s.Read(context.Background(), "0", -3, 3, func(*providers.Record) error { return nil })
	if !errors.Is(err, providers.ErrDataLoss) {
		t.Errorf("Read from offset -3: %v, want data loss", err)
	}
}

func TestAppendInt(t *testing.T) {
	values := []int64{-1, -9999, -10000, math.MinInt64, 10000, 99999, 1 << 40, math.MaxInt64}
	for v := range int64(10000) {
		values = append(values, v)
	}
	for _, v := range values {
		if got, want := string(appendInt([]byte("x"), v)), "x"+strconv.FormatInt(v, 10); got != want {
			t.Fatalf("appendInt(%d) = %q, want %q", v, got, want)
		}
	}
}

// appendLetters draws its letters with table look-ups; they must be the
// letters its definition gives.
func TestAppendLetters(t *testing.T) {
	r := uint64(1)
	for i := range 20000 {
		r = splitmix64(r + uint64(i))
		n := i % 70
		want := make([]byte, n)
		x := r
		for j := range n {
			if j%8 == 7 {
				x = splitmix64(x)
			}
			want[j] = letters[(x>>(8*(j%8)))%52]
		}
		if got := appendLetters([]byte("x"), r, n); string(got) != "x"+string(want) {
			t.Fatalf("appendLetters(%#x, %d) = %q, want x%q", r, n, got, want)
		}
	}
}
