package e2e

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/providers/local"
)

// localConfig is a generated stream into two local destinations.
func localConfig(partitions int, maxRecords, maxFileRecords int64) string {
	rolling := ""
	if maxFileRecords > 0 {
		rolling = fmt.Sprintf("max_file_records = %d", maxFileRecords)
	}
	return fmt.Sprintf(`
variable "records" {
  type    = number
  default = 2000
}

source "generate" "orders" {
  partitions            = %d
  records_per_partition = var.records
  payload_bytes         = 8
}

sink "orders" {
  source = source.generate.orders
  %s

  batch {
    max_records = %d
  }

  destination "local" "a" {
    path = "out/a"
  }
  destination "local" "b" {
    path = "out/b"
  }
}
`, partitions, rolling, maxRecords)
}

// The fault points of the commit protocol. Each kills streamctl with SIGKILL at
// that moment; the next apply must leave every destination with every record
// exactly once.
var faultPoints = []string{
	"after-intent",
	"after-intent:3",
	"after-stage-file:1",
	"after-stage-file:4",
	"after-stage",
	"after-stage:2",
	"after-promote-file:1",
	"after-promote-file:2",
	"after-promote-file:5",
	"after-manifest:1", // destination 1 of 2 committed
	"after-manifest:3",
	"before-state-commit",
	"before-state-commit:4",
	"after-state-commit",
	"after-state-commit:2",
}

func TestCrashAtEveryFaultPoint(t *testing.T) {
	for _, fp := range faultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			// 3 partitions x 2000 records in batches of 1500: 4 batches, each
			// staged as 3 files per destination.
			dir := writeConfig(t, localConfig(3, 1500, 500))
			r := run(t, dir, []string{"STREAMCTL_FAULT=" + fp}, "apply", "-auto-approve", "-no-color")
			if !r.killed {
				t.Fatalf("the fault %s was not reached: %s", fp, r)
			}
			mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
			mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")

			want := expectedIDs(3, 2000)
			for _, d := range []string{"a", "b"} {
				assertExactlyOnce(t, local.New(filepath.Join(dir, "out", d)), want)
				if _, err := os.Stat(filepath.Join(dir, "out", d, "_temporary")); !os.IsNotExist(err) {
					t.Errorf("destination %s: _temporary remains (%v)", d, err)
				}
			}
			st := mustRun(t, dir, 0, nil, "state", "show", "orders")
			if !strings.Contains(st.stdout, "committed:         4 batches, 6,000 records") {
				t.Errorf("state after recovery:\n%s", st.stdout)
			}
			if strings.Contains(st.stdout, "in flight") {
				t.Errorf("a batch is still in flight:\n%s", st.stdout)
			}
		})
	}
}

// TestPanicInAGoroutineExitsOne: a bug that panics in one of a batch's
// goroutines (a destination's promotion, the encoding of a file) ends apply
// with exit 1 and a report, never the Go runtime's exit 2, which
// -detailed-exitcode reads as a result; the next apply converges.
func TestPanicInAGoroutineExitsOne(t *testing.T) {
	for _, fp := range []string{"after-manifest", "after-stage-file:2"} {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			dir := writeConfig(t, localConfig(3, 1500, 500))
			r := run(t, dir, []string{"STREAMCTL_FAULT=" + fp, "STREAMCTL_FAULT_PANIC=1"}, "apply", "-auto-approve", "-no-color")
			if r.code != 1 || !strings.Contains(r.stderr, "Error: internal error: fault injected at "+strings.Split(fp, ":")[0]) || !strings.Contains(r.stderr, "please report it") {
				t.Fatalf("a panic at %s: want exit 1 and the report, got %s", fp, r)
			}
			mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
			want := expectedIDs(3, 2000)
			for _, d := range []string{"a", "b"} {
				assertExactlyOnce(t, local.New(filepath.Join(dir, "out", d)), want)
			}
		})
	}
}

// TestRandomKills kills apply with SIGKILL at random moments while the source
// keeps growing, then lets it finish.
func TestRandomKills(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary many times")
	}
	const partitions, kills = 4, 20
	dir := writeConfig(t, localConfig(partitions, 2500, 1000))
	rng := rand.New(rand.NewPCG(20261130, 1))
	records := int64(10000)
	interrupted := 0
	env := []string{"STREAMCTL_TEST_MANIFEST_INDEX_INTERVAL=3"} // kills land in compaction too
	for attempt := 0; interrupted < kills; attempt++ {
		if attempt > 200 {
			t.Fatalf("only %d of %d kills interrupted an apply in 200 attempts", interrupted, kills)
		}
		// The source grows a little before each run, as a live stream does.
		records += 2500
		cmd := command(dir, env, "apply", "-auto-approve", "-no-color", fmt.Sprintf("-var=records=%d", records))
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		delay := time.Duration(20+rng.IntN(180)) * time.Millisecond
		select {
		case err := <-done:
			r := finish(t, cmd, err, out.String(), "")
			if r.code != 0 {
				t.Fatalf("apply failed on its own: %s", r)
			}
		case <-time.After(delay):
			cmd.Process.Kill()
			err := <-done
			if r := finish(t, cmd, err, out.String(), ""); r.killed {
				interrupted++
			}
		}
	}
	mustRun(t, dir, 0, env, "apply", "-auto-approve", "-no-color", fmt.Sprintf("-var=records=%d", records))
	mustRun(t, dir, 0, env, "plan", "-detailed-exitcode", "-no-color", fmt.Sprintf("-var=records=%d", records))
	want := expectedIDs(partitions, records)
	for _, d := range []string{"a", "b"} {
		assertExactlyOnce(t, local.New(filepath.Join(dir, "out", d)), want)
	}
	mustRun(t, dir, 0, env, "verify", "-no-color", fmt.Sprintf("-var=records=%d", records))
	t.Logf("%d kills interrupted an apply; %d records per destination", interrupted, len(want))
}

// TestConcurrentApplies runs two applies on one state: one runs, the other is
// refused with the holder's details, and the data is exactly once.
func TestConcurrentApplies(t *testing.T) {
	dir := writeConfig(t, localConfig(2, 500, 0))
	first := command(dir, nil, "apply", "-auto-approve", "-no-color", "-var=records=20000")
	var out1 strings.Builder
	first.Stdout, first.Stderr = &out1, &out1
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	lockFile := filepath.Join(dir, ".streamctl", "state.json.lock")
	waitFor(t, 30*time.Second, "the first apply to take the lock", func() bool {
		data, err := os.ReadFile(lockFile)
		return err == nil && strings.Contains(string(data), `"operation": "apply"`)
	})
	second := run(t, dir, nil, "apply", "-auto-approve", "-no-color", "-var=records=20000")
	if second.code != 4 { // the documented "locked" exit code
		t.Fatalf("second apply: want exit 4, got %s", second)
	}
	for _, want := range []string{"is locked", "Operation: apply", fmt.Sprintf("(pid %d)", first.Process.Pid), "Created:"} {
		if !strings.Contains(second.stderr, want) {
			t.Errorf("second apply's error lacks %q:\n%s", want, second.stderr)
		}
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("first apply: %v\n%s", err, out1.String())
	}
	want := expectedIDs(2, 20000)
	for _, d := range []string{"a", "b"} {
		assertExactlyOnce(t, local.New(filepath.Join(dir, "out", d)), want)
	}
}

// TestLockTimeoutWaits checks that -lock-timeout waits for a lock held by a
// running apply instead of failing.
func TestLockTimeoutWaits(t *testing.T) {
	dir := writeConfig(t, localConfig(2, 1000, 0))
	first := command(dir, nil, "apply", "-auto-approve", "-no-color", "-var=records=40000")
	var out1 strings.Builder
	first.Stdout, first.Stderr = &out1, &out1
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	lockFile := filepath.Join(dir, ".streamctl", "state.json.lock")
	waitFor(t, 30*time.Second, "the first apply to take the lock", func() bool {
		data, err := os.ReadFile(lockFile)
		return err == nil && len(data) > 0
	})
	second := mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-lock-timeout=2m", "-var=records=40000")
	if err := first.Wait(); err != nil {
		t.Fatalf("first apply: %v\n%s", err, out1.String())
	}
	if !strings.Contains(second.stdout, "No changes.") {
		t.Errorf("the second apply ran after the first, so it should find nothing to do:\n%s", second.stdout)
	}
}
