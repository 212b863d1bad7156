package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/crash"
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
	backend, err := workspace.StateBackend(ctx, cfg, kinds())
	if err != nil {
		return failf(v, "%v", err)
	}
	var (
		claims  *sinkClaims
		mgr     *state.Manager
		runLock *state.LockInfo // the run-wide lock, when this run holds it
		held    *heldLocks      // the locks this run holds from the start
	)
	if a.lock {
		var (
			info   *state.LockInfo
			lockOn = backend.Describe()
		)
		sb, sharded := backend.(state.ShardedBackend)
		shared := false
		var (
			stateSinks []string
			peek       *state.Manager
		)
		if sharded {
			// A remote state is applied per sink, unless the run changes
			// the whole state: a pending rename (moved blocks), a saved plan (whose
			// serial covers every sink), or the migration of a state still
			// in the one-document layout.
			var err error
			if peek, err = state.Load(ctx, backend, Version); err != nil {
				return failf(v, "%v", err)
			}
			stateSinks = peek.State().SinkNames()
			// A moved block whose former sink the state no longer holds is
			// done: only a pending rename needs the whole state.
			pending := false
			for _, m := range cfg.Moved {
				pending = pending || peek.State().Sinks[m.From] != nil
			}
			// So does a change of a sink's number of shards.
			pending = pending || workspace.Resharding(cfg, peek.State())
			shared = saved == nil && !pending && (peek.Sharded() || !peek.Exists())
		}
		switch {
		case shared:
			// Each sink's lock is taken in its turn (sinkClaims.claim); a
			// command changing the whole state refuses the run at once.
			if holder, silent, err := sb.RootLock().Live(ctx); err != nil || holder != nil {
				if err == nil {
					err = &state.LockedError{Holder: holder, Path: backend.Describe(), Leased: true, Silent: silent}
				}
				return lockFailed(v, err)
			}
			claims = &sinkClaims{backend: sb, timeout: a.lockTimeout, lost: make(chan struct{})}
			held = newHeldLocks()
			// Read without a lock: each sink is read again once claimed.
			// The state is created first, so that workers started together
			// over none plan with the one lineage that wins.
			if err := peek.Create(context.WithoutCancel(ctx)); err != nil {
				return failf(v, "create the state: %v", err)
			}
			mgr = peek
		default:
			sinks := stateSinks
			for _, s := range cfg.Sinks {
				sinks = append(sinks, s.Name)
				sinks = append(sinks, cfg.MovedFrom(s.Name)...)
				if sh := s.Shard; sh != nil {
					// Under -target too, a change of shards writes every
					// shard's checkpoint.
					for k := range sh.Count {
						sinks = append(sinks, config.ShardName(sh.Sink, k))
					}
				}
			}
			held, err = lockExclusive(ctx, backend, sinks, "apply", a.lockTimeout)
			if err != nil {
				return lockFailed(v, err)
			}
			info = held.infos[0]
			runLock = info
		}
		tookOverAll(v, held)
		defer func() {
			if err := held.Unlock(); err != nil {
				// A lock left behind blocks the next run: say how to remove it,
				// and do not report success.
				id := "ID"
				if info != nil {
					id = info.ID
				}
				failf(v, "release the state lock: %v\n\nThe lock stays on %s. Once it is reachable, remove it with: streamctl force-unlock %s", err, lockOn, id)
				if code == ExitOK {
					code = ExitError
				}
			}
		}()
		// A remote lock lost to force-unlock stops the apply; the state's
		// compare-and-swap fences any write already under way.
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go func() {
			defer crash.Report()
			var claimLost chan struct{}
			if claims != nil {
				claimLost = claims.lost
			}
			select {
			case <-held.Lost():
				failf(v, "the state lock was lost (force-unlocked?); stopping.")
				cancel()
			case <-claimLost:
				failf(v, "the state lock was lost (a sink's lock; force-unlocked?); stopping.")
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	if mgr == nil {
		if mgr, err = state.Load(ctx, backend, Version); err != nil {
			return failf(v, "%v", err)
		}
	}
	ws, err := c.openWorkspace(ctx, cfg)
	if err != nil {
		return failf(v, "%v", err)
	}
	defer ws.Close()

	p := saved
	if p != nil {
		if err := workspace.CheckSaved(p, mgr, cfg.Hash); err != nil {
			return v.fail("Saved plan is stale", err.Error())
		}
		if errs := ws.VerifySaved(ctx, p, mgr.State()); len(errs) > 0 {
			var lines []string
			for _, err := range errs {
				lines = append(lines, err.Error())
			}
			return v.fail("Saved plan does not match the state", fmt.Sprintf("The plan file %s was not run: %s. Nothing was written. Make the plan again with streamctl plan -out.", a.planFile, strings.Join(lines, "; ")))
		}
	} else {
		var errs []error
		p, errs = ws.Plan(ctx, mgr.State(), workspace.PlanOptions{Refresh: a.refresh, MaxBatches: a.maxBatches, Targeted: a.targetFlags.active(), Version: Version})
		if len(errs) > 0 {
			return v.planErrors(errs)
		}
		workspace.Stamp(p, mgr, cfg, c.now())
	}
	met.plan = p
	met.mgr = mgr
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
	if claims != nil {
		claims.v, claims.ws, claims.mgr, claims.a = v, ws, mgr, a
	}
	lockID := func(string) string { return "" }
	switch {
	case claims != nil:
		lockID = claims.lockID
	case runLock != nil:
		id := runLock.ID
		lockID = func(string) string { return id }
	}
	// Each write of a batch checks the locks it is made under first (see
	// state.Unlocker.Held): a heartbeat starved on a loaded host must not
	// let this run write on after its lease could have been taken over.
	fence := func(sink string) error {
		if held != nil {
			if err := held.Held(); err != nil {
				return err
			}
		}
		if claims != nil {
			return claims.held(sink)
		}
		return nil
	}
	return c.run(ctx, v, ws, mgr, p, a, met, claims, lockID, fence)
}

// approve asks on the terminal. Ctrl-C (or SIGTERM) while it waits cancels at
// once: the caller returns, and the lock is released on the way out.
func (c *ApplyCommand) approve(ctx context.Context) bool {
	line, ok := askLine(ctx, c.Stdin, c.Stdout, "\nDo you want to run these batches?\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ")
	return ok && strings.TrimSpace(line) == "yes"
}

// run applies the sinks, up to -parallelism at once, and reports progress and
// the summary. A failing sink does not stop the others.
func (c *ApplyCommand) run(ctx context.Context, v applyView, ws *workspace.Workspace, mgr *state.Manager, p *planner.Plan, a *applyArgs, met *applyMetrics, claims *sinkClaims, lockID func(string) string, fence func(string) error) int {
	v.running(workspace.Totals(p, a.maxBatches))
	defer v.stopped()
	eng := &engine.Engine{
		State:   mgr,
		Version: Version,
		Now:     c.Now,
		OnEvent: func(ev engine.Event) { v.event(ev, ws.DestinationNames(ev.Sink)) },
		LockID:  lockID,
		Fence:   fence,
	}
	start := c.now()
	var prepare workspace.Prepare
	if claims != nil {
		prepare = claims.claim
	}
	results, errs := ws.ApplyEach(ctx, eng, p, a.parallelism, prepare)
	var (
		total    engine.Summary
		perSink  []render.SinkSummary
		canceled bool
	)
	for _, r := range results {
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
	if claims != nil {
		met.skipped = claims.skippedSinks()
	}
	summary := render.ApplySummary{
		Status: "complete", Batches: total.Batches, Records: total.Records, Files: total.Files, Bytes: total.Bytes,
		ElapsedSeconds: elapsed.Seconds(), RecordsPerSecond: rate, Sinks: perSink,
	}
	if len(errs) > 0 {
		summary.Status = "failed"
		if canceled {
			summary.Status = "interrupted"
		}
		v.failed(summary, errs)
		return ExitError
	}
	if claims != nil {
		if locked := claims.allSkipped(); locked != nil {
			return lockFailed(v, locked)
		}
	}
	v.complete(summary, workspace.Deferred(p), p.MaxBatches)
	return ExitOK
}

func sortSinkSummaries(s []render.SinkSummary) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].Sink < s[j-1].Sink; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
