package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
)

func tablePlan() *planner.Plan {
	seven := int64(7)
	return &planner.Plan{FormatVersion: 1, ConfigHash: "h", Sinks: []*planner.SinkPlan{{
		Name:     "orders",
		Snapshot: providers.Snapshot{Identity: "generate"},
		Resume:   &planner.Batch{ID: 3, Records: 10, Destinations: []string{"lake"}, Pending: []string{"lake"}},
		Tables: []planner.TablePlan{
			{Destination: "lake", Table: "iceberg table lake.orders", Changes: []string{"add column note (string, optional)"}, Holds: []int64{3},
				Orphans: []planner.OrphanFile{
					{Path: "_streamctl/iceberg/metadata/snap-1-1-u.avro", Kind: planner.OrphanMetadata},
					{Path: "ts_day=2026-01-01/part-00000007-00000.parquet", Kind: planner.OrphanData, Batch: &seven},
				}},
			{Destination: "eu", Table: "iceberg table lake.eu", Create: "4 columns, partitioned by day(ts)"},
		},
	}}}
}

// TestPlanTablesText: the table actions in the human plan and its summary.
func TestPlanTablesText(t *testing.T) {
	var b bytes.Buffer
	PlanText(&b, tablePlan(), Options{})
	want := `streamctl will perform the following actions:

  # sink "orders"
  ~ iceberg table lake.orders: add column note (string, optional)
  + create iceberg table lake.eu (4 columns, partitioned by day(ts))
  - remove orphan metadata file _streamctl/iceberg/metadata/snap-1-1-u.avro of iceberg table lake.orders (left by a failed commit) in lake
  - remove orphan data file ts_day=2026-01-01/part-00000007-00000.parquet of batch 7 (no manifest, no snapshot, not in flight) in lake
  ~ resume batch 3 (in flight): 10 records → lake
  ~ iceberg table lake.orders already holds batch 3: its snapshot is kept, and the batch is not appended again

Plan: 1 batch, 10 records to 1 destination, 1 table to create, 1 table change. 2 orphan files to remove.
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	md := PlanMarkdown(tablePlan(), MarkdownOptions{})
	for _, line := range []string{"\n~ iceberg table lake.orders: add column note (string, optional)\n", "\n+ create iceberg table lake.eu (4 columns, partitioned by day(ts))\n", "\n- remove orphan data file "} {
		if !strings.Contains(md, line) {
			t.Errorf("the Markdown lacks %q:\n%s", line, md)
		}
	}
}

// TestPlanTablesJSON: a table_plan per table, a table_orphan per orphan,
// the tables in sink_plan and the orphan count in plan_summary.
func TestPlanTablesJSON(t *testing.T) {
	var b bytes.Buffer
	NewJSONView(&b, func() time.Time { return time.Unix(0, 0) }).Plan(tablePlan(), "plan")
	var types []string
	var msgs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		types = append(types, m["type"].(string))
		msgs = append(msgs, m)
	}
	if got := strings.Join(types, " "); got != "sink_plan resume_batch table_plan table_orphan table_orphan table_plan plan_summary" {
		t.Fatalf("message types: %s", got)
	}
	if tables := msgs[0]["sink"].(map[string]any)["tables"].([]any); len(tables) != 2 {
		t.Errorf("sink_plan.tables: %v", tables)
	}
	tp := msgs[2]["table"].(map[string]any)
	if tp["table"] != "iceberg table lake.orders" || tp["changes"].([]any)[0] != "add column note (string, optional)" || tp["holds_batches"].([]any)[0] != 3.0 {
		t.Errorf("table_plan: %v", tp)
	}
	if o := msgs[4]["orphan"].(map[string]any); o["kind"] != "data" || o["batch"] != 7.0 || o["status"] != "planned" {
		t.Errorf("table_orphan: %v", o)
	}
	if c := msgs[5]["table"].(map[string]any); c["create"] != "4 columns, partitioned by day(ts)" {
		t.Errorf("table_plan of a table to create: %v", c)
	}
	if s := msgs[6]["changes"].(map[string]any); s["orphan_files"] != 2.0 {
		t.Errorf("plan_summary: %v", s)
	}
}

// TestPlanMoveLeftoversText: the manifests an interrupted move left, beside
// an orphan temporary, in the human plan, its summary and the Markdown.
func TestPlanMoveLeftoversText(t *testing.T) {
	p := &planner.Plan{FormatVersion: 1, ConfigHash: "h", Sinks: []*planner.SinkPlan{{
		Name:     "orders",
		Snapshot: providers.Snapshot{Identity: "generate"},
		Cleanups: []planner.Cleanup{{Destination: "a", Batch: 4}, {Destination: "a", Manifests: "orders_v2"}, {Destination: "b", Manifests: "orders_v2"}},
	}}}
	var b bytes.Buffer
	PlanText(&b, p, Options{})
	want := `streamctl will perform the following actions:

  # sink "orders"
  - remove orphan _temporary/4 in a
  - remove orphan manifests under _streamctl/orders_v2/ (copies left by an interrupted move) in a
  - remove orphan manifests under _streamctl/orders_v2/ (copies left by an interrupted move) in b

Plan: 0 batches, 0 records to 0 destinations. 1 orphan temporary to remove. 2 folders of manifests left by an interrupted move to remove.
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if md := PlanMarkdown(p, MarkdownOptions{}); !strings.Contains(md, "manifests under _streamctl/orders_v2/ (copies left by an interrupted move)") {
		t.Errorf("the Markdown lacks the manifests left by the move:\n%s", md)
	}
}
