package e2e

// The Kafka source end to end: the streamctl binary against a kfake broker (a
// Kafka wire-protocol broker, run as its own process) and versitygw (S3).
// Records are produced with franz-go and with Debian's kcat, as JSON values
// carrying a unique "id" (the Kafka key is "id-<id>", so counting ids is
// counting keys); every check reads the destinations back and counts ids.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
	"github.com/streamctl/streamctl/state"
)

// kafkaSinkName is the sink (and source) name of every Kafka test config.
const kafkaSinkName = "events"

// kafkaConf is one test's configuration. Brokers, topic, timeout and
// on_data_loss are HCL variables, so that a test can change them with -var
// between runs as a user would.
type kafkaConf struct {
	Brokers string // host:port
	Topic   string
	// S3 destination, when Bucket is set.
	S3     *testenv.S3Server
	Bucket string
	// Sink sizing: batches of MaxRecords, files of MaxFileRecords (0: one
	// file per batch).
	MaxRecords     int64
	MaxFileRecords int64
	// SourceExtra is added to the source block (commit_group, isolation…).
	SourceExtra string
	// Extra is added at the top level (more sources and sinks).
	Extra string
}

func (c kafkaConf) hcl() string {
	var b strings.Builder
	fmt.Fprintf(&b, `
variable "brokers" {
  default = %q
}
variable "topic" {
  default = %q
}
variable "timeout" {
  default = "20s"
}
variable "on_data_loss" {
  default = "fail"
}

source "kafka" %q {
  brokers = [var.brokers]
  topic   = var.topic
  timeout = var.timeout
%s
}

sink %q {
  source       = source.kafka.%s
  on_data_loss = var.on_data_loss

  batch {
    max_records = %d
  }

  destination "local" "disk" {
    path = "out/disk"
  }
`, c.Brokers, c.Topic, kafkaSinkName, c.SourceExtra, kafkaSinkName, kafkaSinkName, c.MaxRecords)
	if c.MaxFileRecords > 0 {
		fmt.Fprintf(&b, "  max_file_records = %d\n", c.MaxFileRecords)
	}
	if c.Bucket != "" {
		fmt.Fprintf(&b, `
  destination "s3" "lake" {
    bucket           = %q
    prefix           = "events/raw"
    endpoint         = %q
    region           = "us-east-1"
    force_path_style = true
  }
`, c.Bucket, c.S3.Endpoint)
	}
	b.WriteString("}\n")
	b.WriteString(c.Extra)
	return b.String()
}

// env is the environment streamctl needs for the configuration: the S3
// server's credentials.
func (c kafkaConf) env() []string {
	if c.S3 == nil {
		return nil
	}
	return c.S3.Env()
}

// stores are the configuration's destinations, opened independently of
// streamctl to read back what it wrote.
func (c kafkaConf) stores(t *testing.T, dir string) []providers.Storage {
	t.Helper()
	out := []providers.Storage{local.New(filepath.Join(dir, "out", "disk"))}
	if c.Bucket != "" {
		out = append(out, s3Storage(t, c.S3, c.Bucket, "events/raw"))
	}
	return out
}

// producedIDs is what a test produced: the ids, and where each landed.
type producedIDs struct {
	mu    sync.Mutex
	ids   map[int64]bool
	where map[int64][2]int64 // id → partition, offset
}

func newProducedIDs() *producedIDs {
	return &producedIDs{ids: map[int64]bool{}, where: map[int64][2]int64{}}
}

func (p *producedIDs) add(id int64, partition int32, offset int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ids[id] = true
	p.where[id] = [2]int64{int64(partition), offset}
}

// want returns a copy of the produced ids.
func (p *producedIDs) want() map[int64]bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[int64]bool, len(p.ids))
	for id := range p.ids {
		out[id] = true
	}
	return out
}

// idRecord is a record whose value is a JSON object with a unique id, and
// whose key names that id.
func idRecord(id int64, partition int32, via string) *kgo.Record {
	return &kgo.Record{
		Key:       []byte("id-" + strconv.FormatInt(id, 10)),
		Value:     fmt.Appendf(nil, `{"id":%d,"via":%q,"pad":"0123456789abcdef"}`, id, via),
		Partition: partition,
	}
}

// produceIDs produces ids first … first+n-1 round-robin over partitions with
// franz-go, waits for every acknowledgement and records where each landed.
func produceIDs(t *testing.T, b *testenv.KafkaBroker, topic string, p *producedIDs, first, n int64, partitions int32) {
	t.Helper()
	recs := make([]*kgo.Record, 0, n)
	for i := int64(0); i < n; i++ {
		recs = append(recs, idRecord(first+i, int32(i%int64(partitions)), "franz-go"))
	}
	b.Produce(t, topic, recs...)
	for i, r := range recs {
		// franz-go fills Partition and Offset in once the broker acknowledged.
		p.add(first+int64(i), r.Partition, r.Offset)
	}
}

// produceKcat produces ids first … first+n-1 with Debian's kcat (librdkafka),
// keyed "id-<id>", partitioned by librdkafka's key hash.
func produceKcat(t *testing.T, b *testenv.KafkaBroker, topic string, p *producedIDs, first, n int64) {
	t.Helper()
	lines := make([]string, 0, n)
	for i := int64(0); i < n; i++ {
		id := first + i
		lines = append(lines, fmt.Sprintf(`id-%d:{"id":%d,"via":"kcat"}`, id, id))
	}
	kcatProduce(t, b, topic, lines)
	// kcat exits once every message is delivered; it does not say where.
	for i := int64(0); i < n; i++ {
		p.add(first+i, -1, -1)
	}
}

// kcatProduce produces one record per line, "KEY:VALUE", with kcat, and
// returns once the broker acknowledged all of them.
func kcatProduce(t *testing.T, b *testenv.KafkaBroker, topic string, lines []string) {
	t.Helper()
	testenv.Require(t, "/usr/bin/kcat", "kcat (Debian package kcat)")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/usr/bin/kcat", "-b", b.Addr, "-P", "-t", topic, "-K", ":", "-X", "acks=all")
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("kcat produce: %v\n%s", err, out)
	}
}

// kafkaEndOffsets are the topic's end offsets (high watermarks) by
// partition ID.
func kafkaEndOffsets(t *testing.T, adm *kadm.Client, topic string) map[string]int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ends, err := adm.ListEndOffsets(ctx, topic)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		t.Fatalf("list end offsets of %s: %v", topic, err)
	}
	out := map[string]int64{}
	ends.Each(func(o kadm.ListedOffset) { out[strconv.Itoa(int(o.Partition))] = o.Offset })
	return out
}

// kafkaStateFile reads the local state file as the user's tools would.
func kafkaStateFile(t *testing.T, dir string) *state.State {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ".streamctl", "state.json"))
	if err != nil {
		t.Fatalf("read the state: %v", err)
	}
	var st state.State
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatalf("decode the state: %v", err)
	}
	return &st
}

// kafkaSinkState is the Kafka sink's checkpoint; it fails the test when absent.
func kafkaSinkState(t *testing.T, dir string) *state.Sink {
	t.Helper()
	ss := kafkaStateFile(t, dir).Sinks[kafkaSinkName]
	if ss == nil {
		t.Fatalf("the state has no sink %q", kafkaSinkName)
	}
	return ss
}

// assertKafkaCaughtUp checks that the sink is committed exactly up to the
// topic's end offsets, with nothing in flight: after transactions the end
// offset is past the last record (control markers), so this holds only when
// a batch reads up to the end offset rather than counting records.
func assertKafkaCaughtUp(t *testing.T, dir string, adm *kadm.Client, topic string) {
	t.Helper()
	ss := kafkaSinkState(t, dir)
	if ss.InFlight != nil {
		t.Errorf("batch %d is still in flight", ss.InFlight.ID)
	}
	ends := kafkaEndOffsets(t, adm, topic)
	for p, end := range ends {
		if ss.Offsets[p] != end {
			t.Errorf("partition %s: committed offset %d, topic ends at %d", p, ss.Offsets[p], end)
		}
	}
	if len(ss.Offsets) != len(ends) {
		t.Errorf("the state has offsets for partitions %v, the topic has %v", ss.Offsets, ends)
	}
}

// assertNoLocalTemporary checks that the local destination has no _temporary
// folder left, not even an empty one.
func assertNoLocalTemporary(t *testing.T, dir string) {
	t.Helper()
	tmp := filepath.Join(dir, "out", "disk", "_temporary")
	if _, err := os.Stat(tmp); os.IsNotExist(err) {
		return
	}
	var left []string
	filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(tmp, p)
			left = append(left, rel)
		}
		return nil
	})
	t.Errorf("out/disk/_temporary remains, holding %q", left)
}

// applyAndSettle applies, then checks that the plan is empty, as a user
// finishing a run would.
func applyAndSettle(t *testing.T, dir string, env []string, args ...string) result {
	t.Helper()
	r := mustRun(t, dir, 0, env, append([]string{"apply", "-auto-approve", "-no-color"}, args...)...)
	mustRun(t, dir, 0, env, append([]string{"plan", "-detailed-exitcode", "-no-color"}, args...)...)
	return r
}

// kafkaTopic creates a topic of partitions partitions named after the test.
func kafkaTopic(t *testing.T, b *testenv.KafkaBroker, partitions int32) string {
	t.Helper()
	topic := "t-" + regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "-")
	if len(topic) > 200 {
		topic = topic[:200]
	}
	b.CreateTopic(t, topic, partitions)
	return topic
}

// kafkaBucket creates a bucket named after the test.
func kafkaBucket(t *testing.T, srv *testenv.S3Server) string {
	t.Helper()
	name := strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "-"))
	name = strings.Trim(name, "-")
	if len(name) > 60 {
		name = name[len(name)-60:]
	}
	name = "b-" + strings.Trim(name, "-")
	srv.CreateBucket(t, name)
	return name
}

// Fault points of the commit protocol, hit with a Kafka source. The first run
// writes 4,500 records in 3 batches of 1,500; each batch is staged as 3 files
// per destination (6 after-stage-file and after-promote-file hits, 2
// after-manifest hits per batch).
var kafkaFaultPoints = []string{
	"after-intent",
	"after-intent:3",
	"after-stage-file:1",
	"after-stage-file:5",
	"after-stage",
	"after-stage:2",
	"after-promote-file:1",
	"after-promote-file:4",
	"after-manifest:1", // one destination of two committed batch 0
	"after-manifest:4",
	"before-state-commit",
	"before-state-commit:2",
	"after-state-commit",
	"after-state-commit:3", // the last batch: nothing left in flight
}

// TestKafkaCrashAtEveryFaultPoint kills apply at each fault point while it
// copies a 3-partition topic into a local folder and an S3 bucket, grows the
// topic, then applies again: every record lands exactly once in both, the
// resumed batch keeps its logged ranges although the topic grew, and the
// state ends at the topic's end offsets.
func TestKafkaCrashAtEveryFaultPoint(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	srv := testenv.S3(t)
	adm := broker.Admin(t)
	for _, fp := range kafkaFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			conf := kafkaConf{
				Brokers:        broker.Addr,
				Topic:          kafkaTopic(t, broker, 3),
				S3:             srv,
				Bucket:         kafkaBucket(t, srv),
				MaxRecords:     1500,
				MaxFileRecords: 500,
			}
			dir := writeConfig(t, conf.hcl())
			p := newProducedIDs()
			produceIDs(t, broker, conf.Topic, p, 1, 4500, 3)

			r := run(t, dir, append(conf.env(), "STREAMCTL_FAULT="+fp), "apply", "-auto-approve", "-no-color")
			if !r.killed {
				t.Fatalf("the fault %s was not reached: %s", fp, r)
			}
			// The stream goes on while streamctl is down.
			produceIDs(t, broker, conf.Topic, p, 10_001, 1500, 3)

			applyAndSettle(t, dir, conf.env())
			for _, s := range conf.stores(t, dir) {
				assertExactlyOnce(t, s, p.want())
			}
			assertNoLocalTemporary(t, dir)
			assertKafkaCaughtUp(t, dir, adm, conf.Topic)
			if ss := kafkaSinkState(t, dir); ss.CommittedRecords != 6000 {
				t.Errorf("the state counts %d committed records, want 6000", ss.CommittedRecords)
			}
		})
	}
}

// TestKafkaRandomKills kills apply with SIGKILL at random (seeded) moments
// while the topic keeps growing, then lets it finish: every record exactly
// once in the local folder and in S3.
func TestKafkaRandomKills(t *testing.T) {
	t.Parallel()
	const kills = 20
	broker := testenv.Kafka(t)
	srv := testenv.S3(t)
	conf := kafkaConf{
		Brokers:        broker.Addr,
		Topic:          kafkaTopic(t, broker, 3),
		S3:             srv,
		Bucket:         kafkaBucket(t, srv),
		MaxRecords:     200,
		MaxFileRecords: 70,
	}
	dir := writeConfig(t, conf.hcl())
	p := newProducedIDs()
	interrupted, inFlight := killKafkaApplies(t, kafkaKills{
		dir: dir, env: conf.env(), sink: kafkaSinkName, seed: 20261201, stream: 6, kills: kills, attempts: 150,
		produce: func(first, n int64) { produceIDs(t, broker, conf.Topic, p, first, n, 3) },
	})
	applyAndSettle(t, dir, conf.env())
	for _, s := range conf.stores(t, dir) {
		assertExactlyOnce(t, s, p.want())
	}
	assertNoLocalTemporary(t, dir)
	assertKafkaCaughtUp(t, dir, broker.Admin(t), conf.Topic)
	// Kills that all fell before or after the protocol would prove nothing.
	if inFlight < 3 {
		t.Errorf("only %d of %d kills left a batch in flight: the kills missed the commit protocol", inFlight, interrupted)
	}
	t.Logf("%d kills, %d of them with a batch in flight; %d records", interrupted, inFlight, len(p.want()))
}

// TestKafkaProducerDuringApply alternates plan and apply while a producer
// keeps writing, until the producer has stopped and the plan shows no
// changes: every acknowledged record exactly once, nothing more.
func TestKafkaProducerDuringApply(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	srv := testenv.S3(t)
	conf := kafkaConf{
		Brokers:    broker.Addr,
		Topic:      kafkaTopic(t, broker, 3),
		S3:         srv,
		Bucket:     kafkaBucket(t, srv),
		MaxRecords: 400,
	}
	dir := writeConfig(t, conf.hcl())
	p := newProducedIDs()

	// The default partitioner spreads records by key hash, as a real
	// producer does. Each record is counted once acknowledged.
	cl := broker.Client(t, kgo.DefaultProduceTopic(conf.Topic), kgo.ProducerLinger(5*time.Millisecond))
	stop := make(chan struct{})
	producerDone := make(chan error, 1)
	go func() {
		id := int64(1)
		for {
			select {
			case <-stop:
				producerDone <- nil
				return
			default:
			}
			recs := make([]*kgo.Record, 0, 50)
			for range 50 {
				recs = append(recs, idRecord(id, 0, "franz-go"))
				id++
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			res := cl.ProduceSync(ctx, recs...)
			cancel()
			if err := res.FirstErr(); err != nil {
				producerDone <- err
				return
			}
			for _, r := range recs {
				var rec record
				json.Unmarshal(r.Value, &rec)
				p.add(rec.ID, r.Partition, r.Offset)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()

	var (
		applies, whileProducing int
		producing               = true
		started                 = time.Now()
		deadline                = started.Add(90 * time.Second)
	)
	for converged := false; !converged; {
		if time.Now().After(deadline) {
			close(stop)
			t.Fatalf("plan and apply did not converge in 90s (%d applies)", applies)
		}
		// Enough applies overlapped the producer, whatever the machine's
		// speed: stop it, then the loop must converge.
		if producing && whileProducing >= 5 && time.Since(started) > 3*time.Second {
			close(stop)
			if err := <-producerDone; err != nil {
				t.Fatalf("producer: %v", err)
			}
			producing = false
		}
		mustRun(t, dir, 0, conf.env(), "apply", "-auto-approve", "-no-color")
		applies++
		if producing {
			whileProducing++
		}
		r := run(t, dir, conf.env(), "plan", "-detailed-exitcode", "-no-color")
		switch {
		case r.code == 0 && !producing:
			converged = true
		case r.code == 0 || r.code == 2:
		default:
			t.Fatalf("plan: %s", r)
		}
	}
	want := p.want()
	if len(want) < 1000 {
		t.Errorf("the producer wrote only %d records", len(want))
	}
	for _, s := range conf.stores(t, dir) {
		assertExactlyOnce(t, s, want)
	}
	assertKafkaCaughtUp(t, dir, broker.Admin(t), conf.Topic)
	t.Logf("%d applies (%d while producing), %d records", applies, whileProducing, len(want))
}

// TestKafkaTransactions mixes committed and aborted transactions from a
// franz-go transactional producer with plain records from kcat. A
// read_committed sink gets exactly the committed and plain records; records
// behind an open transaction wait until it commits (the last stable offset)
// and are then delivered, not skipped. A read_uncommitted sink on the same
// topic gets the aborted records too, which shows they are really in the log.
func TestKafkaTransactions(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	topic := kafkaTopic(t, broker, 3)
	conf := kafkaConf{
		Brokers:    broker.Addr,
		Topic:      topic,
		MaxRecords: 250,
		Extra: `
source "kafka" "everything" {
  brokers   = [var.brokers]
  topic     = var.topic
  isolation = "read_uncommitted"
}

sink "everything" {
  source = source.kafka.everything
  destination "local" "disk" {
    path = "out/everything"
  }
}
`,
	}
	dir := writeConfig(t, conf.hcl())
	committed, all := newProducedIDs(), newProducedIDs()
	both := func(from *producedIDs) {
		for id := range from.want() {
			committed.add(id, -1, -1)
			all.add(id, -1, -1)
		}
	}

	txn := broker.Client(t,
		kgo.TransactionalID("streamctl-test-"+topic),
		kgo.DefaultProduceTopic(topic),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
	)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// transaction produces ids first … first+n-1 in one transaction and ends
	// it with commit or abort; end false leaves it open.
	transaction := func(first, n int64, end bool, commit kgo.TransactionEndTry) {
		t.Helper()
		if err := txn.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		recs := make([]*kgo.Record, 0, n)
		for i := int64(0); i < n; i++ {
			recs = append(recs, idRecord(first+i, int32(i%3), "txn"))
		}
		if err := txn.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			t.Fatalf("transactional produce: %v", err)
		}
		if !end {
			return
		}
		if err := txn.EndTransaction(ctx, commit); err != nil {
			t.Fatalf("end transaction: %v", err)
		}
	}
	record := func(to *producedIDs, first, n int64) {
		for i := int64(0); i < n; i++ {
			to.add(first+i, -1, -1)
		}
	}

	transaction(1, 300, true, kgo.TryCommit)
	record(committed, 1, 300)
	record(all, 1, 300)
	plain := newProducedIDs()
	produceKcat(t, broker, topic, plain, 1001, 150)
	both(plain)
	transaction(2001, 300, true, kgo.TryAbort)
	record(all, 2001, 300)
	transaction(3001, 300, true, kgo.TryCommit)
	record(committed, 3001, 300)
	record(all, 3001, 300)
	plain = newProducedIDs()
	produceKcat(t, broker, topic, plain, 4001, 150)
	both(plain)

	applyAndSettle(t, dir, nil)
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "disk")), committed.want())
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "everything")), all.want())
	assertKafkaCaughtUp(t, dir, broker.Admin(t), topic)

	// An open transaction on every partition, then plain records after it:
	// read_committed may not read past the transaction's first record yet.
	transaction(5001, 300, false, kgo.TryCommit)
	plain = newProducedIDs()
	produceKcat(t, broker, topic, plain, 6001, 150)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "disk")), committed.want())
	if err := txn.EndTransaction(ctx, kgo.TryCommit); err != nil {
		t.Fatalf("commit the open transaction: %v", err)
	}
	record(committed, 5001, 300)
	record(all, 5001, 300)
	both(plain)

	applyAndSettle(t, dir, nil)
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "disk")), committed.want())
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "everything")), all.want())
	assertKafkaCaughtUp(t, dir, broker.Admin(t), topic)
}

// TestKafkaNewPartitions adds partitions to the topic between applies: the
// next plan lists them from their first offset and apply delivers them.
func TestKafkaNewPartitions(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	conf := kafkaConf{Brokers: broker.Addr, Topic: kafkaTopic(t, broker, 3), MaxRecords: 10_000}
	dir := writeConfig(t, conf.hcl())
	p := newProducedIDs()
	produceIDs(t, broker, conf.Topic, p, 1, 900, 3)
	applyAndSettle(t, dir, nil)

	adm := broker.Admin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := adm.CreatePartitions(ctx, 2, conf.Topic)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("add partitions: %v", err)
	}
	produceIDs(t, broker, conf.Topic, p, 10_001, 500, 5)

	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color", "-verbose")
	for _, want := range []string{"partition 3 [0, 100)", "partition 4 [0, 100)", "partition 0 [300, 400)"} {
		if !strings.Contains(plan.stdout, want) {
			t.Errorf("the plan lacks %q:\n%s", want, plan.stdout)
		}
	}
	applyAndSettle(t, dir, nil)
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "disk")), p.want())
	assertKafkaCaughtUp(t, dir, adm, conf.Topic)
}

// TestKafkaDataLoss deletes records the sink has not read yet (DeleteRecords,
// as retention does): plan refuses, naming the topic, the partition and the
// lost range; with on_data_loss = "skip" apply goes on, reports the skipped
// range and delivers everything that still exists, exactly once. Records
// deleted after they were delivered are no loss.
func TestKafkaDataLoss(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	conf := kafkaConf{Brokers: broker.Addr, Topic: kafkaTopic(t, broker, 3), MaxRecords: 10_000}
	dir := writeConfig(t, conf.hcl())
	p := newProducedIDs()
	produceIDs(t, broker, conf.Topic, p, 1, 1500, 3) // offsets [0, 500) each
	applyAndSettle(t, dir, nil)
	produceIDs(t, broker, conf.Topic, p, 10_001, 600, 3) // offsets [500, 700)

	adm := broker.Admin(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	del := kadm.Offsets{}
	del.Add(kadm.Offset{Topic: conf.Topic, Partition: 1, At: 600}) // loses [500, 600)
	del.Add(kadm.Offset{Topic: conf.Topic, Partition: 2, At: 500}) // only delivered records
	resp, err := adm.DeleteRecords(ctx, del)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("delete records: %v", err)
	}
	before, err := os.ReadFile(filepath.Join(dir, ".streamctl", "state.json"))
	if err != nil {
		t.Fatal(err)
	}

	for _, cmd := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		r := mustRun(t, dir, 1, nil, cmd...)
		for _, want := range []string{"data loss", conf.Topic, "partition 1", "[500, 600)", `on_data_loss = "skip"`} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%s: the error lacks %q:\n%s", cmd[0], want, r.stderr)
			}
		}
		if strings.Contains(r.stderr, "partition 2") {
			t.Errorf("%s: partition 2 lost nothing that was not delivered, yet it is reported:\n%s", cmd[0], r.stderr)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(dir, ".streamctl", "state.json")); string(after) != string(before) {
		t.Errorf("a refused apply changed the state")
	}

	skip := []string{"-var=on_data_loss=skip"}
	plan := mustRun(t, dir, 2, nil, append([]string{"plan", "-detailed-exitcode", "-no-color"}, skip...)...)
	if !strings.Contains(plan.stdout, "skip lost offsets [500, 600) of partition 1") {
		t.Errorf("the plan does not show the skipped range:\n%s", plan.stdout)
	}
	ap := applyAndSettle(t, dir, nil, skip...)
	if !strings.Contains(ap.stdout, "skip lost offsets [500, 600) of partition 1") {
		t.Errorf("apply does not report the skipped range:\n%s", ap.stdout)
	}
	want := p.want()
	lost := 0
	for id, at := range p.where {
		if at[0] == 1 && at[1] >= 500 && at[1] < 600 {
			delete(want, id)
			lost++
		}
	}
	if lost != 100 {
		t.Fatalf("%d produced records were at partition 1 offsets [500, 600), want 100", lost)
	}
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "disk")), want)
	assertKafkaCaughtUp(t, dir, adm, conf.Topic)
}

// TestKafkaSourceIdentityChanged points a sink that has state at another
// topic, then at another cluster with the same topic name: both are refused
// with the way out, nothing is written. Both ways out work: pointing the sink
// back, and starting it over with `state rm` on the other topic, where the
// first topic's batches left in the destination must be reported, not taken
// for the other topic's.
func TestKafkaSourceIdentityChanged(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	conf := kafkaConf{Brokers: broker.Addr, Topic: kafkaTopic(t, broker, 3), MaxRecords: 10_000}
	dir := writeConfig(t, conf.hcl())
	p := newProducedIDs()
	produceIDs(t, broker, conf.Topic, p, 1, 300, 3)
	applyAndSettle(t, dir, nil)
	before, err := os.ReadFile(filepath.Join(dir, ".streamctl", "state.json"))
	if err != nil {
		t.Fatal(err)
	}

	// The other topic holds more than the sink wrote, so that batches of
	// the first topic would fit it.
	other := "other-topic"
	broker.CreateTopic(t, other, 3)
	otherIDs := newProducedIDs()
	produceIDs(t, broker, other, otherIDs, 100_001, 900, 3)
	otherCluster := testenv.Kafka(t, conf.Topic)
	produceIDs(t, otherCluster, conf.Topic, newProducedIDs(), 200_001, 300, 3)

	cases := []struct {
		name, arg, was, now string
	}{
		{"topic", "-var=topic=" + other, "kafka:" + broker.ClusterID + "/" + conf.Topic, "kafka:" + broker.ClusterID + "/" + other},
		{"cluster", "-var=brokers=" + otherCluster.Addr, "kafka:" + broker.ClusterID + "/" + conf.Topic, "kafka:" + otherCluster.ClusterID + "/" + conf.Topic},
	}
	for _, c := range cases {
		for _, cmd := range [][]string{{"plan", "-no-color", c.arg}, {"apply", "-auto-approve", "-no-color", c.arg}} {
			r := mustRun(t, dir, 1, nil, cmd...)
			for _, want := range []string{`sink "events"`, "another stream", c.was, c.now, "Restore the source's settings", "state rm events"} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("%s, %s: the error lacks %q:\n%s", c.name, cmd[0], want, r.stderr)
				}
			}
		}
	}
	if after, _ := os.ReadFile(filepath.Join(dir, ".streamctl", "state.json")); string(after) != string(before) {
		t.Errorf("a refused apply changed the state")
	}
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "disk")), p.want())

	// One way out: back to the original topic, the sink goes on.
	produceIDs(t, broker, conf.Topic, p, 1001, 300, 3)
	applyAndSettle(t, dir, nil)
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "disk")), p.want())

	// The other: start the sink over on the other topic. The destination
	// still holds the first topic's batches 0 and 1, whose ranges would fit
	// the other topic: they must be reported, never adopted as its batches
	// (that would count the other topic's first records as delivered).
	mustRun(t, dir, 0, nil, "state", "rm", "-force", kafkaSinkName)
	r := run(t, dir, nil, "plan", "-no-color", "-var=topic="+other)
	if r.code != 1 || !strings.Contains(r.stderr, "_streamctl/events/0.json") {
		t.Fatalf("after state rm, a plan for another topic must report the first topic's manifests, not adopt them: %s", r)
	}
	// As the message says: move the manifests and the files they list aside.
	disk := filepath.Join(dir, "out", "disk")
	aside := filepath.Join(dir, "aside")
	if err := os.Rename(disk, aside); err != nil {
		t.Fatal(err)
	}
	applyAndSettle(t, dir, nil, "-var=topic="+other)
	assertExactlyOnce(t, local.New(disk), otherIDs.want())
}

// TestKafkaUnreachableBrokers: a broker that is down (connection refused), a
// listener that accepts and never answers, and an unknown topic each give a
// clear error within the configured timeout; the state, the lock and the
// destinations are left as they were.
func TestKafkaUnreachableBrokers(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	conf := kafkaConf{Brokers: broker.Addr, Topic: kafkaTopic(t, broker, 3), MaxRecords: 10_000}
	dir := writeConfig(t, conf.hcl())
	p := newProducedIDs()
	produceIDs(t, broker, conf.Topic, p, 1, 300, 3)
	applyAndSettle(t, dir, nil)
	statePath := filepath.Join(dir, ".streamctl", "state.json")
	before, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}

	// A listener that accepts connections and never answers: the case that
	// hangs a client without deadlines.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	var held []net.Conn
	var heldMu sync.Mutex
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			heldMu.Lock()
			held = append(held, c)
			heldMu.Unlock()
		}
	}()
	t.Cleanup(func() {
		heldMu.Lock()
		defer heldMu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	down := fmt.Sprintf("127.0.0.1:%d", testenv.ClosedPort(t))

	const timeout = 3 * time.Second
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"refused", []string{"-var=brokers=" + down}, []string{down, "connection refused"}},
		{"silent", []string{"-var=brokers=" + silent.Addr().String()}, []string{silent.Addr().String(), "timeout 3s"}},
		{"unknown topic", []string{"-var=topic=no-such-topic"}, []string{"no-such-topic", "does not exist"}},
	}
	for _, c := range cases {
		for _, cmd := range []string{"plan", "apply"} {
			args := append([]string{cmd, "-no-color", "-var=timeout=" + timeout.String()}, c.args...)
			if cmd == "apply" {
				args = append(args, "-auto-approve")
			}
			start := time.Now()
			r := mustRun(t, dir, 1, nil, args...)
			elapsed := time.Since(start)
			// The timeout bounds the wait for the brokers; the rest is the
			// process starting (slower under the race detector).
			if elapsed > timeout+5*time.Second {
				t.Errorf("%s, %s: took %s with timeout %s", c.name, cmd, elapsed.Round(time.Millisecond), timeout)
			}
			for _, want := range c.want {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("%s, %s: the error lacks %q:\n%s", c.name, cmd, want, r.stderr)
				}
			}
			t.Logf("%s, %s: failed in %s: %s", c.name, cmd, elapsed.Round(time.Millisecond), strings.TrimSpace(r.stderr))
		}
	}
	if after, _ := os.ReadFile(statePath); string(after) != string(before) {
		t.Errorf("a failed run changed the state")
	}
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "disk")), p.want())
	// The failed applies released the lock: an apply with the right
	// settings takes it and finds nothing to do.
	if r := mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color"); !strings.Contains(r.stdout, "No changes.") {
		t.Errorf("apply after the failures:\n%s", r.stdout)
	}

	// The broker itself going down after a successful run.
	broker.Stop()
	start := time.Now()
	r := mustRun(t, dir, 1, nil, "apply", "-auto-approve", "-no-color", "-var=timeout="+timeout.String())
	if elapsed := time.Since(start); elapsed > timeout+5*time.Second {
		t.Errorf("broker down: took %s with timeout %s", elapsed.Round(time.Millisecond), timeout)
	}
	if !strings.Contains(r.stderr, broker.Addr) {
		t.Errorf("broker down: the error does not name the broker:\n%s", r.stderr)
	}
	if after, _ := os.ReadFile(statePath); string(after) != string(before) {
		t.Errorf("a failed run changed the state")
	}
}

// TestKafkaCommitGroup: with commit_group, after each apply the consumer
// group's committed offsets are the state's, so lag dashboards follow.
func TestKafkaCommitGroup(t *testing.T) {
	t.Parallel()
	broker := testenv.Kafka(t)
	const group = "streamctl-events"
	conf := kafkaConf{
		Brokers:     broker.Addr,
		Topic:       kafkaTopic(t, broker, 3),
		MaxRecords:  400,
		SourceExtra: fmt.Sprintf("  commit_group = %q", group),
	}
	dir := writeConfig(t, conf.hcl())
	adm := broker.Admin(t)
	p := newProducedIDs()
	for round, n := range []int64{1000, 350} {
		produceIDs(t, broker, conf.Topic, p, int64(round)*100_000+1, n, 3)
		applyAndSettle(t, dir, nil)

		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		offs, err := adm.FetchOffsets(ctx, group)
		cancel()
		if err == nil {
			err = offs.Error()
		}
		if err != nil {
			t.Fatalf("fetch the group's offsets: %v", err)
		}
		ss := kafkaSinkState(t, dir)
		got := map[string]int64{}
		offs.Each(func(o kadm.OffsetResponse) {
			if o.Topic == conf.Topic {
				got[strconv.Itoa(int(o.Partition))] = o.At
			}
		})
		if !maps.Equal(got, ss.Offsets) {
			t.Errorf("round %d: group %s has offsets %v, the state %v", round, group, got, ss.Offsets)
		}
		assertKafkaCaughtUp(t, dir, adm, conf.Topic)
	}
	assertExactlyOnce(t, local.New(filepath.Join(dir, "out", "disk")), p.want())
}

// kafkaKills is a run of killKafkaApplies.
type kafkaKills struct {
	dir string
	env []string
	// sink is the sink whose state tells whether a killed apply left a
	// batch in flight.
	sink string
	// seed and stream seed the moments of the kills and the records
	// produced before each apply.
	seed, stream uint64
	// kills is how many applies to kill, in at most attempts applies.
	kills, attempts int
	// produce adds the records of ids first … first+n-1 to the topic.
	produce func(first, n int64)
}

// killKafkaApplies kills apply with SIGKILL at random (seeded) moments while
// the topic keeps growing (k.produce adds 300 to 1,199 records before each
// apply), until k.kills applies were interrupted; an apply that ends on its
// own must succeed. It returns how many applies were killed, and in how
// many of those k.sink's state held a batch in flight. The caller lets apply
// finish and checks the data.
func killKafkaApplies(t *testing.T, k kafkaKills) (interrupted, inFlight int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(k.seed, k.stream))
	next := int64(1)
	for attempt := 0; interrupted < k.kills; attempt++ {
		if attempt > k.attempts {
			t.Fatalf("only %d of %d kills interrupted an apply in %d attempts", interrupted, k.kills, k.attempts)
		}
		n := int64(300 + rng.IntN(900))
		k.produce(next, n)
		next += n

		cmd := command(k.dir, k.env, "apply", "-auto-approve", "-no-color")
		var out syncBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		ended := make(chan struct{})
		go func() {
			done <- cmd.Wait()
			close(ended)
		}()
		// A quarter of the kills land at any moment from the start; the
		// others a random moment after the first batch started, so that
		// they fall inside the protocol however slow the start is (the race
		// detector slows it several times).
		fire := time.After(time.Duration(30+rng.IntN(400)) * time.Millisecond)
		if rng.IntN(4) > 0 {
			fire = afterOutput(&out, " started (", time.Duration(rng.IntN(150))*time.Millisecond, ended)
		}
		select {
		case err := <-done:
			if r := finish(t, cmd, err, out.String(), ""); r.code != 0 {
				t.Fatalf("apply failed on its own: %s", r)
			}
		case <-fire:
			cmd.Process.Kill()
			err := <-done
			if r := finish(t, cmd, err, out.String(), ""); r.killed {
				interrupted++
				// A run killed early leaves no state, or one without the sink
				// (the state is written before destinations are claimed).
				if _, err := os.Stat(filepath.Join(k.dir, ".streamctl", "state.json")); err == nil {
					if ss := kafkaStateFile(t, k.dir).Sinks[k.sink]; ss != nil && ss.InFlight != nil {
						inFlight++
					}
				}
			}
		}
	}
	return interrupted, inFlight
}

// afterOutput fires jitter after out first holds text, unless the process
// ends first (then it never fires).
func afterOutput(out *syncBuffer, text string, jitter time.Duration, ended <-chan struct{}) <-chan time.Time {
	fire := make(chan time.Time, 1)
	go func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for !strings.Contains(out.String(), text) {
			select {
			case <-tick.C:
			case <-ended:
				return
			}
		}
		time.Sleep(jitter)
		fire <- time.Now()
	}()
	return fire
}
