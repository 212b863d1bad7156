package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers/local"
)

// restTableConfig is shardedIcebergConfig with its table in the REST
// catalog at uri, authenticated by the OAuth2 client credentials of the
// sensitive variable catalog_credential, in its warehouse "lake".
func restTableConfig(uri string) string {
	hcl := strings.Replace(shardedIcebergConfig(), `      format    = "iceberg"
`, fmt.Sprintf(`      format     = "iceberg"
      catalog    = "rest"
      uri        = %q
      warehouse  = "lake"
      credential = var.catalog_credential
`, uri), 1)
	return "variable \"catalog_credential\" {\n  type      = string\n  sensitive = true\n}\n" + hcl
}

// TestIcebergRESTCatalogOutage: eight shards commit their batches to one
// table through a REST catalog (iceberg-go's REST client, OAuth2 client
// credentials from a sensitive variable), conflicting with each other. In
// the middle of the apply the catalog makes a commit and goes down before
// answering (503), and stays down: the apply fails, naming the catalog,
// with no batch lost. Once the catalog is back, the next apply converges:
// the lost answer's batch is found in the table and not appended again,
// every record is once in the table, one snapshot per shard-batch, and plan
// has nothing left to do.
func TestIcebergRESTCatalogOutage(t *testing.T) {
	t.Parallel()
	srv := testenv.StartRESTCatalog(t)
	dir := writeConfig(t, restTableConfig(srv.URL))
	env := []string{"STREAMCTL_VAR_catalog_credential=" + srv.ClientID + ":" + srv.ClientSecret}

	srv.LoseAnswerAfter(9)
	r := run(t, dir, env, applyAllShards...)
	if r.code == 0 || r.killed {
		t.Fatalf("apply with the catalog down after 9 commits: want a failure, got %s", r)
	}
	if !strings.Contains(r.stderr, "iceberg table lake.orders") || !strings.Contains(r.stderr, "ServiceUnavailableException") {
		t.Errorf("the failure does not name the table and the catalog's 503: %s", r)
	}
	if strings.Contains(r.stdout+r.stderr, srv.ClientSecret) {
		t.Errorf("the output shows the client secret: %s", r)
	}
	if w := srv.Warehouse(); w != "lake" {
		t.Errorf("the client asked the catalog for warehouse %q, want the table block's \"lake\"", w)
	}
	if n := srv.Commits(); n != 9 {
		t.Errorf("the catalog made %d commits before it went down, want 9", n)
	}

	srv.SetDown(false)
	mustRun(t, dir, 0, env, applyAllShards...)
	mustRun(t, dir, 0, env, "plan", "-detailed-exitcode", "-no-color")
	t.Logf("the catalog refused %d commits of %d with 409 (a shard beaten by another)", srv.Conflicts(), srv.Commits())
	want := tableShardPartitions * tableShardRecords
	if got := fmt.Sprint(duckdb(t, dir, `SELECT count(*), count(DISTINCT id) FROM read_parquet('out/folder/**/*.parquet')`)); got != fmt.Sprintf("[[%d %d]]", want, want) {
		t.Errorf("the Hive-folder destination: %s (want %d records, each once)", got, want)
	}
	checkShardedTable(t, dir, local.New(filepath.Join(dir, "out", "table")), iceberg.Config{
		Catalog: iceberg.CatalogREST, URI: srv.URL, Token: srv.Token,
		Location: "file://" + filepath.ToSlash(filepath.Join(dir, "out", "table")),
	})
}
