package command

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/all"
	"github.com/streamctl/streamctl/state"
)

// varFlags collects -var and -var-file in command-line order: later ones win.
type varFlags struct {
	args *[]config.VarArg
	file bool
}

func (v varFlags) String() string { return "" }
func (v varFlags) Set(s string) error {
	*v.args = append(*v.args, config.VarArg{File: v.file, Value: s})
	return nil
}

// configFlags are the flags of every command that reads the configuration.
type configFlags struct {
	vars    []config.VarArg
	noColor bool
	// saved are the variable values of a saved plan being applied.
	saved config.SavedValues
}

func (f *configFlags) register(fs *flag.FlagSet) {
	fs.Var(varFlags{args: &f.vars}, "var", "Set a variable: -var 'NAME=VALUE'. Repeatable.")
	fs.Var(varFlags{args: &f.vars, file: true}, "var-file", "Read variables from an HCL file. Repeatable.")
	fs.BoolVar(&f.noColor, "no-color", false, "Disable colour in the output.")
}

const configFlagsHelp = `  -var 'NAME=VALUE'   Set a variable. Repeatable; later values win.
  -var-file=FILE      Read variables from FILE. Repeatable.
  -no-color           Disable colour in the output.`

// loadConfig reads the configuration and prints its diagnostics, errors and
// warnings alike, with snippets.
func (m *Meta) loadConfig(f *configFlags) (*config.Config, bool) {
	return m.loadConfigView(f, m.newView(false, f.noColor))
}

// loadConfigView reads the configuration and reports its diagnostics to v.
// From then on the values of sensitive variables are masked in all output.
func (m *Meta) loadConfigView(f *configFlags, v *view) (*config.Config, bool) {
	cfg, diags := m.readConfig(f)
	v.diags(cfg, diags)
	return cfg, !diags.HasErrors()
}

// readConfig reads the configuration and registers its sensitive values for
// masking.
func (m *Meta) readConfig(f *configFlags) (*config.Config, hcl.Diagnostics) {
	vars := make([]config.VarArg, len(f.vars))
	for i, v := range f.vars {
		if v.File {
			v.Value = m.abs(v.Value)
		}
		vars[i] = v
	}
	cfg, diags := config.Load(m.configDir(), all.Kinds(), config.Inputs{Args: vars, Environ: m.Environ, Saved: f.saved})
	m.secrets.add(sensitiveValues(cfg, vars, m.Environ)...)
	return cfg, diags
}

// targetFlags are -target and -exclude: which sinks plan and apply cover.
type targetFlags struct {
	targets, excludes []string
}

type stringsFlag struct{ list *[]string }

func (s stringsFlag) String() string { return "" }
func (s stringsFlag) Set(v string) error {
	*s.list = append(*s.list, v)
	return nil
}

func (t *targetFlags) register(fs *flag.FlagSet) {
	fs.Var(stringsFlag{&t.targets}, "target", "Only this sink: -target=sink.NAME. Repeatable.")
	fs.Var(stringsFlag{&t.excludes}, "exclude", "All sinks but this one: -exclude=sink.NAME. Repeatable.")
}

const targetFlagsHelp = `  -target=sink.NAME  Only plan or apply this sink. Repeatable.
  -exclude=sink.NAME  Leave this sink out. Repeatable.`

func (t *targetFlags) active() bool { return len(t.targets)+len(t.excludes) > 0 }

// selectSinks returns cfg with only the sinks -target and -exclude select.
// An address that names no sink is an error.
func (t *targetFlags) selectSinks(cfg *config.Config) (*config.Config, error) {
	if !t.active() {
		return cfg, nil
	}
	parse := func(flagName string, addrs []string) (map[string]bool, error) {
		out := map[string]bool{}
		for _, a := range addrs {
			name, ok := strings.CutPrefix(a, "sink.")
			if !ok || name == "" {
				return nil, fmt.Errorf("-%s=%s: an address is sink.NAME, e.g. -%s=sink.orders", flagName, a, flagName)
			}
			if cfg.Sink(name) == nil {
				var names []string
				for _, s := range cfg.Sinks {
					names = append(names, "sink."+s.Name)
				}
				return nil, fmt.Errorf("-%s=%s: the configuration has no sink %q; it has %s", flagName, a, name, strings.Join(names, ", "))
			}
			out[name] = true
		}
		return out, nil
	}
	targets, err := parse("target", t.targets)
	if err != nil {
		return nil, err
	}
	excludes, err := parse("exclude", t.excludes)
	if err != nil {
		return nil, err
	}
	c := *cfg
	c.Sinks = nil
	for _, s := range cfg.Sinks {
		if (len(targets) == 0 || targets[s.Name]) && !excludes[s.Name] {
			c.Sinks = append(c.Sinks, s)
		}
	}
	if len(c.Sinks) == 0 {
		return nil, fmt.Errorf("-target and -exclude leave no sink to plan")
	}
	return &c, nil
}

func (m *Meta) printDiags(cfg *config.Config, diags hcl.Diagnostics, noColor bool) {
	var files map[string]*hcl.File
	if cfg != nil {
		files = cfg.Files
	}
	w := hcl.NewDiagnosticTextWriter(m.Stderr, files, 100, m.color(noColor))
	w.WriteDiagnostics(diags)
	if n := countErrors(diags); n > 1 {
		fmt.Fprintf(m.Stderr, "%d errors in the configuration.\n", n)
	}
}

func countErrors(diags hcl.Diagnostics) int {
	n := 0
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			n++
		}
	}
	return n
}

// color reports whether output may be coloured: a terminal, no -no-color and
// no NO_COLOR in the environment.
func (m *Meta) color(noColor bool) bool {
	if noColor || !m.IsTerminal {
		return false
	}
	for _, kv := range m.Environ {
		if k, v, _ := strings.Cut(kv, "="); k == "NO_COLOR" && v != "" {
			return false
		}
	}
	return true
}

// stateBackend builds the configured state backend.
func stateBackend(ctx context.Context, cfg *config.Config) (state.Backend, error) {
	k := all.Kinds().Lookup(cfg.State.Type)
	if k == nil || k.State == nil {
		return nil, fmt.Errorf("unknown state backend %q", cfg.State.Type)
	}
	if k.State.File != nil {
		return state.NewLocal(k.State.File(cfg.State.Config)), nil
	}
	store, err := k.State.Open(ctx, cfg.State.Config)
	if err != nil {
		return nil, fmt.Errorf("open the %s state backend: %w", cfg.State.Type, err)
	}
	return state.NewRemote(store, cfg.State.Key), nil
}

// openSource connects a declared source. The loader accepts only sources of
// the kinds it was given, so the kind is there.
func openSource(ctx context.Context, decl *config.Source) (providers.Source, error) {
	return all.Kinds().Lookup(decl.Type).Source.Open(ctx, decl.Config)
}

// openDestination connects the storage of a declared destination.
func openDestination(ctx context.Context, d *config.Destination) (providers.Storage, error) {
	return all.Kinds().Lookup(d.Type).Destination.Open(ctx, d.Config)
}

// startsAtLatest reports whether a sink's source starts new sinks at the latest
// offsets rather than the earliest.
func startsAtLatest(decl *config.Source) bool {
	k := all.Kinds().Lookup(decl.Type)
	return k.Source.StartsAtLatest != nil && k.Source.StartsAtLatest(decl.Config)
}

// workspace is a configuration opened for planning and applying: its sources
// and destinations connected.
type workspace struct {
	cfg     *config.Config
	sinks   []*engine.Sink
	sources map[string]providers.Source
}

func (w *workspace) Close() {
	for _, s := range w.sources {
		s.Close()
	}
}

// openWorkspace connects the sources and destinations of the selected sinks.
func openWorkspace(ctx context.Context, cfg *config.Config) (*workspace, error) {
	w := &workspace{cfg: cfg, sources: map[string]providers.Source{}}
	for _, s := range cfg.Sinks {
		src, ok := w.sources[s.Source]
		if !ok {
			decl := cfg.Sources[s.Source]
			var err error
			if src, err = openSource(ctx, decl); err != nil {
				w.Close()
				return nil, fmt.Errorf("open source.%s: %w", s.Source, err)
			}
			w.sources[s.Source] = src
		}
		decl := cfg.Sources[s.Source]
		es := &engine.Sink{
			Name:       s.Name,
			SourceType: decl.Type,
			SourceName: decl.Name,
			Source:     src,
			Layout:     layoutOf(s),
			LayoutHash: layoutOf(s).Hash(),
			History:    s.History,
		}
		for _, d := range s.Destinations {
			store, err := openDestination(ctx, d)
			if err != nil {
				w.Close()
				return nil, fmt.Errorf("open destination %s of sink %s: %w", d.Name, s.Name, err)
			}
			es.Destinations = append(es.Destinations, engine.Destination{Name: d.Name, Storage: store})
		}
		w.sinks = append(w.sinks, es)
	}
	return w, nil
}

// planOptions tune makePlan.
type planOptions struct {
	refresh    bool
	maxBatches int64
	// targeted is set under -target or -exclude: sinks left out are not
	// reported as removed.
	targeted bool
	// snapshots replace the sources' snapshots, by sink: a saved plan is
	// re-planned from the snapshot it records.
	snapshots map[string]providers.Snapshot
}

// makePlan observes the sources and destinations and plans every sink. Sinks
// are observed in parallel; every sink's error is reported.
func makePlan(ctx context.Context, w *workspace, st *state.State, o planOptions) (*planner.Plan, []error) {
	plans := make([]*planner.SinkPlan, len(w.sinks))
	errs := make([]error, len(w.sinks))
	snapshots := map[string]*snapshotOnce{}
	for _, s := range w.cfg.Sinks {
		if snapshots[s.Source] == nil {
			snapshots[s.Source] = &snapshotOnce{src: w.sources[s.Source]}
		}
	}
	movedFrom := map[string]string{}
	for _, s := range w.cfg.Sinks {
		if st.Sinks[s.Name] != nil {
			continue
		}
		for _, old := range w.cfg.MovedFrom(s.Name) {
			if st.Sinks[old] != nil {
				movedFrom[s.Name] = old
				break
			}
		}
	}
	var wg sync.WaitGroup
	for i, es := range w.sinks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs := w.cfg.Sinks[i]
			snap, err := snapshots[cs.Source].get(ctx)
			if saved, ok := o.snapshots[es.Name]; ok {
				snap, err = saved, nil
			}
			if err != nil {
				errs[i] = fmt.Errorf("sink %q: read source.%s: %w", es.Name, cs.Source, err)
				return
			}
			from := movedFrom[es.Name]
			sinkState := st.Sinks[es.Name]
			if from != "" {
				sinkState = st.Sinks[from]
			}
			var observed map[string]*planner.Observation
			if o.refresh {
				at := *es
				at.MovedFrom = from
				if observed, err = engine.Observe(ctx, &at, sinkState); err != nil {
					errs[i] = fmt.Errorf("sink %q: %w", es.Name, err)
					return
				}
			}
			names := make([]string, len(es.Destinations))
			for k, d := range es.Destinations {
				names[k] = d.Name
			}
			plans[i], errs[i] = planner.PlanSink(planner.SinkInput{
				Name:          es.Name,
				SourceType:    es.SourceType,
				SourceName:    es.SourceName,
				MaxRecords:    cs.MaxRecords,
				MaxBatches:    o.maxBatches,
				OnDataLoss:    cs.OnDataLoss,
				StartAtLatest: startsAtLatest(w.cfg.Sources[cs.Source]),
				RouteBy:       cs.RouteBy,
				NoBackfill:    noBackfill(cs),
				Destinations:  names,
				Layout:        es.LayoutHash,
				Lineage:       st.Lineage,
				MovedFrom:     from,
				State:         sinkState,
				Snapshot:      snap,
				Observed:      observed,
			})
		}()
	}
	wg.Wait()
	var failed []error
	for _, err := range errs {
		if err != nil {
			failed = append(failed, err)
		}
	}
	p := &planner.Plan{
		FormatVersion:    planner.FormatVersion,
		StreamctlVersion: Version,
		ConfigHash:       w.cfg.Hash,
		MaxBatches:       o.maxBatches,
		Sinks:            plans,
	}
	if !o.targeted {
		p.Removed = removedSinks(w.cfg, st, movedFrom)
	}
	return p, failed
}

// removedSinks lists the sinks the state holds that the configuration does
// not declare (nor renames with a moved block).
func removedSinks(cfg *config.Config, st *state.State, movedFrom map[string]string) []planner.RemovedSink {
	moving := map[string]bool{}
	for _, from := range movedFrom {
		moving[from] = true
	}
	var out []planner.RemovedSink
	for _, name := range st.SinkNames() {
		if cfg.Sink(name) != nil || moving[name] {
			continue
		}
		ss := st.Sinks[name]
		r := planner.RemovedSink{Name: name, Source: "source." + ss.Source.Type + "." + ss.Source.Name, CommittedBatches: ss.CommittedBatches, CommittedRecords: ss.CommittedRecords, Destinations: []string{}}
		for d := range ss.Destinations {
			r.Destinations = append(r.Destinations, d)
		}
		sort.Strings(r.Destinations)
		if ss.InFlight != nil {
			id := ss.InFlight.ID
			r.InFlight = &id
		}
		out = append(out, r)
	}
	return out
}

// snapshotOnce snapshots a source shared by several sinks once.
type snapshotOnce struct {
	src  providers.Source
	once sync.Once
	snap providers.Snapshot
	err  error
}

func (s *snapshotOnce) get(ctx context.Context) (providers.Snapshot, error) {
	s.once.Do(func() { s.snap, s.err = s.src.Snapshot(ctx) })
	return s.snap, s.err
}

func (m *Meta) printErrors(errs []error) {
	for _, err := range errs {
		var pe *planner.Error
		if errors.As(err, &pe) {
			fmt.Fprintf(m.Stderr, "Error: sink %q: %s\n\n  %s\n\n", pe.Sink, pe.Summary, pe.Detail)
			continue
		}
		fmt.Fprintf(m.Stderr, "Error: %v\n\n", err)
	}
}

// noBackfill lists the destinations declared with backfill = false.
func noBackfill(s *config.Sink) map[string]bool {
	out := map[string]bool{}
	for _, d := range s.Destinations {
		if d.NoBackfill {
			out[d.Name] = true
		}
	}
	return out
}
