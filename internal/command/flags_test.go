package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlags runs the flags the other tests do not, each with what it must do.
func TestFlags(t *testing.T) {
	c := newCLI(t, twoSinks)
	os.WriteFile(filepath.Join(c.dir, "more.vars"), []byte("records = 1100\n"), 0o644)

	o := c.must(ExitOK, "plan", "-var-file=more.vars", "-refresh=false", "-no-color", "-input=false")
	if !strings.Contains(o.stdout, "Plan: 4 batches, 3,800 records to 3 destinations.") {
		t.Errorf("plan -var-file:\n%s", o.stdout)
	}
	o = c.must(ExitOK, "apply", "-auto-approve", "-max-batches=1", "-parallelism=1", "-verbose", "-refresh=false", "-lock-timeout=1s")
	if !strings.Contains(o.stdout, "Apply complete! 2 batches, 1,700 records") || !strings.Contains(o.stdout, "partition 0 [0, 400) 400 records") {
		t.Errorf("apply -max-batches=1 -verbose:\n%s", o.stdout)
	}
	o = c.must(ExitChanges, "plan", "-detailed-exitcode", "-target=sink.orders")
	if !strings.Contains(o.stdout, "Plan: 2 batches, 1,800 records to 2 destinations.") {
		t.Errorf("plan after -max-batches=1:\n%s", o.stdout)
	}
	c.must(ExitError, "apply", "-auto-approve", "-parallelism=0")
	c.must(ExitError, "apply", "-auto-approve", "-max-batches=-1")
	c.must(ExitOK, "plan", "-out=v.plan")
	o = c.must(ExitOK, "show", "-verbose", "-no-color", "v.plan")
	if !strings.Contains(o.stdout, "partition 0 [400, 800) 400 records") {
		t.Errorf("show -verbose:\n%s", o.stdout)
	}
	o = c.must(ExitOK, "validate", "-no-color", "-var", "records=5")
	if !strings.Contains(o.stdout, "2 sources, 2 sinks") {
		t.Errorf("validate: %s", o.stdout)
	}
	o = c.must(ExitOK, "state", "show", "-no-color", "orders")
	if !strings.Contains(o.stdout, "next batch:        1") {
		t.Errorf("state show:\n%s", o.stdout)
	}
	// Every command refuses an unknown flag with exit 1.
	for name := range Commands(&Meta{}) {
		if name == "state" || name == "version" {
			continue
		}
		args := append(strings.Fields(name), "-no-such-flag")
		if o := c.run(args...); o.code != ExitError {
			t.Errorf("%s -no-such-flag: exit %d", name, o.code)
		}
	}
}
