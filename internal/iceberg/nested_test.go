package iceberg_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/pipeline"
)

// Nested columns are Iceberg structs, lists and maps; iceberg-go's scan
// reads every value back, over two batches (the second Open compares the
// table's schema, nested ids included, with the columns).
func TestNestedColumns(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	cols := []format.Column{
		{Name: "id", Type: "int64", Nullable: new(bool)},
		{Name: "addr", Type: "struct<city:string,geo:struct<lat:double,lon:double>>"},
		{Name: "items", Type: "list<struct<sku:string,price:decimal(10,2)>>"},
		{Name: "attrs", Type: "map<string,list<int32>>"},
	}
	cfg := iceberg.Config{Namespace: []string{"lake"}, Table: "nested", Location: "file://" + root, Columns: cols}
	rec := func(i int) map[string]any {
		return map[string]any{"id": i, "addr": map[string]any{"city": fmt.Sprint("c", i), "geo": map[string]any{"lat": float64(i) + 0.5}},
			"items": []any{map[string]any{"sku": "a", "price": json.Number(fmt.Sprint(i, ".25"))}, nil}, "attrs": map[string]any{"k": []any{i, nil}}}
	}
	for b := range 2 {
		tb := open(t, cfg)
		var recs []map[string]any
		for i := b * 10; i < b*10+10; i++ {
			recs = append(recs, rec(i))
		}
		recs = append(recs, map[string]any{"id": 100 + b, "items": []any{}, "attrs": map[string]any{}})
		if err := tb.Append(ctx, "nested", int64(b), "r", writeBatch(t, root, pipeline.Layout{Columns: cols}, int64(b), recs)); err != nil {
			t.Fatal(err)
		}
	}
	tb := open(t, cfg)
	rows := scanRows(t, tb.Iceberg(), nil)
	if len(rows) != 22 {
		t.Fatalf("scan reads %d rows, want 22", len(rows))
	}
	for _, r := range rows {
		got, _ := json.Marshal(map[string]any{"addr": r["addr"], "items": r["items"], "attrs": r["attrs"]})
		var id int
		fmt.Sscan(fmt.Sprint(r["id"]), &id)
		want := fmt.Sprintf(`{"addr":{"city":"c%d","geo":{"lat":%d.5,"lon":null}},"attrs":[{"key":"k","value":[%d,null]}],"items":[{"price":"%d.25","sku":"a"},null]}`, id, id, id, id)
		if id >= 100 {
			want = `{"addr":null,"attrs":[],"items":[]}`
		}
		if string(got) != want {
			t.Errorf("id %d: iceberg-go scans %s, want %s", id, got, want)
		}
	}
}

// A nested column added to a table is added with fresh ids, and scanned
// back: null in the files before it.
func TestNestedColumnAdded(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	cols := []format.Column{{Name: "id", Type: "int64", Nullable: new(bool)}}
	cfg := iceberg.Config{Namespace: []string{"lake"}, Table: "grown", Location: "file://" + root, Columns: cols}
	tb := open(t, cfg)
	if err := tb.Append(ctx, "grown", 0, "r", writeBatch(t, root, pipeline.Layout{Columns: cols}, 0, []map[string]any{{"id": 1}})); err != nil {
		t.Fatal(err)
	}
	cols = append(cols, format.Column{Name: "tags", Type: "list<struct<k:string,v:map<string,int64>>>"})
	cfg.Columns, cfg.ApplySchemaChanges = cols, true
	tb = open(t, cfg)
	rec := map[string]any{"id": 2, "tags": []any{map[string]any{"k": "a", "v": map[string]any{"x": 7}}}}
	if err := tb.Append(ctx, "grown", 1, "r", writeBatch(t, root, pipeline.Layout{Columns: cols}, 1, []map[string]any{rec})); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range scanRows(t, tb.Iceberg(), nil) {
		b, _ := json.Marshal(r["tags"])
		got[fmt.Sprint(r["id"])] = string(b)
	}
	if want := map[string]string{"1": "null", "2": `[{"k":"a","v":[{"key":"x","value":7}]}]`}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("iceberg-go scans %v, want %v", got, want)
	}
}
