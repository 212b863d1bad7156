package iceberg

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/apache/iceberg-go/table"
	"github.com/jackc/pgx/v5/pgconn"
)

// MetadataDir is where a table streamctl creates keeps its metadata,
// relative to the table's location: where every engine looks for it. It
// holds no Parquet file, so globs of data files (*.parquet) leave it out.
const MetadataDir = "metadata"

// LegacyMetadataDir is where tables created by earlier versions keep their metadata
// (their write.metadata.path): they keep it there, and their version hint
// and its copies go to MetadataDir.
const LegacyMetadataDir = "_streamctl/iceberg/metadata"

// OrphanMinAge is how old an unreferenced metadata file must be before it
// counts as an orphan. Another engine's commit in progress (Spark, Trino,
// a maintenance job) writes its manifests and manifest list before the
// catalog records them, and retries with the same files: what is younger
// may still be committed. Iceberg's own remove_orphan_files has the same
// guard (older_than).
const OrphanMinAge = time.Hour

// Inspection is what a table holds, read without writing anything: plan's
// view of the table.
type Inspection struct {
	// Exists is false when the catalog, the namespace or the table is
	// missing; then only Columns and PartitionBy are set.
	Exists bool
	// Columns and PartitionBy are what creating the table would make.
	Columns     int
	PartitionBy []string
	// Changes are the schema changes apply makes (added nullable columns);
	// Problems are the differences that refuse the table (see SchemaError).
	Changes  []SchemaChange
	Problems []string
	// Undeclared are the table's optional columns the sink no longer
	// declares: new rows hold null in them.
	Undeclared []string
	// Batches are the sink's batches in the current snapshot's ancestry,
	// oldest first.
	Batches []BatchInfo
	// Detached are the sink's snapshots outside the current snapshot's
	// ancestry (a rollback), newest batch first.
	Detached []BatchInfo
	// LastCommit is when the table's current metadata was written.
	LastCommit time.Time

	location     string
	metadataDir  string          // relative to location; "" when elsewhere
	referenced   map[string]bool // metadata files the table references, relative to location
	commits      map[string]bool // commit UUIDs of the snapshots' manifest lists
	oldestLogged int             // version of the oldest metadata file in the log
	since        time.Time       // when the oldest metadata file in the log was written
}

// Inspect reads the table of cfg and compares it with the declared columns
// and partition_by, for plan. It never writes: a missing SQLite catalog
// file is a missing table (it is not created), the catalog's tables are not
// initialised, no namespace or table is created and no schema change or
// name mapping is committed. sink names the sink whose batches are read
// from the snapshots' summaries.
func Inspect(ctx context.Context, cfg Config, sink string) (*Inspection, error) {
	cfg, want, spec, parts, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	in := &Inspection{Columns: len(cfg.Columns), location: cfg.Location}
	for _, p := range parts {
		in.PartitionBy = append(in.PartitionBy, p.Expr)
	}
	t, err := openReadOnly(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return in, nil
	}
	defer t.Close()
	tbl := t.tbl
	in.Exists = true
	have := tbl.Schema()
	in.Changes, in.Problems = compareSchema(have, want, cfg.Columns)
	for _, h := range have.Fields() {
		if _, ok := want.FindFieldByName(h.Name); !ok && !h.Required {
			in.Undeclared = append(in.Undeclared, h.Name)
		}
	}
	if d := compareSpec(tbl.Spec(), have, spec, want); d != "" {
		in.Problems = append(in.Problems, d)
	}
	if cfg.Location != strings.TrimRight(tbl.Location(), "/") {
		in.Problems = append(in.Problems, fmt.Sprintf("the table's location is %s, not %s", tbl.Location(), cfg.Location))
	}
	if err := in.readHistory(t, sink); err != nil {
		return nil, err
	}
	if err := in.readReferences(ctx, tbl); err != nil {
		return nil, fmt.Errorf("iceberg: table %s: %w", t.name(), err)
	}
	return in, nil
}

// openReadOnly opens the table of cfg (whose Location is normalised)
// without writing anything; it returns nil when the catalog, the namespace
// or the table does not exist.
func openReadOnly(ctx context.Context, cfg Config) (*Table, error) {
	t := &Table{cfg: cfg, ident: append(slicesClone(cfg.Namespace), cfg.Table)}
	file, err := sqliteFile(cfg)
	switch {
	case err != nil:
		return nil, err
	case file != "":
		if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
			return nil, nil // opening it would create it
		} else if err != nil {
			return nil, fmt.Errorf("iceberg: sqlite %s: %w", file, err)
		}
		if err := t.openSQLiteReadOnly(file); err != nil {
			return nil, err
		}
	default:
		if cfg.Catalog == "" || cfg.Catalog == CatalogSQL {
			// A SQL catalog on a server creates its tables on open unless
			// told not to.
			t.cfg.Properties = t.props()
			t.cfg.Properties["init_catalog_tables"] = "false"
		}
		if err := t.openCatalog(ctx); err != nil {
			return nil, err
		}
	}
	ns := table.Identifier(slicesClone(cfg.Namespace))
	exists, err := t.cat.CheckNamespaceExists(ctx, ns)
	if noCatalogTables(err) || err == nil && !exists {
		t.Close()
		return nil, nil
	}
	if err != nil {
		t.Close()
		return nil, fmt.Errorf("iceberg: namespace %s: %w", strings.Join(ns, "."), err)
	}
	tbl, err := t.cat.LoadTable(ctx, t.ident)
	if errors.Is(err, catalog.ErrNoSuchTable) || noCatalogTables(err) {
		t.Close()
		return nil, nil
	}
	if err != nil {
		t.Close()
		return nil, fmt.Errorf("iceberg: table %s: %w", t.name(), err)
	}
	t.tbl = tbl
	return t, nil
}

// ReadFiles returns the data files of the current snapshot of cfg's table,
// as Files does, opening it without writing anything; exists is false when
// the table does not exist.
func ReadFiles(ctx context.Context, cfg Config) (files []string, exists bool, err error) {
	if cfg.CatalogName == "" {
		cfg.CatalogName = "streamctl"
	}
	if cfg.Location, err = normLocation(cfg.Location); err != nil {
		return nil, false, err
	}
	t, err := openReadOnly(ctx, cfg)
	if err != nil || t == nil {
		return nil, false, err
	}
	defer t.Close()
	files, err = t.Files(ctx)
	return files, true, err
}

// sqliteFile is the path of cfg's catalog when it is a SQLite file, ""
// for another catalog (REST, a database server, SQLite in memory).
func sqliteFile(cfg Config) (string, error) {
	if cfg.Catalog != "" && cfg.Catalog != CatalogSQL {
		return "", nil
	}
	uri := cfg.URI
	if uri == "" {
		if !strings.HasPrefix(cfg.Location, "file://") {
			return "", errors.New("iceberg: the SQL catalog needs a uri (the SQLite database) unless the location is file://")
		}
		return filepath.Join(strings.TrimPrefix(cfg.Location, "file://"), "_streamctl", "iceberg", "catalog.db"), nil
	}
	if strings.Contains(uri, "mode=memory") || strings.Contains(uri, "://") && !strings.HasPrefix(uri, "file:") {
		return "", nil
	}
	p, _, _ := strings.Cut(strings.TrimPrefix(uri, "file:"), "?")
	return p, nil
}

// openSQLiteReadOnly opens the SQL catalog over the SQLite file read-only:
// without the catalog's tables created, and without the journal mode the
// writers set (which would convert a database in another mode).
func (t *Table) openSQLiteReadOnly(file string) error {
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return fmt.Errorf("iceberg: sqlite %s: %w", file, err)
	}
	props := t.props()
	props["init_catalog_tables"] = "false"
	cat, err := sqlcat.NewCatalog(t.cfg.CatalogName, db, sqlcat.SQLite, props)
	if err != nil {
		db.Close()
		return fmt.Errorf("iceberg: sql catalog %s: %w", file, err)
	}
	t.cat, t.closeDB = cat, db.Close
	return nil
}

// noCatalogTables reports an SQL catalog database without the catalog's
// tables: one that never held a table. SQLite says "no such table";
// PostgreSQL gives SQLSTATE 42P01, undefined_table.
func noCatalogTables(err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "42P01"
	}
	return strings.Contains(err.Error(), "no such table")
}

func (in *Inspection) readHistory(t *Table, sink string) error {
	in.LastCommit = time.UnixMilli(t.tbl.Metadata().LastUpdatedMillis()).UTC()
	inAncestry := map[int64]bool{}
	err := t.history(sink, func(b BatchInfo) bool {
		in.Batches = append(in.Batches, b)
		inAncestry[b.SnapshotID] = true
		return true
	})
	if err != nil {
		return err
	}
	for i, j := 0, len(in.Batches)-1; i < j; i, j = i+1, j-1 {
		in.Batches[i], in.Batches[j] = in.Batches[j], in.Batches[i]
	}
	for _, s := range t.tbl.Metadata().Snapshots() {
		if inAncestry[s.SnapshotID] || s.Summary == nil || s.Summary.Properties[PropSink] != sink {
			continue
		}
		b, err := strconv.ParseInt(s.Summary.Properties[PropBatch], 10, 64)
		if err != nil {
			continue // not a batch of streamctl's: nothing to say about it
		}
		in.Detached = append(in.Detached, BatchInfo{Batch: b, Ranges: s.Summary.Properties[PropRanges], SnapshotID: s.SnapshotID, Committed: time.UnixMilli(s.TimestampMs).UTC()})
	}
	for i := 1; i < len(in.Detached); i++ {
		for j := i; j > 0 && in.Detached[j].Batch > in.Detached[j-1].Batch; j-- {
			in.Detached[j], in.Detached[j-1] = in.Detached[j-1], in.Detached[j]
		}
	}
	return nil
}

// readReferences collects the metadata files the table references: its
// metadata files (current and logged), every snapshot's manifest list, and
// the manifests of the current snapshot (of every snapshot once some were
// expired); and the commit UUIDs the manifest lists are named with, which
// the manifests of the same commits carry.
func (in *Inspection) readReferences(ctx context.Context, tbl *table.Table) error {
	in.referenced = map[string]bool{}
	in.commits = map[string]bool{}
	meta := tbl.Metadata()
	if dir := meta.Properties()[table.WriteMetadataPathKey]; dir != "" {
		if rel, ok := strings.CutPrefix(strings.TrimRight(dir, "/"), in.location+"/"); ok {
			in.metadataDir = rel
		}
	} else {
		in.metadataDir = "metadata"
	}
	ref := func(u string) {
		if rel, ok := strings.CutPrefix(u, in.location+"/"); ok {
			in.referenced[rel] = true
		}
	}
	ref(tbl.MetadataLocation())
	in.oldestLogged = metadataVersion(path.Base(tbl.MetadataLocation()))
	in.since = in.LastCommit
	for e := range meta.PreviousFiles() {
		ref(e.MetadataFile)
		if v := metadataVersion(path.Base(e.MetadataFile)); v >= 0 && v < in.oldestLogged {
			in.oldestLogged = v
		}
		if t := time.UnixMilli(e.TimestampMs).UTC(); t.Before(in.since) {
			in.since = t
		}
	}
	for _, s := range meta.Snapshots() {
		if s.ManifestList == "" {
			continue
		}
		ref(s.ManifestList)
		if _, _, uuid, ok := manifestListName(path.Base(s.ManifestList)); ok {
			in.commits[uuid] = true
		}
	}
	cur := tbl.CurrentSnapshot()
	if cur == nil {
		return nil
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return fmt.Errorf("file IO: %w", err)
	}
	if strings.HasPrefix(in.location, "file://") {
		fs = rawLocalFS{}
	}
	// The current snapshot's manifests, and, once snapshots were expired,
	// every retained snapshot's: a merge replaces manifests in newer
	// snapshots only, so an older snapshot can still list a manifest of a
	// commit that expired, whose UUID no longer protects it. Without expiry
	// each such manifest's commit is a snapshot still there.
	snaps := []table.Snapshot{*cur}
	if expired(meta.Snapshots()) {
		snaps = meta.Snapshots()
	}
	for _, s := range snaps {
		if s.ManifestList == "" {
			continue
		}
		manifests, err := s.Manifests(fs)
		if err != nil {
			return fmt.Errorf("read the manifest list of snapshot %d: %w", s.SnapshotID, err)
		}
		for _, m := range manifests {
			ref(m.FilePath())
		}
	}
	return nil
}

// expired reports whether a snapshot's parent is gone from the table: some
// of its history was expired.
func expired(snaps []table.Snapshot) bool {
	ids := make(map[int64]bool, len(snaps))
	for _, s := range snaps {
		ids[s.SnapshotID] = true
	}
	for _, s := range snaps {
		if s.ParentSnapshotID != nil && !ids[*s.ParentSnapshotID] {
			return true
		}
	}
	return false
}

// MetadataFolder is the folder of the table's metadata files relative to
// its location, "" when it is elsewhere (then no orphan is looked for).
func (in *Inspection) MetadataFolder() string { return in.metadataDir }

// Orphan reports whether the metadata file at rel (relative to the table's
// location), last modified at mod, is a failed commit's leftover that
// apply may remove: a file of a shape Iceberg writers give their metadata
// (NNNNN-uuid.metadata.json, snap-ID-N-uuid.avro, uuid-mN.avro) that the
// table does not reference, written before the table's last commit and at
// least OrphanMinAge before now. A manifest is referenced as well when its
// commit UUID is a snapshot's. Files older than the metadata log stay: old
// versions the table let go, or a dropped table's whose folder the table
// reuses (its only way to be registered again), not a failed commit's.
func (in *Inspection) Orphan(rel string, mod, now time.Time) bool {
	if !in.Exists || in.metadataDir == "" || path.Dir(rel) != in.metadataDir || in.referenced[rel] {
		return false
	}
	// Object stores give modification times in whole seconds: a failed
	// commit in the second the table was created would look older than it.
	if mod.Before(in.since.Truncate(time.Second)) || !mod.Before(in.LastCommit) || now.Sub(mod) < OrphanMinAge {
		return false
	}
	base := path.Base(rel)
	if v := metadataVersion(base); v >= 0 {
		return v >= in.oldestLogged
	}
	if _, _, _, ok := manifestListName(base); ok {
		return true
	}
	if uuid, ok := manifestName(base); ok {
		return !in.commits[uuid]
	}
	return false
}

// MetadataVersion is N of a catalog's metadata file name
// "NNNNN-uuid[.gz|.zstd].metadata.json", or -1 for any other name (the
// version hint's copies vN.metadata.json among them).
func MetadataVersion(base string) int { return metadataVersion(base) }

// metadataVersion is N of "NNNNN-uuid[.gz|.zstd].metadata.json", or -1.
func metadataVersion(base string) int {
	if !strings.HasSuffix(base, ".metadata.json") {
		return -1
	}
	digits, rest, ok := strings.Cut(base, "-")
	if !ok || len(digits) < 5 || !isUUID(strings.SplitN(rest, ".", 2)[0]) {
		return -1
	}
	v, err := strconv.Atoi(digits)
	if err != nil || v < 0 {
		return -1
	}
	return v
}

// manifestListName parses "snap-<snapshot id>-<attempt>-<commit uuid>.avro".
func manifestListName(base string) (snapshot int64, attempt int, uuid string, ok bool) {
	rest, found := strings.CutPrefix(base, "snap-")
	rest, avro := strings.CutSuffix(rest, ".avro")
	if !found || !avro {
		return 0, 0, "", false
	}
	parts := strings.SplitN(rest, "-", 3)
	if len(parts) != 3 || !isUUID(parts[2]) {
		return 0, 0, "", false
	}
	id, err1 := strconv.ParseInt(parts[0], 10, 64)
	n, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return 0, 0, "", false
	}
	return id, n, parts[2], true
}

// manifestName parses "<commit uuid>-m<N>.avro".
func manifestName(base string) (string, bool) {
	rest, avro := strings.CutSuffix(base, ".avro")
	if !avro || len(rest) < 38 {
		return "", false
	}
	uuid, n := rest[:36], rest[36:]
	if !isUUID(uuid) || !strings.HasPrefix(n, "-m") || strings.Trim(n[2:], "0123456789") != "" || len(n) == 2 {
		return "", false
	}
	return uuid, true
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		default:
			return false
		}
	}
	return true
}
