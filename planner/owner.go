package planner

import (
	"fmt"
	"slices"
	"strings"
)

// Owner is who a destination belongs to: one destination of one sink of one
// state. Lineage is "" for a destination written before owner records existed,
// known only by the sink whose manifests it holds.
type Owner struct {
	Lineage     string `json:"lineage,omitempty"`
	Sink        string `json:"sink"`
	Destination string `json:"destination,omitempty"`
	State       string `json:"state,omitempty"`
}

// SameOwner reports whether two owners are the same destination of the same
// sink of the same state. Where the state lives may change (a state migrated
// to another backend keeps its lineage).
func SameOwner(a, b Owner) bool {
	return a.Lineage == b.Lineage && a.Sink == b.Sink && a.Destination == b.Destination
}

// OwnerConflict explains why want may not write a destination that have owns,
// and the ways out.
func OwnerConflict(want, have Owner, location string) string {
	switch {
	case have.Lineage != "" && have.Lineage != want.Lineage:
		where := ""
		if have.State != "" {
			where = ", kept at " + have.State
		}
		return fmt.Sprintf("destination %q (%s) belongs to sink %q of another state (lineage %s%s); this state has lineage %s. Writing here would overwrite the files that state committed. "+
			"Give destination %q a path or prefix of its own, or apply from the state that owns it. If that state is gone for good and this one replaces it, remove %s from the destination: "+
			"streamctl then adopts the batches it finds there only where they continue this state's offsets.",
			want.Destination, location, have.Sink, have.Lineage, where, want.Lineage, want.Destination, "_streamctl/owner.json")
	case have.Sink != want.Sink:
		return fmt.Sprintf("destination %q (%s) holds the data of sink %q, not of sink %q; writing here would overwrite its committed files. "+
			"If you renamed sink %q to %q, declare the rename so that the checkpoint, the manifests and the ownership move with it:\n\n"+
			"    moved {\n      from = sink.%s\n      to   = sink.%s\n    }\n\n"+
			"Otherwise give sink %q a path or prefix of its own.",
			want.Destination, location, have.Sink, want.Sink, have.Sink, want.Sink, have.Sink, want.Sink, want.Sink)
	default:
		return fmt.Sprintf("destination %q (%s) is written by destination %q of the same sink %q. Each destination needs a location of its own; if you renamed the destination, give it back its name %q.",
			want.Destination, location, have.Destination, want.Sink, have.Destination)
	}
}

// checkOwners refuses a sink whose destinations belong to someone else. A
// destination without an owner record is claimed by the first apply that
// writes it, unless it holds another sink's manifests.
func checkOwners(in SinkInput) error {
	var conflicts []string
	for _, d := range in.Destinations {
		obs := in.Observed[d]
		if obs == nil {
			continue
		}
		want := Owner{Lineage: in.Lineage, Sink: in.Name, Destination: d}
		if in.Shard != nil {
			want.Sink = in.Shard.Sink // its shards share the sink's destinations
		}
		switch {
		case obs.Owner != nil:
			have := *obs.Owner
			if in.MovedFrom != "" && have.Sink == in.MovedFrom {
				// The move switches the owner before anything is written.
				have.Sink = in.Name
			}
			if in.UndoMove != "" && have.Sink == in.UndoMove {
				// Apply gives the destination back before anything is written.
				have.Sink = want.Sink
			}
			if !SameOwner(have, want) {
				conflicts = append(conflicts, OwnerConflict(want, have, obs.Location))
			}
		case len(obs.ForeignSinks) > 0:
			conflicts = append(conflicts, OwnerConflict(want, Owner{Sink: obs.ForeignSinks[0]}, obs.Location))
		}
	}
	if len(conflicts) > 0 {
		return &Error{Sink: in.Name, Summary: "a destination belongs to another owner", Detail: strings.Join(conflicts, "\n\n  ")}
	}
	return nil
}

// Takeover is a destination without an owner record whose adopted batches
// another state committed (or a state that did not record its lineage).
type Takeover struct {
	Destination string `json:"destination"`
	// Lineage is the other state's; "" when its manifests do not say.
	Lineage    string `json:"lineage"`
	FirstBatch int64  `json:"first_batch"`
	LastBatch  int64  `json:"last_batch"`
	Batches    int64  `json:"batches"`
	Records    int64  `json:"records"`
}

// noteTakeovers records, for adopted batch b, the destinations holding it
// that have no owner record and whose manifest another state wrote.
func noteTakeovers(p *SinkPlan, in SinkInput, holders []string, b Batch) {
	for _, d := range holders {
		obs := in.Observed[d]
		if obs == nil || obs.Owner != nil {
			continue
		}
		lineage := obs.AheadLineage[b.ID]
		if lineage == in.Lineage {
			continue // this state's own batch, committed before its state write was lost
		}
		i := slices.IndexFunc(p.Takeovers, func(t Takeover) bool { return t.Destination == d && t.Lineage == lineage })
		if i < 0 {
			p.Takeovers = append(p.Takeovers, Takeover{Destination: d, Lineage: lineage, FirstBatch: b.ID})
			i = len(p.Takeovers) - 1
		}
		t := &p.Takeovers[i]
		t.LastBatch = b.ID
		t.Batches++
		t.Records += b.Records
	}
}
