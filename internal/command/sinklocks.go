package command

import (
	"fmt"
	"strings"

	"github.com/streamctl/streamctl/internal/workspace"
	"github.com/streamctl/streamctl/state"
)

// The lock protocol of a remote state (per-sink locks for apply, the
// run-wide lock first for commands that change the whole state) is
// workspace's: see internal/workspace/locks.go.

// skippedSink is a sink another live process is applying.
type skippedSink struct {
	Sink   string
	Holder *state.LockInfo
}

func (s skippedSink) message() string {
	h := s.Holder
	if h == nil {
		return fmt.Sprintf("sink %q is being applied by another process: skipped", s.Sink)
	}
	user, host, ok := strings.Cut(h.Who, "@")
	if !ok {
		host = "an unknown host"
	}
	return fmt.Sprintf("sink %q is being applied by %s (pid %d on %s, lock %s, %s): skipped", s.Sink, user, h.PID, host, h.ID, h.Operation)
}

// tookOverAll warns for each lock taken over from a dead holder.
func tookOverAll(v ui, h *workspace.HeldLocks) {
	for _, u := range h.Locks() {
		tookOver(v, u)
	}
}
