package engine

import (
	"context"
	"fmt"
	"slices"

	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// Observe lists what each destination of a sink holds: its manifests and its
// temporaries, with one listing of each folder per destination. st is the
// sink's checkpoint (nil for a new sink). Indexes are read only for the
// batches the planner can ask about (the state's history onwards), and
// manifests at or after the next batch are read, so that the planner can check
// whether they continue the state.
func Observe(ctx context.Context, sink *Sink, st *state.Sink) (map[string]*planner.Observation, error) {
	var from, next int64
	if st != nil {
		from, next = st.NextBatch, st.NextBatch
		if len(st.History) > 0 {
			from = min(from, st.History[0].ID)
		}
		if st.InFlight != nil {
			from = min(from, st.InFlight.ID)
		}
	}
	out := map[string]*planner.Observation{}
	for _, d := range sink.Destinations {
		obs, err := observe(ctx, sink, d.Storage, from, next)
		if err != nil {
			return nil, fmt.Errorf("observe destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
		}
		obs.Location = d.Storage.Describe()
		owner, _, err := readOwner(ctx, d.Storage)
		if err != nil {
			return nil, fmt.Errorf("observe destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
		}
		if owner != nil {
			id := owner.identity()
			obs.Owner = &id
			if sink.Shard == nil && owner.Sink == sink.Name {
				if obs.MoveLeftovers, err = moveLeftovers(ctx, d.Storage, sink.Name); err != nil {
					return nil, fmt.Errorf("observe destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
				}
			}
		} else if obs.ForeignSinks, err = foreignSinks(ctx, d.Storage, sink.ownerName()); err != nil {
			return nil, fmt.Errorf("observe destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
		}
		if err := observeTable(ctx, sink, d, st, obs); err != nil {
			return nil, fmt.Errorf("observe destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
		}
		if err := observeForeign(ctx, sink, d, st, obs); err != nil {
			return nil, fmt.Errorf("observe destination %s (%s): %w", d.Name, d.Storage.Describe(), err)
		}
		out[d.Name] = obs
	}
	return out, nil
}

func observe(ctx context.Context, es *Sink, s providers.Storage, from, next int64) (*planner.Observation, error) {
	sink := es.storedName()
	obs := &planner.Observation{}
	ahead := func(m *Manifest) {
		if m.Batch < next {
			return
		}
		if obs.Ahead == nil {
			obs.Ahead = map[int64][]state.Range{}
			obs.AheadSource = map[int64]string{}
			obs.AheadLineage = map[int64]string{}
		}
		obs.AheadLineage[m.Batch] = m.Lineage
		obs.Ahead[m.Batch] = m.Ranges
		obs.AheadSource[m.Batch] = m.Source
	}
	c, err := listCatalog(ctx, s, sink)
	if err != nil {
		return nil, err
	}
	obs.Manifests = c.manifests
	for _, first := range c.indexesFrom(from) {
		ix, err := readIndex(ctx, s, sink, first)
		if err != nil {
			return nil, err
		}
		for _, m := range ix.Manifests {
			obs.Manifests = append(obs.Manifests, m.Batch)
			ahead(m)
		}
	}
	slices.Sort(obs.Manifests)
	obs.Manifests = slices.Compact(obs.Manifests)
	for _, id := range c.manifests {
		if id < next {
			continue
		}
		m, err := readManifest(ctx, s, sink, id)
		if err != nil {
			continue // the planner reports it as unreadable
		}
		ahead(m)
	}

	seen := map[int64]bool{}
	tmpRoot := es.temporaryRoot()
	err = s.List(ctx, tmpRoot, func(info providers.ObjectInfo) error {
		if n, ok := parseBatchKey(info.Key[len(tmpRoot):], false); ok && !seen[n] {
			seen[n] = true
			obs.Temporaries = append(obs.Temporaries, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Uploads staged on their final keys by a run that died before
	// publishing them are a batch's leftovers as well.
	if l := s.Features().StagedLister; l != nil {
		err = l.ListStaged(ctx, "", func(u providers.StagedUpload) error {
			shard, n, ok := pipeline.FileBatch(u.Key)
			if !ok || shard != es.fileShard() {
				return nil
			}
			if !seen[n] {
				seen[n] = true
				obs.Temporaries = append(obs.Temporaries, n)
			}
			if obs.StagedUploads == nil {
				obs.StagedUploads = map[int64]int{}
			}
			obs.StagedUploads[n]++
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list staged uploads: %w", err)
		}
	}
	return obs, nil
}
