package providers

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// seqSource is a Source without ReadRanges: partition "bad" has lost its
// records.
type seqSource struct{ reads []Range }

func (s *seqSource) Snapshot(context.Context) (Snapshot, error) { return Snapshot{}, nil }
func (s *seqSource) Close() error                               { return nil }

func (s *seqSource) Read(_ context.Context, partition string, start, end int64, fn func(*Record) error) error {
	s.reads = append(s.reads, Range{partition, start, end})
	if partition == "bad" {
		return fmt.Errorf("offsets gone: %w", ErrDataLoss)
	}
	for o := start; o < end; o++ {
		if err := fn(&Record{Partition: partition, Offset: o}); err != nil {
			return err
		}
	}
	return nil
}

// TestReadRangesFallback: a source without ReadRanges is read range by
// range, and an error names the range it concerns.
func TestReadRangesFallback(t *testing.T) {
	src := &seqSource{}
	var got []string
	fn := func(r *Record) error {
		got = append(got, fmt.Sprintf("%s@%d", r.Partition, r.Offset))
		return nil
	}
	ranges := []Range{{"1", 3, 5}, {"0", 0, 2}, {"bad", 7, 9}, {"2", 0, 1}}
	err := ReadRanges(context.Background(), src, ranges, fn)
	if want := []string{"1@3", "1@4", "0@0", "0@1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("records %v, want %v", got, want)
	}
	if !reflect.DeepEqual(src.reads, ranges[:3]) {
		t.Errorf("reads %v, want %v", src.reads, ranges[:3])
	}
	var re *RangeError
	if !errors.As(err, &re) || re.Range != ranges[2] || !errors.Is(err, ErrDataLoss) {
		t.Fatalf("error %v, want a *RangeError of %v wrapping ErrDataLoss", err, ranges[2])
	}
	if want := "read partition bad [7, 9): offsets gone: data loss"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}

	stop := errors.New("stop")
	err = ReadRanges(context.Background(), src, ranges[:2], func(r *Record) error {
		if r.Partition == "0" {
			return stop
		}
		return nil
	})
	if !errors.As(err, &re) || re.Range != ranges[1] || !errors.Is(err, stop) {
		t.Errorf("fn's error came back as %v, want a *RangeError of %v wrapping it", err, ranges[1])
	}
}
