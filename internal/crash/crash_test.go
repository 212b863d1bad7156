package crash

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestPanicInAGoroutineExitsOne runs this test binary again with a goroutine
// that panics: it must exit 1 with the panic on stderr, not the runtime's 2.
func TestPanicInAGoroutineExitsOne(t *testing.T) {
	if os.Getenv("CRASH_TEST_CHILD") == "1" {
		done := make(chan struct{})
		go func() {
			defer Report()
			panic("boom")
		}()
		<-done
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestPanicInAGoroutineExitsOne$")
	cmd.Env = append(os.Environ(), "CRASH_TEST_CHILD=1")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("the process ended with %v, want exit status 1:\n%s", err, out)
	}
	if !strings.Contains(string(out), "Error: internal error: boom") || !strings.Contains(string(out), "crash_test.go") {
		t.Errorf("stderr does not report the panic with its stack:\n%s", out)
	}
}
