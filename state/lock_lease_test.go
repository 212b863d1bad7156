package state

import (
	"testing"
	"time"
)

// Modification times in whole seconds (S3's and Azure's) are each up to a
// second before their write: the silence between two of them is counted
// as the least it can have been, so that a lock is never taken over while
// its holder may still hold it by its own clock. A lock's time in whole
// seconds beside a finer one (GCS) counts the same second less.
func TestLeastSilence(t *testing.T) {
	at := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	for _, c := range []struct {
		now, modified string
		want          time.Duration
	}{
		{"2026-12-02T03:31:05Z", "2026-12-02T03:31:00Z", 4 * time.Second},
		{"2026-12-02T03:31:04Z", "2026-12-02T03:31:00Z", 3 * time.Second},
		{"2026-12-02T03:31:05.250Z", "2026-12-02T03:31:00.500Z", 4750 * time.Millisecond},
		// The lock read with a whole-second time, now stamped finer (GCS):
		// the lock may have been written up to a second later.
		{"2026-12-02T03:31:05.250Z", "2026-12-02T03:31:00Z", 4250 * time.Millisecond},
		// Now in whole seconds, the lock finer: now was stamped at the
		// earliest, which understates the silence only.
		{"2026-12-02T03:31:05Z", "2026-12-02T03:31:00.500Z", 4500 * time.Millisecond},
	} {
		if got := leastSilence(at(c.now), at(c.modified)); got != c.want {
			t.Errorf("leastSilence(%s, %s) = %v, want %v", c.now, c.modified, got, c.want)
		}
	}
}
