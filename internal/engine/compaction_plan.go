package engine

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

// When a destination is due a compaction, and what plan shows of it. The
// protocol that carries one out is in compaction.go.

// CompactionPolicy is when and how a sink's folder destinations are
// compacted (the sink's maintenance block).
type CompactionPolicy struct {
	// TargetSize is the size a new file ends at; files smaller than it are
	// small.
	TargetSize int64
	// After is how long after its commit a manifest's files may be
	// rewritten.
	After time.Duration
	// ExpireSnapshotsAfter is how long after their commit the snapshots of
	// the destinations' tables are expired (PlanExpiries); 0: never.
	ExpireSnapshotsAfter time.Duration
}

// PlanCompaction returns the compaction of destination d of sink due at now,
// or nil. It takes the live manifests committed After ago or earlier, with
// the sink's current layout (a batch's as the state's history records it,
// or, older than the history, when the sink never had another), that hold
// a small data file; and plans them when
// some partition folder holds two small files of theirs or more. A
// destination with a table is compacted when its table can commit a
// compaction (TableCompactor). st is the sink's checkpoint.
func PlanCompaction(ctx context.Context, sink *Sink, st *state.Sink, d Destination, p CompactionPolicy, now time.Time) (*state.Compaction, error) {
	if _, ok := d.Table.(TableCompactor); d.Table != nil && !ok || p.TargetSize <= 0 || st == nil {
		return nil, nil
	}
	current := map[int64]bool{} // batches written with the current layout
	for _, b := range st.History {
		if b.Layout == sink.LayoutHash {
			current[b.ID] = true
		}
	}
	// Batches older than the history were written with the current layout
	// too when the sink never had another.
	older := int64(-1)
	if st.Layout != nil && st.Layout.Hash == sink.LayoutHash && len(st.FormerLayouts) == 0 {
		older = st.NextBatch
		if len(st.History) > 0 {
			older = st.History[0].ID
		}
	}
	compactions, err := readCompactions(ctx, d.Storage, sink.storedName())
	if err != nil {
		return nil, fmt.Errorf("read the compactions of %s: %w", d.Name, err)
	}
	// The batches up to the last a compaction holds were compacted then, or
	// could not be (another layout, files large enough), and still cannot:
	// only those after it are read, not a long-lived sink's every index at
	// every plan. (A batch repaired into the destination since, whose
	// manifest was not old enough then, stays as it is.)
	var from int64
	for _, c := range compactions {
		from = max(from, c.LastBatch+1)
	}
	batches, err := ReadManifests(ctx, d.Storage, sink.storedName(), from)
	if err != nil {
		return nil, fmt.Errorf("read the manifests of %s: %w", d.Name, err)
	}
	live := liveOf(batches, compactions)
	var next int64 = 1
	if n := len(compactions); n > 0 {
		next = compactions[n-1].Compaction + 1
	}
	c := &state.Compaction{ID: next, Destination: d.Name, TargetSize: p.TargetSize, Layout: sink.LayoutHash}
	small := map[string]int{} // partition folder → small files of the manifests taken
	for _, m := range live {
		if m.Committed.After(now.Add(-p.After)) {
			continue
		}
		if m.Compaction == 0 && !current[m.FirstBatch] && m.FirstBatch >= older || m.Compaction != 0 && m.Layout != sink.LayoutHash {
			continue
		}
		took := false
		for _, f := range m.Files {
			if isDataFile(f.Path) && f.Size < p.TargetSize {
				small[path.Dir(f.Path)]++
				took = true
			}
		}
		if took {
			c.Replaces = append(c.Replaces, m.Name)
		}
	}
	for _, n := range small {
		if n >= 2 {
			return c, nil
		}
	}
	return nil, nil
}

// isDataFile reports whether a committed file is data (not a reject).
func isDataFile(p string) bool { return !strings.HasPrefix(p, MetadataDir+"/") }

// DescribeCompaction is c as a plan shows it: per partition folder, the
// files rewritten and the new files.
func DescribeCompaction(ctx context.Context, sink *Sink, c *state.Compaction, resume bool) (planner.Compaction, error) {
	pc := planner.Compaction{Destination: c.Destination, ID: c.ID, Replaces: c.Replaces, TargetSize: c.TargetSize, Layout: c.Layout, Resume: resume}
	d := sink.destination(c.Destination)
	if d == nil {
		return pc, fmt.Errorf("compaction %d: the sink has no destination %s", c.ID, c.Destination)
	}
	if _, ok := d.Table.(TableCompactor); ok {
		pc.Table = d.Table.Describe()
	}
	files, err := replacedFiles(ctx, d.Storage, sink.storedName(), c.Replaces)
	if err != nil {
		return pc, fmt.Errorf("compaction %d of %s: %w", c.ID, d.Name, err)
	}
	f, err := pipeline.FileFormat(sink.Layout)
	if err != nil {
		return pc, err
	}
	at := map[string]int{}
	for _, fe := range files {
		if !isDataFile(fe.Path) {
			continue
		}
		dir := path.Dir(fe.Path)
		i, ok := at[dir]
		if !ok {
			i = len(pc.Folders)
			at[dir] = i
			pc.Folders = append(pc.Folders, planner.CompactionFolder{Folder: dir,
				Into: path.Join(dir, compactedFileName(sink.fileShard(), c.ID, 0, f.Ext()))})
		}
		pc.Folders[i].Files = append(pc.Folders[i].Files, fe.Path)
		pc.Folders[i].Bytes += fe.Size
	}
	for i := range pc.Folders {
		pc.Folders[i].Estimate = max(1, (pc.Folders[i].Bytes+c.TargetSize-1)/c.TargetSize)
	}
	return pc, nil
}

// compactionOf is the intent of a planned compaction.
func compactionOf(pc planner.Compaction) *state.Compaction {
	return &state.Compaction{ID: pc.ID, Destination: pc.Destination, Replaces: pc.Replaces, TargetSize: pc.TargetSize, Layout: pc.Layout}
}

// PlanCompactions lists what apply compacts in sink after its batches:
// the compaction in flight in st, then, with a policy, the one due in each
// folder destination at now.
func PlanCompactions(ctx context.Context, sink *Sink, st *state.Sink, p *CompactionPolicy, now time.Time) ([]planner.Compaction, error) {
	var out []planner.Compaction
	if st != nil && st.Compaction != nil {
		pc, err := DescribeCompaction(ctx, sink, st.Compaction, true)
		if err != nil {
			return nil, err
		}
		out = append(out, pc)
	}
	if p == nil {
		return out, nil
	}
	for _, d := range sink.Destinations {
		if st != nil && st.Compaction != nil && st.Compaction.Destination == d.Name {
			continue // one at a time: the next apply plans the next
		}
		c, err := PlanCompaction(ctx, sink, st, d, *p, now)
		if err != nil || c == nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		pc, err := DescribeCompaction(ctx, sink, c, false)
		if err != nil {
			return nil, err
		}
		out = append(out, pc)
	}
	return out, nil
}
