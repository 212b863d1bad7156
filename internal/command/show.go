package command

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/streamctl/streamctl/internal/render"
)

// ShowCommand renders a saved plan, or the state.
type ShowCommand struct{ *Meta }

func (c *ShowCommand) Synopsis() string { return "Show a saved plan or the state" }
func (c *ShowCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] show [options] [PLAN-FILE]

  With PLAN-FILE, renders a plan saved by "streamctl plan -out". Without, shows
  the checkpoint of every sink in the state.

Options:

  -verbose            Show every partition range of every batch.
`+configFlagsHelp) + "\n"
}

func (c *ShowCommand) Run(args []string) int {
	var f configFlags
	var verbose bool
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	fs.BoolVar(&verbose, "verbose", false, "")
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	switch fs.NArg() {
	case 0:
	case 1:
		p, err := readPlanFile(c.abs(fs.Arg(0)))
		if err != nil {
			return c.errorf("read the plan: %v", err)
		}
		render.PlanText(c.Stdout, p, render.Options{Color: c.color(f.noColor), Verbose: verbose})
		return ExitOK
	default:
		return c.errorf("show takes at most one plan file\n\n%s", c.Help())
	}
	_, mgr, ok := c.loadState(&f)
	if !ok {
		return ExitError
	}
	st := mgr.State()
	if !mgr.Exists() {
		fmt.Fprintln(c.Stdout, "The state is empty: nothing was applied yet.")
		return ExitOK
	}
	fmt.Fprintf(c.Stdout, "state %s (lineage %s, serial %d)\n\n", mgr.Backend().Describe(), st.Lineage, st.Serial)
	for _, name := range st.SinkNames() {
		writeSinkState(c.Stdout, name, st.Sinks[name])
		fmt.Fprintln(c.Stdout)
	}
	return ExitOK
}

// ValidateCommand checks the configuration without contacting anything.
type ValidateCommand struct{ *Meta }

func (c *ValidateCommand) Synopsis() string { return "Check the configuration" }
func (c *ValidateCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] validate [options]

  Checks the configuration: syntax, blocks and attributes, types, references
  and values. Works offline: no source, destination or state is contacted.
  Every problem is reported in one run, with file, line and a snippet.

Options:

`+configFlagsHelp) + "\n"
}

func (c *ValidateCommand) Run(args []string) int {
	var f configFlags
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	cfg, ok := c.loadConfig(&f)
	if !ok {
		return ExitError
	}
	fmt.Fprintf(c.Stdout, "Success! The configuration is valid: %d sources, %d sinks.\n", len(cfg.Sources), len(cfg.Sinks))
	return ExitOK
}

// ForceUnlockCommand removes a lock left behind.
type ForceUnlockCommand struct{ *Meta }

func (c *ForceUnlockCommand) Synopsis() string { return "Remove a stale state lock" }
func (c *ForceUnlockCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] force-unlock [options] LOCK_ID

  Removes the state lock whose ID is LOCK_ID, as shown when a lock is refused.
  Only for a lock whose holder died: a remote lock (S3, Azure) survives its
  holder, a local one is released by the kernel when the holder exits.

Options:

`+configFlagsHelp) + "\n"
}

func (c *ForceUnlockCommand) Run(args []string) int {
	var f configFlags
	fs := flag.NewFlagSet("force-unlock", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() != 1 {
		return c.errorf("force-unlock needs the lock ID\n\n%s", c.Help())
	}
	cfg, ok := c.loadConfig(&f)
	if !ok {
		return ExitError
	}
	ctx := context.Background()
	backend, err := stateBackend(ctx, cfg)
	if err != nil {
		return c.errorf("%v", err)
	}
	if err := backend.ForceUnlock(ctx, fs.Arg(0)); err != nil {
		return c.errorf("%v", err)
	}
	fmt.Fprintf(c.Stdout, "The lock %s on %s was removed.\n", fs.Arg(0), backend.Describe())
	return ExitOK
}
