package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The plan shows every change of what a sink writes, in text, JSON and
// Markdown, and its summary counts every kind of change.

// layoutConfig is a sink of generated records written as format, with
// extra lines inside the sink block.
func layoutConfig(format, extra string) string {
	return `
variable "records" {
  type    = number
  default = 100
}
source "generate" "orders" {
  partitions            = 2
  records_per_partition = var.records
}
sink "orders" {
  source = source.generate.orders
  format = "` + format + `"
  batch {
    max_records = 100
  }
  column "id" {
    type = "int64"
  }
` + extra + `
  destination "local" "lake" {
    path = "out/lake"
  }
}
`
}

const offsetColumn = `  column "offset" {
    type = "int64"
  }
`

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %q:\n%s", what, want, got)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestPlanShowsLayoutChange: a change of format and columns is planned as
// an update in place, in every rendering; a saved plan pins the settings
// it showed; once applied, old batches keep their files and new ones are
// written with the new settings.
func TestPlanShowsLayoutChange(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, layoutConfig("jsonl", ""))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")

	setConfig(t, dir, layoutConfig("csv", offsetColumn))
	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color", "-json-out=plan.jsonl", "-markdown-out=plan.md", "-out=tfplan")
	settings := []string{
		"~ update output settings in place: the committed batches, up to batch 1, stay as they were written; batches from 2 on are written with the new settings",
		`~ format = "jsonl" → "csv"`,
		`+ column "offset" = { type = "int64" }`,
	}
	summary := "Plan: 0 batches, 0 records to 0 destinations, 1 layout change."
	mustContain(t, "the plan of a format change", plan.stdout, append(settings, summary)...)
	md := readFile(t, filepath.Join(dir, "plan.md"))
	mustContain(t, "the Markdown plan", md, "**"+summary+"**", `~    format = "jsonl" → "csv"`, "update output settings in place")
	js := readFile(t, filepath.Join(dir, "plan.jsonl"))
	mustContain(t, "the JSON plan", js, `"type":"layout_change"`, `"name":"format","from":"\"jsonl\"","to":"\"csv\""`, `"layout_changes":1`)

	// The saved plan showed csv: applied after the configuration moved on
	// to parquet, it is refused and nothing is written.
	setConfig(t, dir, layoutConfig("parquet", offsetColumn))
	stale := run(t, dir, nil, "apply", "-no-color", "tfplan")
	if stale.code != 1 || !strings.Contains(stale.stderr+stale.stdout, "stale") {
		t.Errorf("a saved plan applied after another layout change: %s", stale)
	}

	setConfig(t, dir, layoutConfig("csv", offsetColumn))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	grown := mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-var", "records=150")
	mustContain(t, "the apply after the change", grown.stdout, "Apply complete! 1 batch, 100 records")
	var jsonl, csv int
	filepath.Walk(filepath.Join(dir, "out", "lake"), func(p string, fi os.FileInfo, err error) error {
		switch {
		case err != nil || fi.IsDir() || strings.Contains(p, "_streamctl"):
		case strings.HasSuffix(p, ".jsonl"):
			jsonl++
		case strings.HasSuffix(p, ".csv"):
			csv++
		}
		return nil
	})
	if jsonl != 2 || csv != 1 {
		t.Errorf("the lake holds %d JSONL and %d CSV files, want the 2 batches before the change as JSONL and the one after as CSV", jsonl, csv)
	}
}

// TestPlanShowsPartitioningChange: partition_by added to a sink is a
// layout change like a format's: shown with what it means, then applied to
// the new batches only, which land in partition folders beside the old
// files.
func TestPlanShowsPartitioningChange(t *testing.T) {
	t.Parallel()
	partitionColumn := "  column \"partition\" {\n    type = \"int32\"\n  }\n"
	dir := writeConfig(t, layoutConfig("jsonl", partitionColumn))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")

	setConfig(t, dir, layoutConfig("jsonl", partitionColumn+"  partition_by = [\"partition\"]\n"))
	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color", "-markdown-out=plan.md")
	mustContain(t, "the plan of a partitioning change", plan.stdout,
		"~ update output settings in place: the committed batches, up to batch 1, stay as they were written; batches from 2 on are written with the new settings",
		`+ partition_by = ["partition"]`,
		"Plan: 0 batches, 0 records to 0 destinations, 1 layout change.")
	mustContain(t, "the Markdown plan of a partitioning change", readFile(t, filepath.Join(dir, "plan.md")), `+    partition_by = ["partition"]`)
	applied := mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-var", "records=150")
	mustContain(t, "the apply of a partitioning change", applied.stdout, "Apply complete! 1 batch, 100 records", "; 1 layout change.")
	top, _ := filepath.Glob(filepath.Join(dir, "out", "lake", "part-*.jsonl"))
	folders, _ := filepath.Glob(filepath.Join(dir, "out", "lake", "partition=*", "part-*.jsonl"))
	if len(top) != 2 || len(folders) != 2 {
		t.Errorf("the lake holds %d files at its top and %d in partition folders, want the 2 batches before the change at the top and batch 2 in partition=0 and partition=1:\n%v\n%v", len(top), len(folders), top, folders)
	}
	assertExactlyOnce(t, dest(dir, "lake"), expectedIDs(2, 150))
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color", "-var", "records=150")
}

// TestLayoutChangeRefusedWhereABatchMustBeWrittenAgain: a batch in flight
// and a committed batch a destination lost must be written as they first
// were; another layout is refused with the way out, and nothing is written.
func TestLayoutChangeRefusedWhereABatchMustBeWrittenAgain(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, layoutConfig("jsonl", ""))
	r := run(t, dir, []string{"STREAMCTL_FAULT=after-stage"}, "apply", "-auto-approve", "-no-color")
	if !r.killed {
		t.Fatalf("the fault after-stage was not reached: %s", r)
	}
	setConfig(t, dir, layoutConfig("csv", ""))
	before := readFile(t, filepath.Join(dir, ".streamctl", "state.json"))
	for _, cmd := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		r := run(t, dir, nil, cmd...)
		if r.code != 1 {
			t.Fatalf("%s with batch 0 in flight in the old layout: %s", cmd[0], r)
		}
		mustContain(t, cmd[0]+" with a batch in flight", r.stderr+r.stdout, "batch 0 is in flight with other output settings", `format = "jsonl" → "csv"`, "Restore the previous settings and apply to finish the batch")
	}
	if after := readFile(t, filepath.Join(dir, ".streamctl", "state.json")); after != before {
		t.Errorf("the refused apply changed the state")
	}
	setConfig(t, dir, layoutConfig("jsonl", ""))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	setConfig(t, dir, layoutConfig("csv", ""))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")

	// Batch 0 was written as JSONL: lost from the destination, it cannot
	// be written again as CSV beside the JSONL files still there.
	if err := os.Remove(filepath.Join(dir, "out", "lake", "_streamctl", "orders", "0.json")); err != nil {
		t.Fatal(err)
	}
	lost := run(t, dir, nil, "plan", "-no-color")
	if lost.code != 1 {
		t.Fatalf("plan with a lost batch of the old layout: %s", lost)
	}
	mustContain(t, "plan with a lost batch of the old layout", lost.stderr, "batch 0 is missing from lake and was written with other output settings", `format = "jsonl" → "csv"`, "Restore the previous settings and apply to repair the batch")
}

// TestSummaryCountsMovesAndTarget: a rename is counted in the summary, a
// single batch is "1 batch", and the Markdown plan warns of -target.
func TestSummaryCountsMovesAndTarget(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	moved := renamed(driftConfig("", "a"), "orders_v2") + "moved {\n  from = sink.orders\n  to   = sink.orders_v2\n}\n"
	setConfig(t, dir, moved)
	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color", "-json-out=plan.jsonl")
	mustContain(t, "the plan of a rename", plan.stdout, "Plan: 0 batches, 0 records to 0 destinations, 1 sink moved.")
	mustContain(t, "the JSON plan of a rename", readFile(t, filepath.Join(dir, "plan.jsonl")), `"moves":1`)

	one := mustRun(t, dir, 0, nil, "plan", "-no-color", "-var", "records=1250", "-target=sink.orders_v2", "-markdown-out=plan.md", "-json-out=targeted.jsonl")
	mustContain(t, "the targeted JSON plan", readFile(t, filepath.Join(dir, "targeted.jsonl")), `"@message":"Warning: Only some sinks are planned"`)
	mustContain(t, "the plan of one batch", one.stdout, "Plan: 1 batch, 500 records to 1 destination, 1 sink moved.")
	mustContain(t, "the targeted Markdown plan", readFile(t, filepath.Join(dir, "plan.md")), "> [!WARNING]", "-target or -exclude is in effect")
}

// TestApplyReportsMovesAndLayoutChanges: the apply of a rename renders the
// engine's moved event, as a line and as JSON's sink_moved, and the apply's
// summary counts the move, as it counts a layout change: neither is "0
// batches" and nothing else.
func TestApplyReportsMovesAndLayoutChanges(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, driftConfig("", "a"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	moved := renamed(driftConfig("", "a"), "orders_v2") + "moved {\n  from = sink.orders\n  to   = sink.orders_v2\n}\n"
	setConfig(t, dir, moved)
	js := mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-json")
	mustContain(t, "the JSON apply of a rename", js.stdout,
		`"@message":"sink.orders_v2: moved from sink.orders","@module":"streamctl.ui"`, `"type":"sink_moved"`,
		"(0 records/s); 1 sink moved.\",\"@module\":\"streamctl.ui\"", `"type":"apply_summary"`)

	setConfig(t, dir, strings.Replace(moved, "  batch {", "  format = \"csv\"\n  column \"id\" {\n    type = \"int64\"\n  }\n  batch {", 1))
	applied := mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustContain(t, "the apply of a format change", applied.stdout, "Apply complete! 0 batches, 0 records, 0 files, 0 B written in ", "(0 records/s); 1 layout change.\n")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
}

// TestLayoutChangeWithAChangeOfShards: a change of output settings made
// with a change of the number of shards is planned too: the checkpoints
// the change derives carry the settings of those they replace.
func TestLayoutChangeWithAChangeOfShards(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, layoutConfig("jsonl", ""))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	setConfig(t, dir, strings.Replace(layoutConfig("csv", ""), "  batch {", "  shards = 2\n  batch {", 1))
	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	mustContain(t, "the plan of a change of shards and format", plan.stdout, "~ reshard sink.orders 1 → 2", `~ format = "jsonl" → "csv"`)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
}

// TestLayoutChangeAfterAChangeOfShards: the checkpoints a change of shards
// makes carry the output settings on, so that a change of them after it,
// before any new batch, is planned as one.
func TestLayoutChangeAfterAChangeOfShards(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, layoutConfig("jsonl", ""))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	sharded := func(format string) string {
		return strings.Replace(layoutConfig(format, ""), "  batch {", "  shards = 2\n  batch {", 1)
	}
	setConfig(t, dir, sharded("jsonl"))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	setConfig(t, dir, sharded("csv"))
	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	mustContain(t, "the plan of a format change after a change of shards", plan.stdout, `~ format = "jsonl" → "csv"`, "Plan: 0 batches, 0 records to 0 destinations, 1 layout change.")
}

// TestPlanNamesADeclaredDefaultRowGroupSize: a row group size declared where
// none was, even the default one, is a layout change whose plan names it;
// the state does not record a size the sink never declared.
func TestPlanNamesADeclaredDefaultRowGroupSize(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, layoutConfig("parquet", ""))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	if st := readFile(t, filepath.Join(dir, ".streamctl", "state.json")); strings.Contains(st, "row_group_records") {
		t.Errorf("the state records a row group size the sink does not declare:\n%s", st)
	}
	setConfig(t, dir, layoutConfig("parquet", "  row_group_records = 131072\n"))
	plan := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	mustContain(t, "the plan of a declared row group size", plan.stdout, "+ row_group_records = 131072", "1 layout change.")
}
