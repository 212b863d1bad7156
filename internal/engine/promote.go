package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
)

// promoteAll promotes and commits every pending destination, in parallel.
func (e *Engine) promoteAll(ctx context.Context, sink *Sink, identity string, b planner.Batch, pending []int, st *staging) error {
	var (
		wg   sync.WaitGroup
		errs = make([]error, len(pending))
	)
	for k, i := range pending {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer crash.Report()
			d := sink.destination(b.Destinations[i])
			errs[k] = e.promote(ctx, sink, identity, b, d, st.files[i], st.staged[i])
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// promote moves one destination's staged files into place and writes its
// manifest: the destination's commit point.
func (e *Engine) promote(ctx context.Context, sink *Sink, identity string, b planner.Batch, d *Destination, files []FileEntry, staged []providers.Staged) error {
	tmp := sink.temporaryPrefix(b.ID)
	m := &Manifest{
		FormatVersion: ManifestVersion,
		Sink:          sink.Name,
		Destination:   d.Name,
		Batch:         b.ID,
		Source:        identity,
		Ranges:        b.Ranges,
		Files:         files,
		Version:       e.Version,
		Lineage:       e.ownership().Lineage,
	}
	if e.LockID != nil {
		m.LockID = e.LockID(sink.Name)
	}
	if m.Files == nil {
		m.Files = []FileEntry{}
	}
	sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
	for _, f := range m.Files {
		if strings.HasPrefix(f.Path, pipeline.RejectedDir+"/") {
			m.Rejected += f.Records
		} else {
			m.Records += f.Records
		}
		m.Bytes += f.Size
	}
	intact, err := checkReplacement(ctx, sink, b, d, m.Files)
	if err != nil {
		for _, u := range staged {
			u.Release()
		}
		return err
	}
	// The owner was checked when the apply started; a record replaced since
	// (by hand, or a copied configuration) stops the batch before promotion.
	err = checkOwner(ctx, d, e.owner(sink, d))
	if err == nil {
		err = e.fence(sink.Name)
	}
	if err == nil {
		err = promoteFiles(ctx, d.Storage, tmp, m.Files, staged)
	}
	if err != nil {
		for _, u := range staged {
			u.Release() // the batch is redone: what is not published is dropped
		}
		return fmt.Errorf("promote batch %d in %s: %w", b.ID, d.Name, err)
	}
	if d.Table != nil {
		if err := e.fence(sink.Name); err != nil {
			return fmt.Errorf("commit batch %d to %s in %s: %w", b.ID, d.Table.Describe(), d.Name, err)
		}
		if err := commitTable(ctx, d.Table, sink.Name, b, m.Files); err != nil {
			// Most often the catalog went away: say which, and that the
			// next apply finds out whether the commit was made.
			return fmt.Errorf("commit batch %d to %s in %s through %s: %w. If the catalog was unreachable, run apply again once it answers: it commits the batch unless a snapshot already records it",
				b.ID, d.Table.Describe(), d.Name, d.Table.Catalog(), err)
		}
		if tw, ok := d.Table.(TableWarner); ok {
			for _, w := range tw.TakeWarnings() {
				e.emit(Warning{Sink: sink.Name, Batch: b.ID, Destination: d.Name, Message: fmt.Sprintf("%s: %s", d.Table.Describe(), w)})
			}
		}
	}
	m.Committed = e.now().UTC()
	key := ManifestKey(sink.Name, b.ID)
	if err := e.fence(sink.Name); err != nil {
		return fmt.Errorf("commit batch %d in %s: %w", b.ID, d.Name, err)
	}
	var putErr error
	if !intact { // a replacement's files are those its manifest lists: it stays
		_, putErr = d.Storage.PutIfAbsent(ctx, key, encodeManifest(m))
	}
	if err := putErr; err != nil {
		if !errors.Is(err, providers.ErrExist) {
			return fmt.Errorf("commit batch %d in %s: write manifest: %w", b.ID, d.Name, err)
		}
		// Another writer committed this batch first: fine if it is the same data.
		theirs, rerr := readManifest(ctx, d.Storage, sink.Name, b.ID)
		if rerr != nil {
			return fmt.Errorf("commit batch %d in %s: a manifest appeared and cannot be read: %w", b.ID, d.Name, rerr)
		}
		if !sameBatch(m, theirs) {
			return fmt.Errorf("commit batch %d in %s: another writer committed different data for this batch (%s); stop every other streamctl on this sink and run `streamctl plan` to inspect", b.ID, d.Name, key)
		}
	}
	fault.Point("after-manifest")
	// Staged uploads are all published, and staging cleared _temporary/<N>
	// before it began: only a copy-promoted batch has copies to remove.
	if d.Storage.Features().Stager == nil {
		if err := deletePrefix(ctx, d.Storage, tmp); err != nil {
			return fmt.Errorf("clean up batch %d in %s: %w", b.ID, d.Name, err)
		}
	}
	e.emit(DestinationCommitted{Sink: sink.Name, Batch: b.ID, Destination: d.Name, Records: m.Records, Rejected: m.Rejected, Bytes: m.Bytes, Files: len(m.Files)})
	return nil
}

// commitTable appends the batch's data files to the table unless a snapshot
// already records the batch (a retry after a crash or a lost answer).
func commitTable(ctx context.Context, t Table, sink string, b planner.Batch, files []FileEntry) error {
	done, err := t.Committed(ctx, sink, b.ID)
	if err != nil {
		return err
	}
	if done {
		return nil
	}
	var data []FileEntry
	for _, f := range files {
		// Rejected records are JSONL beside the data: not the table's.
		if !strings.HasPrefix(f.Path, pipeline.RejectedDir+"/") {
			data = append(data, f)
		}
	}
	fault.Point("before-table-commit")
	if err := t.Append(ctx, sink, b.ID, b.Ranges, data); err != nil {
		return err
	}
	fault.Point("after-table-commit")
	return nil
}

// copyConcurrency bounds the server-side copies of one destination in flight:
// on an object store a copy costs a round trip or more whatever its size, and
// a partitioned batch has a file per partition.
const copyConcurrency = 8

// promoteFiles moves the staged files under tmp into place. A storage with
// rename renames them one by one (cheap, local); an object store copies them,
// several at once, and leaves the staged copies for the cleanup of tmp after
// the manifest (one listing and a batch delete where the store has one). A
// crash in between leaves both copies; recovery removes _temporary/<N> like
// any other, before redoing the batch or after finding its manifest.
func promoteFiles(ctx context.Context, s providers.Storage, tmp string, files []FileEntry, staged []providers.Staged) error {
	f := s.Features()
	if f.Stager != nil {
		return publishAll(ctx, staged)
	}
	if r := f.Renamer; r != nil {
		for _, f := range files {
			if err := r.Rename(ctx, tmp+f.Path, f.Path); err != nil {
				return fmt.Errorf("%s: %w", f.Path, err)
			}
			fault.Point("after-promote-file")
		}
		return nil
	}
	return promoteConcurrently(ctx, files, func(ctx context.Context, f FileEntry) (string, error) {
		return f.Path, s.Copy(ctx, tmp+f.Path, f.Path)
	})
}

// publishAll publishes a destination's staged uploads, several at once: each
// is one request that sends no byte twice.
func publishAll(ctx context.Context, staged []providers.Staged) error {
	return promoteConcurrently(ctx, staged, func(ctx context.Context, u providers.Staged) (string, error) {
		return u.Upload().Key, u.Publish(ctx)
	})
}

// promoteConcurrently runs promote on each item, copyConcurrency at once. The
// first failure stops the others: the batch is redone anyway.
func promoteConcurrently[T any](ctx context.Context, items []T, promote func(context.Context, T) (key string, err error)) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	sem := make(chan struct{}, copyConcurrency)
	for _, item := range items {
		sem <- struct{}{}
		if ctx.Err() != nil {
			<-sem
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			defer crash.Report()
			if key, err := promote(ctx, item); err != nil {
				cancel(fmt.Errorf("%s: %w", key, err))
				return
			}
			fault.Point("after-promote-file")
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// clearStaging removes what an attempt at batch left staged: its
// _temporary/<N>/ folder, and on a store whose staged uploads outlive a
// crash, the uploads of the batch's files.
func clearStaging(ctx context.Context, sink *Sink, s providers.Storage, batch int64) error {
	if err := deletePrefix(ctx, s, sink.temporaryPrefix(batch)); err != nil {
		return err
	}
	l := s.Features().StagedLister
	if l == nil {
		return nil
	}
	var leftovers []providers.StagedUpload
	err := l.ListStaged(ctx, "", func(u providers.StagedUpload) error {
		if shard, n, ok := pipeline.FileBatch(u.Key); ok && n == batch && shard == sink.fileShard() {
			leftovers = append(leftovers, u)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("list staged uploads: %w", err)
	}
	for _, u := range leftovers {
		if err := l.Discard(ctx, u); err != nil {
			return fmt.Errorf("discard the staged upload of %s: %w", u.Key, err)
		}
	}
	return nil
}

// deletePrefix removes every object under prefix.
func deletePrefix(ctx context.Context, s providers.Storage, prefix string) error {
	if pd := s.Features().PrefixDeleter; pd != nil {
		return pd.DeletePrefix(ctx, prefix)
	}
	var keys []string
	if err := s.List(ctx, prefix, func(info providers.ObjectInfo) error {
		keys = append(keys, info.Key)
		return nil
	}); err != nil {
		return err
	}
	for _, k := range keys {
		if err := s.Delete(ctx, k); err != nil {
			return err
		}
	}
	return nil
}
