package delta

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/internal/format"
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

// checkpointColumns is the protocol's checkpoint schema for the actions a
// checkpoint holds (the table's protocol, metaData, each application's
// latest txn, the snapshot's add actions and the remove tombstones): a
// struct column an action, each row one action with the other columns
// null. They are written by the project's Parquet writer, each row the
// action's JSON as the log has it: the column names are the actions' and
// their fields'.
var checkpointColumns = []format.Column{
	{Name: "txn", Type: "struct<appId:string,version:int64,lastUpdated:int64>"},
	{Name: "add", Type: "struct<path:string,partitionValues:map<string,string>,size:int64,modificationTime:int64,dataChange:bool,stats:string,tags:map<string,string>>"},
	{Name: "remove", Type: "struct<path:string,deletionTimestamp:int64,dataChange:bool,extendedFileMetadata:bool,partitionValues:map<string,string>,size:int64,tags:map<string,string>>"},
	{Name: "metaData", Type: "struct<id:string,name:string,description:string,format:struct<provider:string,options:map<string,string>>,schemaString:string,partitionColumns:list<string>,configuration:map<string,string>,createdTime:int64>"},
	{Name: "protocol", Type: "struct<minReaderVersion:int32,minWriterVersion:int32,readerFeatures:list<string>,writerFeatures:list<string>>"},
}

// checkpointFormat is the checkpoints' Parquet format: snappy, which every
// Delta reader takes (Spark's own checkpoints use it).
var checkpointFormat = sync.OnceValues(func() (*format.Format, error) {
	schema, err := format.NewSchema(checkpointColumns)
	if err != nil {
		return nil, err
	}
	return format.NewFormat(schema, format.Options{Format: format.Parquet, Compression: "snappy"})
})

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
	actions := []Action{{Protocol: l.protocol}, {MetaData: l.meta}}
	for _, app := range sortedKeysOf(l.txns) {
		t := l.txns[app]
		actions = append(actions, Action{Txn: &t})
	}
	for _, p := range sortedKeysOf(l.files) {
		a := *l.files[p]
		// In a checkpoint an add changes no data: it is the state.
		a.DataChange = false
		a.PartitionValues = partitionMap(a.PartitionValues)
		actions = append(actions, Action{Add: &a})
	}
	for _, p := range sortedKeysOf(l.removed) {
		r := *l.removed[p]
		r.DataChange = false
		actions = append(actions, Action{Remove: &r})
	}
	f, err := checkpointFormat()
	if err != nil {
		return nil, LastCheckpoint{}, err
	}
	x, err := format.NewExtractor(f.Schema().Fields())
	if err != nil {
		return nil, LastCheckpoint{}, err
	}
	var buf bytes.Buffer
	enc := f.NewEncoder(&buf)
	vals := make([]format.Value, len(checkpointColumns))
	for _, a := range actions {
		row, err := json.Marshal(a)
		if err == nil {
			err = x.Extract(&providers.Record{Value: row}, vals)
		}
		if err == nil {
			err = enc.Append(row, vals)
		}
		if err != nil {
			enc.Abort()
			return nil, LastCheckpoint{}, fmt.Errorf("encode the action %s: %w", row, err)
		}
	}
	if err := enc.Close(); err != nil {
		return nil, LastCheckpoint{}, err
	}
	data := buf.Bytes()
	return data, LastCheckpoint{Version: v, Size: int64(len(actions)), SizeInBytes: int64(len(data)), NumOfAddFiles: int64(len(l.files))}, nil
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func partitionMap(m map[string]*string) map[string]*string {
	if m == nil {
		return map[string]*string{}
	}
	return m
}
