package delta_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/streamctl/streamctl/internal/delta"
	"github.com/streamctl/streamctl/internal/delta/deltacheck"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/mem"
)

// countingReads records the objects read through it (Get, Stat, List).
type countingReads struct {
	providers.Storage
	mu    sync.Mutex
	reads []string
}

func (s *countingReads) note(what string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads = append(s.reads, what)
}

func (s *countingReads) Get(ctx context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	s.note("get " + key)
	return s.Storage.Get(ctx, key)
}

func (s *countingReads) Stat(ctx context.Context, key string) (providers.ObjectInfo, error) {
	s.note("stat " + key)
	return s.Storage.Stat(ctx, key)
}

func (s *countingReads) List(ctx context.Context, prefix string, fn func(providers.ObjectInfo) error) error {
	s.note("list " + prefix)
	return s.Storage.List(ctx, prefix, fn)
}

// longTable writes a table of versions 0 (creation) to last, a batch of
// sink orders a version, with a checkpoint every 10 versions.
func longTable(t *testing.T, store providers.Storage, last int64) {
	t.Helper()
	ctx := context.Background()
	l := delta.New(store, delta.Config{Columns: columns, CheckpointInterval: 10,
		CheckpointFailed: func(err error) { t.Errorf("checkpoint: %v", err) }})
	if err := l.Open(ctx); err != nil {
		t.Fatal(err)
	}
	for b := int64(1); b <= last; b++ {
		ranges := json.RawMessage(fmt.Sprintf(`[{"partition":"0","start":%d,"end":%d}]`, b*10, b*10+10))
		if err := l.Append(ctx, "orders", b, ranges, putFiles(t, store, b, fmt.Sprintf("orders-%d-0.parquet", b))); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPlanReadsFromTheLastCheckpoint: over a table of 1,000 versions,
// inspecting it reads _last_checkpoint, the checkpoint it names and the
// versions after it — as many objects more as versions follow the
// checkpoint, whatever the history before — and finds what replaying the
// whole log finds.
func TestPlanReadsFromTheLastCheckpoint(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	longTable(t, store, 1000)
	for after := int64(0); after <= 9; after += 3 {
		if after > 0 {
			l := delta.New(store, delta.Config{Columns: columns, CheckpointInterval: 10})
			if err := l.Open(ctx); err != nil {
				t.Fatal(err)
			}
			for b := 1001 + after - 3; b <= 1000+after; b++ {
				if err := l.Append(ctx, "orders", b, json.RawMessage(`[]`), putFiles(t, store, b, fmt.Sprintf("orders-%d-0.parquet", b))); err != nil {
					t.Fatal(err)
				}
			}
		}
		counted := &countingReads{Storage: store}
		var warnings []string
		l := delta.New(counted, delta.Config{Columns: columns, Warn: func(w string) { warnings = append(warnings, w) }})
		in, err := l.Inspect(ctx, "orders", 1001+after)
		if err != nil {
			t.Fatal(err)
		}
		// _last_checkpoint, the checkpoint, its version's entry (stat),
		// each version after it, the first missing one; with none after
		// it, the checkpoint's version's entry for the batch's ranges.
		want := []string{"get " + delta.LastCheckpointKey, "get " + delta.CheckpointKey(1000), "stat " + delta.VersionKey(1000)}
		for v := int64(1001); v <= 1001+after; v++ {
			want = append(want, "get "+delta.VersionKey(v))
		}
		if after == 0 {
			want = append(want, "get "+delta.VersionKey(1000))
		}
		if !slices.Equal(counted.reads, want) {
			t.Errorf("%d versions after the checkpoint: read\n%s\nwant\n%s", after, strings.Join(counted.reads, "\n"), strings.Join(want, "\n"))
		}
		if len(warnings) > 0 {
			t.Errorf("warnings %q", warnings)
		}
		if in.Version != 1000+after || len(in.Batches) == 0 {
			t.Fatalf("inspected version %d, batches %+v", in.Version, in.Batches)
		}
		top := in.Batches[len(in.Batches)-1]
		if top.Batch != 1000+after || top.Version != 1000+after {
			t.Errorf("the last batch %+v, want batch and version %d", top, 1000+after)
		}
		if after == 0 && string(top.Ranges) != `[{"end":10010,"partition":"0","start":10000}]` {
			t.Errorf("batch 1000's ranges %s", top.Ranges)
		}
		files, err := l.Files(ctx)
		if err != nil {
			t.Fatal(err)
		}
		tb := replay(t, store)
		if len(files) != len(tb.Files) || len(files) != int(1000+after) || files[0] != tb.Files[0].Key {
			t.Errorf("read from the checkpoint: %d files, the full replay %d", len(files), len(tb.Files))
		}
	}
}

// TestUnreadableCheckpointReplaysTheLog: a checkpoint that is missing, does
// not read, or is ahead of the log is passed over with a warning naming
// it, and the log is replayed from version 0 to the same snapshot; the
// next batch commits after the log's last version.
func TestUnreadableCheckpointReplaysTheLog(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		spoil func(t *testing.T, store providers.Storage)
		want  string
	}{
		{"missing checkpoint", func(t *testing.T, store providers.Storage) {
			if err := store.Delete(ctx, delta.CheckpointKey(20)); err != nil {
				t.Fatal(err)
			}
		}, "names version 20: read _delta_log/00000000000000000020.checkpoint.parquet"},
		{"truncated checkpoint", func(t *testing.T, store providers.Storage) {
			data, _, _ := providers.ReadAll(ctx, store, delta.CheckpointKey(20))
			if err := providers.Put(ctx, store, delta.CheckpointKey(20), data[:len(data)/2]); err != nil {
				t.Fatal(err)
			}
		}, "read _delta_log/00000000000000000020.checkpoint.parquet"},
		{"another version's checkpoint", func(t *testing.T, store providers.Storage) {
			data, _, _ := providers.ReadAll(ctx, store, delta.CheckpointKey(10))
			if err := providers.Put(ctx, store, delta.CheckpointKey(20), data); err != nil {
				t.Fatal(err)
			}
		}, "the checkpoint of version 20 holds 13 actions, and _delta_log/_last_checkpoint says 23"},
		{"_last_checkpoint not JSON", func(t *testing.T, store providers.Storage) {
			if err := providers.Put(ctx, store, delta.LastCheckpointKey, []byte("20")); err != nil {
				t.Fatal(err)
			}
		}, `holds "20", not a checkpoint's version`},
		{"checkpoint ahead of the log", func(t *testing.T, store providers.Storage) {
			if err := providers.Put(ctx, store, delta.LastCheckpointKey, []byte(`{"version":40,"size":23}`)); err != nil {
				t.Fatal(err)
			}
			data, _, _ := providers.ReadAll(ctx, store, delta.CheckpointKey(20))
			if err := providers.Put(ctx, store, delta.CheckpointKey(40), data); err != nil {
				t.Fatal(err)
			}
		}, "names version 40, and the log has no _delta_log/00000000000000000040.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := mem.New("t")
			longTable(t, store, 25)
			c.spoil(t, store)
			var warnings []string
			l := delta.New(store, delta.Config{Columns: columns, CheckpointInterval: 10, Warn: func(w string) { warnings = append(warnings, w) }})
			if err := l.Open(ctx); err != nil {
				t.Fatal(err)
			}
			if len(warnings) != 1 || !strings.Contains(warnings[0], c.want) || !strings.Contains(warnings[0], "replays the Delta log from version 0") {
				t.Errorf("warnings %q, want one with %q", warnings, c.want)
			}
			files, err := l.Files(ctx)
			if err != nil || len(files) != 25 {
				t.Errorf("%d files (%v), want 25", len(files), err)
			}
			if err := l.Append(ctx, "orders", 26, nil, putFiles(t, store, 26, "orders-26-0.parquet")); err != nil {
				t.Fatal(err)
			}
			if _, err := store.Stat(ctx, delta.VersionKey(26)); err != nil {
				t.Errorf("batch 26 is not version 26: %v", err)
			}
		})
	}
}

// TestLogCleanedUpBehindTheCheckpoint: a log whose versions before its
// checkpoint were removed (another writer's log retention) is read from the
// checkpoint; the batches are still found committed, and the next one
// goes on from the last version.
func TestLogCleanedUpBehindTheCheckpoint(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	longTable(t, store, 23)
	for v := int64(0); v < 20; v++ {
		if err := store.Delete(ctx, delta.VersionKey(v)); err != nil {
			t.Fatal(err)
		}
	}
	l := delta.New(store, delta.Config{Columns: columns, Warn: func(w string) { t.Errorf("warning %q", w) }})
	if err := l.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if ok, err := l.Committed(ctx, "orders", 23); err != nil || !ok {
		t.Errorf("batch 23 committed: %v %v", ok, err)
	}
	if err := l.Append(ctx, "orders", 24, nil, putFiles(t, store, 24, "orders-24-0.parquet")); err != nil {
		t.Fatal(err)
	}
	if files, err := l.Files(ctx); err != nil || len(files) != 24 {
		t.Errorf("%d files (%v)", len(files), err)
	}
}

// otherWritersRow is a checkpoint row as another writer's Parquet library
// writes it: the protocol's schema, by parquet-go, not by this package.
type otherWritersRow struct {
	Txn *struct {
		AppID   string `parquet:"appId"`
		Version int64  `parquet:"version"`
	} `parquet:"txn,optional"`
	Add *struct {
		Path             string             `parquet:"path"`
		PartitionValues  map[string]*string `parquet:"partitionValues"`
		Size             int64              `parquet:"size"`
		ModificationTime int64              `parquet:"modificationTime"`
		DataChange       bool               `parquet:"dataChange"`
		Stats            *string            `parquet:"stats,optional"`
	} `parquet:"add,optional"`
	MetaData *struct {
		ID     string `parquet:"id"`
		Format struct {
			Provider string            `parquet:"provider"`
			Options  map[string]string `parquet:"options"`
		} `parquet:"format"`
		SchemaString     string            `parquet:"schemaString"`
		PartitionColumns []string          `parquet:"partitionColumns,list"`
		Configuration    map[string]string `parquet:"configuration"`
	} `parquet:"metaData,optional"`
	Protocol *struct {
		MinReaderVersion int32    `parquet:"minReaderVersion"`
		MinWriterVersion int32    `parquet:"minWriterVersion"`
		ReaderFeatures   []string `parquet:"readerFeatures,list,optional"`
		WriterFeatures   []string `parquet:"writerFeatures,list,optional"`
	} `parquet:"protocol,optional"`
}

// otherWritersCheckpoint writes a checkpoint of version v, in parts, of a
// table partitioned by country with files files, its txn of orders at v,
// and the given protocol features.
func otherWritersCheckpoint(t *testing.T, store providers.Storage, v int64, parts, files int, readerFeatures []string) {
	t.Helper()
	schema, _ := delta.SchemaString(columns)
	rows := []otherWritersRow{{}, {}, {}}
	rows[0].Protocol = &struct {
		MinReaderVersion int32    `parquet:"minReaderVersion"`
		MinWriterVersion int32    `parquet:"minWriterVersion"`
		ReaderFeatures   []string `parquet:"readerFeatures,list,optional"`
		WriterFeatures   []string `parquet:"writerFeatures,list,optional"`
	}{1, 2, readerFeatures, readerFeatures}
	if len(readerFeatures) > 0 {
		rows[0].Protocol.MinReaderVersion, rows[0].Protocol.MinWriterVersion = 3, 7
	}
	rows[1].MetaData = &struct {
		ID     string `parquet:"id"`
		Format struct {
			Provider string            `parquet:"provider"`
			Options  map[string]string `parquet:"options"`
		} `parquet:"format"`
		SchemaString     string            `parquet:"schemaString"`
		PartitionColumns []string          `parquet:"partitionColumns,list"`
		Configuration    map[string]string `parquet:"configuration"`
	}{ID: "8c3b9a3e-0000-4000-8000-000000000001", SchemaString: schema, PartitionColumns: []string{"country"}, Configuration: map[string]string{}}
	rows[1].MetaData.Format.Provider = "parquet"
	rows[2].Txn = &struct {
		AppID   string `parquet:"appId"`
		Version int64  `parquet:"version"`
	}{"orders", v}
	for i := range files {
		var r otherWritersRow
		country := []string{"DE", "FR"}[i%2]
		stats := `{"numRecords":1}`
		r.Add = &struct {
			Path             string             `parquet:"path"`
			PartitionValues  map[string]*string `parquet:"partitionValues"`
			Size             int64              `parquet:"size"`
			ModificationTime int64              `parquet:"modificationTime"`
			DataChange       bool               `parquet:"dataChange"`
			Stats            *string            `parquet:"stats,optional"`
		}{Path: fmt.Sprintf("country=%s/part-%05d.parquet", country, i), PartitionValues: map[string]*string{"country": &country}, Size: 100, ModificationTime: 1, Stats: &stats}
		rows = append(rows, r)
	}
	ctx := context.Background()
	per := (len(rows) + parts - 1) / parts
	for p := range parts {
		var buf bytes.Buffer
		if err := parquet.Write(&buf, rows[p*per:min((p+1)*per, len(rows))]); err != nil {
			t.Fatal(err)
		}
		key := delta.CheckpointKey(v)
		if parts > 1 {
			key = delta.CheckpointPartKey(v, p+1, parts)
		}
		if err := providers.Put(ctx, store, key, buf.Bytes()); err != nil {
			t.Fatal(err)
		}
	}
	last := fmt.Sprintf(`{"version":%d,"size":%d}`, v, len(rows))
	if parts > 1 {
		last = fmt.Sprintf(`{"version":%d,"size":%d,"parts":%d}`, v, len(rows), parts)
	}
	if err := providers.Put(ctx, store, delta.LastCheckpointKey, []byte(last)); err != nil {
		t.Fatal(err)
	}
	// The version the checkpoint is of; the log before it cleaned up.
	if err := providers.Put(ctx, store, delta.VersionKey(v), []byte(`{"commitInfo":{"operation":"WRITE"}}`+"\n")); err != nil {
		t.Fatal(err)
	}
}

// TestMultiPartCheckpoint: another writer's checkpoint in three parts is
// read whole: its files, partition values and txn; the next batch commits
// after it.
func TestMultiPartCheckpoint(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	otherWritersCheckpoint(t, store, 30, 3, 7, nil)
	l := delta.New(store, delta.Config{Columns: columns, PartitionBy: []string{"country"}, Warn: func(w string) { t.Errorf("warning %q", w) }})
	if err := l.Open(ctx); err != nil {
		t.Fatal(err)
	}
	files, err := l.Files(ctx)
	if err != nil || len(files) != 7 || files[0] != "country=DE/part-00000.parquet" || files[6] != "country=FR/part-00005.parquet" {
		t.Errorf("files %q (%v)", files, err)
	}
	if v, ok, err := l.LastTxn(ctx, "orders"); err != nil || !ok || v != 30 {
		t.Errorf("orders' txn %d %v %v", v, ok, err)
	}
	if err := l.Append(ctx, "orders", 31, nil, putFiles(t, store, 31, "country=DE/orders-31-0.parquet")); err != nil {
		t.Fatal(err)
	}
	data, _, err := providers.ReadAll(ctx, store, delta.VersionKey(31))
	if err != nil || !bytes.Contains(data, []byte(`"partitionValues":{"country":"DE"}`)) {
		t.Errorf("version 31: %s (%v)", data, err)
	}
}

// TestV2CheckpointRefused: a table whose protocol requires V2 checkpoints,
// or whose _last_checkpoint names one, is refused at plan and apply, the
// message naming the feature; nothing is written.
func TestV2CheckpointRefused(t *testing.T) {
	ctx := context.Background()
	for name, spoil := range map[string]func(providers.Storage){
		"protocol": func(store providers.Storage) { otherWritersCheckpoint(t, store, 5, 1, 1, []string{"v2Checkpoint"}) },
		"_last_checkpoint": func(store providers.Storage) {
			otherWritersCheckpoint(t, store, 5, 1, 1, nil)
			last := `{"version":5,"size":4,"v2Checkpoint":{"path":"00000000000000000005.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json"}}`
			if err := providers.Put(ctx, store, delta.LastCheckpointKey, []byte(last)); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			store := mem.New("t")
			spoil(store)
			l := delta.New(store, delta.Config{Columns: columns, PartitionBy: []string{"country"}})
			_, err := l.Inspect(ctx, "orders", 0)
			if err == nil || !strings.Contains(err.Error(), "requires the table feature v2Checkpoint") {
				t.Errorf("inspect: %v", err)
			}
			if err := l.Open(ctx); err == nil || !strings.Contains(err.Error(), "v2Checkpoint") {
				t.Errorf("open: %v", err)
			}
			if _, err := store.Stat(ctx, delta.VersionKey(6)); err == nil {
				t.Errorf("a version was written")
			}
		})
	}
}

// TestCheckpointFromACheckpoint: each batch committed by a new writer, which
// reads the log from the last checkpoint, and writes the next checkpoint
// from what it read: null and escaped partition values, sizes, stats and
// txns come through, as the replay of the whole log finds them.
func TestCheckpointFromACheckpoint(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	for b := int64(1); b <= 6; b++ {
		l := delta.New(store, delta.Config{Columns: columns, PartitionBy: []string{"country"}, CheckpointInterval: 2,
			CheckpointFailed: func(err error) { t.Errorf("checkpoint: %v", err) }, Warn: func(w string) { t.Errorf("warning %q", w) }})
		if err := l.Open(ctx); err != nil {
			t.Fatal(err)
		}
		files := putFiles(t, store, b, fmt.Sprintf("country=__HIVE_DEFAULT_PARTITION__/orders-%d-0.parquet", b), fmt.Sprintf("country=a%%3Ab/orders-%d-1.parquet", b))
		if err := l.Append(ctx, "orders", b, nil, files); err != nil {
			t.Fatal(err)
		}
	}
	tb := replay(t, store) // compares the checkpoint of version 6 with the log
	if tb.Checkpoint != 6 || len(tb.Files) != 12 || tb.Txns["orders"] != 6 {
		t.Errorf("checkpoint %d, %d files, txns %v", tb.Checkpoint, len(tb.Files), tb.Txns)
	}
	cp, _, err := deltacheck.ReadCheckpoint(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	f := cp.Files["country=__HIVE_DEFAULT_PARTITION__/orders-1-0.parquet"]
	if v, ok := f.PartitionValues["country"]; !ok || v != nil || f.Records != 10 {
		t.Errorf("the null partition's file in the checkpoint: %+v", f)
	}
}

// TestInspectReadsBackToTheStatesBatch: batches of the sink before the
// checkpoint that the state has not committed (a state restored from an
// older copy) are read back from the checkpoint, with their ranges, as far
// as the state's next batch and no further.
func TestInspectReadsBackToTheStatesBatch(t *testing.T) {
	ctx := context.Background()
	store := mem.New("t")
	longTable(t, store, 25) // checkpoint at 20
	counted := &countingReads{Storage: store}
	in, err := delta.New(counted, delta.Config{Columns: columns}).Inspect(ctx, "orders", 17)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range in.Batches {
		got = append(got, fmt.Sprintf("%d@%d%s", b.Batch, b.Version, b.Ranges))
	}
	var want []string
	for b := 17; b <= 25; b++ {
		want = append(want, fmt.Sprintf(`%d@%d[{"end":%d,"partition":"0","start":%d}]`, b, b, b*10+10, b*10))
	}
	if !slices.Equal(got, want) {
		t.Errorf("batches\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Versions 21-26 forward (26 missing), 20 back to 16, where batch 16
	// ends the reading.
	var versions []string
	for _, r := range counted.reads {
		if strings.HasSuffix(r, ".json") && strings.HasPrefix(r, "get ") {
			versions = append(versions, strings.TrimSuffix(strings.TrimPrefix(r, "get _delta_log/000000000000000000"), ".json"))
		}
	}
	if got := strings.Join(versions, " "); got != "21 22 23 24 25 26 20 19 18 17 16" {
		t.Errorf("read the versions %s", got)
	}
}
