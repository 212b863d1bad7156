package workspace

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/streamctl/streamctl/internal/config"
	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/fault"
	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// icebergTable is a destination's Iceberg table, for the engine. Apply
// connects to its catalog on Open, which creates and evolves the table;
// plan reads it with Inspect, which writes nothing.
type icebergTable struct {
	cfg  iceberg.Config
	name string

	mu sync.Mutex
	t  *iceberg.Table
}

var (
	_ engine.Table          = (*icebergTable)(nil)
	_ engine.TableInspector = (*icebergTable)(nil)
	_ engine.TableHistory   = (*icebergTable)(nil)
	_ engine.TableFolder    = (*icebergTable)(nil)
	_ engine.TableCompactor = (*icebergTable)(nil)
	_ engine.TableExpirer   = (*icebergTable)(nil)
)

// table is a destination's table, of any format.
type table interface {
	engine.Table
	Close()
}

// newTable describes the table of destination d of sink s, whose storage
// is store; it does not connect.
func newTable(s *config.Sink, d *config.Destination, kinds providers.Kinds, store providers.Storage) (table, error) {
	if d.Table.Format == "delta" {
		return newDeltaTable(s, d.Table.CheckpointInterval, store)
	}
	return newIcebergTable(s, d, kinds)
}

// newIcebergTable describes the Iceberg table of destination d of sink s.
func newIcebergTable(s *config.Sink, d *config.Destination, kinds providers.Kinds) (*icebergTable, error) {
	tb := d.Table
	cfg := iceberg.Config{
		Catalog:     tb.Catalog,
		URI:         tb.URI,
		Properties:  map[string]string{},
		Namespace:   []string{tb.Namespace},
		Table:       tb.Name,
		Columns:     s.Columns,
		PartitionBy: s.PartitionBy,
		// An added nullable column is applied: the sink's columns are the
		// table's schema. Incompatible changes are refused by Open.
		ApplySchemaChanges: true,
	}
	for k, v := range tb.Properties {
		cfg.Properties[k] = v
	}
	cfg.Warehouse, cfg.Token, cfg.Credential = tb.Warehouse, tb.Token, tb.Credential
	if tb.SigV4 != nil {
		cfg.SigV4Region, cfg.SigV4Service = tb.SigV4.Region, tb.SigV4.Service
	}
	role := kinds.Lookup(d.Type).Destination
	if role.TableLocation == nil {
		return nil, fmt.Errorf("an Iceberg table in a %s destination is not supported (no table file IO for it): use a local, s3, azblob or gcs destination for the table", d.Type)
	}
	location, props, err := role.TableLocation(d.Config)
	if err != nil {
		return nil, err
	}
	cfg.Location = location
	// The table's file IO reads the data files' footers and writes the
	// metadata: the destination's endpoint and credentials, unless the
	// table block sets them.
	for k, v := range props {
		if _, set := cfg.Properties[k]; !set {
			cfg.Properties[k] = v
		}
	}
	return &icebergTable{cfg: cfg, name: "iceberg table " + tb.Namespace + "." + tb.Name}, nil
}

func (t *icebergTable) Describe() string { return t.name }

// Folder implements engine.TableFolder: the metadata at <location>/metadata
// is the table's (an older table's, under _streamctl, is left to the
// manifests' folder).
func (t *icebergTable) Folder() string { return engine.TableMetadataDir }

func (t *icebergTable) Catalog() string { return iceberg.CatalogAddress(t.cfg) }

func (t *icebergTable) Connect(ctx context.Context) error { return iceberg.Ping(ctx, t.cfg) }

func (t *icebergTable) Open(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.t != nil {
		return nil
	}
	tb, err := iceberg.Open(ctx, t.cfg)
	if err != nil {
		return err
	}
	t.t = tb
	return nil
}

func (t *icebergTable) table() (*iceberg.Table, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.t == nil {
		return nil, fmt.Errorf("%s is not open", t.name)
	}
	return t.t, nil
}

func (t *icebergTable) Committed(ctx context.Context, sink string, batch int64) (bool, error) {
	tb, err := t.table()
	if err != nil {
		return false, err
	}
	return tb.Committed(ctx, sink, batch)
}

func (t *icebergTable) Append(ctx context.Context, sink string, batch int64, ranges []state.Range, files []engine.FileEntry) error {
	tb, err := t.table()
	if err != nil {
		return err
	}
	r, err := json.Marshal(ranges)
	if err != nil {
		return err
	}
	data := make([]iceberg.DataFile, len(files))
	for i, f := range files {
		data[i] = iceberg.DataFile{URL: strings.TrimSuffix(t.cfg.Location, "/") + "/" + f.Path, Size: f.Size, Records: f.Records}
	}
	return tb.Append(ctx, sink, batch, string(r), data)
}

// Compact implements engine.TableCompactor: one replace snapshot.
func (t *icebergTable) Compact(ctx context.Context, sink string, id int64, old, files []engine.FileEntry) (bool, error) {
	tb, err := t.table()
	if err != nil {
		return false, err
	}
	root := strings.TrimSuffix(t.cfg.Location, "/") + "/"
	urls := make([]string, len(old))
	for i, f := range old {
		urls[i] = root + f.Path
	}
	data := make([]iceberg.DataFile, len(files))
	for i, f := range files {
		data[i] = iceberg.DataFile{URL: root + f.Path, Size: f.Size, Records: f.Records}
	}
	got, err := tb.Compact(ctx, sink, id, urls, data)
	return got == iceberg.Replaced, err
}

// PlanExpiry implements engine.TableExpirer, reading the table without
// writing anything.
func (t *icebergTable) PlanExpiry(ctx context.Context, cutoff time.Time) (engine.TableExpiry, engine.TableReferences, error) {
	ex, refs, exists, err := iceberg.InspectExpiry(ctx, t.cfg, cutoff)
	if err != nil || !exists {
		return engine.TableExpiry{}, nil, err
	}
	return engine.TableExpiry(ex), refs, nil
}

// Expire implements engine.TableExpirer: one commit that removes the
// snapshots, and no file.
func (t *icebergTable) Expire(ctx context.Context, cutoff time.Time) (engine.TableExpiry, error) {
	tb, err := t.table()
	if err != nil {
		return engine.TableExpiry{}, err
	}
	ex, err := tb.Expire(ctx, cutoff)
	return engine.TableExpiry(ex), err
}

// References implements engine.TableExpirer.
func (t *icebergTable) References(ctx context.Context) (engine.TableReferences, error) {
	tb, err := t.table()
	if err != nil {
		return nil, err
	}
	return tb.References(ctx)
}

// Close closes the catalog connection, if one was made.
func (t *icebergTable) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.t != nil {
		t.t.Close()
		t.t = nil
	}
}

// Files implements engine.TableReader: the current snapshot's data files,
// relative to the destination, read without writing (verify creates and
// evolves nothing); none for a table that does not exist.
func (t *icebergTable) Files(ctx context.Context) ([]string, error) {
	urls, _, err := iceberg.ReadFiles(ctx, t.cfg)
	if err != nil {
		return nil, err
	}
	root := strings.TrimSuffix(t.cfg.Location, "/") + "/"
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = strings.TrimPrefix(u, root)
	}
	return out, nil
}

// Inspect implements engine.TableInspector: the table as plan shows it, read
// through the catalog without writing, and the metadata files of failed
// commits in the destination.
func (t *icebergTable) Inspect(ctx context.Context, sink string, store providers.Storage) (*planner.TableObservation, error) {
	in, err := iceberg.Inspect(ctx, t.cfg, sink)
	if err != nil {
		return nil, err
	}
	o := &planner.TableObservation{Name: t.name, Exists: in.Exists, Create: createText(in.Columns, in.PartitionBy)}
	root := strings.TrimSuffix(t.cfg.Location, "/") + "/"
	if !in.Exists {
		// A dropped table leaves its metadata files: the newest registers
		// it again. A table created by an earlier version has them in the
		// legacy folder.
		newest := -1
		for _, dir := range []string{iceberg.MetadataDir, iceberg.LegacyMetadataDir} {
			err := store.List(ctx, dir+"/", func(info providers.ObjectInfo) error {
				if v := iceberg.MetadataVersion(path.Base(info.Key)); v > newest {
					newest, o.NewestMetadata = v, root+info.Key
				}
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("list %s: %w", dir, err)
			}
		}
		return o, nil
	}
	for _, c := range in.Changes {
		o.Changes = append(o.Changes, fmt.Sprintf("add column %s (%s, optional)", c.Column, c.Type))
	}
	o.Problems, o.Undeclared = in.Problems, in.Undeclared
	o.Batches = tableBatches(in.Batches)
	o.Detached = tableBatches(in.Detached)
	if dir := in.MetadataFolder(); dir != "" {
		// Test builds may shift the clock, to age the files of a store
		// whose modification times cannot be set.
		now := time.Now().Add(fault.ClockSkew())
		err := store.List(ctx, dir+"/", func(info providers.ObjectInfo) error {
			if in.Orphan(info.Key, info.ModTime, now) {
				o.Orphans = append(o.Orphans, info.Key)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", dir, err)
		}
	}
	return o, nil
}

// createText says what creating the table makes.
func createText(columns int, partitionBy []string) string {
	cols := fmt.Sprintf("%d columns", columns)
	if columns == 1 {
		cols = "1 column"
	}
	if len(partitionBy) == 0 {
		return cols + ", unpartitioned"
	}
	return cols + ", partitioned by " + strings.Join(partitionBy, ", ")
}

// tableBatches reads the ranges the snapshots' summaries record. Ranges
// that do not parse are left empty: the planner then refuses to take the
// batch for the state's.
func tableBatches(bs []iceberg.BatchInfo) []planner.TableBatch {
	out := make([]planner.TableBatch, len(bs))
	for i, b := range bs {
		out[i] = planner.TableBatch{ID: b.Batch, Snapshot: b.SnapshotID}
		var r []state.Range
		if json.Unmarshal([]byte(b.Ranges), &r) == nil {
			out[i].Ranges = r
		}
	}
	return out
}

// LastBatch implements engine.TableHistory.
func (t *icebergTable) LastBatch(ctx context.Context, sink string) (int64, bool, error) {
	tb, err := t.table()
	if err != nil {
		return 0, false, err
	}
	b, found, err := tb.LastBatch(ctx, sink)
	return b.Batch, found, err
}
