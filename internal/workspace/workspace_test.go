package workspace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/all"
	"github.com/streamctl/streamctl/providers/generate"
	"github.com/streamctl/streamctl/providers/mem"
	"github.com/streamctl/streamctl/state"
)

// memConfig is the body of the tests' `destination "mem" "NAME"`.
type memConfig struct {
	Bucket string `hcl:"bucket"`
}

// countedConfig is the body of the tests' `source "counted" "NAME"`: a
// generate source that counts its snapshots.
type countedConfig struct {
	Partitions int   `hcl:"partitions"`
	Records    int64 `hcl:"records"`
}

type countedSource struct {
	*generate.Source
	snapshots, closes *atomic.Int64
}

func (s countedSource) Close() error {
	s.closes.Add(1)
	return nil
}

func (s countedSource) Snapshot(ctx context.Context) (providers.Snapshot, error) {
	s.snapshots.Add(1)
	return s.Source.Snapshot(ctx)
}

// fixture is a configuration directory loaded with the built-in kinds plus
// an in-memory destination and a counting source.
type fixture struct {
	t         *testing.T
	dir       string
	kinds     providers.Kinds
	buckets   map[string]*mem.Storage
	snapshots atomic.Int64
	closes    atomic.Int64
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{t: t, dir: t.TempDir(), buckets: map[string]*mem.Storage{}}
	memKind := &providers.Kind{
		Type: "mem",
		Destination: &providers.DestinationRole{
			Body: providers.Body{Config: memConfig{}},
			Open: func(_ context.Context, cfg any) (providers.Storage, error) {
				return f.bucket(cfg.(*memConfig).Bucket), nil
			},
			Location: func(cfg any) string { return "mem://" + cfg.(*memConfig).Bucket },
		},
	}
	countedKind := &providers.Kind{
		Type: "counted",
		Source: &providers.SourceRole{
			Body: providers.Body{Config: countedConfig{}},
			Open: func(_ context.Context, cfg any) (providers.Source, error) {
				c := cfg.(*countedConfig)
				return countedSource{&generate.Source{Partitions: c.Partitions, RecordsPerPartition: c.Records}, &f.snapshots, &f.closes}, nil
			},
		},
	}
	brokenKind := &providers.Kind{
		Type: "broken",
		Source: &providers.SourceRole{
			Body: providers.Body{Config: struct{}{}},
			Open: func(context.Context, any) (providers.Source, error) {
				return nil, errors.New("connection refused")
			},
		},
	}
	f.kinds = append(all.Kinds(), memKind, countedKind, brokenKind)
	return f
}

func (f *fixture) bucket(name string) *mem.Storage {
	if f.buckets[name] == nil {
		f.buckets[name] = mem.New(name)
	}
	return f.buckets[name]
}

// load writes src as the configuration and loads it.
func (f *fixture) load(src string) *config.Config {
	f.t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, "main.stream.hcl"), []byte(src), 0o644); err != nil {
		f.t.Fatal(err)
	}
	cfg, diags := config.Load(f.dir, f.kinds, config.Inputs{})
	if diags.HasErrors() {
		f.t.Fatalf("load: %s", diags.Error())
	}
	return cfg
}

func (f *fixture) open(cfg *config.Config) *Workspace {
	f.t.Helper()
	w, err := Open(context.Background(), cfg, f.kinds)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(w.Close)
	return w
}

func (f *fixture) state(cfg *config.Config) *state.Manager {
	f.t.Helper()
	ctx := context.Background()
	b, err := StateBackend(ctx, cfg, f.kinds)
	if err != nil {
		f.t.Fatal(err)
	}
	mgr, err := state.Load(ctx, b, "test")
	if err != nil {
		f.t.Fatal(err)
	}
	return mgr
}

func (f *fixture) plan(w *Workspace, st *state.State, o PlanOptions) *planner.Plan {
	f.t.Helper()
	p, errs := w.Plan(context.Background(), st, o)
	if len(errs) > 0 {
		f.t.Fatalf("plan: %v", errs)
	}
	return p
}

// apply runs p to the end.
func (f *fixture) apply(w *Workspace, mgr *state.Manager, p *planner.Plan) []SinkResult {
	f.t.Helper()
	eng := &engine.Engine{State: mgr, Version: "test", Now: time.Now}
	results, errs := w.Apply(context.Background(), eng, p, 2)
	if len(errs) > 0 {
		f.t.Fatalf("apply: %v", errs)
	}
	return results
}

// memSink is the configuration of sink name reading src into one in-memory
// destination "lake" on bucket: the sink most tests declare, spelled once.
func memSink(name, src, bucket string) string {
	return fmt.Sprintf(`sink %q {
  source = %s
  destination "mem" "lake" {
    bucket = %q
  }
}
`, name, src, bucket)
}

const ordersConfig = `
source "generate" "orders" {
  partitions            = 2
  records_per_partition = 10
}
sink "orders" {
  source = source.generate.orders
  batch {
    max_records = 7
  }
  destination "mem" "lake" {
    bucket = "lake"
  }
  destination "mem" "copy" {
    bucket = "copy"
  }
}
`

func TestPlanApplyPlan(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(ordersConfig)
	w := f.open(cfg)
	if got := w.DestinationNames("orders"); strings.Join(got, ",") != "lake,copy" {
		t.Fatalf("destinations = %v", got)
	}
	mgr := f.state(cfg)
	p := f.plan(w, mgr.State(), PlanOptions{Refresh: true, Version: "1.2.3"})
	if p.StreamctlVersion != "1.2.3" || p.ConfigHash != cfg.Hash || p.FormatVersion != planner.FormatVersion {
		t.Errorf("plan header = %q %q %d", p.StreamctlVersion, p.ConfigHash, p.FormatVersion)
	}
	if len(p.Sinks) != 1 || p.Sinks[0].Name != "orders" {
		t.Fatalf("sinks = %+v", p.Sinks)
	}
	if n := p.Sinks[0].New; n.Records != 20 || n.Batches != 3 {
		t.Errorf("new = %d records in %d batches, want 20 in 3", n.Records, n.Batches)
	}
	if b, r := Totals(p, 0); b != 3 || r != 20 {
		t.Errorf("Totals = %d, %d", b, r)
	}
	if b, r := Totals(p, 1); b != 1 || r != 7 {
		t.Errorf("Totals(1) = %d, %d", b, r)
	}
	if l := Lag(p.Sinks[0], nil); l != 20 {
		t.Errorf("Lag before apply = %d", l)
	}

	results := f.apply(w, mgr, p)
	if len(results) != 1 || results[0].Sink != "orders" || results[0].Summary.Records != 20 || results[0].Err != nil {
		t.Fatalf("results = %+v", results)
	}
	if len(f.bucket("lake").Keys()) == 0 || len(f.bucket("copy").Keys()) == 0 {
		t.Error("a destination was not written")
	}
	if l := Lag(p.Sinks[0], mgr.State().Sinks["orders"]); l != 0 {
		t.Errorf("Lag after apply = %d", l)
	}
	again := f.plan(w, mgr.State(), PlanOptions{Refresh: true})
	if again.Changes() {
		t.Errorf("a plan after apply has changes: %+v", again.Sinks[0])
	}
}

func TestPlanMaxBatches(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(ordersConfig)
	p := f.plan(f.open(cfg), f.state(cfg).State(), PlanOptions{MaxBatches: 1})
	if n := p.Sinks[0].New; n.Batches != 1 || n.Deferred != 2 || p.MaxBatches != 1 {
		t.Errorf("new = %+v, max_batches %d", n, p.MaxBatches)
	}
	if d := Deferred(p); d != 2 {
		t.Errorf("Deferred = %d", d)
	}
}

func TestSharedSourceIsSnapshottedOnce(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(`
source "counted" "orders" {
  partitions = 3
  records    = 5
}
` + memSink("a", "source.counted.orders", "a") + memSink("b", "source.counted.orders", "b"))
	p := f.plan(f.open(cfg), f.state(cfg).State(), PlanOptions{})
	if n := f.snapshots.Load(); n != 1 {
		t.Errorf("the shared source was snapshotted %d times", n)
	}
	for _, s := range p.Sinks {
		if s.New.Records != 15 {
			t.Errorf("sink %s: %d new records", s.Name, s.New.Records)
		}
	}
}

// stateWith is a state holding checkpoints of the named sinks.
func stateWith(names ...string) *state.State {
	st := state.New("test")
	for _, n := range names {
		ss := state.NewSink(state.SourceRef{Type: "generate", Name: "old"})
		ss.Destinations["lake"] = &state.Destination{LastBatch: 1}
		ss.Destinations["archive"] = &state.Destination{LastBatch: 1}
		ss.CommittedBatches, ss.CommittedRecords = 2, 14
		st.Sinks[n] = ss
	}
	return st
}

func TestRemovedSinks(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(ordersConfig)
	w := f.open(cfg)
	st := stateWith("gone")

	p := f.plan(w, st, PlanOptions{})
	if len(p.Removed) != 1 {
		t.Fatalf("removed = %+v", p.Removed)
	}
	r := p.Removed[0]
	if r.Name != "gone" || r.Source != "source.generate.old" || r.CommittedBatches != 2 || r.CommittedRecords != 14 || strings.Join(r.Destinations, ",") != "archive,lake" {
		t.Errorf("removed = %+v", r)
	}
	if p := f.plan(w, st, PlanOptions{Targeted: true}); len(p.Removed) != 0 {
		t.Errorf("a targeted plan reports removed sinks: %+v", p.Removed)
	}
}

func TestMovedSinkIsNotRemoved(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(ordersConfig + `
moved {
  from = sink.legacy
  to   = sink.orders
}
`)
	st := stateWith("legacy")
	st.Sinks["legacy"].Source = state.SourceRef{Type: "generate", Name: "orders", Identity: "generate:seed=0,payload_bytes=0"}
	p := f.plan(f.open(cfg), st, PlanOptions{})
	if len(p.Removed) != 0 {
		t.Errorf("the moved sink is reported removed: %+v", p.Removed)
	}
	if p.Sinks[0].MovedFrom != "legacy" {
		t.Errorf("moved_from = %q", p.Sinks[0].MovedFrom)
	}
}

func TestBackfillFalse(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(strings.Replace(ordersConfig, `bucket = "copy"`, "bucket   = \"copy\"\n    backfill = false", 1))
	if got := noBackfill(cfg.Sink("orders")); !got["copy"] || got["lake"] {
		t.Errorf("noBackfill = %v", got)
	}
}

func TestVerifySaved(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(ordersConfig)
	w := f.open(cfg)
	mgr := f.state(cfg)
	saved := f.plan(w, mgr.State(), PlanOptions{Refresh: true})
	if errs := w.VerifySaved(context.Background(), saved, mgr.State()); len(errs) > 0 {
		t.Fatalf("an untouched plan is refused: %v", errs)
	}

	// Encoded and decoded, as a plan file is.
	data, err := planner.Encode(saved)
	if err != nil {
		t.Fatal(err)
	}
	edited, err := planner.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	edited.Sinks[0].New.Records++
	if errs := w.VerifySaved(context.Background(), edited, mgr.State()); len(errs) != 1 || !strings.Contains(errs[0].Error(), `sink "orders"`) {
		t.Errorf("an edited plan: %v", errs)
	}

	// Planned from a snapshot the source has since grown past.
	grown := f.load(strings.Replace(ordersConfig, "= 10", "= 12", 1))
	if errs := f.open(grown).VerifySaved(context.Background(), saved, mgr.State()); len(errs) > 0 {
		t.Errorf("a plan is re-planned from its own snapshot, not the source's: %v", errs)
	}
}

func TestCheckSaved(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(ordersConfig)
	w := f.open(cfg)
	mgr := f.state(cfg)
	p := f.plan(w, mgr.State(), PlanOptions{Refresh: true})
	Stamp(p, mgr, cfg, time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC))
	if p.Lineage != "" || !p.Created.Equal(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Errorf("stamp of a plan made before the state existed: lineage %q, created %v", p.Lineage, p.Created)
	}
	if err := CheckSaved(p, mgr, cfg.Hash); err != nil {
		t.Fatalf("a fresh plan is refused: %v", err)
	}
	if err := CheckSaved(p, mgr, "other"); err == nil || !strings.Contains(err.Error(), "configuration") {
		t.Errorf("another configuration: %v", err)
	}

	f.apply(w, mgr, p)
	if err := CheckSaved(p, mgr, cfg.Hash); err == nil || !strings.Contains(err.Error(), "before the state existed") {
		t.Errorf("after an apply: %v", err)
	}
	next := f.plan(w, mgr.State(), PlanOptions{})
	Stamp(next, mgr, cfg, time.Now())
	if next.Lineage != mgr.State().Lineage || next.Serial != mgr.State().Serial {
		t.Errorf("stamp: lineage %q serial %d", next.Lineage, next.Serial)
	}
	if err := CheckSaved(next, mgr, cfg.Hash); err != nil {
		t.Errorf("a current plan is refused: %v", err)
	}
	next.Serial--
	if err := CheckSaved(next, mgr, cfg.Hash); err == nil || !strings.Contains(err.Error(), "serial") {
		t.Errorf("an older serial: %v", err)
	}
	next.Lineage = "another"
	if err := CheckSaved(next, mgr, cfg.Hash); err == nil || !strings.Contains(err.Error(), "lineage") {
		t.Errorf("another lineage: %v", err)
	}
}

func TestSavedValues(t *testing.T) {
	f := newFixture(t)
	if err := os.WriteFile(filepath.Join(f.dir, "vars.stream.hcl"), []byte(`
variable "records" {
  type    = number
  default = 10
}
variable "token" {
  default   = "s3cret"
  sensitive = true
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := f.load(strings.Replace(ordersConfig, "= 10", "= var.records", 1))
	mgr := f.state(cfg)
	p := f.plan(f.open(cfg), mgr.State(), PlanOptions{})
	Stamp(p, mgr, cfg, time.Now())
	if _, ok := p.Variables["token"]; ok {
		t.Error("a sensitive variable is saved in the plan")
	}
	values, err := SavedValues(p)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := values["records"]; !ok || v.Value.AsBigFloat().String() != "10" {
		t.Errorf("saved records = %#v", values["records"])
	}
}

func TestSelectAndSavedSinks(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(`
source "generate" "orders" {
  records_per_partition = 1
}
` + memSink("a", "source.generate.orders", "a") + memSink("b", "source.generate.orders", "b") + memSink("c", "source.generate.orders", "c"))
	names := func(c *config.Config) string {
		var n []string
		for _, s := range c.Sinks {
			n = append(n, s.Name)
		}
		return strings.Join(n, ",")
	}
	for _, tc := range []struct {
		targets, excludes map[string]bool
		want              string
	}{
		{nil, nil, "a,b,c"},
		{map[string]bool{"c": true, "a": true}, nil, "a,c"},
		{nil, map[string]bool{"b": true}, "a,c"},
		{map[string]bool{"b": true}, map[string]bool{"b": true}, ""},
	} {
		if got := names(SelectSinks(cfg, tc.targets, tc.excludes)); got != tc.want {
			t.Errorf("SelectSinks(%v, %v) = %q, want %q", tc.targets, tc.excludes, got, tc.want)
		}
	}
	if names(cfg) != "a,b,c" {
		t.Error("SelectSinks changed its argument")
	}

	saved := &planner.Plan{Sinks: []*planner.SinkPlan{{Name: "c"}, {Name: "a"}}}
	c, err := SavedSinks(cfg, saved)
	if err != nil || names(c) != "c,a" {
		t.Errorf("SavedSinks = %v, %v", c, err)
	}
	saved.Sinks = append(saved.Sinks, &planner.SinkPlan{Name: "gone"})
	if _, err := SavedSinks(cfg, saved); err == nil || !strings.Contains(err.Error(), `"gone"`) {
		t.Errorf("a plan with a sink the configuration lacks: %v", err)
	}
}

func TestStatus(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(ordersConfig)
	st := state.New("test")
	if got := Status(context.Background(), cfg, f.kinds, st); len(got) != 1 || got[0].Lag != 20 || got[0].State != nil || len(got[0].Behind) != 0 {
		t.Fatalf("before the first commit: %+v", got)
	}

	ss := state.NewSink(state.SourceRef{Type: "generate", Name: "orders"})
	ss.Offsets = map[string]int64{"0": 4, "1": 12, "7": 3, "8": 0}
	st.Sinks["orders"] = ss
	got := Status(context.Background(), cfg, f.kinds, st)
	if len(got) != 1 {
		t.Fatalf("statuses = %+v", got)
	}
	s := got[0]
	if s.Name != "orders" || s.Source != "generate.orders" || s.State != ss || s.Err != nil {
		t.Errorf("status = %+v", s)
	}
	if s.Lag != 6 || len(s.Partitions) != 2 || s.Partitions[0] != (PartitionLag{ID: "0", Committed: 4, Latest: 10, Lag: 6}) || s.Partitions[1].Lag != 0 {
		t.Errorf("lag %d, partitions %+v", s.Lag, s.Partitions)
	}
	// Partition 1 ends below its committed offset; 7 is gone from the
	// source; 8 is gone too, but was never read from.
	if len(s.Behind) != 2 ||
		s.Behind[0].Partition != "1" || s.Behind[0].Committed != 12 || s.Behind[0].Latest == nil || *s.Behind[0].Latest != 10 ||
		s.Behind[1] != (Behind{Partition: "7", Committed: 3, Vanished: true}) {
		t.Errorf("behind = %+v", s.Behind)
	}
}

func TestStatusOfAnUnreadableSource(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(`
source "broken" "orders" {}
` + memSink("orders", "source.broken.orders", "lake"))
	got := Status(context.Background(), cfg, f.kinds, state.New("test"))
	if len(got) != 1 || got[0].Err == nil || got[0].Err.Error() != "connection refused" {
		t.Errorf("statuses = %+v", got)
	}
}

func TestApplyReportsAPlannedSinkTheWorkspaceLacks(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(ordersConfig)
	w := f.open(cfg)
	mgr := f.state(cfg)
	p := f.plan(w, mgr.State(), PlanOptions{})
	ghost := *p.Sinks[0]
	ghost.Name = "ghost"
	p.Sinks = append(p.Sinks, &ghost)
	eng := &engine.Engine{State: mgr, Version: "test", Now: time.Now}
	results, errs := w.Apply(context.Background(), eng, p, 1)
	if len(results) != 1 || results[0].Err != nil {
		t.Errorf("results = %+v", results)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `sink "ghost"`) {
		t.Errorf("errs = %v", errs)
	}
}

func TestOpenFailureClosesTheSources(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(`
source "counted" "orders" {
  partitions = 1
  records    = 1
}
` + memSink("orders", "source.counted.orders", "lake"))
	f.kinds = append(providers.Kinds{{
		Type: "mem",
		Destination: &providers.DestinationRole{
			Open: func(context.Context, any) (providers.Storage, error) { return nil, os.ErrPermission },
		},
	}}, f.kinds...)
	if _, err := Open(context.Background(), cfg, f.kinds); err == nil || err.Error() != "open destination lake of sink orders: permission denied" {
		t.Errorf("Open = %v", err)
	}
	if n := f.closes.Load(); n != 1 {
		t.Errorf("the source was closed %d times", n)
	}
}
