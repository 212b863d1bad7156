package delta

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/parquet-go/parquet-go"

	"github.com/streamctl/streamctl/providers"
)

// FeatureV2Checkpoint is the table feature of V2 checkpoints (UUID-named,
// with sidecar files), which streamctl does not read.
const FeatureV2Checkpoint = "v2Checkpoint"

// CheckpointPartKey is part (from 1) of a multi-part checkpoint of version
// v in parts parts, as other writers name them.
func CheckpointPartKey(v int64, part, parts int) string {
	return fmt.Sprintf("%s/%020d.checkpoint.%010d.%010d.parquet", LogDir, v, part, parts)
}

// lastCheckpointFile is _last_checkpoint as other writers may write it:
// parts for a multi-part checkpoint, v2Checkpoint for a V2 one.
type lastCheckpointFile struct {
	Version      *int64          `json:"version"`
	Size         *int64          `json:"size"`
	Parts        *int            `json:"parts"`
	V2Checkpoint json.RawMessage `json:"v2Checkpoint"`
}

// checkpointRow is a row of a checkpoint as the protocol's checkpoint
// schema has it: one action a row, the other columns null. Columns other
// writers add (cdc, domainMetadata, checkpointMetadata, sidecar) are not
// read; a V2 checkpoint is refused by its protocol before its rows matter.
type checkpointRow struct {
	Txn *struct {
		AppID       string `parquet:"appId"`
		Version     int64  `parquet:"version"`
		LastUpdated *int64 `parquet:"lastUpdated,optional"`
	} `parquet:"txn,optional"`
	Add *struct {
		Path             string             `parquet:"path"`
		PartitionValues  map[string]*string `parquet:"partitionValues"`
		Size             int64              `parquet:"size"`
		ModificationTime int64              `parquet:"modificationTime"`
		Stats            *string            `parquet:"stats,optional"`
	} `parquet:"add,optional"`
	Remove *struct {
		Path                 string             `parquet:"path"`
		DeletionTimestamp    *int64             `parquet:"deletionTimestamp,optional"`
		ExtendedFileMetadata *bool              `parquet:"extendedFileMetadata,optional"`
		PartitionValues      map[string]*string `parquet:"partitionValues"`
		Size                 *int64             `parquet:"size,optional"`
	} `parquet:"remove,optional"`
	MetaData *struct {
		ID     string `parquet:"id"`
		Format *struct {
			Provider string             `parquet:"provider"`
			Options  map[string]*string `parquet:"options"`
		} `parquet:"format,optional"`
		SchemaString     string             `parquet:"schemaString"`
		PartitionColumns []string           `parquet:"partitionColumns,list"`
		Configuration    map[string]*string `parquet:"configuration"`
		CreatedTime      *int64             `parquet:"createdTime,optional"`
	} `parquet:"metaData,optional"`
	Protocol *struct {
		MinReaderVersion int32    `parquet:"minReaderVersion"`
		MinWriterVersion int32    `parquet:"minWriterVersion"`
		ReaderFeatures   []string `parquet:"readerFeatures,list"`
		WriterFeatures   []string `parquet:"writerFeatures,list"`
	} `parquet:"protocol,optional"`
}

// errNoCheckpoint is the log without _last_checkpoint.
var errNoCheckpoint = errors.New("no _last_checkpoint")

// readCheckpoint reads the checkpoint _last_checkpoint names into the
// snapshot (l.version is its version), and checks it: the checkpoint's
// files are there, hold _last_checkpoint's number of actions, one protocol
// and one metaData. It returns errNoCheckpoint without _last_checkpoint,
// and the reason otherwise, for the caller to replay the log instead; a
// table whose protocol needs V2 checkpoints is refused (a
// *v2CheckpointError): streamctl neither reads nor writes them.
func (l *Log) readCheckpoint(ctx context.Context) error {
	data, _, err := providers.ReadAll(ctx, l.store, LastCheckpointKey)
	if errors.Is(err, providers.ErrNotExist) {
		return errNoCheckpoint
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", LastCheckpointKey, err)
	}
	var last lastCheckpointFile
	if err := json.Unmarshal(data, &last); err != nil || last.Version == nil || *last.Version < 0 {
		return fmt.Errorf("%s holds %q, not a checkpoint's version", LastCheckpointKey, data)
	}
	v := *last.Version
	if len(last.V2Checkpoint) > 0 && string(last.V2Checkpoint) != "null" {
		return &v2CheckpointError{version: v}
	}
	keys := []string{CheckpointKey(v)}
	if last.Parts != nil && *last.Parts > 1 {
		keys = keys[:0]
		for p := 1; p <= *last.Parts; p++ {
			keys = append(keys, CheckpointPartKey(v, p, *last.Parts))
		}
	}
	var rows []checkpointRow
	for _, key := range keys {
		file, _, err := providers.ReadAll(ctx, l.store, key)
		if err != nil {
			return fmt.Errorf("%s names version %d: read %s: %w", LastCheckpointKey, v, key, err)
		}
		part, err := parquet.Read[checkpointRow](bytes.NewReader(file), int64(len(file)))
		if err != nil {
			return fmt.Errorf("read %s: %w", key, err)
		}
		rows = append(rows, part...)
	}
	if last.Size != nil && int64(len(rows)) != *last.Size {
		return fmt.Errorf("the checkpoint of version %d holds %d actions, and %s says %d", v, len(rows), LastCheckpointKey, *last.Size)
	}
	var actions []Action
	protocols, metas := 0, 0
	for _, r := range rows {
		switch {
		case r.Protocol != nil:
			protocols++
			p := r.Protocol
			actions = append(actions, Action{Protocol: &Protocol{MinReaderVersion: int(p.MinReaderVersion), MinWriterVersion: int(p.MinWriterVersion),
				ReaderFeatures: p.ReaderFeatures, WriterFeatures: p.WriterFeatures}})
		case r.MetaData != nil:
			metas++
			m := r.MetaData
			meta := &MetaData{ID: m.ID, SchemaString: m.SchemaString, PartitionColumns: nonNil(m.PartitionColumns),
				Configuration: derefMap(m.Configuration), CreatedTime: m.CreatedTime, Format: Format{Options: map[string]string{}}}
			if m.Format != nil {
				meta.Format = Format{Provider: m.Format.Provider, Options: derefMap(m.Format.Options)}
			}
			actions = append(actions, Action{MetaData: meta})
		case r.Txn != nil:
			actions = append(actions, Action{Txn: &Txn{AppID: r.Txn.AppID, Version: r.Txn.Version, LastUpdated: r.Txn.LastUpdated}})
		case r.Add != nil:
			a := r.Add
			add := &Add{Path: a.Path, PartitionValues: a.PartitionValues, Size: a.Size, ModificationTime: a.ModificationTime}
			if add.PartitionValues == nil {
				add.PartitionValues = map[string]*string{}
			}
			if a.Stats != nil {
				add.Stats = *a.Stats
			}
			actions = append(actions, Action{Add: add})
		case r.Remove != nil:
			a := r.Remove
			actions = append(actions, Action{Remove: &Remove{Path: a.Path, DeletionTimestamp: a.DeletionTimestamp,
				ExtendedFileMetadata: a.ExtendedFileMetadata, PartitionValues: a.PartitionValues, Size: a.Size}})
		}
	}
	if protocols != 1 || metas != 1 {
		return fmt.Errorf("the checkpoint of version %d holds %d protocol and %d metaData actions, not one of each", v, protocols, metas)
	}
	for _, a := range actions {
		if a.Protocol != nil && (slices.Contains(a.Protocol.ReaderFeatures, FeatureV2Checkpoint) || slices.Contains(a.Protocol.WriterFeatures, FeatureV2Checkpoint)) {
			return &v2CheckpointError{version: v}
		}
	}
	l.apply(v, actions)
	// The checkpoint's commitInfo is not kept: the batches plan lists
	// start after it (see Inspect).
	l.checkpointVersion = v
	return nil
}

// v2CheckpointError refuses a table whose checkpoints are V2.
type v2CheckpointError struct{ version int64 }

func (e *v2CheckpointError) Error() string {
	return fmt.Sprintf("the Delta table's protocol requires the table feature %s (V2 checkpoints, named by a UUID, with sidecar files; its checkpoint of version %d is one), which streamctl neither reads nor writes: write this sink to another table", FeatureV2Checkpoint, e.version)
}

func derefMap(m map[string]*string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		if v != nil {
			out[k] = *v
		}
	}
	return out
}
