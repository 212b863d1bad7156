package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, dir, hcl string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
}

func columnsConfig(amountType, tagsType string) string {
	return `
source "generate" "orders" {
  partitions            = 1
  records_per_partition = 10
}

sink "orders" {
  source = source.generate.orders
  format = "parquet"

  column "id" {
    type     = "int64"
    nullable = false
  }
  column "amount" {
    type = "` + amountType + `"
  }
  column "country" {
    type = "string"
  }
  column "tags" {
    type = "` + tagsType + `"
  }

  destination "local" "lake" {
    path = "out/lake"
  }
}
`
}

// The plan of a sink's first batches lists the columns it writes with
// their types, nested ones too; a changed type is a layout change the plan shows, whatever
// the type's spelling.
func TestPlanShowsColumns(t *testing.T) {
	c := newCLI(t, columnsConfig("decimal( 12 , 2 )", "struct<first:list<string>, `by-key`:map<string,int64>>"))
	plan := c.must(ExitChanges, "plan", "-detailed-exitcode")
	golden(t, "plan-columns.txt", plan.stdout)
	c.must(ExitOK, "apply", "-auto-approve")

	// Another spelling of the same type is the same layout: nothing to do.
	writeConfig(t, c.dir, columnsConfig("decimal(12,2)", "struct<first:list<string>,`by-key`:map<string,int64>>"))
	if again := c.must(ExitOK, "plan", "-detailed-exitcode"); !strings.Contains(again.stdout, "No changes.") {
		t.Errorf("the same type spelled otherwise is planned as a change:\n%s", again.stdout)
	}

	writeConfig(t, c.dir, columnsConfig("decimal(14,4)", "struct<first:list<int64>,`by-key`:map<string,int64>>"))
	changed := c.must(ExitOK, "plan")
	for _, want := range []string{
		"~ update output settings in place",
		`~ column "amount" = { type = "decimal(12,2)" } → { type = "decimal(14,4)" }`,
		"~ column \"tags\" = { type = \"struct<first:list<string>,`by-key`:map<string,int64>>\" } → { type = \"struct<first:list<int64>,`by-key`:map<string,int64>>\" }",
	} {
		if !strings.Contains(changed.stdout, want) {
			t.Errorf("the plan of a changed column type lacks %q:\n%s", want, changed.stdout)
		}
	}
	if strings.Contains(changed.stdout, "write the columns") {
		t.Errorf("a sink with batches lists its columns again:\n%s", changed.stdout)
	}
}
