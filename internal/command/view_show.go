package command

import (
	"encoding/json"
	"fmt"

	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// showView is what show reports: a saved plan, or the state. Each returns
// the exit code: a document that cannot be encoded is an error.
type showView interface {
	ui
	plan(p *planner.Plan, verbose bool) int
	state(st *state.State, backend string, exists bool) int
}

// newShowView picks show's rendering; parse refuses -json with -markdown,
// and -markdown without a plan.
func (m *Meta) newShowView(asJSON, markdown, noColor bool) showView {
	switch {
	case asJSON:
		return &showJSON{humanUI: m.newHumanUI(noColor)}
	case markdown:
		return &showMarkdown{showHuman{humanUI: m.newHumanUI(noColor)}}
	}
	return &showHuman{humanUI: m.newHumanUI(noColor)}
}

// showHuman prints the plan as plan does, or each sink's checkpoint.
type showHuman struct{ *humanUI }

func (v *showHuman) plan(p *planner.Plan, verbose bool) int {
	render.PlanText(v.m.Stdout, p, render.Options{Color: v.color(), Verbose: verbose})
	return ExitOK
}

func (v *showHuman) state(st *state.State, backend string, exists bool) int {
	if !exists {
		fmt.Fprintln(v.m.Stdout, "The state is empty: nothing was applied yet.")
		return ExitOK
	}
	fmt.Fprintf(v.m.Stdout, "state %s (lineage %s, serial %d)\n\n", backend, st.Lineage, st.Serial)
	for _, name := range st.SinkNames() {
		writeSinkState(v.m.Stdout, name, st.Sinks[name])
		fmt.Fprintln(v.m.Stdout)
	}
	return ExitOK
}

// showMarkdown renders a saved plan for a pull-request comment.
type showMarkdown struct{ showHuman }

func (v *showMarkdown) plan(p *planner.Plan, verbose bool) int {
	writePlanMarkdown(v.m.Stdout, p, verbose)
	return ExitOK
}

// showJSON prints one JSON document on one line; errors stay text on
// stderr.
type showJSON struct{ *humanUI }

func (v *showJSON) plan(p *planner.Plan, _ bool) int {
	return v.printJSON(render.NewPlanDocument(p))
}

func (v *showJSON) state(st *state.State, backend string, exists bool) int {
	return v.printJSON(render.NewStateDocument(st, backend, exists))
}

// printJSON prints one JSON document on one line.
func (v *humanUI) printJSON(doc any) int {
	data, err := json.Marshal(doc)
	if err != nil {
		return failf(v, "encode JSON: %v", err)
	}
	fmt.Fprintf(v.m.Stdout, "%s\n", data)
	return ExitOK
}
