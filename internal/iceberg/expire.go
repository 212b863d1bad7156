package iceberg

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/apache/iceberg-go/table"
)

// Expiry is what expiring a table's snapshots removes: how many snapshots,
// and the commit times of the oldest and the newest of them.
type Expiry struct {
	Snapshots      int
	Oldest, Newest time.Time
}

// retainLast is how many snapshots of the current snapshot's ancestry,
// newest first, an expiry keeps whatever their age: down to the newest
// snapshot of each sink (Committed and follows recognise a retried batch
// by it) and of each sink's compactions (Compact recognises a retried
// compaction by it). Expiry removes history from its oldest end, so
// keeping these keeps every snapshot newer than them too.
func (t *Table) retainLast() int {
	cur := t.tbl.CurrentSnapshot()
	if cur == nil {
		return 1
	}
	seen := map[string]bool{}
	n := 1
	i := 0
	for _, s := range table.AncestorsOf(cur.SnapshotID, t.tbl.Metadata().SnapshotByID) {
		i++
		if s.Summary == nil {
			continue
		}
		for _, key := range []string{"b:" + s.Summary.Properties[PropSink], "c:" + s.Summary.Properties[PropCompactionSink]} {
			if len(key) > 2 && !seen[key] {
				seen[key] = true
				n = i
			}
		}
	}
	return n
}

// expiryTxn stages on a transaction the expiry of the snapshots committed
// before cutoff, keeping retainLast's, and says what it removes. It writes
// nothing. iceberg-go measures the age from its own clock: cutoff may be
// ahead of it (a test's skewed clock), and the age it is given is the
// cutoff's, never below zero.
func (t *Table) expiryTxn(cutoff time.Time) (*table.Transaction, Expiry, error) {
	var ex Expiry
	txn := committer(t.tbl, t.cat).NewTransaction()
	if t.tbl.CurrentSnapshot() == nil {
		return txn, ex, nil
	}
	age := max(time.Since(cutoff), 0)
	err := txn.ExpireSnapshots(table.WithRetainLast(t.retainLast()), table.WithOlderThan(age), table.WithPostCommit(false))
	if err != nil {
		return nil, ex, fmt.Errorf("iceberg: table %s: expire snapshots: %w", t.name(), err)
	}
	staged, err := txn.StagedTable()
	if err != nil {
		return nil, ex, fmt.Errorf("iceberg: table %s: expire snapshots: %w", t.name(), err)
	}
	kept := map[int64]bool{}
	for _, s := range staged.Metadata().Snapshots() {
		kept[s.SnapshotID] = true
	}
	for _, s := range t.tbl.Metadata().Snapshots() {
		if kept[s.SnapshotID] {
			continue
		}
		at := time.UnixMilli(s.TimestampMs).UTC()
		if ex.Snapshots == 0 || at.Before(ex.Oldest) {
			ex.Oldest = at
		}
		if ex.Snapshots == 0 || at.After(ex.Newest) {
			ex.Newest = at
		}
		ex.Snapshots++
	}
	return txn, ex, nil
}

// PlanExpiry says what Expire(ctx, cutoff) would remove, from the table as
// last loaded; it writes nothing.
func (t *Table) PlanExpiry(cutoff time.Time) (Expiry, error) {
	_, ex, err := t.expiryTxn(cutoff)
	return ex, err
}

// InspectExpiry opens the table of cfg without writing anything, as
// Inspect does, and says what Expire(ctx, cutoff) would remove, and what
// the snapshots would reference after it; exists is false when the table
// does not exist.
func InspectExpiry(ctx context.Context, cfg Config, cutoff time.Time) (ex Expiry, refs *References, exists bool, err error) {
	if cfg.CatalogName == "" {
		cfg.CatalogName = "streamctl"
	}
	if cfg.Location, err = normLocation(cfg.Location); err != nil {
		return ex, nil, false, err
	}
	t, err := openReadOnly(ctx, cfg)
	if err != nil || t == nil {
		return ex, nil, false, err
	}
	defer t.Close()
	txn, ex, err := t.expiryTxn(cutoff)
	if err != nil {
		return ex, nil, true, err
	}
	after := t.tbl
	if ex.Snapshots > 0 {
		staged, err := txn.StagedTable()
		if err != nil {
			return ex, nil, true, fmt.Errorf("iceberg: table %s: expire snapshots: %w", t.name(), err)
		}
		after = staged.Table
	}
	refs, err = t.referencesOf(ctx, after)
	return ex, refs, true, err
}

// Expire commits the removal of the table's snapshots committed before
// cutoff, but for the current snapshot and those down to the newest of
// each sink and of each sink's compactions (retainLast). The commit changes
// only the metadata: the files no remaining snapshot references are left
// in place, for the caller to delete once it is committed (References
// tells them). With nothing to expire it commits nothing, so a retry after
// a lost answer or a crash finds the work done. A commit lost to another
// writer is tried again on the table as it then is.
func (t *Table) Expire(ctx context.Context, cutoff time.Time) (Expiry, error) {
	var done Expiry
	for attempt := 1; ; attempt++ {
		if err := t.refresh(ctx); err != nil {
			return done, err
		}
		txn, ex, err := t.expiryTxn(cutoff)
		if err != nil || ex.Snapshots == 0 {
			return done, err
		}
		base := t.tbl.CurrentSnapshot()
		if hookBeforeExpire != nil {
			hookBeforeExpire()
		}
		tbl, err := txn.Commit(ctx)
		if err == nil {
			t.tbl = tbl
			return ex, t.publishHint(ctx)
		}
		if ctx.Err() != nil {
			return done, err
		}
		// As appendBatch: the next attempt finds nothing left to expire
		// when the commit landed after all; otherwise only a moved branch
		// is tried again.
		if rerr := t.refresh(ctx); rerr != nil {
			return done, fmt.Errorf("iceberg: table %s: expire snapshots: %w; then reading the table again, to see whether it landed: %w", t.name(), err, rerr)
		}
		cur := t.tbl.CurrentSnapshot()
		moved := (base == nil) != (cur == nil) || base != nil && cur != nil && base.SnapshotID != cur.SnapshotID
		if _, left, perr := t.expiryTxn(cutoff); perr == nil && left.Snapshots < ex.Snapshots {
			moved = true // it landed, or another writer expired some
		}
		if !moved && !errors.Is(err, table.ErrCommitFailed) {
			return done, fmt.Errorf("iceberg: table %s: commit the expiry of %d snapshots: %w", t.name(), ex.Snapshots, err)
		}
		if attempt == maxAttempts {
			return done, fmt.Errorf("iceberg: table %s: expire snapshots: %d commits lost to other writers: %w", t.name(), attempt, err)
		}
		select {
		case <-ctx.Done():
			return done, ctx.Err()
		case <-time.After(conflictWait(attempt)):
		}
	}
}

// hookBeforeExpire, set by tests, runs between reading the table and
// committing an expiry: another writer's commit there is a conflict.
var hookBeforeExpire func()

// References is what the table's snapshots reference, all of them, read
// once: the data files live in any snapshot, and the metadata files
// (manifest lists, manifests, metadata files). Paths are relative to the
// table's location.
type References struct {
	data     map[string]bool
	metadata map[string]bool
	commits  map[string]bool // the commit UUIDs of the manifest lists
	dir      string          // the metadata folder, relative to the location
}

// References reloads the table and reads what every snapshot references.
func (t *Table) References(ctx context.Context) (*References, error) {
	if err := t.refresh(ctx); err != nil {
		return nil, err
	}
	return t.referencesOf(ctx, t.tbl)
}

// referencesOf reads what the snapshots of tbl, a version of t's table,
// reference.
func (t *Table) referencesOf(ctx context.Context, tbl *table.Table) (*References, error) {
	loc := t.cfg.Location + "/"
	r := &References{data: map[string]bool{}, metadata: map[string]bool{}, commits: map[string]bool{}, dir: MetadataDir}
	if dir := tbl.Metadata().Properties()[table.WriteMetadataPathKey]; dir != "" {
		r.dir = strings.TrimPrefix(strings.TrimRight(dir, "/"), loc)
	}
	rel := func(u string) string { return strings.TrimPrefix(u, loc) }
	r.metadata[rel(tbl.MetadataLocation())] = true
	for e := range tbl.Metadata().PreviousFiles() {
		r.metadata[rel(e.MetadataFile)] = true
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return nil, fmt.Errorf("iceberg: table %s: file IO: %w", t.name(), err)
	}
	if strings.HasPrefix(t.cfg.Location, "file://") {
		fs = rawLocalFS{}
	}
	for _, s := range tbl.Metadata().Snapshots() {
		if s.ManifestList == "" {
			continue
		}
		r.metadata[rel(s.ManifestList)] = true
		if _, _, uuid, ok := manifestListName(path.Base(s.ManifestList)); ok {
			r.commits[uuid] = true
		}
		manifests, err := s.Manifests(fs)
		if err != nil {
			return nil, fmt.Errorf("iceberg: table %s: read the manifest list of snapshot %d: %w", t.name(), s.SnapshotID, err)
		}
		for _, m := range manifests {
			if r.metadata[rel(m.FilePath())] {
				continue // read for an earlier snapshot
			}
			r.metadata[rel(m.FilePath())] = true
			entries, err := m.FetchEntries(fs, true)
			if err != nil {
				return nil, fmt.Errorf("iceberg: table %s: read manifest %s: %w", t.name(), m.FilePath(), err)
			}
			for _, e := range entries {
				r.data[rel(e.DataFile().FilePath())] = true
			}
		}
	}
	return r, nil
}

// Data reports whether a snapshot of the table holds the data file at rel
// (relative to the table's location) as live.
func (r *References) Data(rel string) bool { return r.data[rel] }

// Unreferenced reports whether rel (relative to the table's location) is a
// manifest list or a manifest in the table's metadata folder that no
// snapshot references, nor, for a manifest, a manifest list of its commit:
// what an expiry left behind. Any other file (metadata files, version
// hints, other engines' files) is never unreferenced. The caller decides by
// the file's age whether it may be a commit still in progress.
func (r *References) Unreferenced(rel string) bool {
	if path.Dir(rel) != r.dir || r.metadata[rel] {
		return false
	}
	base := path.Base(rel)
	if _, _, _, ok := manifestListName(base); ok {
		return true
	}
	if uuid, ok := manifestName(base); ok {
		return !r.commits[uuid]
	}
	return false
}
