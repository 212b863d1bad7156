package command

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/render"
	"github.com/streamctl/streamctl/state"
)

// stateView is what the state subcommands report. They have no -json (state
// pull prints the document itself), so it has one rendering, for people.
type stateView struct{ *humanUI }

func (m *Meta) newStateView(noColor bool) *stateView {
	return &stateView{humanUI: m.newHumanUI(noColor)}
}

// listed reports a sink of the state; orphaned: the configuration no longer
// declares it.
func (v *stateView) listed(name string, orphaned bool) {
	if orphaned {
		fmt.Fprintf(v.m.Stdout, "%s (orphaned)\n", name)
	} else {
		fmt.Fprintln(v.m.Stdout, name)
	}
}

// sink reports one sink's checkpoint.
func (v *stateView) sink(name string, s *state.Sink) { writeSinkState(v.m.Stdout, name, s) }

func (v *stateView) removed(names []string) {
	for _, name := range names {
		fmt.Fprintf(v.m.Stdout, "Removed the checkpoint of sink %q.\n", name)
	}
}

func (v *stateView) alreadyMoved(from, to string) {
	fmt.Fprintf(v.m.Stdout, "Sink %q is already named %q in the state.\n", from, to)
}

func (v *stateView) moved(from, to string) {
	fmt.Fprintf(v.m.Stdout, "Moved sink %q to %q: its checkpoint, manifests and destination ownership.\n", from, to)
}

func writeSinkState(w io.Writer, name string, s *state.Sink) {
	fmt.Fprintf(w, "sink %q\n", name)
	fmt.Fprintf(w, "  source:            source.%s.%s (%s)\n", s.Source.Type, s.Source.Name, s.Source.Identity)
	fmt.Fprintf(w, "  next batch:        %d\n", s.NextBatch)
	fmt.Fprintf(w, "  committed:         %s batches, %s records\n", render.Count(s.CommittedBatches), render.Count(s.CommittedRecords))
	if s.LastCommit != nil {
		fmt.Fprintf(w, "  last commit:       %s\n", s.LastCommit.Format(time.RFC3339))
	}
	fmt.Fprintln(w, "  offsets:")
	parts := make([]string, 0, len(s.Offsets))
	for p := range s.Offsets {
		parts = append(parts, p)
	}
	sort.Strings(parts)
	for _, p := range parts {
		fmt.Fprintf(w, "    %-20s %d\n", p, s.Offsets[p])
	}
	if b := s.InFlight; b != nil {
		fmt.Fprintf(w, "  in flight:         batch %d to %s (%s records)\n", b.ID, strings.Join(b.Destinations, ", "), render.Count(b.Records))
		for _, r := range b.Ranges {
			fmt.Fprintf(w, "    partition %s [%d, %d)\n", r.Partition, r.Start, r.End)
		}
	}
	fmt.Fprintln(w, "  destinations:")
	dests := make([]string, 0, len(s.Destinations))
	for d := range s.Destinations {
		dests = append(dests, d)
	}
	sort.Strings(dests)
	for _, d := range dests {
		fmt.Fprintf(w, "    %-20s last batch %d\n", d, s.Destinations[d].LastBatch)
	}
}
