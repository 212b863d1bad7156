package state

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// SegmentSize is how many committed batches of a sink's history one history
// segment holds. The state document keeps only the batches not sealed into a
// segment yet (fewer than SegmentSize), so that what a state write encodes
// and writes does not grow with the history.
const SegmentSize = 100

// SegmentedVersion is the state format with history segments beside the
// state document. It is written only for a state that has segments, so that
// a state with a short history stays readable by streamctl versions that
// read only Version.
const SegmentedVersion = 2

// segmentRef names a history segment: a document beside the state, written
// once, holding Count batches of a sink's history, First to Last. Its name
// carries a hash of its bytes, so that a name always means the same bytes: a
// segment is never replaced, only superseded by another one.
type segmentRef struct {
	First  int64  `json:"first"`
	Last   int64  `json:"last"`
	Count  int    `json:"batches"`
	SHA256 string `json:"sha256"`
	dirty  bool   // an entry changed (Record): the batches are sealed again
}

// id is the segment's name in the history folder, without the extension.
func (r segmentRef) id() string { return fmt.Sprintf("%020d-%s", r.First, r.SHA256) }

// segmentName is the document name of segment id beside the state doc.
func segmentName(doc, id string) string { return doc + ".history/" + id + ".json" }

// segmentDoc is a history segment as stored.
type segmentDoc struct {
	Version int     `json:"version"`
	Lineage string  `json:"lineage"`
	History []Batch `json:"history"`
}

// newSegment encodes batches (oldest first, at least one) as a segment.
func newSegment(lineage string, batches []Batch) (segmentRef, []byte, error) {
	data, err := json.Marshal(segmentDoc{Version: SegmentedVersion, Lineage: lineage, History: batches})
	if err != nil {
		return segmentRef{}, nil, err
	}
	data = append(data, '\n')
	sum := sha256.Sum256(data)
	ref := segmentRef{First: batches[0].ID, Last: batches[len(batches)-1].ID, Count: len(batches), SHA256: hex.EncodeToString(sum[:16])}
	return ref, data, nil
}

// sealed is a segment to write before the state document that names it.
type sealed struct {
	id   string
	data []byte
}

// seal splits the sink's history into the segments it keeps, new segments
// and the tail the state document holds. It costs O(segments + tail): only
// the ends of each segment's batches are compared with the history, whose
// entries change only through Commit (appends, trims from the front) and
// Record (which marks the segment dirty).
func (s *Sink) seal(lineage string) ([]sealed, error) {
	h := s.History
	var refs []segmentRef
	var out []sealed
	skip, i := 0, 0
	add := func(batches []Batch) error {
		ref, data, err := newSegment(lineage, batches)
		if err != nil {
			return err
		}
		refs = append(refs, ref)
		out = append(out, sealed{id: ref.id(), data: data})
		return nil
	}
	for _, r := range s.segments {
		if len(h) == 0 || r.Last < h[0].ID {
			continue // trimmed off the history whole
		}
		// The batches of r still kept are h[i:j].
		n := r.Count
		if i == 0 {
			n = sort.Search(len(h), func(k int) bool { return h[k].ID > r.Last })
		}
		j := i + n
		if n <= 0 || n > r.Count || j > len(h) || h[j-1].ID != r.Last || h[i].ID < r.First || (i > 0 && h[i].ID != r.First) {
			break // the history was replaced: what follows is sealed anew
		}
		switch {
		case r.dirty:
			if err := add(h[i:j]); err != nil {
				return nil, err
			}
		default:
			if i == 0 {
				skip = r.Count - n
			}
			refs = append(refs, r)
		}
		i = j
	}
	for len(h)-i >= SegmentSize {
		if err := add(h[i : i+SegmentSize]); err != nil {
			return nil, err
		}
		i += SegmentSize
	}
	s.segments, s.skip, s.sealedLen = refs, skip, i
	return out, nil
}

// docVersion is the format of the state's document: Version unless it
// names history segments.
func (s *State) docVersion() int {
	if len(s.retired) > 0 || len(s.segmentIDs()) > 0 {
		return SegmentedVersion
	}
	return Version
}

// touch marks the segment holding batch id as changed.
func (s *Sink) touch(id int64) {
	for k := range s.segments {
		if r := &s.segments[k]; r.First <= id && id <= r.Last {
			r.dirty = true
		}
	}
}

// segmentIDs lists the segments the state's sinks name.
func (s *State) segmentIDs() map[string]bool {
	ids := map[string]bool{}
	for _, sink := range s.Sinks {
		for _, r := range sink.segments {
			if !r.dirty {
				ids[r.id()] = true
			}
		}
	}
	return ids
}

// readHistory fills the sinks' histories from their segments in docs, beside
// the state document doc.
func (s *State) readHistory(ctx context.Context, docs *Docs, doc string) error {
	for _, name := range s.SinkNames() {
		sink := s.Sinks[name]
		if len(sink.segments) == 0 {
			continue
		}
		var h []Batch
		for k, r := range sink.segments {
			batches, err := readSegment(ctx, docs, doc, s.Lineage, r)
			if err != nil {
				return fmt.Errorf("sink %q: history segment %s: %w", name, segmentName(doc, r.id()), err)
			}
			if k == 0 {
				batches = batches[sink.skip:]
			}
			h = append(h, batches...)
		}
		sink.sealedLen = len(h)
		sink.History = append(h, sink.History...)
	}
	return nil
}

func readSegment(ctx context.Context, docs *Docs, doc, lineage string, r segmentRef) ([]Batch, error) {
	data, _, err := docs.Read(ctx, segmentName(doc, r.id()))
	if errors.Is(err, ErrNoState) {
		return nil, errors.New("it is missing")
	}
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:16]) != r.SHA256 {
		return nil, errors.New("its content does not match its hash (damaged or replaced)")
	}
	var seg segmentDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&seg); err != nil {
		return nil, fmt.Errorf("it does not match the segment format: %v", err)
	}
	if seg.Lineage != lineage {
		return nil, fmt.Errorf("it belongs to another state (lineage %s)", seg.Lineage)
	}
	if len(seg.History) != r.Count || seg.History[0].ID != r.First || seg.History[len(seg.History)-1].ID != r.Last {
		return nil, fmt.Errorf("it does not hold the batches %d to %d the state names", r.First, r.Last)
	}
	for k := range seg.History {
		if reason := seg.History[k].check(); reason != "" {
			return nil, fmt.Errorf("entry %d: %s", k+1, reason)
		}
	}
	return seg.History, nil
}

// checkSegments returns why the segment list of a decoded sink cannot be
// used, or "".
func (s *Sink) checkSegments() string {
	prev := int64(-1)
	for k, r := range s.segments {
		if r.Count <= 0 || r.First < 0 || r.Last < r.First || r.First <= prev || r.Last > MaxBatch || len(r.SHA256) != 32 {
			return fmt.Sprintf("history segment %d (batches %d to %d) is not a segment", k+1, r.First, r.Last)
		}
		if _, err := hex.DecodeString(r.SHA256); err != nil {
			return fmt.Sprintf("history segment %d has the hash %q", k+1, r.SHA256)
		}
		prev = r.Last
	}
	if s.skip < 0 || len(s.segments) > 0 && s.skip >= s.segments[0].Count || len(s.segments) == 0 && s.skip != 0 {
		return fmt.Sprintf("history_skip %d is out of range", s.skip)
	}
	if len(s.History) > 0 && s.History[0].ID <= prev {
		return fmt.Sprintf("history entry 1 (batch %d) is not after the last history segment (batch %d)", s.History[0].ID, prev)
	}
	return ""
}
