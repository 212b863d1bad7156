package command

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// StatusCommand shows how far each sink is behind its source.
type StatusCommand struct{ *Meta }

type statusArgs struct {
	configFlags
	targetFlags
	json             bool
	detailedExitcode bool
	maxLag           int64
}

func (c *StatusCommand) Synopsis() string { return "Show each sink's lag behind its source" }
func (c *StatusCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] status [options]

  For each sink and partition: the committed offset, the source's latest
  offset, the lag between them in records, and the time of the last commit.
  A source that ends below the committed offsets, or lost a committed
  partition, is shown as data loss.
  Reads the state without the lock and asks the sources for their offsets;
  destinations are not contacted. For alerting from scheduled jobs.

Options:

  -json               Print JSON lines (docs/json-output.md): the version, a
                      sink_status per sink, then status_summary.
  -detailed-exitcode  Exit 2 when a sink's lag exceeds -max-lag, or when a
                      source is behind a sink's committed offsets (truncated,
                      recreated, a partition gone: data loss), 0 otherwise.
  -max-lag=N          The lag, in records per sink, above which
                      -detailed-exitcode exits 2. Default 0.
`+targetFlagsHelp+"\n"+configFlagsHelp) + "\n"
}

func (c *StatusCommand) flags(a *statusArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("status", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a.configFlags.register(fs)
	a.targetFlags.register(fs)
	fs.BoolVar(&a.json, "json", false, "")
	fs.BoolVar(&a.detailedExitcode, "detailed-exitcode", false, "")
	fs.Int64Var(&a.maxLag, "max-lag", 0, "")
	return fs
}

// FlagSet lists status's flags.
func (c *StatusCommand) FlagSet() *flag.FlagSet { return c.flags(&statusArgs{}) }

// statusSummary is the payload of status_summary.
type statusSummary struct {
	Sinks       int   `json:"sinks"`
	Lag         int64 `json:"lag"`
	MaxLag      int64 `json:"max_lag"`
	LagExceeded bool  `json:"lag_exceeded"`
	// SourceBehindSinks counts the sinks whose source is behind their
	// committed offsets: data loss, an alert whatever -max-lag is.
	SourceBehindSinks int `json:"source_behind_sinks"`
	Errors            int `json:"errors"`
}

// sinkStatus is the payload of sink_status: render's, plus the partitions
// whose source is behind the committed offset.
type sinkStatus struct {
	render.SinkStatus
	SourceBehind []behindPartition `json:"source_behind"`
}

// behindPartition is a partition whose source ends below the committed
// offset (a truncated file, a recreated topic), or that is no longer in the
// source (Vanished, Latest null): records the sink delivered are gone from it.
type behindPartition struct {
	Partition string `json:"partition"`
	Committed int64  `json:"committed"`
	Latest    *int64 `json:"latest"`
	Vanished  bool   `json:"vanished"`
}

func (b behindPartition) String() string {
	if b.Vanished {
		return fmt.Sprintf("partition %s is no longer in the source, which had been read up to offset %s", b.Partition, render.Count(b.Committed))
	}
	return fmt.Sprintf("partition %s ends at offset %s, below the committed offset %s", b.Partition, render.Count(*b.Latest), render.Count(b.Committed))
}

func (c *StatusCommand) Run(args []string) int {
	a := &statusArgs{}
	fs := c.flags(a)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() > 0 {
		return c.errorf("status takes only options\n\n%s", c.Help())
	}
	if a.maxLag < 0 {
		return c.errorf("-max-lag must not be negative")
	}
	v := c.newView(a.json, a.noColor)
	cfg, ok := c.loadConfigView(&a.configFlags, v)
	if !ok {
		return ExitError
	}
	cfg, err := a.selectSinks(cfg)
	if err != nil {
		return v.fail("Invalid -target or -exclude", err.Error())
	}
	ctx, stop := signalContext()
	defer stop()
	backend, err := stateBackend(ctx, cfg)
	if err != nil {
		return v.errorf("%v", err)
	}
	mgr, err := state.Load(ctx, backend, Version)
	if err != nil {
		return v.errorf("%v", err)
	}
	st := mgr.State()

	snapshots := map[string]providers.Snapshot{}
	failures := map[string]error{}
	for _, s := range cfg.Sinks {
		if _, done := snapshots[s.Source]; done || failures[s.Source] != nil {
			continue
		}
		decl := cfg.Sources[s.Source]
		src, err := openSource(ctx, decl)
		if err != nil {
			failures[s.Source] = err
			continue
		}
		snap, err := src.Snapshot(ctx)
		src.Close()
		if err != nil {
			failures[s.Source] = err
			continue
		}
		snapshots[s.Source] = snap
	}

	now := c.now()
	var statuses []sinkStatus
	sum := statusSummary{MaxLag: a.maxLag}
	for _, s := range cfg.Sinks {
		ss := st.Sinks[s.Name]
		status := sinkStatus{
			SinkStatus:   render.SinkStatus{Sink: s.Name, Source: "source." + s.Source, Partitions: []render.PartitionStatus{}},
			SourceBehind: []behindPartition{},
		}
		if ss != nil {
			status.Committed = true
			status.CommittedBatches, status.CommittedRecords = ss.CommittedBatches, ss.CommittedRecords
			if ss.LastCommit != nil {
				status.SetLastCommit(*ss.LastCommit, now)
			}
			if ss.InFlight != nil {
				id := ss.InFlight.ID
				status.InFlight = &id
			}
		}
		if err := failures[s.Source]; err != nil {
			status.Error = err.Error()
			sum.Errors++
		} else {
			inSource := map[string]bool{}
			for _, part := range snapshots[s.Source].Partitions {
				inSource[part.ID] = true
				committed := part.Earliest
				if ss != nil {
					if off, ok := ss.Offsets[part.ID]; ok {
						committed = off
					}
				} else if startsAtLatest(cfg.Sources[s.Source]) {
					committed = part.Latest
				}
				if committed > part.Latest {
					latest := part.Latest
					status.SourceBehind = append(status.SourceBehind, behindPartition{Partition: part.ID, Committed: committed, Latest: &latest})
				}
				lag := max(part.Latest-max(committed, part.Earliest), 0)
				status.Partitions = append(status.Partitions, render.PartitionStatus{Partition: part.ID, Committed: committed, Earliest: part.Earliest, Latest: part.Latest, Lag: lag})
				status.Lag += lag
			}
			if ss != nil {
				// As the planner: a partition read up to offset 0 lost nothing.
				var vanished []behindPartition
				for id, off := range ss.Offsets {
					if !inSource[id] && off > 0 {
						vanished = append(vanished, behindPartition{Partition: id, Committed: off, Vanished: true})
					}
				}
				sort.Slice(vanished, func(i, j int) bool { return vanished[i].Partition < vanished[j].Partition })
				status.SourceBehind = append(status.SourceBehind, vanished...)
			}
		}
		sum.Sinks++
		sum.Lag += status.Lag
		if status.Lag > a.maxLag {
			sum.LagExceeded = true
		}
		if len(status.SourceBehind) > 0 {
			sum.SourceBehindSinks++
		}
		statuses = append(statuses, status)
	}

	if v.json != nil {
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
	} else {
		statusText(c.Stdout, statuses, now, v.color())
	}
	switch {
	case sum.Errors > 0:
		return ExitError
	case a.detailedExitcode && (sum.LagExceeded || sum.SourceBehindSinks > 0):
		return ExitChanges
	}
	return ExitOK
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
