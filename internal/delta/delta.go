// Package delta writes the commit side of the Delta Lake transaction log
// (delta-io/delta PROTOCOL.md) over a destination's storage: the table is
// the destination's folder, its log is _delta_log/<20-digit version>.json,
// newline-delimited actions.
//
// Version 0 holds the table's protocol (reader 1, writer 2) and metaData
// (the sink's columns as a Spark StructType, its identity partitions). Each
// batch is one later version with its files' add actions and a txn action
// {appId: the sink, version: the batch}: the protocol's transaction
// identifiers, which make the append idempotent. A sharded sink's shards
// are writers of their own, each its appId (orders/shard-3). A version is
// written create-only (PutIfAbsent), never renamed into place, so that
// exactly one of racing writers gets it. A writer that loses a version
// reads it: its own txn there means the batch is in (a lost answer, a
// retry after a crash); otherwise the winner's actions are checked as the
// protocol's conflict rules say for a blind append (another append does
// not conflict; another writer of the same appId does, and so does a
// protocol or metaData change after which the batch no longer fits the
// table), and the next version is tried after a jittered wait.
//
// Every few versions a checkpoint follows (checkpoint.go), written by the
// project's Parquet writer, whose nested columns express the protocol's
// checkpoint schema. The log is read from the checkpoint _last_checkpoint
// names (readcheckpoint.go; classic or multi-part) and the versions after
// it, so that reading a long-lived table costs the versions since its last
// checkpoint, not its history; a checkpoint that cannot be read is passed
// over with a warning, and the log replayed from version 0. V2 checkpoints
// are refused.
package delta

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/partition"
	"github.com/streamctl/streamctl/providers"
)

// LogDir is the folder of the transaction log in the table's folder.
const LogDir = "_delta_log"

// The protocol versions streamctl writes: reader 1 and writer 2 (append
// only and column invariants, which streamctl's tables do not declare).
const (
	ReaderVersion = 1
	WriterVersion = 2
)

// maxAttempts bounds the versions one commit tries before it gives up: each
// lost race is another writer's commit, so this many in a row means a table
// written far faster than streamctl can follow.
const maxAttempts = 100

// VersionKey is the log entry of version v.
func VersionKey(v int64) string { return fmt.Sprintf("%s/%020d.json", LogDir, v) }

// Config is the table streamctl writes: the sink's columns and its
// identity partition columns, in order.
type Config struct {
	Columns     []format.Column
	PartitionBy []string
	// CheckpointInterval is how many versions apart checkpoints are; 0
	// takes the table's delta.checkpointInterval, else 10.
	CheckpointInterval int64
	// CheckpointFailed, if set, hears of a checkpoint that could not be
	// written (the batch's version is committed all the same). It is
	// called with the log locked, and must not call it.
	CheckpointFailed func(error)
	// Warn, if set, hears of a checkpoint passed over when the log is
	// read; it is called with the log locked, and must not call it.
	Warn func(string)
}

// File is a data file of a batch, as the destination holds it.
type File struct {
	Key     string // relative to the table's folder, not encoded
	Size    int64
	Records int64
	// Footer is the file's Parquet footer, for its statistics; without
	// it the add action's stats hold numRecords only.
	Footer []byte
}

// CommitInfoKey is the key of BatchInfo in the commitInfo of a batch's
// version.
const CommitInfoKey = "streamctl"

// BatchInfo is what a batch's version records of it besides its txn.
type BatchInfo struct {
	Sink   string          `json:"sink"`
	Batch  int64           `json:"batch"`
	Ranges json.RawMessage `json:"ranges,omitempty"`
}

// Action is one line of a log entry. Fields streamctl does not read are
// kept out: a reader of the log ignores what it does not know.
type Action struct {
	Protocol   *Protocol      `json:"protocol,omitempty"`
	MetaData   *MetaData      `json:"metaData,omitempty"`
	Add        *Add           `json:"add,omitempty"`
	Remove     *Remove        `json:"remove,omitempty"`
	Txn        *Txn           `json:"txn,omitempty"`
	CommitInfo map[string]any `json:"commitInfo,omitempty"`
}

// Protocol is the protocol action.
type Protocol struct {
	MinReaderVersion int      `json:"minReaderVersion"`
	MinWriterVersion int      `json:"minWriterVersion"`
	ReaderFeatures   []string `json:"readerFeatures,omitempty"`
	WriterFeatures   []string `json:"writerFeatures,omitempty"`
}

// MetaData is the metaData action.
type MetaData struct {
	ID               string            `json:"id"`
	Format           Format            `json:"format"`
	SchemaString     string            `json:"schemaString"`
	PartitionColumns []string          `json:"partitionColumns"`
	Configuration    map[string]string `json:"configuration"`
	CreatedTime      *int64            `json:"createdTime,omitempty"`
}

// Format is metaData's format.
type Format struct {
	Provider string            `json:"provider"`
	Options  map[string]string `json:"options"`
}

// Add is the add action.
type Add struct {
	Path             string             `json:"path"`
	PartitionValues  map[string]*string `json:"partitionValues"`
	Size             int64              `json:"size"`
	ModificationTime int64              `json:"modificationTime"`
	DataChange       bool               `json:"dataChange"`
	Stats            string             `json:"stats,omitempty"`
}

// Remove is the remove action (read only: streamctl appends; another
// writer's removes are kept as tombstones in checkpoints).
type Remove struct {
	Path                 string             `json:"path"`
	DeletionTimestamp    *int64             `json:"deletionTimestamp,omitempty"`
	DataChange           bool               `json:"dataChange"`
	ExtendedFileMetadata *bool              `json:"extendedFileMetadata,omitempty"`
	PartitionValues      map[string]*string `json:"partitionValues,omitempty"`
	Size                 *int64             `json:"size,omitempty"`
}

// Txn is the txn action: a transaction identifier.
type Txn struct {
	AppID       string `json:"appId"`
	Version     int64  `json:"version"`
	LastUpdated *int64 `json:"lastUpdated,omitempty"`
}

// Log is a table's transaction log, as far as streamctl has read it. It is
// safe for concurrent use.
type Log struct {
	store providers.Storage
	cfg   Config
	now   func() time.Time

	mu      sync.Mutex
	version int64 // the last version read; -1 before the table exists
	// checkpointVersion is the checkpoint the snapshot was read from; -1
	// when the log was replayed from version 0.
	checkpointVersion int64
	loaded            bool
	protocol          *Protocol
	meta              *MetaData
	txns              map[string]Txn
	files             map[string]*Add    // the current snapshot's, by encoded path
	removed           map[string]*Remove // tombstones, by encoded path
	batches           map[string][]BatchVersion
}

// BatchVersion is a version that records a sink's batch in its commitInfo.
type BatchVersion struct {
	Version int64
	Batch   int64
	Ranges  json.RawMessage
}

// New is the log of the table in store's root; it reads nothing yet.
func New(store providers.Storage, cfg Config) *Log {
	return &Log{store: store, cfg: cfg, now: time.Now, version: -1, checkpointVersion: -1}
}

// SetStorage replaces the storage the log goes through (a wrapper of the
// same store, e.g. one that logs its requests).
func (l *Log) SetStorage(s providers.Storage) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.store = s
}

// Open creates the table when its log is empty (version 0: protocol and
// metaData), commits the sink's added nullable columns to its schema (a
// version with a metaData action) and refuses a table streamctl cannot
// append to: a protocol above writer version 2, another format, other
// partition columns, or columns changed otherwise.
func (l *Log) Open(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.refresh(ctx, nil); err != nil {
		return err
	}
	if l.version < 0 {
		schema, err := SchemaString(l.cfg.Columns)
		if err != nil {
			return err
		}
		created := l.now().UnixMilli()
		entry, err := encode([]Action{
			{CommitInfo: commitInfo(created, "CREATE TABLE", nil)},
			{Protocol: &Protocol{MinReaderVersion: ReaderVersion, MinWriterVersion: WriterVersion}},
			{MetaData: &MetaData{ID: newUUID(), Format: Format{Provider: "parquet", Options: map[string]string{}},
				SchemaString: schema, PartitionColumns: nonNil(l.cfg.PartitionBy), Configuration: map[string]string{}, CreatedTime: &created}},
		})
		if err != nil {
			return err
		}
		_, err = l.store.PutIfAbsent(ctx, VersionKey(0), entry)
		if err != nil && !errors.Is(err, providers.ErrExist) {
			return fmt.Errorf("create the Delta table: write %s: %w", VersionKey(0), err)
		}
		// Created by us or by a racing writer: read it as any other table.
		if err := l.refresh(ctx, nil); err != nil {
			return err
		}
	}
	if err := l.compatible(); err != nil {
		return err
	}
	return l.evolve(ctx)
}

// evolve commits the sink's added nullable columns (and required columns
// made nullable) to the table's schema, as a version of its own holding a
// metaData action, and refuses the differences no writer may make. A
// racing writer's version in between is read and the schemas compared
// again.
func (l *Log) evolve(ctx context.Context) error {
	for range maxAttempts {
		diff, err := l.schemaDiff()
		if err != nil {
			return err
		}
		if len(diff.Changes) == 0 {
			return nil
		}
		schema, err := json.Marshal(diff.Schema)
		if err != nil {
			return err
		}
		meta := *l.meta
		meta.SchemaString = string(schema)
		now := l.now().UnixMilli()
		operation := "CHANGE COLUMN"
		if strings.HasPrefix(diff.Changes[len(diff.Changes)-1], "add column") {
			operation = "ADD COLUMNS"
		}
		info := commitInfo(now, operation, map[string]any{"changes": strings.Join(diff.Changes, "; ")})
		info["isBlindAppend"] = false
		actions := []Action{{CommitInfo: info}, {MetaData: &meta}}
		entry, err := encode(actions)
		if err != nil {
			return err
		}
		next := l.version + 1
		_, err = l.store.PutIfAbsent(ctx, VersionKey(next), entry)
		if err == nil {
			l.apply(next, actions)
			return nil
		}
		if !errors.Is(err, providers.ErrExist) {
			return fmt.Errorf("change the Delta table's schema (%s): write version %d: %w", strings.Join(diff.Changes, ", "), next, err)
		}
		if err := l.refresh(ctx, nil); err != nil {
			return err
		}
		if err := l.compatible(); err != nil {
			return err
		}
	}
	return fmt.Errorf("change the Delta table's schema: %d versions in a row were taken by other writers; apply again later", maxAttempts)
}

// compatible refuses a table whose protocol, format, partitioning or schema
// the sink does not write (a schema it can evolve to the sink's columns is
// compatible).
func (l *Log) compatible() error {
	if problems := l.tableProblems(); len(problems) > 0 {
		return fmt.Errorf("%s", problems[0])
	}
	diff, err := l.schemaDiff()
	if err != nil {
		return err
	}
	if len(diff.Problems) > 0 {
		return fmt.Errorf("the sink's columns do not fit the Delta table: %s. Nothing was written. A Delta table takes only added nullable columns from the sink: restore the columns the table has, or write this sink to another table (another destination folder)", strings.Join(diff.Problems, "; "))
	}
	return nil
}

// tableProblems are the reasons the sink cannot write the table whatever
// its columns: protocol, file format, partitioning.
func (l *Log) tableProblems() []string {
	if l.protocol == nil || l.meta == nil {
		return []string{fmt.Sprintf("the Delta log has no protocol or metaData action up to version %d: not a table; move %s away to start a new one", l.version, LogDir)}
	}
	var out []string
	if l.protocol.MinWriterVersion > WriterVersion || len(l.protocol.WriterFeatures) > 0 {
		out = append(out, fmt.Sprintf("the Delta table needs writer version %d (features %q), and streamctl writes version %d: write this sink to another table", l.protocol.MinWriterVersion, l.protocol.WriterFeatures, WriterVersion))
	}
	if l.meta.Format.Provider != "parquet" {
		out = append(out, fmt.Sprintf("the Delta table's files are %q, and the sink writes Parquet: write this sink to another table", l.meta.Format.Provider))
	}
	if !slices.Equal(nonNil(l.meta.PartitionColumns), nonNil(l.cfg.PartitionBy)) {
		out = append(out, fmt.Sprintf("the Delta table is partitioned by %q, and the sink by %q: a table's partitioning cannot change; write this sink to another table or declare its partition_by", l.meta.PartitionColumns, l.cfg.PartitionBy))
	}
	return out
}

// schemaDiff compares the sink's columns with the table's schema.
func (l *Log) schemaDiff() (SchemaDiff, error) {
	d, err := CompareSchema(l.meta.SchemaString, l.cfg.Columns)
	if err != nil {
		return d, fmt.Errorf("the Delta table's metaData (version %d or before): %w", l.version, err)
	}
	return d, nil
}

// Inspection is the table as plan shows it, read without writing.
type Inspection struct {
	// Exists is false when the log has no version yet.
	Exists bool
	// Changes are the schema changes Open commits; Problems what refuses
	// the table (its protocol, partitioning, or columns changed otherwise).
	Changes  []string
	Problems []string
	// Batches are the versions recording the sink's batches, oldest first.
	Batches []BatchVersion
	// Version is the last version of the log.
	Version int64
}

// Inspect reads the log for plan, and writes nothing: a missing table is
// not created, and no schema change is committed. appID is the sink whose
// batches are listed: those from batch from on (the state's batch in
// flight, else its next), which plan adopts when the table has them ahead
// of the state, and the sink's last, which tells plan whether the table is
// behind. A log read from its checkpoint holds the commitInfo of the
// versions after it only: the versions before are read back from it as far
// as those batches need, not further.
func (l *Log) Inspect(ctx context.Context, appID string, from int64) (*Inspection, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.refresh(ctx, nil); err != nil {
		return nil, err
	}
	in := &Inspection{Exists: l.version >= 0, Version: l.version}
	if !in.Exists {
		return in, nil
	}
	in.Problems = l.tableProblems()
	if l.meta != nil {
		diff, err := l.schemaDiff()
		if err != nil {
			return nil, err
		}
		in.Changes, in.Problems = diff.Changes, append(in.Problems, diff.Problems...)
	}
	in.Batches = slices.Clone(l.batches[appID])
	if t, ok := l.txns[appID]; ok && l.checkpointVersion >= 0 && (len(in.Batches) == 0 || in.Batches[0].Batch > from) {
		older, err := l.batchesBefore(ctx, appID, from, len(in.Batches) > 0)
		if err != nil {
			return nil, err
		}
		if len(older) == 0 && len(in.Batches) == 0 {
			// Not found (cleaned up, or written by another writer without
			// streamctl's commitInfo): the checkpoint's txn, without ranges.
			older = []BatchVersion{{Version: l.checkpointVersion, Batch: t.Version}}
		}
		in.Batches = append(older, in.Batches...)
	}
	return in, nil
}

// batchesBefore reads the versions back from the checkpoint's, and lists
// appID's batches from batch from on, oldest first, and its last one when
// haveLast is false, whatever its number: a sink's batches follow one
// another in the log, so the first one found below from ends the reading.
func (l *Log) batchesBefore(ctx context.Context, appID string, from int64, haveLast bool) ([]BatchVersion, error) {
	var found []BatchVersion // newest first
	for v := l.checkpointVersion; v >= 0; v-- {
		data, _, err := providers.ReadAll(ctx, l.store, VersionKey(v))
		if errors.Is(err, providers.ErrNotExist) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read Delta version %d: %w", v, err)
		}
		actions, err := Decode(data)
		if err != nil {
			return nil, fmt.Errorf("read Delta version %d (%s): %w", v, VersionKey(v), err)
		}
		done := false
		for _, a := range actions {
			b, ok := batchInfo(a)
			if !ok || b.Sink != appID {
				continue
			}
			if b.Batch < from && (haveLast || len(found) > 0) {
				done = true
				break
			}
			found = append(found, BatchVersion{Version: v, Batch: b.Batch, Ranges: b.Ranges})
			done = b.Batch < from
		}
		if done {
			break
		}
	}
	slices.Reverse(found)
	return found, nil
}

// Committed reports whether the log holds appID's txn with a version of
// batch or later: the batch is in the table.
func (l *Log) Committed(ctx context.Context, appID string, batch int64) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.refresh(ctx, nil); err != nil {
		return false, err
	}
	t, ok := l.txns[appID]
	return ok && t.Version >= batch, nil
}

// LastTxn is the version of appID's latest txn (found is false when the log
// holds none).
func (l *Log) LastTxn(ctx context.Context, appID string) (version int64, found bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.refresh(ctx, nil); err != nil {
		return 0, false, err
	}
	t, ok := l.txns[appID]
	return t.Version, ok, nil
}

// Files lists the data files of the current snapshot, relative to the
// table's folder and decoded.
func (l *Log) Files(ctx context.Context) ([]string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.refresh(ctx, nil); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(l.files))
	for p := range l.files {
		k, err := url.PathUnescape(p)
		if err != nil {
			return nil, fmt.Errorf("decode the path %q of an add action: %w", p, err)
		}
		out = append(out, k)
	}
	slices.Sort(out)
	return out, nil
}

// Append commits files as one version with appID's txn at batch, unless
// the log holds that txn already. Open must have been called. ranges (JSON,
// the batch's source ranges) goes into the version's commitInfo, for plan
// to compare the table with the state.
func (l *Log) Append(ctx context.Context, appID string, batch int64, ranges json.RawMessage, files []File) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.meta == nil {
		return fmt.Errorf("the Delta table is not open")
	}
	var schema StructType
	if err := json.Unmarshal([]byte(l.meta.SchemaString), &schema); err != nil {
		// A field of a nested type: no statistics but numRecords.
		schema = StructType{}
	}
	adds := make([]Action, 0, len(files)+2)
	now := l.now().UnixMilli()
	info := commitInfo(now, "STREAMING UPDATE", map[string]any{"outputMode": "Append", "epochId": strconv.FormatInt(batch, 10)})
	info[CommitInfoKey] = BatchInfo{Sink: appID, Batch: batch, Ranges: ranges}
	adds = append(adds, Action{CommitInfo: info})
	adds = append(adds, Action{Txn: &Txn{AppID: appID, Version: batch, LastUpdated: &now}})
	for _, f := range files {
		pv, err := partitionValues(f.Key, l.meta.PartitionColumns)
		if err != nil {
			return err
		}
		st := FileStats{NumRecords: f.Records}
		if f.Footer != nil {
			// Statistics only speed readers up: a footer that does not
			// read leaves them out, and the batch is committed.
			if full, err := StatsFromFooter(f.Footer, f.Records, schema, l.meta.PartitionColumns); err == nil {
				st = full
			}
		}
		stats, err := statsJSON(st)
		if err != nil {
			return err
		}
		adds = append(adds, Action{Add: &Add{Path: EncodePath(f.Key), PartitionValues: pv, Size: f.Size, ModificationTime: now, DataChange: true, Stats: stats}})
	}
	entry, err := encode(adds)
	if err != nil {
		return err
	}
	for attempt := 1; attempt <= maxAttempts; attempt++ {
		if t, ok := l.txns[appID]; ok && t.Version >= batch {
			return nil
		}
		if attempt > 1 {
			// The shards of a sink commit to its one table at once: a
			// jittered wait spreads the ones that lost a version, so that
			// they do not race again for the next one in step.
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(conflictWait(attempt - 1)):
			}
			if err := l.refresh(ctx, nil); err != nil {
				return err
			}
			if t, ok := l.txns[appID]; ok && t.Version >= batch {
				return nil
			}
		}
		next := l.version + 1
		_, err := l.store.PutIfAbsent(ctx, VersionKey(next), entry)
		if err == nil {
			l.apply(next, adds)
			if err := l.maybeCheckpoint(ctx, next); err != nil && l.cfg.CheckpointFailed != nil {
				l.cfg.CheckpointFailed(err)
			}
			return nil
		}
		if !errors.Is(err, providers.ErrExist) {
			return fmt.Errorf("write Delta version %d: %w", next, err)
		}
		// Another writer took the version: read what it committed, as the
		// protocol's conflict rules say for a blind append. Our txn there
		// means the batch is in (a retry whose first answer was lost);
		// another append, another shard's or another sink's, does not
		// conflict; a protocol or metaData change does when the batch's
		// files no longer fit the table.
		var conflict error
		changed := int64(-1)
		err = l.refresh(ctx, func(v int64, actions []Action) {
			for _, a := range actions {
				switch {
				case conflict != nil:
				case a.Protocol != nil || a.MetaData != nil:
					changed = v
				case a.Txn != nil && a.Txn.AppID == appID && a.Txn.Version < batch:
					conflict = fmt.Errorf("version %d holds batch %d of %s from another writer while batch %d was committed: stop every other streamctl writing this sink", v, a.Txn.Version, appID, batch)
				}
			}
		})
		if err != nil {
			return err
		}
		if t, ok := l.txns[appID]; ok && t.Version >= batch {
			return nil
		}
		if conflict != nil {
			return conflict
		}
		if changed >= 0 {
			if err := l.stillFits(changed, batch); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("commit batch %d to the Delta table: %d versions in a row were taken by other writers; apply again later", batch, maxAttempts)
}

// stillFits checks the batch's files against the protocol and metaData
// another writer committed at version v while the batch was committed:
// the table must still take what the sink writes, its columns included.
func (l *Log) stillFits(v, batch int64) error {
	why := ""
	if problems := l.tableProblems(); len(problems) > 0 {
		why = problems[0]
	} else if diff, err := l.schemaDiff(); err != nil {
		why = err.Error()
	} else if len(diff.Problems)+len(diff.Changes) > 0 {
		why = "its schema lacks or changed the sink's columns: " + strings.Join(append(diff.Problems, diff.Changes...), "; ")
	}
	if why == "" {
		return nil
	}
	return fmt.Errorf("version %d, written by another writer while batch %d was committed, changes the table's protocol or metadata so that the batch no longer fits (%s); the batch is not in the table: run streamctl plan, then apply again", v, batch, why)
}

// conflictWait is how long a commit that lost its version to another
// writer waits before the next try: growing with the attempts, capped,
// and jittered so that racing writers spread out.
func conflictWait(attempt int) time.Duration {
	wait := min(time.Duration(attempt*attempt)*10*time.Millisecond, time.Second)
	return wait/2 + mrand.N(wait)
}

// refresh reads the log entries after the last version read, calling seen
// (if not nil) with each one's actions.
func (l *Log) refresh(ctx context.Context, seen func(v int64, actions []Action)) error {
	if !l.loaded {
		if err := l.load(ctx); err != nil {
			return err
		}
		l.loaded = true
	}
	for {
		v := l.version + 1
		data, _, err := providers.ReadAll(ctx, l.store, VersionKey(v))
		if errors.Is(err, providers.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read Delta version %d: %w", v, err)
		}
		actions, err := Decode(data)
		if err != nil {
			return fmt.Errorf("read Delta version %d (%s): %w", v, VersionKey(v), err)
		}
		l.apply(v, actions)
		if seen != nil {
			seen(v, actions)
		}
	}
}

// load reads the snapshot the log's last checkpoint holds, so that only
// the versions after it are read, not the whole history. A checkpoint that
// is missing, does not read, or is ahead of the log is passed over with a
// warning, and the log replayed from version 0.
func (l *Log) load(ctx context.Context) error {
	l.reset()
	err := l.readCheckpoint(ctx)
	if err == nil {
		err = l.checkpointInLog(ctx)
	}
	var v2 *v2CheckpointError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &v2):
		return err
	case !errors.Is(err, errNoCheckpoint):
		l.warn(fmt.Sprintf("%v; streamctl replays the Delta log from version 0 instead, and the next checkpoint replaces it", err))
	}
	l.reset()
	return l.checkStart(ctx, err)
}

// checkpointInLog refuses a checkpoint whose version's log entry is
// missing: the log was restored from an older copy, with a newer
// _last_checkpoint, or its last versions were deleted. Reading from the
// checkpoint would hide that (plan finds the table behind the state from
// the log), and committing after it would leave a gap of versions. Log
// cleanup removes the versions before a checkpoint, never its own.
func (l *Log) checkpointInLog(ctx context.Context) error {
	_, err := l.store.Stat(ctx, VersionKey(l.version))
	switch {
	case errors.Is(err, providers.ErrNotExist):
		return fmt.Errorf("%s names version %d, and the log has no %s (deleted, or the log restored from an older copy)", LastCheckpointKey, l.version, VersionKey(l.version))
	case err != nil:
		return fmt.Errorf("check the checkpoint's version %d in the log: %w", l.version, err)
	}
	return nil
}

// reset empties the snapshot, before anything is read.
func (l *Log) reset() {
	l.version, l.checkpointVersion = -1, -1
	l.protocol, l.meta = nil, nil
	l.txns = map[string]Txn{}
	l.files = map[string]*Add{}
	l.removed = map[string]*Remove{}
	l.batches = map[string][]BatchVersion{}
}

func (l *Log) warn(msg string) {
	if l.cfg.Warn != nil {
		l.cfg.Warn(msg)
	}
}

// checkStart refuses a log that does not start at version 0, when it is
// to be replayed from there: its start was cleaned up behind a checkpoint
// that cannot be read (why), or lost.
func (l *Log) checkStart(ctx context.Context, why error) error {
	first := ""
	err := l.store.List(ctx, LogDir+"/", func(info providers.ObjectInfo) error {
		name := strings.TrimPrefix(info.Key, LogDir+"/")
		if first == "" && strings.HasSuffix(name, ".json") && len(name) == 25 {
			first = info.Key
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("list %s: %w", LogDir, err)
	}
	switch {
	case first == "" || first == VersionKey(0):
		return nil
	case !errors.Is(why, errNoCheckpoint):
		return fmt.Errorf("the Delta log starts at %s, after a checkpoint, and the checkpoint cannot be read (%v): restore the checkpoint, or write this sink to another table", first, why)
	default:
		// Without version 0 the table has no protocol nor metadata to
		// read, and creating one would give it a second history.
		return fmt.Errorf("the Delta log starts at %s, without version 0 or a checkpoint: not a table streamctl can read; move %s away to start a new one", first, LogDir)
	}
}

// apply adds version v's actions to the snapshot.
func (l *Log) apply(v int64, actions []Action) {
	l.version = v
	for _, a := range actions {
		switch {
		case a.Protocol != nil:
			l.protocol = a.Protocol
		case a.MetaData != nil:
			l.meta = a.MetaData
		case a.Txn != nil:
			l.txns[a.Txn.AppID] = *a.Txn
		case a.Add != nil:
			l.files[a.Add.Path] = a.Add
			delete(l.removed, a.Add.Path)
		case a.Remove != nil:
			delete(l.files, a.Remove.Path)
			l.removed[a.Remove.Path] = a.Remove
		case a.CommitInfo != nil:
			if b, ok := batchInfo(a); ok {
				l.batches[b.Sink] = append(l.batches[b.Sink], BatchVersion{Version: v, Batch: b.Batch, Ranges: b.Ranges})
			}
		}
	}
}

// batchInfo reads the batch a commitInfo records. Another writer's
// commitInfo is none of streamctl's business: one that does not read as a
// batch is skipped.
func batchInfo(a Action) (BatchInfo, bool) {
	if a.CommitInfo == nil || a.CommitInfo[CommitInfoKey] == nil {
		return BatchInfo{}, false
	}
	raw, err := json.Marshal(a.CommitInfo[CommitInfoKey])
	var b BatchInfo
	if err != nil || json.Unmarshal(raw, &b) != nil || b.Sink == "" {
		return BatchInfo{}, false
	}
	return b, true
}

// encode writes actions as a log entry: one JSON object a line.
func encode(actions []Action) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, a := range actions {
		if err := enc.Encode(a); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// Decode reads a log entry's actions. Blank lines are skipped.
func Decode(data []byte) ([]Action, error) {
	var out []Action
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var a Action
		err := dec.Decode(&a)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("action %d: %w", len(out)+1, err)
		}
		out = append(out, a)
	}
}

func commitInfo(ms int64, operation string, params map[string]any) map[string]any {
	if params == nil {
		params = map[string]any{}
	}
	return map[string]any{"timestamp": ms, "operation": operation, "operationParameters": params,
		"isBlindAppend": true, "engineInfo": "streamctl"}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// newUUID is a random (version 4) UUID: the table's id.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// EncodePath is key as the path of an add action: a relative URI (RFC
// 2396) that decodes to key. Every byte but letters, digits, "-_.~=" and
// the "/" between segments is percent-encoded, so that a folder's ':' is
// never read as a scheme and a Hive escape's '%' decodes to itself.
func EncodePath(key string) string {
	const hexUpper = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '-', c == '_', c == '.', c == '~', c == '=', c == '/':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hexUpper[c>>4])
			b.WriteByte(hexUpper[c&0xf])
		}
	}
	return b.String()
}

// partitionValues reads a file's partition values from its Hive folders
// (column=value/…): the folders' values unescaped, the null folder as null,
// as the protocol's partition value serialization has them.
func partitionValues(key string, columns []string) (map[string]*string, error) {
	out := make(map[string]*string, len(columns))
	if len(columns) == 0 {
		return out, nil
	}
	segs := strings.Split(key, "/")
	for _, seg := range segs[:len(segs)-1] {
		name, value, ok := strings.Cut(seg, "=")
		if !ok {
			continue
		}
		name = partition.Unescape(name)
		if !slices.Contains(columns, name) {
			continue
		}
		if value == partition.DefaultPartitionName {
			out[name] = nil
			continue
		}
		v := partition.Unescape(value)
		out[name] = &v
	}
	for _, c := range columns {
		if _, ok := out[c]; !ok {
			return nil, fmt.Errorf("the file %s has no folder for the partition column %q of the Delta table", key, c)
		}
	}
	return out, nil
}
