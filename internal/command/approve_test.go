package command

import (
	"io"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptAtApprovalCancels: the first Ctrl-C at the approval prompt
// cancels at once, exits 1 with nothing written, and releases the lock.
func TestInterruptAtApprovalCancels(t *testing.T) {
	c := newCLI(t, testConfig)
	code, stdout, stderr := interruptAtPrompt(t, c, "apply", "-no-color")
	if code != ExitError || !strings.Contains(stdout, "Apply cancelled.") {
		t.Errorf("Ctrl-C at the prompt: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := filepath.Glob(filepath.Join(c.dir, "out", "*")); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(c.dir, "out", "*", "part-*")); len(files) > 0 {
		t.Errorf("the cancelled apply wrote %v", files)
	}
	// The lock was released: the next apply takes it without waiting.
	c.must(ExitOK, "apply", "-auto-approve", "-lock-timeout=0")
}

// TestInterruptAtStateRmPromptCancels: the first Ctrl-C at state rm's prompt
// cancels at once, exits 1 saying so, removes nothing, and releases the lock.
func TestInterruptAtStateRmPromptCancels(t *testing.T) {
	c := newCLI(t, testConfig)
	c.must(ExitOK, "apply", "-auto-approve")
	code, stdout, stderr := interruptAtPrompt(t, c, "state", "rm", "-no-color", "orders")
	if code != ExitError || !strings.Contains(stdout+stderr, "cancelled") {
		t.Errorf("Ctrl-C at the prompt: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// Nothing was removed, and the lock was released: the next command
	// takes it without waiting.
	if o := c.must(ExitOK, "state", "list"); !strings.Contains(o.stdout, "orders") {
		t.Errorf("the cancelled state rm removed the checkpoint:\n%s", o.stdout)
	}
	c.must(ExitOK, "state", "rm", "-force", "-lock-timeout=0", "orders")
}

// interruptAtPrompt runs streamctl args on a terminal nobody types at, and
// sends the process SIGINT (Ctrl-C) once it prompts for a value; the command
// must then end within 5 seconds. It returns its exit code and output.
func interruptAtPrompt(t *testing.T, c runner, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	stdin, typing := io.Pipe() // nobody answers
	defer typing.Close()
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main(append([]string{"-chdir=" + c.dir}, args...), Streams{
			Stdin: stdin, Stdout: &out, Stderr: &errOut, Environ: []string{"PATH=/usr/bin"},
			IsTerminal: true, Now: func() time.Time { return testTime }, ProgressInterval: -1,
		})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "Enter a value:") {
		if time.Now().After(deadline) {
			t.Fatalf("streamctl %s: no prompt:\n%s\n%s", strings.Join(args, " "), out.String(), errOut.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code = <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("the first Ctrl-C at the prompt of streamctl %s did not cancel it", strings.Join(args, " "))
	}
	return code, out.String(), errOut.String()
}
