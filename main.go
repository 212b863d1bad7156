// Command streamctl writes stream data into object stores exactly once, the
// Terraform way: declare sources, sinks and destinations in HCL, review the
// pending batches with `streamctl plan`, run them with `streamctl apply`.
package main

import (
	"os"

	"golang.org/x/term"

	"github.com/streamctl/streamctl/internal/command"
	"github.com/streamctl/streamctl/internal/crash"
)

func main() {
	crash.Exit(command.Main(os.Args[1:], command.Streams{
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		IsTerminal: term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd())),
	}))
}
