package command

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// ApplyCommand runs the batches of a plan through the commit protocol.
type ApplyCommand struct{ *Meta }

type applyArgs struct {
	configFlags
	autoApprove bool
	lock        bool
	lockTimeout time.Duration
	parallelism int
	maxBatches  int64
	refresh     bool
	verbose     bool
	planFile    string
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

Options:

  -auto-approve          Do not ask for approval. Required without a terminal.
  -lock=false            Do not take the state lock. Dangerous with others.
  -lock-timeout=DURATION Wait this long for the lock (e.g. 30s). Default 0.
  -parallelism=N         Apply up to N sinks at once. Default 4.
  -max-batches=N         Run at most N new batches per sink, then stop.
  -refresh=false         Do not list the destinations before planning.
  -verbose               Show every partition range in the plan.
`+configFlagsHelp) + "\n"
}

func (c *ApplyCommand) parse(args []string) (*applyArgs, error) {
	a := &applyArgs{}
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	a.register(fs)
	fs.BoolVar(&a.autoApprove, "auto-approve", false, "")
	fs.BoolVar(&a.lock, "lock", true, "")
	fs.DurationVar(&a.lockTimeout, "lock-timeout", 0, "")
	fs.IntVar(&a.parallelism, "parallelism", 4, "")
	fs.Int64Var(&a.maxBatches, "max-batches", 0, "")
	fs.BoolVar(&a.refresh, "refresh", true, "")
	fs.BoolVar(&a.verbose, "verbose", false, "")
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
	return a, nil
}

func (c *ApplyCommand) Run(args []string) int {
	a, err := c.parse(args)
	if err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	cfg, ok := c.loadConfig(&a.configFlags)
	if !ok {
		return ExitError
	}
	var saved *planner.Plan
	if a.planFile != "" {
		if saved, err = readPlanFile(c.abs(a.planFile)); err != nil {
			return c.errorf("read the plan: %v", err)
		}
	}
	if saved == nil && !a.autoApprove && !c.IsTerminal {
		return c.errorf("apply needs approval, and there is no terminal to ask on. Pass -auto-approve, or apply a plan saved with plan -out")
	}

	ctx, stop := signalContext()
	defer stop()
	backend, err := stateBackend(ctx, cfg)
	if err != nil {
		return c.errorf("%v", err)
	}
	if a.lock {
		unlock, err := state.Lock(ctx, backend, state.NewLockInfo("apply", Version), a.lockTimeout)
		if err != nil {
			return c.errorf("acquire the state lock: %v", err)
		}
		defer func() {
			if err := unlock.Unlock(); err != nil {
				fmt.Fprintf(c.Stderr, "Error: release the state lock: %v\n", err)
			}
		}()
		// A remote lock lost to force-unlock stops the apply; the state's
		// compare-and-swap fences any write already under way.
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-unlock.Lost():
				fmt.Fprintln(c.Stderr, "Error: the state lock was lost (force-unlocked?); stopping.")
				cancel()
			case <-ctx.Done():
			}
		}()
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

	p := saved
	if p != nil {
		if err := checkSavedPlan(p, mgr, cfg.Hash); err != nil {
			return c.errorf("%v", err)
		}
	} else {
		var errs []error
		p, errs = makePlan(ctx, ws, mgr.State(), a.refresh)
		if len(errs) > 0 {
			c.printErrors(errs)
			return ExitError
		}
		stampPlan(p, mgr)
	}
	opts := render.Options{Color: c.color(a.noColor), Verbose: a.verbose}
	render.PlanText(c.Stdout, p, opts)
	if !p.Changes() {
		return ExitOK
	}
	if saved == nil && !a.autoApprove {
		if !c.approve() {
			fmt.Fprintln(c.Stdout, "\nApply cancelled.")
			return ExitError
		}
	}
	fmt.Fprintln(c.Stdout)
	return c.run(ctx, ws, mgr, p, a)
}

func (c *ApplyCommand) approve() bool {
	fmt.Fprint(c.Stdout, "\nDo you want to run these batches?\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ")
	line, _ := bufio.NewReader(c.Stdin).ReadString('\n')
	return strings.TrimSpace(line) == "yes"
}

// run applies the sinks, up to -parallelism at once, and prints progress and
// the summary. A failing sink does not stop the others.
func (c *ApplyCommand) run(ctx context.Context, ws *workspace, mgr *state.Manager, p *planner.Plan, a *applyArgs) int {
	var outMu sync.Mutex
	printf := func(format string, args ...any) {
		outMu.Lock()
		defer outMu.Unlock()
		fmt.Fprintf(c.Stdout, format, args...)
	}
	eng := &engine.Engine{
		State:   mgr,
		Version: Version,
		OnEvent: func(ev engine.Event) {
			switch ev.Type {
			case "cleanup":
				printf("%s: removed orphan _temporary/%d in %s\n", ev.Sink, ev.Batch, ev.Destination)
			case "batch_start":
				verb := "started"
				if ev.Resume {
					verb = "resumed"
				}
				printf("%s: batch %d %s (%s records)\n", ev.Sink, ev.Batch, verb, render.Count(ev.Records))
			case "destination_committed":
				printf("%s: batch %d committed to %s: %s, %s records, %s\n", ev.Sink, ev.Batch, ev.Destination, render.Plural(int64(ev.Files), "file", "files"), render.Count(ev.Records), render.Bytes(ev.Bytes))
			case "warning":
				printf("%s: warning: %s\n", ev.Sink, ev.Message)
			case "batch_repaired":
				printf("%s: batch %d rewritten where it was missing\n", ev.Sink, ev.Batch)
			case "batch_committed":
				printf("%s: batch %d committed in %s\n", ev.Sink, ev.Batch, ev.Elapsed.Round(time.Millisecond))
			}
		},
	}
	start := time.Now()
	sinks := map[string]*engine.Sink{}
	for _, s := range ws.sinks {
		sinks[s.Name] = s
	}
	var (
		wg    sync.WaitGroup
		sem   = make(chan struct{}, a.parallelism)
		mu    sync.Mutex
		total engine.Summary
		errs  []error
	)
	for _, sp := range p.Sinks {
		if !sp.Changes() {
			continue
		}
		es := sinks[sp.Name]
		if es == nil {
			errs = append(errs, fmt.Errorf("the plan has a sink %q that the configuration does not", sp.Name))
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			sum, err := eng.ApplySink(ctx, es, sp, a.maxBatches)
			mu.Lock()
			defer mu.Unlock()
			total.Batches += sum.Batches
			total.Records += sum.Records
			total.Files += sum.Files
			total.Bytes += sum.Bytes
			if err != nil {
				errs = append(errs, fmt.Errorf("sink %q: %w", sp.Name, err))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	rate := float64(total.Records) / max(elapsed.Seconds(), 1e-9)
	if len(errs) > 0 {
		for _, err := range errs {
			msg := err.Error()
			if errors.Is(err, context.Canceled) {
				msg += "\n\n  The apply was interrupted. The batch in flight stays logged in the state; the next apply finishes it exactly once."
			} else {
				msg += "\n\n  Nothing committed is lost: the batch in flight stays logged in the state, and the next apply finishes it exactly once after the cause is fixed."
			}
			fmt.Fprintf(c.Stderr, "\nError: %s\n", msg)
		}
		fmt.Fprintf(c.Stdout, "\nApply failed after %s batches, %s records, %s files, %s in %.1fs.\n",
			render.Count(total.Batches), render.Count(total.Records), render.Count(total.Files), render.Bytes(total.Bytes), elapsed.Seconds())
		return ExitError
	}
	fmt.Fprintf(c.Stdout, "\nApply complete! %s batches, %s records, %s files, %s written in %.2fs (%s records/s).\n",
		render.Count(total.Batches), render.Count(total.Records), render.Count(total.Files), render.Bytes(total.Bytes), elapsed.Seconds(), render.Count(int64(rate)))
	return ExitOK
}
