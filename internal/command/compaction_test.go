package command

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/engine"
)

const compactionConfig = `
source "generate" "orders" {
  partitions            = 2
  records_per_partition = 600
}

sink "orders" {
  source       = source.generate.orders
  partition_by = ["_partition"]

  batch {
    max_records = 300
  }

  maintenance {
    target_file_size = "64KB"
    compact_after    = "1h"
  }

  destination "local" "lake" {
    path = "out/lake"
  }
}
`

// TestCompactionPlan: a compaction is planned once compact_after has
// passed since the batches' commit, shown per folder in text, Markdown and
// JSON (golden files), applied from a saved plan made two hours on, and
// then nothing is left to do.
func TestCompactionPlan(t *testing.T) {
	c := newCLI(t, compactionConfig)
	c.must(ExitOK, "apply", "-auto-approve")
	c.must(ExitOK, "plan", "-detailed-exitcode") // not due within the hour

	c.now = func() time.Time { return testTime.Add(2 * time.Hour) }
	var compactions []string
	for _, m := range checkSavedPlan(c, "plan-compaction", "compaction", nil, "-json-out=plan.jsonl", "-markdown-out=plan.md") {
		compactions = append(compactions, m["@message"].(string))
	}
	if len(compactions) != 1 || !strings.Contains(compactions[0], `sink "orders": compact destination lake (compaction 1)`) {
		t.Errorf("-json compaction messages: %q", compactions)
	}

	// Applied later than planned: the saved plan holds the compaction due
	// when it was made.
	c.now = func() time.Time { return testTime.Add(3 * time.Hour) }
	applyCompaction(c)
}

// checkSavedPlan makes a plan with changes, saved to p.plan (args added to
// plan's), and compares its text and its Markdown (show -markdown) with the
// golden files name.txt and name.md, after mask when it is not nil. It
// returns the messages of type kind that plan -json prints.
func checkSavedPlan(c runner, name, kind string, mask func(string) string, args ...string) []map[string]any {
	c.t.Helper()
	if mask == nil {
		mask = func(s string) string { return s }
	}
	o := c.must(ExitChanges, append([]string{"plan", "-detailed-exitcode", "-out=p.plan"}, args...)...)
	golden(c.t, name+".txt", mask(strings.Split(o.stdout, "\n\nSaved the plan")[0]+"\n"))
	md := c.must(ExitOK, "show", "-markdown", "p.plan")
	golden(c.t, name+".md", mask(md.stdout))
	jsonl := c.must(ExitChanges, "plan", "-json", "-detailed-exitcode")
	var msgs []map[string]any
	for _, m := range jsonLines(c.t, jsonl.stdout) {
		if m["type"] == kind {
			msgs = append(msgs, m)
		}
	}
	return msgs
}

// applyCompaction applies p.plan, which holds compaction 1 of the sink
// orders' destination lake: apply says it committed, the sink's files are
// the compacted ones only, verify finds nothing wrong and nothing is left to
// do.
func applyCompaction(c runner) {
	c.t.Helper()
	apply := c.must(ExitOK, "apply", "p.plan")
	if !strings.Contains(apply.stdout, "orders: compaction 1 of lake committed: the files of 4 manifests replaced by") {
		c.t.Errorf("apply says:\n%s", apply.stdout)
	}
	files := c.must(ExitOK, "files", "orders")
	if strings.Contains(files.stdout, "part-") || strings.Count(files.stdout, "compact-00000001-") < 2 {
		c.t.Errorf("files after the compaction:\n%s", files.stdout)
	}
	c.must(ExitOK, "plan", "-detailed-exitcode")
	c.must(ExitOK, "verify", "orders")
}

const icebergCompactionConfig = `
source "generate" "orders" {
  partitions            = 2
  records_per_partition = 600
}

sink "orders" {
  source       = source.generate.orders
  format       = "parquet"
  partition_by = ["country"]

  column "id" {
    type = "int64"
  }
  column "country" {
    type = "string"
  }

  batch {
    max_records = 300
  }

  maintenance {
    target_file_size = "64KB"
    compact_after    = "1h"
  }

  destination "local" "lake" {
    path = "out/lake"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
  }
}
`

// TestCompactionPlanIceberg: a destination with an Iceberg table is
// compacted too; plan says the table commits it as one replace snapshot and
// keeps the old files for its older snapshots (golden files), and after
// apply the manifests list the new files only, verify finds nothing wrong
// (the old files stay, named by the manifests the compaction replaced), and
// nothing is left to do.
func TestCompactionPlanIceberg(t *testing.T) {
	c := newCLI(t, icebergCompactionConfig)
	c.must(ExitOK, "apply", "-auto-approve")
	c.now = func() time.Time { return testTime.Add(2 * time.Hour) }
	var tables []any
	for _, m := range checkSavedPlan(c, "plan-compaction-iceberg", "compaction", nil) {
		tables = append(tables, m["compaction"].(map[string]any)["table"])
	}
	if len(tables) != 1 || tables[0] != "iceberg table lake.orders" {
		t.Errorf("-json compaction tables: %v, want [iceberg table lake.orders]", tables)
	}
	applyCompaction(c)
}

// TestCompactedLine: what apply says of a compaction committed, and of one
// the destination's table dropped.
func TestCompactedLine(t *testing.T) {
	for _, tc := range []struct {
		ev   engine.Compacted
		want string
	}{
		{engine.Compacted{Sink: "orders", Destination: "lake", Compaction: 2, Replaced: 3, Files: 1, Bytes: 2048},
			"orders: compaction 2 of lake committed: the files of 3 manifests replaced by 1 file, 2.0 kB"},
		{engine.Compacted{Sink: "orders", Destination: "lake", Compaction: 2, Replaced: 3, Dropped: "a file it replaces is no longer in the table"},
			"orders: compaction 2 of lake dropped, nothing committed: a file it replaces is no longer in the table; the next plan plans anew"},
	} {
		if got := compactedLine(tc.ev); got != tc.want {
			t.Errorf("compactedLine(%+v)\n got %s\nwant %s", tc.ev, got, tc.want)
		}
	}
}

// TestExpiryPlanIceberg: with expire_snapshots_after, nothing is expired
// while the table's snapshots are younger; a week on, plan shows the
// table's snapshots to expire and the files to delete (golden files, the
// snapshots' times masked: they are the machine's), apply expires them and
// deletes the files, the table still scans every record once, verify finds
// nothing wrong, and nothing is left to do.
func TestExpiryPlanIceberg(t *testing.T) {
	cfg := strings.Replace(icebergCompactionConfig, `compact_after    = "1h"`, "compact_after    = \"1h\"\n    expire_snapshots_after = \"7d\"", 1)
	c := newCLI(t, cfg)
	c.must(ExitOK, "apply", "-auto-approve")
	c.now = func() time.Time { return testTime.Add(2 * time.Hour) }
	apply := c.must(ExitOK, "apply", "-auto-approve")
	if !strings.Contains(apply.stdout, "compaction 1 of lake committed") || strings.Contains(apply.stdout, "expired") {
		t.Errorf("apply two hours on says:\n%s", apply.stdout)
	}
	c.must(ExitOK, "plan", "-detailed-exitcode") // the snapshots are new

	// A week and a day on, by the machine's clock, which the snapshots'
	// times are in.
	week := time.Now().Add(8 * 24 * time.Hour)
	c.now = func() time.Time { return week }
	var expiries []map[string]any
	for _, m := range checkSavedPlan(c, "plan-expiry-iceberg", "expiry", maskTimes) {
		expiries = append(expiries, m["expiry"].(map[string]any))
	}
	// 4 batches then the compaction: the batches but the last, the
	// newest of the sink, expire.
	if len(expiries) != 1 || expiries[0]["table"] != "iceberg table lake.orders" || expiries[0]["snapshots"] != 3.0 || expiries[0]["files"].(float64) < 3 {
		t.Errorf("-json expiries: %v, want the 3 snapshots of lake.orders before its last batch, and their manifest lists", expiries)
	}
	apply = c.must(ExitOK, "apply", "p.plan")
	if !strings.Contains(apply.stdout, "orders: 3 snapshots of iceberg table lake.orders expired,") {
		t.Errorf("apply says:\n%s", apply.stdout)
	}
	c.must(ExitOK, "plan", "-detailed-exitcode")
	c.must(ExitOK, "verify", "orders")
}

// TestExpiredLine: what apply says of an expiry.
func TestExpiredLine(t *testing.T) {
	got := expiredLine(engine.Expired{Sink: "orders", Destination: "lake", Table: "iceberg table lake.orders", Snapshots: 3, Files: 1})
	if want := "orders: 3 snapshots of iceberg table lake.orders expired, 1 file only they referenced deleted"; got != want {
		t.Errorf("expiredLine\n got %s\nwant %s", got, want)
	}
}

var rfc3339 = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)

// maskTimes replaces the times in a plan with TIME.
func maskTimes(s string) string { return rfc3339.ReplaceAllString(s, "TIME") }
