package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/streamctl/streamctl/internal/testenv"
)

// benchRecords is how many records BenchmarkKafka produces.
func benchRecords(b *testing.B) int64 { return benchRecordCount(b, 300_000) }

// benchRecordCount is def, or STREAMCTL_BENCH_RECORDS when set.
func benchRecordCount(b *testing.B, def int64) int64 {
	if s := os.Getenv("STREAMCTL_BENCH_RECORDS"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			b.Fatalf("STREAMCTL_BENCH_RECORDS=%q is not a positive number", s)
		}
		return n
	}
	return def
}

// BenchmarkKafka measures Kafka → local files through the streamctl binary,
// in records per second, beside a plain franz-go consumer that reads the same
// records from the same broker in the same run: the consumer is the floor
// the broker and the wire set, streamctl's figure is that plus decoding,
// encoding, staging, promotion and the commit protocol.
//
// The broker is kfake (franz-go's Kafka wire-protocol broker), a separate
// process on 127.0.0.1; the topic has 3 partitions of JSON records of about
// 90 bytes. Every streamctl iteration starts from an empty state and output
// folder, so it copies the whole topic.
//
//	go test -run '^$' -bench BenchmarkKafka -benchtime 3x ./internal/e2e/
func BenchmarkKafka(b *testing.B) {
	if raceEnabled {
		b.Skip("figures under the race detector mean nothing")
	}
	n := benchRecords(b)
	broker := testenv.Kafka(b)
	const topic = "bench"
	broker.CreateTopic(b, topic, 3)

	start := time.Now()
	produceBenchRecords(b, broker, topic, n)
	b.Logf("produced %d records in %s", n, time.Since(start).Round(time.Millisecond))

	b.Run("franz-go-consumer", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			before := selfCPU(b)
			consumeAllFranz(b, broker, topic, n)
			cpu += selfCPU(b) - before
		}
		reportRecordsPerSec(b, n)
		reportCPU(b, cpu, n)
	})

	for _, format := range []string{"jsonl", "parquet"} {
		b.Run("streamctl-"+format, func(b *testing.B) {
			hcl := fmt.Sprintf(`
source "kafka" "bench" {
  brokers = [%q]
  topic   = %q
}

sink "bench" {
  source = source.kafka.bench
  format = %q

  column "id" {
    type = "int64"
  }
  column "country" {
    type = "string"
  }
  column "amount" {
    type = "double"
  }
  column "note" {
    type = "string"
  }

  batch {
    max_records = 100000
  }

  destination "local" "out" {
    path = "out"
  }
}
`, broker.Addr, topic, format)
			benchApply(b, hcl, n)
		})
	}
}

// benchApply applies hcl, a sink of the whole topic of n records, in a
// new folder each round, and reports records/s and the CPU time of each
// record.
func benchApply(b *testing.B, hcl string, n int64) {
	b.Helper()
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		dir, err := os.MkdirTemp(b.TempDir(), "run-")
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		r := runForBench(b, dir, "apply", "-auto-approve", "-no-color")
		cpu += r.cpu
		if r.code != 0 || !strings.Contains(r.stdout, "Apply complete!") || !strings.Contains(r.stdout, benchCount(n)+" records") {
			b.Fatalf("streamctl apply did not copy the %d records: %s", n, r)
		}
	}
	reportRecordsPerSec(b, n)
	reportCPU(b, cpu, n)
}

// reportCPU reports the CPU time (user and system, all threads) spent per
// record: on a machine of few cores it bounds records/s more than the wall
// clock of one run says.
func reportCPU(b *testing.B, cpu time.Duration, n int64) {
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n)/float64(b.N), "cpu-ns/record")
}

// selfCPU is the CPU time this process has used so far.
func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportRecordsPerSec(b *testing.B, n int64) {
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(0, "ns/op") // one op is a whole topic: records/s is the figure
}

// runForBench is run for a benchmark.
func runForBench(b *testing.B, dir string, args ...string) result {
	b.Helper()
	cmd := command(dir, nil, args...)
	out, err := cmd.CombinedOutput()
	r := result{stdout: string(out)}
	if cmd.ProcessState != nil {
		r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if err != nil {
		r.code = -1
		if ee, ok := err.(interface{ ExitCode() int }); ok {
			r.code = ee.ExitCode()
		}
	}
	return r
}

// benchCountries are the countries of the benchmark's orders, in turn.
var benchCountries = []string{"DE", "FR", "US", "JP", "BR"}

// produceBenchRecords writes n records round-robin over 3 partitions.
func produceBenchRecords(b *testing.B, broker *testenv.KafkaBroker, topic string, n int64) {
	b.Helper()
	produceBench(b, broker, topic, n, func(i int64) []byte {
		return fmt.Appendf(nil, `{"id":%d,"country":%q,"amount":%d.%02d,"note":"order %d of the benchmark stream"}`,
			i, benchCountries[i%5], i%1000, i%100, i)
	})
}

// produceBench writes the records of value(0) … value(n-1), keyed by
// their number, round-robin over 3 partitions, and waits for every
// acknowledgement.
func produceBench(b *testing.B, broker *testenv.KafkaBroker, topic string, n int64, value func(i int64) []byte) {
	b.Helper()
	cl, err := kgo.NewClient(append(broker.ClientOpts(b),
		kgo.DefaultProduceTopic(topic),
		kgo.RecordPartitioner(kgo.RoundRobinPartitioner()),
		kgo.ProducerBatchMaxBytes(1<<20),
		kgo.ProducerLinger(10*time.Millisecond),
		kgo.MaxBufferedRecords(100_000),
	)...)
	if err != nil {
		b.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	errs := make(chan error, 1)
	for i := int64(0); i < n; i++ {
		v := value(i)
		cl.Produce(ctx, &kgo.Record{Key: []byte(strconv.FormatInt(i, 10)), Value: v}, func(_ *kgo.Record, err error) {
			if err != nil {
				select {
				case errs <- err:
				default:
				}
			}
		})
	}
	if err := cl.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	select {
	case err := <-errs:
		b.Fatalf("produce: %v", err)
	default:
	}
}

// consumeAllFranz reads the topic from the start with a plain franz-go consumer
// (direct partition assignment, read_committed like streamctl) until it has
// seen n records.
func consumeAllFranz(b *testing.B, broker *testenv.KafkaBroker, topic string, n int64) {
	b.Helper()
	cl := benchConsumer(b, broker, topic)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var seen, bytes int64
	for seen < n {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			b.Fatalf("consume: %v (after %d of %d records)", err, seen, n)
		}
		fs.EachRecord(func(r *kgo.Record) {
			seen++
			bytes += int64(len(r.Value))
		})
	}
	if seen != n || bytes == 0 {
		b.Fatalf("consumed %d records, want %d", seen, n)
	}
}

// benchConsumer is a plain franz-go consumer of the topic's 3 partitions
// from the start (direct partition assignment, read_committed like
// streamctl).
func benchConsumer(b *testing.B, broker *testenv.KafkaBroker, topic string) *kgo.Client {
	b.Helper()
	parts := map[int32]kgo.Offset{}
	for p := int32(0); p < 3; p++ {
		parts[p] = kgo.NewOffset().AtStart()
	}
	cl, err := kgo.NewClient(append(broker.ClientOpts(b),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: parts}),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
	)...)
	if err != nil {
		b.Fatal(err)
	}
	return cl
}

// benchCount writes n as streamctl's output does: 300,000.
func benchCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
