package command

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/cli"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/state"
)

// StateCommand is the parent of the state subcommands.
type StateCommand struct{}

func (c *StateCommand) Synopsis() string { return "Inspect the state" }
func (c *StateCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] state <subcommand> [options]

  Inspects the state: the checkpoint of every sink.

Subcommands:
  list    List the sinks in the state
  show    Show one sink's checkpoint
`) + "\n"
}
func (c *StateCommand) Run(args []string) int { return cli.RunResultHelp }

// loadState reads the state the configuration points at, without the lock.
func (m *Meta) loadState(f *configFlags) (*config.Config, *state.Manager, bool) {
	cfg, ok := m.loadConfig(f)
	if !ok {
		return nil, nil, false
	}
	ctx, stop := signalContext()
	defer stop()
	backend, err := stateBackend(ctx, cfg)
	if err != nil {
		m.errorf("%v", err)
		return nil, nil, false
	}
	mgr, err := state.Load(ctx, backend, Version)
	if err != nil {
		m.errorf("%v", err)
		return nil, nil, false
	}
	return cfg, mgr, true
}

// StateListCommand lists the sinks in the state.
type StateListCommand struct{ *Meta }

func (c *StateListCommand) Synopsis() string { return "List the sinks in the state" }
func (c *StateListCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] state list [options]

  Lists the sinks that have a checkpoint in the state, one per line. A sink
  that is no longer in the configuration is marked "(orphaned)": its checkpoint
  is kept until "streamctl state rm".

Options:

`+configFlagsHelp) + "\n"
}

func (c *StateListCommand) Run(args []string) int {
	var f configFlags
	fs := flag.NewFlagSet("state list", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	cfg, mgr, ok := c.loadState(&f)
	if !ok {
		return ExitError
	}
	for _, name := range mgr.State().SinkNames() {
		if cfg.Sink(name) == nil {
			fmt.Fprintf(c.Stdout, "%s (orphaned)\n", name)
		} else {
			fmt.Fprintln(c.Stdout, name)
		}
	}
	return ExitOK
}

// StateShowCommand shows one sink's checkpoint.
type StateShowCommand struct{ *Meta }

func (c *StateShowCommand) Synopsis() string { return "Show one sink's checkpoint" }
func (c *StateShowCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] state show [options] SINK

  Shows the checkpoint of SINK: its source, committed offsets per partition,
  the batch in flight, each destination's last batch and recent batches.

Options:

`+configFlagsHelp) + "\n"
}

func (c *StateShowCommand) Run(args []string) int {
	var f configFlags
	fs := flag.NewFlagSet("state show", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() != 1 {
		return c.errorf("state show needs exactly one sink name\n\n%s", c.Help())
	}
	_, mgr, ok := c.loadState(&f)
	if !ok {
		return ExitError
	}
	name := fs.Arg(0)
	s := mgr.State().Sinks[name]
	if s == nil {
		return c.errorf("the state has no sink %q; streamctl state list shows the sinks it has", name)
	}
	writeSinkState(c.Stdout, name, s)
	return ExitOK
}

func writeSinkState(w io.Writer, name string, s *state.Sink) {
	fmt.Fprintf(w, "sink %q\n", name)
	fmt.Fprintf(w, "  source:            source.%s.%s (%s)\n", s.Source.Type, s.Source.Name, s.Source.Identity)
	fmt.Fprintf(w, "  next batch:        %d\n", s.NextBatch)
	fmt.Fprintf(w, "  committed:         %s batches, %s records\n", render.Count(s.CommittedBatches), render.Count(s.CommittedRecords))
	if s.LastCommit != nil {
		fmt.Fprintf(w, "  last commit:       %s\n", s.LastCommit.Format(time.RFC3339))
	}
	fmt.Fprintln(w, "  offsets:")
	parts := make([]string, 0, len(s.Offsets))
	for p := range s.Offsets {
		parts = append(parts, p)
	}
	sort.Strings(parts)
	for _, p := range parts {
		fmt.Fprintf(w, "    %-20s %d\n", p, s.Offsets[p])
	}
	if b := s.InFlight; b != nil {
		fmt.Fprintf(w, "  in flight:         batch %d to %s (%s records)\n", b.ID, strings.Join(b.Destinations, ", "), render.Count(b.Records))
		for _, r := range b.Ranges {
			fmt.Fprintf(w, "    partition %s [%d, %d)\n", r.Partition, r.Start, r.End)
		}
	}
	fmt.Fprintln(w, "  destinations:")
	dests := make([]string, 0, len(s.Destinations))
	for d := range s.Destinations {
		dests = append(dests, d)
	}
	sort.Strings(dests)
	for _, d := range dests {
		fmt.Fprintf(w, "    %-20s last batch %d\n", d, s.Destinations[d].LastBatch)
	}
}
