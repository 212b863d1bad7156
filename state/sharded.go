package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/providers"
)

// ShardedVersion is the format of a remote state kept as one document per
// sink. The root document at the state's key keeps only what is run-wide
// (lineage, format, a serial) and no sinks; each sink's checkpoint is the
// document "<key>.d/sinks/<sink>.json", with its own compare-and-swap, its
// history segments under "<sink>.json.history/" and its lease lock
// "<sink>.lock" beside it. Applies of different sinks then write different
// documents and take different locks, so that several processes apply
// different sinks of one state at once.
//
// The set of sink documents is the set of sinks: the root does not list them,
// so that starting a sink writes nothing shared and N workers that each start
// new sinks never contend on the root. Removing a sink is deleting its
// document.
//
// A streamctl that reads only formats 1 and 2 refuses format 3 (the root is
// "written by a newer streamctl"), so it can neither read the root as an empty
// state nor write the old layout over it.
const ShardedVersion = 3

// ShardedBackend is a backend whose state is kept in the sharded layout:
// every write of the current streamctl goes there, and a state found in the
// one-document layout (formats 1 and 2) is migrated on its first write.
type ShardedBackend interface {
	DocBackend
	// SinkLock is the lease lock of sink name's document.
	SinkLock(name string) Locker
	// RootLock is the run-wide lock, as a LeaseLock, so that appliers can
	// check it is free without taking it.
	RootLock() *LeaseLock
}

// SinksPrefix is where the sink documents of the state key are kept.
func SinksPrefix(key string) string { return key + ".d/sinks/" }

// docSinkName reports whether name, from a document's key, names a sink: a
// sink ("orders") or a shard of one ("orders/shard-3"); history segments
// ("orders.json.history/…") do not.
func docSinkName(name string) bool {
	base, shard, sharded := strings.Cut(name, "/")
	if base == "" || strings.Contains(base, ".json.history") {
		return false
	}
	if !sharded {
		return true
	}
	digits, ok := strings.CutPrefix(shard, "shard-")
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

func sinkDocName(key, sink string) string { return SinksPrefix(key) + sink + ".json" }

// sinkLockKey is what a sink's LeaseLock is named after: its lock object is
// "<key>.d/sinks/<sink>.lock".
func sinkLockKey(key, sink string) string { return SinksPrefix(key) + sink }

// sinkFile is a sink document as stored.
type sinkFile struct {
	Version int    `json:"version"`
	Lineage string `json:"lineage"`
	Sink    string `json:"sink"`
	// Serial counts this document's writes; the state's serial is the root's
	// plus every sink document's.
	Serial int64 `json:"serial"`
	// MovedFrom is set on the document a rename (moved block, state mv)
	// created: while the former document is still there at the version named,
	// the rename is committed and that document is a leftover.
	MovedFrom  *movedFrom `json:"moved_from,omitempty"`
	Checkpoint *sinkDoc   `json:"checkpoint"`
	Retired    []string   `json:"retired_history_segments,omitempty"`
}

type movedFrom struct {
	Sink    string `json:"sink"`
	Version string `json:"version"`
}

// sinkShard is what the manager knows of one sink document.
type sinkShard struct {
	version string   // of the document, for the compare-and-swap
	serial  int64    // its serial
	body    []byte   // its checkpoint as encoded, to tell whether a write changes it
	kept    []string // history segments it names
	retired []string // history segments only its backup names
}

// shards is the manager's view of a sharded state.
type shards struct {
	docs *Docs
	key  string
	// legacy: the root still holds the sinks (format 1 or 2); the first
	// write moves every sink into its own document.
	legacy     bool
	rootSerial int64
	sinks      map[string]*sinkShard
}

func (sh *shards) clone() *shards {
	c := *sh
	c.sinks = make(map[string]*sinkShard, len(sh.sinks))
	for n, s := range sh.sinks {
		c.sinks[n] = s
	}
	return &c
}

// encodeCheckpoint renders a sealed sink's checkpoint: its history past its
// segments.
func encodeCheckpoint(sink *Sink) *sinkDoc {
	cp := *sink
	cp.History = sink.History[sink.sealedLen:]
	return &sinkDoc{Sink: &cp, Segments: sink.segments, Skip: sink.skip}
}

// loadSharded reads the sink documents of a format-3 root.
func loadSharded(ctx context.Context, docs *Docs, key string, root *State) (*shards, error) {
	sh := &shards{docs: docs, key: key, rootSerial: root.Serial, sinks: map[string]*sinkShard{}}
	prefix := SinksPrefix(key)
	var names []string
	err := docs.Storage().List(ctx, prefix, func(info providers.ObjectInfo) error {
		rest := info.Key[len(prefix):]
		if name, ok := strings.CutSuffix(rest, ".json"); ok && docSinkName(name) {
			names = append(names, name)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list the sink documents: %w", err)
	}
	type read struct {
		f       sinkFile
		sink    *Sink
		version string
	}
	found := map[string]*read{}
	for _, name := range names {
		docName := sinkDocName(key, name)
		data, version, err := docs.Read(ctx, docName)
		if errors.Is(err, ErrNoState) {
			continue // removed since the listing
		}
		if err != nil {
			return nil, fmt.Errorf("read sink document %s: %w", docName, err)
		}
		f, sink, err := decodeSinkFile(data, name, root.Lineage)
		if err != nil {
			return nil, fmt.Errorf("sink document %s: %w", docName, err)
		}
		found[name] = &read{f: f, sink: sink, version: version}
	}
	// A rename is committed once its new document exists: the former one,
	// if still there at the version the rename saw, is left over.
	for _, r := range found {
		if m := r.f.MovedFrom; m != nil {
			if old := found[m.Sink]; old != nil && old.version == m.Version {
				delete(found, m.Sink)
			}
		}
	}
	for name, r := range found {
		root.Sinks[name] = r.sink
		body, _ := json.Marshal(r.f.Checkpoint)
		ss := &sinkShard{version: r.version, serial: r.f.Serial, body: body, retired: r.f.Retired}
		for _, seg := range r.sink.segments {
			ss.kept = append(ss.kept, seg.id())
		}
		sh.sinks[name] = ss
		// Each sink's history segments are kept beside its own document.
		one := &State{Lineage: root.Lineage, Sinks: map[string]*Sink{name: r.sink}}
		if err := one.readHistory(ctx, docs, sinkDocName(key, name)); err != nil {
			return nil, err
		}
		root.Serial += r.f.Serial
	}
	return sh, nil
}

// decodeSinkFile parses the document of sink name, refusing one of another
// state or sink.
func decodeSinkFile(data []byte, name, lineage string) (sinkFile, *Sink, error) {
	var f sinkFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, nil, &DecodeError{Reason: fmt.Sprintf("it does not match the sink document format: %v", err)}
	}
	switch {
	case f.Version != ShardedVersion:
		return f, nil, &DecodeError{Reason: fmt.Sprintf("it has format version %d; this streamctl reads sink documents of version %d", f.Version, ShardedVersion)}
	case f.Lineage != lineage:
		return f, nil, &DecodeError{Reason: fmt.Sprintf("it belongs to another state (lineage %s, not %s)", f.Lineage, lineage)}
	case f.Sink != name:
		return f, nil, &DecodeError{Reason: fmt.Sprintf("it holds sink %q", f.Sink)}
	case f.Checkpoint == nil || f.Checkpoint.Sink == nil:
		return f, nil, &DecodeError{Reason: "it has no checkpoint"}
	case f.Serial < 0:
		return f, nil, &DecodeError{Reason: fmt.Sprintf("its serial %d is negative", f.Serial)}
	}
	sink := f.Checkpoint.Sink
	sink.segments, sink.skip = f.Checkpoint.Segments, f.Checkpoint.Skip
	if reason := sink.check(); reason != "" {
		return f, nil, &DecodeError{Reason: reason}
	}
	if reason := sink.checkSegments(); reason != "" {
		return f, nil, &DecodeError{Reason: reason}
	}
	if sink.Offsets == nil {
		sink.Offsets = map[string]int64{}
	}
	if sink.Destinations == nil {
		sink.Destinations = map[string]*Destination{}
	}
	return f, sink, nil
}

// writeSink writes sink's document: its new history segments first, then the
// document by compare-and-swap on the version last seen (prev; nil: create
// it). The sink is sealed in place.
func (sh *shards) writeSink(ctx context.Context, name string, sink *Sink, lineage string, prev *sinkShard, moved *movedFrom, serial int64) (*sinkShard, error) {
	docName := sinkDocName(sh.key, name)
	segments, err := sink.seal(lineage)
	if err != nil {
		return nil, fmt.Errorf("encode sink %q: %w", name, err)
	}
	next := &sinkShard{serial: serial}
	for _, seg := range sink.segments {
		if !seg.dirty {
			next.kept = append(next.kept, seg.id())
		}
	}
	version := ""
	if prev != nil {
		version = prev.version
		for _, id := range prev.kept {
			if !slices.Contains(next.kept, id) {
				next.retired = append(next.retired, id)
			}
		}
		slices.Sort(next.retired)
	}
	cp := encodeCheckpoint(sink)
	next.body, err = json.Marshal(cp)
	if err != nil {
		return nil, fmt.Errorf("encode sink %q: %w", name, err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sinkFile{Version: ShardedVersion, Lineage: lineage, Sink: name, Serial: serial, MovedFrom: moved, Checkpoint: cp, Retired: next.retired}); err != nil {
		return nil, fmt.Errorf("encode sink %q: %w", name, err)
	}
	for _, seg := range segments {
		if err := sh.docs.Create(ctx, segmentName(docName, seg.id), seg.data); err != nil {
			return nil, fmt.Errorf("history segment of sink %q: %w", name, err)
		}
	}
	v, err := sh.docs.Write(ctx, docName, buf.Bytes(), version)
	if err != nil {
		return nil, fmt.Errorf("sink %q: %w", name, err)
	}
	next.version = v
	if prev != nil {
		// The backup now names what the replaced document named: the
		// segments only the one before it named are no one's.
		for _, id := range prev.retired {
			if !slices.Contains(next.kept, id) {
				_ = sh.docs.Delete(ctx, segmentName(docName, id))
			}
		}
	}
	return next, nil
}

// rootDoc renders the root document of a sharded state.
func rootDoc(s *State, serial int64) ([]byte, error) {
	doc := stateDoc{Version: ShardedVersion, Lineage: s.Lineage, Serial: serial, StreamctlVersion: s.StreamctlVersion, Sinks: map[string]*sinkDoc{}, Reshards: s.Reshards}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// createRoot writes the root of a new sharded state. Several workers started
// together over no state race to create it: the one that loses takes the
// winner's lineage, which is safe because it has written nothing yet.
func (m *Manager) createRoot(ctx context.Context) error {
	data, err := rootDoc(m.state, 0)
	if err != nil {
		return err
	}
	v, err := m.backend.Write(ctx, data, "")
	if errors.Is(err, ErrConflict) {
		cur, cv, rerr := m.backend.Read(ctx)
		if rerr != nil {
			return fmt.Errorf("write state %s: %w", m.backend.Describe(), err)
		}
		root, derr := Decode(cur)
		if derr != nil || root.Version != ShardedVersion || len(m.state.Sinks) > 0 {
			return fmt.Errorf("write state %s: %w", m.backend.Describe(), err)
		}
		next := m.state.Clone()
		next.Lineage, next.Serial = root.Lineage, root.Serial
		m.shard.rootSerial = root.Serial
		m.state, m.version = next, cv
		return nil
	}
	if err != nil {
		return fmt.Errorf("write state %s: %w", m.backend.Describe(), err)
	}
	m.version = v
	return nil
}

// updateSharded is Update on a sharded backend: the sinks change writes (all
// of them when migrating), the rename or removals, and the root when its
// serial or format changes.
func (m *Manager) updateSharded(ctx context.Context, change func(*State) error) error {
	if m.version == "" {
		if err := m.createRoot(ctx); err != nil {
			return err
		}
	}
	next := m.state.Clone()
	if err := change(next); err != nil {
		return err
	}
	sh := m.shard.clone()
	var added, removed []string
	for _, name := range next.SinkNames() {
		if m.state.Sinks[name] == nil {
			added = append(added, name)
		}
	}
	for _, name := range m.state.SinkNames() {
		if next.Sinks[name] == nil {
			removed = append(removed, name)
		}
	}
	var moved *movedFrom
	if len(added) == 1 && len(removed) == 1 && !sh.legacy {
		if old := sh.sinks[removed[0]]; old != nil {
			moved = &movedFrom{Sink: removed[0], Version: old.version}
		}
	}
	for _, name := range next.SinkNames() {
		sink := next.Sinks[name]
		prev := sh.sinks[name]
		if sh.legacy {
			// The segments are named relative to the root: they are
			// written again beside the sink's own document.
			for k := range sink.segments {
				sink.segments[k].dirty = true
			}
			// A document left by a migration that crashed before its root
			// was written is replaced; the root is the migration's commit.
			v, err := sh.docs.Version(ctx, sinkDocName(sh.key, name))
			if err != nil && !errors.Is(err, ErrNoState) {
				return fmt.Errorf("write state %s: %w", m.backend.Describe(), err)
			}
			prev = nil
			if v != "" {
				prev = &sinkShard{version: v}
			}
		} else if prev != nil {
			probe := *sink
			probe.segments = slices.Clone(sink.segments)
			if _, err := probe.seal(next.Lineage); err == nil {
				if body, err := json.Marshal(encodeCheckpoint(&probe)); err == nil && bytes.Equal(body, prev.body) {
					continue // unchanged: not written
				}
			}
		}
		serial := int64(1)
		var mv *movedFrom
		switch {
		case prev != nil:
			serial = prev.serial + 1
		case moved != nil && name == added[0]:
			mv = moved
			serial = sh.sinks[moved.Sink].serial + 1
		}
		ss, err := sh.writeSink(ctx, name, sink, next.Lineage, prev, mv, serial)
		if err != nil {
			return fmt.Errorf("write state %s: %w", m.backend.Describe(), err)
		}
		sh.sinks[name] = ss
		fault.Point("after-sink-document")
	}
	rootSerial := sh.rootSerial
	for _, name := range removed {
		if moved == nil {
			// The root absorbs the removed document's serial, so that the
			// state's serial still grows.
			rootSerial += sh.sinks[name].serial + 1
		}
	}
	if !sameReshards(next.Reshards, m.state.Reshards) && rootSerial == sh.rootSerial {
		// The root holds the changes of shards in progress.
		rootSerial++
	}
	if sh.legacy || rootSerial != sh.rootSerial {
		data, err := rootDoc(next, rootSerial)
		if err != nil {
			return fmt.Errorf("encode state: %w", err)
		}
		v, err := m.backend.Write(ctx, data, m.version)
		if err != nil {
			return fmt.Errorf("write state %s: %w", m.backend.Describe(), err)
		}
		m.version = v
		sh.rootSerial, sh.legacy = rootSerial, false
	}
	for _, name := range removed {
		// Deleting the document is the removal's commit (or, for a rename,
		// the cleanup of a leftover the new document already supersedes).
		if err := sh.docs.Delete(ctx, sinkDocName(sh.key, name)); err != nil {
			return fmt.Errorf("write state %s: remove sink %q: %w", m.backend.Describe(), name, err)
		}
		delete(sh.sinks, name)
	}
	next.Version = ShardedVersion
	next.retired = nil
	next.Serial = sh.serial()
	m.shard = sh
	m.state = next
	return nil
}

func (sh *shards) serial() int64 {
	n := sh.rootSerial
	for _, s := range sh.sinks {
		n += s.serial
	}
	return n
}

// updateSink writes only sink name's document. change sees a state holding
// that sink alone (when it has a checkpoint) and may create it, change it or
// leave it; the other sinks are not its to change.
func (m *Manager) updateSink(ctx context.Context, name string, change func(*State) error) error {
	m.mu.Lock()
	cur, sh := m.state, m.shard
	prev := sh.sinks[name]
	m.mu.Unlock()
	view := &State{Version: cur.Version, Lineage: cur.Lineage, Serial: cur.Serial, StreamctlVersion: cur.StreamctlVersion, Sinks: map[string]*Sink{}}
	if s := cur.Sinks[name]; s != nil {
		view.Sinks[name] = s.clone()
	}
	if err := change(view); err != nil {
		return err
	}
	sink := view.Sinks[name]
	if len(view.Sinks) > 1 || len(view.Sinks) == 1 && sink == nil || sink == nil && cur.Sinks[name] != nil {
		return fmt.Errorf("a change of sink %q may not create or remove other sinks", name)
	}
	if sink == nil {
		return nil
	}
	serial := int64(1)
	if prev != nil {
		serial = prev.serial + 1
	}
	ss, err := sh.writeSink(ctx, name, sink, cur.Lineage, prev, nil, serial)
	if err != nil {
		return fmt.Errorf("write state %s: %w", m.backend.Describe(), err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	next := *m.state
	next.Sinks = make(map[string]*Sink, len(m.state.Sinks)+1)
	for n, s := range m.state.Sinks {
		next.Sinks[n] = s
	}
	next.Sinks[name] = sink
	m.shard = m.shard.clone()
	m.shard.sinks[name] = ss
	next.Serial = m.shard.serial()
	m.state = &next
	return nil
}

// ReloadSink reads sink name's document again, as another process may have
// written it since the state was loaded: an applier calls it once it holds
// the sink's lock, before it plans the sink. On a state that is not sharded
// it does nothing (its lock covers the whole state, taken before Load).
func (m *Manager) ReloadSink(ctx context.Context, name string) error {
	m.wmu.RLock()
	defer m.wmu.RUnlock()
	m.mu.Lock()
	sh, noRoot, lineage := m.shard, m.version == "", m.state.Lineage
	m.mu.Unlock()
	if sh == nil || sh.legacy {
		return nil
	}
	if noRoot {
		// The root may have been created by another process since: read
		// it all again, so that its lineage is the one the sinks carry.
		fresh, err := Load(ctx, m.backend, m.state.StreamctlVersion)
		if err != nil {
			return err
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		if fresh.Exists() {
			m.version, m.state, m.shard = fresh.version, fresh.state, fresh.shard
		}
		return nil
	}
	docName := sinkDocName(sh.key, name)
	data, version, err := sh.docs.Read(ctx, docName)
	var sink *Sink
	var ss *sinkShard
	switch {
	case errors.Is(err, ErrNoState):
	case err != nil:
		return fmt.Errorf("read sink document %s: %w", docName, err)
	default:
		f, s, err := decodeSinkFile(data, name, lineage)
		if err != nil {
			return &CorruptError{Path: sh.docs.Storage().Describe() + "/" + docName, Err: err}
		}
		one := &State{Lineage: lineage, Sinks: map[string]*Sink{name: s}}
		if err := one.readHistory(ctx, sh.docs, docName); err != nil {
			return &CorruptError{Path: sh.docs.Storage().Describe() + "/" + docName, Err: err}
		}
		body, _ := json.Marshal(f.Checkpoint)
		sink, ss = s, &sinkShard{version: version, serial: f.Serial, body: body, retired: f.Retired}
		for _, seg := range s.segments {
			ss.kept = append(ss.kept, seg.id())
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	next := *m.state
	next.Sinks = make(map[string]*Sink, len(m.state.Sinks)+1)
	for n, s := range m.state.Sinks {
		next.Sinks[n] = s
	}
	m.shard = m.shard.clone()
	if sink == nil {
		delete(next.Sinks, name)
		delete(m.shard.sinks, name)
	} else {
		next.Sinks[name] = sink
		m.shard.sinks[name] = ss
	}
	next.Serial = m.shard.serial()
	m.state = &next
	return nil
}

func sameReshards(a, b map[string]*Reshard) bool {
	return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b)
}
