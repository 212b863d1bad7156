package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers/all"
)

// routeConfig is a sink with columns routed by routeBy; route_by is on line 9.
func routeConfig(routeBy string) string {
	return fmt.Sprintf(`source "generate" "orders" {
  partitions            = 2
  records_per_partition = 10
}

sink "orders" {
  source   = source.generate.orders
  format   = "parquet"
  route_by = %q

  column "id"          { type = "int64" }
  column "customer_id" { type = "int64" }
  column "cust"        {
    type = "int64"
    from = "customer.id"
  }

  destination "local" "a" {
    path = "out/a"
  }
  destination "local" "b" {
    path = "out/b"
  }
}
`, routeBy)
}

// A sink with columns routes by one of them (or by record metadata): any
// other name would read a field the records are not known to have, and
// route every record that lacks it to one destination.
func TestRouteByNamesAColumn(t *testing.T) {
	for _, tc := range []struct {
		routeBy  string
		contains []string // "" for a valid configuration
	}{
		{routeBy: "customer_id"},
		{routeBy: "cust"},
		{routeBy: "_key"},
		{routeBy: "_partition"},
		{"customer", []string{`Sink "orders" routes by "customer", which is none of its columns: id, customer_id, cust.`, `Did you mean "customer_id"?`}},
		{"custmer_id", []string{`Did you mean "customer_id"?`}},
		{"customer.id", []string{`routes by "customer.id"`, `Did you mean "cust"? It reads customer.id.`}},
		{"region", []string{`Sink "orders" routes by "region", which is none of its columns: id, customer_id, cust.`, `Declare a column "region"`}},
	} {
		t.Run(tc.routeBy, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.hcl": routeConfig(tc.routeBy)})
			_, diags := Load(dir, all.Kinds(), Inputs{})
			if tc.contains == nil {
				if diags.HasErrors() {
					t.Fatal(diags.Error())
				}
				return
			}
			d := findDiag(diags, "Unknown route_by column")
			if d == nil {
				t.Fatalf("no \"Unknown route_by column\" diagnostic:\n%s", diagList(diags))
			}
			for _, want := range tc.contains {
				if !strings.Contains(d.Detail, want) {
					t.Errorf("detail lacks %q:\n%s", want, d.Detail)
				}
			}
			if d.Subject == nil || filepath.Base(d.Subject.Filename) != "main.hcl" || d.Subject.Start.Line != 9 {
				t.Errorf("subject %v, want main.hcl line 9", d.Subject)
			}
			if n := countErrors(diags); n != 1 {
				t.Errorf("%d errors, want 1:\n%s", n, diagList(diags))
			}
		})
	}
}

// Without columns, the records' fields are not declared: any path is valid
// at validate time (records that lack it are invalid when they are written).
func TestRouteByWithoutColumns(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.hcl": `source "generate" "orders" {
  partitions            = 2
  records_per_partition = 10
}
sink "orders" {
  source   = source.generate.orders
  route_by = "customer.region"
  destination "local" "a" {
    path = "out/a"
  }
  destination "local" "b" {
    path = "out/b"
  }
}
`})
	if _, diags := Load(dir, all.Kinds(), Inputs{}); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
}
