package command

import (
	"fmt"
	"io"
	"time"

	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/planner"
)

// planView is what plan reports: the plan, and where it was saved.
type planView interface {
	ui
	plan(p *planner.Plan, verbose bool)
	// saved reports the plan file written with -out.
	saved(path string)
}

// newPlanView picks plan's rendering of stdout; parse refuses -json with
// -markdown.
func (m *Meta) newPlanView(asJSON, markdown, noColor bool) planView {
	switch {
	case asJSON:
		return &planJSON{jsonUI: m.newJSONUI()}
	case markdown:
		return &planMarkdown{humanUI: m.newHumanUI(noColor)}
	}
	return &planHuman{humanUI: m.newHumanUI(noColor)}
}

// targetedSummary is the warning's summary of a plan made with -target or
// -exclude.
const targetedSummary = "Only some sinks are planned"

func savedMessage(path string) string {
	return fmt.Sprintf("Saved the plan to %s. To run exactly this plan: streamctl apply %s", path, path)
}

// writePlanJSON writes p as a whole JSON-lines stream, version message
// first: plan -json-out.
func writePlanJSON(w io.Writer, p *planner.Plan, now func() time.Time) {
	jv := render.NewJSONView(w, now)
	jv.Version(Version)
	if p.Targeted {
		// As on stdout: the file is read without it.
		jv.Diagnostic(render.Diagnostic{Severity: render.SeverityWarning, Summary: targetedSummary, Detail: render.TargetedText})
	}
	jv.Plan(p, "plan")
}

// writePlanMarkdown writes p for a pull-request comment: plan -markdown-out.
func writePlanMarkdown(w io.Writer, p *planner.Plan, verbose bool) {
	io.WriteString(w, render.PlanMarkdown(p, render.MarkdownOptions{Verbose: verbose}))
}

// planHuman prints the plan as a diff on stdout.
type planHuman struct{ *humanUI }

func (v *planHuman) plan(p *planner.Plan, verbose bool) {
	render.PlanText(v.m.Stdout, p, render.Options{Color: v.color(), Verbose: verbose})
}

func (v *planHuman) saved(path string) { fmt.Fprintf(v.m.Stdout, "\n%s\n", savedMessage(path)) }

// planMarkdown prints the plan as Markdown on stdout, for a pull-request
// comment; anything else goes to stderr, so that stdout is the comment.
type planMarkdown struct{ *humanUI }

func (v *planMarkdown) plan(p *planner.Plan, verbose bool) { writePlanMarkdown(v.m.Stdout, p, verbose) }

func (v *planMarkdown) saved(path string) { fmt.Fprintln(v.m.Stderr, savedMessage(path)) }

// planJSON writes the plan's messages, and a log message for the saved plan.
type planJSON struct{ *jsonUI }

func (v *planJSON) plan(p *planner.Plan, _ bool) { v.json.Plan(p, "plan") }

func (v *planJSON) saved(path string) { v.json.Info(savedMessage(path)) }
