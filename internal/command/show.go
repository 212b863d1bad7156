package command

import (
	"flag"
	"io"
	"strings"
)

// ShowCommand renders a saved plan, or the state.
type ShowCommand struct{ *Meta }

type showArgs struct {
	configFlags
	verbose  bool
	json     bool
	markdown bool
	planFile string
}

func (c *ShowCommand) Synopsis() string { return "Show a saved plan or the state" }
func (c *ShowCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] show [options] [PLAN-FILE]

  With PLAN-FILE, renders a plan saved by "streamctl plan -out". Without, shows
  the checkpoint of every sink in the state.

Options:

  -json               Print one JSON document (docs/json-output.md): the plan
                      (format version, state lineage and serial, configuration
                      hash, sinks, batches, ranges, destinations, warnings), or
                      the state.
  -markdown           Render the plan as Markdown for a pull-request comment.
  -verbose            Show every partition range of every batch.
`+configFlagsHelp) + "\n"
}

func (c *ShowCommand) flags(a *showArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a.configFlags.register(fs)
	fs.BoolVar(&a.verbose, "verbose", false, "")
	fs.BoolVar(&a.json, "json", false, "")
	fs.BoolVar(&a.markdown, "markdown", false, "")
	return fs
}

// FlagSet lists show's flags.
func (c *ShowCommand) FlagSet() *flag.FlagSet { return c.flags(&showArgs{}) }

func (c *ShowCommand) Run(args []string) int {
	a := &showArgs{}
	fs := c.flags(a)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	switch {
	case fs.NArg() > 1:
		return c.errorf("show takes at most one plan file\n\n%s", c.Help())
	case a.json && a.markdown:
		return c.errorf("-json and -markdown are two renderings; pick one")
	case a.markdown && fs.NArg() == 0:
		return c.errorf("-markdown renders a saved plan: streamctl show -markdown PLAN-FILE")
	}
	v := c.newShowView(a.json, a.markdown, a.noColor)
	if fs.NArg() == 1 {
		p, err := readPlanFile(c.abs(fs.Arg(0)))
		if err != nil {
			return failf(v, "read the plan: %v", err)
		}
		return v.plan(p, a.verbose)
	}
	_, mgr, ok := c.loadState(&a.configFlags)
	if !ok {
		return ExitError
	}
	return v.state(mgr.State(), mgr.Backend().Describe(), mgr.Exists())
}
