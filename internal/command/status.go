package command

import (
	"flag"
	"strings"

	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/internal/workspace"
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
	fs := targetedFlags("status", &a.configFlags, &a.targetFlags)
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
	v := c.newStatusView(a.json, a.noColor)
	cfg, ok := c.loadTargeted(&a.configFlags, &a.targetFlags, v)
	if !ok {
		return ExitError
	}
	ctx, stop := signalContext()
	defer stop()
	mgr, err := c.readState(ctx, cfg)
	if err != nil {
		return failf(v, "%v", err)
	}
	measured := workspace.Status(ctx, cfg, kinds(), mgr.State())
	now := c.now()
	var statuses []sinkStatus
	sum := statusSummary{MaxLag: a.maxLag}
	for _, s := range measured {
		status := sinkStatus{
			SinkStatus:   render.SinkStatus{Sink: s.Name, Source: "source." + s.Source, Partitions: []render.PartitionStatus{}},
			SourceBehind: []behindPartition{},
		}
		if ss := s.State; ss != nil {
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
		if s.Err != nil {
			status.Error = s.Err.Error()
			sum.Errors++
		}
		for _, p := range s.Partitions {
			status.Partitions = append(status.Partitions, render.PartitionStatus{Partition: p.ID, Committed: p.Committed, Earliest: p.Earliest, Latest: p.Latest, Lag: p.Lag})
		}
		status.Lag = s.Lag
		for _, b := range s.Behind {
			status.SourceBehind = append(status.SourceBehind, behindPartition(b))
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

	v.statuses(statuses, sum, now)
	switch {
	case sum.Errors > 0:
		return ExitError
	case a.detailedExitcode && (sum.LagExceeded || sum.SourceBehindSinks > 0):
		return ExitChanges
	}
	return ExitOK
}
