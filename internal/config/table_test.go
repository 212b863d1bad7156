package config

import (
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers/all"
)

// tableConfig is a sink whose local destination commits an Iceberg table
// to the catalog at uri (an HCL expression).
func tableConfig(uri string) string {
	return `
variable "pg_password" {
  default   = "canary-pw"
  sensitive = true
}
variable "host" {
  default = "db.example"
}
source "generate" "orders" {
  records_per_partition = 10
}
sink "orders" {
  source = source.generate.orders
  format = "parquet"
  column "id" {
    type = "int64"
  }
  destination "local" "lake" {
    path = "out"
    table {
      format    = "iceberg"
      uri       = ` + uri + `
      namespace = "lake"
      name      = "orders"
    }
  }
}
`
}

// A PostgreSQL catalog's password is a secret: in the uri it must come from
// a sensitive variable, or from libpq's PGPASSWORD and ~/.pgpass.
func TestTablePostgresPassword(t *testing.T) {
	for _, uri := range []string{
		`"postgres://streamctl:canary-pw@db.example:5432/lake"`,
		`"postgresql://db.example/lake?user=streamctl&password=canary-pw"`,
	} {
		_, diags := Load(writeFiles(t, map[string]string{"main.hcl": tableConfig(uri)}), all.Kinds(), Inputs{})
		d := wantDiag(t, diags, "Secret from plain text")
		if strings.Contains(d.Detail, "canary") || !strings.Contains(d.Detail, "PGPASSWORD") {
			t.Errorf("%s: the diagnostic shows the password or does not say what to do: %s", uri, d.Detail)
		}
	}
	for _, uri := range []string{
		`"postgres://streamctl:${var.pg_password}@${var.host}:5432/lake"`,
		`"postgres://streamctl@db.example:5432/lake?sslmode=require"`,
		`"catalog.db"`,
	} {
		cfg, diags := Load(writeFiles(t, map[string]string{"main.hcl": tableConfig(uri)}), all.Kinds(), Inputs{})
		if diags.HasErrors() {
			t.Errorf("%s: %v", uri, diags)
			continue
		}
		if got := cfg.Sinks[0].Destinations[0].Table.Catalog; got != "sql" {
			t.Errorf("%s: catalog %q, want sql", uri, got)
		}
	}
}

// TestTableOnShardedSink: the shards of a sink commit to its one table,
// Iceberg or Delta, each snapshot or version one shard's batch: every
// shard has the table.
func TestTableOnShardedSink(t *testing.T) {
	cfg := strings.Replace(tableConfig(`"/tmp/catalog.db"`), `format = "parquet"`, "format = \"parquet\"\n  shards = 4", 1)
	loaded, diags := Load(writeFiles(t, map[string]string{"main.hcl": cfg}), all.Kinds(), Inputs{})
	if diags.HasErrors() {
		t.Fatalf("an Iceberg table on a sink with shards = 4: %s", render(diags))
	}
	if n := len(loaded.Sinks); n != 4 {
		t.Errorf("%d sinks, want the 4 shards", n)
	}
	for _, s := range loaded.Sinks {
		if s.Destinations[0].Table == nil {
			t.Errorf("shard %s has no table", s.Name)
		}
	}
	delta := strings.Replace(deltaTableConfig(`"country"`, `format = "delta"`), `format       = "parquet"`, "format       = \"parquet\"\n  shards       = 4", 1)
	loaded, diags = Load(writeFiles(t, map[string]string{"main.hcl": delta}), all.Kinds(), Inputs{})
	if diags.HasErrors() {
		t.Fatalf("a Delta table on a sink with shards = 4: %s", render(diags))
	}
	if n := len(loaded.Sinks); n != 4 {
		t.Errorf("%d sinks, want the 4 shards", n)
	}
	for _, s := range loaded.Sinks {
		if tb := s.Destinations[0].Table; tb == nil || tb.Format != "delta" {
			t.Errorf("shard %s has no Delta table: %+v", s.Name, tb)
		}
	}
}

// deltaTableConfig is a Parquet sink partitioned by partitionBy (HCL list
// items) whose local destination commits a Delta table with table's body.
func deltaTableConfig(partitionBy, table string) string {
	return `
source "generate" "orders" {
  records_per_partition = 10
}
sink "orders" {
  source       = source.generate.orders
  format       = "parquet"
  partition_by = [` + partitionBy + `]
  column "id" {
    type = "int64"
  }
  column "ts" {
    type = "timestamp"
  }
  column "country" {
    type = "string"
  }
  destination "local" "lake" {
    path = "out"
    table {
` + table + `
    }
  }
}
`
}

// TestDeltaTable: format = "delta" needs nothing else; what a Delta table
// cannot hold is refused at validate, at the table block's line.
func TestDeltaTable(t *testing.T) {
	cfg, diags := Load(writeFiles(t, map[string]string{"main.hcl": deltaTableConfig(`"country"`, `format = "delta"`)}), all.Kinds(), Inputs{})
	if diags.HasErrors() {
		t.Fatalf("a Delta table partitioned by a column: %s", render(diags))
	}
	if got := cfg.Sinks[0].Destinations[0].Table.Format; got != "delta" {
		t.Errorf("format %q", got)
	}
	cfg, diags = Load(writeFiles(t, map[string]string{"main.hcl": deltaTableConfig(`"country"`, "format = \"delta\"\n checkpoint_interval = 25")}), all.Kinds(), Inputs{})
	if diags.HasErrors() || cfg.Sinks[0].Destinations[0].Table.CheckpointInterval != 25 {
		t.Errorf("checkpoint_interval = 25: %s", render(diags))
	}
	for _, c := range []struct{ name, partitionBy, table, want string }{
		{"transform", `"day(ts)"`, `format = "delta"`, `partition_by "day(ts)" is a day transform, which a Delta table cannot express`},
		{"bucket", `"bucket(4, id)"`, `format = "delta"`, `partition_by "bucket(4, id)" is a bucket transform`},
		{"timestamp column", `"ts"`, `format = "delta"`, `partition_by "ts" is a timestamp column`},
		{"not a column", `"region"`, `format = "delta"`, `partition_by "region" is not a declared column`},
		{"iceberg settings", `"country"`, "format = \"delta\"\n namespace = \"lake\"\n name = \"orders\"", "namespace is a setting of Iceberg tables"},
		{"negative checkpoint interval", `"country"`, "format = \"delta\"\n checkpoint_interval = -1", "checkpoint_interval = -1; set a number of versions of 1 or more"},
		{"checkpoint interval on Iceberg", `"country"`, "format = \"iceberg\"\n namespace = \"lake\"\n name = \"orders\"\n checkpoint_interval = 5", "checkpoint_interval is a setting of Delta tables"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, diags := Load(writeFiles(t, map[string]string{"main.hcl": deltaTableConfig(c.partitionBy, c.table)}), all.Kinds(), Inputs{})
			out := render(diags)
			if !strings.Contains(out, c.want) || !strings.Contains(out, "main.hcl:20") {
				t.Errorf("want %q at main.hcl:20 (the table block), got:\n%s", c.want, out)
			}
		})
	}
	jsonl := strings.Replace(deltaTableConfig(``, `format = "delta"`), `format       = "parquet"`, `format       = "jsonl"`, 1)
	if _, diags := Load(writeFiles(t, map[string]string{"main.hcl": jsonl}), all.Kinds(), Inputs{}); !strings.Contains(render(diags), "a Delta table holds Parquet files, and the sink writes jsonl") {
		t.Errorf("a Delta table on a JSONL sink: %s", render(diags))
	}
}

// TestIcebergTableNeedsAName: namespace and name, optional for Delta, are
// still required for Iceberg.
func TestIcebergTableNeedsAName(t *testing.T) {
	_, diags := Load(writeFiles(t, map[string]string{"main.hcl": deltaTableConfig(`"country"`, `format = "iceberg"`)}), all.Kinds(), Inputs{})
	if !strings.Contains(render(diags), "an Iceberg table needs namespace and name") {
		t.Errorf("got:\n%s", render(diags))
	}
}

// TestRESTCatalogSettings: a REST catalog's warehouse, token, credential and
// sigv4 are accepted with catalog = "rest" (the secrets from sensitive
// variables), and refused, naming the setting, on another catalog or both
// credentials at once.
func TestRESTCatalogSettings(t *testing.T) {
	rest := func(settings string) string {
		cfg := "variable \"tok\" {\n  sensitive = true\n  default = \"t\"\n}\n" + tableConfig(`"https://catalog.example/api/catalog"`)
		return strings.Replace(cfg, `namespace = "lake"`, "namespace = \"lake\"\n"+settings, 1)
	}
	for _, ok := range []string{
		"catalog = \"rest\"\nwarehouse = \"lake\"\ntoken = var.tok",
		"catalog = \"rest\"\ncredential = var.tok",
		"catalog = \"rest\"\nwarehouse = \"123456789012\"\nsigv4 {\n  region = \"eu-west-1\"\n  service = \"glue\"\n}",
	} {
		cfg, diags := Load(writeFiles(t, map[string]string{"main.hcl": rest(ok)}), all.Kinds(), Inputs{})
		if diags.HasErrors() {
			t.Errorf("%s: %s", ok, render(diags))
			continue
		}
		if tb := cfg.Sinks[0].Destinations[0].Table; tb.Catalog != "rest" {
			t.Errorf("%s: catalog %q", ok, tb.Catalog)
		}
	}
	for _, c := range []struct{ settings, want string }{
		{"warehouse = \"lake\"", `warehouse is a setting of REST catalogs, and the catalog is "sql"`},
		{"token = var.tok", `token is a setting of REST catalogs`},
		{"sigv4 {\n  region = \"eu-west-1\"\n}", "sigv4 signs a REST catalog's requests"},
		{"catalog = \"rest\"\ntoken = var.tok\ncredential = var.tok", "set token (a bearer token) or credential (OAuth2 client credentials), not both"},
		{"catalog = \"rest\"\ntoken = \"plain\"", "token is a secret and must come from a variable declared with sensitive = true"},
	} {
		_, diags := Load(writeFiles(t, map[string]string{"main.hcl": rest(c.settings)}), all.Kinds(), Inputs{})
		if !strings.Contains(render(diags), c.want) {
			t.Errorf("%s: want %q, got:\n%s", c.settings, c.want, render(diags))
		}
	}
}
