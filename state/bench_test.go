package state

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCommitWithHistory is one state write of the commit protocol (a
// batch committed) to the local backend, encoding included, for sinks that
// keep 10, 1,000 and 10,000 batches of history. B/write counts the bytes
// written per commit: the state document, plus any history written beside it.
func BenchmarkCommitWithHistory(b *testing.B) {
	for _, keep := range []int{10, 1000, 10000} {
		b.Run(fmt.Sprintf("history=%d", keep), func(b *testing.B) {
			ctx := context.Background()
			dir := b.TempDir()
			path := filepath.Join(dir, "state.json")
			m, err := Load(ctx, NewLocal(path), "bench")
			if err != nil {
				b.Fatal(err)
			}
			next := int64(0)
			step := func(sink *Sink) {
				sink.InFlight = benchBatch(next)
				sink.NextBatch = next + 1
				sink.Commit(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(next)*time.Second), keep)
				next++
			}
			// The history is built in one write: building it commit by
			// commit would rewrite the whole state keep times.
			if err := m.Update(ctx, func(s *State) error {
				sink := NewSink(SourceRef{Type: "generate", Name: "orders", Identity: "generate:seed=0"})
				s.Sinks["orders"] = sink
				for range keep {
					step(sink)
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			commit := func() error {
				return m.Update(ctx, func(s *State) error {
					step(s.Sinks["orders"])
					return nil
				})
			}
			before := treeSize(dir)
			var docBytes int64
			b.ResetTimer()
			for range b.N {
				if err := commit(); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				fi, err := os.Stat(path)
				if err != nil {
					b.Fatal(err)
				}
				docBytes += fi.Size()
				b.StartTimer()
			}
			b.StopTimer()
			if got := len(m.State().Sinks["orders"].History); got != keep {
				b.Fatalf("history of %d batches, want %d", got, keep)
			}
			// The state document is rewritten whole by each commit; what the
			// folder grew by was written beside it.
			b.ReportMetric(float64(docBytes)/float64(b.N), "doc-B/write")
			b.ReportMetric(float64(docBytes+treeSize(dir)-before)/float64(b.N), "B/write")
		})
	}
}

// benchBatch is a batch of 10,000 records over three partitions, written to
// two destinations.
func benchBatch(id int64) *Batch {
	t := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(id) * time.Second)
	var ranges []Range
	for p := range 3 {
		ranges = append(ranges, Range{Partition: fmt.Sprint(p), Start: id * 3334, End: (id + 1) * 3334})
	}
	return &Batch{ID: id, Ranges: ranges, Destinations: []string{"lake", "archive"}, Layout: "5f2b9c1e0d7a4b3c", Records: 10000, Started: &t}
}

// treeSize is the total size of the regular files under dir, except the
// state document and its backup.
func treeSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if base := filepath.Base(p); base == "state.json" || base == "state.json.backup" {
			return nil
		}
		if fi, err := d.Info(); err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
		return nil
	})
	return n
}
