package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/streamctl/streamctl/internal/partition"
	"github.com/streamctl/streamctl/providers"
)

// Table is a destination's table block: besides streamctl's manifests, each
// batch is committed as one snapshot of a table, which every engine reads
// atomically (Spark, Trino, DuckDB…), where a folder glob would see a batch
// half promoted or the files of a batch that was never committed.
type Table struct {
	// Format is the table format: "iceberg", or "delta" (a Delta Lake table
	// whose log is the destination's _delta_log folder: no catalog).
	Format string `hcl:"format"`
	// Catalog is where the table is registered: "sql" (an embedded SQLite
	// database, nothing to install, or a PostgreSQL database when uri is a
	// `postgres://` URL) or "rest" (an Iceberg REST catalog: Polaris,
	// Nessie, Glue's, Unity's…).
	Catalog string `hcl:"catalog,optional"`
	// URI is the catalog's address: for "sql" a PostgreSQL database
	// (`postgres://user@host:5432/db`, or `postgresql://`) or else the
	// SQLite database file (a path, or a `file:` URI); for "rest" the
	// catalog's URL. A local destination's default is
	// `_streamctl/iceberg/catalog.db` in its folder.
	URI string `hcl:"uri,optional"`
	// Namespace is the table's namespace (database); Iceberg only.
	Namespace string `hcl:"namespace,optional"`
	// Name is the table's name in its namespace; Iceberg only.
	Name string `hcl:"name,optional"`
	// Warehouse is the REST catalog's warehouse (Polaris' catalog name,
	// Lakekeeper's warehouse, an S3 Tables bucket's ARN…); REST only.
	Warehouse string `hcl:"warehouse,optional"`
	// Token is a bearer token sent to the REST catalog. Only accepted from
	// a sensitive variable.
	Token string `hcl:"token,optional"`
	// Credential is the OAuth2 client credentials "client_id:client_secret"
	// the REST catalog exchanges for a token (client credentials grant at
	// its /v1/oauth/tokens). Only accepted from a sensitive variable.
	Credential string `hcl:"credential,optional"`
	// SigV4 signs the REST catalog's requests with AWS Signature Version 4,
	// as Glue's and S3 Tables' REST endpoints want.
	SigV4 *SigV4 `hcl:"sigv4,block"`
	// Properties are passed to the catalog as they are (the table store's
	// endpoint, a REST catalog's scope or prefix…).
	Properties map[string]string `hcl:"properties,optional"`
	// CheckpointInterval is how many versions apart a Delta table's
	// checkpoints are; 0 takes the table's delta.checkpointInterval, else
	// 10. Delta only.
	CheckpointInterval int64 `hcl:"checkpoint_interval,optional"`

	DeclRange hcl.Range
}

// SigV4 is the sigv4 block of a REST catalog: the AWS region and the
// service its requests are signed for, with the AWS default credential
// chain (environment, shared files, the instance's role).
type SigV4 struct {
	// Region is the AWS region the requests are signed for: the catalog's.
	Region string `hcl:"region"`
	// Service is the service name signed for: "glue" for Glue's Iceberg
	// REST endpoint, "s3tables" for S3 Tables'.
	Service string `hcl:"service,optional"`

	DeclRange hcl.Range
}

// tableSecrets are the table block's attributes only accepted from
// sensitive variables.
var tableSecrets = []string{"token", "credential"}

// TableFormats and TableCatalogs are the accepted values.
var (
	TableFormats  = []string{"iceberg", "delta"}
	TableCatalogs = []string{"sql", "rest"}
)

// checkTable refuses a table block that cannot work, before anything runs.
func (l *loader) checkTable(t *Table, s *Sink, destType, destName string) {
	where := fmt.Sprintf("Destination %q of sink %q", destName, s.Name)
	if !slices.Contains(TableFormats, t.Format) {
		l.errorf(&t.DeclRange, "Invalid table format", "%s: format %q is not a table format streamctl writes; use one of %q.", where, t.Format, TableFormats)
		return
	}
	if t.Format == "delta" {
		l.checkDeltaTable(t, s, where)
		return
	}
	if t.CheckpointInterval != 0 {
		l.errorf(&t.DeclRange, "Delta setting on an Iceberg table", "%s: checkpoint_interval is a setting of Delta tables; an Iceberg catalog keeps the table's metadata. Remove checkpoint_interval.", where)
	}
	if t.Catalog == "" {
		t.Catalog = "sql"
	}
	if !slices.Contains(TableCatalogs, t.Catalog) {
		l.errorf(&t.DeclRange, "Invalid table catalog", "%s: catalog %q is not one of %q.", where, t.Catalog, TableCatalogs)
	}
	if s.Format != "parquet" {
		l.errorf(&t.DeclRange, "Table needs Parquet", "%s: an Iceberg table holds Parquet files, and the sink writes %s. Set format = \"parquet\" (with its columns) on the sink.", where, s.Format)
	}
	if t.Catalog != "rest" {
		for _, a := range []struct{ name, value string }{{"warehouse", t.Warehouse}, {"token", t.Token}, {"credential", t.Credential}} {
			if a.value != "" {
				l.errorf(&t.DeclRange, "REST setting on another catalog", "%s: %s is a setting of REST catalogs, and the catalog is %q. Set catalog = \"rest\", or remove %s.", where, a.name, t.Catalog, a.name)
			}
		}
		if t.SigV4 != nil {
			l.errorf(&t.DeclRange, "REST setting on another catalog", "%s: sigv4 signs a REST catalog's requests, and the catalog is %q. Set catalog = \"rest\", or remove the sigv4 block.", where, t.Catalog)
		}
	}
	if t.Token != "" && t.Credential != "" {
		l.errorf(&t.DeclRange, "Two REST credentials", "%s: set token (a bearer token) or credential (OAuth2 client credentials), not both.", where)
	}
	if t.URI == "" && (t.Catalog == "rest" || destType != "local") {
		l.errorf(&t.DeclRange, "Table catalog without uri", "%s: set uri to the catalog's address; only a local destination has a default (a SQLite database in its folder).", where)
	}
	if t.Namespace == "" || t.Name == "" {
		l.errorf(&t.DeclRange, "Table without a name", "%s: an Iceberg table needs namespace and name (namespace = \"lake\", name = \"orders\").", where)
	} else if !validName(t.Namespace) || !validName(t.Name) {
		l.errorf(&t.DeclRange, "Invalid table name", "%s: namespace %q and name %q must be names: letters, digits, '_' and '-', starting with a letter.", where, t.Namespace, t.Name)
	}
}

// checkCatalogPassword refuses a PostgreSQL catalog uri that holds a
// password in plain text (in its user info or its query), as secret
// attributes are refused: the password must come from a sensitive variable,
// or stay out of the configuration (PGPASSWORD, ~/.pgpass).
func (l *loader) checkCatalogPassword(body hcl.Body) {
	l.eachValue(body, []string{"uri"}, func(_ string, a *hcl.Attribute, v cty.Value) {
		if v.HasMark(SensitiveMark) || !v.IsKnown() || v.IsNull() || !v.Type().Equals(cty.String) {
			return
		}
		s := v.AsString()
		if !strings.HasPrefix(s, "postgres://") && !strings.HasPrefix(s, "postgresql://") {
			return
		}
		u, err := url.Parse(s)
		if err != nil {
			return // the catalog reports it, and redacts it
		}
		_, inUser := u.User.Password()
		if inUser || u.Query().Has("password") {
			l.errorf(a.Expr.Range().Ptr(), "Secret from plain text", "The table's catalog uri holds a password, which must never be written in a configuration file nor shown in output. Take it from a variable declared with sensitive = true (uri = \"postgres://user:${var.pg_password}@host:5432/db\"), or leave it out and set PGPASSWORD or ~/.pgpass where streamctl runs.")
		}
	})
}

// tableSchema documents the table block of a destination of type destType.
func tableSchema(destType string) *SchemaBlock {
	return &SchemaBlock{
		Example: tableExamples[destType],
		Type:    "table",
		Max:     1,
		Summary: "Commits each batch as one snapshot of an Apache Iceberg table or one version of a Delta Lake table, as well as by streamctl's manifests.",
		Description: "The table's location is the destination: its data files are the batch's Parquet files, " +
			"and its snapshots are the commits every engine reads atomically. Each Iceberg snapshot's summary records " +
			"the sink, the batch and its source ranges, and each Delta version a txn action (appId the sink, version the batch), " +
			"so that a retry finds the batch committed and never appends it twice. A Delta table has no catalog: " +
			"its log is the destination's _delta_log folder, and only format is set.",
		Attributes: structAttributes(Table{}, map[string]providers.Attribute{
			"format":              {Example: `"iceberg"`, Allowed: TableFormats},
			"catalog":             {Default: `"sql"`, Example: `"rest"`, Allowed: TableCatalogs},
			"uri":                 {Default: "local destinations: `<path>/_streamctl/iceberg/catalog.db`", Example: `"postgres://streamctl@db.example:5432/lake"`},
			"namespace":           {Default: "required for Iceberg; not set for Delta", Example: `"lake"`},
			"name":                {Default: "required for Iceberg; not set for Delta", Example: `"orders"`},
			"warehouse":           {Default: "none: the catalog's default", Example: `"lake"`},
			"token":               {Default: "none", Example: "var.catalog_token"},
			"credential":          {Default: "none", Example: "var.catalog_credential"},
			"properties":          {Default: "none", Example: `{ scope = "PRINCIPAL_ROLE:ALL" }`},
			"checkpoint_interval": {Default: "the table's delta.checkpointInterval, else 10; Delta only", Example: "10"},
		}, tableSecrets, nil),
		Blocks: []*SchemaBlock{{
			Type:    "sigv4",
			Max:     1,
			Summary: "Signs the REST catalog's requests with AWS Signature Version 4 (Glue's and S3 Tables' REST endpoints), with the AWS default credential chain.",
			Description: "For Glue, uri = \"https://glue.<region>.amazonaws.com/iceberg\", warehouse the account id, service \"glue\"; " +
				"for S3 Tables, uri = \"https://s3tables.<region>.amazonaws.com/iceberg\", warehouse the table bucket's ARN, service \"s3tables\". " +
				"Not tested against AWS by streamctl's suite, which has no AWS account: the signing is iceberg-go's.",
			Attributes: structAttributes(SigV4{}, map[string]providers.Attribute{
				"region":  {Example: `"eu-west-1"`},
				"service": {Default: `"execute-api"`, Example: `"glue"`},
			}, nil, nil),
		}},
	}
}

// tableRange is where the table block of a destination body starts.
func tableRange(body hcl.Body) hcl.Range {
	content, _, _ := body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "table"}}})
	if content != nil && len(content.Blocks) > 0 {
		return content.Blocks[0].DefRange
	}
	return body.MissingItemRange()
}

// checkDeltaTable refuses a Delta table block that cannot work: a Delta
// table is its destination's folder, with no catalog, holds Parquet files,
// and is partitioned by columns, not by transforms of them.
func (l *loader) checkDeltaTable(t *Table, s *Sink, where string) {
	for _, a := range []struct{ name, value string }{{"catalog", t.Catalog}, {"uri", t.URI}, {"namespace", t.Namespace}, {"name", t.Name}} {
		if a.value != "" {
			l.errorf(&t.DeclRange, "Iceberg setting on a Delta table", "%s: %s is a setting of Iceberg tables; a Delta table is the destination's folder, with its log in _delta_log and no catalog. Remove %s.", where, a.name, a.name)
		}
	}
	if len(t.Properties) > 0 {
		l.errorf(&t.DeclRange, "Iceberg setting on a Delta table", "%s: properties are passed to an Iceberg catalog; a Delta table has none. Remove properties.", where)
	}
	if t.CheckpointInterval < 0 {
		l.errorf(&t.DeclRange, "Invalid checkpoint interval", "%s: checkpoint_interval = %d; set a number of versions of 1 or more (a checkpoint every that many versions), or leave it out for the table's delta.checkpointInterval, else 10.", where, t.CheckpointInterval)
	}
	if s.Format != "parquet" {
		l.errorf(&t.DeclRange, "Table needs Parquet", "%s: a Delta table holds Parquet files, and the sink writes %s. Set format = \"parquet\" (with its columns) on the sink.", where, s.Format)
		return
	}
	for _, expr := range s.PartitionBy {
		f, err := partition.Parse(expr)
		if err != nil {
			continue // reported with partition_by
		}
		if f.Transform != partition.Identity {
			l.errorf(&t.DeclRange, "Partition transform on a Delta table", "%s: partition_by %q is a %s transform, which a Delta table cannot express (its partitions are column values). Partition by a column, or add a column holding the value (for example a date column for day(ts)).", where, expr, f.Transform)
			continue
		}
		i := slices.IndexFunc(s.Columns, func(c Column) bool { return c.Name == f.Source })
		if i < 0 {
			l.errorf(&t.DeclRange, "Partition field not a column", "%s: partition_by %q is not a declared column; a Delta table's partition columns are columns of its schema. Declare a column %q.", where, expr, f.Source)
			continue
		}
		switch typ := s.Columns[i].Type; typ {
		case "string", "int32", "int64", "bool", "date":
		default:
			l.errorf(&t.DeclRange, "Partition column type on a Delta table", "%s: partition_by %q is a %s column; a Delta table here is partitioned by string, int32, int64, bool or date columns. Partition by one of those.", where, expr, typ)
		}
	}
}

// tableSinkHead is the sink the table examples share: a Parquet sink whose
// columns are the table's.
const tableSinkHead = `source "generate" "orders" {
  partitions            = 4
  records_per_partition = 10000
}

sink "orders" {
  source       = source.generate.orders
  format       = "parquet"
  partition_by = ["day(ts)"]

  column "id" {
    type = "int64"
  }
  column "ts" {
    type = "timestamp"
  }
`

// tableExamples are the reference's examples of a table block, by the type
// of its destination. The table's location is the destination's folder;
// its metadata is at <location>/metadata, with version-hint.text.
var tableExamples = map[string]string{
	"local": tableSinkHead + `
  destination "local" "lake" {
    path = "out/lake"

    # Catalog "streamctl" in out/lake/_streamctl/iceberg/catalog.db (SQLite);
    # engines that read by location open out/lake.
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
  }
}
`,
	"s3": tableSinkHead + `
  destination "s3" "lake" {
    bucket = "lake-eu"
    prefix = "orders"
    region = "eu-west-1"

    # Catalog "streamctl" in PostgreSQL (the password from PGPASSWORD or
    # ~/.pgpass), where Spark's and Trino's JDBC catalogs find it too; the
    # table is at s3://lake-eu/orders.
    table {
      format    = "iceberg"
      catalog   = "sql"
      uri       = "postgres://streamctl@db.example:5432/lake"
      namespace = "lake"
      name      = "orders"
    }
  }
}
`,
	"gcs": tableSinkHead + `
  destination "gcs" "lake" {
    bucket = "lake-eu"
    prefix = "orders"

    # Catalog "streamctl" in PostgreSQL; the table is at
    # gs://lake-eu/orders, its metadata written with the destination's
    # credentials.
    table {
      format    = "iceberg"
      uri       = "postgres://streamctl@db.example:5432/lake"
      namespace = "lake"
      name      = "orders"
    }
  }
}
`,
	"azblob": tableSinkHead + `
  destination "azblob" "lake" {
    account_name = "lakeeu"
    container    = "orders"

    # A REST catalog; the table is at
    # wasbs://orders@lakeeu.blob.core.windows.net.
    table {
      format    = "iceberg"
      catalog   = "rest"
      uri       = "https://catalog.example/api/catalog"
      warehouse = "lake"
      namespace = "lake"
      name      = "orders"
    }
  }
}
`,
}
