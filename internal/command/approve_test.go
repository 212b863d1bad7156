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
	stdin, typing := io.Pipe() // nobody answers
	defer typing.Close()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"-chdir=" + c.dir, "apply", "-no-color"}, Streams{
			Stdin: stdin, Stdout: &stdout, Stderr: &stderr, Environ: []string{"PATH=/usr/bin"},
			IsTerminal: true, Now: func() time.Time { return testTime }, ProgressInterval: -1,
		})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "Enter a value:") {
		if time.Now().After(deadline) {
			t.Fatalf("no approval prompt:\n%s\n%s", stdout.String(), stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != ExitError || !strings.Contains(stdout.String(), "Apply cancelled.") {
			t.Errorf("Ctrl-C at the prompt: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the first Ctrl-C at the prompt did not cancel the apply")
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
	stdin, typing := io.Pipe() // nobody answers
	defer typing.Close()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"-chdir=" + c.dir, "state", "rm", "-no-color", "orders"}, Streams{
			Stdin: stdin, Stdout: &stdout, Stderr: &stderr, Environ: []string{"PATH=/usr/bin"},
			IsTerminal: true, Now: func() time.Time { return testTime }, ProgressInterval: -1,
		})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "Enter a value:") {
		if time.Now().After(deadline) {
			t.Fatalf("no prompt:\n%s\n%s", stdout.String(), stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != ExitError || !strings.Contains(stdout.String()+stderr.String(), "cancelled") {
			t.Errorf("Ctrl-C at the prompt: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the first Ctrl-C at state rm's prompt did not cancel it")
	}
	// Nothing was removed, and the lock was released: the next command
	// takes it without waiting.
	if o := c.must(ExitOK, "state", "list"); !strings.Contains(o.stdout, "orders") {
		t.Errorf("the cancelled state rm removed the checkpoint:\n%s", o.stdout)
	}
	c.must(ExitOK, "state", "rm", "-force", "-lock-timeout=0", "orders")
}
