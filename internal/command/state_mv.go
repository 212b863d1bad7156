package command

import (
	"flag"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/engine"
)

// StateMvCommand renames a sink in the state and in its destinations: what a
// moved block does at the next apply, done now.
type StateMvCommand struct{ *Meta }

type stateMvArgs struct {
	configFlags
	lock        bool
	lockTimeout time.Duration
}

func (c *StateMvCommand) Synopsis() string {
	return "Rename a sink: its checkpoint, manifests and ownership"
}

func (c *StateMvCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] state mv [options] OLD NEW

  Renames sink OLD to NEW, under the state lock: in every destination of sink
  NEW (which the configuration must declare), the manifests of OLD are copied
  under _streamctl/NEW/ and the destination's ownership passes to NEW; then
  the checkpoint is renamed in the state, and the old manifests are removed.
  Data files keep their names and batch numbers continue. Interrupted, it is
  finished by running it again (or by an apply with a moved block).

  A moved { from = sink.OLD  to = sink.NEW } block in the configuration does
  the same at the next apply, and shows it in the plan first.

Options:

  -lock=false            Do not take the state lock. Dangerous with others.
  -lock-timeout=DURATION Wait this long for the lock. Default 0.
`+configFlagsHelp) + "\n"
}

func (c *StateMvCommand) flags(a *stateMvArgs) *flag.FlagSet {
	fs := configOnlyFlags("state mv", &a.configFlags)
	fs.BoolVar(&a.lock, "lock", true, "")
	fs.DurationVar(&a.lockTimeout, "lock-timeout", 0, "")
	return fs
}

// FlagSet lists state mv's flags.
func (c *StateMvCommand) FlagSet() *flag.FlagSet { return c.flags(&stateMvArgs{}) }

func (c *StateMvCommand) Run(args []string) int {
	a := &stateMvArgs{}
	fs := c.flags(a)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() != 2 {
		return c.errorf("state mv takes two sink names, OLD and NEW\n\n%s", c.Help())
	}
	from, to := strings.TrimPrefix(fs.Arg(0), "sink."), strings.TrimPrefix(fs.Arg(1), "sink.")
	v := c.newStateView(a.noColor)
	cfg, ok := c.loadConfigView(&a.configFlags, &view{v})
	if !ok {
		return ExitError
	}
	sink := cfg.Sink(to)
	if sink == nil {
		return failf(v, "the configuration declares no sink %q: rename the sink block to %q first, so that streamctl knows its destinations. Nothing was moved", to, to)
	}
	if cfg.Sink(from) != nil {
		return failf(v, "the configuration still declares sink %q: a sink is either the old name or the new one. Nothing was moved", from)
	}
	one := *cfg
	one.Sinks = []*config.Sink{sink}

	ctx, stop := signalContext()
	defer stop()
	backend, err := c.stateBackend(ctx, cfg)
	if err != nil {
		return failf(v, "%v", err)
	}
	mgr, release, code := c.lockedState(ctx, backend, v, "state mv", a.lock, a.lockTimeout, from, to)
	if mgr == nil {
		return code
	}
	defer release()
	if mgr.State().Sinks[from] == nil {
		if mgr.State().Sinks[to] != nil {
			v.alreadyMoved(from, to)
		}
		return failf(v, "the state has no sink %q; streamctl state list shows the sinks it has. Nothing was moved", from)
	}
	ws, err := c.openWorkspace(ctx, &one)
	if err != nil {
		return failf(v, "%v", err)
	}
	defer ws.Close()
	eng := &engine.Engine{State: mgr, Version: Version, Now: c.Now}
	if err := eng.MoveSink(ctx, ws.Sinks[0], from); err != nil {
		return failf(v, "%v\n\nThe move can be finished by running this command again once the cause is fixed", err)
	}
	v.moved(from, to)
	return ExitOK
}
