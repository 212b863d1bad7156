package command

import (
	"bufio"
	"context"
	"fmt"
	"io"
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

// askLine prints question and waits for a line on stdin, or for ctx: Ctrl-C
// (or SIGTERM) while a prompt waits cancels at once, so that the caller
// returns and releases its lock on the way out. ok is false when cancelled.
func askLine(ctx context.Context, stdin io.Reader, stdout io.Writer, question string) (line string, ok bool) {
	fmt.Fprint(stdout, question)
	answer := make(chan string, 1)
	go func() {
		defer crash.Report()
		// Left blocked on stdin when cancelled; the process exits soon after.
		line, _ := bufio.NewReader(stdin).ReadString('\n')
		answer <- line
	}()
	select {
	case line := <-answer:
		return line, true
	case <-ctx.Done():
		fmt.Fprintln(stdout)
		return "", false
	}
}
