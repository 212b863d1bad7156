package render

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// SinkStatus is how far one sink is behind its source: the payload of the
// sink_status message of `status -json`.
type SinkStatus struct {
	Sink   string `json:"sink"`
	Source string `json:"source"` // "source.TYPE.NAME"
	// Lag is the records the source holds beyond the committed offsets, all
	// partitions together.
	Lag              int64             `json:"lag"`
	Committed        bool              `json:"committed"` // the state has a checkpoint for the sink
	CommittedBatches int64             `json:"committed_batches"`
	CommittedRecords int64             `json:"committed_records"`
	LastCommit       *string           `json:"last_commit"`
	LastCommitAge    *float64          `json:"last_commit_age_seconds"`
	InFlight         *int64            `json:"in_flight_batch"`
	Partitions       []PartitionStatus `json:"partitions"`
	// Error is set when the source could not be read; the other fields then
	// come from the state alone.
	Error string `json:"error,omitempty"`

	lastCommit time.Time
}

// PartitionStatus is one partition of a SinkStatus. Committed is the next
// offset the sink reads; Lag is Latest minus Committed.
type PartitionStatus struct {
	Partition string `json:"partition"`
	Committed int64  `json:"committed"`
	Earliest  int64  `json:"earliest"`
	Latest    int64  `json:"latest"`
	Lag       int64  `json:"lag"`
}

// SetLastCommit records the time of the sink's last commit, as of now.
func (s *SinkStatus) SetLastCommit(t time.Time, now time.Time) {
	str := t.UTC().Format(time.RFC3339)
	age := now.Sub(t).Seconds()
	age = float64(int64(age))
	s.LastCommit, s.LastCommitAge, s.lastCommit = &str, &age, t
}

// StatusText renders the statuses as a table per sink.
func StatusText(w io.Writer, sinks []SinkStatus, now time.Time, o Options) {
	for i, s := range sinks {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (%s): ", o.paint(bold, fmt.Sprintf("sink %q", s.Sink)), s.Source)
		switch {
		case s.Error != "":
			fmt.Fprintf(w, "%s %s\n", o.paint(red, "cannot read the source:"), s.Error)
			continue
		case s.Lag == 0:
			fmt.Fprint(w, o.paint(green, "up to date"))
		default:
			fmt.Fprintf(w, "%s records behind", o.paint(yellow, Count(s.Lag)))
		}
		if s.LastCommit != nil {
			fmt.Fprintf(w, ", last commit %s (%s ago)", *s.LastCommit, Age(now.Sub(s.lastCommit)))
		} else {
			fmt.Fprint(w, ", nothing committed yet")
		}
		if s.InFlight != nil {
			fmt.Fprintf(w, ", batch %d in flight", *s.InFlight)
		}
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "  PARTITION\tCOMMITTED\tLATEST\tLAG\t")
		for _, p := range s.Partitions {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t\n", p.Partition, Count(p.Committed), Count(p.Latest), Count(p.Lag))
		}
		tw.Flush()
	}
}

// Age renders a duration coarsely: "42s", "5m", "3h12m", "2d4h".
func Age(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
	}
}
