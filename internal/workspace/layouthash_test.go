package workspace

import "testing"

// TestLayoutHashOfDeclaredSinks pins the layout hash of sinks as declared in
// HCL, through loading and opening: an in-flight batch records it, and a
// retry under another hash is refused, so the hash of an unchanged
// configuration must not move when the layout is built elsewhere.
func TestLayoutHashOfDeclaredSinks(t *testing.T) {
	f := newFixture(t)
	cfg := f.load(`
source "generate" "orders" {
  partitions            = 1
  records_per_partition = 10
}
sink "plain" {
  source = source.generate.orders
  destination "mem" "lake" { bucket = "plain" }
}
sink "defaults" {
  source = source.generate.orders
  format = "parquet"
  column "id" { type = "int64" }
  destination "mem" "lake" { bucket = "defaults" }
}
sink "declared" {
  source            = source.generate.orders
  format            = "parquet"
  compression       = "snappy"
  partition_by      = ["country"]
  route_by          = "id"
  max_file_records  = 500
  row_group_records = 131072
  on_invalid        = "reject"
  column "id"      { type = "int64" }
  column "country" { type = "string" }
  destination "mem" "a" { bucket = "a" }
  destination "mem" "b" { bucket = "b" }
}
sink "csv" {
  source           = source.generate.orders
  format           = "csv"
  max_file_records = 7
  column "id" { type = "int64" }
  destination "mem" "lake" { bucket = "csv" }
}
`)
	want := map[string]string{
		"plain":    "6e0ab5014e55250e",
		"defaults": "43099cd54f6b1bee",
		"declared": "2533dce21dbd1c70",
		"csv":      "78b5d050137b1045",
	}
	w := f.open(cfg)
	for _, s := range w.Sinks {
		if got := s.LayoutHash; got != want[s.Name] {
			t.Errorf("sink %s: layout hash %s, want %s", s.Name, got, want[s.Name])
		}
	}
	if len(w.Sinks) != len(want) {
		t.Errorf("%d sinks opened, want %d", len(w.Sinks), len(want))
	}
}
