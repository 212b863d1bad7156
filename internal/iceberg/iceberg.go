// Package iceberg commits the Parquet files of a streamctl batch into an
// Apache Iceberg table, through iceberg-go: one append snapshot per batch
// (its manifests merged as the table's count grows), atomic for every
// reader, and idempotent. The snapshot's summary
// records the batch (streamctl.sink, streamctl.batch, streamctl.ranges), as
// Iceberg's Kafka Connect sink records its offsets and Delta its
// txnAppId/txnVersion: before appending, Append looks for the batch in the
// current snapshot's ancestry, so a retry after a lost answer or a crash
// never appends the files twice.
//
// The files are streamctl's own: they carry no Parquet field ids, and the
// table's name mapping (schema.name-mapping.default) maps their columns by
// name. An identity partition's column is not in the files (its value is the
// folder's, see package partition); the partition values of every file are
// read from its folder and stored in the manifest.
package iceberg

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	icebergio "github.com/apache/iceberg-go/io"
	_ "github.com/apache/iceberg-go/io/gocloud/azure" // the wasb(s):// and abfs(s):// file IO
	_ "github.com/apache/iceberg-go/io/gocloud/s3"    // the s3:// file IO
	"github.com/apache/iceberg-go/table"
	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib"                       // database/sql driver "pgx"
	_ "github.com/streamctl/streamctl/internal/iceberg/gsio" // the gs:// file IO, on providers/gcs
	_ "modernc.org/sqlite"                                   // database/sql driver "sqlite", pure Go

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/partition"
)

// Catalog types.
const (
	CatalogSQL  = "sql"  // iceberg-go's SQL catalog, on SQLite (the default) or PostgreSQL
	CatalogREST = "rest" // an Iceberg REST catalog
)

// Snapshot summary properties of a streamctl append.
const (
	PropSink   = "streamctl.sink"
	PropBatch  = "streamctl.batch"
	PropRanges = "streamctl.ranges"
)

// Config names an Iceberg table and what streamctl writes into it.
type Config struct {
	// Catalog is CatalogSQL (default) or CatalogREST.
	Catalog string
	// CatalogName is the catalog's name (the SQL catalog's catalog_name
	// key); default "streamctl".
	CatalogName string
	// URI is, for the SQL catalog, the database: a PostgreSQL URL
	// (postgres://user@host:port/db, postgresql://…, libpq's parameters
	// and environment variables such as PGPASSWORD apply), or else SQLite's
	// file path or "file:" URI (default, for a file:// Location only:
	// <Location>/_streamctl/iceberg/catalog.db); for REST, the server's URL.
	URI string
	// Warehouse is the REST catalog's warehouse, if it wants one.
	Warehouse string
	// Token is a REST catalog's bearer token; Credential its OAuth2 client
	// credentials ("client_id:client_secret"), exchanged for a token at the
	// catalog's /v1/oauth/tokens. Either, or neither (or a "token" or
	// "credential" property).
	Token, Credential string
	// SigV4Region and SigV4Service, when SigV4Region is set, sign a REST
	// catalog's requests with AWS Signature Version 4 (Glue's and S3
	// Tables' REST endpoints), with the AWS default credential chain.
	SigV4Region, SigV4Service string
	// Properties go to the catalog and to the file IO it opens: s3.endpoint,
	// s3.region, s3.access-key-id, s3.secret-access-key, s3.session-token,
	// s3.force-virtual-addressing; adls.endpoint, adls.protocol,
	// adls.auth.shared-key.account.name and .key, adls.sas-token.<host>;
	// for REST, token, credential, scope…
	Properties map[string]string

	Namespace []string // at least one level
	Table     string
	// Location is the table's root, the destination's root as a URL:
	// file:///abs/path, s3://bucket/prefix, gs://bucket/prefix or
	// wasbs://container@account.blob.core.windows.net/prefix. Metadata goes under
	// <Location>/metadata; the data files are streamctl's, where the
	// destination put them.
	Location string

	Columns     []format.Column
	PartitionBy []string // partition_by expressions, as package partition parses them

	// ApplySchemaChanges applies the schema changes Open finds (added
	// nullable columns). Without it, Open reports them (Table.SchemaChanges)
	// and Append refuses to write until they are applied.
	ApplySchemaChanges bool
}

// Table is an open Iceberg table. It is not safe for concurrent use.
type Table struct {
	cfg     Config
	cat     catalog.Catalog
	closeDB func() error
	ident   table.Identifier
	tbl     *table.Table
	parts   []partition.Field
	kinds   map[string]format.Kind
	changes []SchemaChange
	created bool
}

// DataFile is one Parquet file of a batch, already in its final place.
type DataFile struct {
	URL     string // absolute: file:///…, s3://bucket/key
	Size    int64  // bytes
	Records int64
	// Folder is the file's partition folder ("country=de/ts_day=2026-01-02",
	// as package partition writes it), "" for an unpartitioned table. When
	// empty for a partitioned table, it is the URL's folder below Location.
	Folder string
}

// BatchInfo is the last batch of a sink a table records.
type BatchInfo struct {
	Batch      int64
	Ranges     string
	SnapshotID int64
	Committed  time.Time
}

// ErrSchemaPending is returned by Append while Open found schema changes
// that were not applied.
var ErrSchemaPending = errors.New("the table's schema lacks declared columns; apply the schema changes first")

// prepare checks cfg and fills its defaults (the catalog's name, the
// normalised location), and derives the schema and partition spec the
// sink's columns ask for: what Open and Inspect compare the table with.
func prepare(cfg Config) (Config, *ice.Schema, ice.PartitionSpec, []partition.Field, error) {
	if len(cfg.Namespace) == 0 || cfg.Table == "" {
		return cfg, nil, ice.PartitionSpec{}, nil, errors.New("iceberg: a namespace and a table name are required")
	}
	if cfg.CatalogName == "" {
		cfg.CatalogName = "streamctl"
	}
	loc, err := normLocation(cfg.Location)
	if err != nil {
		return cfg, nil, ice.PartitionSpec{}, nil, err
	}
	cfg.Location = loc
	want, err := newSchema(cfg.Columns)
	if err != nil {
		return cfg, nil, ice.PartitionSpec{}, nil, fmt.Errorf("iceberg: %w", err)
	}
	spec, parts, err := newSpec(cfg.PartitionBy, cfg.Columns, want)
	if err != nil {
		return cfg, nil, ice.PartitionSpec{}, nil, fmt.Errorf("iceberg: %w", err)
	}
	return cfg, want, spec, parts, nil
}

// Open opens the catalog and the table, creating the namespace and the
// table when missing. An existing table's schema is compared with the
// columns: added nullable columns are schema changes (applied with
// ApplySchemaChanges); anything else that differs is a *SchemaError.
func Open(ctx context.Context, cfg Config) (*Table, error) {
	cfg, want, spec, parts, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	t := &Table{cfg: cfg, ident: append(slicesClone(cfg.Namespace), cfg.Table), parts: parts, kinds: map[string]format.Kind{}}
	for _, c := range cfg.Columns {
		t.kinds[c.Name], _ = format.ParseKind(c.Type)
	}
	if err := t.openCatalog(ctx); err != nil {
		return nil, err
	}
	if err := t.openTable(ctx, want, spec); err != nil {
		t.Close()
		return nil, err
	}
	if err := t.publishHint(ctx); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// normLocation checks a table location and drops a trailing slash.
func normLocation(loc string) (string, error) {
	u, err := url.Parse(loc)
	if err != nil || u.Scheme == "" {
		return "", fmt.Errorf("iceberg: location %q: want a URL such as file:///abs/path or s3://bucket/prefix", loc)
	}
	switch u.Scheme {
	case "file":
		if !strings.HasPrefix(u.Path, "/") || u.Host != "" {
			return "", fmt.Errorf("iceberg: location %q: want file:///absolute/path", loc)
		}
	case "s3", "s3a", "gs":
		if u.Host == "" {
			return "", fmt.Errorf("iceberg: location %q: no bucket", loc)
		}
	case "wasb", "wasbs", "abfs", "abfss":
		// iceberg-go's Azure IO takes the account from the host's first label.
		if u.User.Username() == "" || !strings.Contains(u.Hostname(), ".") {
			return "", fmt.Errorf("iceberg: location %q: want %s://container@account.blob.core.windows.net/prefix", loc, u.Scheme)
		}
	default:
		return "", fmt.Errorf("iceberg: location %q: scheme %q is not supported (file, s3, gs, wasb, wasbs, abfs, abfss)", loc, u.Scheme)
	}
	return strings.TrimRight(loc, "/"), nil
}

func (t *Table) props() ice.Properties {
	p := ice.Properties{}
	maps.Copy(p, t.cfg.Properties)
	return p
}

// IsPostgres reports whether a SQL catalog's uri names a PostgreSQL database.
func IsPostgres(uri string) bool {
	return strings.HasPrefix(uri, "postgres://") || strings.HasPrefix(uri, "postgresql://")
}

// CatalogAddress names the catalog of cfg for messages: "iceberg catalog"
// and its uri, with any password replaced by xxxxx and the query left out
// (libpq takes a password there too).
func CatalogAddress(cfg Config) string {
	uri := cfg.URI
	if uri == "" && (cfg.Catalog == "" || cfg.Catalog == CatalogSQL) {
		uri = "in " + strings.TrimPrefix(strings.TrimRight(cfg.Location, "/"), "file://") + "/_streamctl/iceberg/catalog.db"
	}
	return "iceberg catalog " + redactURI(uri)
}

func redactURI(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme == "" || u.Opaque != "" {
		if strings.Contains(uri, "://") {
			return "(an unreadable URL)" // it may hold a password
		}
		return uri // a file path
	}
	u.RawQuery, u.ForceQuery = "", false
	return u.Redacted()
}

// Ping reaches the catalog's server, for the catalogs that have one
// (PostgreSQL, REST), and changes nothing: an apply checks it before it
// touches the state or a destination. SQLite's file is opened by Open. Its
// error does not name the catalog: CatalogAddress does.
func Ping(ctx context.Context, cfg Config) error {
	switch {
	case (cfg.Catalog == "" || cfg.Catalog == CatalogSQL) && IsPostgres(cfg.URI):
		db, err := openPostgres(ctx, cfg.URI)
		if err != nil {
			return err
		}
		return db.Close()
	case cfg.Catalog == CatalogREST:
		t := &Table{cfg: cfg}
		if err := t.openCatalog(ctx); err != nil {
			return err
		}
		return t.Close()
	}
	return nil
}

// openPostgres connects to a PostgreSQL catalog database and checks that
// it answers.
func openPostgres(ctx context.Context, uri string) (*sql.DB, error) {
	fail := func(err error) error {
		return fmt.Errorf("%w; check that the server runs, that the uri is right, and that its user may connect (a password comes from PGPASSWORD, ~/.pgpass or a sensitive variable), then run apply again", err)
	}
	db, err := sql.Open("pgx", uri)
	if err != nil {
		return nil, fail(err)
	}
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fail(err)
	}
	return db, nil
}

// newSQLCatalog opens iceberg-go's SQL catalog on db. Its first use creates
// the catalog's tables with CREATE TABLE IF NOT EXISTS, which neither
// server serialises: of two writers starting at once on an empty database,
// one can fail on the other's table or its row type (PostgreSQL) or lock
// (SQLite, while the file turns to WAL); it tries again.
func newSQLCatalog(ctx context.Context, name string, db *sql.DB, dialect sqlcat.SupportedDialect, props ice.Properties) (cat *sqlcat.Catalog, err error) {
	err = retryRaced(ctx, func() error {
		cat, err = sqlcat.NewCatalog(name, db, dialect, props)
		return err
	})
	return cat, err
}

// retryRaced runs create until it succeeds, fails otherwise than by racing
// another writer, or has raced raceAttempts times. The waits grow and are
// jittered, so that writers which met once do not meet again.
func retryRaced(ctx context.Context, create func() error) error {
	for attempt := 1; ; attempt++ {
		err := create()
		if err == nil || attempt == raceAttempts || !raced(err) {
			return err
		}
		wait := time.Duration(attempt) * 50 * time.Millisecond
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w, after: %w", ctx.Err(), err)
		case <-time.After(wait/2 + rand.N(wait)):
		}
	}
}

const raceAttempts = 8

// raced reports whether err is a concurrent writer's doing, gone if tried
// again: a duplicate catalog table or row type, a serialisation failure
// or a deadlock (PostgreSQL), or a busy database (SQLite). iceberg-go
// retries serialisation failures itself, but only three times within 30 ms,
// which a few workers creating their tables at once exhaust.
func raced(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "23505", // unique_violation: the catalog table's row in pg_type
			"42P07", // duplicate_table
			"42710", // duplicate_object: the catalog table's row type
			"40001", // serialization_failure
			"40P01": // deadlock_detected
			return true
		}
		return false
	}
	var lite interface{ Code() int }
	return errors.As(err, &lite) && lite.Code()&0xff == 5 // SQLITE_BUSY
}

func (t *Table) openCatalog(ctx context.Context) error {
	switch t.cfg.Catalog {
	case "", CatalogSQL:
		if IsPostgres(t.cfg.URI) {
			db, err := openPostgres(ctx, t.cfg.URI)
			if err != nil {
				return fmt.Errorf("iceberg: catalog %s: %w", redactURI(t.cfg.URI), err)
			}
			cat, err := newSQLCatalog(ctx, t.cfg.CatalogName, db, sqlcat.Postgres, t.props())
			if err != nil {
				db.Close()
				return fmt.Errorf("iceberg: sql catalog %s: %w", redactURI(t.cfg.URI), err)
			}
			t.cat, t.closeDB = cat, db.Close
			return nil
		}
		uri := t.cfg.URI
		if uri == "" {
			if !strings.HasPrefix(t.cfg.Location, "file://") {
				return errors.New("iceberg: the SQL catalog needs a uri (the SQLite database) unless the location is file://")
			}
			dir := filepath.Join(strings.TrimPrefix(t.cfg.Location, "file://"), "_streamctl", "iceberg")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("iceberg: %w", err)
			}
			uri = filepath.Join(dir, "catalog.db")
		}
		db, err := sql.Open("sqlite", sqliteDSN(uri))
		if err != nil {
			return fmt.Errorf("iceberg: sqlite %s: %w", uri, err)
		}
		cat, err := newSQLCatalog(ctx, t.cfg.CatalogName, db, sqlcat.SQLite, t.props())
		if err != nil {
			db.Close()
			return fmt.Errorf("iceberg: sql catalog %s: %w", uri, err)
		}
		t.cat, t.closeDB = cat, db.Close
	case CatalogREST:
		if t.cfg.URI == "" {
			return errors.New("iceberg: the REST catalog needs a uri")
		}
		opts := []rest.Option{rest.WithAdditionalProps(t.props())}
		if t.cfg.Warehouse != "" {
			opts = append(opts, rest.WithWarehouseLocation(t.cfg.Warehouse))
		}
		if tok := cmp.Or(t.cfg.Token, t.cfg.Properties["token"]); tok != "" {
			opts = append(opts, rest.WithOAuthToken(tok))
		}
		if cred := cmp.Or(t.cfg.Credential, t.cfg.Properties["credential"]); cred != "" {
			opts = append(opts, rest.WithCredential(cred))
		}
		if t.cfg.SigV4Region != "" {
			opts = append(opts, rest.WithSigV4RegionSvc(t.cfg.SigV4Region, t.cfg.SigV4Service))
		}
		cat, err := rest.NewCatalog(ctx, t.cfg.CatalogName, t.cfg.URI, opts...)
		if err != nil {
			return fmt.Errorf("iceberg: rest catalog %s: %w", t.cfg.URI, err)
		}
		t.cat = cat
	default:
		return fmt.Errorf("iceberg: unknown catalog type %q (want sql or rest)", t.cfg.Catalog)
	}
	return nil
}

// sqliteDSN adds to a SQLite path what two writers need: a busy timeout
// (a second process waits for the first's transaction instead of failing),
// WAL, and transactions that take the write lock when they begin: the
// catalog's transactions read, then write, and SQLite fails a reader's
// upgrade to writer at once, busy timeout or not, while another writes.
func sqliteDSN(uri string) string {
	if !strings.HasPrefix(uri, "file:") {
		uri = "file:" + uri
	}
	add := func(param string) {
		if strings.Contains(uri, "?") {
			uri += "&" + param
		} else {
			uri += "?" + param
		}
	}
	if !strings.Contains(uri, "busy_timeout") {
		add("_pragma=busy_timeout(10000)")
	}
	if !strings.Contains(uri, "journal_mode") && !strings.Contains(uri, "mode=memory") {
		add("_pragma=journal_mode(WAL)")
	}
	if !strings.Contains(uri, "_txlock") {
		add("_txlock=immediate")
	}
	return uri
}

// Close releases the catalog.
func (t *Table) Close() error {
	if t.closeDB != nil {
		err := t.closeDB()
		t.closeDB = nil
		return err
	}
	return nil
}

func (t *Table) name() string { return strings.Join(t.ident, ".") }

func (t *Table) openTable(ctx context.Context, want *ice.Schema, spec ice.PartitionSpec) error {
	var tbl *table.Table
	// Writers creating their tables at once in one PostgreSQL catalog can
	// fail each other's serialisable transactions. A failed CreateTable
	// leaves only a metadata file no catalog row points to.
	err := retryRaced(ctx, func() (err error) {
		tbl, err = t.loadOrCreate(ctx, want, spec)
		return err
	})
	if err != nil {
		return err
	}
	t.tbl = tbl
	return t.check(ctx, want, spec)
}

// loadOrCreate loads the table, creating it and its namespace if missing.
func (t *Table) loadOrCreate(ctx context.Context, want *ice.Schema, spec ice.PartitionSpec) (*table.Table, error) {
	ns := table.Identifier(slicesClone(t.cfg.Namespace))
	exists, err := t.cat.CheckNamespaceExists(ctx, ns)
	if err != nil {
		return nil, fmt.Errorf("iceberg: namespace %s: %w", strings.Join(ns, "."), err)
	}
	if !exists {
		if err := t.cat.CreateNamespace(ctx, ns, nil); err != nil && !errors.Is(err, catalog.ErrNamespaceAlreadyExists) {
			return nil, fmt.Errorf("iceberg: create namespace %s: %w", strings.Join(ns, "."), err)
		}
	}
	tbl, err := t.cat.LoadTable(ctx, t.ident)
	if errors.Is(err, catalog.ErrNoSuchTable) {
		mapping, merr := nameMapping(want)
		if merr != nil {
			return nil, merr
		}
		tbl, err = t.cat.CreateTable(ctx, t.ident, want,
			catalog.WithLocation(t.cfg.Location),
			catalog.WithPartitionSpec(&spec),
			catalog.WithProperties(ice.Properties{
				// No write.metadata.path: the metadata goes where every
				// engine looks for it, <location>/metadata.
				table.DefaultNameMappingKey:       mapping,
				"format-version":                  "2",
				"write.parquet.compression-codec": "zstd",
				// Merge the small manifests of a streaming sink's
				// appends, as Java's default append does: a reader
				// opens a bounded number of manifests, not one per
				// batch ever committed.
				table.ManifestMergeEnabledKey: "true",
			}))
		if errors.Is(err, catalog.ErrTableAlreadyExists) {
			tbl, err = t.cat.LoadTable(ctx, t.ident)
		} else if err == nil {
			t.created = true
		}
	}
	if err != nil {
		return nil, fmt.Errorf("iceberg: table %s: %w", t.name(), err)
	}
	return tbl, nil
}

// nameMapping is the name mapping of a schema, as the table property wants it.
func nameMapping(s *ice.Schema) (string, error) {
	b, err := json.Marshal(s.NameMapping())
	if err != nil {
		return "", fmt.Errorf("iceberg: name mapping: %w", err)
	}
	return string(b), nil
}

// check compares the table with the declared columns and partition_by, and
// applies the schema changes when asked. It also repairs a name mapping
// that lacks a column of the schema.
func (t *Table) check(ctx context.Context, want *ice.Schema, wantSpec ice.PartitionSpec) error {
	have := t.tbl.Schema()
	changes, problems := compareSchema(have, want, t.cfg.Columns)
	if d := compareSpec(t.tbl.Spec(), have, wantSpec, want); d != "" {
		problems = append(problems, d)
	}
	if t.cfg.Location != strings.TrimRight(t.tbl.Location(), "/") {
		problems = append(problems, fmt.Sprintf("the table's location is %s, not %s", t.tbl.Location(), t.cfg.Location))
	}
	if len(problems) > 0 {
		return &SchemaError{Table: t.name(), Problems: problems}
	}
	t.changes = changes
	if len(changes) > 0 && !t.cfg.ApplySchemaChanges {
		return nil
	}
	for attempt := 0; ; attempt++ {
		err := t.evolve(ctx)
		if err == nil || !errors.Is(err, table.ErrCommitFailed) || attempt == 4 {
			return err
		}
		if err := t.refresh(ctx); err != nil {
			return err
		}
		have = t.tbl.Schema()
		t.changes, _ = compareSchema(have, want, t.cfg.Columns)
	}
}

// evolve adds the pending columns and fixes the name mapping, in one commit.
func (t *Table) evolve(ctx context.Context) error {
	txn := t.tbl.NewTransaction()
	if len(t.changes) > 0 {
		up := txn.UpdateSchema(true, false)
		for _, c := range t.changes {
			ft, _ := format.ParseType(c.Type)
			typ, _ := (&idAlloc{}).typeOf(ft) // the table assigns the new fields' ids
			up = up.AddColumn([]string{c.Column}, typ, "", false, nil)
		}
		if err := up.Commit(); err != nil {
			return fmt.Errorf("iceberg: table %s: schema change: %w", t.name(), err)
		}
	}
	staged, err := txn.StagedTable()
	if err != nil {
		return fmt.Errorf("iceberg: table %s: %w", t.name(), err)
	}
	mapping, err := nameMapping(staged.Schema())
	if err != nil {
		return err
	}
	if !mappingCovers(t.tbl.NameMapping(), staged.Schema()) {
		if err := txn.SetProperties(ice.Properties{table.DefaultNameMappingKey: mapping}); err != nil {
			return fmt.Errorf("iceberg: table %s: name mapping: %w", t.name(), err)
		}
	} else if len(t.changes) == 0 {
		return nil
	}
	tbl, err := txn.Commit(ctx)
	if err != nil {
		return fmt.Errorf("iceberg: table %s: schema change: %w", t.name(), err)
	}
	t.tbl = tbl
	t.changes = nil
	return nil
}

// mappingCovers reports whether the name mapping maps every top-level
// column of the schema by its name to its id.
func mappingCovers(m ice.NameMapping, s *ice.Schema) bool {
	if m == nil {
		return false
	}
	ids := map[string]int{}
	for _, f := range m {
		if f.FieldID == nil {
			continue
		}
		for _, n := range f.Names {
			ids[n] = *f.FieldID
		}
	}
	for _, f := range s.Fields() {
		if id, ok := ids[f.Name]; !ok || id != f.ID {
			return false
		}
	}
	return true
}

// SchemaChanges returns the schema changes Open found and did not apply
// (nil once applied, or when there were none).
func (t *Table) SchemaChanges() []SchemaChange { return t.changes }

// Created reports whether Open created the table.
func (t *Table) Created() bool { return t.created }

// Iceberg returns the iceberg-go table as last loaded or committed.
func (t *Table) Iceberg() *table.Table { return t.tbl }

func (t *Table) refresh(ctx context.Context) error {
	tbl, err := t.cat.LoadTable(ctx, t.ident)
	if err != nil {
		return fmt.Errorf("iceberg: table %s: %w", t.name(), err)
	}
	t.tbl = tbl
	return nil
}

// history walks the current snapshot's ancestry, newest first, and calls fn
// with each streamctl batch of sink it records, until fn returns false.
func (t *Table) history(sink string, fn func(BatchInfo) bool) error {
	cur := t.tbl.CurrentSnapshot()
	if cur == nil {
		return nil
	}
	meta := t.tbl.Metadata()
	for _, s := range table.AncestorsOf(cur.SnapshotID, meta.SnapshotByID) {
		if s.Summary == nil || s.Summary.Properties[PropSink] != sink {
			continue
		}
		b, err := strconv.ParseInt(s.Summary.Properties[PropBatch], 10, 64)
		if err != nil {
			return fmt.Errorf("iceberg: table %s: snapshot %d: %s = %q is not a batch number", t.name(), s.SnapshotID, PropBatch, s.Summary.Properties[PropBatch])
		}
		info := BatchInfo{Batch: b, Ranges: s.Summary.Properties[PropRanges], SnapshotID: s.SnapshotID, Committed: time.UnixMilli(s.TimestampMs).UTC()}
		if !fn(info) {
			return nil
		}
	}
	return nil
}

// Committed reports whether the table records batch of sink: a snapshot in
// the current snapshot's ancestry whose summary names it, or a later batch
// of the sink (batches are committed in order, so an expired snapshot of
// batch still counts). It reloads the table first.
func (t *Table) Committed(ctx context.Context, sink string, batch int64) (bool, error) {
	if err := t.refresh(ctx); err != nil {
		return false, err
	}
	return t.committed(sink, batch)
}

func (t *Table) committed(sink string, batch int64) (bool, error) {
	found := false
	err := t.history(sink, func(b BatchInfo) bool {
		found = b.Batch >= batch
		return !found
	})
	return found, err
}

// LastBatch returns the sink's latest batch the table records (the newest
// in the current snapshot's ancestry), so that plan can show a table ahead
// of or behind the state. It reloads the table first.
func (t *Table) LastBatch(ctx context.Context, sink string) (BatchInfo, bool, error) {
	if err := t.refresh(ctx); err != nil {
		return BatchInfo{}, false, err
	}
	var last BatchInfo
	found := false
	err := t.history(sink, func(b BatchInfo) bool {
		last, found = b, true
		return false
	})
	return last, found, err
}

// maxAttempts bounds the commits Append tries when other writers commit
// between its read and its commit: the shards of a sink commit to its one
// table at once, and a shard may lose the race to each of the others in turn.
const maxAttempts = 30

// Append commits files as batch of sink: one append snapshot whose
// summary records sink, batch and ranges. sink is the name of the sink's
// checkpoint, its shard's for a sharded sink ("orders/shard-3"): each shard
// numbers its batches on its own, so a batch is recognised by the pair.
// When the table already records the batch it does nothing. The commit
// requires the branch to be where Append read it; when another writer moved
// it, Append reloads, checks again that the batch is not there, and
// retries. Then it publishes the table's version hint (see publishHint),
// also when the batch was there.
func (t *Table) Append(ctx context.Context, sink string, batch int64, ranges string, files []DataFile) error {
	if err := t.appendBatch(ctx, sink, batch, ranges, files); err != nil {
		return err
	}
	return t.publishHint(ctx)
}

func (t *Table) appendBatch(ctx context.Context, sink string, batch int64, ranges string, files []DataFile) error {
	if len(t.changes) > 0 {
		return fmt.Errorf("iceberg: table %s: %w: %v", t.name(), ErrSchemaPending, t.changes)
	}
	if sink == "" || batch < 0 {
		return fmt.Errorf("iceberg: append: want a sink and a batch ≥ 0, got %q, %d", sink, batch)
	}
	if len(files) == 0 {
		return fmt.Errorf("iceberg: append: batch %d of %s has no files (a snapshot without files records nothing)", batch, sink)
	}
	if err := t.refresh(ctx); err != nil {
		return err
	}
	if done, err := t.committed(sink, batch); err != nil || done {
		return err
	}
	// The footers are read once, not on every attempt: the less time
	// between reading the table and committing, the fewer commits other
	// writers win in between.
	dfs, err := t.dataFiles(ctx, files)
	if err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		if attempt > 1 {
			if err := t.refresh(ctx); err != nil {
				return err
			}
			done, err := t.committed(sink, batch)
			if err != nil || done {
				return err
			}
		}
		base := t.tbl.CurrentSnapshot()
		err = t.appendOnce(ctx, sink, batch, ranges, dfs, t.follows(sink, batch))
		if err == nil || ctx.Err() != nil {
			return err
		}
		// The commit failed, or its answer was lost. Either another writer
		// moved the branch (a conflict: retry if the batch is still not
		// there), or ours landed after all (the batch is there), or
		// nothing moved and the error is the answer. iceberg-go's SQL
		// catalog reports a moved branch as a failed requirement, not as
		// table.ErrCommitFailed, so the table says what happened.
		if rerr := t.refresh(ctx); rerr != nil {
			// Whether it landed is for the next run to find out.
			return fmt.Errorf("%w; then reading the table again, to see whether it landed: %w", err, rerr)
		}
		if done, cerr := t.committed(sink, batch); cerr != nil || done {
			return cerr
		}
		cur := t.tbl.CurrentSnapshot()
		moved := (base == nil) != (cur == nil) || base != nil && cur != nil && base.SnapshotID != cur.SnapshotID
		if !moved && !errors.Is(err, table.ErrCommitFailed) {
			return err
		}
		if attempt == maxAttempts {
			return fmt.Errorf("iceberg: table %s: batch %d of %s: %d commits lost to other writers: %w", t.name(), batch, sink, attempt, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(conflictWait(attempt)):
		}
	}
}

// hookBeforeCommit, set by tests, runs between reading the table and
// committing a batch: another writer's commit there is a conflict.
var hookBeforeCommit func()

// conflictWait is how long a writer that lost attempt waits before reading
// the table again: growing, capped, and jittered, so that writers which
// conflicted once do not meet again at the next attempt.
func conflictWait(attempt int) time.Duration {
	wait := min(time.Duration(attempt*attempt)*20*time.Millisecond, 2*time.Second)
	return wait/2 + rand.N(wait)
}

// follows reports whether the newest snapshot of sink in the current
// snapshot's ancestry records batch-1. Its files then cannot be in the table
// yet: batch's snapshot would be newer still, and snapshots expire oldest
// first. iceberg-go's own check, which reads every manifest of the table on
// each commit (a cost that grows with every batch ever committed), is then
// left out; it stays for a first batch into the table and after a history
// that lost the sink's snapshots, where it refuses rather than duplicate.
func (t *Table) follows(sink string, batch int64) bool {
	prev := int64(-1)
	found := false
	// A history that cannot be read leaves found false: the check is made.
	_ = t.history(sink, func(b BatchInfo) bool {
		prev, found = b.Batch, true
		return false
	})
	return found && prev == batch-1
}

func (t *Table) appendOnce(ctx context.Context, sink string, batch int64, ranges string, dfs []ice.DataFile, follows bool) error {
	txn := committer(t.tbl, t.cat).NewTransaction()
	if err := txn.AssertRefSnapshotID(table.MainBranch); err != nil {
		return fmt.Errorf("iceberg: table %s: %w", t.name(), err)
	}
	props := ice.Properties{PropSink: sink, PropBatch: strconv.FormatInt(batch, 10), PropRanges: ranges}
	var opts []table.WriteOption
	if follows {
		opts = append(opts, table.WithoutDuplicateCheck())
	}
	if err := txn.AddDataFiles(ctx, dfs, props, opts...); err != nil {
		return fmt.Errorf("iceberg: table %s: batch %d of %s: %w", t.name(), batch, sink, err)
	}
	if hookBeforeCommit != nil {
		hookBeforeCommit()
	}
	tbl, err := txn.Commit(ctx)
	if err != nil {
		return fmt.Errorf("iceberg: table %s: commit batch %d of %s: %w", t.name(), batch, sink, err)
	}
	t.tbl = tbl
	return nil
}

// dataFiles builds the manifest entries of files: size and record count as
// given, partition values from the folders, and column statistics (sizes,
// counts, bounds) from each file's footer, which readers prune with.
func (t *Table) dataFiles(ctx context.Context, files []DataFile) ([]ice.DataFile, error) {
	fs, err := t.tbl.FS(ctx)
	if err != nil {
		return nil, fmt.Errorf("iceberg: table %s: file IO: %w", t.name(), err)
	}
	if strings.HasPrefix(t.cfg.Location, "file://") {
		fs = rawLocalFS{}
	}
	spec := t.tbl.Spec()
	schema := t.tbl.Schema()
	// The footer is read against a schema whose columns are all optional:
	// an identity partition's column is not in the files.
	loose := make([]ice.NestedField, len(schema.Fields()))
	for i, f := range schema.Fields() {
		f.Required = false
		loose[i] = f
	}
	statsSchema := ice.NewSchema(schema.ID, loose...)
	out := make([]ice.DataFile, len(files))
	for i, f := range files {
		folder := f.Folder
		if folder == "" && len(t.parts) > 0 {
			folder, err = t.folderOf(f.URL)
			if err != nil {
				return nil, err
			}
		}
		pv, err := t.partitionValues(folder)
		if err != nil {
			return nil, fmt.Errorf("iceberg: %s: %w", f.URL, err)
		}
		st, err := table.FileToDataFile(ctx, fs, f.URL, statsSchema, *ice.UnpartitionedSpec, 0, t.tbl.Properties())
		if err != nil {
			return nil, fmt.Errorf("iceberg: %s: %w", f.URL, err)
		}
		if st.Count() != f.Records {
			return nil, fmt.Errorf("iceberg: %s holds %d records, and the batch says %d", f.URL, st.Count(), f.Records)
		}
		if f.Size > 0 && st.FileSizeBytes() != f.Size {
			return nil, fmt.Errorf("iceberg: %s is %d bytes, and the batch says %d", f.URL, st.FileSizeBytes(), f.Size)
		}
		b, err := ice.NewDataFileBuilder(spec, ice.EntryContentData, f.URL, ice.ParquetFile, pv, nil, nil, f.Records, st.FileSizeBytes())
		if err != nil {
			return nil, fmt.Errorf("iceberg: %s: %w", f.URL, err)
		}
		b.ColumnSizes(st.ColumnSizes()).ValueCounts(st.ValueCounts()).NullValueCounts(st.NullValueCounts()).
			NaNValueCounts(st.NaNValueCounts()).
			LowerBoundValues(t.microBounds(schema, st.LowerBoundValues())).UpperBoundValues(t.microBounds(schema, st.UpperBoundValues())).
			SplitOffsets(st.SplitOffsets())
		out[i] = b.Build()
	}
	return out, nil
}

// microBounds converts the bounds of timestamp columns from the files'
// milliseconds to Iceberg's microseconds. iceberg-go v0.7.0 copies the
// Parquet statistics of a TIMESTAMP(MILLIS) column as they are, which
// readers would take for microseconds: every bound 1000 times too small,
// and files wrongly pruned by a filter on the column.
func (t *Table) microBounds(schema *ice.Schema, bounds map[int][]byte) map[int][]byte {
	out := make(map[int][]byte, len(bounds))
	for id, b := range bounds {
		if f, ok := schema.FindFieldByID(id); ok && t.kinds[f.Name] == format.KindTimestamp && len(b) == 8 {
			ms := int64(binary.LittleEndian.Uint64(b))
			b = binary.LittleEndian.AppendUint64(nil, uint64(ms*1000))
		}
		out[id] = b
	}
	return out
}

// rawLocalFS opens file:// URLs as the rest of the Iceberg world does (Java's
// Hadoop paths, PyIceberg): the path is the URL's text as it is, not
// percent-decoded. iceberg-go's LocalFS decodes it, which turns the folder
// country=a%2Fb (a Hive-escaped "a/b") into country=a/b.
type rawLocalFS struct{ icebergio.LocalFS }

func (fs rawLocalFS) Open(name string) (icebergio.File, error) {
	return fs.LocalFS.Open(localPath(name))
}

func localPath(name string) string {
	if p, ok := strings.CutPrefix(name, "file://"); ok {
		return p
	}
	return name
}

// folderOf is the folder of a file URL below the table location.
func (t *Table) folderOf(u string) (string, error) {
	prefix := t.cfg.Location + "/"
	if !strings.HasPrefix(u, prefix) {
		return "", fmt.Errorf("iceberg: %s is not below the table location %s: give its partition folder", u, t.cfg.Location)
	}
	return path.Dir(strings.TrimPrefix(u, prefix)), nil
}

// Files returns the data files of the current snapshot, sorted as the scan
// plans them. It reloads the table first.
func (t *Table) Files(ctx context.Context) ([]string, error) {
	if err := t.refresh(ctx); err != nil {
		return nil, err
	}
	if t.tbl.CurrentSnapshot() == nil {
		return nil, nil
	}
	tasks, err := t.tbl.Scan().PlanFiles(ctx)
	if err != nil {
		return nil, fmt.Errorf("iceberg: table %s: %w", t.name(), err)
	}
	out := make([]string, len(tasks))
	for i, task := range tasks {
		out[i] = task.File.FilePath()
	}
	return out, nil
}
