// Package crash reports a panic in any goroutine streamctl starts as the
// internal error it is. The Go runtime ends a process whose goroutine panics
// with exit status 2, which `plan -detailed-exitcode` and `status
// -detailed-exitcode` mean as a result ("changes pending", "lag above the
// bound"); a script must never read a crash that way.
package crash

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

var (
	mu       sync.Mutex
	crashing atomic.Bool
	handler  = func(p any, stack []byte) {
		fmt.Fprintf(os.Stderr, "Error: internal error: %v\n\n%s", p, stack)
		os.Exit(1)
	}
)

// SetHandler sets what a panic does: the command layer prints it with the
// version and exits with its error code. The handler must not return.
func SetHandler(h func(p any, stack []byte)) {
	mu.Lock()
	defer mu.Unlock()
	handler = h
}

// Report is deferred in every goroutine, as `defer crash.Report()` (recover
// works only in the deferred function itself), after the goroutine's other
// defers, so that it runs before them: a wg.Done or a close run first would
// let the rest of the run go on, and end, before the report. It hands a
// panic, with the goroutine's stack, to the handler, which ends the process.
func Report() {
	p := recover()
	if p == nil {
		return
	}
	crashing.Store(true)
	stack := debug.Stack()
	mu.Lock()
	h := handler
	mu.Unlock()
	h(p, stack)
	// A handler that returned: the process still must not go on.
	os.Exit(1)
}

// Exit ends the process with code, unless a goroutine's panic is being
// reported: then it waits for the report, which ends the process with the
// handler's code.
func Exit(code int) {
	if crashing.Load() {
		select {}
	}
	os.Exit(code)
}
