package e2e

// The proof of issue 21: eight `streamctl apply` processes over one remote
// state, SIGKILLed at random and restarted, share a hundred sinks, and the
// eight shards of one sink reading a stream of sixteen partitions. They
// converge with every record exactly once; no sink or shard is applied by
// two workers at once, which is checked twice: from the workers' own events
// (checkExclusive), and from the manifests, each of which records the lock
// its batch was committed under.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
	"github.com/streamctl/streamctl/state"
)

// The workloads: a hundred small sinks, and one sink of eight shards.
const (
	manySinks, manyRecords, manyMaxRecords = 100, 100, 50
	shardCount, shardPartitions            = 8, 16
	shardRecords, shardMaxRecords          = 2400, 300
	eightWorkers, eightKills               = 8, 8
)

// shardedConfig is one sink "big" with shards = shardCount over a generated
// stream of shardPartitions partitions.
func shardedConfig(stateBlock string, dest func(prefix string) string) string {
	return stateBlock + fmt.Sprintf(`
source "generate" "orders" {
  partitions            = %d
  records_per_partition = %d
  payload_bytes         = 8
}

sink "big" {
  source = source.generate.orders
  shards = %d
  batch {
    max_records = %d
  }
%s}
`, shardPartitions, shardRecords, shardCount, shardMaxRecords, dest("lake/big"))
}

// checkManifestHolders reads the manifests of each of sinks (a sink or a
// shard) in dest and fails when its batches are not one chain of ranges
// from 0 (no offset read twice), when a partition is outside the shard, or
// when the locks they were committed under interleave: a lock ID (one
// worker process's hold of the sink) that gives way to another never comes
// back, as a killed worker never does.
func checkManifestHolders(t *testing.T, dest providers.Storage, sinks []string, shard func(sink string) *planner.Shard) (holders int) {
	t.Helper()
	ctx := context.Background()
	for _, sink := range sinks {
		ms, err := engine.ReadManifests(ctx, dest, sink, 0)
		if err != nil {
			t.Fatalf("read the manifests of %s: %v", sink, err)
		}
		sort.Slice(ms, func(i, j int) bool { return ms[i].Batch < ms[j].Batch })
		var runs []string
		done := map[string]bool{}
		next := map[string]int64{}
		for k, m := range ms {
			if m.Batch != int64(k) {
				t.Fatalf("%s: manifest %d is batch %d: the batches are not 0, 1, 2…", sink, k, m.Batch)
			}
			if m.LockID == "" {
				t.Fatalf("%s: batch %d's manifest records no lock", sink, m.Batch)
			}
			if len(runs) == 0 || runs[len(runs)-1] != m.LockID {
				if done[m.LockID] {
					t.Errorf("%s: batch %d committed under lock %s again after %s: two holders interleaved (%v)", sink, m.Batch, m.LockID, runs[len(runs)-1], runs)
				}
				done[m.LockID] = true
				runs = append(runs, m.LockID)
			}
			for _, r := range m.Ranges {
				if sh := shard(sink); sh != nil && planner.ShardOf(r.Partition, sh.Count) != sh.Index {
					t.Errorf("%s: batch %d reads partition %s, of shard %d", sink, m.Batch, r.Partition, planner.ShardOf(r.Partition, sh.Count))
				}
				if r.Start != next[r.Partition] {
					t.Errorf("%s: batch %d reads partition %s from %d, the batch before ended at %d", sink, m.Batch, r.Partition, r.Start, next[r.Partition])
				}
				next[r.Partition] = r.End
			}
		}
		if len(runs) > 1 {
			t.Logf("%s: committed by %d holders of its lock in turn", sink, len(runs))
		}
		holders += len(runs)
	}
	return holders
}

func shardNames() []string {
	var out []string
	for k := range shardCount {
		out = append(out, state.ShardName("big", k))
	}
	return out
}

func shardOfName(name string) *planner.Shard {
	for k := range shardCount {
		if name == state.ShardName("big", k) {
			return &planner.Shard{Sink: "big", Index: k, Count: shardCount}
		}
	}
	return nil
}

// eightWorkersManySinks: eight workers with kills over a hundred sinks.
func eightWorkersManySinks(t *testing.T, stateBlock string, env []string, dest func(prefix string) string, open func(prefix string) providers.Storage) {
	dir := writeConfig(t, workersConfig(stateBlock, dest, manySinks, 1, manyRecords, manyMaxRecords))
	start := time.Now()
	spans, wall := runWorkers(t, dir, env, eightWorkers, eightKills, 21)
	perSink := checkExclusive(t, spans)
	checkSinks(t, open, manySinks, 1, manyRecords, manyMaxRecords)
	holders := 0
	for i := range manySinks {
		name := fmt.Sprintf("s%02d", i)
		holders += checkManifestHolders(t, open("lake/"+name), []string{name}, func(string) *planner.Shard { return nil })
	}
	busy := map[int]bool{}
	for _, s := range spans {
		busy[s.worker] = true
	}
	if len(busy) < 4 {
		t.Errorf("only %d worker processes applied any sink: the sinks were not shared", len(busy))
	}
	t.Logf("%d workers, %d sinks, %d kills: converged in %s (%s in all); %d sinks applied, %d holds of a sink's lock seen in the manifests",
		eightWorkers, manySinks, eightKills, wall.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), len(perSink), holders)
}

// eightWorkersShardedSink: eight workers with kills over one sink of eight
// shards.
func eightWorkersShardedSink(t *testing.T, stateBlock string, env []string, dest func(prefix string) string, open func(prefix string) providers.Storage) {
	dir := writeConfig(t, shardedConfig(stateBlock, dest))
	start := time.Now()
	spans, wall := runWorkers(t, dir, env, eightWorkers, eightKills, 8)
	checkExclusive(t, spans)
	lake := open("lake/big")
	assertExactlyOnce(t, lake, expectedIDs(shardPartitions, shardRecords))
	holders := checkManifestHolders(t, lake, shardNames(), shardOfName)

	ctx := context.Background()
	mgr, err := state.Load(ctx, state.NewRemote(open(""), remoteStateKey), "test")
	if err != nil {
		t.Fatal(err)
	}
	st := mgr.State()
	if !mgr.Sharded() || len(st.Sinks) != shardCount {
		t.Fatalf("the state holds %v, want the %d shards of big", st.SinkNames(), shardCount)
	}
	for _, name := range shardNames() {
		ss := st.Sinks[name]
		if ss == nil || ss.Shard == nil || ss.Shard.Count != shardCount || ss.InFlight != nil {
			t.Fatalf("shard %s: %+v", name, ss)
		}
		for p := range shardPartitions {
			off, has := ss.Offsets[fmt.Sprint(p)]
			mine := planner.ShardOf(fmt.Sprint(p), shardCount) == ss.Shard.Index
			if mine && off != shardRecords || !mine && has {
				t.Errorf("shard %s: partition %d committed to %d (present %v)", name, p, off, has)
			}
		}
	}
	// Shards run at once: more than one worker applied the sink at a time.
	overlap := false
	for i, a := range spans {
		for _, b := range spans[i+1:] {
			if a.worker != b.worker && a.sink != b.sink && a.start.Before(b.end) && b.start.Before(a.end) {
				overlap = true
			}
		}
	}
	if !overlap {
		t.Errorf("no two shards were applied by two workers at the same time")
	}
	// A reader of the sink's manifests sees every shard: files lists them.
	r := mustRun(t, dir, 0, env, "files", "big")
	for k := range shardCount {
		if !strings.Contains(r.stdout, fmt.Sprintf("part-s%d-", k)) {
			t.Errorf("files big lists no file of shard %d:\n%s", k, r.stdout)
		}
	}
	mustRun(t, dir, 0, env, "verify", "big")
	t.Logf("%d workers, 1 sink of %d shards over %d partitions, %d kills: converged in %s (%s in all); %d holds of a shard's lock seen in the manifests",
		eightWorkers, shardCount, shardPartitions, eightKills, wall.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), holders)
}

func TestS3EightWorkersHundredSinks(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	bucket := bucketName("eight-workers")
	srv.CreateBucket(t, bucket)
	eightWorkersManySinks(t, s3StateBlock(srv, bucket), srv.Env(),
		func(prefix string) string { return s3Destination(srv, "lake", bucket, prefix) },
		func(prefix string) providers.Storage { return s3Storage(t, srv, bucket, prefix) })
}

func TestS3EightWorkersShardedSink(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	bucket := bucketName("eight-shards")
	srv.CreateBucket(t, bucket)
	eightWorkersShardedSink(t, s3StateBlock(srv, bucket), srv.Env(),
		func(prefix string) string { return s3Destination(srv, "lake", bucket, prefix) },
		func(prefix string) providers.Storage { return s3Storage(t, srv, bucket, prefix) })
}

func TestAzureEightWorkersHundredSinks(t *testing.T) {
	t.Parallel()
	az := testenv.Azurite(t)
	const container = "eight-workers"
	az.CreateContainer(t, container)
	eightWorkersManySinks(t, azStateBlock(az, container), az.Env(),
		func(prefix string) string { return azDestination(az, "lake", container, prefix) },
		func(prefix string) providers.Storage { return azStorage(t, az, container, prefix) })
}

func TestAzureEightWorkersShardedSink(t *testing.T) {
	t.Parallel()
	az := testenv.Azurite(t)
	const container = "eight-shards"
	az.CreateContainer(t, container)
	eightWorkersShardedSink(t, azStateBlock(az, container), az.Env(),
		func(prefix string) string { return azDestination(az, "lake", container, prefix) },
		func(prefix string) providers.Storage { return azStorage(t, az, container, prefix) })
}

// TestShardsCrashAtEveryFaultPoint: a sink of two shards on a local state,
// killed at every point of the protocol (in whichever shard reaches it),
// is finished by the next apply with every record once in both
// destinations, and the local state holds the shards as a remote one does.
func TestShardsCrashAtEveryFaultPoint(t *testing.T) {
	for _, fp := range faultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			// 3 partitions × 2000 records: shard 0 has partitions 0 and 2,
			// shard 1 partition 1; batches of 1500 records.
			cfg := strings.Replace(localConfig(3, 1500, 500), "sink \"orders\" {", "sink \"orders\" {\n  shards = 2", 1)
			dir := writeConfig(t, cfg)
			r := run(t, dir, []string{"STREAMCTL_FAULT=" + fp}, "apply", "-auto-approve", "-no-color", "-parallelism=1")
			if !r.killed {
				t.Fatalf("the fault %s was not reached: %s", fp, r)
			}
			mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
			mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
			want := expectedIDs(3, 2000)
			for _, d := range []string{"a", "b"} {
				assertExactlyOnce(t, local.New(filepath.Join(dir, "out", d)), want)
			}
			st := readLocalState(t, dir)
			if names := strings.Join(st.SinkNames(), " "); names != "orders/shard-0 orders/shard-1" {
				t.Errorf("the state holds %s", names)
			}
			for name, ss := range st.Sinks {
				if ss.InFlight != nil || ss.Shard == nil || ss.Shard.Count != 2 {
					t.Errorf("%s: in flight %v, shard %+v", name, ss.InFlight, ss.Shard)
				}
			}
		})
	}
}

// TestShardsChangeRefusedInFlight: a change of shards while a shard has a
// batch in flight is refused by plan and apply, naming the batch and the
// way out, and nothing is written; once the batch is finished with the
// former shards, the change goes through.
func TestShardsChangeRefusedInFlight(t *testing.T) {
	t.Parallel()
	cfg := strings.Replace(localConfig(3, 1500, 500), "sink \"orders\" {", "sink \"orders\" {\n  shards = 2", 1)
	dir := writeConfig(t, cfg)
	if r := run(t, dir, []string{"STREAMCTL_FAULT=after-intent"}, "apply", "-auto-approve", "-no-color", "-parallelism=1"); !r.killed {
		t.Fatalf("the fault was not reached: %s", r)
	}
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := readLocalState(t, dir)
	write(strings.Replace(cfg, "shards = 2", "shards = 3", 1))
	for _, cmd := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		r := mustRun(t, dir, 1, nil, cmd...)
		out := r.stdout + r.stderr
		if !strings.Contains(out, "its number of shards cannot change now") || !strings.Contains(out, "in flight") || !strings.Contains(out, "set shards = 2 back") {
			t.Errorf("%s:\n%s", cmd[0], r)
		}
	}
	if after := readLocalState(t, dir); after.Serial != before.Serial {
		t.Errorf("the refused change wrote the state: serial %d → %d", before.Serial, after.Serial)
	}
	write(cfg)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	write(strings.Replace(cfg, "shards = 2", "shards = 3", 1))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	for _, d := range []string{"a", "b"} {
		assertExactlyOnce(t, local.New(filepath.Join(dir, "out", d)), expectedIDs(3, 2000))
	}
	// A destination added in the same change would miss its backfill.
	three := strings.Replace(cfg, "shards = 2", "shards = 3", 1)
	added := strings.Replace(three, "shards = 3", "shards = 4", 1)
	added = strings.Replace(added, "  destination \"local\" \"b\" {", "  destination \"local\" \"c\" {\n    path = \"out/c\"\n  }\n  destination \"local\" \"b\" {", 1)
	write(added)
	r := mustRun(t, dir, 1, nil, "plan", "-no-color")
	if !strings.Contains(r.stdout+r.stderr, "destination c is new") || !strings.Contains(r.stdout+r.stderr, "apply it with shards = 3 first") {
		t.Errorf("a destination added with a change of shards:\n%s", r)
	}
}

// reshardConfig is sink "big" of shards over 8 generated partitions of
// records each, its state and destination in bucket.
func reshardConfig(stateBlock, dest string, shards int, records int64) string {
	return stateBlock + fmt.Sprintf(`
source "generate" "orders" {
  partitions            = 8
  records_per_partition = %d
  payload_bytes         = 8
}

sink "big" {
  source = source.generate.orders
  shards = %d
  batch {
    max_records = 400
  }
%s}
`, records, shards, dest)
}

// The points a change of shards can die at: after its intent, after each
// checkpoint document it rewrites (S3), after the rewrite.
var reshardFaults = []reshardCase{
	{4, 8, "after-reshard-intent"},
	{4, 8, "after-sink-document:1"},
	{4, 8, "after-sink-document:8"}, // every document, not the root
	{4, 8, "after-reshard-rewrite"},
	{8, 3, "after-sink-document:2"},
	{1, 4, "after-sink-document:3"},
	{4, 1, "after-reshard-intent"},
}

type reshardCase struct {
	from, to int
	fault    string
}

// TestS3ReshardKilledAtEveryStep: a sink applied in one number of shards is
// changed to another while its source grows, and the apply that splits its
// checkpoints again is killed at each step of the change. The next apply
// finishes the change and the batches: every record once, every partition
// committed to its end in the shard that now owns it, no change left in
// the state's root.
func TestS3ReshardKilledAtEveryStep(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	for _, c := range reshardFaults {
		t.Run(fmt.Sprintf("%d_to_%d_%s", c.from, c.to, strings.ReplaceAll(c.fault, ":", "_")), func(t *testing.T) {
			t.Parallel()
			bucket := bucketName("reshard-", c.from, "-", c.to, "-", c.fault)
			srv.CreateBucket(t, bucket)
			reshardKilled(t, c, s3StateBlock(srv, bucket), s3Destination(srv, "lake", bucket, "lake/big"), srv.Env(),
				func(string) providers.Storage { return s3Storage(t, srv, bucket, "lake/big") },
				func(string) *state.State {
					mgr, err := state.Load(context.Background(), state.NewRemote(s3Storage(t, srv, bucket, ""), remoteStateKey), "test")
					if err != nil {
						t.Fatal(err)
					}
					return mgr.State()
				})
		})
	}
}

// TestReshardKilledLocal: the same on a local state, written in one
// document: its steps are the intent and the rewrite.
func TestReshardKilledLocal(t *testing.T) {
	for _, c := range []reshardCase{{4, 8, "after-reshard-intent"}, {8, 3, "after-reshard-rewrite"}} {
		t.Run(fmt.Sprintf("%d_to_%d_%s", c.from, c.to, c.fault), func(t *testing.T) {
			t.Parallel()
			reshardKilled(t, c, "", "  destination \"local\" \"lake\" {\n    path = \"lake\"\n  }\n", nil,
				func(dir string) providers.Storage { return local.New(filepath.Join(dir, "lake")) },
				func(dir string) *state.State { return readLocalState(t, dir) })
		})
	}
}

func reshardKilled(t *testing.T, c reshardCase, stateBlock, dest string, env []string, openLake func(dir string) providers.Storage, loadState func(dir string) *state.State) {
	t.Helper()
	dir := writeConfig(t, reshardConfig(stateBlock, dest, c.from, 600))
	mustRun(t, dir, 0, env, "apply", "-auto-approve", "-no-color")
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(reshardConfig(stateBlock, dest, c.to, 1000))
	plan := mustRun(t, dir, 2, env, "plan", "-detailed-exitcode", "-no-color")
	if !strings.Contains(plan.stdout, fmt.Sprintf("~ reshard sink.big %d → %d", c.from, c.to)) {
		t.Fatalf("the plan shows no reshard:\n%s", plan.stdout)
	}
	r := run(t, dir, append(slices.Clone(env), "STREAMCTL_FAULT="+c.fault), "apply", "-auto-approve", "-no-color")
	if !r.killed {
		t.Fatalf("the fault %s was not reached: %s", c.fault, r)
	}
	if c.fault != "after-reshard-rewrite" {
		// The change is logged: plan says so, and an apply with the former
		// shards is refused.
		plan = mustRun(t, dir, 2, env, "plan", "-detailed-exitcode", "-no-color")
		if !strings.Contains(plan.stdout, "finishing a change a run that died began") {
			t.Errorf("the plan after the kill does not finish the change:\n%s", plan.stdout)
		}
		write(reshardConfig(stateBlock, dest, c.from, 1000))
		// The killed run's lock is taken over once its lease expired.
		back := mustRun(t, dir, 1, env, "apply", "-auto-approve", "-no-color", "-lock-timeout=30s")
		if !strings.Contains(back.stdout+back.stderr, "a change of its number of shards is in progress") {
			t.Errorf("an apply with the former shards:\n%s", back)
		}
		write(reshardConfig(stateBlock, dest, c.to, 1000))
	}
	mustRun(t, dir, 0, env, "apply", "-auto-approve", "-no-color", "-lock-timeout=30s")
	mustRun(t, dir, 0, env, "plan", "-detailed-exitcode", "-no-color")

	assertExactlyOnce(t, openLake(dir), expectedIDs(8, 1000))
	mustRun(t, dir, 0, env, "verify", "big")
	st := loadState(dir)
	if len(st.Reshards) > 0 {
		t.Errorf("a change is left in the state: %+v", st.Reshards)
	}
	names, count := st.Checkpoints("big")
	if count != c.to || len(st.Sinks) != c.to {
		t.Fatalf("checkpoints %v (%d shards), state %v", names, count, st.SinkNames())
	}
	for p := range 8 {
		name := state.CheckpointName("big", state.ShardOf(fmt.Sprint(p), c.to), c.to)
		if off := st.Sinks[name].Offsets[fmt.Sprint(p)]; off != 1000 {
			t.Errorf("partition %d: committed to %d in %s", p, off, name)
		}
	}
}

// TestAzureReshardKilled: the change of shards killed after its intent and
// after one of its checkpoint documents, with the state on Azurite.
func TestAzureReshardKilled(t *testing.T) {
	t.Parallel()
	az := testenv.Azurite(t)
	for _, c := range []reshardCase{{4, 8, "after-reshard-intent"}, {8, 3, "after-sink-document:2"}} {
		t.Run(fmt.Sprintf("%d_to_%d_%s", c.from, c.to, strings.ReplaceAll(c.fault, ":", "_")), func(t *testing.T) {
			t.Parallel()
			container := bucketName("reshard-", c.from, "-", c.to, "-", c.fault)
			az.CreateContainer(t, container)
			reshardKilled(t, c, azStateBlock(az, container), azDestination(az, "lake", container, "lake/big"), az.Env(),
				func(string) providers.Storage { return azStorage(t, az, container, "lake/big") },
				func(string) *state.State {
					mgr, err := state.Load(context.Background(), state.NewRemote(azStorage(t, az, container, ""), remoteStateKey), "test")
					if err != nil {
						t.Fatal(err)
					}
					return mgr.State()
				})
		})
	}
}

// TestShardsOfFiles: a files source's partitions are its files, which go
// to shards by the hash of their paths; a file added later lands in its
// shard and moves no other, and every record is written once.
func TestShardsOfFiles(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, `
source "files" "in" {
  path = "in/*.jsonl"
}

sink "events" {
  source = source.files.in
  shards = 3

  destination "local" "a" {
    path = "out"
  }
}
`)
	if err := os.MkdirAll(filepath.Join(dir, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	want := map[int64]bool{}
	addFile := func(name string, first int64) {
		var b strings.Builder
		for id := first; id < first+50; id++ {
			fmt.Fprintf(&b, "{\"id\":%d}\n", id)
			want[id] = true
		}
		if err := os.WriteFile(filepath.Join(dir, "in", name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, name := range []string{"a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl", "e.jsonl"} {
		addFile(name, int64(i)*1000)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	before := readLocalState(t, dir)
	addFile("f.jsonl", 9000)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out")), want)
	after := readLocalState(t, dir)
	used := map[int]bool{}
	for name, ss := range after.Sinks {
		for p := range ss.Offsets {
			if k := state.ShardOf(p, 3); k != ss.Shard.Index {
				t.Errorf("%s holds %s, of shard %d", name, p, k)
			}
			used[ss.Shard.Index] = true
			if old := before.Sinks[name]; p != "f.jsonl" && (old == nil || old.Offsets[p] != ss.Offsets[p]) {
				t.Errorf("%s: %s moved or changed when f.jsonl was added", name, p)
			}
		}
	}
	if len(used) < 2 {
		t.Errorf("six files all went to one shard: %v", used)
	}
}

// TestKafkaShards: a topic of eight partitions applied as four shards by
// an apply killed midway, then split into eight shards while the topic
// grows: every record once, each partition's offset in its shard.
func TestKafkaShards(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	conf := kafkaConf{Brokers: broker.Addr, Topic: kafkaTopic(t, broker, 8), MaxRecords: 500}
	withShards := func(n int) string {
		return strings.Replace(conf.hcl(), "sink \""+kafkaSinkName+"\" {", fmt.Sprintf("sink %q {\n  shards = %d", kafkaSinkName, n), 1)
	}
	dir := writeConfig(t, withShards(4))
	p := newProducedIDs()
	produceIDs(t, broker, conf.Topic, p, 1, 4000, 8)
	if r := run(t, dir, []string{"STREAMCTL_FAULT=after-manifest:3"}, "apply", "-auto-approve", "-no-color", "-parallelism=2"); !r.killed {
		t.Fatalf("the fault was not reached: %s", r)
	}
	produceIDs(t, broker, conf.Topic, p, 10_001, 2000, 8)
	applyAndSettle(t, dir, nil)
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(withShards(8)), 0o644); err != nil {
		t.Fatal(err)
	}
	produceIDs(t, broker, conf.Topic, p, 20_001, 2000, 8)
	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if !strings.Contains(plan.stdout, "~ reshard sink.events 4 → 8") || !strings.Contains(plan.stdout, "partition 4: events/shard-0 → events/shard-4") {
		t.Errorf("plan:\n%s", plan.stdout)
	}
	applyAndSettle(t, dir, nil)
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "disk")), p.want())
	st := kafkaStateFile(t, dir)
	if names, count := st.Checkpoints(kafkaSinkName); count != 8 {
		t.Fatalf("checkpoints %v", names)
	}
	for name, ss := range st.Sinks {
		for part := range ss.Offsets {
			if state.ShardOf(part, 8) != ss.Shard.Index {
				t.Errorf("%s holds partition %s", name, part)
			}
		}
	}
}

// TestS3ShardsWallTime reports the wall time of 1, 2, 4 and 8 workers over
// one sink of eight shards (STREAMCTL_WORKERS_BENCH=1, with the latency of
// STREAMCTL_WORKERS_LATENCY_MS as TestS3WorkersWallTime): one stream that
// more workers apply faster.
func TestS3ShardsWallTime(t *testing.T) {
	if os.Getenv("STREAMCTL_WORKERS_BENCH") == "" {
		t.Skip("set STREAMCTL_WORKERS_BENCH=1 to measure")
	}
	srv := testenv.S3(t)
	var latency time.Duration
	if ms, err := strconv.Atoi(os.Getenv("STREAMCTL_WORKERS_LATENCY_MS")); err == nil && ms > 0 {
		latency = time.Duration(ms) * time.Millisecond
	}
	for _, n := range []int{1, 2, 4, 8} {
		bucket := bucketName("shards-wall-", n)
		srv.CreateBucket(t, bucket)
		endpoint := srv.Endpoint
		if latency > 0 {
			proxy := testenv.StartFaultProxy(t, srv.Endpoint)
			proxy.Randomly(1, []testenv.Fault{testenv.Slow}, latency, nil)
			endpoint = proxy.Endpoint
		}
		dest := func(prefix string) string { return s3Destination(srv, "lake", bucket, prefix) }
		cfg := shardedConfig(s3StateBlock(srv, bucket), dest)
		dir := writeConfig(t, strings.ReplaceAll(cfg, srv.Endpoint, endpoint))
		spans, wall := runWorkers(t, dir, srv.Env(), n, 0, 1)
		checkExclusive(t, spans)
		assertExactlyOnce(t, s3Storage(t, srv, bucket, "lake/big"), expectedIDs(shardPartitions, shardRecords))
		t.Logf("%d worker(s), 1 sink of %d shards × %d batches, latency %s: %s", n, shardCount, shardRecords*shardPartitions/shardCount/shardMaxRecords, latency, wall.Round(time.Millisecond))
	}
}
