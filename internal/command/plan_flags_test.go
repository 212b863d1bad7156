package command

import (
	"context"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/workspace"
	"github.com/streamctl/streamctl/state"
)

// TestPlanTerraformLockFlags: plan accepts -lock, -lock-timeout and
// -parallelism with Terraform's meaning. A running apply's lock is waited
// for up to -lock-timeout, then reported as a warning beside the plan;
// -lock=false does not look and says so.
func TestPlanTerraformLockFlags(t *testing.T) {
	c := newCLI(t, testConfig)
	if o := c.must(ExitChanges, "plan", "-no-color", "-detailed-exitcode", "-parallelism=1", "-lock-timeout=1s"); strings.Contains(o.stdout+o.stderr, "Warning") {
		t.Errorf("a plan over a free lock warned:\n%s%s", o.stdout, o.stderr)
	}
	o := c.must(ExitChanges, "plan", "-no-color", "-detailed-exitcode", "-lock=false")
	if !strings.Contains(o.stdout+o.stderr, "-lock=false") {
		t.Errorf("plan -lock=false did not warn:\n%s%s", o.stdout, o.stderr)
	}

	// An apply holds the lock.
	ctx := context.Background()
	cfg, diags := config.Load(c.dir, kinds(), config.Inputs{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	backend, err := workspace.StateBackend(ctx, cfg, kinds())
	if err != nil {
		t.Fatal(err)
	}
	u, err := state.Lock(ctx, backend, state.NewLockInfo("apply", Version), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Unlock()
	o = c.must(ExitChanges, "plan", "-no-color", "-detailed-exitcode", "-lock-timeout=1s")
	if !strings.Contains(o.stdout+o.stderr, "The state is locked by a running apply") || !strings.Contains(o.stdout, "Plan:") {
		t.Errorf("plan under a held lock: want the plan and a warning naming the apply:\n%s%s", o.stdout, o.stderr)
	}

	for _, bad := range [][]string{{"-parallelism=0"}, {"-lock-timeout=-1s"}, {"-lock=maybe"}} {
		if o := c.run(append([]string{"plan"}, bad...)...); o.code != ExitError {
			t.Errorf("plan %v: exit %d, want 1", bad, o.code)
		}
	}
}
