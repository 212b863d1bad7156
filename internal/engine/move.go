package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// MoveSink renames sink from to sink.Name, as a moved block or `state mv`
// asks, in an order that a crash at any point can resume:
//
//  1. in every destination, the manifests and indexes under _streamctl/<from>/
//     are copied under _streamctl/<to>/ (create-only, naming the new sink),
//     and the owner record is switched to the new sink;
//  2. the state's checkpoint is renamed: the move's commit point;
//  3. the manifests under the old name are removed.
//
// Until 2 the old name's manifests are complete, so a plan made in between
// observes them; after it, a rerun only finishes 3. Data files keep their
// names: they are numbered by batch, and the batch numbers continue.
func (e *Engine) MoveSink(ctx context.Context, sink *Sink, from string) error {
	if err := validMove(e.State.State(), from, sink.Name); err != nil {
		return err
	}
	done := e.State.State().Sinks[from] == nil
	if !done {
		if err := e.ensureState(ctx); err != nil {
			return err
		}
		own := e.ownership()
		for i := range sink.Destinations {
			d := &sink.Destinations[i]
			want := planner.Owner{Lineage: own.Lineage, Sink: sink.Name, Destination: d.Name, State: own.State}
			if err := moveDestination(ctx, d, from, want, e.Version, e.now(), func() error { return e.fence(sink.Name) }); err != nil {
				return fmt.Errorf("move sink %s to %s in destination %s (%s): %w", from, sink.Name, d.Name, d.Storage.Describe(), err)
			}
		}
		fault.Point("before-move-state")
		if err := e.fence(sink.Name); err != nil {
			return fmt.Errorf("move sink %s to %s in the state: %w", from, sink.Name, err)
		}
		// A rename changes two sinks: a write of the whole state (the
		// command holds the run-wide lock and both sinks' locks).
		e.stateMu.Lock()
		err := e.State.Update(context.WithoutCancel(ctx), func(s *state.State) error {
			if err := validMove(s, from, sink.Name); err != nil {
				return err
			}
			if ss := s.Sinks[from]; ss != nil {
				s.Sinks[sink.Name] = ss
				delete(s.Sinks, from)
			}
			return nil
		})
		e.stateMu.Unlock()
		if err != nil {
			return fmt.Errorf("move sink %s to %s in the state: %w", from, sink.Name, err)
		}
		fault.Point("after-move-state")
	}
	for _, d := range sink.Destinations {
		if err := e.fence(sink.Name); err != nil {
			return fmt.Errorf("move sink %s to %s: remove the old manifests from %s: %w", from, sink.Name, d.Name, err)
		}
		if err := deletePrefix(ctx, d.Storage, MetadataDir+"/"+from+"/"); err != nil {
			return fmt.Errorf("move sink %s to %s: remove the old manifests from %s: %w", from, sink.Name, d.Name, err)
		}
	}
	e.emit(Moved{Sink: sink.Name, From: from})
	return nil
}

// validMove refuses a move the state cannot take.
func validMove(s *state.State, from, to string) error {
	switch {
	case from == to:
		return fmt.Errorf("sink %s cannot be moved to itself", from)
	case s.Sinks[from] != nil && s.Sinks[to] != nil:
		return fmt.Errorf("the state holds both sink %s and sink %s: move one aside first (`streamctl state rm %s` forgets the one to drop; its data stays)", from, to, to)
	case s.Sinks[from] == nil && s.Sinks[to] == nil:
		return fmt.Errorf("the state holds no sink %s to move", from)
	}
	return nil
}

// moveDestination is step 1 of MoveSink for one destination. fence is asked
// before each write: a run frozen past its lease must not write after the
// lock's next holder (see Engine.Fence).
func moveDestination(ctx context.Context, d *Destination, from string, want planner.Owner, version string, now time.Time, fence func() error) error {
	o, ov, err := readOwner(ctx, d.Storage)
	if err != nil {
		return err
	}
	if o == nil {
		// Written before owner records existed: it may hold only the moved
		// sink's manifests (and copies of them from an interrupted move).
		others, err := foreignSinks(ctx, d.Storage, from, want.Sink)
		if err != nil {
			return fmt.Errorf("list %s/: %w", MetadataDir, err)
		}
		if len(others) > 0 {
			return &ErrNotOwner{Destination: d.Name, Location: d.Storage.Describe(), Owner: planner.Owner{Sink: others[0]}, Want: want}
		}
	} else {
		have := o.identity()
		if have.Sink == from {
			have.Sink = want.Sink
		}
		if !planner.SameOwner(have, want) {
			return &ErrNotOwner{Destination: d.Name, Location: d.Storage.Describe(), Owner: o.identity(), Want: want}
		}
	}

	prefix := MetadataDir + "/" + from + "/"
	var files []string
	err = d.Storage.List(ctx, prefix, func(info providers.ObjectInfo) error {
		file := info.Key[len(prefix):]
		if _, ok := parseBatchKey(file, true); ok {
			files = append(files, file)
		} else if n, found := strings.CutPrefix(file, "index-"); found {
			if _, ok := parseBatchKey(n, true); ok {
				files = append(files, file)
			}
		} else if ref, ok := parseManifestName(file); ok && ref.compaction != 0 {
			// Without it, the files it replaced (deleted) would be listed.
			files = append(files, file)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("list %s: %w", prefix, err)
	}
	if err := fence(); err != nil {
		return err
	}
	if err := forEach(len(files), func(i int) error {
		return copyControlFile(ctx, d.Storage, from, want.Sink, files[i])
	}); err != nil {
		return err
	}
	fault.Point("after-move-manifests")

	if o != nil && o.Sink == want.Sink {
		return nil
	}
	if err := fence(); err != nil {
		return err
	}
	rec := &Owner{FormatVersion: OwnerVersion, Lineage: want.Lineage, Sink: want.Sink, Destination: want.Destination, State: want.State, Claimed: now.UTC(), Version: version}
	if o == nil {
		if _, err := d.Storage.PutIfAbsent(ctx, OwnerKey, encodeOwner(rec)); err != nil {
			return fmt.Errorf("write %s: %w", OwnerKey, err)
		}
		return nil
	}
	rec.Claimed = o.Claimed
	if _, err := d.Storage.PutIfMatch(ctx, OwnerKey, encodeOwner(rec), ov); err != nil {
		return fmt.Errorf("switch %s to sink %s: %w", OwnerKey, want.Sink, err)
	}
	return nil
}

// copyControlFile copies one manifest or index from the old sink's folder to
// the new one, naming the new sink. A copy already there must be the same.
func copyControlFile(ctx context.Context, s providers.Storage, from, to, file string) error {
	src := MetadataDir + "/" + from + "/" + file
	dst := MetadataDir + "/" + to + "/" + file
	data, _, err := providers.ReadAll(ctx, s, src)
	if err != nil {
		return fmt.Errorf("read %s: %w", src, err)
	}
	var out []byte
	if ref, ok := parseManifestName(file); ok && ref.compaction != 0 {
		m, err := decodeCompactionManifest(data, from, ref.compaction)
		if err != nil {
			return fmt.Errorf("read %s: %w", src, err)
		}
		m.Sink = to
		out = encodeCompactionManifest(m)
	} else if strings.HasPrefix(file, "index-") {
		var ix ManifestIndex
		if err := json.Unmarshal(data, &ix); err != nil {
			return fmt.Errorf("read %s: %w", src, err)
		}
		ix.Sink = to
		for _, m := range ix.Manifests {
			m.Sink = to
		}
		out = encodeIndex(&ix)
	} else {
		m, err := DecodeManifest(data)
		if err != nil {
			return fmt.Errorf("read %s: %w", src, err)
		}
		m.Sink = to
		out = encodeManifest(m)
	}
	if _, err := s.PutIfAbsent(ctx, dst, out); err != nil {
		if !errors.Is(err, providers.ErrExist) {
			return fmt.Errorf("write %s: %w", dst, err)
		}
		theirs, _, rerr := providers.ReadAll(ctx, s, dst)
		if rerr != nil {
			return fmt.Errorf("read %s: %w", dst, rerr)
		}
		if string(theirs) != string(out) {
			return fmt.Errorf("%s exists with other contents: sink %s already has batches of its own there; stop every other streamctl on this destination and run streamctl plan", dst, to)
		}
	}
	return nil
}

// UndoMove gives sink's destinations back from the name to that a move
// killed before its state commit switched them to: the state still holds
// the checkpoint under sink.Name, and the manifests under _streamctl/<to>/
// are copies of those under _streamctl/<sink>/, which the move had not yet
// removed. In each destination the copies are removed first, then the owner
// record is switched back, so that a crash in between is undone again by the
// next apply.
func (e *Engine) UndoMove(ctx context.Context, sink *Sink, to string) error {
	if sink.Shard != nil || to == sink.Name {
		return fmt.Errorf("undo the move of sink %s to %s: only a whole sink is moved", sink.Name, to)
	}
	if s := e.State.State(); s.Sinks[sink.Name] == nil || s.Sinks[to] != nil {
		return fmt.Errorf("undo the move of sink %s to %s: the state holds the checkpoint under %s now; run streamctl plan again", sink.Name, to, to)
	}
	own := e.ownership()
	for i := range sink.Destinations {
		d := &sink.Destinations[i]
		want := planner.Owner{Lineage: own.Lineage, Sink: sink.Name, Destination: d.Name, State: own.State}
		if err := undoMoveDestination(ctx, d, to, want, func() error { return e.fence(sink.Name) }); err != nil {
			return fmt.Errorf("undo the move of sink %s to %s in destination %s (%s): %w", sink.Name, to, d.Name, d.Storage.Describe(), err)
		}
	}
	e.emit(Moved{Sink: sink.Name, From: to})
	return nil
}

// undoMoveDestination is UndoMove for one destination; fence as for
// moveDestination.
func undoMoveDestination(ctx context.Context, d *Destination, to string, want planner.Owner, fence func() error) error {
	o, ov, err := readOwner(ctx, d.Storage)
	if err != nil {
		return err
	}
	if o == nil || o.Sink == want.Sink {
		return nil // never switched, or already given back
	}
	moved := o.identity()
	moved.Sink = want.Sink
	if o.Sink != to || !planner.SameOwner(moved, want) {
		return &ErrNotOwner{Destination: d.Name, Location: d.Storage.Describe(), Owner: o.identity(), Want: want}
	}
	// Only copies may go: a file under the new name without its original
	// under the old one is a batch of the other sink's own.
	prefix := MetadataDir + "/" + to + "/"
	var copies []string
	err = d.Storage.List(ctx, prefix, func(info providers.ObjectInfo) error {
		copies = append(copies, info.Key[len(prefix):])
		return nil
	})
	if err != nil {
		return fmt.Errorf("list %s: %w", prefix, err)
	}
	for _, file := range copies {
		original := MetadataDir + "/" + want.Sink + "/" + file
		if _, err := d.Storage.Stat(ctx, original); err != nil {
			if errors.Is(err, providers.ErrNotExist) {
				return fmt.Errorf("%s%s has no original %s, so sink %s wrote batches of its own there: stop every other streamctl on this destination and run streamctl plan", prefix, file, original, to)
			}
			return fmt.Errorf("read %s: %w", original, err)
		}
	}
	if err := fence(); err != nil {
		return err
	}
	if err := deletePrefix(ctx, d.Storage, prefix); err != nil {
		return fmt.Errorf("remove the copied manifests %s: %w", prefix, err)
	}
	fault.Point("after-undo-move-manifests")
	if err := fence(); err != nil {
		return err
	}
	rec := &Owner{FormatVersion: OwnerVersion, Lineage: want.Lineage, Sink: want.Sink, Destination: want.Destination, State: want.State, Claimed: o.Claimed, Version: o.Version}
	if _, err := d.Storage.PutIfMatch(ctx, OwnerKey, encodeOwner(rec), ov); err != nil {
		return fmt.Errorf("give %s back to sink %s: %w", OwnerKey, want.Sink, err)
	}
	return nil
}

// moveLeftovers lists, in a destination sink owns, the other sink names
// whose folders under _streamctl/ hold only manifests and indexes that sink
// holds too: copies an interrupted move left. A move killed before its state
// commit and then reverted leaves them under the new name; one killed after
// it, before it removed the old manifests, leaves the originals under the old
// name. A folder holding anything else (a batch the other sink wrote itself)
// is not one.
func moveLeftovers(ctx context.Context, s providers.Storage, sink string) ([]string, error) {
	ours := map[string]bool{}
	others := map[string][]string{}
	err := s.List(ctx, MetadataDir+"/", func(info providers.ObjectInfo) error {
		name, file, ok := strings.Cut(info.Key[len(MetadataDir)+1:], "/")
		switch {
		case !ok:
		case name == sink:
			ours[file] = true
		default:
			others[name] = append(others[name], file)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list %s/: %w", MetadataDir, err)
	}
	var found []string
	for _, name := range slices.Sorted(maps.Keys(others)) {
		if !slices.ContainsFunc(others[name], func(file string) bool { return !ours[file] || !controlFile(file) }) {
			found = append(found, name)
		}
	}
	return found, nil
}

// controlFile reports whether file, in a sink's folder under _streamctl/, is
// a manifest or an index: what a move copies.
func controlFile(file string) bool {
	if _, ok := parseBatchKey(file, true); ok {
		return true
	}
	n, found := strings.CutPrefix(file, "index-")
	_, ok := parseBatchKey(n, true)
	return found && ok
}

// removeMoveLeftover removes the folder _streamctl/<name>/ a plan found to
// hold only copies an interrupted move left in d, once it has checked again
// that d is still sink's and the folder still holds only copies: the plan
// may be old.
func removeMoveLeftover(ctx context.Context, sink *Sink, d *Destination, name string) error {
	if sink.Shard != nil || name == sink.Name {
		return fmt.Errorf("only a whole sink's destination holds what a move left")
	}
	o, _, err := readOwner(ctx, d.Storage)
	if err != nil {
		return err
	}
	if o == nil || o.Sink != sink.Name {
		return fmt.Errorf("the destination is no longer owned by sink %s; run streamctl plan again", sink.Name)
	}
	left, err := moveLeftovers(ctx, d.Storage, sink.Name)
	if err != nil {
		return err
	}
	if !slices.Contains(left, name) {
		if keys, err := listKeys(ctx, d.Storage, MetadataDir+"/"+name+"/"); err == nil && len(keys) == 0 {
			return nil // removed already, by a run that was then killed
		}
		return fmt.Errorf("%s/%s/ now holds files that are not copies of sink %s's manifests; run streamctl plan again", MetadataDir, name, sink.Name)
	}
	return deletePrefix(ctx, d.Storage, MetadataDir+"/"+name+"/")
}

// listKeys lists the keys under prefix.
func listKeys(ctx context.Context, s providers.Storage, prefix string) ([]string, error) {
	var keys []string
	err := s.List(ctx, prefix, func(info providers.ObjectInfo) error {
		keys = append(keys, info.Key)
		return nil
	})
	return keys, err
}
