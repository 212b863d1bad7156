package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/internal/workspace"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// ApplyCommand runs the batches of a plan through the commit protocol.
type ApplyCommand struct{ *Meta }

type applyArgs struct {
	configFlags
	targetFlags
	autoApprove bool
	lock        bool
	lockTimeout time.Duration
	parallelism int
	maxBatches  int64
	refresh     bool
	verbose     bool
	json        bool
	input       bool
	metricsFile string
	// metricsWorker labels the metrics of one of several workers.
	metricsWorker string
	planFile      string
}

func (c *ApplyCommand) Synopsis() string { return "Run the pending batches, exactly once" }

func (c *ApplyCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] apply [options] [PLAN-FILE]

  Plans (or loads PLAN-FILE, saved by "streamctl plan -out"), asks for
  approval, takes the state lock and runs the batches. Each batch's ranges are
  logged in the state before any destination is touched; its files are staged
  under _temporary/<batch>, moved into place, and committed by a manifest in
  each destination, then in the state. A crash at any moment is recovered by
  the next apply, without loss or duplicates.

  A saved plan runs exactly as planned, without asking, and is refused when the
  state or the configuration changed since it was made.

  From cron or a Kubernetes CronJob: "streamctl apply -auto-approve -json
  -input=false" exits 0 when there is nothing to do, releases the lock on every
  exit (SIGTERM included), and exits 4 when another run holds the lock.

  On a remote state (S3, Azure) apply locks each sink, not the whole state:
  several applies run different sinks at once, and a sink another live apply
  holds is skipped with a warning (exit 0 when the rest succeeded, 4 when
  every sink with changes was held by another apply).

Options:

  -auto-approve          Do not ask for approval. Required without a terminal.
  -input=false           Never ask: fail instead of asking for approval.
  -json                  Print JSON lines (docs/json-output.md); needs
                         -auto-approve or a plan file.
  -lock=false            Do not take the state lock. Dangerous with others.
  -lock-timeout=DURATION Wait this long for the lock (e.g. 30s). Default 0.
  -parallelism=N         Apply up to N sinks at once. Default 4.
  -max-batches=N         Run at most N batches per sink, then stop.
  -metrics-file=FILE     Write Prometheus metrics to FILE (atomically), for
                         node_exporter's textfile collector.
  -metrics-worker=ID     One of several workers over one remote state: label
                         every series worker="ID" and report only the sinks
                         this run applied (the others' holders report them),
                         even when every sink was held (exit 4). Give each
                         worker its own FILE, e.g. named after ID.
  -refresh=false         Do not list the destinations before planning.
  -verbose               Show every partition range in the plan.
`+targetFlagsHelp+"\n"+configFlagsHelp) + "\n"
}

func (c *ApplyCommand) flags(a *applyArgs) *flag.FlagSet {
	fs := targetedFlags("apply", &a.configFlags, &a.targetFlags)
	fs.BoolVar(&a.autoApprove, "auto-approve", false, "")
	fs.BoolVar(&a.lock, "lock", true, "")
	fs.DurationVar(&a.lockTimeout, "lock-timeout", 0, "")
	fs.IntVar(&a.parallelism, "parallelism", 4, "")
	fs.Int64Var(&a.maxBatches, "max-batches", 0, "")
	fs.BoolVar(&a.refresh, "refresh", true, "")
	fs.BoolVar(&a.verbose, "verbose", false, "")
	fs.BoolVar(&a.json, "json", false, "")
	fs.BoolVar(&a.input, "input", true, "")
	fs.StringVar(&a.metricsFile, "metrics-file", "", "")
	fs.StringVar(&a.metricsWorker, "metrics-worker", "", "")
	return fs
}

// FlagSet lists apply's flags.
func (c *ApplyCommand) FlagSet() *flag.FlagSet { return c.flags(&applyArgs{}) }

func (c *ApplyCommand) parse(args []string) (*applyArgs, error) {
	a := &applyArgs{}
	fs := c.flags(a)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch fs.NArg() {
	case 0:
	case 1:
		a.planFile = fs.Arg(0)
	default:
		return nil, fmt.Errorf("apply takes at most one plan file, not %q", strings.Join(fs.Args(), " "))
	}
	if a.parallelism < 1 {
		return nil, fmt.Errorf("-parallelism must be at least 1")
	}
	if a.maxBatches < 0 {
		return nil, fmt.Errorf("-max-batches must not be negative")
	}
	if a.json && a.planFile == "" && !a.autoApprove {
		return nil, fmt.Errorf("-json needs -auto-approve (or a plan file): JSON output cannot ask for approval")
	}
	if a.planFile != "" && a.targetFlags.active() {
		return nil, fmt.Errorf("-target and -exclude do not apply to a saved plan: it runs exactly as planned; give them to plan -out instead")
	}
	if a.planFile != "" && a.maxBatches > 0 {
		return nil, fmt.Errorf("-max-batches does not apply to a saved plan: it runs exactly as planned; give it to plan -out instead")
	}
	return a, nil
}

func (c *ApplyCommand) Run(args []string) int {
	a, err := c.parse(args)
	if err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	v := c.newApplyView(a.json, a.noColor)
	met := &applyMetrics{start: c.now()}
	code := c.apply(a, v, met)
	if a.metricsFile != "" && (code != ExitLocked || a.metricsWorker != "") {
		// A run refused for the lock leaves the metrics to the run that
		// holds it; a worker's file is its own, and says it found the
		// sinks held by others, which is no failure.
		met.success = code == ExitOK || code == ExitLocked
		met.worker = a.metricsWorker
		met.end = c.now()
		if err := c.writeMetrics(a.metricsFile, met); err != nil {
			failf(v, "write -metrics-file: %v", err)
			return ExitError
		}
	}
	return code
}

func (c *ApplyCommand) apply(a *applyArgs, v applyView, met *applyMetrics) (code int) {
	var saved *planner.Plan
	if a.planFile != "" {
		var err error
		if saved, err = readPlanFile(c.abs(a.planFile)); err != nil {
			return failf(v, "read the plan: %v", err)
		}
		// The plan runs with the variables it was made with.
		if a.configFlags.saved, err = workspace.SavedValues(saved); err != nil {
			return failf(v, "read the plan %s: %v", a.planFile, err)
		}
	}
	cfg, ok := c.loadTargeted(&a.configFlags, &a.targetFlags, v)
	if !ok {
		return ExitError
	}
	if saved != nil {
		// A plan made under -target covers only its sinks.
		var err error
		if cfg, err = workspace.SavedSinks(cfg, saved); err != nil {
			return v.fail("Saved plan does not match the configuration", err.Error())
		}
	}
	if a.targetFlags.active() {
		v.warn("Only some sinks are applied", "-target or -exclude is in effect: only the sinks they select are applied. Use it for exceptional situations, not routinely.")
	}
	if saved == nil && !a.autoApprove && (!c.IsTerminal || !a.input) {
		why := "there is no terminal to ask on"
		if !a.input {
			why = "-input=false forbids asking"
		}
		return failf(v, "apply needs approval, and %s. Pass -auto-approve, or apply a plan saved with plan -out", why)
	}

	ctx, stop := signalContext()
	defer stop()
	log, err := c.storeLog()
	if err != nil {
		return failf(v, "%v", err)
	}
	rep := &applyReporter{v: v, met: met}
	s, err := workspace.Begin(ctx, cfg, kinds(), workspace.SessionOptions{
		Lock:        a.lock,
		LockTimeout: a.lockTimeout,
		Saved:       saved != nil,
		Plan:        workspace.PlanOptions{Refresh: a.refresh, MaxBatches: a.maxBatches, Targeted: a.targetFlags.active(), Version: Version, Now: c.Now},
		Version:     Version,
		Now:         c.Now,
		WrapStorage: storeWrapper(log),
	}, rep)
	defer func() {
		var left *workspace.ReleaseError
		if errors.As(s.Close(), &left) {
			// A lock left behind blocks the next run: say how to remove it,
			// and do not report success.
			failf(v, "release the state lock: %v\n\nThe lock stays on %s. Once it is reachable, remove it with: streamctl force-unlock %s", left.Err, left.Where, left.ID)
			if code == ExitOK {
				code = ExitError
			}
		}
	}()
	var lockErr *workspace.LockError
	switch {
	case errors.As(err, &lockErr):
		return lockFailed(v, lockErr.Err)
	case err != nil:
		return failf(v, "%v", err)
	}
	ctx = s.Context()

	p := saved
	if p != nil {
		stale, mismatch := s.CheckSaved(p)
		var staleErr *workspace.StalePlanError
		switch {
		case errors.As(stale, &staleErr):
			return v.fail("Saved plan is stale", staleErr.Detail())
		case stale != nil:
			return failf(v, "%v", stale)
		}
		if len(mismatch) > 0 {
			var lines []string
			for _, err := range mismatch {
				lines = append(lines, err.Error())
			}
			return v.fail("Saved plan does not match the state", fmt.Sprintf("The plan file %s was not run: %s. Nothing was written. Make the plan again with streamctl plan -out.", a.planFile, strings.Join(lines, "; ")))
		}
		// What came since is not written: the user reviewed the plan's
		// ranges. Say so, rather than leave them to wonder. A source that
		// cannot be read now fails the apply at its first batch, which
		// says why.
		if grown, err := s.Workspace().SourceGrowth(ctx, p); err == nil {
			for _, g := range grown {
				v.warn("The source grew since the plan was saved", growthMessage(g))
			}
		}
	} else {
		var errs []error
		if p, errs = s.Plan(c.now()); len(errs) > 0 {
			return v.planErrors(errs)
		}
	}
	met.plan = p
	met.mgr = s.State()
	v.plan(p, a.verbose)
	if !p.Changes() {
		v.upToDate()
		return ExitOK
	}
	if saved == nil && !a.autoApprove {
		if !c.approve(ctx) {
			fmt.Fprintln(c.Stdout, "\nApply cancelled.")
			return ExitError
		}
	}
	return c.run(v, s, p, a, met)
}

// approve asks on the terminal. Ctrl-C (or SIGTERM) while it waits cancels at
// once: the caller returns, and the lock is released on the way out.
func (c *ApplyCommand) approve(ctx context.Context) bool {
	line, ok := askLine(ctx, c.Stdin, c.Stdout, "\nDo you want to run these batches?\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ")
	return ok && strings.TrimSpace(line) == "yes"
}

// run applies the sinks, up to -parallelism at once, and reports progress and
// the summary. A failing sink does not stop the others.
func (c *ApplyCommand) run(v applyView, s *workspace.Session, p *planner.Plan, a *applyArgs, met *applyMetrics) int {
	v.running(workspace.Totals(p, a.maxBatches))
	defer v.stopped()
	start := c.now()
	res := s.Apply(p, a.parallelism)
	var (
		total    engine.Summary
		perSink  []render.SinkSummary
		canceled bool
	)
	for _, r := range res.Sinks {
		total.Batches += r.Summary.Batches
		total.Records += r.Summary.Records
		total.Files += r.Summary.Files
		total.Bytes += r.Summary.Bytes
		ss := render.SinkSummary{Sink: r.Sink, Batches: r.Summary.Batches, Records: r.Summary.Records, Files: r.Summary.Files, Bytes: r.Summary.Bytes}
		if r.Err != nil {
			ss.Error = r.Err.Error()
			canceled = canceled || errors.Is(r.Err, context.Canceled)
		}
		perSink = append(perSink, ss)
	}
	v.stopped()
	elapsed := c.now().Sub(start)
	rate := 0.0
	if elapsed > 0 {
		rate = float64(total.Records) / elapsed.Seconds()
	}
	sortSinkSummaries(perSink)
	met.sinks = perSink
	summary := render.ApplySummary{
		Status: "complete", Batches: total.Batches, Records: total.Records, Files: total.Files, Bytes: total.Bytes,
		ElapsedSeconds: elapsed.Seconds(), RecordsPerSecond: rate, Sinks: perSink,
	}
	if len(res.Errs) > 0 {
		summary.Status = "failed"
		if canceled {
			summary.Status = "interrupted"
		}
		v.failed(summary, res.Errs)
		return ExitError
	}
	if res.Locked != nil {
		return lockFailed(v, res.Locked)
	}
	v.complete(summary, render.ChangesBesideBatches(p, true), workspace.Deferred(p), p.MaxBatches)
	return ExitOK
}

func sortSinkSummaries(s []render.SinkSummary) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Sink < s[j-1].Sink; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// applyReporter is the apply view as the session's workspace.Reporter.
type applyReporter struct {
	v   applyView
	met *applyMetrics // its skipped sinks, which a worker's metrics leave out

	mu sync.Mutex // sinks are skipped from their own goroutines
}

func (r *applyReporter) SinkSkipped(sink string, holder *state.LockInfo) {
	r.mu.Lock()
	if r.met.skipped == nil {
		r.met.skipped = map[string]bool{}
	}
	r.met.skipped[sink] = true
	r.mu.Unlock()
	r.v.warn("Sink skipped", skippedSink{Sink: sink, Holder: holder}.message())
}

func (r *applyReporter) TookOver(holder *state.LockInfo, silent time.Duration) {
	tookOverWarning(r.v, holder, silent)
}

func (r *applyReporter) SinkLockLeft(sink, id string, err error) {
	r.v.warn("Sink lock left behind", fmt.Sprintf("release the lock of sink %q: %v. It is taken over once its lease of %s expires, or now with: streamctl force-unlock %s", sink, err, state.Lease, id))
}

func (r *applyReporter) LockLost(ofSink bool) {
	if ofSink {
		failf(r.v, "the state lock was lost (a sink's lock; force-unlocked?); stopping.")
		return
	}
	failf(r.v, "the state lock was lost (force-unlocked?); stopping.")
}

func (r *applyReporter) Event(ev engine.Event, destinations []string) { r.v.event(ev, destinations) }

// growthMessage says what a saved plan leaves for the next plan.
func growthMessage(g workspace.Growth) string {
	var parts []string
	for i, p := range g.Partitions {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more partitions", len(g.Partitions)-i))
			break
		}
		if p.New {
			parts = append(parts, fmt.Sprintf("%s: %s, a new partition", p.ID, render.Count(p.Records)))
		} else {
			parts = append(parts, fmt.Sprintf("%s: %s more", p.ID, render.Count(p.Records)))
		}
	}
	more := "records"
	if g.Records == 1 {
		more = "record"
	}
	return fmt.Sprintf("sink %q: source.%s has %s more %s than when the plan was made (%s). This saved plan writes exactly the ranges it lists, nothing more; run streamctl plan afterwards to see the rest.",
		g.Sink, g.Source, render.Count(g.Records), more, strings.Join(parts, "; "))
}
