package planner

import (
	"fmt"
	"slices"
	"sort"

	"github.com/streamctl/streamctl/state"
)

// A committed batch whose files a destination lost or that changed there
// (what `streamctl verify` finds) is written again from the source when
// the plan is made with -replace: a repair (reconcile.go) into every
// destination that wrote it, even those whose manifest is intact. Its ranges
// are the state's, and the output is deterministic, so the files are those
// the manifest lists; apply checks that before it puts any in place.

// planReplace adds the batches in.Replace names to p.Repairs, or refuses one
// that cannot be written again as it was.
func planReplace(in SinkInput, st *state.Sink, p *SinkPlan) error {
	if len(in.Replace) == 0 {
		return nil
	}
	retained := map[string]bool{}
	earliest, latest := map[string]int64{}, map[string]int64{}
	for _, part := range in.Snapshot.Partitions {
		retained[part.ID] = true
		earliest[part.ID], latest[part.ID] = part.Earliest, part.Latest
	}
	configured := map[string]bool{}
	for _, d := range in.Destinations {
		configured[d] = true
	}
	for _, id := range in.Replace {
		i := slices.IndexFunc(st.History, func(h state.Batch) bool { return h.ID == id })
		if i < 0 {
			return replaceError(in, st, id)
		}
		h := st.History[i]
		if in.Layout != "" && h.Layout != "" && h.Layout != in.Layout {
			return &Error{Sink: in.Name, Summary: fmt.Sprintf("batch %d cannot be replaced with other output settings", id),
				Detail: fmt.Sprintf("batch %d was written with other settings than the sink declares now (%s), and a replacement must write the files its manifests list. Restore the previous settings to replace it, then change them again.", id, layoutDiffText(in, st, h.Layout))}
		}
		for _, r := range h.Ranges {
			part := in.partition(r.Partition)
			if !retained[part] || r.Start < earliest[part] || r.End > latest[part] {
				return &Error{Sink: in.Name, Summary: fmt.Sprintf("batch %d cannot be replaced: the source no longer holds its records", id),
					Detail: fmt.Sprintf("batch %d covers %s, which the source no longer holds in full, so its files cannot be written again. Restore them from a backup.", id, rangesText(h.Ranges))}
			}
		}
		var dests []string
		for _, d := range h.Destinations {
			if configured[d] {
				dests = append(dests, d)
			}
		}
		if len(dests) == 0 {
			return &Error{Sink: in.Name, Summary: fmt.Sprintf("batch %d cannot be replaced: none of its destinations is configured", id),
				Detail: fmt.Sprintf("batch %d was written to %v, and the configuration declares none of them now.", id, h.Destinations)}
		}
		k := slices.IndexFunc(p.Repairs, func(b Batch) bool { return b.ID == id })
		if k < 0 {
			p.Repairs = append(p.Repairs, Batch{ID: h.ID, Ranges: h.Ranges, Records: h.Records, Destinations: h.Destinations})
			k = len(p.Repairs) - 1
		}
		b := &p.Repairs[k]
		b.Replace = true
		for _, d := range dests {
			if !slices.Contains(b.Pending, d) {
				b.Pending = append(b.Pending, d)
			}
		}
	}
	sort.Slice(p.Repairs, func(i, j int) bool { return p.Repairs[i].ID < p.Repairs[j].ID })
	return nil
}

// replaceError says why batch id, which the state's history does not
// describe, cannot be replaced.
func replaceError(in SinkInput, st *state.Sink, id int64) error {
	switch {
	case st.InFlight != nil && st.InFlight.ID == id:
		return &Error{Sink: in.Name, Summary: fmt.Sprintf("batch %d is in flight, not committed", id),
			Detail: fmt.Sprintf("batch %d is finished by the next apply, which writes it where it is missing; -replace is for committed batches.", id)}
	case id >= st.NextBatch:
		return &Error{Sink: in.Name, Summary: fmt.Sprintf("batch %d is not committed", id),
			Detail: fmt.Sprintf("the sink has committed batches up to %d; -replace rewrites a committed batch.", st.NextBatch-1)}
	}
	return &Error{Sink: in.Name, Summary: fmt.Sprintf("batch %d is no longer described by the state", id),
		Detail: fmt.Sprintf("the state's history keeps the last %d batches of the sink (history = N on the sink keeps more), and batch %d is older, so its ranges are not known. Restore its files from a backup.", len(st.History), id)}
}
