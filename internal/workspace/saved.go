package workspace

import (
	"context"
	"fmt"
	"strings"
	"time"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// SavedValues are the variable values a saved plan was made with: the
// configuration is loaded with them to apply it.
func SavedValues(p *planner.Plan) (config.SavedValues, error) {
	out := config.SavedValues{}
	for name, raw := range p.Variables {
		var v ctyjson.SimpleJSONValue
		if err := v.UnmarshalJSON(raw); err != nil {
			return nil, fmt.Errorf("variable %q: %v", name, err)
		}
		out[name] = v
	}
	return out, nil
}

// staleAdvice ends every refusal of a stale plan with what to do: where
// other runs commit (a schedule, workers), a plan saved for later goes stale
// at their next commit. Planning and applying in one job makes that rare,
// not impossible, so the advice that works includes planning again.
const staleAdvice = "Nothing was written. Make a new plan (streamctl plan -out=FILE) and apply that file. Where other runs commit to this state (a schedule, workers), plan and apply in one job, one right after the other, and plan again when the apply finds the plan stale, as examples/ci does."

// StalePlanError refuses a saved plan that no longer matches the state or
// the configuration. Reason says what changed, as a sentence; a view that
// titles the refusal "Saved plan is stale" shows Detail under it.
type StalePlanError struct{ Reason string }

func (e *StalePlanError) Error() string {
	return "saved plan is stale: " + strings.ToLower(e.Reason[:1]) + e.Reason[1:] + " " + staleAdvice
}

// Detail is the refusal without its title: what changed, then what to do.
func (e *StalePlanError) Detail() string { return e.Reason + " " + staleAdvice }

// CheckSaved refuses a saved plan that no longer matches the state or the
// configuration: another state, an apply since, or another configuration.
func CheckSaved(p *planner.Plan, mgr *state.Manager, configHash string) error {
	st := mgr.State()
	var reason string
	switch {
	case p.Lineage == "" && mgr.Exists():
		reason = "It was made before the state existed, and an apply has run since."
	case p.Lineage != "" && p.Lineage != st.Lineage:
		reason = fmt.Sprintf("It was made for state lineage %s, but the state has lineage %s (another state).", p.Lineage, st.Lineage)
	case p.Lineage != "" && p.Serial != st.Serial:
		reason = fmt.Sprintf("It was made from state serial %d, and the state is now at serial %d (an apply ran since).", p.Serial, st.Serial)
	case p.ConfigHash != configHash:
		reason = "The configuration or its variables changed since it was made."
	default:
		return nil
	}
	return &StalePlanError{Reason: reason}
}

// VerifySaved re-plans from st, the configuration and the source snapshots
// a saved plan records, and refuses the plan unless it is exactly what the
// planner gives: a plan file edited by hand or damaged must not run.
func (w *Workspace) VerifySaved(ctx context.Context, saved *planner.Plan, st *state.State) []error {
	snaps := map[string]providers.Snapshot{}
	replace := map[string][]int64{}
	layouts := map[string]string{}
	for _, s := range saved.Sinks {
		snaps[s.Name] = s.Snapshot
		layouts[s.Name] = s.Layout
		for _, b := range s.Repairs {
			if b.Replace {
				replace[s.Name] = append(replace[s.Name], b.ID)
			}
		}
	}
	// The compactions due are those due when the plan was made.
	created := saved.Created
	fresh, errs := w.Plan(ctx, st, PlanOptions{Refresh: !saved.NoRefresh, MaxBatches: saved.MaxBatches, Targeted: true, Snapshots: snaps, Replace: replace, Layouts: layouts,
		Now: func() time.Time { return created }})
	if len(errs) > 0 {
		return errs
	}
	if len(fresh.Sinks) != len(saved.Sinks) {
		return []error{fmt.Errorf("the saved plan covers %d sinks, the configuration %d", len(saved.Sinks), len(fresh.Sinks))}
	}
	for i, s := range saved.Sinks {
		f := fresh.Sinks[i]
		if s.Name != f.Name {
			return []error{fmt.Errorf("the saved plan has sink %q where the configuration has %q", s.Name, f.Name)}
		}
		if err := planner.Verify(s, f); err != nil {
			errs = append(errs, fmt.Errorf("sink %q: %v", s.Name, err))
		}
	}
	return errs
}

// SavedSinks narrows the configuration to the sinks a saved plan covers: a
// plan made for some sinks only applies to those.
func SavedSinks(cfg *config.Config, p *planner.Plan) (*config.Config, error) {
	c := *cfg
	c.Sinks = nil
	for _, s := range p.Sinks {
		cs := cfg.Sink(s.Name)
		if cs == nil {
			return nil, fmt.Errorf("the saved plan has a sink %q that the configuration does not", s.Name)
		}
		c.Sinks = append(c.Sinks, cs)
	}
	return &c, nil
}

// SelectSinks narrows the configuration to the sinks named in targets (all,
// when targets is empty) that are not named in excludes. The result may have
// no sinks; cfg is not changed.
func SelectSinks(cfg *config.Config, targets, excludes map[string]bool) *config.Config {
	c := *cfg
	c.Sinks = nil
	for _, s := range cfg.Sinks {
		if (len(targets) == 0 || targets[s.Name]) && !excludes[s.Name] {
			c.Sinks = append(c.Sinks, s)
		}
	}
	return &c
}

// Growth is how far a sink's source grew past the snapshot a saved plan
// records: records the plan does not write, left for the next plan.
type Growth struct {
	Sink   string
	Source string // the source's key, e.g. "files.clicks"
	// Records is the total of Partitions.
	Records    int64
	Partitions []PartitionGrowth
}

// PartitionGrowth is one partition's part of a Growth.
type PartitionGrowth struct {
	ID      string
	Records int64
	New     bool // not in the plan's snapshot at all
}

// SourceGrowth snapshots the sources of a saved plan's sinks again and
// returns, per sink, the records they gained since the plan was made. A
// saved plan writes exactly the ranges it lists, whatever came since; this
// is for saying so. A shard's plan records only its partitions: a new
// partition of its source is not counted for it.
func (w *Workspace) SourceGrowth(ctx context.Context, saved *planner.Plan) ([]Growth, error) {
	now := map[string]providers.Snapshot{}
	var out []Growth
	for _, sp := range saved.Sinks {
		name := sp.Name
		if sp.Shard != nil {
			name = sp.Shard.Sink
		}
		cs := w.Config.Sink(name)
		if cs == nil || w.sources[cs.Source] == nil {
			continue
		}
		snap, ok := now[cs.Source]
		if !ok {
			var err error
			if snap, err = w.sources[cs.Source].Snapshot(ctx); err != nil {
				return nil, fmt.Errorf("sink %q: read source.%s: %w", sp.Name, cs.Source, err)
			}
			now[cs.Source] = snap
		}
		was := map[string]int64{}
		for _, p := range sp.Snapshot.Partitions {
			was[p.ID] = p.Latest
		}
		g := Growth{Sink: sp.Name, Source: cs.Source}
		for _, p := range snap.Partitions {
			latest, known := was[p.ID]
			switch {
			case known && p.Latest > latest:
				g.Partitions = append(g.Partitions, PartitionGrowth{ID: p.ID, Records: p.Latest - latest})
			case !known && sp.Shard == nil && p.Latest > p.Earliest:
				g.Partitions = append(g.Partitions, PartitionGrowth{ID: p.ID, Records: p.Latest - p.Earliest, New: true})
			default:
				continue
			}
			g.Records += g.Partitions[len(g.Partitions)-1].Records
		}
		if g.Records > 0 {
			out = append(out, g)
		}
	}
	return out, nil
}
