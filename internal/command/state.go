package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hashicorp/cli"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/workspace"
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
  rm      Remove sinks' checkpoints
  pull    Print the raw state
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
	mgr, err := m.readState(ctx, cfg)
	if err != nil {
		m.errorf("%v", err)
		return nil, nil, false
	}
	return cfg, mgr, true
}

// readState reads the state cfg points at, without the lock: what plan,
// status and the state commands that only read it see.
func (m *Meta) readState(ctx context.Context, cfg *config.Config) (*state.Manager, error) {
	backend, err := m.stateBackend(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return state.Load(ctx, backend, Version)
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

// configOnlyFlags is the flag set of a command that has only the
// configuration flags.
func configOnlyFlags(name string, f *configFlags) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	return fs
}

// parseConfigOnly parses the arguments of a command that has only the
// configuration flags, reporting a bad one with the command's help: the
// state commands that only read start so.
func (m *Meta) parseConfigOnly(name string, f *configFlags, args []string, help string) (*flag.FlagSet, bool) {
	fs := configOnlyFlags(name, f)
	if err := fs.Parse(args); err != nil {
		m.errorf("%v\n\n%s", err, help)
		return nil, false
	}
	return fs, true
}

// FlagSet lists state list's flags.
func (c *StateListCommand) FlagSet() *flag.FlagSet {
	return configOnlyFlags("state list", &configFlags{})
}

func (c *StateListCommand) Run(args []string) int {
	var f configFlags
	if _, ok := c.parseConfigOnly("state list", &f, args, c.Help()); !ok {
		return ExitError
	}
	cfg, mgr, ok := c.loadState(&f)
	if !ok {
		return ExitError
	}
	v := c.newStateView(f.noColor)
	for _, name := range mgr.State().SinkNames() {
		v.listed(name, cfg.Sink(name) == nil)
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

// FlagSet lists state show's flags.
func (c *StateShowCommand) FlagSet() *flag.FlagSet {
	return configOnlyFlags("state show", &configFlags{})
}

func (c *StateShowCommand) Run(args []string) int {
	var f configFlags
	fs, ok := c.parseConfigOnly("state show", &f, args, c.Help())
	if !ok {
		return ExitError
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
	c.newStateView(f.noColor).sink(name, s)
	return ExitOK
}

// StateRmCommand removes sinks' checkpoints from the state.
type StateRmCommand struct{ *Meta }

type stateRmArgs struct {
	configFlags
	force       bool
	input       bool
	lock        bool
	lockTimeout time.Duration
}

func (c *StateRmCommand) Synopsis() string { return "Remove sinks' checkpoints" }
func (c *StateRmCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] state rm [options] SINK...

  Removes the checkpoint of each SINK from the state, under the state lock,
  after asking. The sink then starts over: its next apply reads the source
  from the start (or the latest offsets, as configured). The files already in
  the destinations stay, and so do their manifests under _streamctl/SINK/,
  which the next plan reports: move them aside to start the sink afresh.

Options:

  -force                 Do not ask. Required without a terminal.
  -input=false           Never ask: fail unless -force is given.
  -lock=false            Do not take the state lock. Dangerous with others.
  -lock-timeout=DURATION Wait this long for the lock. Default 0.
`+configFlagsHelp) + "\n"
}

func (c *StateRmCommand) flags(a *stateRmArgs) *flag.FlagSet {
	fs := configOnlyFlags("state rm", &a.configFlags)
	fs.BoolVar(&a.force, "force", false, "")
	fs.BoolVar(&a.input, "input", true, "")
	fs.BoolVar(&a.lock, "lock", true, "")
	fs.DurationVar(&a.lockTimeout, "lock-timeout", 0, "")
	return fs
}

// FlagSet lists state rm's flags.
func (c *StateRmCommand) FlagSet() *flag.FlagSet { return c.flags(&stateRmArgs{}) }

func (c *StateRmCommand) Run(args []string) int {
	a := &stateRmArgs{}
	fs := c.flags(a)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() == 0 {
		return c.errorf("state rm needs at least one sink name\n\n%s", c.Help())
	}
	names := fs.Args()
	if !a.force && (!c.IsTerminal || !a.input) {
		return c.errorf("state rm asks before removing a checkpoint, and cannot ask here (no terminal, or -input=false). Pass -force to remove without asking")
	}
	v := c.newStateView(a.noColor)
	cfg, ok := c.loadConfigView(&a.configFlags, &view{v})
	if !ok {
		return ExitError
	}
	ctx, stop := signalContext()
	defer stop()
	backend, err := c.stateBackend(ctx, cfg)
	if err != nil {
		return failf(v, "%v", err)
	}
	mgr, release, code := c.lockedState(ctx, backend, v, "state rm", a.lock, a.lockTimeout, names...)
	if mgr == nil {
		return code
	}
	defer release()
	var expanded []string
	for _, name := range names {
		if mgr.State().Sinks[name] != nil {
			expanded = append(expanded, name)
			continue
		}
		// A sharded sink's name stands for all its shards' checkpoints.
		shards, _ := mgr.State().Checkpoints(name)
		if len(shards) == 0 {
			return failf(v, "the state has no sink %q; streamctl state list shows the sinks it has. Nothing was removed", name)
		}
		expanded = append(expanded, shards...)
	}
	names = expanded
	if !a.force {
		line, ok := askLine(ctx, c.Stdin, c.Stdout, fmt.Sprintf("Remove the checkpoint of %s from %s?\n  The sinks start over on their next apply; their files stay.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ",
			quoteList(names), backend.Describe()))
		if !ok {
			fmt.Fprintln(c.Stdout, "State rm cancelled. Nothing was removed.")
			return ExitError
		}
		if strings.TrimSpace(line) != "yes" {
			fmt.Fprintln(c.Stdout, "\nNothing was removed.")
			return ExitError
		}
		fmt.Fprintln(c.Stdout)
	}
	err = mgr.Update(context.WithoutCancel(ctx), func(s *state.State) error {
		for _, name := range names {
			delete(s.Sinks, name)
		}
		return nil
	})
	if err != nil {
		return failf(v, "%v", err)
	}
	v.removed(names)
	return ExitOK
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("sink %q", n)
	}
	return strings.Join(q, ", ")
}

// StatePullCommand prints the raw state.
type StatePullCommand struct{ *Meta }

func (c *StatePullCommand) Synopsis() string { return "Print the raw state" }
func (c *StatePullCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] state pull [options]

  Prints the state document exactly as the backend stores it, without the
  lock, for inspection or a backup. Prints nothing when there is no state yet.
  A state's other documents are not printed: its history segments
  (<state>.history/) and, on a remote state of format 3, each sink's own
  document (<key>.d/sinks/); back those up with the store's own tools.

Options:

`+configFlagsHelp) + "\n"
}

// FlagSet lists state pull's flags.
func (c *StatePullCommand) FlagSet() *flag.FlagSet {
	return configOnlyFlags("state pull", &configFlags{})
}

func (c *StatePullCommand) Run(args []string) int {
	var f configFlags
	fs, ok := c.parseConfigOnly("state pull", &f, args, c.Help())
	if !ok {
		return ExitError
	}
	if fs.NArg() > 0 {
		return c.errorf("state pull takes only options\n\n%s", c.Help())
	}
	cfg, ok := c.loadConfig(&f)
	if !ok {
		return ExitError
	}
	ctx, stop := signalContext()
	defer stop()
	backend, err := c.stateBackend(ctx, cfg)
	if err != nil {
		return c.errorf("%v", err)
	}
	data, _, err := backend.Read(ctx)
	if errors.Is(err, state.ErrNoState) {
		return ExitOK
	}
	if err != nil {
		return c.errorf("read state %s: %v", backend.Describe(), err)
	}
	c.Stdout.Write(data)
	return ExitOK
}

// lockedState takes the locks of a state command (unless lock is false:
// workspace.LockWholeState says which) and reads the state. On failure it
// reports and returns a nil manager and the exit code; otherwise release
// frees the locks.
func (m *Meta) lockedState(ctx context.Context, backend state.Backend, v ui, op string, lock bool, timeout time.Duration, sinks ...string) (mgr *state.Manager, release func(), code int) {
	release = func() {}
	if lock {
		held, err := workspace.LockWholeState(ctx, backend, sinks, op, Version, timeout)
		var lockErr *workspace.LockError
		switch {
		case errors.As(err, &lockErr):
			return nil, nil, lockFailed(v, lockErr.Err)
		case err != nil:
			return nil, nil, m.errorf("%v", err)
		}
		tookOverAll(v, held)
		release = func() {
			if err := held.Unlock(); err != nil {
				m.errorf("release the state lock: %v", err)
			}
		}
	}
	mgr, err := state.Load(ctx, backend, Version)
	if err != nil {
		release()
		return nil, nil, m.errorf("%v", err)
	}
	return mgr, release, ExitOK
}
