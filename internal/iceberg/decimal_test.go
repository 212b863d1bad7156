package iceberg_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	ice "github.com/apache/iceberg-go"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/pipeline"
)

// Decimal columns are Iceberg decimals of the declared precision and scale;
// iceberg-go's scan reads every value exactly, and the data files' bounds
// are the signed min and max.
func TestDecimalColumns(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	cols := []format.Column{
		{Name: "id", Type: "int64", Nullable: new(bool)},
		{Name: "price", Type: "decimal(9,2)"},
		{Name: "total", Type: "decimal(18,4)"},
		{Name: "wide", Type: "decimal(38,6)"},
	}
	cfg := iceberg.Config{Namespace: []string{"lake"}, Table: "prices", Location: "file://" + root, Columns: cols}
	tb := open(t, cfg)
	recs := []map[string]any{
		{"id": 0, "price": json.Number("-12.30"), "total": json.Number("99999999999999.9999"), "wide": json.Number("-12345678901234567890123456789012.123456")},
		{"id": 1, "price": json.Number("0.05"), "total": "-0.0001", "wide": "0.000001"},
		{"id": 2},
		{"id": 3, "price": json.Number("9999999.99"), "total": json.Number("0"), "wide": json.Number("99999999999999999999999999999999.999999")},
	}
	if err := tb.Append(ctx, "prices", 0, "r", writeBatch(t, root, pipeline.Layout{Columns: cols}, 0, recs)); err != nil {
		t.Fatal(err)
	}

	schema := tb.Iceberg().Schema()
	for _, c := range cols[1:] {
		f, _ := schema.FindFieldByName(c.Name)
		ft, _ := format.ParseType(c.Type)
		if want := ice.DecimalTypeOf(ft.Precision, ft.Scale); !f.Type.Equals(want) {
			t.Errorf("column %s is Iceberg %s, want %s", c.Name, f.Type, want)
		}
	}

	want := map[string][]string{
		"price": {"-12.30", "0.05", "<nil>", "9999999.99"},
		"total": {"99999999999999.9999", "-0.0001", "<nil>", "0.0000"},
		"wide":  {"-12345678901234567890123456789012.123456", "0.000001", "<nil>", "99999999999999999999999999999999.999999"},
	}
	rows := scanRows(t, tb.Iceberg(), nil)
	if len(rows) != len(recs) {
		t.Fatalf("scan reads %d rows, want %d", len(rows), len(recs))
	}
	for _, r := range rows {
		var id int
		fmt.Sscan(fmt.Sprint(r["id"]), &id)
		for col, w := range want {
			if got := fmt.Sprint(r[col]); got != w[id] {
				t.Errorf("id %d: %s = %s (%T), want %s", id, col, got, r[col], w[id])
			}
		}
	}

	tasks, err := tb.Iceberg().Scan().PlanFiles(ctx)
	if err != nil || len(tasks) != 1 {
		t.Fatalf("%d files planned: %v", len(tasks), err)
	}
	bounds := map[string][2]string{
		"price": {"-12.30", "9999999.99"},
		"total": {"-0.0001", "99999999999999.9999"},
		"wide":  {"-12345678901234567890123456789012.123456", "99999999999999999999999999999999.999999"},
	}
	df := tasks[0].File
	for col, b := range bounds {
		f, _ := schema.FindFieldByName(col)
		for k, m := range []map[int][]byte{df.LowerBoundValues(), df.UpperBoundValues()} {
			lit, err := ice.LiteralFromBytes(f.Type, m[f.ID])
			if err != nil {
				t.Errorf("%s: bound %x: %v", col, m[f.ID], err)
				continue
			}
			if got := lit.String(); got != b[k] {
				t.Errorf("%s: bound %d is %s, want %s", col, k, got, b[k])
			}
		}
	}
}
