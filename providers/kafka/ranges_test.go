package kafka_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
)

// TestReadManyRanges: reading a batch's ranges at once (fetched ahead across
// partitions) delivers exactly what successive Reads deliver, in the same
// order, including empty ranges and more ranges than are fetched at once.
func TestReadManyRanges(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "events")
	b.CreateTopic(t, "wide", 6)
	for p := int32(0); p < 6; p++ {
		b.Produce(t, "wide", jsonRecords(p, 0, 200+int(p)*37)...)
	}
	s := newSource(t, b.Addr, "wide", nil)
	ranges := []providers.Range{
		{Partition: "3", Start: 10, End: 150},
		{Partition: "0", Start: 0, End: 200},
		{Partition: "5", Start: 7, End: 7},
		{Partition: "1", Start: 100, End: 237},
		{Partition: "4", Start: 0, End: 348},
		{Partition: "2", Start: 50, End: 51},
		{Partition: "5", Start: 0, End: 385},
	}
	var want []rec
	for _, r := range ranges {
		want = append(want, mustRead(t, s, r.Partition, r.Start, r.End)...)
	}
	var got []rec
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := providers.ReadRanges(ctx, s, ranges, func(r *providers.Record) error {
		got = append(got, rec{Partition: r.Partition, Offset: r.Offset, Key: string(r.Key), Value: string(r.Value), Timestamp: r.Timestamp})
		return nil
	})
	if err != nil {
		t.Fatalf("ReadRanges: %v", err)
	}
	for i := range want {
		want[i].Headers = nil
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ReadRanges delivered %d records, successive Reads %d; first difference at %d", len(got), len(want), firstDiff(got, want))
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

// TestReadManyRangesStops: an error in one range (data lost from the source,
// or from fn) ends the read with that error, after the ranges before it.
func TestReadManyRangesStops(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "events")
	b.CreateTopic(t, "lossy", 3)
	for p := int32(0); p < 3; p++ {
		b.Produce(t, "lossy", jsonRecords(p, 0, 50)...)
	}
	var del kadm.Offsets
	del.Add(kadm.Offset{Topic: "lossy", Partition: 1, At: 20})
	if resp, err := b.Admin(t).DeleteRecords(context.Background(), del); err != nil || resp.Error() != nil {
		t.Fatalf("DeleteRecords: %v %v", err, resp.Error())
	}
	s := newSource(t, b.Addr, "lossy", nil)
	ranges := []providers.Range{{Partition: "0", Start: 0, End: 50}, {Partition: "1", Start: 0, End: 50}, {Partition: "2", Start: 0, End: 50}}
	seen := map[string]int{}
	err := providers.ReadRanges(context.Background(), s, ranges, func(r *providers.Record) error {
		seen[r.Partition]++
		return nil
	})
	if !errors.Is(err, providers.ErrDataLoss) || !strings.Contains(err.Error(), "partition 1") {
		t.Fatalf("ReadRanges over lost offsets: %v, want ErrDataLoss naming partition 1", err)
	}
	if seen["0"] != 50 || seen["2"] != 0 {
		t.Errorf("before the failing range: %v, want all 50 of partition 0 and none of partition 2", seen)
	}

	stop := errors.New("stop here")
	n := 0
	err = providers.ReadRanges(context.Background(), s, ranges[2:], func(*providers.Record) error {
		if n++; n == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 10 {
		t.Fatalf("ReadRanges whose fn fails: %v after %d records", err, n)
	}
}
