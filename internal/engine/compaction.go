package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/internal/pipeline"
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
// rewriting of the files, format by format, is in compaction_rewrite.go.

// CompactionManifestVersion is the format version of compaction manifests.
const CompactionManifestVersion = 1

// CompactionManifest is a destination's commit record of one compaction.
type CompactionManifest struct {
	FormatVersion int    `json:"format_version"`
	Sink          string `json:"sink"`
	Destination   string `json:"destination"`
	Compaction    int64  `json:"compaction"`
	// FirstBatch and LastBatch bound the batches whose rows its files hold.
	FirstBatch int64 `json:"first_batch"`
	LastBatch  int64 `json:"last_batch"`
	// Replaces names the manifests whose files these replace, as their file
	// names in the sink's manifest folder ("7.json", "compaction-2.json").
	Replaces []string `json:"replaces"`
	// Files are the new files, and the rejects of the replaced manifests,
	// which are not rewritten.
	Files   []FileEntry `json:"files"`
	Records int64       `json:"records"`
	Bytes   int64       `json:"bytes"`
	// Layout is the hash of the output settings its files are written with.
	Layout    string    `json:"layout,omitempty"`
	Committed time.Time `json:"committed"`
	Version   string    `json:"streamctl_version"`
	LockID    string    `json:"lock_id,omitempty"`
	Lineage   string    `json:"lineage,omitempty"`
}

const compactionPrefix = "compaction-"

// CompactionName is the file name of compaction id's manifest in the sink's
// manifest folder.
func CompactionName(id int64) string { return compactionPrefix + strconv.FormatInt(id, 10) + ".json" }

// BatchManifestName is the file name of batch's manifest in the sink's
// manifest folder, as a compaction names it (a manifest gathered into an
// index keeps its name).
func BatchManifestName(batch int64) string { return strconv.FormatInt(batch, 10) + ".json" }

// CompactionKey is where compaction id of sink commits.
func CompactionKey(sink string, id int64) string {
	return path.Join(MetadataDir, sink, CompactionName(id))
}

// compactionTemporary is where compaction id is staged: beside the sink's
// batches, under a name no batch has.
func (s *Sink) compactionTemporary(id int64) string {
	return s.temporaryRoot() + strings.TrimSuffix(CompactionName(id), ".json") + "/"
}

// compactedFileName names the seq-th file of compaction id: never a batch's
// name (pipeline.FileName), so that no batch writes over it, nor a file of
// another compaction.
func compactedFileName(shard string, id int64, seq int, ext string) string {
	return fmt.Sprintf("%s%05d.%s", compactedFilePrefix(shard, id), seq, ext)
}

// compactedFilePrefix is how the names of compaction id's files begin.
func compactedFilePrefix(shard string, id int64) string {
	if shard != "" {
		return fmt.Sprintf("compact-%s-%08d-", shard, id)
	}
	return fmt.Sprintf("compact-%08d-", id)
}

func encodeCompactionManifest(m *CompactionManifest) []byte {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("encode compaction manifest: %v", err))
	}
	return append(data, '\n')
}

func decodeCompactionManifest(data []byte, sink string, id int64) (*CompactionManifest, error) {
	var m CompactionManifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	if m.FormatVersion < 1 || m.FormatVersion > CompactionManifestVersion {
		return nil, fmt.Errorf("unsupported compaction manifest format version %d", m.FormatVersion)
	}
	if m.Sink != sink || m.Compaction != id {
		return nil, fmt.Errorf("it says it commits compaction %d of sink %q", m.Compaction, m.Sink)
	}
	for i, f := range m.Files {
		if err := ValidateFilePath(f.Path); err != nil {
			return nil, tampered(fmt.Sprintf("file %d has the path %s: it %v", i+1, strconv.Quote(f.Path), err))
		}
	}
	for _, r := range m.Replaces {
		if _, ok := parseManifestName(r); !ok {
			return nil, tampered(fmt.Sprintf("it replaces %s, which names no manifest", strconv.Quote(r)))
		}
	}
	return &m, nil
}

// manifestRef is a manifest named by its file name: a batch's or a
// compaction's.
type manifestRef struct {
	batch      int64 // when compaction is 0
	compaction int64
}

func parseManifestName(name string) (manifestRef, bool) {
	if rest, ok := strings.CutPrefix(name, compactionPrefix); ok {
		n, ok := parseBatchKey(rest, true)
		return manifestRef{compaction: n}, ok && n > 0
	}
	n, ok := parseBatchKey(name, true)
	return manifestRef{batch: n}, ok
}

func readCompactionManifest(ctx context.Context, s providers.Storage, sink string, id int64) (*CompactionManifest, error) {
	data, _, err := providers.ReadAll(ctx, s, CompactionKey(sink, id))
	if err != nil {
		return nil, err
	}
	m, err := decodeCompactionManifest(data, sink, id)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", CompactionKey(sink, id), err)
	}
	return m, nil
}

// readCompactions returns the compaction manifests of sink in s, by number.
func readCompactions(ctx context.Context, s providers.Storage, sink string) ([]*CompactionManifest, error) {
	prefix := MetadataDir + "/" + sink + "/" + compactionPrefix
	var ids []int64
	err := s.List(ctx, prefix, func(info providers.ObjectInfo) error {
		if n, ok := parseBatchKey(info.Key[len(prefix):], true); ok && n > 0 {
			ids = append(ids, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(ids)
	out := make([]*CompactionManifest, len(ids))
	err = forEach(len(ids), func(i int) error {
		m, err := readCompactionManifest(ctx, s, sink, ids[i])
		out[i] = m
		return err
	})
	return out, err
}

// LiveManifest is a manifest whose files a reader takes: a batch's that no
// compaction replaced, or a compaction's that no later one replaced.
type LiveManifest struct {
	Name string // its file name: "7.json", "compaction-2.json"
	// FirstBatch and LastBatch bound the batches whose rows its files hold
	// (a batch manifest's are its batch).
	FirstBatch, LastBatch int64
	Compaction            int64 // 0 for a batch's
	Files                 []FileEntry
	Records               int64
	Layout                string // a compaction's; "" for a batch's
	Committed             time.Time
}

// liveManifests reads the manifests of sink in s whose files readers take,
// in the order of their batches; batches are the batch manifests, replaced
// or not. A compaction committed while they are read is either wholly seen
// or not at all: the compaction manifests are listed once, after the batch
// manifests, and a manifest is never removed (an indexed one stays in its
// index).
func liveManifests(ctx context.Context, s providers.Storage, sink string) (live []LiveManifest, batches []*Manifest, err error) {
	batches, err = ReadManifests(ctx, s, sink, 0)
	if err != nil {
		return nil, nil, err
	}
	compactions, err := readCompactions(ctx, s, sink)
	if err != nil {
		return nil, nil, err
	}
	return liveOf(batches, compactions), batches, nil
}

// liveOf is liveManifests of the manifests given.
func liveOf(batches []*Manifest, compactions []*CompactionManifest) (live []LiveManifest) {
	replaced := map[string]bool{}
	for _, c := range compactions {
		for _, r := range c.Replaces {
			replaced[r] = true
		}
	}
	for _, m := range batches {
		if name := BatchManifestName(m.Batch); !replaced[name] {
			live = append(live, LiveManifest{Name: name, FirstBatch: m.Batch, LastBatch: m.Batch, Files: m.Files, Records: m.Records, Committed: m.Committed})
		}
	}
	for _, c := range compactions {
		if name := CompactionName(c.Compaction); !replaced[name] {
			live = append(live, LiveManifest{Name: name, FirstBatch: c.FirstBatch, LastBatch: c.LastBatch, Compaction: c.Compaction,
				Files: c.Files, Records: c.Records, Layout: c.Layout, Committed: c.Committed})
		}
	}
	slices.SortStableFunc(live, func(a, b LiveManifest) int {
		return cmp.Or(cmp.Compare(a.FirstBatch, b.FirstBatch), cmp.Compare(a.Compaction, b.Compaction))
	})
	return live
}

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
