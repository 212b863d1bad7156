package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// PlanCommand shows what apply would do.
//
// plan reads the state without taking the lock: a state is only ever replaced
// whole (rename, or a compare-and-swap put), so plan always sees one complete
// version, and it writes nothing. A plan saved with -out records the state's
// lineage and serial; apply refuses it if any apply ran in between.
type PlanCommand struct{ *Meta }

type planArgs struct {
	configFlags
	out              string
	detailedExitcode bool
	refresh          bool
	verbose          bool
}

func (c *PlanCommand) Synopsis() string { return "Show the batches apply would run" }

func (c *PlanCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] plan [options]

  Reads the state, asks each source for its latest offsets and lists each
  destination's manifests and leftovers, then shows what apply would do: the
  batch in flight to resume, the new batches with their offset ranges, and the
  orphan temporaries to remove. Nothing is written.

Options:

  -out=FILE           Save the plan to FILE; "streamctl apply FILE" runs exactly
                      it, and refuses it once the state or configuration changed.
  -detailed-exitcode  Exit 0 when nothing is pending, 1 on error, 2 when there
                      are changes.
  -refresh=false      Do not list the destinations (faster; no cleanup planned).
  -verbose            Show every partition range of every batch.
`+configFlagsHelp) + "\n"
}

func (c *PlanCommand) parse(args []string) (*planArgs, error) {
	a := &planArgs{}
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a.register(fs)
	fs.StringVar(&a.out, "out", "", "")
	fs.BoolVar(&a.detailedExitcode, "detailed-exitcode", false, "")
	fs.BoolVar(&a.refresh, "refresh", true, "")
	fs.BoolVar(&a.verbose, "verbose", false, "")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q; plan takes only options", fs.Arg(0))
	}
	return a, nil
}

func (c *PlanCommand) Run(args []string) int {
	a, err := c.parse(args)
	if err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	cfg, ok := c.loadConfig(&a.configFlags)
	if !ok {
		return ExitError
	}
	ctx, stop := signalContext()
	defer stop()

	backend, err := stateBackend(ctx, cfg)
	if err != nil {
		return c.errorf("%v", err)
	}
	mgr, err := state.Load(ctx, backend, Version)
	if err != nil {
		return c.errorf("%v", err)
	}
	ws, err := openWorkspace(ctx, cfg)
	if err != nil {
		return c.errorf("%v", err)
	}
	defer ws.Close()
	p, errs := makePlan(ctx, ws, mgr.State(), a.refresh)
	if len(errs) > 0 {
		c.printErrors(errs)
		return ExitError
	}
	stampPlan(p, mgr)
	render.PlanText(c.Stdout, p, render.Options{Color: c.color(a.noColor), Verbose: a.verbose})
	if a.out != "" {
		if err := writePlanFile(c.abs(a.out), p); err != nil {
			return c.errorf("save the plan: %v", err)
		}
		fmt.Fprintf(c.Stdout, "\nSaved the plan to %s. To run exactly this plan: streamctl apply %s\n", a.out, a.out)
	}
	if a.detailedExitcode && p.Changes() {
		return ExitChanges
	}
	return ExitOK
}

// stampPlan records what the plan was made from.
func stampPlan(p *planner.Plan, mgr *state.Manager) {
	p.Created = time.Now().UTC().Truncate(time.Second)
	if mgr.Exists() {
		p.Lineage = mgr.State().Lineage
		p.Serial = mgr.State().Serial
	}
}

func writePlanFile(path string, p *planner.Plan) error {
	data, err := planner.Encode(p)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func readPlanFile(path string) (*planner.Plan, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := planner.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// checkSavedPlan refuses a saved plan that no longer matches the state or the
// configuration.
func checkSavedPlan(p *planner.Plan, mgr *state.Manager, configHash string) error {
	st := mgr.State()
	switch {
	case p.Lineage == "" && mgr.Exists():
		return errors.New("saved plan is stale: it was made before the state existed, and an apply has run since. Run streamctl plan again")
	case p.Lineage != "" && p.Lineage != st.Lineage:
		return fmt.Errorf("saved plan is stale: it was made for state lineage %s, but the state has lineage %s (another state). Run streamctl plan again", p.Lineage, st.Lineage)
	case p.Lineage != "" && p.Serial != st.Serial:
		return fmt.Errorf("saved plan is stale: it was made from state serial %d, and the state is now at serial %d (an apply ran since). Run streamctl plan again", p.Serial, st.Serial)
	case p.ConfigHash != configHash:
		return errors.New("saved plan is stale: the configuration or its variables changed since it was made. Run streamctl plan again")
	}
	return nil
}

// signalContext is cancelled on SIGINT or SIGTERM; see signals.go.
func signalContext() (context.Context, func()) {
	return notifyContext(context.Background())
}
