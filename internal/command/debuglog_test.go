package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDebugLogShowsStoreRequests: STREAMCTL_LOG=debug writes one line per
// store request (method, key, result, duration), to stderr or to
// STREAMCTL_LOG_PATH, and changes nothing else.
func TestDebugLogShowsStoreRequests(t *testing.T) {
	c := newCLI(t, testConfig)
	c.env = []string{"STREAMCTL_LOG=debug", "STREAMCTL_LOG_PATH=debug.log"}
	o := c.must(ExitOK, "apply", "-auto-approve", "-no-color")
	if strings.Contains(o.stdout+o.stderr, "[DEBUG]") {
		t.Errorf("with STREAMCTL_LOG_PATH, the log went to the output:\n%s%s", o.stdout, o.stderr)
	}
	data, err := os.ReadFile(filepath.Join(c.dir, "debug.log"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	for _, want := range []string{"[DEBUG] store ", ": PUT-SCRATCH _temporary/", ": RENAME _temporary/", ": PUT-IF-ABSENT _streamctl/orders/", " -> ok ", "LIST "} {
		if !strings.Contains(log, want) {
			t.Errorf("the debug log has no %q:\n%s", want, log)
		}
	}

	c.env = []string{"STREAMCTL_LOG=debug"}
	o = c.must(ExitOK, "plan", "-no-color")
	if !strings.Contains(o.stderr, "[DEBUG] store ") || !strings.Contains(o.stderr, ": LIST _streamctl/") || strings.Contains(o.stdout, "[DEBUG]") {
		t.Errorf("plan with STREAMCTL_LOG=debug: want the requests on stderr:\nstdout:\n%s\nstderr:\n%s", o.stdout, o.stderr)
	}
	c.env = []string{"STREAMCTL_LOG=verbose"}
	if o := c.must(ExitOK, "plan", "-no-color"); !strings.Contains(o.stderr, "STREAMCTL_LOG=verbose is not a log level") {
		t.Errorf("an unknown level was not reported:\n%s", o.stderr)
	}
}
