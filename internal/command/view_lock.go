package command

import (
	"fmt"
	"time"

	"github.com/streamctl/streamctl/internal/render"
)

// lockView is what lock reports: whether the state is locked, and by whom.
type lockView interface {
	ui
	lock(doc lockDocument, now time.Time)
}

func (m *Meta) newLockView(asJSON, noColor bool) lockView {
	if asJSON {
		return &lockJSON{humanUI: m.newHumanUI(noColor)}
	}
	return &lockHuman{humanUI: m.newHumanUI(noColor)}
}

// lockHuman says who holds the lock and how to remove it.
type lockHuman struct{ *humanUI }

func (v *lockHuman) lock(doc lockDocument, now time.Time) {
	w, holder := v.m.Stdout, doc.Holder
	defer func() {
		if len(doc.Sinks) == 0 {
			return
		}
		fmt.Fprintf(w, "\nSinks being applied (each sink's lock):\n\n")
		for _, s := range doc.Sinks {
			h := s.Holder
			fmt.Fprintf(w, "  sink %q: ID %s, %s by %s (pid %d), since %s (%s ago)", s.Sink, h.ID, h.Operation, h.Who, h.PID,
				h.Created.UTC().Format(time.RFC3339), render.Age(now.Sub(h.Created)))
			if !h.Heartbeat.IsZero() {
				fmt.Fprintf(w, ", heartbeat %s ago", render.Age(now.Sub(h.Heartbeat)))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "\nIf a holder died, its sink is taken over once its lease expires, or now with: streamctl force-unlock ID\n")
	}()
	if holder == nil {
		fmt.Fprintf(w, "The state %s is not locked.\n", doc.Backend)
		return
	}
	fmt.Fprintf(w, "The state %s is locked.\n\n", doc.Backend)
	fmt.Fprintf(w, "  ID:        %s\n  Operation: %s\n  Who:       %s (pid %d)\n  Version:   %s\n  Created:   %s (%s ago)\n",
		holder.ID, holder.Operation, holder.Who, holder.PID, holder.Version,
		holder.Created.UTC().Format(time.RFC3339), render.Age(now.Sub(holder.Created)))
	if !holder.Heartbeat.IsZero() {
		fmt.Fprintf(w, "  Heartbeat: %s (%s ago)\n", holder.Heartbeat.UTC().Format(time.RFC3339), render.Age(now.Sub(holder.Heartbeat)))
	}
	fmt.Fprintf(w, "\nIf its holder died, remove it with: streamctl force-unlock %s\n", holder.ID)
}

// lockJSON prints lockDocument on one line.
type lockJSON struct{ *humanUI }

func (v *lockJSON) lock(doc lockDocument, _ time.Time) { v.printJSON(doc) }
