// Package workspace is the application between the commands and the engine:
// it opens a loaded configuration (its state backend, sources and
// destinations, through the provider kinds it is given), plans its sinks,
// checks saved plans, applies plans and measures how far sinks are behind.
// The commands parse arguments, call it and hand the results to their views;
// nothing here parses flags or renders output.
package workspace

import (
	"context"
	"fmt"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// StateBackend builds the configured state backend from its kind.
func StateBackend(ctx context.Context, cfg *config.Config, kinds providers.Kinds) (state.Backend, error) {
	return StateBackendWrapped(ctx, cfg, kinds, nil)
}

// StateBackendWrapped is StateBackend with a remote state's store wrapped
// by wrap (the debug log of store requests), when wrap is not nil. A local
// state is a file, not a store: it is not wrapped.
func StateBackendWrapped(ctx context.Context, cfg *config.Config, kinds providers.Kinds, wrap func(providers.Storage) providers.Storage) (state.Backend, error) {
	k := kinds.Lookup(cfg.State.Type)
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
	if wrap != nil {
		store = wrap(store)
	}
	return state.NewRemote(store, cfg.State.Key), nil
}

// OpenSource connects a declared source. The configuration was loaded with
// the same kinds, and the loader accepts only sources of those kinds, so the
// kind is there.
func OpenSource(ctx context.Context, decl *config.Source, kinds providers.Kinds) (providers.Source, error) {
	return kinds.Lookup(decl.Type).Source.Open(ctx, decl.Config)
}

// StartsAtLatest reports whether new sinks of a source start at its latest
// offsets rather than its earliest.
func StartsAtLatest(decl *config.Source, kinds providers.Kinds) bool {
	k := kinds.Lookup(decl.Type)
	return k.Source.StartsAtLatest != nil && k.Source.StartsAtLatest(decl.Config)
}

// Layout is the pipeline's layout of a sink, as config built it.
func Layout(s *config.Sink) pipeline.Layout {
	l := s.Layout
	return pipeline.Layout{
		Format:          l.Format,
		MaxFileRecords:  l.MaxFileRecords,
		MaxFileSize:     l.MaxFileSize,
		Columns:         l.Columns,
		Compression:     l.Compression,
		PartitionBy:     l.PartitionBy,
		RouteBy:         l.RouteBy,
		RowGroupRecords: l.RowGroupRecords,
		OnInvalid:       l.OnInvalid,
	}
}

// Workspace is a configuration opened for planning and applying: the
// sources and destinations of its sinks connected.
type Workspace struct {
	// Config is the configuration opened, narrowed to the selected sinks.
	Config *config.Config
	// Sinks are the engine's sinks, one per Config.Sinks and in its order.
	Sinks []*engine.Sink

	kinds   providers.Kinds
	sources map[string]providers.Source // by the source's key
	tables  []table
}

// Open connects the sources and destinations of cfg's sinks, each source
// once however many sinks read it. On error nothing stays open.
func Open(ctx context.Context, cfg *config.Config, kinds providers.Kinds) (*Workspace, error) {
	w := &Workspace{Config: cfg, kinds: kinds, sources: map[string]providers.Source{}}
	for _, s := range cfg.Sinks {
		src, ok := w.sources[s.Source]
		if !ok {
			decl := cfg.Sources[s.Source]
			var err error
			if src, err = OpenSource(ctx, decl, kinds); err != nil {
				w.Close()
				return nil, fmt.Errorf("open source.%s: %w", s.Source, err)
			}
			w.sources[s.Source] = src
		}
		decl := cfg.Sources[s.Source]
		es := &engine.Sink{
			Name:           s.Name,
			SourceType:     decl.Type,
			SourceName:     decl.Name,
			Source:         src,
			Layout:         Layout(s),
			LayoutHash:     s.Layout.Hash(),
			LayoutSettings: s.Layout.Settings(),
			History:        s.History,
		}
		if s.Shard != nil {
			es.Shard = &planner.Shard{Sink: s.Shard.Sink, Index: s.Shard.Index, Count: s.Shard.Count}
		}
		if m := s.Maintenance; m != nil {
			es.Maintenance = &engine.CompactionPolicy{TargetSize: m.TargetFileSize, After: m.CompactAfter, ExpireSnapshotsAfter: m.ExpireSnapshotsAfter}
		}
		for _, d := range s.Destinations {
			store, err := kinds.Lookup(d.Type).Destination.Open(ctx, d.Config)
			if err != nil {
				w.Close()
				return nil, fmt.Errorf("open destination %s of sink %s: %w", d.Name, s.Name, err)
			}
			ed := engine.Destination{Name: d.Name, Storage: store}
			if d.Table != nil {
				tb, err := newTable(s, d, kinds, store)
				if err != nil {
					w.Close()
					return nil, fmt.Errorf("open destination %s of sink %s: %w", d.Name, s.Name, err)
				}
				ed.Table = tb
				w.tables = append(w.tables, tb)
			}
			es.Destinations = append(es.Destinations, ed)
		}
		w.Sinks = append(w.Sinks, es)
	}
	return w, nil
}

// WrapStorages replaces each destination's storage with wrap's, e.g. one
// that logs its requests (providers/logged). The wrapper must keep the
// storage's optional capabilities.
func (w *Workspace) WrapStorages(wrap func(providers.Storage) providers.Storage) {
	for _, s := range w.Sinks {
		for i := range s.Destinations {
			s.Destinations[i].Storage = wrap(s.Destinations[i].Storage)
			// A table that writes through the destination's storage takes
			// the wrapped one too.
			if t, ok := s.Destinations[i].Table.(interface{ setStorage(providers.Storage) }); ok {
				t.setStorage(s.Destinations[i].Storage)
			}
		}
	}
}

// Close closes the sources and the tables' catalogs.
func (w *Workspace) Close() {
	for _, s := range w.sources {
		s.Close()
	}
	for _, t := range w.tables {
		t.Close()
	}
}

// Only is the workspace reduced to the sink named name (sharing its opened
// sources and destinations, which the caller must not close through it), to
// plan that sink alone.
func (w *Workspace) Only(name string) *Workspace {
	c := *w
	c.Config = SelectSinks(w.Config, map[string]bool{name: true}, nil)
	c.Sinks = nil
	for _, s := range w.Sinks {
		if s.Name == name {
			c.Sinks = append(c.Sinks, s)
		}
	}
	c.tables = nil
	return &c
}

// Sink returns the opened sink named name, or nil.
func (w *Workspace) Sink(name string) *engine.Sink {
	for _, s := range w.Sinks {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// DestinationNames lists the destinations of the sink named name, in
// declaration order; nil for a sink not opened.
func (w *Workspace) DestinationNames(name string) []string {
	s := w.Sink(name)
	if s == nil {
		return nil
	}
	names := make([]string, len(s.Destinations))
	for i, d := range s.Destinations {
		names[i] = d.Name
	}
	return names
}
