package delta_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/delta"
	"github.com/streamctl/streamctl/internal/delta/deltacheck"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
)

// TestCheckpointEveryInterval: with an interval of 2, versions 2 and 4 get
// a checkpoint and _last_checkpoint names the latest; DuckDB, reading the
// checkpoint as any Parquet file, finds the protocol's columns and one row
// an action: the protocol, the metaData, the txn and every add of the
// snapshot, with their partition values and stats.
func TestCheckpointEveryInterval(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store := local.New(dir)
	l := delta.New(store, delta.Config{Columns: columns, PartitionBy: []string{"country"}, CheckpointInterval: 2,
		CheckpointFailed: func(err error) { t.Errorf("checkpoint: %v", err) }})
	if err := l.Open(ctx); err != nil {
		t.Fatal(err)
	}
	for b := int64(1); b <= 5; b++ {
		files := putFiles(t, store, b, fmt.Sprintf("country=DE/orders-%d-0.parquet", b), fmt.Sprintf("country=a%%3Ab/orders-%d-1.parquet", b))
		if err := l.Append(ctx, "orders", b, nil, files); err != nil {
			t.Fatal(err)
		}
	}
	var names []string
	entries, err := os.ReadDir(filepath.Join(dir, delta.LogDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	if got := strings.Join(names, " "); got != "00000000000000000002.checkpoint.parquet 00000000000000000004.checkpoint.parquet _last_checkpoint" {
		t.Errorf("the log's checkpoint files: %s", got)
	}
	data, _, err := providers.ReadAll(ctx, store, delta.LastCheckpointKey)
	if err != nil {
		t.Fatal(err)
	}
	var last delta.LastCheckpoint
	if err := json.Unmarshal(data, &last); err != nil || last.Version != 4 || last.Size != 2+1+8 || last.NumOfAddFiles != 8 {
		t.Errorf("_last_checkpoint %s (%v)", data, err)
	}
	file := filepath.Join(dir, filepath.FromSlash(delta.CheckpointKey(4)))
	res := testenv.DuckDB(t, dir,
		fmt.Sprintf(`SELECT protocol.minReaderVersion, protocol.minWriterVersion, protocol.writerFeatures FROM read_parquet('%s') WHERE protocol IS NOT NULL`, file),
		fmt.Sprintf(`SELECT metaData.format.provider, metaData.partitionColumns, metaData.schemaString, cardinality(metaData.configuration) FROM read_parquet('%s') WHERE metaData IS NOT NULL`, file),
		fmt.Sprintf(`SELECT txn.appId, txn.version FROM read_parquet('%s') WHERE txn IS NOT NULL`, file),
		fmt.Sprintf(`SELECT add.path, add.partitionValues['country'], add.size, add.dataChange, add.stats FROM read_parquet('%s') WHERE add IS NOT NULL ORDER BY add.path`, file),
		fmt.Sprintf(`SELECT count(*) FROM read_parquet('%s') WHERE remove IS NOT NULL OR (add IS NULL AND txn IS NULL AND metaData IS NULL AND protocol IS NULL)`, file),
	)
	if got := fmt.Sprint(res[0].Rows); got != "[[1 2 <nil>]]" {
		t.Errorf("protocol %s", got)
	}
	schema, _ := delta.SchemaString(columns)
	if got, want := fmt.Sprint(res[1].Rows), fmt.Sprintf("[[parquet [country] %s 0]]", schema); got != want {
		t.Errorf("metaData %s, want %s", got, want)
	}
	if got := fmt.Sprint(res[2].Rows); got != "[[orders 4]]" {
		t.Errorf("txn %s", got)
	}
	var adds []string
	for _, r := range res[3].Rows {
		adds = append(adds, fmt.Sprint(r))
	}
	want := []string{
		"[country=DE/orders-1-0.parquet DE 14 false {\"numRecords\":10}]",
		"[country=DE/orders-2-0.parquet DE 14 false {\"numRecords\":10}]",
		"[country=DE/orders-3-0.parquet DE 14 false {\"numRecords\":10}]",
		"[country=DE/orders-4-0.parquet DE 14 false {\"numRecords\":10}]",
		"[country=a%253Ab/orders-1-1.parquet a:b 14 false {\"numRecords\":20}]",
		"[country=a%253Ab/orders-2-1.parquet a:b 14 false {\"numRecords\":20}]",
		"[country=a%253Ab/orders-3-1.parquet a:b 14 false {\"numRecords\":20}]",
		"[country=a%253Ab/orders-4-1.parquet a:b 14 false {\"numRecords\":20}]",
	}
	if strings.Join(adds, "\n") != strings.Join(want, "\n") {
		t.Errorf("adds\n%s\nwant\n%s", strings.Join(adds, "\n"), strings.Join(want, "\n"))
	}
	if got := fmt.Sprint(res[4].Rows); got != "[[0]]" {
		t.Errorf("rows neither a known action nor one action: %s", got)
	}
}

// TestReplayChecksTheCheckpoint: the replay reads the checkpoint that
// _last_checkpoint names as a reader would start from it, and refuses one
// that is not the snapshot of its version.
func TestReplayChecksTheCheckpoint(t *testing.T) {
	ctx := context.Background()
	store := local.New(t.TempDir())
	l := delta.New(store, delta.Config{Columns: columns, CheckpointInterval: 2})
	if err := l.Open(ctx); err != nil {
		t.Fatal(err)
	}
	for b := int64(1); b <= 4; b++ {
		if err := l.Append(ctx, "orders", b, nil, putFiles(t, store, b, fmt.Sprintf("orders-%d-0.parquet", b))); err != nil {
			t.Fatal(err)
		}
	}
	if tb := replay(t, store); tb.Checkpoint != 4 || len(tb.Files) != 4 {
		t.Errorf("replayed checkpoint %d, files %d", tb.Checkpoint, len(tb.Files))
	}
	// Version 2's checkpoint under version 4's name lacks two files and
	// has an older txn.
	old, _, err := providers.ReadAll(ctx, store, delta.CheckpointKey(2))
	if err != nil {
		t.Fatal(err)
	}
	if err := providers.Put(ctx, store, delta.CheckpointKey(4), old); err != nil {
		t.Fatal(err)
	}
	_, err = deltacheck.Replay(ctx, store)
	for _, want := range []string{"the checkpoint of version 4 lacks the file orders-4-0.parquet", "has the txns map[orders:2], the log map[orders:4]", "5 actions, and _last_checkpoint says 7"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("replay of a wrong checkpoint: want %q in %v", want, err)
		}
	}
}

// failingCheckpoints fails every write of a checkpoint.
type failingCheckpoints struct{ providers.Storage }

func (s failingCheckpoints) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	if strings.HasSuffix(key, ".checkpoint.parquet") {
		return "", fmt.Errorf("injected: the store is full")
	}
	return s.Storage.PutIfAbsent(ctx, key, data)
}

// TestFailedCheckpointKeepsTheBatch: a checkpoint that cannot be written is
// reported, and the batch's version stands: the batch is not redone.
func TestFailedCheckpointKeepsTheBatch(t *testing.T) {
	ctx := context.Background()
	store := local.New(t.TempDir())
	var failed []string
	l := delta.New(failingCheckpoints{store}, delta.Config{Columns: columns, CheckpointInterval: 1,
		CheckpointFailed: func(err error) { failed = append(failed, err.Error()) }})
	if err := l.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(ctx, "orders", 1, nil, putFiles(t, store, 1, "orders-1-0.parquet")); err != nil {
		t.Fatalf("a failed checkpoint failed the batch: %v", err)
	}
	if len(failed) != 1 || !strings.Contains(failed[0], "write _delta_log/00000000000000000001.checkpoint.parquet: injected") {
		t.Errorf("reported %q", failed)
	}
	if tb := replay(t, store); tb.Txns["orders"] != 1 || tb.Checkpoint != -1 {
		t.Errorf("txns %v, checkpoint %d", tb.Txns, tb.Checkpoint)
	}
}
