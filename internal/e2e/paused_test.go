package e2e

import (
	"fmt"
	"maps"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
)

// TestS3PausedHolderIsFenced: an apply frozen at a point of the protocol (a
// paused VM, a host stalled past the lease) loses its sink's lock to the next
// apply, which finishes the sink. Its heartbeat is starved as well, as on an
// overloaded host where the goroutine that would notice the lapse does not
// run first. When the frozen one wakes it must notice before it writes
// anything: it stops with "the state lock was lost", and the destination and
// the state are as the second apply left them, every record once.
func TestS3PausedHolderIsFenced(t *testing.T) {
	for _, fp := range []string{"after-intent", "after-stage", "after-manifest", "before-state-commit:2"} {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			srv := testenv.S3(t)
			bucket := "paused-" + strings.NewReplacer(":", "-", "_", "-").Replace(fp)
			srv.CreateBucket(t, bucket)
			dir := writeConfig(t, streamConfig(s3StateBlock(srv, bucket), 2, 500, 0, s3Destination(srv, "lake", bucket, "orders")))
			dest := s3Storage(t, srv, bucket, "orders")
			vars := "-var=records=1500"

			// A lease that a loaded machine cannot outlast before the fault
			// point; the second apply waits for it.
			lease := []string{"STREAMCTL_TEST_LOCK_LEASE_MS=8000", "STREAMCTL_TEST_HEARTBEAT_MS=1000"}
			env := append(append(srv.Env(), lease...), "STREAMCTL_FAULT="+fp, "STREAMCTL_FAULT_STOP=1", "STREAMCTL_TEST_HEARTBEAT_STALL_MS=600000")
			frozen := startRun(t, dir, env, "apply", "-auto-approve", "-no-color", vars)
			waitFor(t, 2*time.Minute, "the apply to stop at "+fp, func() bool {
				return processStopped(frozen.pid()) || frozen.exited()
			})
			if frozen.exited() {
				t.Fatalf("the apply ended before it reached %s: %s", fp, frozen.wait(t, time.Second))
			}

			// Its lease lapses; the next apply waits for it and takes over.
			mustRun(t, dir, 0, append(srv.Env(), lease...), "apply", "-auto-approve", "-no-color", "-lock-timeout=1m", vars)
			before := objectVersions(t, dest)
			time.Sleep(1100 * time.Millisecond) // a rewrite would show a later second

			if err := syscall.Kill(frozen.pid(), syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
			r := frozen.wait(t, 2*time.Minute)
			if r.code != 1 || r.killed || !strings.Contains(r.stderr, "the state lock was lost") {
				t.Errorf("the apply woken after its lease was taken over: want exit 1 saying the state lock was lost, got %s", r)
			}
			if after := objectVersions(t, dest); !maps.Equal(before, after) {
				t.Errorf("the woken apply wrote to the destination after losing its lock:\nbefore %v\nafter  %v", before, after)
			}
			mustRun(t, dir, 0, srv.Env(), "plan", "-detailed-exitcode", "-no-color", vars)
			assertExactlyOnce(t, dest, expectedIDs(2, 1500))
		})
	}
}

// processStopped reports whether the process is stopped by a signal.
func processStopped(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) state ...: comm may hold spaces, the state follows its ")".
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'T'
}

// objectVersions maps every object of s to its version and modification time.
func objectVersions(t *testing.T, s providers.Storage) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := s.List(t.Context(), "", func(info providers.ObjectInfo) error {
		out[info.Key] = info.Version + " " + info.ModTime.UTC().Format(time.RFC3339Nano)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
