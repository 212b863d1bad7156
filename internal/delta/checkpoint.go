package delta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/providers"
)

// DefaultCheckpointInterval is how many versions apart checkpoints are when
// neither the sink nor the table (delta.checkpointInterval) says: Delta's
// own default.
const DefaultCheckpointInterval = 10

// LastCheckpointKey is the log's pointer to its latest checkpoint.
const LastCheckpointKey = LogDir + "/_last_checkpoint"

// CheckpointKey is the classic single-file checkpoint of version v.
func CheckpointKey(v int64) string { return fmt.Sprintf("%s/%020d.checkpoint.parquet", LogDir, v) }

// LastCheckpoint is _last_checkpoint's content.
type LastCheckpoint struct {
	Version       int64 `json:"version"`
	Size          int64 `json:"size"` // actions (rows) in the checkpoint
	SizeInBytes   int64 `json:"sizeInBytes"`
	NumOfAddFiles int64 `json:"numOfAddFiles"`
}

// checkpointSchema is the protocol's checkpoint schema for the actions a
// checkpoint holds (the table's protocol, metaData, each application's
// latest txn, the snapshot's add actions and the remove tombstones): a
// struct column an action, each row one action with the other columns
// null.
func checkpointSchema() []*node {
	return []*node{
		group("txn", leaf("appId", nodeString), leaf("version", nodeLong), leaf("lastUpdated", nodeLong)),
		group("add", leaf("path", nodeString), leaf("partitionValues", nodeMap), leaf("size", nodeLong),
			leaf("modificationTime", nodeLong), leaf("dataChange", nodeBool), leaf("stats", nodeString), leaf("tags", nodeMap)),
		group("remove", leaf("path", nodeString), leaf("deletionTimestamp", nodeLong), leaf("dataChange", nodeBool),
			leaf("extendedFileMetadata", nodeBool), leaf("partitionValues", nodeMap), leaf("size", nodeLong), leaf("tags", nodeMap)),
		group("metaData", leaf("id", nodeString), leaf("name", nodeString), leaf("description", nodeString),
			group("format", leaf("provider", nodeString), leaf("options", nodeMap)),
			leaf("schemaString", nodeString), leaf("partitionColumns", nodeList), leaf("configuration", nodeMap), leaf("createdTime", nodeLong)),
		group("protocol", leaf("minReaderVersion", nodeInt), leaf("minWriterVersion", nodeInt),
			leaf("readerFeatures", nodeList), leaf("writerFeatures", nodeList)),
	}
}

// checkpointInterval is how many versions apart the log's checkpoints are.
func (l *Log) checkpointInterval() int64 {
	if l.cfg.CheckpointInterval > 0 {
		return l.cfg.CheckpointInterval
	}
	if l.meta != nil {
		if n, err := strconv.ParseInt(l.meta.Configuration["delta.checkpointInterval"], 10, 64); err == nil && n > 0 {
			return n
		}
	}
	return DefaultCheckpointInterval
}

// maybeCheckpoint writes the checkpoint of version v, the log's last, when
// v is a multiple of the interval; the caller holds l.mu. A checkpoint
// only saves readers the replay of the versions before it: one that cannot
// be written is left out, and the committed version stands. Both writes
// are whole objects: the checkpoint is created once (a racing writer's of
// the same version is the same state), then _last_checkpoint is replaced.
// Killed between them, _last_checkpoint names the previous checkpoint,
// from which readers list on and find this one, or replay its versions.
func (l *Log) maybeCheckpoint(ctx context.Context, v int64) error {
	if v <= 0 || v%l.checkpointInterval() != 0 {
		return nil
	}
	data, last, err := l.checkpoint(v)
	if err != nil {
		return fmt.Errorf("write the checkpoint of Delta version %d: %w", v, err)
	}
	if _, err := l.store.PutIfAbsent(ctx, CheckpointKey(v), data); err != nil && !errors.Is(err, providers.ErrExist) {
		return fmt.Errorf("write %s: %w", CheckpointKey(v), err)
	}
	fault.Point("delta-checkpoint")
	pointer, err := json.Marshal(last)
	if err != nil {
		return err
	}
	if err := providers.Put(ctx, l.store, LastCheckpointKey, pointer); err != nil {
		return fmt.Errorf("write %s: %w", LastCheckpointKey, err)
	}
	return nil
}

// checkpoint encodes the snapshot at version v as a checkpoint file.
func (l *Log) checkpoint(v int64) ([]byte, LastCheckpoint, error) {
	w := newNestedWriter(checkpointSchema()...)
	w.add(map[string]any{"protocol": map[string]any{
		"minReaderVersion": int32(l.protocol.MinReaderVersion), "minWriterVersion": int32(l.protocol.MinWriterVersion),
		"readerFeatures": nilIfEmpty(l.protocol.ReaderFeatures), "writerFeatures": nilIfEmpty(l.protocol.WriterFeatures),
	}})
	m := l.meta
	meta := map[string]any{
		"id": m.ID, "format": map[string]any{"provider": m.Format.Provider, "options": stringMap(m.Format.Options)},
		"schemaString": m.SchemaString, "partitionColumns": nonNil(m.PartitionColumns), "configuration": stringMap(m.Configuration),
	}
	if m.CreatedTime != nil {
		meta["createdTime"] = *m.CreatedTime
	}
	w.add(map[string]any{"metaData": meta})
	for _, app := range sortedKeysOf(l.txns) {
		t := l.txns[app]
		txn := map[string]any{"appId": t.AppID, "version": t.Version}
		if t.LastUpdated != nil {
			txn["lastUpdated"] = *t.LastUpdated
		}
		w.add(map[string]any{"txn": txn})
	}
	for _, p := range sortedKeysOf(l.files) {
		a := l.files[p]
		add := map[string]any{"path": a.Path, "partitionValues": partitionMap(a.PartitionValues), "size": a.Size,
			// In a checkpoint an add changes no data: it is the state.
			"modificationTime": a.ModificationTime, "dataChange": false}
		if a.Stats != "" {
			add["stats"] = a.Stats
		}
		w.add(map[string]any{"add": add})
	}
	for _, p := range sortedKeysOf(l.removed) {
		r := l.removed[p]
		rm := map[string]any{"path": r.Path, "dataChange": false}
		if r.DeletionTimestamp != nil {
			rm["deletionTimestamp"] = *r.DeletionTimestamp
		}
		if r.ExtendedFileMetadata != nil {
			rm["extendedFileMetadata"] = *r.ExtendedFileMetadata
		}
		if r.PartitionValues != nil {
			rm["partitionValues"] = partitionMap(r.PartitionValues)
		}
		if r.Size != nil {
			rm["size"] = *r.Size
		}
		w.add(map[string]any{"remove": rm})
	}
	data, err := w.write()
	if err != nil {
		return nil, LastCheckpoint{}, err
	}
	return data, LastCheckpoint{Version: v, Size: w.rows, SizeInBytes: int64(len(data)), NumOfAddFiles: int64(len(l.files))}, nil
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func stringMap(m map[string]string) map[string]*string {
	out := make(map[string]*string, len(m))
	for k, v := range m {
		out[k] = &v
	}
	return out
}

func partitionMap(m map[string]*string) map[string]*string {
	if m == nil {
		return map[string]*string{}
	}
	return m
}
