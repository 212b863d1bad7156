package render

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// bigPlan has n sinks with pending batches, the first with a warning.
func bigPlan(n int) *planner.Plan {
	p := &planner.Plan{FormatVersion: 1, ConfigHash: "h"}
	for i := 0; i < n; i++ {
		s := &planner.SinkPlan{
			Name:     fmt.Sprintf("sink%04d", i),
			Snapshot: providers.Snapshot{Identity: "generate", Partitions: []providers.PartitionSnapshot{{ID: "0", Latest: 100000}}},
			New: planner.Pending{MaxRecords: 1000, Destinations: []string{"lake"}, Batches: 100, Records: 100000,
				Ranges: []state.Range{{Partition: "0", Start: 0, End: 100000}}},
		}
		if i == 0 {
			s.Warnings = []string{"data loss skipped: partition 0: offsets [0, 10) are no longer in the source"}
		}
		p.Sinks = append(p.Sinks, s)
	}
	return p
}

func TestMarkdownTruncation(t *testing.T) {
	small := PlanMarkdown(bigPlan(2), MarkdownOptions{})
	if strings.Contains(small, "too long") || strings.Count(small, "<details>") != 2 {
		t.Errorf("a small plan was truncated:\n%s", small)
	}
	p := bigPlan(200)
	md := PlanMarkdown(p, MarkdownOptions{})
	if len(md) > CommentLimit {
		t.Fatalf("%d characters, above GitHub's %d", len(md), CommentLimit)
	}
	for _, want := range []string{"**" + SummaryLine(p) + "**", "> [!WARNING]", "data loss skipped", "> [!NOTE]", "sinks with changes are left out"} {
		if !strings.Contains(md, want) {
			t.Errorf("the truncated comment lacks %q", want)
		}
	}
	if !strings.HasSuffix(md, "`streamctl show PLAN-FILE` shows everything.\n") {
		t.Errorf("the note is not last:\n%s", md[len(md)-300:])
	}
	// Every <details> kept is whole.
	if strings.Count(md, "<details>") != strings.Count(md, "</details>") || strings.Count(md, "```")%2 != 0 {
		t.Errorf("a section was cut in the middle")
	}
	tiny := PlanMarkdown(p, MarkdownOptions{Limit: 2000})
	if len(tiny) > 2000 || !strings.Contains(tiny, SummaryLine(p)) || !strings.Contains(tiny, "data loss skipped") {
		t.Errorf("limit 2000: %d characters:\n%s", len(tiny), tiny)
	}
}

func TestUnifiedDiff(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n"
	b := "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\nFIFTEEN\nsixteen\n"
	want := `--- a
+++ b
@@ -1,5 +1,5 @@
 1
-2
+TWO
 3
 4
 5
@@ -12,4 +12,5 @@
 12
 13
 14
-15
+FIFTEEN
+sixteen
`
	if got := UnifiedDiff(a, b, "a", "b"); got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if UnifiedDiff(a, a, "a", "b") != "" {
		t.Error("equal texts give a diff")
	}
}

func TestAge(t *testing.T) {
	for d, want := range map[string]string{"42s": "42s", "5m3s": "5m", "3h12m": "3h12m", "52h": "2d4h", "-1s": "0s"} {
		dur, _ := time.ParseDuration(d)
		if got := Age(dur); got != want {
			t.Errorf("Age(%s) = %s, want %s", d, got, want)
		}
	}
}
