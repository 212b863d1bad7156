package e2e

// The S3 proof of issue 4: everything the crash tests prove for local
// destinations, proven with an S3 destination and the state in S3, against a
// real S3 server (versitygw) started by the test. What a user checks: every
// record in every destination exactly once, no _temporary objects, plan says
// nothing is pending, a lock left by a dead apply reported with its holder
// and removable with force-unlock, an outage reported clearly and recovered,
// and an independent client (the AWS CLI) seeing what streamctl committed.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	streamctlcmd "github.com/streamctl/streamctl/internal/command"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
	"github.com/streamctl/streamctl/providers/s3"
	"github.com/streamctl/streamctl/state"
)

// remoteStateKey is where the remote states of these tests live, in their
// bucket or container; the lock is beside it, at remoteStateKey + ".lock", and
// each sink's beside the sink's document (state.SinksPrefix).
const remoteStateKey = "streamctl/state.json"

// streamConfig is a generated stream of partitions × var.records records, cut
// in batches of maxRecords and files of at most maxFileRecords (0: one file
// per batch), written by the sink "orders" to the destination blocks given.
// stateBlock is the streamctl block choosing the state ("" for local).
func streamConfig(stateBlock string, partitions int, maxRecords, maxFileRecords int64, destinations ...string) string {
	var b strings.Builder
	b.WriteString(stateBlock)
	fmt.Fprintf(&b, `
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
`, partitions)
	if maxFileRecords > 0 {
		fmt.Fprintf(&b, "  max_file_records = %d\n", maxFileRecords)
	}
	fmt.Fprintf(&b, `
  batch {
    max_records = %d
  }
`, maxRecords)
	for _, d := range destinations {
		b.WriteString(d)
	}
	b.WriteString("}\n")
	return b.String()
}

// localDestination is a destination block writing under the config directory.
func localDestination(name, path string) string {
	return fmt.Sprintf(`
  destination "local" %q {
    path = %q
  }
`, name, path)
}

// s3Destination is a destination block for a bucket of srv. The credentials
// come from the environment (srv.Env), as the AWS chain reads them.
func s3Destination(srv *testenv.S3Server, name, bucket, prefix string) string {
	return fmt.Sprintf(`
  destination "s3" %q {
    bucket           = %q
    prefix           = %q
    endpoint         = %q
    force_path_style = true
  }
`, name, bucket, prefix, srv.Endpoint)
}

// s3TableDestination is s3Destination with tableBlock (a table block of an
// object store's table) in it.
func s3TableDestination(srv *testenv.S3Server, name, bucket, prefix, tableBlock string) string {
	return strings.Replace(s3Destination(srv, name, bucket, prefix), "force_path_style = true", "force_path_style = true\n"+tableBlock, 1)
}

// s3TableProps are the properties of iceberg-go's s3:// file IO that reach
// srv.
func s3TableProps(srv *testenv.S3Server) map[string]string {
	return map[string]string{"s3.endpoint": srv.Endpoint, "s3.region": srv.Region,
		"s3.access-key-id": srv.AccessKey, "s3.secret-access-key": srv.SecretKey}
}

// s3StateBlock keeps the state in a bucket of srv, at remoteStateKey.
func s3StateBlock(srv *testenv.S3Server, bucket string) string {
	return fmt.Sprintf(`
streamctl {
  state "s3" {
    bucket           = %q
    key              = %q
    endpoint         = %q
    force_path_style = true
  }
}
`, bucket, remoteStateKey, srv.Endpoint)
}

// s3Storage opens a bucket of srv (rooted at prefix) to inspect what landed,
// through the same provider streamctl uses.
func s3Storage(t testing.TB, srv *testenv.S3Server, bucket, prefix string) providers.Storage {
	t.Helper()
	st, err := s3.New(context.Background(), s3.Config{
		Bucket:         bucket,
		Prefix:         prefix,
		Endpoint:       srv.Endpoint,
		Region:         srv.Region,
		ForcePathStyle: true,
		AccessKey:      srv.AccessKey,
		SecretKey:      srv.SecretKey,
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// bucketName is a fresh, valid bucket or container name (3-63 lowercase
// letters, digits and single hyphens) for one case of a test.
func bucketName(parts ...any) string {
	name := strings.ToLower(fmt.Sprint(parts...))
	name = regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(name, "-")
	name = strings.Trim(name, "-")
	if len(name) > 60 {
		name = strings.Trim(name[len(name)-60:], "-")
	}
	return "t-" + name
}

// remoteCase is a configuration whose state lives in an object store.
type remoteCase struct {
	dir   string
	env   []string
	state providers.Storage // the bucket or container holding remoteStateKey
	// dests are the sink's destinations, opened for checks.
	dests map[string]providers.Storage
}

// lockHolder reads the remote state's lock: nil when the state is not locked.
// An apply locks each sink rather than the state: the first sink lock held
// is returned when the state's own lock is free.
func lockHolder(t testing.TB, store providers.Storage) *state.LockInfo {
	t.Helper()
	if h := readLock(t, store, remoteStateKey+".lock"); h != nil {
		return h
	}
	var keys []string
	err := store.List(context.Background(), state.SinksPrefix(remoteStateKey), func(info providers.ObjectInfo) error {
		if strings.HasSuffix(info.Key, ".lock") {
			keys = append(keys, info.Key)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("list the sink locks in %s: %v", store.Describe(), err)
	}
	for _, k := range keys {
		if h := readLock(t, store, k); h != nil {
			return h
		}
	}
	return nil
}

// readLock reads the lock object key: nil when it is missing or released.
func readLock(t testing.TB, store providers.Storage, key string) *state.LockInfo {
	t.Helper()
	data, _, err := providers.ReadAll(context.Background(), store, key)
	if errors.Is(err, providers.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatalf("read the lock %s in %s: %v", key, store.Describe(), err)
	}
	var info struct {
		state.LockInfo
		Released bool `json:"released"`
	}
	if err := json.Unmarshal(data, &info); err != nil {
		t.Fatalf("the lock %s in %s is not a lock info: %v\n%s", key, store.Describe(), err, data)
	}
	if info.Released || info.ID == "force-unlocked" {
		return nil // freed by force-unlock: the next run takes it
	}
	if info.ID == "" {
		t.Fatalf("the lock %s in %s has no ID:\n%s", key, store.Describe(), data)
	}
	return &info.LockInfo
}

// forceUnlock removes the lock with ID id the way a user does, and checks
// that it is gone.
func forceUnlock(t *testing.T, c remoteCase, id string) {
	t.Helper()
	r := mustRun(t, c.dir, 0, c.env, "force-unlock", "-no-color", id)
	if !strings.Contains(r.stdout, id) || !strings.Contains(r.stdout, "was removed") {
		t.Errorf("force-unlock says:\n%s", r.stdout)
	}
	if h := lockHolder(t, c.state); h != nil {
		t.Fatalf("the lock is still there after force-unlock: %+v", h)
	}
}

// recoverKilled runs the apply that follows a SIGKILLed one, as a scheduled
// job would, with no human step: the lock the dead apply left in the remote
// state is taken over once its lease expired, with a warning naming it.
func recoverKilled(t *testing.T, c remoteCase, pid int, args ...string) result {
	t.Helper()
	h := lockHolder(t, c.state)
	if h == nil {
		t.Fatalf("the apply killed with pid %d left no lock: it should hold it until it ends", pid)
	}
	if h.PID != pid || h.Operation != "apply" {
		t.Fatalf("the lock is held by pid %d (%s), not by the killed apply %d", h.PID, h.Operation, pid)
	}
	r := mustRun(t, c.dir, 0, c.env, append([]string{"apply", "-auto-approve", "-no-color", "-lock-timeout=30s"}, args...)...)
	for _, want := range []string{"Took over the state lock of a run that died", h.ID, fmt.Sprintf("(pid %d", pid)} {
		if !strings.Contains(r.stderr+r.stdout, want) {
			t.Errorf("the apply after a killed one does not say %q:\n%s", want, r)
		}
	}
	return r
}

// syncBuffer collects a child's output while the test reads it.
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

// bgRun is a streamctl run in the background, watched by the test.
type bgRun struct {
	cmd            *exec.Cmd
	stdout, stderr syncBuffer
	done           chan struct{}
	err            error
}

func startRun(t *testing.T, dir string, env []string, args ...string) *bgRun {
	t.Helper()
	r := &bgRun{cmd: command(dir, env, args...), done: make(chan struct{})}
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r.err = r.cmd.Wait()
		close(r.done)
	}()
	// Never leave a process behind a failed test.
	t.Cleanup(func() {
		r.cmd.Process.Kill()
		<-r.done
	})
	return r
}

func (r *bgRun) pid() int { return r.cmd.Process.Pid }

func (r *bgRun) exited() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// waitOutput waits until the run printed s on stdout. It returns false when
// the run ended without printing it.
func (r *bgRun) waitOutput(t *testing.T, timeout time.Duration, s string) bool {
	t.Helper()
	return r.waitCount(t, timeout, s, 1)
}

// waitCount waits until the run printed s n times on stdout. It returns false
// when the run ended first.
func (r *bgRun) waitCount(t *testing.T, timeout time.Duration, s string, n int) bool {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for strings.Count(r.stdout.String(), s) < n {
		select {
		case <-r.done:
			return strings.Count(r.stdout.String(), s) >= n
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("streamctl did not print %q %d times within %s:\n%s\n%s", s, n, timeout, r.stdout.String(), r.stderr.String())
		}
	}
	return true
}

// kill sends SIGKILL and returns the result.
func (r *bgRun) kill(t *testing.T) result {
	t.Helper()
	r.cmd.Process.Kill()
	<-r.done
	return finish(t, r.cmd, r.err, r.stdout.String(), r.stderr.String())
}

// wait waits for the run to end; a run still going after timeout is killed
// and fails the test.
func (r *bgRun) wait(t *testing.T, timeout time.Duration) result {
	t.Helper()
	select {
	case <-r.done:
	case <-time.After(timeout):
		r.cmd.Process.Kill()
		<-r.done
		t.Fatalf("streamctl still ran after %s:\n%s\n%s", timeout, r.stdout.String(), r.stderr.String())
	}
	return finish(t, r.cmd, r.err, r.stdout.String(), r.stderr.String())
}

// remoteFaultPoints are the fault points the remote crash tests visit: every
// point name, in a first and a later batch. With 3 partitions × 2,000 records,
// batches of 1,500 and files of 500, each batch stages 3 files per destination.
var remoteFaultPoints = []string{
	"after-intent",
	"after-intent:3",
	"after-stage-file:1",
	"after-stage-file:4",
	"after-stage:2",
	"after-promote-file:1",
	"after-promote-file:5",
	"after-manifest:1",
	"after-manifest:3",
	"before-state-commit",
	"before-state-commit:4",
	"after-state-commit:2",
}

// crashAndRecover kills an apply with SIGKILL at fault, then recovers as a
// scheduled job would: apply runs again without the fault and takes over the
// lock the dead apply left in the remote state once its lease expired. Then nothing is pending,
// every destination holds every record exactly once without _temporary
// objects, the lock is released and the state has committed every batch.
func crashAndRecover(t *testing.T, c remoteCase, fault string) {
	t.Helper()
	crashed := startRun(t, c.dir, append([]string{"STREAMCTL_FAULT=" + fault}, c.env...), "apply", "-auto-approve", "-no-color")
	if r := crashed.wait(t, 3*time.Minute); !r.killed {
		t.Fatalf("the fault %s was not reached: %s", fault, r)
	}
	recoverKilled(t, c, crashed.pid())
	mustRun(t, c.dir, 0, c.env, "plan", "-detailed-exitcode", "-no-color")
	want := expectedIDs(3, 2000)
	for _, d := range c.dests {
		assertExactlyOnce(t, d, want)
	}
	if h := lockHolder(t, c.state); h != nil {
		t.Errorf("a successful apply left its lock: %+v", h)
	}
	st := mustRun(t, c.dir, 0, c.env, "state", "show", "-no-color", "orders")
	if !strings.Contains(st.stdout, "committed:         4 batches, 6,000 records") || strings.Contains(st.stdout, "in flight") {
		t.Errorf("state after recovery:\n%s", st.stdout)
	}
}

// TestS3CrashAtEveryFaultPoint: a sink writing to one local and one S3
// destination, its state in S3, killed at each fault point of the protocol.
func TestS3CrashAtEveryFaultPoint(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	for i, fp := range remoteFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			bucket := bucketName("fault-", i, "-", fp)
			srv.CreateBucket(t, bucket)
			dir := writeConfig(t, streamConfig(s3StateBlock(srv, bucket), 3, 1500, 500,
				localDestination("disk", "out/disk"),
				s3Destination(srv, "lake", bucket, "lake/orders")))
			crashAndRecover(t, remoteCase{
				dir:   dir,
				env:   srv.Env(),
				state: s3Storage(t, srv, bucket, ""),
				dests: map[string]providers.Storage{
					"disk": local.New(filepath.Join(dir, "out", "disk")),
					"lake": s3Storage(t, srv, bucket, "lake/orders"),
				},
			}, fp)
		})
	}
}

// randomKills kills apply with SIGKILL at random moments while the source
// grows, as a live stream does, until kills applies were interrupted; then
// lets apply finish. No human step: each apply waits for the lock a dead one
// left (-lock-timeout) and takes it over once its lease expired. Every
// destination ends with every record exactly once.
//
// calm, when set, is called before that last apply: it ends the network
// faults of a storm.
func randomKills(t *testing.T, c remoteCase, seed uint64, kills int, calm func()) {
	t.Helper()
	const partitions = 2
	// Indexes of 3 batches: kills land in manifest compaction too.
	c.env = append(slices.Clip(c.env), "STREAMCTL_TEST_MANIFEST_INDEX_INTERVAL=3")
	rng := rand.New(rand.NewPCG(seed, 1))
	records := int64(500)
	killed := map[int]bool{}
	interrupted, takeovers := 0, 0
	for attempt := 0; interrupted < kills; attempt++ {
		if attempt > 8*kills {
			t.Fatalf("only %d of %d kills interrupted an apply in %d attempts", interrupted, kills, attempt)
		}
		records += 1000
		run := startRun(t, c.dir, c.env, "apply", "-auto-approve", "-no-color", "-lock-timeout=30s", fmt.Sprintf("-var=records=%d", records))
		// A quarter of the kills land at any moment from the start (loading,
		// locking, planning); the others after a random number of progress
		// lines and a jitter, so that they spread over the batches whatever
		// the speed of the machine (the race detector slows streamctl down).
		var at <-chan time.Time
		if rng.IntN(4) == 0 {
			at = time.After(time.Duration(rng.IntN(1500)) * time.Millisecond)
		} else {
			run.waitCount(t, time.Minute, "orders: batch ", 1+rng.IntN(8))
			at = time.After(time.Duration(rng.IntN(30)) * time.Millisecond)
		}
		select {
		case <-run.done:
			r := finish(t, run.cmd, run.err, run.stdout.String(), run.stderr.String())
			if r.code != 0 {
				t.Fatalf("apply failed on its own: %s", r)
			}
		case <-at:
			if r := run.kill(t); r.killed {
				interrupted++
				killed[run.pid()] = true
			}
			if strings.Contains(run.stderr.String(), "Took over the state lock") {
				takeovers++
			}
		}
		// A kill can land before the lock is taken or after it is released;
		// otherwise the lock outlives the process, for the next run to take over.
		if h := lockHolder(t, c.state); h != nil && !killed[h.PID] {
			t.Fatalf("the lock is held by pid %d, which is no killed apply: %+v", h.PID, h)
		}
	}
	if calm != nil {
		calm()
	}
	mustRun(t, c.dir, 0, c.env, "apply", "-auto-approve", "-no-color", "-lock-timeout=30s", fmt.Sprintf("-var=records=%d", records))
	if h := lockHolder(t, c.state); h != nil {
		t.Errorf("the last apply left the lock: %+v", h)
	}
	mustRun(t, c.dir, 0, c.env, "plan", "-detailed-exitcode", "-no-color", fmt.Sprintf("-var=records=%d", records))
	want := expectedIDs(partitions, records)
	for name, d := range c.dests {
		assertExactlyOnce(t, d, want)
		indexes := 0
		if err := d.List(context.Background(), "_streamctl/orders/index-", func(providers.ObjectInfo) error { indexes++; return nil }); err != nil {
			t.Fatal(err)
		}
		if indexes == 0 {
			t.Errorf("destination %s holds no manifest index", name)
		}
	}
	// The manifests and indexes list exactly the files there.
	mustRun(t, c.dir, 0, c.env, "verify", "-no-color", fmt.Sprintf("-var=records=%d", records))
	t.Logf("%d kills interrupted an apply (%d runs took over a dead run's lock before they were killed); %d records per destination", interrupted, takeovers, len(want))
}

// TestS3RandomKills: 20 random kills of applies writing to S3 with the state
// in S3.
func TestS3RandomKills(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	dir := writeConfig(t, streamConfig(s3StateBlock(srv, "lake"), 2, 800, 400, s3Destination(srv, "lake", "lake", "orders")))
	randomKills(t, remoteCase{
		dir:   dir,
		env:   srv.Env(),
		state: s3Storage(t, srv, "lake", ""),
		dests: map[string]providers.Storage{"lake": s3Storage(t, srv, "lake", "orders")},
	}, 20261201, 20, nil)
}

// concurrentApplies starts an apply, and another while the first holds the
// lock: the second is refused and names the holder (its lock ID, who, which
// operation, its pid); the first finishes and the data is exactly once.
func concurrentApplies(t *testing.T, c remoteCase, records int64) {
	t.Helper()
	vars := fmt.Sprintf("-var=records=%d", records)
	first := startRun(t, c.dir, c.env, "apply", "-auto-approve", "-no-color", vars)
	var holder *state.LockInfo
	waitFor(t, time.Minute, "the first apply to take the lock", func() bool {
		holder = lockHolder(t, c.state)
		return holder != nil || first.exited()
	})
	if holder == nil || holder.PID != first.pid() {
		t.Fatalf("the lock is %+v, not the first apply's (pid %d): %s", holder, first.pid(), first.stderr.String())
	}
	second := run(t, c.dir, c.env, "apply", "-auto-approve", "-no-color", vars)
	if first.exited() {
		t.Fatalf("the first apply ended before the second was refused: make it longer\n%s", first.stdout.String())
	}
	if second.code != streamctlcmd.ExitLocked || second.killed {
		t.Fatalf("second apply: want exit %d (locked), got %s", streamctlcmd.ExitLocked, second)
	}
	for _, want := range []string{
		"is locked",
		"ID:        " + holder.ID,
		"Operation: apply",
		fmt.Sprintf("Who:       %s (pid %d)", holder.Who, first.pid()),
		"Created:",
		"Wait for it to finish",
	} {
		if !strings.Contains(second.stderr, want) {
			t.Errorf("the refused apply does not say %q:\n%s", want, second.stderr)
		}
	}
	if r := first.wait(t, 3*time.Minute); r.code != 0 || r.killed {
		t.Fatalf("first apply: %s", r)
	}
	if h := lockHolder(t, c.state); h != nil {
		t.Errorf("the first apply did not release its lock: %+v", h)
	}
	want := expectedIDs(2, records)
	for _, d := range c.dests {
		assertExactlyOnce(t, d, want)
	}
}

// TestS3ConcurrentApplies: two applies on one S3 state.
func TestS3ConcurrentApplies(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	dir := writeConfig(t, streamConfig(s3StateBlock(srv, "lake"), 2, 500, 0, s3Destination(srv, "lake", "lake", "orders")))
	concurrentApplies(t, remoteCase{
		dir:   dir,
		env:   srv.Env(),
		state: s3Storage(t, srv, "lake", ""),
		dests: map[string]providers.Storage{"lake": s3Storage(t, srv, "lake", "orders")},
	}, 15000)
}

// staleLock kills an apply in the middle of its batches. Its lock stays in
// the remote state: the next apply without -lock-timeout is refused naming the
// holder, which may be alive; once the store has not seen the lock refreshed
// for the lease, the next apply takes it over with a warning naming the dead
// holder and completes exactly once — no force-unlock. force-unlock still
// removes a lock in one step, and refuses another ID.
func staleLock(t *testing.T, c remoteCase, records int64) {
	t.Helper()
	vars := fmt.Sprintf("-var=records=%d", records)
	// A lease long enough that the apply right after the kill still finds
	// it running on a loaded machine (it once started 3 s later).
	c.env = append(slices.Clip(c.env), "STREAMCTL_TEST_LOCK_LEASE_MS=15000", "STREAMCTL_TEST_HEARTBEAT_MS=1000")
	dead := startRun(t, c.dir, c.env, "apply", "-auto-approve", "-no-color", vars)
	if !dead.waitOutput(t, 2*time.Minute, "committed in") {
		t.Fatalf("the apply ended before its first batch committed: %s", dead.stderr.String())
	}
	if r := dead.kill(t); !r.killed {
		t.Fatalf("the apply ended before it was killed: make it longer\n%s", r)
	}
	holder := lockHolder(t, c.state)
	if holder == nil || holder.PID != dead.pid() {
		t.Fatalf("the killed apply (pid %d) should have left its lock, found %+v", dead.pid(), holder)
	}

	// Just killed: the lease runs, the holder may be alive.
	r := mustRun(t, c.dir, streamctlcmd.ExitLocked, c.env, "apply", "-auto-approve", "-no-color", vars)
	for _, want := range []string{"is locked", "ID:        " + holder.ID, "Operation: apply", fmt.Sprintf("(pid %d)", dead.pid()), "Wait for it to finish", "by the store's clock"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the apply refused by a fresh lock does not say %q:\n%s", want, r.stderr)
		}
	}

	r = recoverKilled(t, c, dead.pid(), vars)
	if !strings.Contains(r.stdout, "resumed") && !strings.Contains(r.stdout, "started") {
		t.Errorf("the apply that took over ran no batch:\n%s", r.stdout)
	}
	mustRun(t, c.dir, 0, c.env, "plan", "-detailed-exitcode", "-no-color", vars)
	want := expectedIDs(2, records)
	for _, d := range c.dests {
		assertExactlyOnce(t, d, want)
	}
	if h := lockHolder(t, c.state); h != nil {
		t.Errorf("the apply that took over left its lock: %+v", h)
	}

	// force-unlock, for the truly ambiguous: a lock held by a live process.
	held := startRun(t, c.dir, c.env, "apply", "-auto-approve", "-no-color", fmt.Sprintf("-var=records=%d", 4*records))
	var h *state.LockInfo
	waitFor(t, time.Minute, "the apply to take the lock", func() bool {
		h = lockHolder(t, c.state)
		return h != nil || held.exited()
	})
	if h == nil {
		t.Fatalf("the apply ended before it took the lock: %s", held.stderr.String())
	}
	r = mustRun(t, c.dir, 1, c.env, "force-unlock", "-no-color", "not-"+h.ID)
	if !strings.Contains(r.stderr, h.ID) {
		t.Errorf("force-unlock with a wrong ID does not name the lock's ID:\n%s", r.stderr)
	}
	forceUnlock(t, c, h.ID)
	lost := held.wait(t, 2*time.Minute)
	if lost.code != 1 || !strings.Contains(lost.stderr, "the state lock was lost") {
		t.Errorf("the apply whose lock was force-unlocked: %s", lost)
	}
	mustRun(t, c.dir, 0, c.env, "apply", "-auto-approve", "-no-color", fmt.Sprintf("-var=records=%d", 4*records))
	for _, d := range c.dests {
		assertExactlyOnce(t, d, expectedIDs(2, 4*records))
	}
}

// TestS3StaleLockForceUnlock: the lock of a SIGKILLed apply in S3 state.
func TestS3StaleLockForceUnlock(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	dir := writeConfig(t, streamConfig(s3StateBlock(srv, "lake"), 2, 500, 0, s3Destination(srv, "lake", "lake", "orders")))
	staleLock(t, remoteCase{
		dir:   dir,
		env:   srv.Env(),
		state: s3Storage(t, srv, "lake", ""),
		dests: map[string]providers.Storage{"lake": s3Storage(t, srv, "lake", "orders")},
	}, 15000)
}

// outage stops the service under a running apply, once its first batch has
// committed. The apply must fail on its own (not hang, not be killed) within
// bound, with an error containing each of wantErr. After restart, the lock
// the failed apply could not release is reported with its holder by the next
// apply and removed with force-unlock, and apply completes exactly once.
func outage(t *testing.T, c remoteCase, records int64, stop, restart func(), bound time.Duration, wantErr ...string) {
	t.Helper()
	vars := fmt.Sprintf("-var=records=%d", records)
	// A lease long enough that the client gives up on the stopped service
	// before the heartbeat gives up the lock, short enough for the recovery
	// to take it over soon.
	c.env = append(slices.Clip(c.env), "STREAMCTL_TEST_LOCK_LEASE_MS=10000", "STREAMCTL_TEST_HEARTBEAT_MS=1000")
	failing := startRun(t, c.dir, c.env, "apply", "-auto-approve", "-no-color", vars)
	if !failing.waitOutput(t, 2*time.Minute, "committed in") {
		t.Fatalf("the apply ended before its first batch committed: %s", failing.stderr.String())
	}
	stop()
	stopped := time.Now()
	r := failing.wait(t, bound+time.Minute)
	took := time.Since(stopped)
	t.Logf("the apply failed %s after the service stopped:\n%s", took.Round(time.Millisecond), r.stderr)
	if r.code != 1 || r.killed {
		t.Fatalf("the apply during the outage: want exit 1, got %s", r)
	}
	if took > bound {
		t.Errorf("the apply took %s to give up, more than %s", took, bound)
	}
	for _, want := range wantErr {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the error does not say %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(r.stderr, "the next apply finishes it exactly once") {
		t.Errorf("the error does not tell what happens to the batch in flight:\n%s", r.stderr)
	}

	restart()
	// The state is on the stopped service: the failed apply could not delete
	// its lock. The next scheduled apply takes it over once its lease
	// expired; no human step.
	r = mustRun(t, c.dir, 0, c.env, "apply", "-auto-approve", "-no-color", "-lock-timeout=30s", vars)
	if !strings.Contains(r.stderr, "Took over the state lock of a run that died") || !strings.Contains(r.stderr, fmt.Sprintf("(pid %d", failing.pid())) {
		t.Errorf("the apply after the outage does not say it took over the failed apply's lock (pid %d):\n%s", failing.pid(), r.stderr)
	}
	mustRun(t, c.dir, 0, c.env, "plan", "-detailed-exitcode", "-no-color", vars)
	want := expectedIDs(2, records)
	for _, d := range c.dests {
		assertExactlyOnce(t, d, want)
	}
}

// TestS3ServerStoppedDuringApply: versitygw, which holds the destination and
// the state, stops in the middle of an apply.
func TestS3ServerStoppedDuringApply(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	dir := writeConfig(t, streamConfig(s3StateBlock(srv, "lake"), 2, 500, 0, s3Destination(srv, "lake", "lake", "orders")))
	c := remoteCase{
		dir:   dir,
		env:   srv.Env(),
		state: s3Storage(t, srv, "lake", ""),
		dests: map[string]providers.Storage{"lake": s3Storage(t, srv, "lake", "orders")},
	}
	// The AWS SDK names the service and the attempts it made (max_attempts,
	// 5 by default); streamctl names the object.
	outage(t, c, 30000, srv.Stop, func() { srv.Restart(t) }, 45*time.Second,
		"s3://lake/", "operation error S3", "exceeded maximum number of attempts, 5")
}

// TestS3IndependentClient checks what streamctl committed to S3 with the AWS
// CLI, which shares no code with it: the listing holds exactly the manifests
// and the files they name, with their sizes; the files downloaded by the CLI
// have the manifests' SHA-256 and record counts, and hold every record
// exactly once.
func TestS3IndependentClient(t *testing.T) {
	t.Parallel()
	aws, err := exec.LookPath("aws")
	if err != nil {
		if testenv.InCI() {
			t.Fatal("the AWS CLI (Debian awscli) is missing: CI must run this test")
		}
		t.Skip("the AWS CLI (Debian awscli) is not installed")
	}
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	dir := writeConfig(t, streamConfig(s3StateBlock(srv, "lake"), 3, 1500, 500, s3Destination(srv, "lake", "lake", "orders")))
	mustRun(t, dir, 0, srv.Env(), "apply", "-auto-approve", "-no-color")

	home := t.TempDir()
	awsCLI := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(aws, append([]string{"--endpoint-url", srv.Endpoint}, args...)...)
		// Only the test server's credentials: no user configuration, no CA
		// bundle meant for other hosts.
		cmd.Env = append(filterEnv(os.Environ(), "AWS_"), srv.Env()...)
		cmd.Env = append(cmd.Env, "HOME="+home, "AWS_CONFIG_FILE="+filepath.Join(home, "config"), "AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(home, "credentials"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("aws %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return string(out)
	}

	listed := map[string]int64{} // key under orders/ → size
	sc := bufio.NewScanner(strings.NewReader(awsCLI("s3", "ls", "--recursive", "s3://lake/orders/")))
	for sc.Scan() {
		// "2026-11-30 05:25:51      68654 orders/part-00000000-00000.jsonl"
		var date, clock, key string
		var size int64
		if _, err := fmt.Sscan(sc.Text(), &date, &clock, &size, &key); err != nil {
			t.Fatalf("aws s3 ls line %q: %v", sc.Text(), err)
		}
		listed[strings.TrimPrefix(key, "orders/")] = size
	}

	downloaded := t.TempDir()
	awsCLI("s3", "cp", "--recursive", "--only-show-errors", "s3://lake/orders/", downloaded)

	named := map[string]bool{}
	counts := map[int64]int{}
	// The owner record is the one control file beside the manifests.
	var owner engine.Owner
	if data, err := os.ReadFile(filepath.Join(downloaded, filepath.FromSlash(engine.OwnerKey))); err != nil {
		t.Fatalf("the owner record: %v", err)
	} else if err := json.Unmarshal(data, &owner); err != nil || owner.Sink != "orders" || owner.Lineage == "" {
		t.Fatalf("the owner record names sink %q, lineage %q (%v)", owner.Sink, owner.Lineage, err)
	}
	named[engine.OwnerKey] = true
	for batch := int64(0); batch < 4; batch++ {
		key := engine.ManifestKey("orders", batch)
		if _, ok := listed[key]; !ok {
			t.Fatalf("aws s3 ls does not list the manifest %s:\n%v", key, listed)
		}
		named[key] = true
		data, err := os.ReadFile(filepath.Join(downloaded, filepath.FromSlash(key)))
		if err != nil {
			t.Fatal(err)
		}
		var m engine.Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("manifest %s: %v", key, err)
		}
		if m.Batch != batch || len(m.Files) == 0 {
			t.Fatalf("manifest %s: batch %d, %d files", key, m.Batch, len(m.Files))
		}
		for _, f := range m.Files {
			named[f.Path] = true
			if listed[f.Path] != f.Size {
				t.Errorf("%s: listed with %d bytes, the manifest says %d", f.Path, listed[f.Path], f.Size)
			}
			data, err := os.ReadFile(filepath.Join(downloaded, filepath.FromSlash(f.Path)))
			if err != nil {
				t.Fatal(err)
			}
			if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != f.SHA256 {
				t.Errorf("%s: SHA-256 differs from the manifest's", f.Path)
			}
			var n int64
			for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				var rec record
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatalf("%s: %v", f.Path, err)
				}
				counts[rec.ID]++
				n++
			}
			if n != f.Records {
				t.Errorf("%s: %d records, the manifest says %d", f.Path, n, f.Records)
			}
		}
	}
	for key := range listed {
		if !named[key] {
			t.Errorf("aws s3 ls lists %s, which no manifest names", key)
		}
	}
	want := expectedIDs(3, 2000)
	if len(counts) != len(want) {
		t.Errorf("the files hold %d distinct records, want %d", len(counts), len(want))
	}
	for id, n := range counts {
		if n != 1 || !want[id] {
			t.Errorf("record %d: %d times (expected: %v)", id, n, want[id])
		}
	}
}

// filterEnv drops the variables starting with prefix.
func filterEnv(env []string, prefix string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, prefix) {
			out = append(out, kv)
		}
	}
	return out
}

// TestS3StagesOnFinalKeys: on S3 a batch's large files are staged as
// multipart uploads on their final keys — nothing under _temporary, nothing visible — and a
// run killed before publishing leaves uploads that the next run aborts
// before redoing the batch: every record once, no upload left to be billed.
func TestS3StagesOnFinalKeys(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	srv.CreateBucket(t, "final-keys")
	// Objects up to multipart_threshold wait in their buffer until promotion
	// and go with one PutObject; a threshold of one byte sends every file
	// of this small stream as a multipart upload.
	dest := strings.Replace(s3Destination(srv, "lake", "final-keys", "lake/orders"), "force_path_style = true",
		"force_path_style = true\n    multipart_threshold = 1", 1)
	dir := writeConfig(t, streamConfig(s3StateBlock(srv, "final-keys"), 3, 1500, 500, dest))
	lake := s3Storage(t, srv, "final-keys", "lake/orders")
	c := remoteCase{dir: dir, env: srv.Env(), state: s3Storage(t, srv, "final-keys", ""), dests: map[string]providers.Storage{"lake": lake}}

	crashed := startRun(t, dir, append([]string{"STREAMCTL_FAULT=after-stage"}, c.env...), "apply", "-auto-approve", "-no-color")
	if r := crashed.wait(t, 3*time.Minute); !r.killed {
		t.Fatalf("the fault after-stage was not reached: %s", r)
	}
	var uploads []string
	if err := lake.Features().StagedLister.ListStaged(t.Context(), "", func(u providers.StagedUpload) error {
		uploads = append(uploads, u.Key)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(uploads) == 0 {
		t.Fatal("the killed run left no multipart upload: batch 0 was not staged on its final keys")
	}
	for _, k := range uploads {
		if strings.HasPrefix(k, "_temporary/") || !strings.Contains(k, "part-00000000-") {
			t.Errorf("staged upload of %s: want batch 0's files at their final keys", k)
		}
	}
	var visible []string
	lake.List(t.Context(), "", func(info providers.ObjectInfo) error {
		if !strings.HasPrefix(info.Key, "_streamctl/") {
			visible = append(visible, info.Key)
		}
		return nil
	})
	if len(visible) > 0 {
		t.Errorf("objects visible before promotion: %v", visible)
	}
	recoverKilled(t, c, crashed.pid())
	assertExactlyOnce(t, lake, expectedIDs(3, 2000))
}
