package delta

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

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
	var actions []Action
	for _, key := range keys {
		file, _, err := providers.ReadAll(ctx, l.store, key)
		if err != nil {
			return fmt.Errorf("%s names version %d: read %s: %w", LastCheckpointKey, v, key, err)
		}
		part, err := checkpointActions(ctx, file)
		if err != nil {
			return fmt.Errorf("read %s: %w", key, err)
		}
		actions = append(actions, part...)
	}
	if last.Size != nil && int64(len(actions)) != *last.Size {
		return fmt.Errorf("the checkpoint of version %d holds %d actions, and %s says %d", v, len(actions), LastCheckpointKey, *last.Size)
	}
	protocols, metas := 0, 0
	for _, a := range actions {
		if a.Protocol != nil {
			protocols++
		}
		if a.MetaData != nil {
			metas++
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

// checkpointActions reads a checkpoint file's actions, a row each, with
// arrow-go's Parquet reader (which the binary has for Iceberg already).
// The protocol's checkpoint schema is read by column and field name, so
// that another writer's columns in another order, its fields left out and
// its extra columns (cdc, domainMetadata, checkpointMetadata, sidecar) are
// taken; a row holding none of the five actions streamctl reads is
// counted, and left out.
func checkpointActions(ctx context.Context, data []byte) ([]Action, error) {
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 4096}, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	tbl, err := fr.ReadTable(ctx)
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	rows := make([]Action, tbl.NumRows())
	schema := tbl.Schema()
	for c := range schema.NumFields() {
		name := schema.Field(c).Name
		offset := 0
		for _, chunk := range tbl.Column(c).Data().Chunks() {
			st, ok := chunk.(*array.Struct)
			if !ok {
				offset += chunk.Len()
				continue
			}
			for i := range st.Len() {
				if st.IsValid(i) {
					readAction(name, structRow{st, i}, &rows[offset+i])
				}
			}
			offset += st.Len()
		}
	}
	return rows, nil
}

// readAction sets the action of column name from row r.
func readAction(name string, r structRow, a *Action) {
	switch name {
	case "txn":
		a.Txn = &Txn{AppID: r.str("appId"), Version: r.int("version"), LastUpdated: r.intPtr("lastUpdated")}
	case "add":
		a.Add = &Add{Path: r.str("path"), PartitionValues: r.strMap("partitionValues"), Size: r.int("size"),
			ModificationTime: r.int("modificationTime"), DataChange: r.bool("dataChange"), Stats: r.str("stats")}
		if a.Add.PartitionValues == nil {
			a.Add.PartitionValues = map[string]*string{}
		}
	case "remove":
		a.Remove = &Remove{Path: r.str("path"), DeletionTimestamp: r.intPtr("deletionTimestamp"), DataChange: r.bool("dataChange"),
			PartitionValues: r.strMap("partitionValues"), Size: r.intPtr("size")}
		if r.valid("extendedFileMetadata") {
			b := r.bool("extendedFileMetadata")
			a.Remove.ExtendedFileMetadata = &b
		}
	case "metaData":
		m := &MetaData{ID: r.str("id"), SchemaString: r.str("schemaString"), PartitionColumns: nonNil(r.strList("partitionColumns")),
			Configuration: derefMap(r.strMap("configuration")), CreatedTime: r.intPtr("createdTime"), Format: Format{Options: map[string]string{}}}
		if f, ok := r.child("format"); ok {
			m.Format = Format{Provider: f.str("provider"), Options: derefMap(f.strMap("options"))}
		}
		a.MetaData = m
	case "protocol":
		a.Protocol = &Protocol{MinReaderVersion: int(r.int("minReaderVersion")), MinWriterVersion: int(r.int("minWriterVersion")),
			ReaderFeatures: r.strList("readerFeatures"), WriterFeatures: r.strList("writerFeatures")}
	}
}

// structRow is row i of a struct column; its getters give a missing or
// null field's zero value.
type structRow struct {
	s *array.Struct
	i int
}

func (r structRow) field(name string) (arrow.Array, bool) {
	idx, ok := r.s.DataType().(*arrow.StructType).FieldIdx(name)
	if !ok {
		return nil, false
	}
	f := r.s.Field(idx)
	return f, f.IsValid(r.i)
}

func (r structRow) valid(name string) bool {
	_, ok := r.field(name)
	return ok
}

func (r structRow) child(name string) (structRow, bool) {
	f, ok := r.field(name)
	st, isStruct := f.(*array.Struct)
	return structRow{st, r.i}, ok && isStruct
}

func (r structRow) str(name string) string {
	f, ok := r.field(name)
	if !ok {
		return ""
	}
	s, _ := stringAt(f, r.i)
	return s
}

func (r structRow) int(name string) int64 {
	p := r.intPtr(name)
	if p == nil {
		return 0
	}
	return *p
}

func (r structRow) intPtr(name string) *int64 {
	f, ok := r.field(name)
	if !ok {
		return nil
	}
	var n int64
	switch a := f.(type) {
	case *array.Int64:
		n = a.Value(r.i)
	case *array.Int32:
		n = int64(a.Value(r.i))
	default:
		return nil
	}
	return &n
}

func (r structRow) bool(name string) bool {
	f, ok := r.field(name)
	b, isBool := f.(*array.Boolean)
	return ok && isBool && b.Value(r.i)
}

func (r structRow) strMap(name string) map[string]*string {
	f, ok := r.field(name)
	m, isMap := f.(*array.Map)
	if !ok || !isMap {
		return nil
	}
	start, end := m.ValueOffsets(r.i)
	out := make(map[string]*string, end-start)
	for j := int(start); j < int(end); j++ {
		k, _ := stringAt(m.Keys(), j)
		if v, ok := stringAt(m.Items(), j); ok {
			out[k] = &v
		} else {
			out[k] = nil
		}
	}
	return out
}

func (r structRow) strList(name string) []string {
	f, ok := r.field(name)
	l, isList := f.(*array.List)
	if !ok || !isList {
		return nil
	}
	start, end := l.ValueOffsets(r.i)
	out := make([]string, 0, end-start)
	for j := int(start); j < int(end); j++ {
		s, _ := stringAt(l.ListValues(), j)
		out = append(out, s)
	}
	return out
}

// stringAt is a string column's value j (a binary column's, for writers
// that leave out the UTF8 annotation); ok is false for a null.
func stringAt(a arrow.Array, j int) (string, bool) {
	if a.IsNull(j) {
		return "", false
	}
	switch a := a.(type) {
	case *array.String:
		return a.Value(j), true
	case *array.LargeString:
		return a.Value(j), true
	case *array.Binary:
		return string(a.Value(j)), true
	}
	return "", false
}
