//go:build faultinject

package fault

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// EnvVar selects the fault: "NAME" kills at the first time NAME is reached,
// "NAME:K" at the K-th time.
const EnvVar = "STREAMCTL_FAULT"

// PanicEnvVar, set to 1, makes the selected fault a panic instead of a kill:
// a bug in the code at that point, in whatever goroutine runs it.
const PanicEnvVar = "STREAMCTL_FAULT_PANIC"

// StopEnvVar, set to 1, makes the selected fault a SIGSTOP instead of a kill:
// the process freezes there, as a paused VM or a stalled host does, and goes
// on from that point once it is sent SIGCONT.
const StopEnvVar = "STREAMCTL_FAULT_STOP"

// Enabled reports whether fault points are compiled in.
const Enabled = true

var (
	mu     sync.Mutex
	counts = map[string]int{}
	target string
	at     = 1
)

func init() {
	spec := os.Getenv(EnvVar)
	name, k, found := strings.Cut(spec, ":")
	target = name
	if found {
		if n, err := strconv.Atoi(k); err == nil && n > 0 {
			at = n
		}
	}
}

// Point kills the process with SIGKILL, so that no deferred cleanup runs, when
// the selected fault is reached (or stops it, see StopEnvVar).
func Point(name string) {
	if target == "" || name != target {
		return
	}
	mu.Lock()
	counts[name]++
	hit := counts[name] == at
	mu.Unlock()
	if hit && os.Getenv(PanicEnvVar) == "1" {
		panic("fault injected at " + name)
	}
	if hit && os.Getenv(StopEnvVar) == "1" {
		syscall.Kill(os.Getpid(), syscall.SIGSTOP)
		// The stop lands a little after kill returns: wait here for it, so
		// that the process is frozen at this point and not past it.
		time.Sleep(200 * time.Millisecond)
		return
	}
	if hit {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Hour)
	}
}

// Tunable returns STREAMCTL_TEST_<name> when it is a positive integer, else
// def: tests shrink sizes (such as the manifest index interval) to reach rare
// paths in a few batches.
func Tunable(name string, def int64) int64 {
	if n, err := strconv.ParseInt(os.Getenv("STREAMCTL_TEST_"+name), 10, 64); err == nil && n > 0 {
		return n
	}
	return def
}

// ClockSkew returns STREAMCTL_TEST_CLOCK_SKEW (a Go duration such as "-1h"):
// how far this process's clock is from true time, for tests of machines whose
// clocks disagree (faketime does not move a Go binary's clock).
func ClockSkew() time.Duration {
	d, _ := time.ParseDuration(os.Getenv("STREAMCTL_TEST_CLOCK_SKEW"))
	return d
}
