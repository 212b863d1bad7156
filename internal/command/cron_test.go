package command

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/streamctl/streamctl/state"
)

// holdLock takes the state lock of c's configuration, as another streamctl
// would, until the test ends.
func holdLock(t *testing.T, c runner) *state.LockInfo {
	t.Helper()
	info := state.NewLockInfo("apply", "other")
	info.Created = testTime.Add(-90 * time.Second)
	u, err := state.NewLocal(filepath.Join(c.dir, ".streamctl", "state.json")).Lock(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { u.Unlock() })
	return info
}

func TestLockedExitCode(t *testing.T) {
	c := newCLI(t, testConfig)
	info := holdLock(t, c)

	o := c.must(ExitLocked, "apply", "-auto-approve")
	for _, want := range []string{"the state is locked by another streamctl", info.ID, "Operation: apply", "code 4"} {
		if !strings.Contains(o.stderr, want) {
			t.Errorf("locked apply lacks %q:\n%s", want, o.stderr)
		}
	}
	o = c.must(ExitLocked, "apply", "-auto-approve", "-json", "-lock-timeout=300ms")
	msgs := jsonLines(t, o.stdout)
	d := msgs[len(msgs)-1]
	if d["type"] != "diagnostic" || !strings.Contains(d["@message"].(string), "locked") {
		t.Errorf("locked apply -json: %s", o.stdout)
	}
	c.must(ExitLocked, "state", "rm", "-force", "orders")

	// lock shows the holder and its age.
	o = c.must(ExitOK, "lock")
	for _, want := range []string{"is locked", info.ID, "(1m ago)", "streamctl force-unlock " + info.ID} {
		if !strings.Contains(o.stdout, want) {
			t.Errorf("lock lacks %q:\n%s", want, o.stdout)
		}
	}
	c.must(ExitLocked, "lock", "-detailed-exitcode")
	o = c.must(ExitOK, "lock", "-json")
	var doc lockDocument
	if err := json.Unmarshal([]byte(o.stdout), &doc); err != nil || !doc.Locked || doc.Holder.ID != info.ID || *doc.AgeSeconds != 90 {
		t.Errorf("lock -json: %v %s", err, o.stdout)
	}
	// -lock=false goes on regardless.
	c.must(ExitOK, "apply", "-auto-approve", "-lock=false")
}

func TestLockFree(t *testing.T) {
	c := newCLI(t, testConfig)
	o := c.must(ExitOK, "lock", "-detailed-exitcode")
	if !strings.Contains(o.stdout, "is not locked") {
		t.Errorf("lock: %s", o.stdout)
	}
	c.must(ExitOK, "apply", "-auto-approve")
	// apply released its lock.
	c.must(ExitOK, "lock", "-detailed-exitcode")
}

// syncBuffer is a buffer written by a running command and read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestSIGTERMReleasesTheLock: a CronJob's pod is stopped with SIGTERM; the
// apply stops cleanly, releases the lock, and the next run finishes the work.
func TestSIGTERMReleasesTheLock(t *testing.T) {
	c := newCLI(t, strings.NewReplacer("partitions            = 3", "partitions            = 2", "max_records = 1200", "max_records = 500").Replace(testConfig))
	// The test process keeps a handler of its own, so that a signal arriving
	// after the apply ended cannot kill it.
	guard := make(chan os.Signal, 1)
	signal.Notify(guard, syscall.SIGTERM)
	defer signal.Stop(guard)
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() {
		done <- Main([]string{"-chdir=" + c.dir, "apply", "-auto-approve", "-json", "-var", "records=20000"}, Streams{
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Environ: []string{}, ProgressInterval: -1,
		})
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stdout.String(), `"type":"batch_committed"`) {
		if time.Now().After(deadline) {
			t.Fatalf("no batch committed in 30s:\n%s\n%s", stdout.String(), stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var code int
	select {
	case code = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("apply did not stop within 30s of SIGTERM")
	}
	if code != ExitError {
		t.Errorf("exit %d after SIGTERM", code)
	}
	msgs := jsonLines(t, stdout.String())
	sum := msgs[len(msgs)-1]
	if sum["type"] != "apply_summary" || sum["summary"].(map[string]any)["status"] != "interrupted" {
		t.Errorf("last message after SIGTERM: %v", sum)
	}
	holder, err := state.NewLocal(filepath.Join(c.dir, ".streamctl", "state.json")).LockInfo(context.Background())
	if err != nil || holder != nil {
		t.Fatalf("the lock is still held after SIGTERM: %v %v", holder, err)
	}
	o := c.must(ExitOK, "apply", "-auto-approve", "-var", "records=20000")
	if !strings.Contains(o.stdout, "Apply complete!") {
		t.Errorf("the next run:\n%s", o.stdout)
	}
	c.must(ExitOK, "plan", "-detailed-exitcode", "-var", "records=20000")
}

func TestMetricsFile(t *testing.T) {
	c := newCLI(t, testConfig)
	c.must(ExitOK, "apply", "-auto-approve", "-metrics-file=metrics.prom", "-var", "records=900")
	data, err := os.ReadFile(filepath.Join(c.dir, "metrics.prom"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "metrics.prom", string(data))
	// A failed run keeps the last success time and says it failed.
	os.WriteFile(filepath.Join(c.dir, "garbage.plan"), []byte("{}"), 0o644)
	c.must(ExitError, "apply", "-metrics-file=metrics.prom", "garbage.plan")
	data, _ = os.ReadFile(filepath.Join(c.dir, "metrics.prom"))
	for _, want := range []string{"streamctl_apply_success 0\n", "streamctl_apply_last_success_timestamp_seconds 1772366400\n"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("metrics after a failure lack %q:\n%s", want, data)
		}
	}
	// The source grew: the lag shows after an apply limited to one batch.
	c.must(ExitOK, "apply", "-auto-approve", "-metrics-file=metrics.prom", "-max-batches=1", "-var", "records=1500")
	data, _ = os.ReadFile(filepath.Join(c.dir, "metrics.prom"))
	if !strings.Contains(string(data), `streamctl_sink_lag_records{sink="orders"} 600`) {
		t.Errorf("metrics lag:\n%s", data)
	}
	entries, _ := os.ReadDir(c.dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
}

func TestProgressOnlyOnTerminals(t *testing.T) {
	c := newCLI(t, testConfig)
	c.terminal = true
	o := c.must(ExitOK, "apply", "-auto-approve")
	if !strings.Contains(o.stdout, "\r\x1b[KApplying: 1/3 batches, 1,200/3,000 records") {
		t.Errorf("no progress line on a terminal:\n%q", o.stdout)
	}
	if !strings.Contains(o.stdout, "\r\x1b[K\nApply complete!") {
		t.Errorf("the progress line is not cleared before the summary:\n%q", o.stdout)
	}
	for _, args := range [][]string{{"apply", "-auto-approve", "-var", "records=1100"}, {"apply", "-auto-approve", "-json", "-var", "records=1200"}} {
		c.terminal = args[2] == "-json"
		o = c.must(ExitOK, args...)
		if strings.Contains(o.stdout, "\r") || strings.Contains(o.stdout, "\x1b") {
			t.Errorf("%v: terminal control characters:\n%q", args, o.stdout)
		}
	}
}
