package command

import (
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// Views. Each command reports through a view interface of its own (applyView
// in view_apply.go, planView, …) with one implementation per rendering: for
// people (…Human) and, with -json, for machines (…JSON). A command parses
// its arguments, picks its view once, does its work and hands the view what
// happened; it never asks which rendering is in use. Every view embeds ui,
// which reports problems.

// ui reports problems, in the rendering of the command's view.
type ui interface {
	// diags reports configuration diagnostics, errors and warnings alike.
	diags(cfg *config.Config, diags hcl.Diagnostics)
	// fail reports an error with what to do about it, and returns ExitError.
	fail(summary, detail string) int
	// warn reports a warning.
	warn(summary, detail string)
	// planErrors reports the errors of planning, each sink's with its detail,
	// and returns ExitError.
	planErrors(errs []error) int
}

// view is what setup.go's loadConfigView reports diagnostics to: any
// command's view, through its ui.
type view struct{ ui }

// newView is the ui of a command that has no view of its own.
func (m *Meta) newView(asJSON, noColor bool) *view {
	if asJSON {
		return &view{m.newJSONUI()}
	}
	return &view{m.newHumanUI(noColor)}
}

// failf reports an error and returns ExitError.
func failf(v ui, format string, args ...any) int {
	return v.fail(fmt.Sprintf(format, args...), "")
}

// lockFailed reports a lock that could not be taken: ExitLocked when another
// process holds it, ExitError otherwise.
func lockFailed(v ui, err error) int {
	var locked *state.LockedError
	if !errors.As(err, &locked) {
		return failf(v, "acquire the state lock: %v", err)
	}
	v.fail("the state is locked by another streamctl", fmt.Sprintf("%v\n\n  streamctl exits with code %d when the state is locked; a scheduled job can treat it as \"another run is in progress\".", err, ExitLocked))
	return ExitLocked
}

// tookOver warns when the lock was taken over from a holder whose lease had
// expired: a run died holding it (OOM-killed, preempted), and this one goes on
// where it stopped.
func tookOver(v ui, u state.Unlocker) {
	t, ok := u.(state.TakenOver)
	if !ok {
		return
	}
	if h, silent := t.TookOver(); h != nil {
		tookOverWarning(v, h, silent)
	}
}

// tookOverWarning warns that the lock of holder, silent for longer than its
// lease, was taken over.
func tookOverWarning(v ui, h *state.LockInfo, silent time.Duration) {
	v.warn("Took over the state lock of a run that died",
		fmt.Sprintf("The lock %s of %s by %s (pid %d, since %s) was not refreshed for %s, longer than its lease of %s: its holder is gone. This run took it over; the batch it left in flight is finished exactly once, and its state writes can no longer land.",
			h.ID, h.Operation, h.Who, h.PID, h.Created.UTC().Format(time.RFC3339), silent.Round(time.Second), state.Lease))
}

// humanUI reports to people: diagnostics with snippets, errors and warnings
// on stderr.
type humanUI struct {
	m       *Meta
	noColor bool
}

func (m *Meta) newHumanUI(noColor bool) *humanUI { return &humanUI{m: m, noColor: noColor} }

// color reports whether the output may be coloured.
func (v *humanUI) color() bool { return v.m.color(v.noColor) }

func (v *humanUI) diags(cfg *config.Config, diags hcl.Diagnostics) {
	if len(diags) > 0 {
		v.m.printDiags(cfg, diags, v.noColor)
	}
}

func (v *humanUI) fail(summary, detail string) int {
	if detail == "" {
		fmt.Fprintf(v.m.Stderr, "Error: %s\n", summary)
	} else {
		fmt.Fprintf(v.m.Stderr, "Error: %s\n\n  %s\n", summary, detail)
	}
	return ExitError
}

func (v *humanUI) warn(summary, detail string) {
	fmt.Fprintf(v.m.Stderr, "Warning: %s\n\n  %s\n\n", summary, detail)
}

func (v *humanUI) planErrors(errs []error) int {
	v.m.printErrors(errs)
	return ExitError
}

// jsonUI reports to machines: one JSON object per line on stdout (the
// machine-readable UI of docs/json-output.md), errors included, the version
// message first.
type jsonUI struct {
	json *render.JSONView
}

// newJSONUI starts the stream: it writes the version message at once.
func (m *Meta) newJSONUI() *jsonUI {
	v := &jsonUI{json: render.NewJSONView(m.Stdout, m.now)}
	v.json.Version(Version)
	return v
}

func (v *jsonUI) diags(cfg *config.Config, diags hcl.Diagnostics) {
	var files map[string]*hcl.File
	if cfg != nil {
		files = cfg.Files
	}
	for _, d := range render.NewDiagnostics(diags, files) {
		v.json.Diagnostic(d)
	}
}

func (v *jsonUI) fail(summary, detail string) int {
	v.json.Diagnostic(render.Diagnostic{Severity: render.SeverityError, Summary: summary, Detail: detail})
	return ExitError
}

func (v *jsonUI) warn(summary, detail string) {
	v.json.Diagnostic(render.Diagnostic{Severity: render.SeverityWarning, Summary: summary, Detail: detail})
}

func (v *jsonUI) planErrors(errs []error) int {
	for _, err := range errs {
		var pe *planner.Error
		if errors.As(err, &pe) {
			v.json.Diagnostic(render.Diagnostic{Severity: render.SeverityError, Summary: fmt.Sprintf("sink %q: %s", pe.Sink, pe.Summary), Detail: pe.Detail, Address: "sink." + pe.Sink})
			continue
		}
		v.json.Diagnostic(render.Diagnostic{Severity: render.SeverityError, Summary: err.Error()})
	}
	return ExitError
}
