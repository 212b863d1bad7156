package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// PlanOptions tune Plan.
type PlanOptions struct {
	// Refresh lists the destinations, so that leftovers are planned for
	// cleanup and committed manifests are adopted.
	Refresh bool
	// MaxBatches caps the new batches per sink; 0 plans them all.
	MaxBatches int64
	// Targeted is set when only some sinks were selected: the sinks left out
	// are not reported as removed.
	Targeted bool
	// Snapshots replace the sources' snapshots, by sink: a saved plan is
	// re-planned from the snapshots it records.
	Snapshots map[string]providers.Snapshot
	// Version is streamctl's, recorded in the plan.
	Version string
	// Replace are committed batches to write again, by sink (-replace).
	Replace map[string][]int64
	// Layouts are the layout hashes a saved plan writes each sink with: a
	// sink whose columns come from the schema registry takes the columns
	// that gave the hash, though newer versions were registered since.
	Layouts map[string]string
	// Parallelism bounds the sinks whose source and destinations are
	// observed at once (plan -parallelism); 0 is no bound.
	Parallelism int
	// Provisional is set when st was read without the sinks' locks, and
	// each sink is planned again once claimed (planner.SinkInput).
	Provisional bool
	// Now is the clock compact_after is measured with against the commit
	// times of the manifests; nil: time.Now. Test builds shift it by
	// STREAMCTL_TEST_CLOCK_SKEW.
	Now func() time.Time
}

// Plan observes the sources and destinations and plans every sink against
// st. Sinks are observed in parallel, a source shared by several sinks is
// read once, and every sink's error is returned.
func (w *Workspace) Plan(ctx context.Context, st *state.State, o PlanOptions) (*planner.Plan, []error) {
	plans := make([]*planner.SinkPlan, len(w.Sinks))
	errs := make([]error, len(w.Sinks))
	snapshots := map[string]*snapshotOnce{}
	for _, s := range w.Config.Sinks {
		if snapshots[s.Source] == nil {
			snapshots[s.Source] = &snapshotOnce{src: w.sources[s.Source]}
		}
	}
	movedFrom := map[string]string{}
	for _, s := range w.Config.Sinks {
		if st.Sinks[s.Name] != nil {
			continue
		}
		for _, old := range w.Config.MovedFrom(s.Name) {
			if st.Sinks[old] != nil {
				movedFrom[s.Name] = old
				break
			}
		}
	}
	changes := shardChanges(w.Config, st)
	var wg sync.WaitGroup
	var sem chan struct{}
	if o.Parallelism > 0 {
		sem = make(chan struct{}, o.Parallelism)
	}
	for i, es := range w.Sinks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer crash.Report()
			if sem != nil {
				sem <- struct{}{}
				defer func() { <-sem }()
			}
			cs := w.Config.Sinks[i]
			change := changes[cs.Declared()]
			if change != nil && change.err != nil {
				if cs.Shard == nil || cs.Shard.Index == 0 {
					errs[i] = change.err // once per sink, not per shard
				}
				return
			}
			snap, err := snapshots[cs.Source].get(ctx)
			full := snap
			// A shard plans only its partitions; a saved plan recorded them.
			snap = planner.ShardSnapshot(snap, es.Shard)
			if saved, ok := o.Snapshots[es.Name]; ok {
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
			if change != nil {
				// Planned as apply leaves it once the change is made.
				sinkState = withFormerLayout(change.derived[es.Name], st, change.former)
			}
			resumeOnly, err := w.resolveSchema(ctx, cs, es, sinkState, o.Layouts[es.Name])
			if err != nil {
				errs[i] = fmt.Errorf("sink %q: %w", es.Name, err)
				return
			}
			var observed map[string]*planner.Observation
			if o.Refresh {
				at := *es
				at.MovedFrom = from
				if observed, err = engine.Observe(ctx, &at, sinkState); err != nil {
					errs[i] = fmt.Errorf("sink %q: %w", es.Name, err)
					return
				}
			}
			dropKnownSinks(w.Config, st, observed)
			undo := interruptedMove(w.Config, st, es, sinkState, from, observed)
			var renamed map[string]string
			if r, ok := w.sources[cs.Source].(partitionRenamer); ok {
				if sinkState != nil {
					renamed = r.RenamedPartitions(snap, stateKeys(sinkState))
				}
				if es.Shard != nil {
					checkpoint := func(index int) *state.Sink {
						name := state.ShardName(es.Shard.Sink, index)
						if change != nil {
							return change.derived[name]
						}
						return st.Sinks[name]
					}
					if errs[i] = renamedAcrossShards(r, full, es.Shard, checkpoint); errs[i] != nil {
						return
					}
				}
			}
			names := make([]string, len(es.Destinations))
			for k, d := range es.Destinations {
				names[k] = d.Name
			}
			plans[i], errs[i] = planner.PlanSink(planner.SinkInput{
				Name:           es.Name,
				Shard:          es.Shard,
				SourceType:     es.SourceType,
				SourceName:     es.SourceName,
				MaxRecords:     cs.MaxRecords,
				MaxBatches:     o.MaxBatches,
				ResumeOnly:     resumeOnly,
				OnDataLoss:     cs.OnDataLoss,
				StartAtLatest:  StartsAtLatest(w.Config.Sources[cs.Source], w.kinds),
				RouteBy:        cs.RouteBy,
				NoBackfill:     noBackfill(cs),
				Destinations:   names,
				Layout:         es.LayoutHash,
				LayoutSettings: es.LayoutSettings,
				Columns:        planColumns(es.Layout.Columns),
				Lineage:        st.Lineage,
				MovedFrom:      from,
				UndoMove:       undo,
				Renamed:        renamed,
				Replace:        o.Replace[es.Name],
				State:          sinkState,
				Snapshot:       snap,
				Observed:       observed,
				Provisional:    o.Provisional,
			})
			// A sink being moved is compacted by the next apply, under its
			// new name: the apply moves it first.
			if errs[i] == nil && from == "" {
				now := time.Now
				if o.Now != nil {
					now = o.Now
				}
				plans[i].Compactions, errs[i] = engine.PlanCompactions(ctx, es, sinkState, es.Maintenance, now().Add(fault.ClockSkew()))
				if errs[i] == nil && es.Maintenance != nil {
					plans[i].Expiries, errs[i] = engine.PlanExpiries(ctx, es, es.Maintenance.ExpireSnapshotsAfter, now().Add(fault.ClockSkew()))
				}
			}
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
		StreamctlVersion: o.Version,
		ConfigHash:       w.Config.Hash,
		MaxBatches:       o.MaxBatches,
		Sinks:            plans,
	}
	replaced := map[string]bool{}
	for _, name := range sortedKeys(changes) {
		c := changes[name]
		if c.err != nil {
			continue
		}
		for _, f := range c.former {
			replaced[f] = true
		}
		p.Reshards = append(p.Reshards, planner.Reshard{Sink: name, From: c.r.From, To: c.r.To, InProgress: c.inProgress, Partitions: len(c.r.Offsets), Moves: c.r.Moves(name)})
	}
	if !o.Targeted {
		p.Removed = removedSinks(w.Config, st, movedFrom, replaced)
		if o.Refresh {
			for k := range p.Removed {
				if err := w.supersede(ctx, st, &p.Removed[k]); err != nil {
					failed = append(failed, err)
				}
			}
		}
	}
	return p, failed
}

// withFormerLayout gives a checkpoint a change of shards derives the
// layout the checkpoints it replaces were written with, which the change
// does not carry: a change of layout made with it is planned as one.
func withFormerLayout(derived *state.Sink, st *state.State, former []string) *state.Sink {
	if derived == nil || derived.Layout != nil {
		return derived
	}
	for _, name := range former {
		if f := st.Sinks[name]; f != nil && f.Layout != nil {
			c := *derived
			c.Layout = f.Layout
			return &c
		}
	}
	return derived
}

// partitionRenamer is a source whose partitions an older streamctl named
// otherwise (providers/files): it maps those names to the current ones.
type partitionRenamer interface {
	RenamedPartitions(snap providers.Snapshot, keys []string) map[string]string
}

// renamedAcrossShards refuses a sharded sink whose checkpoints hold a
// partition under a name an older streamctl gave when its current name
// belongs to another shard: its committed offset would stay in the former
// shard's checkpoint while the other shard read the partition from its
// start. Only the shards concerned, shard among them, are refused.
func renamedAcrossShards(r partitionRenamer, full providers.Snapshot, shard *planner.Shard, checkpoint func(int) *state.Sink) error {
	for index := range shard.Count {
		cp := checkpoint(index)
		if cp == nil {
			continue
		}
		renamed := r.RenamedPartitions(full, stateKeys(cp))
		for _, from := range sortedKeys(renamed) {
			to := renamed[from]
			owner := planner.ShardOf(to, shard.Count)
			if owner == index || index != shard.Index && owner != shard.Index {
				continue
			}
			return &planner.Error{Sink: shard.Sink, Summary: "a partition's name changed to one of another shard",
				Detail: fmt.Sprintf("shard %d's checkpoint holds partition %s as an older streamctl named it; the source now names it %s, which belongs to shard %d, so its committed offset cannot carry over shard by shard. Set shards = 1 and apply: the shards' checkpoints are merged into one and its partitions take their current names; then set shards = %d again and apply.", index, from, to, owner, shard.Count)}
		}
	}
	return nil
}

// stateKeys lists the partition names a checkpoint holds: its committed
// offsets, and the ranges of its batch in flight and of its history.
func stateKeys(st *state.Sink) []string {
	seen := map[string]bool{}
	var out []string
	add := func(ranges []state.Range) {
		for _, r := range ranges {
			if !seen[r.Partition] {
				seen[r.Partition] = true
				out = append(out, r.Partition)
			}
		}
	}
	for part := range st.Offsets {
		add([]state.Range{{Partition: part}})
	}
	if st.InFlight != nil {
		add(st.InFlight.Ranges)
	}
	for _, h := range st.History {
		add(h.Ranges)
	}
	return out
}

// shardChange is what a sink's checkpoints need before its batches: split
// again into the number of shards it declares (r, and the checkpoints it
// derives), or nothing it can be planned with (err).
type shardChange struct {
	r          *state.Reshard
	inProgress bool
	former     []string // the checkpoints the change replaces
	derived    map[string]*state.Sink
	err        error
}

// shardChanges finds, by declared sink, the sinks whose checkpoints in st
// are split into another number of shards than they declare, or whose
// change of shards a run that died left in progress.
func shardChanges(cfg *config.Config, st *state.State) map[string]*shardChange {
	// The numbers of shards each sink's checkpoints have, in one pass: a
	// state may hold thousands of sinks.
	counts := map[string]map[int]bool{}
	for name, ss := range st.Sinks {
		sink, count := name, 1
		if ss.Shard != nil {
			sink, count = ss.Shard.Sink, ss.Shard.Count
		}
		if counts[sink] == nil {
			counts[sink] = map[int]bool{}
		}
		counts[sink][count] = true
	}
	out := map[string]*shardChange{}
	for _, s := range cfg.Sinks {
		name := s.Declared()
		if out[name] != nil {
			continue
		}
		want := max(s.Shards, 1)
		r := st.Reshards[name]
		if r == nil && (len(counts[name]) == 0 || len(counts[name]) == 1 && counts[name][want]) {
			continue
		}
		former, _ := st.Checkpoints(name)
		if r != nil {
			c := &shardChange{r: r, inProgress: true, former: former, derived: r.Shards(name)}
			if r.To != want {
				c.err = &planner.Error{Sink: name, Summary: "a change of its number of shards is in progress",
					Detail: fmt.Sprintf("a run that died was changing the sink from %d to %d shards, and the configuration now says shards = %d. Set shards = %d and apply to finish that change; then change shards again.", r.From, r.To, want, r.To)}
			}
			out[name] = c
			continue
		}
		r, err := state.NewReshard(st, name, want)
		if err == nil && r.NextBatch > 0 {
			// A destination added now would be backfilled from the
			// checkpoints' history, which the new ones do not carry.
			for _, d := range s.Destinations {
				if !slices.Contains(r.Destinations, d.Name) {
					err = fmt.Errorf("destination %s is new, and is backfilled from the history of the checkpoints the change replaces: apply it with shards = %d first, then change shards", d.Name, r.From)
					break
				}
			}
		}
		if err != nil {
			out[name] = &shardChange{err: &planner.Error{Sink: name, Summary: "its number of shards cannot change now", Detail: err.Error() + "."}}
			continue
		}
		out[name] = &shardChange{r: r, former: former, derived: r.Shards(name)}
	}
	return out
}

// Resharding reports whether applying cfg over st changes a sink's number
// of shards: a change of the whole state, under the run-wide lock.
func Resharding(cfg *config.Config, st *state.State) bool {
	return len(shardChanges(cfg, st)) > 0 || len(st.Reshards) > 0
}

// interruptedMove returns the name a move killed before its state commit
// switched sink's destinations to, when the state still holds sink under
// its own name and nothing else, neither the state nor the configuration,
// goes by the name the owner records give: applying the configuration as it
// was before the move (with or without the reverse moved block) then undoes
// it. "" when there is nothing to undo.
func interruptedMove(cfg *config.Config, st *state.State, es *engine.Sink, sinkState *state.Sink, from string, observed map[string]*planner.Observation) string {
	if es.Shard != nil || from != "" || sinkState == nil || st.Sinks[es.Name] == nil {
		return ""
	}
	for _, name := range slices.Sorted(maps.Keys(observed)) {
		o := observed[name].Owner
		if o == nil || o.Lineage != st.Lineage || o.Sink == es.Name {
			continue
		}
		if st.Sinks[o.Sink] == nil && cfg.Sink(o.Sink) == nil {
			return o.Sink
		}
	}
	return ""
}

// dropKnownSinks keeps, of the folders an interrupted move seems to have
// left, those of names that neither the state nor the configuration gives a
// sink: a sink the state still holds is shown as removed, with how to clean
// up, rather than having its manifests removed.
func dropKnownSinks(cfg *config.Config, st *state.State, observed map[string]*planner.Observation) {
	for _, obs := range observed {
		obs.MoveLeftovers = slices.DeleteFunc(obs.MoveLeftovers, func(name string) bool {
			return st.Sinks[name] != nil || cfg.Sink(name) != nil
		})
	}
}

// supersede finds whether a configured sink took a removed sink's place
// after a move between them was interrupted: it owns destinations that still
// hold the removed sink's manifests.
func (w *Workspace) supersede(ctx context.Context, st *state.State, r *planner.RemovedSink) error {
	if st.Sinks[r.Name] == nil || strings.Contains(r.Name, "/") { // a shard is never moved alone
		return nil
	}
	for _, es := range w.Sinks {
		if es.Shard != nil || st.Sinks[es.Name] == nil {
			continue
		}
		left, err := engine.LeftoverManifests(ctx, es, st.Lineage, r.Name)
		if err != nil {
			return fmt.Errorf("sink %q: look for the manifests of sink %q: %w", es.Name, r.Name, err)
		}
		if len(left) > 0 {
			r.SupersededBy, r.Leftovers = es.Name, left
			return nil
		}
	}
	return nil
}

// removedSinks lists the sinks the state holds that the configuration does
// not declare (nor renames with a moved block).
func removedSinks(cfg *config.Config, st *state.State, movedFrom map[string]string, replaced map[string]bool) []planner.RemovedSink {
	moving := map[string]bool{}
	for _, from := range movedFrom {
		moving[from] = true
	}
	var out []planner.RemovedSink
	for _, name := range st.SinkNames() {
		if cfg.Sink(name) != nil || moving[name] || replaced[name] {
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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

// Stamp records what a plan was made from: the time, the state's lineage
// and serial (when the state exists) and the variables' values, sensitive
// ones excepted (see config.SavedValues).
func Stamp(p *planner.Plan, mgr *state.Manager, cfg *config.Config, now time.Time) {
	p.Created = now.UTC().Truncate(time.Second)
	if mgr.Exists() {
		p.Lineage = mgr.State().Lineage
		p.Serial = mgr.State().Serial
	}
	p.Variables = map[string]json.RawMessage{}
	for name, v := range cfg.Saved() {
		data, err := v.MarshalJSON()
		if err != nil {
			continue // not representable: apply then needs it given again
		}
		p.Variables[name] = data
	}
}

// Totals counts the batches and records an apply of p will run, with at
// most maxBatches batches per sink (0: all).
func Totals(p *planner.Plan, maxBatches int64) (batches, records int64) {
	for _, s := range p.Sinks {
		var n, r int64
		if s.Resume != nil {
			n++
			r += s.Resume.Records
		}
		for _, b := range s.Adopt {
			n++
			r += b.Records
		}
		for _, b := range s.Repairs {
			n++
			r += b.Records
		}
		if maxBatches == 0 {
			n += s.New.Batches
			r += s.New.Records
		} else {
			s.New.Each(func(b planner.Batch) bool {
				if n >= maxBatches {
					return false
				}
				n++
				r += b.Records
				return true
			})
		}
		batches += n
		records += r
	}
	return batches, records
}

// Deferred counts the pending batches a plan left out under its MaxBatches.
func Deferred(p *planner.Plan) int64 {
	var n int64
	for _, s := range p.Sinks {
		n += s.New.Deferred
	}
	return n
}

// planColumns are the columns a plan shows.
func planColumns(cols []format.Column) []planner.Column {
	var out []planner.Column
	for _, c := range cols {
		out = append(out, planner.Column{Name: c.Name, Type: c.Type, Nullable: c.IsNullable()})
	}
	return out
}
