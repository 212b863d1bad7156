package command

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/streamctl/streamctl/internal/crash"
)

// notifyContext is cancelled by the first SIGINT or SIGTERM, so that the
// current step is finished or abandoned cleanly and the lock released; the
// state stays recoverable either way. A second signal exits at once.
func notifyContext(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		defer crash.Report()
		select {
		case <-ch:
			cancel()
		case <-done:
			return
		}
		select {
		case <-ch:
			os.Exit(130)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}
