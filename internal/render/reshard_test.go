package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/state"
)

func reshardPlan() *planner.Plan {
	var moves []state.Move
	for _, p := range []string{"4", "5", "6", "7"} {
		moves = append(moves, state.Move{Partition: p, From: "orders/shard-" + string(rune('0'+int(p[0]-'4'))), To: "orders/shard-" + p, Offset: 1000})
	}
	return &planner.Plan{Reshards: []planner.Reshard{{Sink: "orders", From: 4, To: 8, Partitions: 8, Moves: moves}}}
}

func TestReshardText(t *testing.T) {
	var b bytes.Buffer
	PlanText(&b, reshardPlan(), Options{MaxBatches: 2})
	out := b.String()
	for _, want := range []string{
		"~ reshard sink.orders 4 → 8",
		"the committed offsets of 8 partitions are split again from 4 into 8 shards, 4 partitions moving",
		"partition 4: orders/shard-0 → orders/shard-4 (committed offset 1,000)",
		"… and 2 more partitions (-verbose lists them)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	var j bytes.Buffer
	NewJSONView(&j, func() time.Time { return time.Unix(0, 0) }).Plan(reshardPlan(), "plan")
	if !strings.Contains(j.String(), `"type":"reshard"`) || !strings.Contains(j.String(), `"moves":[{"partition":"4","from":"orders/shard-0","to":"orders/shard-4","offset":1000}`) {
		t.Errorf("JSON:\n%s", j.String())
	}
	if md := PlanMarkdown(reshardPlan(), MarkdownOptions{}); !strings.Contains(md, "reshard 4 → 8") {
		t.Errorf("Markdown:\n%s", md)
	}
}
