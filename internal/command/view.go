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

// view is where a command reports to: people (text, errors on stderr) or,
// with -json, machines (one JSON object per line on stdout, errors included,
// the version message first).
type view struct {
	m       *Meta
	json    *render.JSONView // nil for people
	noColor bool
}

// newView starts a command's output; with asJSON it writes the version
// message at once.
func (m *Meta) newView(asJSON, noColor bool) *view {
	v := &view{m: m, noColor: noColor}
	if asJSON {
		v.json = render.NewJSONView(m.Stdout, m.now)
		v.json.Version(Version)
	}
	return v
}

func (v *view) color() bool { return v.json == nil && v.m.color(v.noColor) }

// diags reports configuration diagnostics, errors and warnings alike.
func (v *view) diags(cfg *config.Config, diags hcl.Diagnostics) {
	if len(diags) == 0 {
		return
	}
	if v.json == nil {
		v.m.printDiags(cfg, diags, v.noColor)
		return
	}
	var files map[string]*hcl.File
	if cfg != nil {
		files = cfg.Files
	}
	for _, d := range render.NewDiagnostics(diags, files) {
		v.json.Diagnostic(d)
	}
}

// fail reports an error with what to do about it, and returns ExitError.
func (v *view) fail(summary, detail string) int {
	if v.json != nil {
		v.json.Diagnostic(render.Diagnostic{Severity: render.SeverityError, Summary: summary, Detail: detail})
		return ExitError
	}
	if detail == "" {
		fmt.Fprintf(v.m.Stderr, "Error: %s\n", summary)
	} else {
		fmt.Fprintf(v.m.Stderr, "Error: %s\n\n  %s\n", summary, detail)
	}
	return ExitError
}

// errorf reports an error and returns ExitError.
func (v *view) errorf(format string, args ...any) int {
	return v.fail(fmt.Sprintf(format, args...), "")
}

// warn reports a warning.
func (v *view) warn(summary, detail string) {
	if v.json != nil {
		v.json.Diagnostic(render.Diagnostic{Severity: render.SeverityWarning, Summary: summary, Detail: detail})
		return
	}
	fmt.Fprintf(v.m.Stderr, "Warning: %s\n\n  %s\n\n", summary, detail)
}

// errors reports the errors of planning, each sink's with its detail.
func (v *view) errors(errs []error) int {
	if v.json == nil {
		v.m.printErrors(errs)
		return ExitError
	}
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

// lockFailed reports a lock that could not be taken: ExitLocked when another
// process holds it, ExitError otherwise.
func (v *view) lockFailed(err error) int {
	var locked *state.LockedError
	if !errors.As(err, &locked) {
		return v.errorf("acquire the state lock: %v", err)
	}
	v.fail("the state is locked by another streamctl", fmt.Sprintf("%v\n\n  streamctl exits with code %d when the state is locked; a scheduled job can treat it as \"another run is in progress\".", err, ExitLocked))
	return ExitLocked
}

// tookOver warns when the lock was taken over from a holder whose lease had
// expired: a run died holding it (OOM-killed, preempted), and this one goes on
// where it stopped.
func (v *view) tookOver(u state.Unlocker) {
	t, ok := u.(state.TakenOver)
	if !ok {
		return
	}
	h, silent := t.TookOver()
	if h == nil {
		return
	}
	v.warn("Took over the state lock of a run that died",
		fmt.Sprintf("The lock %s of %s by %s (pid %d, since %s) was not refreshed for %s, longer than its lease of %s: its holder is gone. This run took it over; the batch it left in flight is finished exactly once, and its state writes can no longer land.",
			h.ID, h.Operation, h.Who, h.PID, h.Created.UTC().Format(time.RFC3339), silent.Round(time.Second), state.Lease))
}
