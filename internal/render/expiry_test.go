package render

import (
	"testing"
	"time"

	"github.com/streamctl/streamctl/planner"
)

// TestExpiryText: what plan says of a table's expiry, with snapshots to
// expire, and with only an earlier expiry's files left to delete.
func TestExpiryText(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		x    planner.Expiry
		want string
	}{
		{planner.Expiry{Destination: "lake", Table: "iceberg table lake.orders", OlderThan: at, Snapshots: 3, Oldest: at.Add(-48 * time.Hour), Newest: at.Add(-time.Hour), Files: 7},
			"expire 3 snapshots of iceberg table lake.orders in destination lake, committed before 2026-03-01T12:00:00Z (the oldest at 2026-02-27T12:00:00Z, the newest at 2026-03-01T11:00:00Z), after the compactions; then delete 7 files only expired snapshots referenced"},
		{planner.Expiry{Destination: "lake", Table: "iceberg table lake.orders", OlderThan: at, Files: 1},
			"delete 1 file in destination lake that only expired snapshots of iceberg table lake.orders referenced (an earlier expiry's, left by a run that died)"},
	} {
		if got := ExpiryText(tc.x); got != tc.want {
			t.Errorf("ExpiryText(%+v)\n got %s\nwant %s", tc.x, got, tc.want)
		}
	}
}
