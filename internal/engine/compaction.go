package engine

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// A compaction rewrites the files of some committed manifests of one
// destination into fewer, larger files, through the protocol's four steps
// (website/content/protocol.md#compaction): its intent in the state
// (state.Compaction), the new files staged under
// _temporary/compaction-<C>/ and promoted, then its manifest,
// _streamctl/<sink>/compaction-<C>.json, written create-only, which replaces
// the files of the manifests it names; only then are those files deleted.
// Readers take the files of the manifests no compaction manifest replaces
// (liveManifests): the old set or the new, never both, never neither. The
// rewriting of the files, format by format, is in compaction_rewrite.go;
// the manifests in compaction_manifest.go; when one is due and what plan
// shows of it in compaction_plan.go.

// Compact takes compaction c of sink through the protocol: its intent is
// logged first, unless the state holds it in flight already (a run that
// died); then its files are staged, promoted and committed, and the files
// it replaces deleted (a table's are left to its snapshots). A retry of the
// same intent writes the same files. It returns nil, and no error, when
// the destination's table dropped the compaction.
func (e *Engine) Compact(ctx context.Context, sink *Sink, c *state.Compaction) (*CompactionManifest, error) {
	d := sink.destination(c.Destination)
	if d == nil {
		return nil, fmt.Errorf("compaction %d of sink %s: the sink has no destination %s any more; put it back to finish the compaction", c.ID, sink.Name, c.Destination)
	}
	what := fmt.Sprintf("compaction %d of %s in sink %s", c.ID, d.Name, sink.Name)
	// 1. Intent.
	err := e.update(ctx, sink.Name, func(s *state.State) error {
		ss := s.Sinks[sink.Name]
		if ss == nil {
			return errors.New("the sink has no checkpoint")
		}
		switch {
		case ss.Compaction == nil:
			cp := *c
			t := e.now().UTC()
			cp.Started = &t
			ss.Compaction = &cp
		case ss.Compaction.ID != c.ID || ss.Compaction.Destination != c.Destination:
			return fmt.Errorf("compaction %d of %s is in flight", ss.Compaction.ID, ss.Compaction.Destination)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("log the intent of %s: %w", what, err)
	}
	fault.Point("after-compaction-intent")

	s := d.Storage
	name := sink.storedName()
	m, err := readCompactionManifest(ctx, s, name, c.ID)
	switch {
	case errors.Is(err, providers.ErrNotExist):
		if m, err = e.writeCompaction(ctx, sink, d, c); errors.Is(err, errCompactionDropped) {
			return nil, e.dropCompaction(ctx, sink, d, c)
		} else if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
	case err != nil:
		return nil, fmt.Errorf("%s: %w", what, err)
	}

	// 4. Delete the replaced files, only now that they are replaced. A
	// table's are left in place: the table's snapshots before the
	// compaction still reference them, until they expire.
	keep := map[string]bool{}
	for _, f := range m.Files {
		keep[f.Path] = true
	}
	var replaced []FileEntry
	if _, ok := d.Table.(TableCompactor); !ok {
		if replaced, err = replacedFiles(ctx, s, name, c.Replaces); err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
	}
	for _, f := range replaced {
		if keep[f.Path] {
			continue // a reject, carried over
		}
		if err := e.fence(sink.Name); err != nil {
			return nil, err
		}
		if err := s.Delete(ctx, f.Path); err != nil && !errors.Is(err, providers.ErrNotExist) {
			return nil, fmt.Errorf("%s: delete the replaced file %s: %w", what, f.Path, err)
		}
		fault.Point("after-compaction-delete-file")
	}
	if err := deletePrefix(ctx, s, sink.compactionTemporary(c.ID)); err != nil {
		return nil, fmt.Errorf("%s: remove %s: %w", what, sink.compactionTemporary(c.ID), err)
	}
	if err := e.clearCompaction(ctx, sink, c); err != nil {
		return nil, fmt.Errorf("%s: clear its intent: %w", what, err)
	}
	return m, nil
}

func (e *Engine) clearCompaction(ctx context.Context, sink *Sink, c *state.Compaction) error {
	return e.update(ctx, sink.Name, func(st *state.State) error {
		if ss := st.Sinks[sink.Name]; ss != nil && ss.Compaction != nil && ss.Compaction.ID == c.ID && ss.Compaction.Destination == c.Destination {
			ss.Compaction = nil
		}
		return nil
	})
}

// errCompactionDropped is writeCompaction's answer when the destination's
// table no longer holds every file the compaction replaces.
var errCompactionDropped = errors.New("a file it replaces is no longer in the table")

// dropCompaction gives c up: no snapshot and no manifest commit it, so its
// promoted files are in nothing a reader reads, and are removed with its
// staging folder before its intent is cleared. The next plan plans anew.
func (e *Engine) dropCompaction(ctx context.Context, sink *Sink, d *Destination, c *state.Compaction) error {
	what := fmt.Sprintf("drop compaction %d of %s in sink %s", c.ID, d.Name, sink.Name)
	prefix := compactedFilePrefix(sink.fileShard(), c.ID)
	var promoted []string
	err := d.Storage.List(ctx, "", func(info providers.ObjectInfo) error {
		if !strings.HasPrefix(info.Key, MetadataDir+"/") && !strings.HasPrefix(info.Key, TemporaryDir+"/") && strings.HasPrefix(path.Base(info.Key), prefix) {
			promoted = append(promoted, info.Key)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: list its files: %w", what, err)
	}
	for _, key := range promoted {
		if err := e.fence(sink.Name); err != nil {
			return err
		}
		if err := d.Storage.Delete(ctx, key); err != nil && !errors.Is(err, providers.ErrNotExist) {
			return fmt.Errorf("%s: delete %s: %w", what, key, err)
		}
	}
	if err := deletePrefix(ctx, d.Storage, sink.compactionTemporary(c.ID)); err != nil {
		return fmt.Errorf("%s: remove %s: %w", what, sink.compactionTemporary(c.ID), err)
	}
	if err := e.clearCompaction(ctx, sink, c); err != nil {
		return fmt.Errorf("%s: clear its intent: %w", what, err)
	}
	e.emit(Compacted{Sink: sink.Name, Destination: d.Name, Compaction: c.ID, Replaced: len(c.Replaces), Dropped: errCompactionDropped.Error()})
	return nil
}

// replacedFiles lists the files of the manifests named, in order. The
// batch manifests are read together, as readers read them: most sit in
// indexes, which one lookup each would read again and again.
func replacedFiles(ctx context.Context, s providers.Storage, sink string, names []string) ([]FileEntry, error) {
	refs := make([]manifestRef, len(names))
	first := int64(-1)
	for i, n := range names {
		ref, ok := parseManifestName(n)
		if !ok {
			return nil, fmt.Errorf("the intent names %q, which is no manifest", n)
		}
		refs[i] = ref
		if ref.compaction == 0 && (first < 0 || ref.batch < first) {
			first = ref.batch
		}
	}
	batches := map[int64]*Manifest{}
	if first >= 0 {
		ms, err := ReadManifests(ctx, s, sink, first)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			batches[m.Batch] = m
		}
	}
	var out []FileEntry
	for _, ref := range refs {
		if ref.compaction != 0 {
			m, err := readCompactionManifest(ctx, s, sink, ref.compaction)
			if err != nil {
				return nil, err
			}
			out = append(out, m.Files...)
			continue
		}
		m := batches[ref.batch]
		if m == nil {
			return nil, fmt.Errorf("read the manifest of batch %d: %w", ref.batch, providers.ErrNotExist)
		}
		out = append(out, m.Files...)
	}
	return out, nil
}

// writeCompaction stages c's files, promotes them and commits its
// manifest: steps 2 and 3.
func (e *Engine) writeCompaction(ctx context.Context, sink *Sink, d *Destination, c *state.Compaction) (*CompactionManifest, error) {
	s := d.Storage
	name := sink.storedName()
	tmp := sink.compactionTemporary(c.ID)
	// What an attempt that died left staged is written again.
	if err := deletePrefix(ctx, s, tmp); err != nil {
		return nil, fmt.Errorf("remove %s: %w", tmp, err)
	}
	old, err := replacedFiles(ctx, s, name, c.Replaces)
	if err != nil {
		return nil, err
	}
	m := &CompactionManifest{FormatVersion: CompactionManifestVersion, Sink: name, Destination: d.Name, Compaction: c.ID,
		FirstBatch: -1, Replaces: c.Replaces, Layout: c.Layout, Version: e.Version}
	for _, r := range c.Replaces {
		ref, _ := parseManifestName(r)
		first, last := ref.batch, ref.batch
		if ref.compaction != 0 {
			cm, err := readCompactionManifest(ctx, s, name, ref.compaction)
			if err != nil {
				return nil, err
			}
			first, last = cm.FirstBatch, cm.LastBatch
		}
		if m.FirstBatch < 0 || first < m.FirstBatch {
			m.FirstBatch = first
		}
		m.LastBatch = max(m.LastBatch, last)
	}

	// 2. Stage, folder by folder in the order the folders first come.
	var folders []string
	byFolder := map[string][]FileEntry{}
	var rejects []FileEntry
	for _, f := range old {
		if !isDataFile(f.Path) {
			rejects = append(rejects, f)
			continue
		}
		dir := path.Dir(f.Path)
		if byFolder[dir] == nil {
			folders = append(folders, dir)
		}
		byFolder[dir] = append(byFolder[dir], f)
	}
	rw, err := newRewriter(sink, c)
	if err != nil {
		return nil, err
	}
	for _, dir := range folders {
		files, err := rw.rewriteFolder(ctx, s, tmp, dir, byFolder[dir])
		if err != nil {
			return nil, err
		}
		m.Files = append(m.Files, files...)
	}
	m.Files = append(m.Files, rejects...)
	for _, f := range m.Files {
		m.Bytes += f.Size
		if isDataFile(f.Path) {
			m.Records += f.Records
		}
	}

	// 3. Promote, then the manifest.
	if err := e.fence(sink.Name); err != nil {
		return nil, err
	}
	var moved []FileEntry // the new files; the rejects stay where they are
	for _, f := range m.Files {
		if isDataFile(f.Path) {
			moved = append(moved, f)
		}
	}
	if r := s.Features().Renamer; r != nil {
		for _, f := range moved {
			if err := r.Rename(ctx, tmp+f.Path, f.Path); err != nil {
				return nil, fmt.Errorf("promote %s: %w", f.Path, err)
			}
			fault.Point("after-compaction-promote-file")
		}
	} else if err := promoteConcurrently(ctx, moved, func(ctx context.Context, f FileEntry) (string, error) {
		return f.Path, s.Copy(ctx, tmp+f.Path, f.Path)
	}); err != nil {
		return nil, fmt.Errorf("promote: %w", err)
	}
	// A destination's table commits the compaction before its manifest
	// does, as it commits a batch: a destination whose manifest lists the
	// new files has them in its table too.
	if tc, ok := d.Table.(TableCompactor); ok {
		var data []FileEntry
		for _, f := range old {
			if isDataFile(f.Path) {
				data = append(data, f)
			}
		}
		if err := e.fence(sink.Name); err != nil {
			return nil, err
		}
		fault.Point("before-compaction-table-commit")
		replaced, err := tc.Compact(ctx, sink.Name, c.ID, data, moved)
		if err != nil {
			return nil, fmt.Errorf("commit it to %s: %w", d.Table.Describe(), err)
		}
		if !replaced {
			return nil, errCompactionDropped
		}
		fault.Point("after-compaction-table-commit")
	}
	fault.Point("before-compaction-manifest")
	if err := e.fence(sink.Name); err != nil {
		return nil, err
	}
	own := e.ownership()
	m.Lineage = own.Lineage
	if e.LockID != nil {
		m.LockID = e.LockID(sink.Name)
	}
	m.Committed = e.now().UTC()
	key := CompactionKey(name, c.ID)
	if _, err := s.PutIfAbsent(ctx, key, encodeCompactionManifest(m)); err != nil {
		if !errors.Is(err, providers.ErrExist) {
			return nil, fmt.Errorf("write %s: %w", key, err)
		}
		// Committed by an attempt whose answer was lost: the same files.
		prev, rerr := readCompactionManifest(ctx, s, name, c.ID)
		if rerr != nil {
			return nil, rerr
		}
		if !slices.EqualFunc(prev.Files, m.Files, FileEntry.Same) {
			return nil, fmt.Errorf("%s exists and lists other files than this compaction writes: the destination was changed by something else; move it away and run plan", key)
		}
		m = prev
	}
	fault.Point("after-compaction-manifest")
	return m, nil
}

// Maintain compacts sink's folder destinations under p: first the
// compaction a run that died left in flight, whatever p says now, then the
// one PlanCompaction finds due in each destination. It returns the
// compactions done.
func (e *Engine) Maintain(ctx context.Context, sink *Sink, p CompactionPolicy) ([]*state.Compaction, error) {
	var done []*state.Compaction
	if st := e.State.State().Sinks[sink.Name]; st != nil && st.Compaction != nil {
		c := st.Compaction
		if _, err := e.Compact(ctx, sink, c); err != nil {
			return done, err
		}
		done = append(done, c)
	}
	for _, d := range sink.Destinations {
		c, err := PlanCompaction(ctx, sink, e.State.State().Sinks[sink.Name], d, p, e.now())
		if err != nil {
			return done, err
		}
		if c == nil {
			continue
		}
		if _, err := e.Compact(ctx, sink, c); err != nil {
			return done, err
		}
		done = append(done, c)
	}
	return done, nil
}

// runCompactions runs the plan's compactions, after the sink's batches.
func (e *Engine) runCompactions(ctx context.Context, sink *Sink, plan *planner.SinkPlan) error {
	for _, pc := range plan.Compactions {
		m, err := e.Compact(ctx, sink, compactionOf(pc))
		if err != nil {
			return err
		}
		if m == nil {
			continue // dropped, and said so
		}
		ev := Compacted{Sink: sink.Name, Destination: pc.Destination, Compaction: pc.ID, Replaced: len(pc.Replaces)}
		for _, f := range m.Files {
			if isDataFile(f.Path) {
				ev.Files++
				ev.Bytes += f.Size
			}
		}
		e.emit(ev)
	}
	return nil
}
