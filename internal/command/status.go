package command

import (
	"flag"
	"fmt"
	"io"
	"strings"

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
  Reads the state without the lock and asks the sources for their offsets;
  destinations are not contacted. For alerting from scheduled jobs.

Options:

  -json               Print JSON lines (docs/json-output.md): the version, a
                      sink_status per sink, then status_summary.
  -detailed-exitcode  Exit 2 when a sink's lag exceeds -max-lag, 0 otherwise.
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
	Errors      int   `json:"errors"`
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
		src, err := sourceOpeners[decl.Type](ctx, decl.Config)
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
	var statuses []render.SinkStatus
	sum := statusSummary{MaxLag: a.maxLag}
	for _, s := range cfg.Sinks {
		ss := st.Sinks[s.Name]
		status := render.SinkStatus{Sink: s.Name, Source: "source." + s.Source, Partitions: []render.PartitionStatus{}}
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
			for _, part := range snapshots[s.Source].Partitions {
				committed := part.Earliest
				if ss != nil {
					if off, ok := ss.Offsets[part.ID]; ok {
						committed = off
					}
				} else if startsAtLatest(cfg.Sources[s.Source]) {
					committed = part.Latest
				}
				lag := max(part.Latest-max(committed, part.Earliest), 0)
				status.Partitions = append(status.Partitions, render.PartitionStatus{Partition: part.ID, Committed: committed, Earliest: part.Earliest, Latest: part.Latest, Lag: lag})
				status.Lag += lag
			}
		}
		sum.Sinks++
		sum.Lag += status.Lag
		if status.Lag > a.maxLag {
			sum.LagExceeded = true
		}
		statuses = append(statuses, status)
	}

	if v.json != nil {
		for _, s := range statuses {
			msg := fmt.Sprintf("sink %q: %s records behind", s.Sink, render.Count(s.Lag))
			level := "info"
			if s.Error != "" {
				msg, level = fmt.Sprintf("sink %q: cannot read the source: %s", s.Sink, s.Error), "error"
			}
			v.json.Emit(level, "sink_status", msg, "sink", s)
		}
		v.json.Emit("info", "status_summary", fmt.Sprintf("%s sinks, %s records behind in all", render.Count(int64(sum.Sinks)), render.Count(sum.Lag)), "status", sum)
	} else {
		render.StatusText(c.Stdout, statuses, now, render.Options{Color: v.color()})
	}
	switch {
	case sum.Errors > 0:
		return ExitError
	case a.detailedExitcode && sum.LagExceeded:
		return ExitChanges
	}
	return ExitOK
}
