// Package state is the checkpoint: per sink, the committed offsets, the batch in
// flight with its logged ranges, and a bounded history. It also holds the codec
// and the backends, which write the state with compare-and-swap under a lock.
// The older part of the history is kept in segments beside the state
// document, written once, so that a state write costs the same whatever the
// history's length.
package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// Version is the state format of a whole state in one document, as this
// streamctl writes it while no sink has history segments (SegmentedVersion).
// A state with a version above SegmentedVersion was written by a newer
// streamctl and is refused.
const Version = 1

// DefaultHistory is how many recent batches each sink keeps in its history.
const DefaultHistory = 1000

// Bounds of the numbers in a state. Batch numbers and offsets are added to
// (next_batch+1, start+records) and compared; a state edited to hold values
// near 2^63 would make them wrap, so Decode refuses values above these.
// 2^53 is also the largest integer JSON readers in JavaScript hold exactly.
const (
	MaxBatch  = 1 << 53
	MaxOffset = 1 << 62
)

// State is the whole checkpoint of one configuration.
type State struct {
	Version          int              `json:"version"`
	Lineage          string           `json:"lineage"` // fixed when the state is created
	Serial           int64            `json:"serial"`  // incremented on every write
	StreamctlVersion string           `json:"streamctl_version"`
	Sinks            map[string]*Sink `json:"sinks"`
	// Reshards are the changes of sinks' numbers of shards in progress, by
	// sink: see Reshard.
	Reshards map[string]*Reshard `json:"reshards,omitempty"`

	// retired are the history segments the write of this state stopped
	// naming: only its backup names them, and the next write removes them.
	retired []string
}

// Sink is the checkpoint of one sink.
type Sink struct {
	Source SourceRef `json:"source"`
	// Shard is set on the checkpoint of a shard of a sharded sink, named
	// "<sink>/shard-<index>".
	Shard *Shard `json:"shard,omitempty"`
	// NextBatch is the number the next new batch gets.
	NextBatch int64 `json:"next_batch"`
	// Offsets are the committed offsets: per partition, the next offset to read.
	Offsets map[string]int64 `json:"offsets"`
	// InFlight is the batch whose intent was logged and which is not committed.
	InFlight *Batch `json:"in_flight,omitempty"`
	// Layout is what the sink's latest batches were written with; nil in a
	// state written before streamctl recorded it (the batches' Layout hash
	// is then all there is). It is replaced, never changed in place: clones
	// share it.
	Layout *Layout `json:"layout,omitempty"`
	// FormerLayouts are the layouts the sink wrote before Layout, newest
	// first, at most MaxFormerLayouts: a batch that must be written again
	// in one of them is named with its settings. Replaced, never changed in
	// place, like Layout.
	FormerLayouts []Layout `json:"former_layouts,omitempty"`
	// Compaction is the compaction whose intent is logged and which is not
	// finished (see the protocol's compaction section). It is replaced, never changed in
	// place: clones share it.
	Compaction *Compaction `json:"compaction,omitempty"`
	// Destinations holds what each destination has committed.
	Destinations map[string]*Destination `json:"destinations"`
	// History lists the most recent committed batches, oldest first. Its
	// entries are shared between clones of a state and most of them are
	// stored in segments written once: change them only through Record.
	History []Batch `json:"history"`
	// Committed counts every batch and record ever committed.
	CommittedBatches int64      `json:"committed_batches"`
	CommittedRecords int64      `json:"committed_records"`
	LastCommit       *time.Time `json:"last_commit,omitempty"`

	// segments hold History[:sealedLen], past the first skip batches of the
	// first one; the state document holds the rest.
	segments  []segmentRef
	skip      int
	sealedLen int
}

// Shard is shard Index of Count of the sharded sink Sink: it holds the
// partitions whose shard of Count is Index (planner.ShardOf).
type Shard struct {
	Sink  string `json:"sink"`
	Index int    `json:"index"`
	Count int    `json:"count"`
}

// ShardName is the checkpoint name of shard index of sink.
func ShardName(sink string, index int) string {
	return sink + "/shard-" + strconv.Itoa(index)
}

// SourceRef says which stream a sink's offsets belong to.
type SourceRef struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Identity string `json:"identity"`
}

// Layout is a sink's output settings: the hash its batches carry
// (Batch.Layout), and the settings themselves, so that a plan can show
// which of them a configuration changes.
type Layout struct {
	Hash string `json:"hash"`
	// Settings are the values by attribute name, as HCL
	// (pipeline.Layout.Settings): "format" = `"jsonl"`.
	Settings map[string]string `json:"settings,omitempty"`
}

// MaxFormerLayouts bounds Sink.FormerLayouts.
const MaxFormerLayouts = 10

// SetLayout makes l the sink's layout; the one it replaces goes first in
// FormerLayouts.
func (s *Sink) SetLayout(l *Layout) {
	if s.Layout != nil && s.Layout.Hash != l.Hash {
		former := []Layout{*s.Layout}
		for _, f := range s.FormerLayouts {
			if f.Hash != s.Layout.Hash && f.Hash != l.Hash && len(former) < MaxFormerLayouts {
				former = append(former, f)
			}
		}
		s.FormerLayouts = former
	}
	s.Layout = l
}

// LayoutSettings returns the settings of the layout with hash, when the
// sink records them.
func (s *Sink) LayoutSettings(hash string) map[string]string {
	if s.Layout != nil && s.Layout.Hash == hash {
		return s.Layout.Settings
	}
	for _, f := range s.FormerLayouts {
		if f.Hash == hash {
			return f.Settings
		}
	}
	return nil
}

// Destination is the per-destination checkpoint.
type Destination struct {
	// LastBatch is the last batch this destination committed; -1 for none.
	LastBatch int64 `json:"last_batch"`
	// From is the first batch the destination holds: batches before it were
	// committed before it was added (with backfill = false).
	From int64 `json:"from"`
}

// Range is [Start, End) of one source partition.
type Range struct {
	Partition string `json:"partition"`
	Start     int64  `json:"start"`
	End       int64  `json:"end"`
}

// Records is the number of offsets the range spans.
func (r Range) Records() int64 { return r.End - r.Start }

// Batch is a batch whose ranges are fixed: in flight or committed.
type Batch struct {
	ID     int64   `json:"id"`
	Ranges []Range `json:"ranges"`
	// Destinations are the destinations the batch was started with; a retry
	// writes to these, so that routing cannot change under a batch.
	Destinations []string `json:"destinations,omitempty"`
	// Layout is a hash of the sink's output settings when the batch started; a
	// retry with other settings would write other files.
	Layout    string     `json:"layout,omitempty"`
	Records   int64      `json:"records"`
	Started   *time.Time `json:"started,omitempty"`
	Committed *time.Time `json:"committed,omitempty"`
}

// Compaction is the intent of a compaction of one destination's committed
// files: which manifests' files it replaces, and with what. The new files
// follow from it alone, so that a retry writes the same files.
type Compaction struct {
	// ID numbers the destination's compactions of the sink, from 1: its
	// manifest is _streamctl/<sink>/compaction-<ID>.json.
	ID          int64  `json:"id"`
	Destination string `json:"destination"`
	// Replaces names the manifests whose files it replaces, as their file
	// names in the sink's manifest folder: "7.json" (batch 7),
	// "compaction-2.json", in the order their rows are written.
	Replaces []string `json:"replaces"`
	// TargetSize is the size, in bytes, a new file ends at.
	TargetSize int64 `json:"target_size"`
	// Layout is the hash of the output settings the replaced files were
	// written with (Batch.Layout), and the new ones are.
	Layout  string     `json:"layout,omitempty"`
	Started *time.Time `json:"started,omitempty"`
}

// Span is the number of offsets the batch's ranges span.
func (b *Batch) Span() int64 {
	var n int64
	for _, r := range b.Ranges {
		n += r.Records()
	}
	return n
}

// New returns an empty state with a fresh lineage.
func New(version string) *State {
	return &State{
		Version:          Version,
		Lineage:          uuid.NewString(),
		StreamctlVersion: version,
		Sinks:            map[string]*Sink{},
	}
}

// SinkNames lists the sinks in name order.
func (s *State) SinkNames() []string {
	names := make([]string, 0, len(s.Sinks))
	for n := range s.Sinks {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Clone returns a copy to change. The history's entries are shared, not
// copied (Record copies before it changes one), so that cloning costs the
// same whatever the history's length.
func (s *State) Clone() *State {
	c := *s
	c.retired = slices.Clone(s.retired)
	if s.Reshards != nil {
		c.Reshards = make(map[string]*Reshard, len(s.Reshards))
		for n, r := range s.Reshards {
			c.Reshards[n] = r.clone()
		}
	}
	c.Sinks = make(map[string]*Sink, len(s.Sinks))
	for name, sink := range s.Sinks {
		c.Sinks[name] = sink.clone()
	}
	return &c
}

func (s *Sink) clone() *Sink {
	if s == nil {
		return nil
	}
	c := *s
	c.Offsets = maps.Clone(s.Offsets)
	if c.Offsets == nil {
		c.Offsets = map[string]int64{}
	}
	c.Destinations = make(map[string]*Destination, len(s.Destinations))
	for name, d := range s.Destinations {
		if d != nil {
			cp := *d
			d = &cp
		}
		c.Destinations[name] = d
	}
	if s.InFlight != nil {
		b := s.InFlight.clone()
		c.InFlight = &b
	}
	if s.Shard != nil {
		sh := *s.Shard
		c.Shard = &sh
	}
	c.segments = slices.Clone(s.segments)
	return &c
}

func (b *Batch) clone() Batch {
	c := *b
	c.Ranges = slices.Clone(b.Ranges)
	c.Destinations = slices.Clone(b.Destinations)
	return c
}

// stateDoc is the state document as stored: the state, with each sink's
// history past its segments.
type stateDoc struct {
	Version          int                 `json:"version"`
	Lineage          string              `json:"lineage"`
	Serial           int64               `json:"serial"`
	StreamctlVersion string              `json:"streamctl_version"`
	Sinks            map[string]*sinkDoc `json:"sinks"`
	Reshards         map[string]*Reshard `json:"reshards,omitempty"`
	Retired          []string            `json:"retired_history_segments,omitempty"`
}

type sinkDoc struct {
	*Sink
	Segments []segmentRef `json:"history_segments,omitempty"`
	Skip     int          `json:"history_skip,omitempty"`
}

// Encode renders the whole state as one indented JSON document, its whole
// history included.
func Encode(s *State) ([]byte, error) {
	c := *s
	c.Sinks = make(map[string]*Sink, len(s.Sinks))
	for name, sink := range s.Sinks {
		if sink != nil {
			cp := *sink
			cp.segments, cp.skip, cp.sealedLen = nil, 0, 0
			sink = &cp
		}
		c.Sinks[name] = sink
	}
	c.retired = nil
	return encodeDoc(&c)
}

// encodeDoc renders the state document: each sink's history past what its
// segments hold. The format is Version unless a sink has segments.
func encodeDoc(s *State) ([]byte, error) {
	doc := stateDoc{Version: s.docVersion(), Lineage: s.Lineage, Serial: s.Serial, StreamctlVersion: s.StreamctlVersion, Sinks: make(map[string]*sinkDoc, len(s.Sinks)), Reshards: s.Reshards, Retired: s.retired}
	for name, sink := range s.Sinks {
		if sink == nil {
			doc.Sinks[name] = nil
			continue
		}
		cp := *sink
		cp.History = sink.History[sink.sealedLen:]
		doc.Sinks[name] = &sinkDoc{Sink: &cp, Segments: sink.segments, Skip: sink.skip}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// DecodeError explains why a state file cannot be used.
type DecodeError struct {
	Reason string
}

func (e *DecodeError) Error() string { return e.Reason }

// Decode parses a state file, refusing anything that is not a whole streamctl
// state this version can read. Of a state with history segments
// (SegmentedVersion) it returns the history the document holds, the newest
// batches; Load reads the segments too.
func Decode(data []byte) (*State, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &DecodeError{Reason: "the file is empty"}
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, &DecodeError{Reason: fmt.Sprintf("it is not valid JSON (truncated or corrupt?): %v", err)}
	}
	_, hasLineage := probe["lineage"]
	_, hasVersion := probe["version"]
	_, hasSinks := probe["sinks"]
	if !hasLineage || !hasVersion || !hasSinks {
		return nil, &DecodeError{Reason: "it is JSON but not a streamctl state (no version, lineage and sinks)"}
	}
	var doc stateDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := json.Unmarshal(probe["version"], &doc.Version); err != nil {
		return nil, &DecodeError{Reason: fmt.Sprintf("its version is not a number: %v", err)}
	}
	if doc.Version > ShardedVersion {
		return nil, &DecodeError{Reason: fmt.Sprintf("it has format version %d, written by a newer streamctl; this one reads versions up to %d: upgrade streamctl", doc.Version, ShardedVersion)}
	}
	if doc.Version < 1 {
		return nil, &DecodeError{Reason: fmt.Sprintf("it has an invalid format version %d", doc.Version)}
	}
	if err := dec.Decode(&doc); err != nil {
		return nil, &DecodeError{Reason: fmt.Sprintf("it does not match the state format: %v", err)}
	}
	s := State{Version: doc.Version, Lineage: doc.Lineage, Serial: doc.Serial, StreamctlVersion: doc.StreamctlVersion, Reshards: doc.Reshards, retired: doc.Retired}
	for name, r := range s.Reshards {
		if r == nil || r.From < 1 || r.To < 1 || r.From == r.To || r.NextBatch < 0 || r.NextBatch > MaxBatch {
			return nil, &DecodeError{Reason: fmt.Sprintf("the change of shards of sink %q in progress is not one", name)}
		}
		if r.Offsets == nil {
			r.Offsets = map[string]int64{}
		}
	}
	if doc.Sinks != nil {
		s.Sinks = make(map[string]*Sink, len(doc.Sinks))
	}
	for name, sd := range doc.Sinks {
		if sd == nil || sd.Sink == nil {
			s.Sinks[name] = nil
			continue
		}
		sd.Sink.segments, sd.Sink.skip = sd.Segments, sd.Skip
		s.Sinks[name] = sd.Sink
	}
	if _, err := uuid.Parse(s.Lineage); err != nil {
		return nil, &DecodeError{Reason: fmt.Sprintf("its lineage %q is not a UUID", s.Lineage)}
	}
	if s.Sinks == nil {
		s.Sinks = map[string]*Sink{}
	}
	if s.Serial < 0 {
		return nil, &DecodeError{Reason: fmt.Sprintf("its serial %d is negative", s.Serial)}
	}
	for name, sink := range s.Sinks {
		if sink == nil {
			return nil, &DecodeError{Reason: fmt.Sprintf("sink %q is null", name)}
		}
		if reason := sink.check(); reason != "" {
			return nil, &DecodeError{Reason: fmt.Sprintf("sink %q: %s", name, reason)}
		}
		if reason := sink.checkSegments(); reason != "" {
			return nil, &DecodeError{Reason: fmt.Sprintf("sink %q: %s", name, reason)}
		}
		if sink.Offsets == nil {
			sink.Offsets = map[string]int64{}
		}
		if sink.Destinations == nil {
			sink.Destinations = map[string]*Destination{}
		}
	}
	return &s, nil
}

// check returns why the numbers of a decoded sink cannot be used, or "".
func (s *Sink) check() string {
	if s.NextBatch < 0 || s.NextBatch > MaxBatch {
		return fmt.Sprintf("next_batch %d is out of range (0 to %d)", s.NextBatch, int64(MaxBatch))
	}
	for p, o := range s.Offsets {
		if o < 0 || o > MaxOffset {
			return fmt.Sprintf("the committed offset %d of partition %q is out of range (0 to %d)", o, p, int64(MaxOffset))
		}
	}
	if s.InFlight != nil {
		if reason := s.InFlight.check(); reason != "" {
			return "in_flight batch: " + reason
		}
	}
	for i := range s.History {
		if reason := s.History[i].check(); reason != "" {
			return fmt.Sprintf("history entry %d: %s", i+1, reason)
		}
	}
	for d, dest := range s.Destinations {
		if dest == nil {
			return fmt.Sprintf("destination %q is null", d)
		}
		if dest.LastBatch < -1 || dest.LastBatch > MaxBatch || dest.From < 0 || dest.From > MaxBatch {
			return fmt.Sprintf("destination %q: last_batch %d or from %d is out of range", d, dest.LastBatch, dest.From)
		}
	}
	if s.CommittedBatches < 0 || s.CommittedRecords < 0 {
		return "the committed batch or record count is negative"
	}
	if sh := s.Shard; sh != nil && (sh.Count < 2 || sh.Index < 0 || sh.Index >= sh.Count || sh.Sink == "") {
		return fmt.Sprintf("shard %d of %d of sink %q is not a shard", sh.Index, sh.Count, sh.Sink)
	}
	return ""
}

// check returns why a decoded batch cannot be used, or "".
func (b *Batch) check() string {
	if b.ID < 0 || b.ID > MaxBatch {
		return fmt.Sprintf("id %d is out of range (0 to %d)", b.ID, int64(MaxBatch))
	}
	if b.Records < 0 {
		return fmt.Sprintf("batch %d counts %d records", b.ID, b.Records)
	}
	for _, r := range b.Ranges {
		if r.Start < 0 || r.End < r.Start || r.End > MaxOffset {
			return fmt.Sprintf("batch %d: the range [%d, %d) of partition %q is not a range of offsets (0 to %d)", b.ID, r.Start, r.End, r.Partition, int64(MaxOffset))
		}
	}
	return ""
}

// NewSink returns the checkpoint of a sink that has committed nothing.
func NewSink(src SourceRef) *Sink {
	return &Sink{
		Source:       src,
		Offsets:      map[string]int64{},
		Destinations: map[string]*Destination{},
	}
}

// Commit marks the in-flight batch committed: offsets advance to its ends, the
// destinations that wrote it record it, and the history keeps the last keep.
func (s *Sink) Commit(now time.Time, keep int) {
	b := s.InFlight
	if b == nil {
		return
	}
	for _, r := range b.Ranges {
		if r.End > s.Offsets[r.Partition] {
			s.Offsets[r.Partition] = r.End
		}
	}
	for _, d := range b.Destinations {
		dest := s.Destinations[d]
		if dest == nil {
			dest = &Destination{LastBatch: -1, From: b.ID}
			s.Destinations[d] = dest
		}
		if b.ID > dest.LastBatch {
			dest.LastBatch = b.ID
		}
	}
	t := now.UTC()
	b.Committed = &t
	s.LastCommit = &t
	s.CommittedBatches++
	s.CommittedRecords += b.Records
	s.History = append(s.History, *b)
	if keep <= 0 {
		keep = DefaultHistory
	}
	if over := len(s.History) - keep; over > 0 {
		// A reslice, not a copy: the cost stays the same whatever keep is.
		s.History = s.History[over:]
		s.sealedLen = max(s.sealedLen-over, 0)
	}
	if b.ID >= s.NextBatch {
		s.NextBatch = b.ID + 1
	}
	s.InFlight = nil
}

// Record notes that destinations now hold the committed batch id (after a
// repair or a backfill), in its history entry and their checkpoints.
func (s *Sink) Record(id int64, destinations []string) {
	copied := false
	for i := range s.History {
		if s.History[i].ID != id {
			continue
		}
		for _, d := range destinations {
			if slices.Contains(s.History[i].Destinations, d) {
				continue
			}
			if !copied {
				// The entries are shared with the state this one was
				// cloned from.
				s.History, copied = slices.Clone(s.History), true
				s.History[i].Destinations = slices.Clone(s.History[i].Destinations)
				s.touch(id)
			}
			s.History[i].Destinations = append(s.History[i].Destinations, d)
		}
	}
	for _, d := range destinations {
		dest := s.Destinations[d]
		if dest == nil {
			// Repairs run oldest first: the first one recorded is where the
			// destination starts.
			dest = &Destination{LastBatch: -1, From: id}
			s.Destinations[d] = dest
		}
		if id > dest.LastBatch {
			dest.LastBatch = id
		}
	}
}
