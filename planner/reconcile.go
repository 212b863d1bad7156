package planner

import (
	"fmt"
	"sort"
	"strings"

	"github.com/streamctl/streamctl/state"
)

// The reconciler compares what the state says each destination holds with
// what the destination's manifests show, and plans the repairs:
//
//   - behind (drift): a committed batch whose manifest is missing in a
//     destination that wrote it is rewritten there from the source;
//   - backfill: a destination added to a sink with history gets the batches it
//     missed, replayed with their recorded ranges (unless backfill = false);
//   - ahead: manifests, or snapshots of a destination's table (table.go), of
//     batches the state has not logged (a state restored from an older copy)
//     are adopted when they continue the committed offsets exactly, and are
//     an error otherwise;
//   - removed: a destination no longer configured loses its checkpoint; its
//     data stays.

// reconcile fills p's Repairs, Removed and Adopt, and returns the offsets and
// next batch number new batches start from.
func reconcile(in SinkInput, st *state.Sink, p *SinkPlan, from map[string]int64, nextID int64) (int64, error) {
	configured := map[string]bool{}
	for _, d := range in.Destinations {
		configured[d] = true
	}
	for d := range st.Destinations {
		if !configured[d] {
			p.Removed = append(p.Removed, d)
		}
	}
	sort.Strings(p.Removed)

	earliest := map[string]int64{}
	latest := map[string]int64{}
	for _, part := range in.Snapshot.Partitions {
		earliest[part.ID] = part.Earliest
		latest[part.ID] = part.Latest
	}
	retained := func(ranges []state.Range) bool {
		for _, r := range ranges {
			part := in.partition(r.Partition)
			e, ok := earliest[part]
			if !ok || r.Start < e || r.End > latest[part] {
				return false
			}
		}
		return true
	}

	// Repairs and backfills, from the history of committed batches.
	repairs := map[int64]*Batch{}
	var lost []string
	for _, d := range in.Destinations {
		obs := in.Observed[d]
		if obs == nil {
			continue
		}
		isNew := st.Destinations[d] == nil && st.CommittedBatches > 0
		// from is the first batch d must hold: all of them for a destination
		// backfilled, none before it was added without backfill.
		var from int64
		switch {
		case st.Destinations[d] != nil:
			from = st.Destinations[d].From
		case in.NoBackfill[d] || in.RouteBy != "":
			from = st.NextBatch
		}
		if isNew && !in.NoBackfill[d] {
			if in.RouteBy != "" {
				p.Warnings = append(p.Warnings, fmt.Sprintf("destination %q is new in a routed sink: it receives its share of new batches only; committed records stay where they were routed", d))
				continue
			}
			if older := st.CommittedBatches - int64(len(st.History)); older > 0 {
				return 0, &Error{Sink: in.Name, Summary: fmt.Sprintf("destination %q cannot be backfilled", d),
					Detail: fmt.Sprintf("the state's history keeps the last %d batches, and %d older ones are no longer described. Set backfill = false on the destination to start it at the current head, or backfill it by hand.", len(st.History), older)}
			}
		}
		var otherLayout []int64 // batches d is backfilled with in the new layout
		for _, h := range st.History {
			wrote := contains(h.Destinations, d)
			switch {
			case wrote && !obs.hasManifest(h.ID):
			case !wrote && h.ID >= from && in.RouteBy == "":
			default:
				continue
			}
			if wrote {
				if err := drifted(in, st, h, d); err != nil {
					return 0, err
				}
			} else if in.Layout != "" && h.Layout != "" && h.Layout != in.Layout {
				otherLayout = append(otherLayout, h.ID)
			}
			if !retained(h.Ranges) {
				lost = append(lost, fmt.Sprintf("batch %d for %s (%s)", h.ID, d, rangesText(h.Ranges)))
				continue
			}
			b := repairs[h.ID]
			if b == nil {
				b = &Batch{ID: h.ID, Ranges: h.Ranges, Records: h.Records, Destinations: h.Destinations}
				repairs[h.ID] = b
			}
			if !wrote {
				b.Destinations = append(append([]string(nil), b.Destinations...), d)
			}
			b.Pending = append(b.Pending, d)
		}
		if n := len(otherLayout); n > 0 {
			p.Warnings = append(p.Warnings, fmt.Sprintf("destination %q is backfilled with %d batches (%d–%d) written elsewhere with other output settings: it receives them with the current ones (%s)", d, n, otherLayout[0], otherLayout[n-1], layoutDiffText(in, st, st.History[len(st.History)-1].Layout)))
		}
	}
	if len(lost) > 0 {
		return 0, &Error{Sink: in.Name, Summary: "destinations miss batches the source no longer holds",
			Detail: "cannot rewrite " + strings.Join(lost, "; ") + ": their offsets are gone from the source. Restore the files from a backup, or accept the loss by removing those batches from the destination's expectations (`streamctl state rm` starts the sink over)."}
	}
	ids := make([]int64, 0, len(repairs))
	for id := range repairs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		p.Repairs = append(p.Repairs, *repairs[id])
	}

	// Manifests ahead of the state.
	ahead := map[int64][]state.Range{}
	aheadIn := map[int64][]string{}
	for _, d := range in.Destinations {
		obs := in.Observed[d]
		if obs == nil {
			continue
		}
		for _, m := range obs.Manifests {
			if m < st.NextBatch {
				continue
			}
			ranges, ok := obs.Ahead[m]
			if !ok {
				return 0, aheadError(in.Name, d, m, st, "its manifest could not be read")
			}
			// Batches of another stream (a sink started over on another topic)
			// must never be taken for this one's.
			if src := obs.AheadSource[m]; src != "" && src != in.Snapshot.Identity {
				return 0, aheadError(in.Name, d, m, st, fmt.Sprintf("it was written from %q, not from the source's %q", src, in.Snapshot.Identity))
			}
			if prev, seen := ahead[m]; seen && !sameRangeList(prev, ranges) {
				return 0, aheadError(in.Name, d, m, st, "destinations hold manifests of it with different ranges")
			}
			ahead[m] = ranges
			aheadIn[m] = append(aheadIn[m], d)
		}
	}
	// Snapshots of tables ahead of the state, with or without a manifest.
	tableIn := map[int64][]string{}
	if err := tableAhead(in, st, ahead, tableIn); err != nil {
		return 0, err
	}
	for len(ahead) > 0 {
		ranges, ok := ahead[nextID]
		if !ok {
			var first int64 = -1
			for m := range ahead {
				if first < 0 || m < first {
					first = m
				}
			}
			if len(aheadIn[first]) == 0 {
				return 0, tableAheadError(in, tableIn[first][0], first, st, fmt.Sprintf("the state expects batch %d next", nextID))
			}
			return 0, aheadError(in.Name, aheadIn[first][0], first, st, fmt.Sprintf("the state expects batch %d next", nextID))
		}
		holder := func(why string) error {
			if len(aheadIn[nextID]) == 0 {
				return tableAheadError(in, tableIn[nextID][0], nextID, st, why)
			}
			return aheadError(in.Name, aheadIn[nextID][0], nextID, st, why)
		}
		for _, r := range ranges {
			start, known := from[in.partition(r.Partition)]
			if !known {
				start = earliest[in.partition(r.Partition)]
			}
			switch {
			case r.Start != start || r.End < r.Start:
				return 0, holder(fmt.Sprintf("its range [%d, %d) of partition %s does not continue the committed offset %d", r.Start, r.End, r.Partition, start))
			case r.End > latest[in.partition(r.Partition)]:
				return 0, holder(fmt.Sprintf("its range [%d, %d) of partition %s ends beyond the source's latest offset %d", r.Start, r.End, r.Partition, latest[in.partition(r.Partition)]))
			}
		}
		b := Batch{ID: nextID, Ranges: ranges, Destinations: in.Destinations}
		for _, r := range ranges {
			b.Records += r.Records()
			from[in.partition(r.Partition)] = r.End
		}
		for _, d := range in.Destinations {
			if !contains(aheadIn[nextID], d) {
				b.Pending = append(b.Pending, d)
			}
		}
		p.Adopt = append(p.Adopt, b)
		noteTakeovers(p, in, aheadIn[nextID], b)
		delete(ahead, nextID)
		nextID++
	}
	return nextID, nil
}

func aheadError(sink, dest string, m int64, st *state.Sink, why string) error {
	return &Error{Sink: sink, Summary: "a destination is ahead of the state",
		Detail: fmt.Sprintf("destination %q holds the manifest of batch %d, which the state has neither committed nor in flight (next batch %d), and it cannot be adopted: %s. The state was probably restored from an older copy: restore the newer state, or move aside the destination's _streamctl/%s/%d.json (or the index-*.json that holds it) and the files it lists.", dest, m, st.NextBatch, why, sink, m)}
}

func tableAheadError(in SinkInput, dest string, m int64, st *state.Sink, why string) error {
	name := in.Observed[dest].Table.Name
	return &Error{Sink: in.Name, Summary: "a table is ahead of the state",
		Detail: fmt.Sprintf("destination %q: %s records batch %d, which the state has neither committed nor in flight (next batch %d), and it cannot be adopted: %s. The state was probably restored from an older copy: restore the newer state, or roll the table back to the snapshot before that batch.", dest, name, m, st.NextBatch, why)}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sameRangeList(a, b []state.Range) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func rangesText(ranges []state.Range) string {
	parts := make([]string, len(ranges))
	for i, r := range ranges {
		parts[i] = fmt.Sprintf("partition %s [%d, %d)", r.Partition, r.Start, r.End)
	}
	return strings.Join(parts, ", ")
}
