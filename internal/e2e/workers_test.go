package e2e

// The proof of issue 21's first slice: several `streamctl apply` processes
// over one remote state apply different sinks at the same time. Workers are
// started together, killed with SIGKILL at random and restarted, as an
// autoscaled deployment would; they converge with every record exactly once
// in every sink's destination, and no sink is ever applied by two live
// workers at once.

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// workersConfig is n sinks s00..s<n-1>, each reading the same generated
// stream (partitions × records) into the destination block dest(i) (its own
// prefix "lake/s<i>"), with the state block stateBlock.
func workersConfig(stateBlock string, dest func(prefix string) string, n, partitions int, records, maxRecords int64) string {
	var b strings.Builder
	b.WriteString(stateBlock)
	fmt.Fprintf(&b, `
source "generate" "orders" {
  partitions            = %d
  records_per_partition = %d
  payload_bytes         = 8
}
`, partitions, records)
	for i := range n {
		fmt.Fprintf(&b, `
sink "s%02d" {
  source = source.generate.orders
  batch {
    max_records = %d
  }
%s}
`, i, maxRecords, dest(fmt.Sprintf("lake/s%02d", i)))
	}
	return b.String()
}

// span is the time a worker spent applying a sink: from its first event of
// the sink to its last (or to its death).
type span struct {
	worker     int
	sink       string
	start, end time.Time
	killed     bool
}

// sinkSpans reads a worker's -json output into a span per sink it applied.
func sinkSpans(t *testing.T, worker int, stdout string, killedAt time.Time) []span {
	t.Helper()
	bySink := map[string]*span{}
	var order []string
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var msg struct {
			Type  string    `json:"type"`
			At    time.Time `json:"@timestamp"`
			Batch *struct {
				Sink string `json:"sink"`
			} `json:"batch"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.Batch == nil || msg.Batch.Sink == "" {
			continue
		}
		if msg.Type != "batch_start" && msg.Type != "batch_committed" {
			continue
		}
		s := bySink[msg.Batch.Sink]
		if s == nil {
			s = &span{worker: worker, sink: msg.Batch.Sink, start: msg.At}
			bySink[msg.Batch.Sink] = s
			order = append(order, msg.Batch.Sink)
		}
		s.end = msg.At
	}
	var out []span
	for _, name := range order {
		s := *bySink[name]
		if !killedAt.IsZero() {
			// A killed worker may have been writing the sink until it died.
			s.end, s.killed = killedAt, true
		}
		out = append(out, s)
	}
	return out
}

// runWorkers starts n workers over dir, kills one at random every so often
// (kills in all, none when kills is 0) and restarts it, until every worker
// has exited 0 with nothing pending. It returns every worker run's spans
// and the wall time.
func runWorkers(t *testing.T, dir string, env []string, n, kills int, seed uint64) ([]span, time.Duration) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 21))
	parallelism := cmp.Or(os.Getenv("STREAMCTL_WORKERS_PARALLELISM"), "2")
	args := []string{"apply", "-auto-approve", "-json", "-parallelism=" + parallelism}
	// Each process run has its own id: a restarted worker is another
	// process, and a sink it takes back is a hand-over like any other.
	type worker struct {
		run *bgRun
		id  int
	}
	runs := 0
	// every run, in start order, for the story of a failure.
	var history []*workerRun
	startWorker := func() *worker {
		runs++
		w := &worker{run: startRun(t, dir, env, args...), id: runs}
		history = append(history, &workerRun{run: w.run, id: w.id, started: time.Now()})
		return w
	}
	start := time.Now()
	workers := make([]*worker, n)
	for i := range workers {
		workers[i] = startWorker()
	}
	// fail reports worker i's failure with what every other run did
	// meanwhile to the sinks it names and to locks.
	fail := func(format string, i int, r result) {
		t.Helper()
		t.Fatalf(format+"\n\n%s", i, r, workersStory(history, workers[i].id, r.stdout+r.stderr))
	}
	var spans []span
	killed, skips, takeovers, fenced := 0, 0, 0, 0
	finished := make([]bool, n)
	nextKill := time.Now().Add(time.Duration(200+rng.IntN(800)) * time.Millisecond)
	deadline := time.Now().Add(4 * time.Minute)
	for {
		if time.Now().After(deadline) {
			t.Fatalf("the workers did not converge in 4 minutes")
		}
		all := true
		for i, w := range workers {
			if !w.run.exited() {
				all = false
				continue
			}
			if finished[i] {
				continue
			}
			r := w.run.wait(t, time.Second)
			spans = append(spans, sinkSpans(t, w.id, r.stdout, time.Time{})...)
			skips += strings.Count(r.stdout, "Sink skipped")
			takeovers += strings.Count(r.stdout, "Took over the state lock")
			// A worker whose lease lapsed (a loaded machine delayed its
			// heartbeats) stops, as it must: the deployment restarts it,
			// as a killed one. What it wrote before is checked below with
			// everyone's, from the spans and the manifests' lock ids.
			if r.code == 1 && strings.Contains(r.stdout+r.stderr, "the state lock was lost") {
				fenced++
				workers[i] = startWorker()
				all = false
				continue
			}
			// 4: every sink it had to do was held by other workers.
			if r.code != 0 && r.code != 4 {
				fail("worker %d failed: %s", i, r)
			}
			if strings.Contains(r.stdout+r.stderr, "changed by another writer") {
				fail("worker %d met another writer of a sink it held: %s", i, r)
			}
			// A worker that skipped sinks held by a dead one runs again,
			// as a deployment restarts it, until nothing is left.
			if r.code == 4 || strings.Contains(r.stdout, "Sink skipped") || strings.Contains(r.stdout, "is being applied by") {
				workers[i] = startWorker()
				all = false
				continue
			}
			finished[i] = true
		}
		if all {
			break
		}
		if killed < kills && time.Now().After(nextKill) {
			i := rng.IntN(n)
			if w := workers[i]; !w.run.exited() {
				r := w.run.kill(t)
				for _, h := range history {
					if h.id == w.id {
						h.killed = time.Now()
					}
				}
				spans = append(spans, sinkSpans(t, w.id, r.stdout, time.Now())...)
				killed++
				workers[i] = startWorker()
				finished[i] = false
			}
			nextKill = time.Now().Add(time.Duration(200+rng.IntN(1200)) * time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond)
	}
	wall := time.Since(start)
	t.Logf("%d worker processes ran, %d killed, %d stopped by a lapsed lease; %d sinks skipped as held by another, %d sink locks taken over from a killed worker", runs, killed, fenced, skips, takeovers)
	// A last apply from scratch finds nothing to do.
	r := mustRun(t, dir, 0, env, "plan", "-detailed-exitcode", "-no-color")
	if !strings.Contains(r.stdout, "No changes") && !strings.Contains(r.stdout, "up to date") {
		t.Logf("plan after the workers:\n%s", r.stdout)
	}
	return spans, wall
}

// workerRun is one worker process of runWorkers.
type workerRun struct {
	run     *bgRun
	id      int
	started time.Time
	killed  time.Time // zero unless the test killed it
}

// storyLines bounds the lines shown of each other run.
const storyLines = 40

var sinkInOutput = regexp.MustCompile(`sink "?(s\d{2,}(?:/shard-\d+)?)"?`)

// workersStory is what the runs other than failed (by id) printed about the
// sinks its output names and about locks (taken over, skipped, lost, left),
// with when each run started and ended: a failure of one worker is usually
// the end of a story another one started.
func workersStory(history []*workerRun, failed int, output string) string {
	sinks := map[string]bool{}
	for _, m := range sinkInOutput.FindAllStringSubmatch(output, -1) {
		sinks[m[1]] = true
	}
	mentions := func(line string) bool {
		if strings.Contains(strings.ToLower(line), "lock") {
			return true
		}
		for s := range sinks {
			if strings.Contains(line, `"`+s+`"`) || strings.Contains(line, "sink "+s) {
				return true
			}
		}
		return false
	}
	var b strings.Builder
	names := slices.Sorted(maps.Keys(sinks))
	fmt.Fprintf(&b, "What the other worker runs printed about sinks %v and locks (the last %d such lines of each):\n", names, storyLines)
	var origin time.Time
	if len(history) > 0 {
		origin = history[0].started
	}
	for _, h := range history {
		if h.id == failed {
			continue
		}
		end := "running"
		switch {
		case !h.killed.IsZero():
			end = fmt.Sprintf("killed at +%s", h.killed.Sub(origin).Round(time.Millisecond))
		case h.run.exited():
			end = "exited"
			if h.run.err != nil {
				end = "exited: " + h.run.err.Error()
			}
		}
		var lines []string
		for _, out := range []string{h.run.stdout.String(), h.run.stderr.String()} {
			for line := range strings.SplitSeq(out, "\n") {
				if line != "" && mentions(line) {
					lines = append(lines, line)
				}
			}
		}
		if len(lines) == 0 {
			continue
		}
		pid := 0
		if h.run.cmd != nil && h.run.cmd.Process != nil {
			pid = h.run.pid()
		}
		fmt.Fprintf(&b, "\n--- run %d (pid %d), started at +%s, %s:\n", h.id, pid, h.started.Sub(origin).Round(time.Millisecond), end)
		if len(lines) > storyLines {
			fmt.Fprintf(&b, "[%d earlier lines]\n", len(lines)-storyLines)
			lines = lines[len(lines)-storyLines:]
		}
		b.WriteString(strings.Join(lines, "\n"))
		b.WriteString("\n")
	}
	return b.String()
}

// checkExclusive fails when two workers applied one sink at once. A killed
// worker's span ends at its death: its lease then had to expire before
// another worker could take the sink.
func checkExclusive(t *testing.T, spans []span) (perSinkWorkers map[string]map[int]bool) {
	t.Helper()
	bySink := map[string][]span{}
	perSinkWorkers = map[string]map[int]bool{}
	for _, s := range spans {
		bySink[s.sink] = append(bySink[s.sink], s)
		if perSinkWorkers[s.sink] == nil {
			perSinkWorkers[s.sink] = map[int]bool{}
		}
		perSinkWorkers[s.sink][s.worker] = true
	}
	for sink, ss := range bySink {
		sort.Slice(ss, func(i, j int) bool { return ss[i].start.Before(ss[j].start) })
		for k := 1; k < len(ss); k++ {
			if ss[k].start.Before(ss[k-1].end) {
				t.Errorf("sink %s applied by worker %d from %s while worker %d applied it until %s (killed %v)",
					sink, ss[k].worker, ss[k].start.Format(time.StampMicro), ss[k-1].worker, ss[k-1].end.Format(time.StampMicro), ss[k-1].killed)
			}
		}
	}
	return perSinkWorkers
}

// checkSinks checks every sink's destination holds every record exactly
// once, with one manifest per batch, and that the state is per-sink.
func checkSinks(t *testing.T, open func(prefix string) providers.Storage, n, partitions int, records, maxRecords int64) {
	t.Helper()
	ctx := context.Background()
	want := expectedIDs(partitions, records)
	batches := (records + maxRecords - 1) / maxRecords * int64(partitions)
	for i := range n {
		dest := open(fmt.Sprintf("lake/s%02d", i))
		assertExactlyOnce(t, dest, want)
		manifests := map[int64]int{}
		err := dest.List(ctx, engine.MetadataDir+"/", func(info providers.ObjectInfo) error {
			var id int64
			if _, err := fmt.Sscanf(info.Key[strings.LastIndex(info.Key, "/")+1:], "%d.json", &id); err == nil && !strings.Contains(info.Key, "index") {
				manifests[id]++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(manifests)) > batches {
			t.Errorf("sink s%02d: %d manifests, at most %d batches", i, len(manifests), batches)
		}
	}
	store := open("")
	mgr, err := state.Load(ctx, state.NewRemote(store, remoteStateKey), "test")
	if err != nil {
		t.Fatal(err)
	}
	if !mgr.Sharded() || len(mgr.State().Sinks) != n {
		t.Fatalf("the state is not per-sink, or lacks sinks: sharded %v, %d sinks", mgr.Sharded(), len(mgr.State().Sinks))
	}
	for name, s := range mgr.State().Sinks {
		if s.InFlight != nil {
			t.Errorf("sink %s: batch %d still in flight", name, s.InFlight.ID)
		}
		for p := range partitions {
			if off := s.Offsets[fmt.Sprint(p)]; off != records {
				t.Errorf("sink %s: partition %d committed to %d, want %d", name, p, off, records)
			}
		}
	}
}

// TestS3WorkersShareSinks: 4 workers over one S3 state and 20 sinks, with
// random SIGKILLs and restarts.
func TestS3WorkersShareSinks(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	bucket := bucketName("workers-kills")
	srv.CreateBucket(t, bucket)
	dest := func(prefix string) string { return s3Destination(srv, "lake", bucket, prefix) }
	open := func(prefix string) providers.Storage { return s3Storage(t, srv, bucket, prefix) }
	dir := writeConfig(t, workersConfig(s3StateBlock(srv, bucket), dest, workerSinks, workerPartitions, workerRecords, workerMaxRecords))
	workersShareSinks(t, dir, srv.Env(), open)
}

// TestAzureWorkersShareSinks: the same on Azurite, state and destinations in
// one container.
func TestAzureWorkersShareSinks(t *testing.T) {
	t.Parallel()
	az := testenv.Azurite(t)
	const container = "workers"
	az.CreateContainer(t, container)
	dest := func(prefix string) string { return azDestination(az, "lake", container, prefix) }
	open := func(prefix string) providers.Storage { return azStorage(t, az, container, prefix) }
	dir := writeConfig(t, workersConfig(azStateBlock(az, container), dest, workerSinks, workerPartitions, workerRecords, workerMaxRecords))
	workersShareSinks(t, dir, az.Env(), open)
}

// The workload of the *WorkersShareSinks tests.
const (
	workerSinks, workerPartitions   = 20, 2
	workerRecords, workerMaxRecords = 1200, 200
	workerCount, workerKills        = 4, 6
)

func workersShareSinks(t *testing.T, dir string, env []string, open func(prefix string) providers.Storage) {
	t.Helper()
	const (
		sinks, partitions   = workerSinks, workerPartitions
		records, maxRecords = workerRecords, workerMaxRecords
		workers, kills      = workerCount, workerKills
	)
	spans, wall := runWorkers(t, dir, env, workers, kills, 7)
	perSink := checkExclusive(t, spans)
	checkSinks(t, open, sinks, partitions, records, maxRecords)
	shared := 0
	for _, ws := range perSink {
		if len(ws) > 1 {
			shared++
		}
	}
	busy := map[int]bool{}
	for _, s := range spans {
		busy[s.worker] = true
	}
	if len(busy) < 2 {
		t.Errorf("only %d worker(s) applied any sink: the sinks were not shared", len(busy))
	}
	t.Logf("%d workers, %d sinks, %d kills: converged in %s; %d sinks were applied by more than one worker in turn", workers, sinks, kills, wall.Round(time.Millisecond), shared)
}

// TestS3WorkersWallTime reports the wall time of 1, 2, 4 and 8 workers over
// the same 20 sinks (STREAMCTL_WORKERS_BENCH=1; each run in a fresh bucket;
// STREAMCTL_WORKERS_PARALLELISM sets each worker's -parallelism, default 2).
// STREAMCTL_WORKERS_LATENCY_MS=N puts a proxy holding every answer back N
// ms in front of the server, as a store across a network is: on a machine
// with few cores the local server is CPU-bound, and latency is what
// separate workers hide.
func TestS3WorkersWallTime(t *testing.T) {
	if os.Getenv("STREAMCTL_WORKERS_BENCH") == "" {
		t.Skip("set STREAMCTL_WORKERS_BENCH=1 to measure")
	}
	srv := testenv.S3(t)
	const sinks, partitions = 20, 2
	records, maxRecords := int64(4000), int64(500)
	var latency time.Duration
	if ms, err := strconv.Atoi(os.Getenv("STREAMCTL_WORKERS_LATENCY_MS")); err == nil && ms > 0 {
		latency = time.Duration(ms) * time.Millisecond
		records = 2000
	}
	for _, n := range []int{1, 2, 4, 8} {
		bucket := bucketName("workers-wall-", n)
		srv.CreateBucket(t, bucket)
		endpoint := srv.Endpoint
		if latency > 0 {
			proxy := testenv.StartFaultProxy(t, srv.Endpoint)
			proxy.Randomly(1, []testenv.Fault{testenv.Slow}, latency, nil)
			endpoint = proxy.Endpoint
		}
		dest := func(prefix string) string { return s3Destination(srv, "lake", bucket, prefix) }
		open := func(prefix string) providers.Storage { return s3Storage(t, srv, bucket, prefix) }
		cfg := workersConfig(s3StateBlock(srv, bucket), dest, sinks, partitions, records, maxRecords)
		dir := writeConfig(t, strings.ReplaceAll(cfg, srv.Endpoint, endpoint))
		spans, wall := runWorkers(t, dir, srv.Env(), n, 0, 1)
		checkExclusive(t, spans)
		checkSinks(t, open, sinks, partitions, records, maxRecords)
		t.Logf("%d worker(s), %d sinks × %d batches, latency %s: %s", n, sinks, records/maxRecords*partitions, latency, wall.Round(time.Millisecond))
	}
}

// TestS3SinkHeldByAnotherProcess: a sink whose lock a live process holds is
// skipped with a message naming that process, the other sinks are applied
// and the exit code is 0; state rm, which changes the whole state, is
// refused while that sink lock is held (exit 4), and so is an apply while
// state rm's run-wide lock is held.
func TestS3SinkHeldByAnotherProcess(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	bucket := bucketName("workers-held")
	srv.CreateBucket(t, bucket)
	dest := func(prefix string) string { return s3Destination(srv, "lake", bucket, prefix) }
	dir := writeConfig(t, workersConfig(s3StateBlock(srv, bucket), dest, 3, 1, 300, 100))
	ctx := context.Background()
	store := s3Storage(t, srv, bucket, "")
	backend := state.NewRemote(store, remoteStateKey)

	// This test process holds sink s01, heartbeat and all, as another
	// apply would.
	info := state.NewLockInfo("apply", "test")
	u, err := backend.SinkLock("s01").Lock(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, dir, 0, srv.Env(), "apply", "-auto-approve", "-no-color")
	host, _ := os.Hostname()
	want := `sink "s01" is being applied by `
	if !strings.Contains(r.stderr+r.stdout, want) || !strings.Contains(r.stderr+r.stdout, fmt.Sprintf("(pid %d on %s", os.Getpid(), host)) || !strings.Contains(r.stderr+r.stdout, "): skipped") {
		t.Errorf("apply does not say the held sink is skipped (%q):\n%s", want, r)
	}
	for _, line := range strings.Split(r.stderr+r.stdout, "\n") {
		if strings.Contains(line, want) {
			t.Logf("apply says: %s", strings.TrimSpace(line))
		}
	}
	mgr, err := state.Load(ctx, backend, "test")
	if err != nil {
		t.Fatal(err)
	}
	if st := mgr.State(); st.Sinks["s00"] == nil || st.Sinks["s02"] == nil || st.Sinks["s01"] != nil {
		t.Fatalf("after apply with s01 held elsewhere, the state has %v", st.SinkNames())
	}
	if _, err := store.Stat(ctx, state.SinksPrefix(remoteStateKey)+"s00.lock"); err == nil {
		t.Error("apply left the lock of sink s00 behind")
	}
	// lock shows the sinks being applied.
	r = mustRun(t, dir, 4, srv.Env(), "lock", "-detailed-exitcode", "-no-color")
	if !strings.Contains(r.stdout, `sink "s01": ID `+info.ID) {
		t.Errorf("lock does not show the sink's lock:\n%s", r)
	}

	if err := u.Unlock(); err != nil {
		t.Fatal(err)
	}
	// state rm takes the lock of every sink in the state: refused while
	// another process applies s02, although it removes only s00.
	u, err = backend.SinkLock("s02").Lock(ctx, state.NewLockInfo("apply", "test"))
	if err != nil {
		t.Fatal(err)
	}
	r = mustRun(t, dir, 4, srv.Env(), "state", "rm", "-force", "s00")
	if !strings.Contains(r.stderr+r.stdout, `sink \"s02\"`) && !strings.Contains(r.stderr+r.stdout, `sink "s02"`) {
		t.Errorf("state rm refused without naming the held sink:\n%s", r)
	}
	if err := u.Unlock(); err != nil {
		t.Fatal(err)
	}

	// While a command holds the run-wide lock, apply refuses (exit 4).
	root, err := backend.Lock(ctx, state.NewLockInfo("state rm", "test"))
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, 4, srv.Env(), "apply", "-auto-approve", "-no-color")
	if err := root.Unlock(); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, 0, srv.Env(), "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, srv.Env(), "state", "rm", "-force", "s00")
	mgr, err = state.Load(ctx, backend, "test")
	if err != nil {
		t.Fatal(err)
	}
	if names := mgr.State().SinkNames(); strings.Join(names, ",") != "s01,s02" {
		t.Errorf("after state rm s00: %v", names)
	}
	for _, p := range []string{"lake/s01", "lake/s02"} {
		assertExactlyOnce(t, s3Storage(t, srv, bucket, p), expectedIDs(1, 300))
	}
}

// TestS3MigratesOneDocumentState: a remote state in the layout of earlier
// streamctl versions (the whole state in one document) is moved into per-sink
// documents by the next apply, which runs under the run-wide lock; the
// batches continue exactly once.
func TestS3MigratesOneDocumentState(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	bucket := bucketName("workers-migrate")
	srv.CreateBucket(t, bucket)
	dest := func(prefix string) string { return s3Destination(srv, "lake", bucket, prefix) }
	dir := writeConfig(t, workersConfig(s3StateBlock(srv, bucket), dest, 3, 2, 400, 100))
	ctx := context.Background()
	store := s3Storage(t, srv, bucket, "")
	backend := state.NewRemote(store, remoteStateKey)
	mustRun(t, dir, 0, srv.Env(), "apply", "-auto-approve", "-no-color", "-max-batches=2")

	// Rewrite it as an earlier streamctl kept it: one document, format 1.
	mgr, err := state.Load(ctx, backend, "test")
	if err != nil {
		t.Fatal(err)
	}
	old, err := state.Encode(mgr.State())
	if err != nil {
		t.Fatal(err)
	}
	if err := providers.Put(ctx, store, remoteStateKey, old); err != nil {
		t.Fatal(err)
	}
	if err := deleteAll(ctx, store, state.SinksPrefix(remoteStateKey)); err != nil {
		t.Fatal(err)
	}
	if got, err := state.Load(ctx, backend, "test"); err != nil || got.Sharded() || len(got.State().Sinks) != 3 {
		t.Fatalf("the one-document state reads back wrong: %v", err)
	}

	mustRun(t, dir, 0, srv.Env(), "apply", "-auto-approve", "-no-color")
	data, _, err := providers.ReadAll(ctx, store, remoteStateKey)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		Version int            `json:"version"`
		Sinks   map[string]any `json:"sinks"`
	}
	if err := json.Unmarshal(data, &root); err != nil || root.Version != state.ShardedVersion || len(root.Sinks) != 0 {
		t.Fatalf("the root after the migration (%v):\n%s", err, data)
	}
	got, err := state.Load(ctx, backend, "test")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Sharded() || got.State().Lineage != mgr.State().Lineage {
		t.Fatal("the migrated state is not sharded, or has another lineage")
	}
	for i := range 3 {
		assertExactlyOnce(t, s3Storage(t, srv, bucket, fmt.Sprintf("lake/s%02d", i)), expectedIDs(2, 400))
		if s := got.State().Sinks[fmt.Sprintf("s%02d", i)]; s == nil || s.Offsets["0"] != 400 || s.Offsets["1"] != 400 {
			t.Errorf("sink s%02d not committed to the end after the migration", i)
		}
	}
	mustRun(t, dir, 0, srv.Env(), "plan", "-detailed-exitcode", "-no-color")
}

func deleteAll(ctx context.Context, s providers.Storage, prefix string) error {
	var keys []string
	if err := s.List(ctx, prefix, func(info providers.ObjectInfo) error {
		keys = append(keys, info.Key)
		return nil
	}); err != nil {
		return err
	}
	for _, k := range keys {
		if err := s.Delete(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

// TestS3MovedBlockOnPerSinkState: a moved block renames a sink of a per-sink
// S3 state under the run-wide lock (the new sink's document is written, then
// the old one removed); once done, the block left in the configuration no
// longer keeps applies from running per sink.
func TestS3MovedBlockOnPerSinkState(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	bucket := bucketName("workers-moved")
	srv.CreateBucket(t, bucket)
	dest := func(prefix string) string { return s3Destination(srv, "lake", bucket, prefix) }
	cfg := workersConfig(s3StateBlock(srv, bucket), dest, 2, 2, 400, 100)
	dir := writeConfig(t, cfg)
	mustRun(t, dir, 0, srv.Env(), "apply", "-auto-approve", "-no-color", "-max-batches=3")

	renamed := strings.Replace(cfg, `sink "s00"`, `sink "t00"`, 1) + "\nmoved {\n  from = sink.s00\n  to   = sink.t00\n}\n"
	if err := os.WriteFile(dir+"/main.hcl", []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, 0, srv.Env(), "apply", "-auto-approve", "-no-color", "-max-batches=1")
	ctx := context.Background()
	store := s3Storage(t, srv, bucket, "")
	mgr, err := state.Load(ctx, state.NewRemote(store, remoteStateKey), "test")
	if err != nil {
		t.Fatal(err)
	}
	if names := strings.Join(mgr.State().SinkNames(), ","); names != "s01,t00" {
		t.Fatalf("sinks after the moved block: %s", names)
	}
	if _, err := store.Stat(ctx, state.SinksPrefix(remoteStateKey)+"s00.json"); err == nil {
		t.Error("the renamed sink's former document is still there")
	}
	// The rename is done: this apply runs per sink, as a worker beside a
	// held sink shows.
	u, err := state.NewRemote(store, remoteStateKey).SinkLock("s01").Lock(ctx, state.NewLockInfo("apply", "test"))
	if err != nil {
		t.Fatal(err)
	}
	// The test's lock is not refreshed: with the tests' 2 s lease, a slow
	// machine would judge it dead before apply reaches it.
	r := mustRun(t, dir, 0, append(srv.Env(), "STREAMCTL_TEST_LOCK_LEASE_MS=600000"), "apply", "-auto-approve", "-no-color")
	if !strings.Contains(r.stdout+r.stderr, `sink "s01" is being applied by`) {
		t.Errorf("the apply after the rename did not run per sink:\n%s", r)
	}
	if err := u.Unlock(); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, 0, srv.Env(), "apply", "-auto-approve", "-no-color")
	for _, p := range []string{"lake/s00", "lake/s01"} {
		assertExactlyOnce(t, s3Storage(t, srv, bucket, p), expectedIDs(2, 400))
	}
	mustRun(t, dir, 0, srv.Env(), "plan", "-detailed-exitcode", "-no-color")
}

// TestWorkersStory: a failing worker's report shows what the other runs
// printed about the sinks its error names and about locks, and nothing else.
func TestWorkersStory(t *testing.T) {
	done := make(chan struct{})
	close(done)
	run := func(stdout string) *bgRun {
		r := &bgRun{done: done}
		r.stdout.Write([]byte(stdout))
		return r
	}
	t0 := time.Now()
	history := []*workerRun{
		{id: 1, started: t0, run: run(`{"@message":"Batch started","batch":{"sink":"s10"}}` + "\n" + `{"@message":"Batch started","batch":{"sink":"s11"}}` + "\n")},
		{id: 2, started: t0.Add(time.Second), killed: t0.Add(2 * time.Second), run: run(`{"@message":"Took over the state lock of a run that died"}` + "\n")},
		{id: 3, started: t0.Add(3 * time.Second), run: run(`{"@message":"Batch started","batch":{"sink":"s10"}}` + "\n")},
	}
	story := workersStory(history, 3, `Error: log intent of batch 0 of sink s10: write state x: sink "s10": the state was changed by another writer since it was read`)
	for _, want := range []string{"sinks [s10]", "run 1", `"sink":"s10"`, "run 2", "killed at +2s", "Took over the state lock"} {
		if !strings.Contains(story, want) {
			t.Errorf("the story lacks %q:\n%s", want, story)
		}
	}
	for _, unwanted := range []string{`"sink":"s11"`, "run 3"} {
		if strings.Contains(story, unwanted) {
			t.Errorf("the story shows %q:\n%s", unwanted, story)
		}
	}
}
