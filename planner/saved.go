package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
)

// A saved plan is run exactly: apply re-plans from the same state, the same
// configuration and the source snapshot the plan records, and refuses the
// file unless it is what the planner gives. A hand edit that would lose or
// duplicate records (a range that skips or repeats offsets, a batch id that
// does not continue the state) is caught whatever it changed.

// maxID bounds batch ids and offsets in a plan file, far below where int64
// arithmetic would wrap.
const maxID = math.MaxInt64 / 4

// check validates a decoded plan on its own: every number in range, every
// described batch cut consistent with its ranges.
func (p *Plan) check() error {
	seen := map[string]bool{}
	for _, s := range p.Sinks {
		if s == nil || s.Name == "" {
			return fmt.Errorf("a sink without a name")
		}
		if seen[s.Name] {
			return fmt.Errorf("sink %q is planned twice", s.Name)
		}
		seen[s.Name] = true
		if err := s.check(); err != nil {
			return fmt.Errorf("sink %q: %v", s.Name, err)
		}
	}
	if p.MaxBatches < 0 {
		return fmt.Errorf("max_batches %d is negative", p.MaxBatches)
	}
	return nil
}

func (s *SinkPlan) check() error {
	n := &s.New
	if n.FirstID < 0 || n.FirstID > maxID {
		return fmt.Errorf("first_batch %d is out of range", n.FirstID)
	}
	var records int64
	parts := map[string]bool{}
	for _, r := range n.Ranges {
		if err := checkRange(r.Partition, r.Start, r.End); err != nil {
			return fmt.Errorf("pending %v", err)
		}
		if parts[r.Partition] {
			return fmt.Errorf("pending ranges list partition %s twice", r.Partition)
		}
		parts[r.Partition] = true
		records += r.End - r.Start
	}
	if records != n.Records {
		return fmt.Errorf("pending ranges hold %d records, but it says %d", records, n.Records)
	}
	if records > 0 {
		if n.MaxRecords <= 0 {
			return fmt.Errorf("max_records %d is not positive", n.MaxRecords)
		}
		if want := (records + n.MaxRecords - 1) / n.MaxRecords; n.Batches != want {
			return fmt.Errorf("pending says %d batches, but %d records in batches of %d are %d", n.Batches, records, n.MaxRecords, want)
		}
	} else if n.Batches != 0 {
		return fmt.Errorf("pending says %d batches of no records", n.Batches)
	}
	batches := append(append([]Batch(nil), s.Adopt...), s.Repairs...)
	if s.Resume != nil {
		batches = append(batches, *s.Resume)
	}
	for _, b := range batches {
		if b.ID < 0 || b.ID > maxID {
			return fmt.Errorf("batch id %d is out of range", b.ID)
		}
		for _, r := range b.Ranges {
			if err := checkRange(r.Partition, r.Start, r.End); err != nil {
				return fmt.Errorf("batch %d: %v", b.ID, err)
			}
		}
	}
	return nil
}

func checkRange(part string, start, end int64) error {
	if start < 0 || end < start || end > maxID {
		return fmt.Errorf("range [%d, %d) of partition %s is invalid", start, end, part)
	}
	return nil
}

// Verify compares a saved sink plan with the one the planner gives now from
// the same state, configuration and source snapshot. It names the first
// difference a user can act on.
func Verify(saved, fresh *SinkPlan) error {
	if saved.MovedFrom != fresh.MovedFrom {
		return fmt.Errorf("it moves the sink from %q, the configuration from %q", saved.MovedFrom, fresh.MovedFrom)
	}
	if saved.UndoMove != fresh.UndoMove {
		return fmt.Errorf("it undoes an interrupted move of the sink to %q; what the destinations hold now asks to undo one to %q", saved.UndoMove, fresh.UndoMove)
	}
	if saved.Layout != fresh.Layout {
		return fmt.Errorf("it writes new batches with other output settings (format, columns, partitioning or routing) than the configuration now declares")
	}
	if (saved.Resume == nil) != (fresh.Resume == nil) {
		return fmt.Errorf("its batch in flight does not match the state's")
	}
	if saved.Resume != nil && !sameBatchPlan(*saved.Resume, *fresh.Resume) {
		return fmt.Errorf("batch %d in flight: its ranges or destinations are not the ones the state logged", saved.Resume.ID)
	}
	sn, fn := saved.New, fresh.New
	if sn.MaxRecords != fn.MaxRecords && (sn.Records > 0 || fn.Records > 0) {
		return fmt.Errorf("it cuts batches of %d records, the configuration of %d", sn.MaxRecords, fn.MaxRecords)
	}
	if sn.Records > 0 || fn.Records > 0 {
		if sn.FirstID != fn.FirstID {
			return fmt.Errorf("its new batches start at batch %d, but the state continues at batch %d", sn.FirstID, fn.FirstID)
		}
		starts := map[string]int64{}
		for _, r := range fn.Ranges {
			starts[r.Partition] = r.Start
		}
		for _, r := range sn.Ranges {
			if want, ok := starts[r.Partition]; ok && r.Start != want {
				return fmt.Errorf("partition %s: its new batches start at offset %d, but the committed offset is %d", r.Partition, r.Start, want)
			}
		}
	}
	a, _ := json.Marshal(saved)
	b, _ := json.Marshal(fresh)
	if !bytes.Equal(a, b) {
		return fmt.Errorf("it is not what the state, the configuration and its source snapshot give (edited, or the destinations changed since: an orphan or a missing batch appeared)")
	}
	return nil
}

func sameBatchPlan(a, b Batch) bool {
	return a.ID == b.ID && sameRangeList(a.Ranges, b.Ranges) && sameSet(a.Destinations, b.Destinations) && sameSet(a.Pending, b.Pending)
}
