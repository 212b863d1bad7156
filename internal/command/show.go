package command

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/streamctl/streamctl/internal/render"
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
	if fs.NArg() == 1 {
		p, err := readPlanFile(c.abs(fs.Arg(0)))
		if err != nil {
			return c.errorf("read the plan: %v", err)
		}
		switch {
		case a.json:
			return c.printJSON(render.NewPlanDocument(p))
		case a.markdown:
			fmt.Fprint(c.Stdout, render.PlanMarkdown(p, render.MarkdownOptions{Verbose: a.verbose}))
		default:
			render.PlanText(c.Stdout, p, render.Options{Color: c.color(a.noColor), Verbose: a.verbose})
		}
		return ExitOK
	}
	_, mgr, ok := c.loadState(&a.configFlags)
	if !ok {
		return ExitError
	}
	st := mgr.State()
	if a.json {
		return c.printJSON(render.NewStateDocument(st, mgr.Backend().Describe(), mgr.Exists()))
	}
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

// printJSON prints one JSON document on one line.
func (m *Meta) printJSON(doc any) int {
	data, err := json.Marshal(doc)
	if err != nil {
		return m.errorf("encode JSON: %v", err)
	}
	fmt.Fprintf(m.Stdout, "%s\n", data)
	return ExitOK
}
