package command

import (
	"strings"
	"testing"
)

// behindConfig: a generated stream whose size is set by variables, so that a
// test can make the source shrink below what was committed.
const behindConfig = `
variable "records" {
  type    = number
  default = 1000
}

variable "partitions" {
  type    = number
  default = 3
}

source "generate" "orders" {
  partitions            = var.partitions
  records_per_partition = var.records
}

sink "orders" {
  source = source.generate.orders

  destination "local" "lake" {
    path = "out/lake"
  }
}

source "generate" "clicks" {
  partitions            = 1
  records_per_partition = 500
}

sink "clicks" {
  source = source.generate.clicks

  destination "local" "lake" {
    path = "out/clicks"
  }
}
`

// TestStatusSourceBehind: a source that ends below the committed offsets (a
// truncated file, a recreated topic) or lost a committed partition is data
// loss, not "up to date": status names the sink and the partitions, and
// -detailed-exitcode exits 2 whatever -max-lag is.
func TestStatusSourceBehind(t *testing.T) {
	c := newCLI(t, behindConfig)
	c.must(ExitOK, "apply", "-auto-approve")
	c.must(ExitOK, "status", "-detailed-exitcode")

	shrunk := []string{"-var", "records=400", "-var", "partitions=2"}
	o := c.must(ExitOK, append([]string{"status"}, shrunk...)...)
	golden(t, "status-behind.txt", o.stdout)
	if strings.Contains(o.stdout, `sink "orders" (source.generate.orders): up to date`) {
		t.Errorf("a source behind the committed offsets is shown up to date:\n%s", o.stdout)
	}
	o = c.must(ExitOK, append([]string{"status", "-json"}, shrunk...)...)
	golden(t, "status-behind.jsonl", o.stdout)
	msgs := jsonLines(t, o.stdout)
	if len(msgs) != 4 {
		t.Fatalf("status -json: %d messages:\n%s", len(msgs), o.stdout)
	}
	orders, clicks := msgs[2]["sink"].(map[string]any), msgs[1]["sink"].(map[string]any)
	if behind, _ := orders["source_behind"].([]any); len(behind) != 3 {
		t.Errorf("sink orders: source_behind %v, want partitions 0, 1 and 2", orders["source_behind"])
	}
	if behind, _ := clicks["source_behind"].([]any); behind == nil || len(behind) != 0 {
		t.Errorf("sink clicks: source_behind %v, want []", clicks["source_behind"])
	}
	if sum := msgs[3]["status"].(map[string]any); sum["source_behind_sinks"] != 1.0 {
		t.Errorf("status_summary: %v", sum)
	}

	c.must(ExitChanges, append([]string{"status", "-detailed-exitcode"}, shrunk...)...)
	// Shrunk, no lag at all: -max-lag does not silence it.
	c.must(ExitChanges, "status", "-detailed-exitcode", "-max-lag=1000000", "-var", "records=400")
	// A partition gone alone is enough; a sink not targeted is not looked at.
	c.must(ExitChanges, "status", "-detailed-exitcode", "-var", "partitions=2")
	c.must(ExitOK, "status", "-detailed-exitcode", "-target=sink.clicks", "-var", "partitions=2")
}
