package delta_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/streamctl/streamctl/internal/delta"
	"github.com/streamctl/streamctl/internal/delta/deltacheck"
	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/mem"
)

var columns = []format.Column{{Name: "id", Type: "int64"}, {Name: "ts", Type: "timestamp"}, {Name: "country", Type: "string"}}

// putFiles writes a batch's data files into store and describes them.
func putFiles(t *testing.T, store providers.Storage, batch int64, keys ...string) []delta.File {
	t.Helper()
	var out []delta.File
	for i, k := range keys {
		data := []byte(fmt.Sprintf("batch %d file %d", batch, i))
		if err := providers.Put(context.Background(), store, k, data); err != nil {
			t.Fatal(err)
		}
		out = append(out, delta.File{Key: k, Size: int64(len(data)), Records: int64(10 * (i + 1))})
	}
	return out
}

func open(t *testing.T, store providers.Storage, partitionBy ...string) *delta.Log {
	t.Helper()
	l := delta.New(store, delta.Config{Columns: columns, PartitionBy: partitionBy})
	if err := l.Open(context.Background()); err != nil {
		t.Fatalf("open: %v", err)
	}
	return l
}

func replay(t *testing.T, store providers.Storage) *deltacheck.Table {
	t.Helper()
	tb, err := deltacheck.Replay(context.Background(), store)
	if err != nil {
		t.Fatalf("the log breaks the protocol: %v", err)
	}
	return tb
}

// versionsOf lists each version's txns, e.g. "0:{} 1:{orders:1}".
func versionsOf(tb *deltacheck.Table) string {
	var parts []string
	for _, v := range tb.Versions {
		var txns []string
		for app, n := range v.Txns {
			txns = append(txns, fmt.Sprintf("%s:%d", app, n))
		}
		parts = append(parts, fmt.Sprintf("%d:{%s}", v.Number, strings.Join(txns, ",")))
	}
	return strings.Join(parts, " ")
}

func TestAppendIsOneVersionPerBatchAndIdempotent(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	l := open(t, store)
	for b := int64(1); b <= 2; b++ {
		if err := l.Append(ctx, "orders", b, nil, putFiles(t, store, b, fmt.Sprintf("orders-%d-0.parquet", b), fmt.Sprintf("orders-%d-1.parquet", b))); err != nil {
			t.Fatal(err)
		}
	}
	// The retry of batch 2 (its answer taken for lost) and a second Open
	// change nothing.
	if err := l.Append(ctx, "orders", 2, nil, putFiles(t, store, 2, "orders-2-0.parquet")); err != nil {
		t.Fatal(err)
	}
	if err := open(t, store).Append(ctx, "orders", 1, nil, nil); err != nil {
		t.Fatal(err)
	}
	tb := replay(t, store)
	if got, want := versionsOf(tb), "0:{} 1:{orders:1} 2:{orders:2}"; got != want {
		t.Errorf("versions %s, want %s", got, want)
	}
	if len(tb.Files) != 4 || tb.Versions[1].Records != 30 || tb.Versions[2].Records != 30 {
		t.Errorf("files %v, records of versions 1 and 2: %d, %d", tb.Files, tb.Versions[1].Records, tb.Versions[2].Records)
	}
	if got := strings.Join(tb.SchemaFields, " "); got != "id:long ts:timestamp country:string" {
		t.Errorf("schema %s", got)
	}
	for b, want := range map[int64]bool{1: true, 2: true, 3: false} {
		if done, err := l.Committed(ctx, "orders", b); err != nil || done != want {
			t.Errorf("Committed(%d) = %v, %v; want %v", b, done, err, want)
		}
	}
}

// lostAnswer applies a log entry's create-only write and answers with an
// error, once: the store has the version, the writer does not know it.
type lostAnswer struct {
	providers.Storage
	lost bool
}

func (s *lostAnswer) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	v, err := s.Storage.PutIfAbsent(ctx, key, data)
	if err == nil && !s.lost && key != delta.VersionKey(0) {
		s.lost = true
		return "", errors.New("connection reset")
	}
	return v, err
}

func TestLostAnswerIsNotCommittedTwice(t *testing.T) {
	ctx := context.Background()
	inner := mem.New("t")
	store := &lostAnswer{Storage: inner}
	files := putFiles(t, inner, 1, "orders-1-0.parquet")
	l := open(t, store)
	if err := l.Append(ctx, "orders", 1, nil, files); err == nil {
		t.Fatal("the lost answer was not reported")
	}
	// The same writer retrying, and a new process after a crash, both find
	// the batch in the log.
	if err := l.Append(ctx, "orders", 1, nil, files); err != nil {
		t.Fatal(err)
	}
	l2 := open(t, inner)
	if done, err := l2.Committed(ctx, "orders", 1); err != nil || !done {
		t.Fatalf("Committed(1) after the lost answer = %v, %v", done, err)
	}
	if err := l2.Append(ctx, "orders", 1, nil, files); err != nil {
		t.Fatal(err)
	}
	if got, want := versionsOf(replay(t, inner)), "0:{} 1:{orders:1}"; got != want {
		t.Errorf("versions %s, want %s", got, want)
	}
}

func TestConcurrentAppendTakesTheNextVersion(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	ours, theirs := open(t, store, "country"), open(t, store, "country")
	// Another writer's blind append lands between our read of the log and
	// our commit: ours goes to the next version.
	if err := theirs.Append(ctx, "other", 7, nil, putFiles(t, store, 7, "country=FR/other-7-0.parquet")); err != nil {
		t.Fatal(err)
	}
	files := putFiles(t, store, 1, "country=DE/orders-1-0.parquet", "country=__HIVE_DEFAULT_PARTITION__/orders-1-1.parquet", "country=a%3Ab c/orders-1-2.parquet")
	if err := ours.Append(ctx, "orders", 1, nil, files); err != nil {
		t.Fatal(err)
	}
	tb := replay(t, store)
	if got, want := versionsOf(tb), "0:{} 1:{other:7} 2:{orders:1}"; got != want {
		t.Errorf("versions %s, want %s", got, want)
	}
	got := map[string]string{}
	for _, f := range tb.Files {
		v := "null"
		if p := f.PartitionValues["country"]; p != nil {
			v = *p
		}
		got[f.Key] = v
	}
	want := map[string]string{"country=FR/other-7-0.parquet": "FR", "country=DE/orders-1-0.parquet": "DE",
		"country=__HIVE_DEFAULT_PARTITION__/orders-1-1.parquet": "null", "country=a%3Ab c/orders-1-2.parquet": "a:b c"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("files and partition values %v, want %v", got, want)
	}
}

func TestConcurrentMetadataChangeConflicts(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	l := open(t, store)
	// Another writer changes the table's metadata (a schema change).
	other := `{"metaData":{"id":"x","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[]}","partitionColumns":[],"configuration":{}}}` + "\n"
	if _, err := store.PutIfAbsent(ctx, delta.VersionKey(1), []byte(other)); err != nil {
		t.Fatal(err)
	}
	err := l.Append(ctx, "orders", 1, nil, putFiles(t, store, 1, "orders-1-0.parquet"))
	if err == nil || !strings.Contains(err.Error(), "changes the table's protocol or metadata") {
		t.Fatalf("append over a metadata change: %v", err)
	}
	if _, err := store.Stat(ctx, delta.VersionKey(2)); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("the batch was committed after the conflict: %v", err)
	}
}

func TestOpenRefusesATableTheSinkCannotWrite(t *testing.T) {
	ctx := context.Background()
	for name, cfg := range map[string]delta.Config{
		"another schema":       {Columns: columns[:2]},
		"another partitioning": {Columns: columns, PartitionBy: []string{"country"}},
	} {
		t.Run(name, func(t *testing.T) {
			store := mem.New("t")
			open(t, store)
			err := delta.New(store, cfg).Open(ctx)
			if err == nil {
				t.Fatal("opened")
			}
			t.Log(err)
		})
	}
}

func TestEncodePath(t *testing.T) {
	for key, want := range map[string]string{
		"orders-1-0.parquet":            "orders-1-0.parquet",
		"country=DE/orders-1-0.parquet": "country=DE/orders-1-0.parquet",
		"country=a%3Ab c/x.parquet":     "country=a%253Ab%20c/x.parquet",
		"city=Zürich/x.parquet":         "city=Z%C3%BCrich/x.parquet",
		"k=a:b/x.parquet":               "k=a%3Ab/x.parquet",
	} {
		if got := delta.EncodePath(key); got != want {
			t.Errorf("EncodePath(%q) = %q, want %q", key, got, want)
		}
	}
}

// TestOpenRefusesALogWithoutVersionZero: a log whose start was cleaned up
// behind a checkpoint that cannot be read (here: missing), or lost, is
// refused, and no second
// version 0 is written into it.
func TestOpenRefusesALogWithoutVersionZero(t *testing.T) {
	ctx := context.Background()
	for name, extra := range map[string]string{
		"after a checkpoint": "_delta_log/_last_checkpoint",
		"lost":               "",
	} {
		t.Run(name, func(t *testing.T) {
			store := mem.New("t")
			open(t, store)
			data, _, err := providers.ReadAll(ctx, store, delta.VersionKey(0))
			if err != nil {
				t.Fatal(err)
			}
			if err := providers.Put(ctx, store, delta.VersionKey(1), data); err != nil {
				t.Fatal(err)
			}
			if err := store.Delete(ctx, delta.VersionKey(0)); err != nil {
				t.Fatal(err)
			}
			if extra != "" {
				if err := providers.Put(ctx, store, extra, []byte(`{"version":1,"size":3}`)); err != nil {
					t.Fatal(err)
				}
			}
			err = delta.New(store, delta.Config{Columns: columns}).Open(ctx)
			if err == nil || !strings.Contains(err.Error(), "the Delta log starts at _delta_log/00000000000000000001.json") {
				t.Fatalf("open: %v", err)
			}
			if _, err := store.Stat(ctx, delta.VersionKey(0)); !errors.Is(err, providers.ErrNotExist) {
				t.Errorf("a version 0 was written: %v", err)
			}
		})
	}
}

// TestBatchVersionRecordsItsRanges: a batch's version records the sink, the
// batch and its source ranges in its commitInfo.
func TestBatchVersionRecordsItsRanges(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	ranges := json.RawMessage(`[{"partition":"0","start":0,"end":5}]`)
	if err := open(t, store).Append(ctx, "orders", 3, ranges, putFiles(t, store, 3, "orders-3-0.parquet")); err != nil {
		t.Fatal(err)
	}
	data, _, err := providers.ReadAll(ctx, store, delta.VersionKey(1))
	if err != nil {
		t.Fatal(err)
	}
	actions, err := delta.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	var infos []string
	for _, a := range actions {
		if a.CommitInfo != nil {
			// Read back as any JSON: keys in sorted order.
			b, _ := json.Marshal(a.CommitInfo[delta.CommitInfoKey])
			infos = append(infos, string(b))
		}
	}
	if got, want := strings.Join(infos, " "), `{"batch":3,"ranges":[{"end":5,"partition":"0","start":0}],"sink":"orders"}`; got != want {
		t.Errorf("commitInfo records %s, want %s", got, want)
	}
}

// Nested columns are Delta structs, arrays and maps in the schema string,
// which the protocol's replay accepts.
func TestNestedSchema(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	cols := []format.Column{{Name: "id", Type: "int64"},
		{Name: "addr", Type: "struct<city:string,geo:struct<lat:double>>"},
		{Name: "items", Type: "list<struct<sku:string,price:decimal(10,2)>>"},
		{Name: "attrs", Type: "map<string,list<int32>>"}}
	l := delta.New(store, delta.Config{Columns: cols})
	if err := l.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(ctx, "orders", 1, nil, putFiles(t, store, 1, "orders-1-0.parquet")); err != nil {
		t.Fatal(err)
	}
	tb := replay(t, store)
	want := "id:long addr:struct<city:string,geo:struct<lat:double>> items:array<struct<sku:string,price:decimal(10,2)>> attrs:map<string,array<integer>>"
	if got := strings.Join(tb.SchemaFields, " "); got != want {
		t.Errorf("schema %s\nwant   %s", got, want)
	}
	// A second Open finds the same schema in the log.
	if err := delta.New(store, delta.Config{Columns: cols}).Open(ctx); err != nil {
		t.Errorf("the table written is refused: %v", err)
	}
}

// withNote is columns and a nullable column added.
var withNote = append(append([]format.Column(nil), columns...), format.Column{Name: "note", Type: "string"})

// TestOpenAddsANullableColumn: a nullable column added to the sink is one
// version with a metaData action holding the new schema (the table's id,
// partitioning and creation time kept); the batches after it follow, and
// opening again changes nothing.
func TestOpenAddsANullableColumn(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	if err := open(t, store, "country").Append(ctx, "orders", 1, nil, putFiles(t, store, 1, "country=DE/orders-1-0.parquet")); err != nil {
		t.Fatal(err)
	}
	l := delta.New(store, delta.Config{Columns: withNote, PartitionBy: []string{"country"}})
	if err := l.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(ctx, "orders", 2, nil, putFiles(t, store, 2, "country=FR/orders-2-0.parquet")); err != nil {
		t.Fatal(err)
	}
	if err := delta.New(store, delta.Config{Columns: withNote, PartitionBy: []string{"country"}}).Open(ctx); err != nil {
		t.Fatal(err)
	}
	tb := replay(t, store)
	if got := versionsOf(tb); got != "0:{} 1:{orders:1} 2:{} 3:{orders:2}" {
		t.Errorf("versions %s", got)
	}
	if got := strings.Join(tb.Versions[2].Actions, ","); got != "commitInfo,metaData" {
		t.Errorf("version 2's actions %s", got)
	}
	if got := strings.Join(tb.SchemaFields, " "); got != "id:long ts:timestamp country:string note:string" {
		t.Errorf("schema %s", got)
	}
	metas := map[int64]*delta.MetaData{}
	for _, v := range []int64{0, 2} {
		data, _, err := providers.ReadAll(ctx, store, delta.VersionKey(v))
		if err != nil {
			t.Fatal(err)
		}
		actions, err := delta.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range actions {
			if a.MetaData != nil {
				metas[v] = a.MetaData
			}
		}
	}
	if metas[0] == nil || metas[2] == nil || metas[2].ID != metas[0].ID || *metas[2].CreatedTime != *metas[0].CreatedTime || strings.Join(metas[2].PartitionColumns, ",") != "country" {
		t.Errorf("the metaData of version 2 (%+v) does not keep version 0's (%+v)", metas[2], metas[0])
	}
}

// TestOpenRefusesAnIncompatibleChange: a column whose type changed is
// refused by name with the way out, and nothing is written.
func TestOpenRefusesAnIncompatibleChange(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	open(t, store)
	changed := append([]format.Column(nil), columns...)
	changed[0].Type = "string"
	err := delta.New(store, delta.Config{Columns: changed}).Open(ctx)
	if err == nil || !strings.Contains(err.Error(), `column "id" is long in the table, and string in the sink`) || !strings.Contains(err.Error(), "write this sink to another table") {
		t.Fatalf("open: %v", err)
	}
	if _, err := store.Stat(ctx, delta.VersionKey(1)); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("a version was written: %v", err)
	}
}

// TestRacingSchemaChangesCommitOnce: two writers adding the same column at
// once write one metaData version; the loser reads it and has nothing left
// to change.
func TestRacingSchemaChangesCommitOnce(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	open(t, store)
	first := delta.New(store, delta.Config{Columns: withNote})
	second := delta.New(store, delta.Config{Columns: withNote})
	// The second has read the log before the first changes it.
	if _, err := second.Inspect(ctx, "orders", 0); err != nil {
		t.Fatal(err)
	}
	if err := first.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := second.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if got := versionsOf(replay(t, store)); got != "0:{} 1:{}" {
		t.Errorf("versions %s, want the table's creation and one schema change", got)
	}
}

// TestInspectWritesNothing: plan's view of a missing table, of one with a
// column to add, and of the sink's batches among a foreign writer's
// versions, with no version written by reading.
func TestInspectWritesNothing(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	in, err := delta.New(store, delta.Config{Columns: columns}).Inspect(ctx, "orders", 0)
	if err != nil {
		t.Fatal(err)
	}
	if in.Exists {
		t.Errorf("an empty folder inspected as a table: %+v", in)
	}
	if _, err := store.Stat(ctx, delta.VersionKey(0)); !errors.Is(err, providers.ErrNotExist) {
		t.Fatalf("inspect created the table: %v", err)
	}
	l := open(t, store)
	if err := l.Append(ctx, "orders", 0, json.RawMessage(`[{"partition":"0","start":0,"end":5}]`), putFiles(t, store, 0, "orders-0-0.parquet")); err != nil {
		t.Fatal(err)
	}
	// A foreign writer's append (Spark's, without streamctl's commitInfo)
	// and another sink's batch.
	foreign := `{"commitInfo":{"operation":"WRITE"}}` + "\n" + `{"add":{"path":"part-0.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}` + "\n"
	if _, err := store.PutIfAbsent(ctx, delta.VersionKey(2), []byte(foreign)); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(ctx, "refunds", 7, json.RawMessage(`[]`), nil); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(ctx, "orders", 1, json.RawMessage(`[{"partition":"0","start":5,"end":9}]`), putFiles(t, store, 1, "orders-1-0.parquet")); err != nil {
		t.Fatal(err)
	}
	in, err = delta.New(store, delta.Config{Columns: withNote}).Inspect(ctx, "orders", 0)
	if err != nil {
		t.Fatal(err)
	}
	var batches []string
	for _, b := range in.Batches {
		batches = append(batches, fmt.Sprintf("%d@%d%s", b.Batch, b.Version, b.Ranges))
	}
	if got, want := strings.Join(batches, " "), `0@1[{"end":5,"partition":"0","start":0}] 1@4[{"end":9,"partition":"0","start":5}]`; got != want {
		t.Errorf("batches %s, want %s", got, want)
	}
	if !in.Exists || strings.Join(in.Changes, ";") != "add column note (string, nullable)" || len(in.Problems) != 0 || in.Version != 4 {
		t.Errorf("inspection %+v", in)
	}
	if _, err := store.Stat(ctx, delta.VersionKey(5)); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("inspect committed the schema change: %v", err)
	}
}

// TestConcurrentCompatibleMetadataChange: another writer's metaData that
// leaves the sink's columns and partitioning as they are (here: it sets a
// table property) does not conflict with a blind append, which commits at
// the next version.
func TestConcurrentCompatibleMetadataChange(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	l := open(t, store)
	schema, err := delta.SchemaString(columns)
	if err != nil {
		t.Fatal(err)
	}
	meta, _ := json.Marshal(map[string]any{"metaData": map[string]any{"id": "x", "format": map[string]any{"provider": "parquet", "options": map[string]string{}},
		"schemaString": schema, "partitionColumns": []string{}, "configuration": map[string]string{"delta.logRetentionDuration": "interval 60 days"}}})
	if _, err := store.PutIfAbsent(ctx, delta.VersionKey(1), append(meta, '\n')); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(ctx, "orders", 1, nil, putFiles(t, store, 1, "orders-1-0.parquet")); err != nil {
		t.Fatalf("append over a compatible metadata change: %v", err)
	}
	if got := versionsOf(replay(t, store)); got != "0:{} 1:{} 2:{orders:1}" {
		t.Errorf("versions %s", got)
	}
}

// TestShardsCommitToOneLog: eight shards of a sink, each its own writer
// with appId orders/shard-N, append ten batches each to one table at once;
// every batch is one version, none lost or doubled, and each retried batch
// is recognised by its txn.
func TestShardsCommitToOneLog(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	const shards, batches = 8, 10
	logs := make([]*delta.Log, shards)
	for i := range logs {
		logs[i] = delta.New(store, delta.Config{Columns: columns, CheckpointInterval: 7,
			CheckpointFailed: func(err error) { t.Errorf("checkpoint: %v", err) }})
	}
	var wg sync.WaitGroup
	errs := make(chan error, shards)
	for i, l := range logs {
		wg.Go(func() {
			if err := l.Open(ctx); err != nil {
				errs <- err
				return
			}
			app := fmt.Sprintf("orders/shard-%d", i)
			for b := int64(0); b < batches; b++ {
				key := fmt.Sprintf("shard-%d/orders-%d-0.parquet", i, b)
				if err := providers.Put(ctx, store, key, []byte(key)); err != nil {
					errs <- err
					return
				}
				files := []delta.File{{Key: key, Size: int64(len(key)), Records: 1}}
				if err := l.Append(ctx, app, b, nil, files); err != nil {
					errs <- fmt.Errorf("%s batch %d: %w", app, b, err)
					return
				}
				// A retry of the same batch (its answer lost) commits nothing.
				if err := l.Append(ctx, app, b, nil, files); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	tb := replay(t, store)
	if len(tb.Versions) != 1+shards*batches || len(tb.Files) != shards*batches {
		t.Errorf("%d versions and %d files, want %d and %d", len(tb.Versions), len(tb.Files), 1+shards*batches, shards*batches)
	}
	seen := map[string]bool{}
	for _, v := range tb.Versions[1:] {
		if len(v.Txns) != 1 || v.Added != 1 {
			t.Errorf("version %d: txns %v, %d adds", v.Number, v.Txns, v.Added)
		}
		for app, b := range v.Txns {
			k := fmt.Sprintf("%s@%d", app, b)
			if seen[k] {
				t.Errorf("batch %s committed twice", k)
			}
			seen[k] = true
		}
	}
	for i := range shards {
		if got := tb.Txns[fmt.Sprintf("orders/shard-%d", i)]; got != batches-1 {
			t.Errorf("shard %d's txn at %d", i, got)
		}
	}
}
