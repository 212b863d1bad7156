package command

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/streamctl/streamctl/internal/render"
)

// statusView is what status reports: every sink's status, then the summary.
type statusView interface {
	ui
	statuses(statuses []sinkStatus, sum statusSummary, now time.Time)
}

func (m *Meta) newStatusView(asJSON, noColor bool) statusView {
	if asJSON {
		return &statusJSON{jsonUI: m.newJSONUI()}
	}
	return &statusHuman{humanUI: m.newHumanUI(noColor)}
}

// statusHuman prints a block per sink on stdout.
type statusHuman struct{ *humanUI }

func (v *statusHuman) statuses(statuses []sinkStatus, _ statusSummary, now time.Time) {
	statusText(v.m.Stdout, statuses, now, v.color())
}

// statusJSON writes a sink_status message per sink, then status_summary;
// their levels make data loss (warn) and unreadable sources (error) stand out.
type statusJSON struct{ *jsonUI }

func (v *statusJSON) statuses(statuses []sinkStatus, sum statusSummary, _ time.Time) {
	for _, s := range statuses {
		msg := fmt.Sprintf("sink %q: %s records behind", s.Sink, render.Count(s.Lag))
		level := "info"
		switch {
		case s.Error != "":
			msg, level = fmt.Sprintf("sink %q: cannot read the source: %s", s.Sink, s.Error), "error"
		case len(s.SourceBehind) > 0:
			msg, level = fmt.Sprintf("sink %q: the source is behind the committed offsets (data loss): %s", s.Sink, joinBehind(s.SourceBehind)), "warn"
		}
		v.json.Emit(level, "sink_status", msg, "sink", s)
	}
	msg := fmt.Sprintf("%s sinks, %s records behind in all", render.Count(int64(sum.Sinks)), render.Count(sum.Lag))
	level := "info"
	if sum.SourceBehindSinks > 0 {
		msg += fmt.Sprintf("; the source is behind the committed offsets of %s (data loss)", plural(sum.SourceBehindSinks, "sink"))
		level = "warn"
	}
	v.json.Emit(level, "status_summary", msg, "status", sum)
}

func (b behindPartition) String() string {
	if b.Vanished {
		return fmt.Sprintf("partition %s is no longer in the source, which had been read up to offset %s", b.Partition, render.Count(b.Committed))
	}
	return fmt.Sprintf("partition %s ends at offset %s, below the committed offset %s", b.Partition, render.Count(*b.Latest), render.Count(b.Committed))
}

func joinBehind(parts []behindPartition) string {
	var s []string
	for _, p := range parts {
		s = append(s, p.String())
	}
	return strings.Join(s, "; ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// statusText renders the statuses with render.StatusText, except a sink whose
// source is behind its committed offsets: that one gets its own block, so
// that it is never called "up to date", and says what to do.
func statusText(w io.Writer, statuses []sinkStatus, now time.Time, color bool) {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + "\x1b[0m"
	}
	for i, s := range statuses {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if len(s.SourceBehind) == 0 {
			render.StatusText(w, []render.SinkStatus{s.SinkStatus}, now, render.Options{Color: color})
			continue
		}
		fmt.Fprintf(w, "%s (%s): %s", paint("\x1b[1m", fmt.Sprintf("sink %q", s.Sink)), s.Source,
			paint("\x1b[31m", fmt.Sprintf("source behind the committed offsets in %s (data loss)", plural(len(s.SourceBehind), "partition"))))
		if s.Lag > 0 {
			fmt.Fprintf(w, ", %s records behind elsewhere", render.Count(s.Lag))
		}
		if s.LastCommit != nil {
			fmt.Fprintf(w, ", last commit %s (%s ago)", *s.LastCommit, render.Age(time.Duration(*s.LastCommitAge)*time.Second))
		}
		if s.InFlight != nil {
			fmt.Fprintf(w, ", batch %d in flight", *s.InFlight)
		}
		fmt.Fprintln(w)
		behind := map[string]behindPartition{}
		for _, b := range s.SourceBehind {
			behind[b.Partition] = b
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "  PARTITION\tCOMMITTED\tLATEST\tLAG\t")
		for _, p := range s.Partitions {
			note := ""
			if b, ok := behind[p.Partition]; ok {
				note = "  " + paint("\x1b[31m", fmt.Sprintf("source ends %s records short", render.Count(b.Committed-*b.Latest)))
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", p.Partition, render.Count(p.Committed), render.Count(p.Latest), render.Count(p.Lag), note)
		}
		for _, b := range s.SourceBehind {
			if b.Vanished {
				fmt.Fprintf(tw, "  %s\t%s\t-\t-\t  %s\n", b.Partition, render.Count(b.Committed), paint("\x1b[31m", "no longer in the source"))
			}
		}
		tw.Flush()
		fmt.Fprintln(w, "  The source no longer holds records this sink delivered: it was truncated or replaced")
		fmt.Fprintln(w, "  (a recreated topic, a rewritten file). Check the source, then run streamctl plan: it says")
		fmt.Fprintln(w, "  what apply will do (on_data_loss).")
	}
}
