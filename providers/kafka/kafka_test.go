package kafka_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/kafka"
)

// rec is a copy of a providers.Record, whose slices do not outlive the callback.
type rec struct {
	Partition string
	Offset    int64
	Key       string
	Value     string
	Timestamp int64
	Headers   []providers.Header
}

func newSource(t testing.TB, addr, topic string, edit func(*kafka.Config)) *kafka.Source {
	t.Helper()
	cfg := kafka.Config{Brokers: []string{addr}, Topic: topic, Timeout: "5s"}
	if edit != nil {
		edit(&cfg)
	}
	s, err := kafka.New(cfg)
	if err != nil {
		t.Fatalf("kafka.New: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// read returns the records Read delivers; a Read that does not end fails the
// test instead of hanging it.
func read(t testing.TB, s *kafka.Source, partition string, start, end int64) ([]rec, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out []rec
	err := s.Read(ctx, partition, start, end, func(r *providers.Record) error {
		out = append(out, copyRec(r))
		return nil
	})
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
		t.Fatalf("Read(%s, [%d, %d)) did not end within 30s", partition, start, end)
	}
	return out, err
}

func copyRec(r *providers.Record) rec {
	c := rec{Partition: r.Partition, Offset: r.Offset, Key: string(r.Key), Value: string(r.Value), Timestamp: r.Timestamp}
	for _, h := range r.Headers {
		// nil and empty header values compare equal in tests.
		c.Headers = append(c.Headers, providers.Header{Key: h.Key, Value: append([]byte{}, h.Value...)})
	}
	return c
}

func mustRead(t testing.TB, s *kafka.Source, partition string, start, end int64) []rec {
	t.Helper()
	out, err := read(t, s, partition, start, end)
	if err != nil {
		t.Fatalf("Read(%s, [%d, %d)): %v", partition, start, end, err)
	}
	return out
}

func offsets(rs []rec) []int64 {
	out := []int64{}
	for _, r := range rs {
		out = append(out, r.Offset)
	}
	return out
}

func snapshot(t testing.TB, s *kafka.Source) providers.Snapshot {
	t.Helper()
	snap, err := s.Snapshot(context.Background())
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	return snap
}

func jsonRecords(partition int32, from, n int) []*kgo.Record {
	var rs []*kgo.Record
	for i := from; i < from+n; i++ {
		rs = append(rs, &kgo.Record{
			Partition: partition,
			Key:       []byte("k" + strconv.Itoa(i)),
			Value:     []byte(fmt.Sprintf(`{"n":%d}`, i)),
		})
	}
	return rs
}

func TestSnapshot(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "events")
	b.Produce(t, "events", jsonRecords(0, 0, 5)...)
	b.Produce(t, "events", jsonRecords(1, 0, 3)...)

	s := newSource(t, b.Addr, "events", nil)
	got := snapshot(t, s)
	want := providers.Snapshot{
		Identity: "kafka:" + b.ClusterID + "/events",
		Partitions: []providers.PartitionSnapshot{
			{ID: "0", Earliest: 0, Latest: 5},
			{ID: "1", Earliest: 0, Latest: 3},
			{ID: "2", Earliest: 0, Latest: 0},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Snapshot = %+v, want %+v", got, want)
	}

	// Another cluster with the same topic is another stream.
	other := testenv.Kafka(t, "events")
	if id := snapshot(t, newSource(t, other.Addr, "events", nil)).Identity; id == got.Identity {
		t.Fatalf("two clusters share the identity %q", id)
	}
}

func TestReadRanges(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "events")
	base := time.UnixMilli(1_767_225_600_000) // 2026-01-01
	var rs []*kgo.Record
	for i := 0; i < 10; i++ {
		rs = append(rs, &kgo.Record{
			Partition: 1,
			Key:       []byte("k" + strconv.Itoa(i)),
			Value:     []byte(fmt.Sprintf(`{"n":%d}`, i)),
			Timestamp: base.Add(time.Duration(i) * time.Second),
			Headers:   []kgo.RecordHeader{{Key: "h", Value: []byte("v" + strconv.Itoa(i))}, {Key: "empty"}},
		})
	}
	b.Produce(t, "events", rs...)
	// Records beyond the ranges read below must not leak into them.
	b.Produce(t, "events", jsonRecords(1, 10, 5)...)

	s := newSource(t, b.Addr, "events", nil)
	all := mustRead(t, s, "1", 0, 10)
	if len(all) != 10 {
		t.Fatalf("Read [0, 10) gave %d records: %v", len(all), offsets(all))
	}
	for i, r := range all {
		want := rec{
			Partition: "1",
			Offset:    int64(i),
			Key:       "k" + strconv.Itoa(i),
			Value:     fmt.Sprintf(`{"n":%d}`, i),
			Timestamp: base.UnixMilli() + int64(i)*1000,
			Headers:   []providers.Header{{Key: "h", Value: []byte("v" + strconv.Itoa(i))}, {Key: "empty", Value: []byte{}}},
		}
		if !reflect.DeepEqual(r, want) {
			t.Fatalf("record %d = %+v, want %+v", i, r, want)
		}
	}

	for _, c := range []struct{ start, end int64 }{{3, 7}, {0, 1}, {9, 10}, {4, 12}, {14, 15}} {
		got := offsets(mustRead(t, s, "1", c.start, c.end))
		var want []int64
		for o := c.start; o < c.end; o++ {
			want = append(want, o)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Read [%d, %d) offsets = %v, want %v", c.start, c.end, got, want)
		}
	}
	if got := mustRead(t, s, "1", 5, 5); len(got) != 0 {
		t.Errorf("Read of an empty range gave %d records", len(got))
	}
	// Reading twice gives the same records: the source is replayable.
	if again := mustRead(t, s, "1", 0, 10); !reflect.DeepEqual(again, all) {
		t.Errorf("second Read differs from the first:\n%+v\n%+v", again, all)
	}

	// fn's error stops Read and is returned as is.
	stop := errors.New("stop")
	n := 0
	err := s.Read(context.Background(), "1", 0, 10, func(*providers.Record) error {
		n++
		if n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("Read with a failing fn: err %v after %d records, want %v after 3", err, n, stop)
	}

	for _, p := range []string{"x", "-1", "01", "7"} {
		if _, err := read(t, s, p, 0, 1); err == nil {
			t.Errorf("Read of partition %q succeeded", p)
		}
	}
}

// TestReadAcrossPieces: a fetch of many record batches is delivered in
// pieces, and a range ends exactly at its end offset wherever that falls: in
// the first piece, at a batch boundary, in a later fetch.
func TestReadAcrossPieces(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "pieces")
	const n = 40_000
	// Values that compress little, in batches of 5,000 (some 200 kB
	// compressed each), so that a 1 MiB fetch holds several pieces.
	for from := 0; from < n; from += 5_000 {
		var rs []*kgo.Record
		for i := from; i < from+5_000; i++ {
			rs = append(rs, &kgo.Record{Value: []byte(fmt.Sprintf(`{"i":%d,"x":"%x"}`, i, uint64(i)*0x9e3779b97f4a7c15))})
		}
		b.Produce(t, "pieces", rs...)
	}
	s := newSource(t, b.Addr, "pieces", nil)
	for _, c := range []struct{ start, end int64 }{{0, n}, {0, 5_000}, {4_999, 5_001}, {1_234, 33_333}, {12_000, 39_999}, {39_999, n}} {
		got := mustRead(t, s, "0", c.start, c.end)
		if int64(len(got)) != c.end-c.start {
			t.Errorf("Read [%d, %d) gave %d records", c.start, c.end, len(got))
			continue
		}
		for j, r := range got {
			i := c.start + int64(j)
			if want := fmt.Sprintf(`{"i":%d,"x":"%x"}`, i, uint64(i)*0x9e3779b97f4a7c15); r.Offset != i || r.Value != want {
				t.Errorf("Read [%d, %d): record %d is offset %d %s, want offset %d %s", c.start, c.end, j, r.Offset, r.Value, i, want)
				break
			}
		}
	}
}

// TestReadCanceled: a context canceled during a Read fails it, also when
// the fetching goroutine sees the cancellation while the pieces it decoded
// before still wait to be delivered: a Read that returns nil delivered its
// whole range.
func TestReadCanceled(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "cancel")
	const n = 40_000
	for from := 0; from < n; from += 5_000 {
		b.Produce(t, "cancel", spreadRecords(0, from, 5_000)...)
	}
	s := newSource(t, b.Addr, "cancel", nil)
	for range 3 {
		ctx, cancel := context.WithCancel(context.Background())
		got := 0
		err := s.Read(ctx, "0", 0, n, func(*providers.Record) error {
			if got++; got == 100 {
				cancel()
				time.Sleep(100 * time.Millisecond) // for the fetching goroutine to see it
			}
			return nil
		})
		cancel()
		// Success is right only for a range delivered whole (its last
		// pieces were sent before the cancellation was seen).
		if !errors.Is(err, context.Canceled) && (err != nil || got != n) {
			t.Fatalf("Read canceled at record 100: %v after %d of %d records, want context.Canceled", err, got, n)
		}
	}
}

// spreadRecords are records of values that compress little, some 40 bytes
// each, which a produce of a few thousand sends as batches of 200 kB: a
// 1 MiB fetch of them holds several pieces.
func spreadRecords(partition int32, from, n int) []*kgo.Record {
	rs := make([]*kgo.Record, 0, n)
	for i := from; i < from+n; i++ {
		rs = append(rs, &kgo.Record{Partition: partition, Value: []byte(fmt.Sprintf(`{"i":%d,"x":"%x"}`, i, uint64(i)*0x9e3779b97f4a7c15))})
	}
	return rs
}

// TestTransactions: under read_committed the records of aborted transactions
// are skipped and a Read ends at the end offset even when the last offsets of
// the range are control markers or aborted records.
func TestTransactions(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "txn")
	producer := b.Client(t,
		kgo.TransactionalID("streamctl-test"),
		kgo.DefaultProduceTopic("txn"),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
	)
	ctx := context.Background()
	txn := func(commit bool, values ...string) {
		t.Helper()
		if err := producer.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			if err := producer.ProduceSync(ctx, &kgo.Record{Value: []byte(v)}).FirstErr(); err != nil {
				t.Fatal(err)
			}
		}
		if err := producer.EndTransaction(ctx, kgo.TransactionEndTry(commit)); err != nil {
			t.Fatal(err)
		}
	}
	committed := newSource(t, b.Addr, "txn", nil)
	uncommitted := newSource(t, b.Addr, "txn", func(c *kafka.Config) { c.Isolation = kafka.ReadUncommitted })
	latest := func(s *kafka.Source) int64 { return snapshot(t, s).Partitions[0].Latest }

	txn(true, `{"t":1,"i":0}`, `{"t":1,"i":1}`, `{"t":1,"i":2}`) // offsets 0-2, marker 3
	if got := latest(committed); got != 4 {
		t.Fatalf("end offset after a committed transaction of 3 records = %d, want 4 (last record + 2)", got)
	}
	if got := offsets(mustRead(t, committed, "0", 0, 4)); !reflect.DeepEqual(got, []int64{0, 1, 2}) {
		t.Fatalf("read_committed [0, 4) = %v", got)
	}

	txn(false, `{"t":2,"i":0}`, `{"t":2,"i":1}`) // offsets 4-5 aborted, marker 6
	txn(true, `{"t":3,"i":0}`, `{"t":3,"i":1}`)  // offsets 7-8, marker 9
	if got := latest(committed); got != 10 {
		t.Fatalf("read_committed end offset = %d, want 10", got)
	}

	cases := []struct {
		s          *kafka.Source
		start, end int64
		want       []int64
	}{
		{committed, 0, 10, []int64{0, 1, 2, 7, 8}},
		{committed, 4, 7, []int64{}}, // only aborted records and their marker
		{committed, 3, 4, []int64{}}, // only a commit marker
		{committed, 2, 8, []int64{2, 7}},
		{uncommitted, 0, 10, []int64{0, 1, 2, 4, 5, 7, 8}},
		{uncommitted, 4, 7, []int64{4, 5}},
	}
	for _, c := range cases {
		name := "read_committed"
		if c.s == uncommitted {
			name = "read_uncommitted"
		}
		if got := offsets(mustRead(t, c.s, "0", c.start, c.end)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s [%d, %d) = %v, want %v", name, c.start, c.end, got, c.want)
		}
	}
	for _, r := range mustRead(t, committed, "0", 0, 10) {
		if strings.Contains(r.Value, `"t":2`) {
			t.Errorf("read_committed delivered an aborted record: %s", r.Value)
		}
	}

	// An open transaction holds the last stable offset back: read_committed
	// does not offer its records; read_uncommitted does.
	if err := producer.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := producer.ProduceSync(ctx, &kgo.Record{Value: []byte(`{"t":4}`)}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	if got := latest(committed); got != 10 {
		t.Errorf("read_committed end offset with an open transaction = %d, want 10", got)
	}
	if got := latest(uncommitted); got != 11 {
		t.Errorf("read_uncommitted end offset with an open transaction = %d, want 11", got)
	}
	if err := producer.EndTransaction(ctx, kgo.TryAbort); err != nil {
		t.Fatal(err)
	}
}

// TestKcat reads back records produced by an independent client, Debian's
// kcat (librdkafka), compressed the way it compresses them.
func TestKcat(t *testing.T) {
	t.Parallel()
	kcat, err := exec.LookPath("kcat")
	if err != nil {
		kcat = "/usr/bin/kcat"
	}
	testenv.Require(t, kcat, "Debian kcat")
	b := testenv.Kafka(t, "kc")

	lines := []string{
		`a:{"id":1,"name":"ünïcödé ✓"}`,
		`b:{"id":2,"quote":"say \"hi\"","path":"C:\\tmp"}`,
		`a:{"id":3,"nested":{"x":[1,2,3]}}`,
		`c:{"id":4,"colon":"x:y:z"}`,
	}
	before := time.Now().Add(-time.Second).UnixMilli()
	var want []rec
	for i, codec := range []string{"none", "gzip", "lz4", "zstd", "snappy"} {
		cmd := exec.Command(kcat, "-b", b.Addr, "-P", "-t", "kc", "-p", "0", "-K", ":", "-z", codec, "-H", "codec="+codec)
		cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("kcat -z %s: %v\n%s", codec, err, out)
		}
		for j, l := range lines {
			k, v, _ := strings.Cut(l, ":")
			want = append(want, rec{
				Partition: "0", Offset: int64(i*len(lines) + j), Key: k, Value: v,
				Headers: []providers.Header{{Key: "codec", Value: []byte(codec)}},
			})
		}
	}
	after := time.Now().Add(time.Second).UnixMilli()

	s := newSource(t, b.Addr, "kc", nil)
	snap := snapshot(t, s)
	if snap.Partitions[0].Latest != int64(len(want)) {
		t.Fatalf("kcat produced %d records, end offset %d", len(want), snap.Partitions[0].Latest)
	}
	got := mustRead(t, s, "0", 0, int64(len(want)))
	for i := range got {
		if ts := got[i].Timestamp; ts < before || ts > after {
			t.Errorf("record %d timestamp %d not within [%d, %d]", i, ts, before, after)
		}
		got[i].Timestamp = 0
		if !json.Valid([]byte(got[i].Value)) {
			t.Errorf("record %d value is not JSON: %s", i, got[i].Value)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records read back:\n%+v\nwant:\n%+v", got, want)
	}
}

func TestValueFormats(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "raw")
	values := [][]byte{
		[]byte("plain text"),
		[]byte(`with "quotes" and \ backslash`),
		[]byte("line\nbreak\ttab\rcr\x01\x1f\x7f"),
		[]byte("h\u00e9llo \u2713 \u2028 \u2029 \U0001F600"),
		{0xff, 'a', 0xfe, 0xc3}, // invalid UTF-8
		{},                      // empty
		nil,                     // tombstone
		[]byte(`{"already":"json"}`),
	}
	var rs []*kgo.Record
	for i, v := range values {
		rs = append(rs, &kgo.Record{Key: []byte(strconv.Itoa(i)), Value: v})
	}
	b.Produce(t, "raw", rs...)

	raw := newSource(t, b.Addr, "raw", func(c *kafka.Config) { c.ValueFormat = kafka.FormatRaw })
	got := mustRead(t, raw, "0", 0, int64(len(values)))
	if len(got) != len(values) {
		t.Fatalf("read %d records, want %d", len(got), len(values))
	}
	for i, r := range got {
		// Byte for byte what encoding/json writes (invalid UTF-8 as U+FFFD,
		// \u2028 and \u2029 escaped), HTML escaping aside.
		want := `{"value":null}`
		if values[i] != nil {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(map[string]string{"value": string(values[i])}); err != nil {
				t.Fatal(err)
			}
			want = strings.TrimSuffix(buf.String(), "\n")
		}
		if r.Value != want {
			t.Errorf("raw value %d = %s, want %s", i, r.Value, want)
		}
		if !json.Valid([]byte(r.Value)) {
			t.Errorf("raw value %d is not valid JSON: %s", i, r.Value)
		}
	}
	if want := `{"value":"with \"quotes\" and \\ backslash"}`; got[1].Value != want {
		t.Errorf("raw escaping = %s, want %s", got[1].Value, want)
	}

	// value_format json passes values through, a tombstone as null.
	js := mustRead(t, newSource(t, b.Addr, "raw", nil), "0", 0, int64(len(values)))
	if js[7].Value != `{"already":"json"}` || js[6].Value != "null" {
		t.Errorf("json format: %q and %q, want the value and null", js[7].Value, js[6].Value)
	}
}

func TestUnknownTopic(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "events")
	s := newSource(t, b.Addr, "no-such-topic", nil)
	_, err := s.Snapshot(context.Background())
	if err == nil || !strings.Contains(err.Error(), `"no-such-topic"`) || !strings.Contains(err.Error(), b.Addr) || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("Snapshot of an unknown topic: %v; want an error naming the topic and the brokers", err)
	}
	if _, err := read(t, s, "0", 0, 1); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("Read of an unknown topic: %v", err)
	}
	// The broker creates topics on use, but asking about one must not.
	md, err := b.Admin(t).ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if md.Has("no-such-topic") {
		t.Fatalf("the source created the topic it was asked about")
	}
}

func TestUnreachableBrokers(t *testing.T) {
	t.Parallel()
	// A black hole: it accepts connections and never answers.
	hole, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hole.Close()
	go func() {
		for {
			c, err := hole.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()

	for name, addr := range map[string]string{
		"nothing listens": "127.0.0.1:" + strconv.Itoa(testenv.ClosedPort(t)),
		"never answers":   hole.Addr().String(),
	} {
		t.Run(name, func(t *testing.T) {
			s := newSource(t, addr, "events", func(c *kafka.Config) {
				c.Timeout = "2s"
				c.CommitGroup = "g"
			})
			check := func(op string, err error, d time.Duration) {
				t.Helper()
				if err == nil {
					t.Fatalf("%s succeeded", op)
				}
				if d > 6*time.Second {
					t.Errorf("%s failed after %s, want at most about the 2s timeout", op, d)
				}
				if !strings.Contains(err.Error(), addr) {
					t.Errorf("%s error %q does not name the brokers", op, err)
				}
				t.Logf("%s: %v", op, err)
			}
			start := time.Now()
			_, err := s.Snapshot(context.Background())
			check("Snapshot", err, time.Since(start))
			start = time.Now()
			_, err = read(t, s, "0", 0, 10)
			check("Read", err, time.Since(start))
			start = time.Now()
			err = s.CommitGroup(context.Background(), map[string]int64{"0": 1})
			check("CommitGroup", err, time.Since(start))
		})
	}
}

func TestDataLoss(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "events")
	b.Produce(t, "events", jsonRecords(0, 0, 10)...)
	ctx := context.Background()

	var del kadm.Offsets
	del.Add(kadm.Offset{Topic: "events", Partition: 0, At: 6})
	resp, err := b.Admin(t).DeleteRecords(ctx, del)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("DeleteRecords: %v", err)
	}

	s := newSource(t, b.Addr, "events", func(c *kafka.Config) { c.Timeout = "1s" })
	if p := snapshot(t, s).Partitions[0]; p.Earliest != 6 || p.Latest != 10 {
		t.Fatalf("after deleting records below 6: partition 0 = %+v", p)
	}
	_, err = read(t, s, "0", 2, 10)
	if !errors.Is(err, providers.ErrDataLoss) {
		t.Fatalf("Read of deleted offsets: %v, want ErrDataLoss", err)
	}
	for _, want := range []string{`"events"`, "partition 0", "[2, 6)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("data-loss error %q does not name %s", err, want)
		}
	}
	if got := offsets(mustRead(t, s, "0", 6, 10)); !reflect.DeepEqual(got, []int64{6, 7, 8, 9}) {
		t.Errorf("Read of the retained offsets = %v", got)
	}

	// A broker that lost its data (kfake restarted without persistence) no
	// longer has the planned range: data loss, within the timeout.
	b.Restart(t)
	start := time.Now()
	_, err = read(t, s, "0", 6, 10)
	if !errors.Is(err, providers.ErrDataLoss) {
		t.Fatalf("Read after the broker lost its data: %v, want ErrDataLoss", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("data loss detected after %s", d)
	}
}

// TestRestartPersistent: with a data directory a restarted broker keeps its
// records, and a source created before the restart reads on.
func TestRestartPersistent(t *testing.T) {
	t.Parallel()
	b := testenv.StartKafka(t, testenv.KafkaOptions{Topics: []string{"events"}, DataDir: t.TempDir()})
	b.Produce(t, "events", jsonRecords(2, 0, 5)...)
	s := newSource(t, b.Addr, "events", nil)
	if got := len(mustRead(t, s, "2", 0, 5)); got != 5 {
		t.Fatalf("read %d records before the restart", got)
	}
	b.Restart(t)
	if got := offsets(mustRead(t, s, "2", 0, 5)); !reflect.DeepEqual(got, []int64{0, 1, 2, 3, 4}) {
		t.Fatalf("after a restart with a data directory: %v", got)
	}
}

// TestCompactedGaps: offsets removed by compaction, including every offset of
// a range, do not keep Read waiting for records that will never come.
func TestCompactedGaps(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t)
	adm := b.Admin(t)
	ctx := context.Background()
	interval := "100"
	if _, err := adm.AlterBrokerConfigs(ctx, []kadm.AlterConfig{{Name: "log.cleaner.backoff.ms", Value: &interval}}); err != nil {
		t.Fatalf("set the compaction interval: %v", err)
	}
	compact := "compact"
	if _, err := adm.CreateTopic(ctx, 1, 1, map[string]*string{"cleanup.policy": &compact}, "compacted"); err != nil {
		t.Fatalf("create a compacted topic: %v", err)
	}
	// One batch per record. Offset 0 has a key of its own, so that the log
	// start stays 0 (kfake moves it to the first surviving batch; Kafka
	// never moves it on compaction). Offsets 1-10 alternate keys a and b;
	// 11 is the last batch, which compaction never touches.
	b.Produce(t, "compacted", &kgo.Record{Key: []byte("first"), Value: []byte(`{"i":0}`)})
	for i := 1; i <= 10; i++ {
		b.Produce(t, "compacted", &kgo.Record{Key: []byte{"ab"[i%2]}, Value: []byte(fmt.Sprintf(`{"i":%d}`, i))})
	}
	b.Produce(t, "compacted", &kgo.Record{Key: []byte("last"), Value: []byte(`{"i":11}`)})

	s := newSource(t, b.Addr, "compacted", nil)
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := offsets(mustRead(t, s, "0", 0, 12))
		if reflect.DeepEqual(got, []int64{0, 9, 10, 11}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not compacted after 20s: offsets %v", got)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, c := range []struct {
		start, end int64
		want       []int64
	}{
		{1, 9, []int64{}}, // every offset compacted away
		{0, 9, []int64{0}},
		{1, 10, []int64{9}},
		{3, 11, []int64{9, 10}},
	} {
		if got := offsets(mustRead(t, s, "0", c.start, c.end)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("compacted [%d, %d) = %v, want %v", c.start, c.end, got, c.want)
		}
	}
}

func TestPartitionsAdded(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "events")
	s := newSource(t, b.Addr, "events", nil)
	if n := len(snapshot(t, s).Partitions); n != 3 {
		t.Fatalf("%d partitions, want 3", n)
	}
	resp, err := b.Admin(t).CreatePartitions(context.Background(), 2, "events")
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("CreatePartitions: %v", err)
	}
	b.Produce(t, "events", jsonRecords(4, 0, 2)...)

	snap := snapshot(t, s)
	var ids []string
	for _, p := range snap.Partitions {
		ids = append(ids, p.ID)
	}
	if !reflect.DeepEqual(ids, []string{"0", "1", "2", "3", "4"}) {
		t.Fatalf("partitions after adding 2: %v", ids)
	}
	if p := snap.Partitions[4]; p.Earliest != 0 || p.Latest != 2 {
		t.Fatalf("new partition 4 = %+v", p)
	}
	if got := offsets(mustRead(t, s, "4", 0, 2)); !reflect.DeepEqual(got, []int64{0, 1}) {
		t.Fatalf("Read of the new partition: %v", got)
	}
}

func TestCommitGroup(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "events")
	ctx := context.Background()
	adm := b.Admin(t)

	// Without commit_group nothing is written.
	if err := newSource(t, b.Addr, "events", nil).CommitGroup(ctx, map[string]int64{"0": 3}); err != nil {
		t.Fatalf("CommitGroup without commit_group: %v", err)
	}

	s := newSource(t, b.Addr, "events", func(c *kafka.Config) { c.CommitGroup = "dashboards" })
	if err := s.CommitGroup(ctx, map[string]int64{"0": 5, "2": 7}); err != nil {
		t.Fatalf("CommitGroup: %v", err)
	}
	if err := s.CommitGroup(ctx, map[string]int64{"0": 6}); err != nil {
		t.Fatalf("CommitGroup again: %v", err)
	}
	got, err := adm.FetchOffsets(ctx, "dashboards")
	if err != nil {
		t.Fatalf("FetchOffsets: %v", err)
	}
	for p, want := range map[int32]int64{0: 6, 2: 7} {
		o, ok := got.Lookup("events", p)
		if !ok || o.Err != nil || o.At != want {
			t.Errorf("group offset of partition %d = %+v (found %v), want %d", p, o, ok, want)
		}
	}
	if _, ok := got.Lookup("events", 1); ok {
		t.Errorf("partition 1 has a group offset though none was committed")
	}
	if err := s.CommitGroup(ctx, map[string]int64{"zero": 1}); err == nil {
		t.Errorf("CommitGroup with partition %q succeeded", "zero")
	}
}

func TestSASL(t *testing.T) {
	t.Parallel()
	for _, mech := range []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"} {
		t.Run(mech, func(t *testing.T) {
			t.Parallel()
			b := testenv.StartKafka(t, testenv.KafkaOptions{
				Topics: []string{"events"},
				SASL:   &testenv.KafkaSASL{Mechanism: mech, User: "streamctl", Password: "s3cret"},
			})
			b.Produce(t, "events", jsonRecords(0, 0, 3)...)
			auth := func(pass string) func(*kafka.Config) {
				return func(c *kafka.Config) {
					c.Timeout = "3s"
					c.SASL = &kafka.SASLConfig{Mechanism: mech, Username: "streamctl", Password: pass}
				}
			}
			s := newSource(t, b.Addr, "events", auth("s3cret"))
			if got := len(mustRead(t, s, "0", 0, 3)); got != 3 {
				t.Fatalf("read %d records with SASL", got)
			}

			start := time.Now()
			_, err := newSource(t, b.Addr, "events", auth("wrong")).Snapshot(context.Background())
			if err == nil {
				t.Fatal("Snapshot with a wrong password succeeded")
			}
			if d := time.Since(start); d > 8*time.Second {
				t.Errorf("wrong password reported after %s", d)
			}
			if !strings.Contains(strings.ToLower(err.Error()), "auth") {
				t.Errorf("wrong password error %q does not say authentication failed", err)
			}
		})
	}
}

func TestTLS(t *testing.T) {
	t.Parallel()
	b := testenv.StartKafka(t, testenv.KafkaOptions{Topics: []string{"events"}, TLS: true})
	b.Produce(t, "events", jsonRecords(0, 0, 3)...)
	withTLS := func(tc *kafka.TLSConfig) func(*kafka.Config) {
		return func(c *kafka.Config) { c.Timeout = "2s"; c.TLS = tc }
	}
	full := &kafka.TLSConfig{CAFile: b.TLS.CAFile, CertFile: b.TLS.CertFile, KeyFile: b.TLS.KeyFile}
	if got := len(mustRead(t, newSource(t, b.Addr, "events", withTLS(full)), "0", 0, 3)); got != 3 {
		t.Fatalf("read %d records over TLS", got)
	}
	skip := &kafka.TLSConfig{CertFile: b.TLS.CertFile, KeyFile: b.TLS.KeyFile, InsecureSkipVerify: true}
	if _, err := newSource(t, b.Addr, "events", withTLS(skip)).Snapshot(context.Background()); err != nil {
		t.Fatalf("Snapshot with insecure_skip_verify: %v", err)
	}
	for name, tc := range map[string]*kafka.TLSConfig{
		"no client certificate": {CAFile: b.TLS.CAFile},
		"unknown CA":            {CertFile: b.TLS.CertFile, KeyFile: b.TLS.KeyFile},
		"no TLS":                nil,
	} {
		start := time.Now()
		if _, err := newSource(t, b.Addr, "events", withTLS(tc)).Snapshot(context.Background()); err == nil {
			t.Errorf("%s: Snapshot succeeded", name)
		}
		if d := time.Since(start); d > 6*time.Second {
			t.Errorf("%s: failed after %s", name, d)
		}
	}
	if _, err := kafka.New(kafka.Config{Brokers: []string{b.Addr}, Topic: "events", TLS: &kafka.TLSConfig{CAFile: "/nonexistent/ca.pem"}}); err == nil {
		t.Errorf("New with a missing ca_file succeeded")
	}
}

func TestValidate(t *testing.T) {
	ok := kafka.Config{Brokers: []string{"127.0.0.1:9092"}, Topic: "orders"}
	if err := ok.Validate(); err != nil {
		t.Fatalf("minimal config: %v", err)
	}
	full := ok
	full.StartingOffsets, full.Isolation, full.ValueFormat, full.Timeout = "latest", "read_uncommitted", "raw", "1m"
	full.SASL = &kafka.SASLConfig{Mechanism: "SCRAM-SHA-512", Username: "u", Password: "p"}
	full.TLS = &kafka.TLSConfig{CertFile: "c.pem", KeyFile: "k.pem"}
	if err := full.Validate(); err != nil {
		t.Fatalf("full config: %v", err)
	}

	bad := kafka.Config{
		Brokers:         []string{"no-port"},
		Topic:           "bad topic",
		StartingOffsets: "oldest",
		Isolation:       "committed",
		ValueFormat:     "xml",
		Timeout:         "soon",
		TLS:             &kafka.TLSConfig{CertFile: "c.pem"},
		SASL:            &kafka.SASLConfig{Mechanism: "GSSAPI"},
	}
	err := bad.Validate()
	if err == nil {
		t.Fatal("invalid config accepted")
	}
	// Every problem at once, each naming its attribute.
	for _, want := range []string{"brokers:", "topic:", "starting_offsets:", "isolation:", "value_format:", "timeout:", "tls:", "sasl: mechanism", "sasl: username", "sasl: password"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not report %s", err, want)
		}
	}
	if err := (kafka.Config{Topic: "t"}).Validate(); err == nil || !strings.Contains(err.Error(), "brokers") {
		t.Errorf("no brokers: %v", err)
	}
	if _, err := kafka.New(bad); err == nil {
		t.Errorf("New accepted an invalid config")
	}

	p := providers.PartitionSnapshot{ID: "0", Earliest: 4, Latest: 9}
	if got := ok.StartOffset(p); got != 4 {
		t.Errorf("default StartOffset = %d, want earliest 4", got)
	}
	if got := full.StartOffset(p); got != 9 {
		t.Errorf("latest StartOffset = %d, want 9", got)
	}
}

func TestValidateSchemaRegistry(t *testing.T) {
	base := kafka.Config{Brokers: []string{"127.0.0.1:9092"}, Topic: "orders"}
	withRegistry := func(edit func(*kafka.Config)) kafka.Config {
		c := base
		c.ValueFormat = kafka.FormatAvro
		c.SchemaRegistry = &kafka.SchemaRegistryConfig{URL: "https://registry:8081", Username: "u", Password: "p",
			TLS: &kafka.TLSConfig{CAFile: "ca.pem"}}
		if edit != nil {
			edit(&c)
		}
		return c
	}
	if err := withRegistry(nil).Validate(); err != nil {
		t.Fatalf("avro with a registry: %v", err)
	}
	if err := withRegistry(func(c *kafka.Config) { c.ValueFormat, c.KeyFormat = kafka.FormatJSON, kafka.FormatProtobuf }).Validate(); err != nil {
		t.Fatalf("protobuf keys with a registry: %v", err)
	}
	for _, tc := range []struct {
		name string
		cfg  kafka.Config
		want string
	}{
		{"no registry", withRegistry(func(c *kafka.Config) { c.SchemaRegistry = nil }),
			`value_format: "avro" reads schemas from a schema registry: add a schema_registry block with its url (or set SCHEMA_REGISTRY_URL)`},
		{"no url", withRegistry(func(c *kafka.Config) {
			c.SchemaRegistry.URL = ""
			c.ValueFormat, c.KeyFormat = "", kafka.FormatJSONSchema
		}),
			`key_format: "json_schema" reads schemas from a schema registry`},
		{"bad url", withRegistry(func(c *kafka.Config) { c.SchemaRegistry.URL = "registry:8081" }), `schema_registry: url "registry:8081" is not an http:// or https:// URL`},
		{"user without password", withRegistry(func(c *kafka.Config) { c.SchemaRegistry.Password = "" }), "schema_registry: username and password go together"},
		{"bad key format", withRegistry(func(c *kafka.Config) { c.KeyFormat = "json" }), `key_format: "json" is none of`},
		{"half a client certificate", withRegistry(func(c *kafka.Config) { c.SchemaRegistry.TLS.CertFile = "c.pem" }), "schema_registry: tls: cert_file and key_file go together"},
	} {
		if err := tc.cfg.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// BenchmarkRead reads 1,000,000 small JSON records of one partition with Read,
// and with a plain franz-go consumer loop for comparison.
func BenchmarkRead(b *testing.B) {
	const n = 1_000_000
	broker := testenv.Kafka(b, "bench")
	var wantSum int64 // of the values' bytes: what was read is what was written
	for from := 0; from < n; from += 100_000 {
		rs := make([]*kgo.Record, 0, 100_000)
		for i := from; i < from+100_000; i++ {
			v := []byte(fmt.Sprintf(`{"id":%d,"country":"de","amount":%d.25}`, i, i%1000))
			wantSum += checksum(v)
			rs = append(rs, &kgo.Record{Value: v})
		}
		broker.Produce(b, "bench", rs...)
	}

	b.Run("Read", func(b *testing.B) {
		s := newSource(b, broker.Addr, "bench", nil)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			var count, sum int64
			err := s.Read(context.Background(), "0", 0, n, func(r *providers.Record) error {
				count++
				sum += checksum(r.Value)
				return nil
			})
			if err != nil || count != n || sum != wantSum {
				b.Fatalf("Read: %d records, checksum %d (want %d), %v", count, sum, wantSum, err)
			}
		}
		b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "records/s")
	})

	b.Run("franz-go", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			cl, err := kgo.NewClient(
				kgo.SeedBrokers(broker.Addr),
				kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{"bench": {0: kgo.NewOffset().At(0)}}),
				kgo.FetchIsolationLevel(kgo.ReadCommitted()),
			)
			if err != nil {
				b.Fatal(err)
			}
			var count, sum int64
			for count < n {
				fs := cl.PollFetches(context.Background())
				if err := fs.Err(); err != nil {
					b.Fatal(err)
				}
				fs.EachRecord(func(r *kgo.Record) {
					count++
					sum += checksum(r.Value)
				})
			}
			cl.Close()
			if count != n || sum != wantSum {
				b.Fatalf("franz-go: %d records, checksum %d (want %d)", count, sum, wantSum)
			}
		}
		b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "records/s")
	})
}

// checksum is a cheap position-dependent sum of b.
func checksum(b []byte) int64 {
	var h int64
	for i, c := range b {
		h += int64(i+1) * int64(c)
	}
	return h
}

// TestConfigHCL decodes a source block's body the way the config package does.
func TestConfigHCL(t *testing.T) {
	src := `
brokers          = ["127.0.0.1:9092", "127.0.0.1:9093"]
topic            = "orders"
starting_offsets = "latest"
isolation        = "read_uncommitted"
value_format     = "raw"
timeout          = "10s"
commit_group     = "streamctl-orders"
tls {
  ca_file              = "ca.pem"
  cert_file            = "client.pem"
  key_file             = "client-key.pem"
  insecure_skip_verify = true
}
sasl {
  mechanism = "SCRAM-SHA-256"
  username  = "streamctl"
  password  = "from-a-sensitive-variable"
}
`
	f, diags := hclsyntax.ParseConfig([]byte(src), "kafka.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var cfg kafka.Config
	if diags := gohcl.DecodeBody(f.Body, nil, &cfg); diags.HasErrors() {
		t.Fatal(diags)
	}
	want := kafka.Config{
		Brokers:         []string{"127.0.0.1:9092", "127.0.0.1:9093"},
		Topic:           "orders",
		StartingOffsets: "latest",
		Isolation:       "read_uncommitted",
		ValueFormat:     "raw",
		Timeout:         "10s",
		CommitGroup:     "streamctl-orders",
		TLS:             &kafka.TLSConfig{CAFile: "ca.pem", CertFile: "client.pem", KeyFile: "client-key.pem", InsecureSkipVerify: true},
		SASL:            &kafka.SASLConfig{Mechanism: "SCRAM-SHA-256", Username: "streamctl", Password: "from-a-sensitive-variable"},
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Fatalf("decoded %+v, want %+v", cfg, want)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}

	// brokers and topic are required; everything else is optional.
	f, _ = hclsyntax.ParseConfig([]byte(`topic = "orders"`), "min.hcl", hcl.InitialPos)
	if diags := gohcl.DecodeBody(f.Body, nil, &kafka.Config{}); !diags.HasErrors() || !strings.Contains(diags.Error(), "brokers") {
		t.Fatalf("a block without brokers decoded: %v", diags)
	}
}
