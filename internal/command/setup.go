package command

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/workspace"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/all"
)

// varFlags collects -var and -var-file in command-line order: later ones win.
type varFlags struct {
	args *[]config.VarArg
	file bool
}

func (v varFlags) String() string { return "" }
func (v varFlags) Set(s string) error {
	*v.args = append(*v.args, config.VarArg{File: v.file, Value: s})
	return nil
}

// configFlags are the flags of every command that reads the configuration.
type configFlags struct {
	vars    []config.VarArg
	noColor bool
	// saved are the variable values of a saved plan being applied.
	saved config.SavedValues
	// validating is set by validate: sensitive variables may have no value.
	validating bool
}

func (f *configFlags) register(fs *flag.FlagSet) {
	fs.Var(varFlags{args: &f.vars}, "var", "Set a variable: -var 'NAME=VALUE'. Repeatable.")
	fs.Var(varFlags{args: &f.vars, file: true}, "var-file", "Read variables from an HCL file. Repeatable.")
	fs.BoolVar(&f.noColor, "no-color", false, "Disable colour in the output.")
}

const configFlagsHelp = `  -var 'NAME=VALUE'   Set a variable. Repeatable; later values win.
  -var-file=FILE      Read variables from FILE. Repeatable.
  -no-color           Disable colour in the output.`

// loadConfig reads the configuration and prints its diagnostics, errors and
// warnings alike, with snippets.
func (m *Meta) loadConfig(f *configFlags) (*config.Config, bool) {
	return m.loadConfigView(f, m.newView(false, f.noColor))
}

// loadConfigView reads the configuration and reports its diagnostics to v.
// From then on the values of sensitive variables are masked in all output.
func (m *Meta) loadConfigView(f *configFlags, v *view) (*config.Config, bool) {
	cfg, diags := m.readConfig(f)
	v.diags(cfg, diags)
	return cfg, !diags.HasErrors()
}

// readConfig reads the configuration and registers its sensitive values for
// masking.
func (m *Meta) readConfig(f *configFlags) (*config.Config, hcl.Diagnostics) {
	vars := make([]config.VarArg, len(f.vars))
	for i, v := range f.vars {
		if v.File {
			v.Value = m.abs(v.Value)
		}
		vars[i] = v
	}
	cfg, diags := config.Load(m.configDir(), kinds(), config.Inputs{Args: vars, Environ: m.Environ, Saved: f.saved, Validate: f.validating, Version: Version})
	m.secrets.add(sensitiveValues(cfg, vars, m.Environ)...)
	return cfg, diags
}

// kinds are the providers streamctl is built with: the configuration is
// loaded, and the workspace opened, with the same ones.
func kinds() providers.Kinds { return all.Kinds() }

// targetFlags are -target and -exclude: which sinks plan and apply cover.
type targetFlags struct {
	targets, excludes []string
}

type stringsFlag struct{ list *[]string }

func (s stringsFlag) String() string { return "" }
func (s stringsFlag) Set(v string) error {
	*s.list = append(*s.list, v)
	return nil
}

func (t *targetFlags) register(fs *flag.FlagSet) {
	fs.Var(stringsFlag{&t.targets}, "target", "Only this sink: -target=sink.NAME. Repeatable.")
	fs.Var(stringsFlag{&t.excludes}, "exclude", "All sinks but this one: -exclude=sink.NAME. Repeatable.")
}

const targetFlagsHelp = `  -target=sink.NAME  Only plan or apply this sink. Repeatable.
  -exclude=sink.NAME  Leave this sink out. Repeatable.`

// targetedFlags is the flag set of a command that reads the configuration
// and takes -target and -exclude: plan, apply and status register them alike.
func targetedFlags(name string, cf *configFlags, tf *targetFlags) *flag.FlagSet {
	fs := configOnlyFlags(name, cf)
	tf.register(fs)
	return fs
}

// loadTargeted reads the configuration, reporting to v, and keeps only the
// sinks -target and -exclude select: plan, apply and status start so, with
// one message for a bad selection.
func (m *Meta) loadTargeted(cf *configFlags, tf *targetFlags, v ui) (*config.Config, bool) {
	cfg, ok := m.loadConfigView(cf, &view{v})
	if !ok {
		return nil, false
	}
	cfg, err := tf.selectSinks(cfg)
	if err != nil {
		v.fail("Invalid -target or -exclude", err.Error())
		return nil, false
	}
	return cfg, true
}

func (t *targetFlags) active() bool { return len(t.targets)+len(t.excludes) > 0 }

// selectSinks returns cfg with only the sinks -target and -exclude select.
// An address that is not sink.NAME, or names no sink, is an error, and so is
// a selection of none.
func (t *targetFlags) selectSinks(cfg *config.Config) (*config.Config, error) {
	if !t.active() {
		return cfg, nil
	}
	parse := func(flagName string, addrs []string) (map[string]bool, error) {
		out := map[string]bool{}
		for _, a := range addrs {
			name, ok := strings.CutPrefix(a, "sink.")
			if !ok || name == "" {
				return nil, fmt.Errorf("-%s=%s: an address is sink.NAME, e.g. -%s=sink.orders", flagName, a, flagName)
			}
			if len(cfg.Declared(name)) == 0 {
				var names []string
				for _, s := range cfg.Sinks {
					names = append(names, "sink."+s.Name)
				}
				return nil, fmt.Errorf("-%s=%s: the configuration has no sink %q; it has %s", flagName, a, name, strings.Join(names, ", "))
			}
			// A sharded sink stands for its shards.
			for _, s := range cfg.Declared(name) {
				out[s.Name] = true
			}
		}
		return out, nil
	}
	targets, err := parse("target", t.targets)
	if err != nil {
		return nil, err
	}
	excludes, err := parse("exclude", t.excludes)
	if err != nil {
		return nil, err
	}
	c := workspace.SelectSinks(cfg, targets, excludes)
	if len(c.Sinks) == 0 {
		return nil, fmt.Errorf("-target and -exclude leave no sink to plan")
	}
	return c, nil
}

func (m *Meta) printDiags(cfg *config.Config, diags hcl.Diagnostics, noColor bool) {
	var files map[string]*hcl.File
	if cfg != nil {
		files = cfg.Files
	}
	w := hcl.NewDiagnosticTextWriter(m.Stderr, files, 100, m.color(noColor))
	w.WriteDiagnostics(diags)
	if n := countErrors(diags); n > 1 {
		fmt.Fprintf(m.Stderr, "%d errors in the configuration.\n", n)
	}
}

func countErrors(diags hcl.Diagnostics) int {
	n := 0
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			n++
		}
	}
	return n
}

// color reports whether output may be coloured: a terminal, no -no-color and
// no NO_COLOR in the environment.
func (m *Meta) color(noColor bool) bool {
	if noColor || !m.IsTerminal {
		return false
	}
	for _, kv := range m.Environ {
		if k, v, _ := strings.Cut(kv, "="); k == "NO_COLOR" && v != "" {
			return false
		}
	}
	return true
}

func (m *Meta) printErrors(errs []error) {
	for _, err := range errs {
		var pe *planner.Error
		if errors.As(err, &pe) {
			fmt.Fprintf(m.Stderr, "Error: sink %q: %s\n\n  %s\n\n", pe.Sink, pe.Summary, pe.Detail)
			continue
		}
		fmt.Fprintf(m.Stderr, "Error: %v\n\n", err)
	}
}
