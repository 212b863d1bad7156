package planner

import (
	"fmt"
	"sort"
	"strings"
)

// checkForeign refuses a destination that holds files streamctl did not
// write at the names of the sink's next batches (Observation.Foreign): a
// batch writes its files under names chosen by its number, and would write
// over them. A batch some manifest lists (adopted) is the sink's own.
func checkForeign(in SinkInput, p *SinkPlan) error {
	if in.Provisional {
		return nil
	}
	adopted := map[int64]bool{}
	for _, b := range p.Adopt {
		adopted[b.ID] = true
	}
	for _, d := range in.Destinations {
		obs := in.Observed[d]
		if obs == nil {
			continue
		}
		var files []string
		for id, fs := range obs.Foreign {
			if !adopted[id] && !obs.hasManifest(id) {
				files = append(files, fs...)
			}
		}
		if len(files) == 0 {
			continue
		}
		sort.Strings(files)
		named := files
		more := ""
		if len(named) > 5 {
			named, more = named[:5], fmt.Sprintf(" and %d more", len(files)-5)
		}
		return &Error{Sink: in.Name, Summary: fmt.Sprintf("destination %q holds files streamctl did not write, at the names of its next batches", d),
			Detail: fmt.Sprintf("%s%s in %s: no manifest of sink %q lists them and streamctl did not stage them (another tool, or a copy, put them there). The sink's next batches write files of these names and would replace them, so nothing is written. Move them out of the destination (or delete them if nobody needs them), then run plan again.",
				strings.Join(named, ", "), more, obs.Location, in.Name)}
	}
	return nil
}
