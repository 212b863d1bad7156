package command

import (
	"flag"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// ValidateCommand checks the configuration without contacting anything.
type ValidateCommand struct{ *Meta }

type validateArgs struct {
	configFlags
	json bool
}

func (c *ValidateCommand) Synopsis() string { return "Check the configuration" }
func (c *ValidateCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] validate [options]

  Checks the configuration: syntax, blocks and attributes, types, references,
  values and the variables' validation rules. Works offline: no source,
  destination or state is contacted. Every problem is reported in one run,
  with file, line and a snippet. Sensitive variables need no value (a fork's
  pull request has no secrets): their value is unknown, and what is made of
  it is checked by plan.

Options:

  -json               Print JSON lines (docs/json-output.md): the version, a
                      diagnostic per problem, then validate_summary.
`+configFlagsHelp) + "\n"
}

func (c *ValidateCommand) flags(a *validateArgs) *flag.FlagSet {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a.configFlags.register(fs)
	fs.BoolVar(&a.json, "json", false, "")
	return fs
}

// FlagSet lists validate's flags.
func (c *ValidateCommand) FlagSet() *flag.FlagSet { return c.flags(&validateArgs{}) }

// validateSummary is the payload of validate_summary.
type validateSummary struct {
	Valid        bool `json:"valid"`
	ErrorCount   int  `json:"error_count"`
	WarningCount int  `json:"warning_count"`
	Sources      int  `json:"sources"`
	Sinks        int  `json:"sinks"`
}

func (c *ValidateCommand) Run(args []string) int {
	a := &validateArgs{}
	fs := c.flags(a)
	if err := fs.Parse(args); err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	if fs.NArg() > 0 {
		return c.errorf("unexpected argument %q; validate reads the configuration of -chdir=DIR\n\n%s", fs.Arg(0), c.Help())
	}
	v := c.newValidateView(a.json, a.noColor)
	a.validating = true
	cfg, diags := c.readConfig(&a.configFlags)
	v.diags(cfg, diags)
	sum := validateSummary{Valid: !diags.HasErrors()}
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			sum.ErrorCount++
		} else {
			sum.WarningCount++
		}
	}
	if cfg != nil {
		sum.Sources, sum.Sinks = len(cfg.Sources), len(cfg.Sinks)
	}
	v.validated(sum)
	if !sum.Valid {
		return ExitError
	}
	return ExitOK
}
