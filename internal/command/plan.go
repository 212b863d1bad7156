package command

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/internal/workspace"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// PlanCommand shows what apply would do.
//
// plan reads the state without taking the lock: a state is only ever replaced
// whole (rename, or a compare-and-swap put), so plan always sees one complete
// version, and it writes nothing; a lock it took would make a worker starting
// meanwhile skip its sinks. With the lock (the default) it looks at the
// lock first and waits up to -lock-timeout for a running apply to finish,
// so that the plan starts from what that apply commits; -lock=false does not
// look. A plan saved with -out records the state's lineage and serial; apply
// refuses it if any apply ran in between.
type PlanCommand struct{ *Meta }

type planArgs struct {
	configFlags
	targetFlags
	out              string
	detailedExitcode bool
	refresh          bool
	verbose          bool
	json             bool
	jsonOut          string
	markdown         bool
	markdownOut      string
	input            bool
	maxBatches       int64
	replace          []string
	lock             bool
	lockTimeout      time.Duration
	parallelism      int
}

func (c *PlanCommand) Synopsis() string { return "Show the batches apply would run" }

func (c *PlanCommand) Help() string {
	return strings.TrimSpace(`
Usage: streamctl [-chdir=DIR] plan [options]

  Reads the state, asks each source for its latest offsets and lists each
  destination's manifests and leftovers (and reads its Iceberg table through
  the catalog, creating nothing), then shows what apply would do: the batch in
  flight to resume, the new batches with their offset ranges, the tables to
  create or evolve, and the orphan temporaries and files to remove. Nothing is
  written.

Options:

  -out=FILE           Save the plan to FILE; "streamctl apply FILE" runs exactly
                      it, and refuses it once the state or configuration changed.
  -detailed-exitcode  Exit 0 when nothing is pending, 1 on error, 2 when there
                      are changes.
  -json               Print the plan as JSON lines (docs/json-output.md).
  -json-out=FILE      Also write the JSON lines to FILE, beside the rendering
                      on stdout: one plan, read by people and machines.
  -markdown           Print the plan as Markdown for a pull-request comment.
  -markdown-out=FILE  Also write the Markdown rendering to FILE.
  -refresh=false      Do not list the destinations nor read their tables
                      (faster; no cleanup planned).
  -verbose            Show every partition range of every batch.
  -max-batches=N      Plan at most N new batches per sink; apply of the saved
                      plan runs exactly those, and a later plan the rest.
  -input=false        Never ask for input (plan asks for none; accepted for
                      scripts written for Terraform).
  -replace='sink.NAME[batch N]'
                      Write committed batch N again from the source into every
                      destination that wrote it, where verify found its files
                      missing or changed: the same ranges give the same files,
                      which apply checks against the batch's manifests before
                      it puts them in place. Repeatable.
  -lock=false         Do not look at the state lock. plan never takes it (the
                      state is always read whole), but by default it waits
                      for a running apply to finish, up to -lock-timeout, and
                      warns when one still holds it.
  -lock-timeout=DURATION
                      Wait this long for a running apply. Default 0s.
  -parallelism=N      Observe up to N sinks' sources and destinations at
                      once. Default 10.
`+targetFlagsHelp+"\n"+configFlagsHelp) + "\n"
}

func (c *PlanCommand) flags(a *planArgs) *flag.FlagSet {
	fs := targetedFlags("plan", &a.configFlags, &a.targetFlags)
	fs.StringVar(&a.out, "out", "", "")
	fs.BoolVar(&a.detailedExitcode, "detailed-exitcode", false, "")
	fs.BoolVar(&a.refresh, "refresh", true, "")
	fs.BoolVar(&a.verbose, "verbose", false, "")
	fs.BoolVar(&a.json, "json", false, "")
	fs.StringVar(&a.jsonOut, "json-out", "", "")
	fs.BoolVar(&a.markdown, "markdown", false, "")
	fs.StringVar(&a.markdownOut, "markdown-out", "", "")
	fs.BoolVar(&a.input, "input", true, "")
	fs.Int64Var(&a.maxBatches, "max-batches", 0, "")
	fs.Var(stringsFlag{&a.replace}, "replace", "")
	fs.BoolVar(&a.lock, "lock", true, "")
	fs.DurationVar(&a.lockTimeout, "lock-timeout", 0, "")
	fs.IntVar(&a.parallelism, "parallelism", 10, "")
	return fs
}

// FlagSet lists plan's flags (for completion and checks of scripts).
func (c *PlanCommand) FlagSet() *flag.FlagSet { return c.flags(&planArgs{}) }

func (c *PlanCommand) parse(args []string) (*planArgs, error) {
	a := &planArgs{}
	fs := c.flags(a)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q; plan takes only options", fs.Arg(0))
	}
	if a.maxBatches < 0 {
		return nil, fmt.Errorf("-max-batches must not be negative")
	}
	if a.parallelism < 1 {
		return nil, fmt.Errorf("-parallelism must be at least 1")
	}
	if a.lockTimeout < 0 {
		return nil, fmt.Errorf("-lock-timeout must not be negative")
	}
	if a.json && a.markdown {
		return nil, fmt.Errorf("-json and -markdown are two renderings of stdout; pick one, and write the other with -json-out or -markdown-out")
	}
	return a, nil
}

func (c *PlanCommand) Run(args []string) int {
	a, err := c.parse(args)
	if err != nil {
		return c.errorf("%v\n\n%s", err, c.Help())
	}
	v := c.newPlanView(a.json, a.markdown, a.noColor)
	cfg, ok := c.loadTargeted(&a.configFlags, &a.targetFlags, v)
	if !ok {
		return ExitError
	}
	if a.targetFlags.active() {
		v.warn(targetedSummary, render.TargetedText)
	}
	ctx, stop := signalContext()
	defer stop()

	if a.lock {
		if code, ok := c.awaitApplies(ctx, cfg, v, a.lockTimeout); !ok {
			return code
		}
	} else {
		v.warn("The state lock is not looked at", "-lock=false: if an apply is running, this plan may show batches it is committing, and a plan saved with -out is then refused as stale.")
	}
	mgr, err := c.readState(ctx, cfg)
	if err != nil {
		return failf(v, "%v", err)
	}
	ws, err := c.openWorkspace(ctx, cfg)
	if err != nil {
		return failf(v, "%v", err)
	}
	defer ws.Close()
	replace, err := replaceAddresses(a.replace, ws)
	if err != nil {
		return failf(v, "%v", err)
	}
	// A saved plan is verified against a plan made at its creation time,
	// to the second: the compactions due are those due then.
	created := c.now().UTC().Truncate(time.Second)
	p, errs := ws.Plan(ctx, mgr.State(), workspace.PlanOptions{Refresh: a.refresh, MaxBatches: a.maxBatches, Targeted: a.targetFlags.active(), Version: Version, Replace: replace, Parallelism: a.parallelism,
		Now: func() time.Time { return created }})
	if len(errs) > 0 {
		return v.planErrors(errs)
	}
	workspace.Stamp(p, mgr, cfg, created)
	p.NoRefresh = !a.refresh
	p.Targeted = a.targetFlags.active()
	v.plan(p, a.verbose)
	if a.jsonOut != "" {
		if err := c.writeOutput(a.jsonOut, func(w io.Writer) { writePlanJSON(w, p, c.now) }); err != nil {
			return failf(v, "write -json-out: %v", err)
		}
	}
	if a.markdownOut != "" {
		if err := c.writeOutput(a.markdownOut, func(w io.Writer) { writePlanMarkdown(w, p, a.verbose) }); err != nil {
			return failf(v, "write -markdown-out: %v", err)
		}
	}
	if a.out != "" {
		if err := writePlanFile(c.abs(a.out), p); err != nil {
			return failf(v, "save the plan: %v", err)
		}
		v.saved(a.out)
	}
	if a.detailedExitcode && p.Changes() {
		return ExitChanges
	}
	return ExitOK
}

// awaitApplies waits up to timeout while an apply holds the state's lock, or
// the lock of one of cfg's sinks on a remote state, and warns when one still
// does: the plan is then made from the state as last committed. It takes no
// lock. ok is false when it failed, with the exit code.
func (c *PlanCommand) awaitApplies(ctx context.Context, cfg *config.Config, v ui, timeout time.Duration) (code int, ok bool) {
	backend, err := c.stateBackend(ctx, cfg)
	if err != nil {
		return failf(v, "%v", err), false
	}
	// live leaves out a remote lock whose holder stopped refreshing it
	// longer than a lease ago, by this machine's clock: a run that died,
	// which nobody needs to wait for. (The store's clock, which a take-over
	// goes by, would cost plan a write.) A local lock is only reported
	// while its holder lives.
	live := func(h *state.LockInfo) *state.LockInfo {
		if h != nil && !h.Heartbeat.IsZero() && time.Since(h.Heartbeat) > state.Lease {
			return nil
		}
		return h
	}
	holder := func() (*state.LockInfo, string, error) {
		h, err := backend.LockInfo(ctx)
		if err != nil || live(h) != nil {
			return h, "", err
		}
		sb, ok := backend.(state.ShardedBackend)
		if !ok {
			return nil, "", nil
		}
		for _, s := range cfg.Sinks {
			if h, err := sb.SinkLock(s.Name).LockInfo(ctx); err != nil || live(h) != nil {
				return h, s.Name, err
			}
		}
		return nil, "", nil
	}
	deadline := time.Now().Add(timeout)
	for {
		h, sink, err := holder()
		if err != nil {
			return failf(v, "read the lock of %s: %v", backend.Describe(), err), false
		}
		if h == nil {
			return ExitOK, true
		}
		if time.Now().After(deadline) {
			what := "The state"
			if sink != "" {
				what = fmt.Sprintf("Sink %q", sink)
			}
			v.warn("The state is locked by a running "+h.Operation, fmt.Sprintf("%s is locked by %s (%s, pid %d, since %s). This plan is made from the state as last committed: the batches it shows may be committed by that run meanwhile, and a plan saved with -out is then refused as stale. Wait with -lock-timeout=DURATION, or see it with streamctl lock.",
				what, h.Operation, h.Who, h.PID, h.Created.UTC().Format(time.RFC3339)))
			return ExitOK, true
		}
		select {
		case <-ctx.Done():
			return failf(v, "plan cancelled while waiting for the state lock"), false
		case <-time.After(min(500*time.Millisecond, time.Until(deadline)+time.Millisecond)):
		}
	}
}

// writeOutput writes a rendering to the file at path (relative to -chdir)
// atomically, with sensitive values masked as on stdout.
func (m *Meta) writeOutput(path string, render func(io.Writer)) error {
	var buf bytes.Buffer
	render(&redactor{w: &buf, secrets: m.secrets})
	return writeFileAtomic(m.abs(path), buf.Bytes(), 0o644)
}

// writeFileAtomic writes a temporary file beside path and renames it into
// place, so that readers (node_exporter, CI steps) never see half a file.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(perm); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func writePlanFile(path string, p *planner.Plan) error {
	data, err := planner.Encode(p)
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(data, '\n'), 0o600)
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

// signalContext is cancelled on SIGINT or SIGTERM; see signals.go.
func signalContext() (context.Context, func()) {
	return notifyContext(context.Background())
}

// replaceAddress is -replace's argument: sink.NAME[batch N], or
// sink.NAME[N].
var replaceAddress = regexp.MustCompile(`^sink\.([^\[\]]+)\[(?:batch )?([0-9]+)\]$`)

// replaceAddresses reads -replace's arguments into batches by sink, and
// refuses one that names no sink of ws.
func replaceAddresses(args []string, ws *workspace.Workspace) (map[string][]int64, error) {
	if len(args) == 0 {
		return nil, nil
	}
	sinks := map[string]bool{}
	sharded := map[string]bool{}
	for _, s := range ws.Sinks {
		sinks[s.Name] = true
		if s.Shard != nil {
			sharded[s.Shard.Sink] = true
		}
	}
	out := map[string][]int64{}
	for _, arg := range args {
		m := replaceAddress.FindStringSubmatch(arg)
		if m == nil {
			return nil, fmt.Errorf("-replace=%s: not a batch address; write -replace='sink.NAME[batch N]'", arg)
		}
		id, err := strconv.ParseInt(m[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("-replace=%s: batch %s is not a batch number", arg, m[2])
		}
		switch {
		case sharded[m[1]]:
			return nil, fmt.Errorf("-replace=%s: sink %s has shards, each with its own batches: name the shard, e.g. -replace='sink.%s/shard-0[batch %d]' (streamctl state list names them)", arg, m[1], m[1], id)
		case !sinks[m[1]]:
			return nil, fmt.Errorf("-replace=%s: the configuration has no sink %q (or -target leaves it out)", arg, m[1])
		}
		if !slices.Contains(out[m[1]], id) {
			out[m[1]] = append(out[m[1]], id)
		}
	}
	return out, nil
}
