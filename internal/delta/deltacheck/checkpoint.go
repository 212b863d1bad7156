package deltacheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"

	"github.com/parquet-go/parquet-go"

	"github.com/streamctl/streamctl/providers"
)

// checkpointRow is a row of a checkpoint as the protocol's Checkpoint
// Schema has it: one action a row, the other columns null. It is read by
// parquet-go, not by the writer's code.
type checkpointRow struct {
	Txn *struct {
		AppID   string `parquet:"appId"`
		Version int64  `parquet:"version"`
	} `parquet:"txn,optional"`
	Add *struct {
		Path            string             `parquet:"path"`
		PartitionValues map[string]*string `parquet:"partitionValues"`
		Size            int64              `parquet:"size"`
		DataChange      bool               `parquet:"dataChange"`
		Stats           *string            `parquet:"stats,optional"`
	} `parquet:"add,optional"`
	Remove *struct {
		Path string `parquet:"path"`
	} `parquet:"remove,optional"`
	MetaData *struct {
		ID               string   `parquet:"id"`
		SchemaString     string   `parquet:"schemaString"`
		PartitionColumns []string `parquet:"partitionColumns,list"`
	} `parquet:"metaData,optional"`
	Protocol *struct {
		MinReaderVersion int32 `parquet:"minReaderVersion"`
		MinWriterVersion int32 `parquet:"minWriterVersion"`
	} `parquet:"protocol,optional"`
}

// Checkpoint is what a checkpoint file holds, read independently.
type Checkpoint struct {
	Version          int64
	Files            map[string]File // by decoded key
	Txns             map[string]int64
	PartitionColumns []string
	SchemaString     string
	Protocol         [2]int32
}

// ReadCheckpoint reads the checkpoint _last_checkpoint names, checking it
// against the protocol's rules: _last_checkpoint's version and size are
// the checkpoint's, which holds one protocol, one metaData, at most one
// txn an application, and no add and remove of one path; found is false
// when the log has no _last_checkpoint.
func ReadCheckpoint(ctx context.Context, store providers.Storage) (cp *Checkpoint, found bool, err error) {
	data, _, err := providers.ReadAll(ctx, store, "_delta_log/_last_checkpoint")
	if errors.Is(err, providers.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var last struct {
		Version *int64 `json:"version"`
		Size    *int64 `json:"size"`
		Parts   *int   `json:"parts"`
	}
	if err := json.Unmarshal(data, &last); err != nil || last.Version == nil || last.Size == nil {
		return nil, true, fmt.Errorf("_last_checkpoint %q needs version and size", data)
	}
	// A checkpoint in parts is <v>.checkpoint.<part>.<parts>.parquet, each
	// number of 10 digits, its rows the parts' in order.
	key := fmt.Sprintf("_delta_log/%020d.checkpoint.parquet", *last.Version)
	keys := []string{key}
	if last.Parts != nil {
		keys = nil
		for p := 1; p <= *last.Parts; p++ {
			keys = append(keys, fmt.Sprintf("_delta_log/%020d.checkpoint.%010d.%010d.parquet", *last.Version, p, *last.Parts))
		}
	}
	var rows []checkpointRow
	for _, k := range keys {
		file, _, err := providers.ReadAll(ctx, store, k)
		if err != nil {
			return nil, true, fmt.Errorf("_last_checkpoint names version %d: %w", *last.Version, err)
		}
		part, err := parquet.Read[checkpointRow](bytes.NewReader(file), int64(len(file)))
		if err != nil {
			return nil, true, fmt.Errorf("read %s: %w", k, err)
		}
		rows = append(rows, part...)
	}
	var problems []error
	fail := func(format string, args ...any) { problems = append(problems, fmt.Errorf(key+": "+format, args...)) }
	if int64(len(rows)) != *last.Size {
		fail("%d actions, and _last_checkpoint says %d", len(rows), *last.Size)
	}
	cp = &Checkpoint{Version: *last.Version, Files: map[string]File{}, Txns: map[string]int64{}}
	removed := map[string]bool{}
	protocols, metas := 0, 0
	for i, r := range rows {
		set := 0
		for _, present := range []bool{r.Txn != nil, r.Add != nil, r.Remove != nil, r.MetaData != nil, r.Protocol != nil} {
			if present {
				set++
			}
		}
		if set != 1 {
			fail("row %d holds %d actions, want one", i, set)
			continue
		}
		switch {
		case r.Protocol != nil:
			protocols++
			cp.Protocol = [2]int32{r.Protocol.MinReaderVersion, r.Protocol.MinWriterVersion}
		case r.MetaData != nil:
			metas++
			cp.SchemaString, cp.PartitionColumns = r.MetaData.SchemaString, r.MetaData.PartitionColumns
		case r.Txn != nil:
			if _, dup := cp.Txns[r.Txn.AppID]; dup {
				fail("two txn actions of %q", r.Txn.AppID)
			}
			cp.Txns[r.Txn.AppID] = r.Txn.Version
		case r.Add != nil:
			k, err := url.PathUnescape(r.Add.Path)
			if err != nil {
				fail("add path %q: %v", r.Add.Path, err)
				continue
			}
			if _, dup := cp.Files[k]; dup {
				fail("two adds of %s", k)
			}
			f := File{Key: k, Size: r.Add.Size, Records: -1, PartitionValues: map[string]*string{}}
			maps.Copy(f.PartitionValues, r.Add.PartitionValues)
			if r.Add.Stats != nil {
				var st struct {
					NumRecords int64 `json:"numRecords"`
				}
				if json.Unmarshal([]byte(*r.Add.Stats), &st) != nil {
					fail("add %s: stats %q", k, *r.Add.Stats)
				}
				f.Records = st.NumRecords
			}
			cp.Files[k] = f
		case r.Remove != nil:
			k, _ := url.PathUnescape(r.Remove.Path)
			removed[k] = true
		}
	}
	if protocols != 1 || metas != 1 {
		fail("%d protocol and %d metaData actions, want one each", protocols, metas)
	}
	for k := range removed {
		if _, ok := cp.Files[k]; ok {
			fail("%s is both added and removed", k)
		}
	}
	return cp, true, errors.Join(problems...)
}
