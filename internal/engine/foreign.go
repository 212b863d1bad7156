package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// observeForeign lists the data files of a destination without a table
// that sit at the names of batches the state has neither committed nor in
// flight: file names are chosen per batch (pipeline.FileName), and
// streamctl puts a file at its final name only while its batch is in flight,
// so such a file was put there by something else, and the next batch would
// write over it. The planner refuses them unless a manifest lists the
// batch. A destination with a table has its own listing (observeTable).
func observeForeign(ctx context.Context, sink *Sink, d Destination, st *state.Sink, obs *planner.Observation) error {
	if d.Table != nil {
		return nil
	}
	var next int64
	inFlight := int64(-1)
	if st != nil {
		next = st.NextBatch
		if st.InFlight != nil {
			inFlight = st.InFlight.ID
		}
	}
	err := d.Storage.List(ctx, "", func(info providers.ObjectInfo) error {
		if strings.HasPrefix(info.Key, MetadataDir+"/") || strings.HasPrefix(info.Key, TemporaryDir+"/") {
			return nil
		}
		shard, n, ok := pipeline.FileBatch(info.Key)
		if !ok || shard != sink.fileShard() || n < next || n == inFlight {
			return nil
		}
		if obs.Foreign == nil {
			obs.Foreign = map[int64][]string{}
		}
		obs.Foreign[n] = append(obs.Foreign[n], info.Key)
		return nil
	})
	if err != nil {
		return fmt.Errorf("list the data files: %w", err)
	}
	return nil
}
