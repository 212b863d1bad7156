package iceberg_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	ice "github.com/apache/iceberg-go"
	"github.com/parquet-go/parquet-go"

	"github.com/streamctl/streamctl/internal/format"
)

// Every transform: each file's partition values, read from its folder,
// are the ones iceberg-go's own transforms give for every record in it.
func TestTransformPartitionValues(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	by := []string{"bucket(4, id)", "truncate(1, country)", "hour(ts)", "year(day)", "truncate(10, qty)"}
	tb := open(t, config(root, by...))
	files := writeBatch(t, root, layoutWith(by...), 0, records(0, 90))
	if err := tb.Append(ctx, "orders", 0, "r", files); err != nil {
		t.Fatal(err)
	}
	spec := tb.Iceberg().Spec()
	schema := tb.Iceberg().Schema()
	tasks, err := tb.Iceberg().Scan().PlanFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != len(files) || len(tasks) < 20 {
		t.Fatalf("%d files planned, %d written", len(tasks), len(files))
	}
	type row struct {
		ID int64 `parquet:"id"`
	}
	n := 0
	for _, task := range tasks {
		rows, err := parquet.ReadFile[row](strings.TrimPrefix(task.File.FilePath(), "file://"))
		if err != nil {
			t.Fatal(err)
		}
		pv := task.File.Partition()
		for _, r := range rows {
			n++
			rec := record(int(r.ID))
			for i := range spec.NumFields() {
				f := spec.Field(i)
				src, _ := schema.FindFieldByID(f.SourceID())
				want := f.Transform.Apply(sourceLiteral(t, src.Name, rec[src.Name]))
				got := pv[f.FieldID]
				if !want.Valid {
					if got != nil {
						t.Errorf("%s: id %d: %s = %v, want null", task.File.FilePath(), r.ID, f.Name, got)
					}
					continue
				}
				if fmt.Sprint(got) != fmt.Sprint(want.Val.Any()) {
					t.Errorf("%s: id %d: %s = %v (%T), want %v (%T)", task.File.FilePath(), r.ID, f.Name, got, got, want.Val.Any(), want.Val.Any())
				}
			}
		}
	}
	if n != 90 {
		t.Errorf("read %d records from the files, want 90", n)
	}
}

// sourceLiteral is the Iceberg literal of a record's value of column col.
func sourceLiteral(t *testing.T, col string, v any) ice.Optional[ice.Literal] {
	t.Helper()
	if v == nil {
		return ice.Optional[ice.Literal]{}
	}
	var lit ice.Literal
	switch col {
	case "id":
		lit = ice.Int64Literal(int64(v.(int)))
	case "qty":
		lit = ice.Int32Literal(int32(v.(int)))
	case "country":
		lit = ice.StringLiteral(v.(string))
	case "ts":
		ms, ok := format.ParseTimestamp([]byte(v.(string)))
		if !ok {
			t.Fatalf("ts %q", v)
		}
		lit = ice.TimestampLiteral(ms * 1000)
	case "day":
		d, ok := format.ParseDate([]byte(v.(string)))
		if !ok {
			t.Fatalf("day %q", v)
		}
		lit = ice.DateLiteral(d)
	default:
		t.Fatalf("no literal for column %s", col)
	}
	return ice.Optional[ice.Literal]{Valid: true, Val: lit}
}
