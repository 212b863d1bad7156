// Package command holds streamctl's commands, one file each. A command parses
// its flags into a plain struct, does its work through config, planner, engine
// and state, reports through its view (view_<command>.go: one implementation
// per rendering, see view.go), and returns an exit code. Every command runs in
// process, so tests call Main with their own streams.
package command

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/cli"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/providers/logged"
)

// Exit codes, documented in website/content/exit-codes.md. Scripts rely on
// them: a code's meaning never changes.
const (
	ExitOK    = 0
	ExitError = 1
	// ExitChanges: plan -detailed-exitcode with changes pending; status
	// -detailed-exitcode with a lag above -max-lag; verify with findings.
	ExitChanges = 2
	// ExitUnformatted: fmt -check found files that are not formatted.
	ExitUnformatted = 3
	// ExitLocked: another process holds the state lock (after -lock-timeout).
	ExitLocked = 4
)

// Streams are a command's standard streams and environment.
type Streams struct {
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Environ []string
	// IsTerminal reports whether stdin and stdout are an interactive terminal.
	IsTerminal bool
	// Now is the clock of timestamps and durations in the output; nil is
	// time.Now. Tests fix it so that golden files are stable.
	Now func() time.Time
	// ProgressInterval is how often progress is reported while a batch runs:
	// the terminal line and -json batch_progress heartbeats. 0 is the default
	// (a second on a terminal, ten seconds in -json); negative disables the
	// heartbeats (progress is still reported after every batch).
	ProgressInterval time.Duration
}

// reportPanic prints a panic as the bug it is, with its stack.
func reportPanic(w io.Writer, p any, stack []byte) {
	fmt.Fprintf(w, "Error: internal error: %v\n\nThis is a bug in streamctl v%s; please report it with the stack below. Nothing committed is lost: the next run picks up from the state.\n\n%s", p, Version, stack)
}

// Main runs streamctl with args (without the program name) and returns the exit
// code. A leading -chdir=DIR changes the directory first, as in Terraform.
func Main(args []string, s Streams) (code int) {
	// A panic would exit 2, which scripts read as "changes pending": it is
	// reported as the error it is. (A stack overflow cannot be recovered;
	// the configuration loader bounds nesting so that none happens.)
	defer func() {
		if p := recover(); p != nil {
			reportPanic(s.Stderr, p, debug.Stack())
			code = ExitError
		}
	}()
	// The same in any other goroutine, which cannot return a code: the
	// process ends there.
	crash.SetHandler(func(p any, stack []byte) {
		reportPanic(s.Stderr, p, stack)
		os.Exit(ExitError)
	})
	if s.Environ == nil {
		s.Environ = os.Environ()
	}
	var dir string
	for len(args) > 0 && strings.HasPrefix(args[0], "-chdir") {
		v, ok := strings.CutPrefix(args[0], "-chdir=")
		if !ok {
			if args[0] != "-chdir" || len(args) < 2 {
				fmt.Fprintln(s.Stderr, "Error: -chdir needs a directory: -chdir=DIR")
				return ExitError
			}
			v, args = args[1], args[1:]
		}
		args = args[1:]
		dir = v
	}
	if dir != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			fmt.Fprintf(s.Stderr, "Error: -chdir=%s: not a directory\n", dir)
			return ExitError
		}
	}
	// Everything printed goes through the redactor, which masks the values of
	// sensitive variables once the configuration is loaded.
	secrets := &secretSet{}
	s.Stdout = &redactor{w: s.Stdout, secrets: secrets, terminal: s.IsTerminal}
	s.Stderr = &redactor{w: s.Stderr, secrets: secrets, terminal: s.IsTerminal}
	m := &Meta{Streams: s, Dir: dir, secrets: secrets}
	commands := Commands(m)
	c := &cli.CLI{
		Name:                  "streamctl",
		Version:               Version,
		Args:                  args,
		Commands:              commands,
		HelpFunc:              cli.BasicHelpFunc("streamctl"),
		HelpWriter:            s.Stdout,
		ErrorWriter:           s.Stderr,
		Autocomplete:          true,
		AutocompleteInstall:   "install-autocomplete",
		AutocompleteUninstall: "uninstall-autocomplete",
	}
	// hashicorp/cli answers an unknown command with the whole help and exit
	// 127, which hides the typo. A shell completing a command line calls
	// streamctl with arguments that are no command: the library answers it.
	if name := c.Subcommand(); name != "" && commands[name] == nil && os.Getenv("COMP_LINE") == "" {
		return unknownCommand(s.Stderr, name, commands)
	}
	code, err := c.Run()
	if err != nil {
		fmt.Fprintf(s.Stderr, "Error: %v\n", err)
		return ExitError
	}
	return code
}

// unknownCommand reports a command that is not in the map, with the closest
// top-level command when one is near enough to be a typo.
func unknownCommand(w io.Writer, name string, commands map[string]cli.CommandFactory) int {
	var names []string
	for n := range commands {
		if !strings.Contains(n, " ") {
			names = append(names, n)
		}
	}
	if near := closest(name, names); near != "" {
		fmt.Fprintf(w, "streamctl has no command named %q. Did you mean %q?\n", name, near)
	} else {
		fmt.Fprintf(w, "streamctl has no command named %q.\n", name)
	}
	fmt.Fprintln(w, "\nTo see all of streamctl's commands, run:\n  streamctl -help")
	return ExitError
}

// closest returns the candidate nearest to name by edit distance, when it is
// at most 2 edits away (as Terraform's suggestions), or "". Ties go to the
// first in sorted order, so that the suggestion is stable.
func closest(name string, candidates []string) string {
	sort.Strings(candidates)
	best, bestDist := "", 3
	for _, c := range candidates {
		if d := levenshtein.Distance(name, c, nil); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// Commands is the command map.
func Commands(m *Meta) map[string]cli.CommandFactory {
	return map[string]cli.CommandFactory{
		"version":      func() (cli.Command, error) { return &VersionCommand{Meta: m}, nil },
		"validate":     func() (cli.Command, error) { return &ValidateCommand{Meta: m}, nil },
		"plan":         func() (cli.Command, error) { return &PlanCommand{Meta: m}, nil },
		"apply":        func() (cli.Command, error) { return &ApplyCommand{Meta: m}, nil },
		"show":         func() (cli.Command, error) { return &ShowCommand{Meta: m}, nil },
		"state":        func() (cli.Command, error) { return &StateCommand{}, nil },
		"state list":   func() (cli.Command, error) { return &StateListCommand{Meta: m}, nil },
		"state show":   func() (cli.Command, error) { return &StateShowCommand{Meta: m}, nil },
		"state rm":     func() (cli.Command, error) { return &StateRmCommand{Meta: m}, nil },
		"state mv":     func() (cli.Command, error) { return &StateMvCommand{Meta: m}, nil },
		"state pull":   func() (cli.Command, error) { return &StatePullCommand{Meta: m}, nil },
		"force-unlock": func() (cli.Command, error) { return &ForceUnlockCommand{Meta: m}, nil },
		"lock":         func() (cli.Command, error) { return &LockCommand{Meta: m}, nil },
		"status":       func() (cli.Command, error) { return &StatusCommand{Meta: m}, nil },
		"fmt":          func() (cli.Command, error) { return &FmtCommand{Meta: m}, nil },
		"verify":       func() (cli.Command, error) { return &VerifyCommand{Meta: m}, nil },
		"files":        func() (cli.Command, error) { return &FilesCommand{Meta: m}, nil },
	}
}

// Meta is what every command shares: the streams and the configuration
// directory.
type Meta struct {
	Streams
	// Dir is the -chdir directory; "" for the working directory.
	Dir string
	// secrets are the values the output masks as (sensitive).
	secrets *secretSet
	// debugLog is the log of store requests (STREAMCTL_LOG=debug), once open.
	debugLog *logged.Log
}

// now is the output's clock.
func (m *Meta) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// configDir is the directory the configuration is read from.
func (m *Meta) configDir() string {
	if m.Dir == "" {
		return "."
	}
	return m.Dir
}

// abs resolves a path given on the command line. Like Terraform, paths on the
// command line are relative to the -chdir directory.
func (m *Meta) abs(p string) string {
	if filepath.IsAbs(p) || m.Dir == "" {
		return p
	}
	return filepath.Join(m.Dir, p)
}

func (m *Meta) errorf(format string, args ...any) int {
	fmt.Fprintf(m.Stderr, "Error: "+format+"\n", args...)
	return ExitError
}
