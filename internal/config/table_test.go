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

// TestTableOnShardedSinkIsRefused: the shards of one sink would commit to one
// table each on its own, which is not built: validate says so.
func TestTableOnShardedSinkIsRefused(t *testing.T) {
	cfg := strings.Replace(tableConfig(`"/tmp/catalog.db"`), `format = "parquet"`, "format = \"parquet\"\n  shards = 4", 1)
	dir := writeFiles(t, map[string]string{"main.hcl": cfg})
	_, diags := Load(dir, all.Kinds(), Inputs{})
	if !strings.Contains(render(diags), "Table on a sharded sink") || !strings.Contains(render(diags), "shards = 4 cannot write an Iceberg table yet") {
		t.Fatalf("want the table on a sharded sink refused, got:\n%s", render(diags))
	}
	one := strings.Replace(cfg, "shards = 4", "shards = 1", 1)
	if _, diags := Load(writeFiles(t, map[string]string{"main.hcl": one}), all.Kinds(), Inputs{}); diags.HasErrors() {
		t.Fatalf("shards = 1 with a table: %s", render(diags))
	}
}
