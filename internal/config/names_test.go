package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/providers/all"
)

// namesConfig is a Parquet sink with the columns cols (one per line from
// line 10 on) and partition_by on line 8.
func namesConfig(partitionBy string, cols ...string) string {
	var body strings.Builder
	for _, c := range cols {
		fmt.Fprintf(&body, "  column %q { type = %q }\n", c, map[bool]string{true: "timestamp", false: "string"}[c == "ts"])
	}
	return fmt.Sprintf(`source "generate" "orders" {
  records_per_partition = 10
}

sink "orders" {
  source       = source.generate.orders
  format       = "parquet"
  partition_by = %s

%s
  destination "local" "a" {
    path = "out/a"
  }
}
`, partitionBy, body.String())
}

// Readers of Hive folders read a folder's value in place of a file's column
// of the same name, and match names without case: validate refuses the
// columns they could not tell apart, pointing at the column.
func TestValidateRefusesNamesReadersConfuse(t *testing.T) {
	for _, tc := range []struct {
		name        string
		partitionBy string
		cols        []string
		line        int // of the diagnostic's subject; 0: valid
		detail      string
	}{
		{"identity column is its folder", `["country", "day(ts)"]`, []string{"id", "country", "ts"}, 0, ""},
		{"transform folder", `["day(ts)"]`, []string{"id", "ts", "ts_day"}, 12,
			`column "ts_day": partition_by "day(ts)" writes folders named ts_day, and readers of Hive folders read the folder's value in place of the column's`},
		{"transform folder, other case", `["bucket(8, id)"]`, []string{"id", "ID_Bucket"}, 11, `column "ID_Bucket": partition_by "bucket(8, id)" writes folders named id_bucket`},
		{"case only", `[]`, []string{"ID", "name", "id"}, 12, `column "id": its name differs from column "ID" only in case`},
		{"identity folder, other case", `["country"]`, []string{"id", "Country"}, 11, `column "Country": partition_by "country" writes folders named country`},
		{"two folders, case only", `["country", "Country"]`, []string{"id"}, 8, `partition_by "Country": its folder name differs from "country"'s only in case`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.hcl": namesConfig(tc.partitionBy, tc.cols...)})
			_, diags := Load(dir, all.Kinds(), Inputs{})
			if tc.line == 0 {
				if diags.HasErrors() {
					t.Fatal(diags.Error())
				}
				return
			}
			d := findDiag(diags, "Ambiguous output name")
			if d == nil {
				t.Fatalf("no \"Ambiguous output name\" diagnostic:\n%s", diagList(diags))
			}
			if !strings.Contains(d.Detail, tc.detail) {
				t.Errorf("detail lacks %q:\n%s", tc.detail, d.Detail)
			}
			if d.Subject == nil || filepath.Base(d.Subject.Filename) != "main.hcl" || d.Subject.Start.Line != tc.line {
				t.Errorf("subject %v, want main.hcl line %d", d.Subject, tc.line)
			}
			if n := countErrors(diags); n != 1 {
				t.Errorf("%d errors, want 1:\n%s", n, diagList(diags))
			}
		})
	}
}
