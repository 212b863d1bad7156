package iceberg

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// Snapshot summary properties of a streamctl compaction. The sink is not
// recorded under PropSink: a compaction is no batch, and a streamctl older
// than compaction would take it for one.
const (
	PropCompaction     = "streamctl.compaction"
	PropCompactionSink = "streamctl.compaction.sink"
)

// CompactOutcome is what Compact did.
type CompactOutcome int

const (
	// Replaced: the replace snapshot is committed, by this call or an
	// earlier one whose answer was lost.
	Replaced CompactOutcome = iota + 1
	// Dropped: a file the compaction replaces is no longer in the table
	// (something else rewrote or removed it), and nothing was committed.
	Dropped
)

// Compact commits compaction id of sink: one snapshot, operation
// "replace", that removes the data files old (URLs) and adds files, and
// whose summary records sink and id. When a snapshot in the current
// snapshot's ancestry records the compaction already, it does nothing. The
// commit requires the branch to be where Compact read it; when another
// writer moved it (an apply appending a batch), Compact reloads, checks
// again, and retries: the appended files are kept, as a rewrite keeps
// every file it does not replace. When a file of old is no longer live,
// the compaction is Dropped: its rows are no longer the table's to
// rewrite.
func (t *Table) Compact(ctx context.Context, sink string, id int64, old []string, files []DataFile) (CompactOutcome, error) {
	if sink == "" || id <= 0 || len(old) == 0 || len(files) == 0 {
		return 0, fmt.Errorf("iceberg: compact: want a sink, a compaction > 0, files to replace and files to add, got %q, %d, %d, %d", sink, id, len(old), len(files))
	}
	if err := t.refresh(ctx); err != nil {
		return 0, err
	}
	if t.compacted(sink, id) {
		return Replaced, t.publishHint(ctx)
	}
	dfs, err := t.dataFiles(ctx, files)
	if err != nil {
		return 0, err
	}
	for attempt := 1; ; attempt++ {
		if attempt > 1 {
			if err := t.refresh(ctx); err != nil {
				return 0, err
			}
			if t.compacted(sink, id) {
				return Replaced, t.publishHint(ctx)
			}
		}
		live, err := t.liveFiles(ctx, old)
		if err != nil {
			return 0, err
		}
		if live == nil {
			return Dropped, nil
		}
		base := t.tbl.CurrentSnapshot()
		err = t.replaceOnce(ctx, sink, id, live, dfs)
		if err == nil {
			return Replaced, t.publishHint(ctx)
		}
		if ctx.Err() != nil {
			return 0, err
		}
		// As appendBatch: a conflict, a commit that landed after all, or
		// the error is the answer.
		if rerr := t.refresh(ctx); rerr != nil {
			return 0, fmt.Errorf("%w; then reading the table again, to see whether it landed: %w", err, rerr)
		}
		if t.compacted(sink, id) {
			return Replaced, t.publishHint(ctx)
		}
		cur := t.tbl.CurrentSnapshot()
		moved := (base == nil) != (cur == nil) || base != nil && cur != nil && base.SnapshotID != cur.SnapshotID
		if !moved && !errors.Is(err, table.ErrCommitFailed) {
			return 0, err
		}
		if attempt == maxAttempts {
			return 0, fmt.Errorf("iceberg: table %s: compaction %d of %s: %d commits lost to other writers: %w", t.name(), id, sink, attempt, err)
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(conflictWait(attempt)):
		}
	}
}

// compacted reports whether the current snapshot's ancestry records
// compaction id of sink.
func (t *Table) compacted(sink string, id int64) bool {
	cur := t.tbl.CurrentSnapshot()
	if cur == nil {
		return false
	}
	want := strconv.FormatInt(id, 10)
	for _, s := range table.AncestorsOf(cur.SnapshotID, t.tbl.Metadata().SnapshotByID) {
		if s.Summary != nil && s.Summary.Properties[PropCompactionSink] == sink && s.Summary.Properties[PropCompaction] == want {
			return true
		}
	}
	return false
}

// liveFiles returns the current snapshot's entries of the data files urls,
// in their order, or nil when one of them is not live.
func (t *Table) liveFiles(ctx context.Context, urls []string) ([]ice.DataFile, error) {
	if t.tbl.CurrentSnapshot() == nil {
		return nil, nil
	}
	tasks, err := t.tbl.Scan().PlanFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("iceberg: table %s: list the live files: %w", t.name(), err)
	}
	byURL := make(map[string]ice.DataFile, len(tasks))
	for _, task := range tasks {
		byURL[task.File.FilePath()] = task.File
	}
	out := make([]ice.DataFile, len(urls))
	for i, u := range urls {
		df, ok := byURL[u]
		if !ok {
			return nil, nil
		}
		out[i] = df
	}
	return out, nil
}

// hookBeforeReplace, set by tests, runs between reading the table and
// committing a compaction: another writer's commit there is a conflict.
var hookBeforeReplace func()

func (t *Table) replaceOnce(ctx context.Context, sink string, id int64, old, dfs []ice.DataFile) error {
	txn := committer(t.tbl, t.cat).NewTransaction()
	if err := txn.AssertRefSnapshotID(table.MainBranch); err != nil {
		return fmt.Errorf("iceberg: table %s: %w", t.name(), err)
	}
	rw := txn.NewRewrite(ice.Properties{PropCompactionSink: sink, PropCompaction: strconv.FormatInt(id, 10)})
	for _, df := range old {
		rw.DeleteFile(df)
	}
	for _, df := range dfs {
		rw.AddDataFile(df)
	}
	if err := rw.Commit(ctx); err != nil {
		return fmt.Errorf("iceberg: table %s: compaction %d of %s: %w", t.name(), id, sink, err)
	}
	if hookBeforeReplace != nil {
		hookBeforeReplace()
	}
	tbl, err := txn.Commit(ctx)
	if err != nil {
		return fmt.Errorf("iceberg: table %s: commit compaction %d of %s: %w", t.name(), id, sink, err)
	}
	t.tbl = tbl
	return nil
}
