package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/delta"
	"github.com/streamctl/streamctl/internal/delta/deltacheck"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
)

// deltaLog lists the entries of the Delta log of dir's table destination.
func deltaLog(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "out", "table", delta.LogDir))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func deltaTableStore(dir string) providers.Storage {
	return local.New(filepath.Join(dir, "out", "table"))
}

// TestDeltaPlanCreatesNothing: plan of a new Delta table says what apply
// creates and writes nothing.
func TestDeltaPlanCreatesNothing(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, deltaConfig)
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if !regexp.MustCompile(`\n  \+ create Delta table \S+ \(4 columns, partitioned by country\)\n`).MatchString(r.stdout) {
		t.Errorf("plan of a new table:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("plan wrote into the destinations: %v\n%s", err, files(t, dir))
	}
}

// TestDeltaPlanSchemaEvolution: a nullable column added to the sink is
// shown by plan, which writes nothing; apply commits it as a metaData
// version before the next batch, the replay reads the new schema, and
// DuckDB over the replayed files finds every record once.
func TestDeltaPlanSchemaEvolution(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, deltaConfig)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	before := deltaLog(t, dir)
	changed := strings.Replace(deltaConfig, `  column "amount" {`, "  column \"note\" {\n    type = \"string\"\n  }\n  column \"amount\" {", 1)
	changed = strings.Replace(changed, "default = 2000", "default = 3000", 1)
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if !regexp.MustCompile(`\n  ~ Delta table \S+: add column note \(string, nullable\)\n`).MatchString(r.stdout) {
		t.Errorf("plan with a column added:\n%s", r.stdout)
	}
	if got := deltaLog(t, dir); len(got) != len(before) {
		t.Errorf("plan wrote into the log: %v, was %v", got, before)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	r = mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	if strings.Contains(r.stdout, "add column") {
		t.Errorf("plan after the column was added still adds it:\n%s", r.stdout)
	}
	store := deltaTableStore(dir)
	tb, err := deltacheck.Replay(t.Context(), store)
	if err != nil {
		t.Fatalf("the Delta log breaks the protocol: %v", err)
	}
	if got := strings.Join(tb.SchemaFields, " "); got != "id:long ts:timestamp country:string amount:double note:string" {
		t.Errorf("the replayed schema: %s", got)
	}
	// The schema changed once, in the version after the first apply's
	// last batch.
	var changes []int64
	for _, v := range tb.Versions[1:] {
		for _, a := range v.Actions {
			if a == "metaData" {
				changes = append(changes, v.Number)
			}
		}
	}
	var versions int64
	for _, name := range before {
		if strings.HasSuffix(name, ".json") {
			versions++
		}
	}
	if len(changes) != 1 || changes[0] != versions {
		t.Errorf("metaData in versions %v, want one in version %d", changes, versions)
	}
	checkDeltaTable(t, dir, store, "orders", 9000)
}

// TestDeltaPlanRefusesIncompatible: a column whose type changed is refused
// by plan and apply (exit 1), naming the column and the way out, with the
// log and the state as they were.
func TestDeltaPlanRefusesIncompatible(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, deltaConfig)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	before := deltaLog(t, dir)
	stateBefore := mustRun(t, dir, 0, nil, "state", "show", "orders").stdout
	changed := strings.Replace(deltaConfig, "  column \"amount\" {\n    type = \"double\"", "  column \"amount\" {\n    type = \"int64\"", 1)
	changed = strings.Replace(changed, "default = 2000", "default = 3000", 1)
	if changed == strings.Replace(deltaConfig, "default = 2000", "default = 3000", 1) {
		t.Fatal("the config's amount column was not changed")
	}
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		r := run(t, dir, nil, cmd...)
		for _, want := range []string{`column "amount" is double in the table, and long in the sink`, "A Delta table takes only added nullable columns from the sink"} {
			if r.code != 1 || !strings.Contains(r.stderr, want) {
				t.Errorf("%s with a column's type changed: want exit 1 and %q, got %s", cmd[0], want, r)
			}
		}
	}
	if got := deltaLog(t, dir); strings.Join(got, " ") != strings.Join(before, " ") {
		t.Errorf("the log is %v, was %v", got, before)
	}
	if got := mustRun(t, dir, 0, nil, "state", "show", "orders").stdout; got != stateBefore {
		t.Errorf("the state changed:\n%s\nwas:\n%s", got, stateBefore)
	}
}

// TestDeltaOrphans: the data files of a crashed batch whose intent the state
// lost (its previous version restored) are in no version of the log: plan
// shows them as orphans, apply removes them, and the log's replay and
// DuckDB find every record once.
func TestDeltaOrphans(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, deltaConfig)
	killThenRestoreState(t, dir, "after-promote-file:5")
	// Batches of 600 records: batch 0 is other files than the crashed
	// attempt's, which would stay beside them.
	hcl := strings.Replace(deltaConfig, "max_records = 1500", "max_records = 600", 1)
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	// The folder destination, without a table, refuses the files at batch
	// 0's names (TestIcebergOrphans): move them out as plan says.
	mustRun(t, dir, 1, nil, "plan", "-detailed-exitcode", "-no-color")
	folder := filepath.Join(dir, "out", "folder")
	err := filepath.WalkDir(folder, func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(path, ".parquet") || strings.Contains(path, "_temporary") {
			return err
		}
		return os.Rename(path, filepath.Join(t.TempDir(), filepath.Base(path)))
	})
	if err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	orphans := regexp.MustCompile(`(?m)^  - remove orphan data file (\S+) of batch 0 \(no manifest, no snapshot, not in flight\) in table$`).FindAllStringSubmatch(r.stdout, -1)
	if len(orphans) < 2 {
		t.Fatalf("plan after a crashed batch whose intent the state lost: want its promoted files as orphans, got\n%s", r.stdout)
	}
	// Batch 0 writes files at some of the same names again: the count of
	// records below tells the crashed attempt's are gone.
	r = mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	for _, o := range orphans {
		if !strings.Contains(r.stdout, "orders: removed orphan data file "+o[1]) {
			t.Errorf("apply does not report the removal of %s:\n%s", o[1], r.stdout)
		}
	}
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	if got := fmt.Sprint(duckdb(t, dir, `SELECT count(*), count(DISTINCT id) FROM read_parquet('out/table/country=*/*.parquet')`)); got != "[[6000 6000]]" {
		t.Errorf("the table's folder: %s (want 6000 records, each once)", got)
	}
	checkDeltaTable(t, dir, deltaTableStore(dir), "orders", 6000)
}

// TestDeltaTableAhead: killed after the log committed batch 1 and before its
// manifest, with the state's previous version restored, the table is ahead
// of the state: plan adopts the batch with the ranges its version records,
// and apply goes on without a second version for it.
func TestDeltaTableAhead(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, deltaConfig)
	killThenRestoreState(t, dir, "after-table-commit:2")
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	if !regexp.MustCompile(`\n  ~ adopt batch 1, committed by a destination but not in the state: 1,500 records → table(, folder)?\n`).MatchString(r.stdout) ||
		!regexp.MustCompile(`\n  ~ Delta table \S+ already holds batch 1: its snapshot is kept, and the batch is not appended again\n`).MatchString(r.stdout) {
		t.Errorf("plan with the table ahead: no adoption of batch 1 in\n%s", r.stdout)
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	checkDeltaTable(t, dir, deltaTableStore(dir), "orders", 6000)
}

// TestDeltaTableBehind: a log whose last version was deleted is behind the
// state: plan and apply refuse with the way back and write nothing; with
// the version put back, plan has nothing to do and the table every record
// once.
func TestDeltaTableBehind(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, deltaConfig)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	last := filepath.Join(dir, "out", "table", filepath.FromSlash(delta.VersionKey(4)))
	data, err := os.ReadFile(last)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(last); err != nil {
		t.Fatal(err)
	}
	hcl := strings.Replace(deltaConfig, "default = 2000", "default = 3000", 1)
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
		r := run(t, dir, nil, cmd...)
		for _, want := range []string{"is behind the state", "the state has committed batches up to 3 into the table, and its log records batch 2 last", "move the destination's folder _delta_log aside"} {
			if r.code != 1 || !strings.Contains(r.stderr, want) {
				t.Errorf("%s with the log's last version deleted: want exit 1 and %q, got %s", cmd[0], want, r)
			}
		}
	}
	if _, err := os.Stat(last); !os.IsNotExist(err) {
		t.Fatalf("a version 4 was written: %v", err)
	}
	if err := os.WriteFile(last, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(deltaConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	checkDeltaTable(t, dir, deltaTableStore(dir), "orders", 6000)
}

// TestDeltaPlanUnreadableCheckpoint: a checkpoint that does not read (cut
// short) is passed over: plan warns, naming it, and replays the log from
// version 0; apply goes on, its next checkpoint replaces the broken one,
// and the table holds every record once.
func TestDeltaPlanUnreadableCheckpoint(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, deltaConfig)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	cp := filepath.Join(dir, "out", "table", filepath.FromSlash(delta.CheckpointKey(4)))
	data, err := os.ReadFile(cp)
	if err != nil {
		t.Fatalf("the checkpoint of version 4: %v (log: %q)", err, deltaLog(t, dir))
	}
	if err := os.WriteFile(cp, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	hcl := strings.Replace(deltaConfig, "default = 2000", "default = 3000", 1)
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color")
	for _, want := range []string{"read _delta_log/00000000000000000004.checkpoint.parquet", "streamctl replays the Delta log from version 0 instead"} {
		if !strings.Contains(r.stdout+r.stderr, want) {
			t.Errorf("plan over a broken checkpoint: no %q in\n%s", want, r)
		}
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "plan", "-detailed-exitcode", "-no-color")
	checkDeltaTable(t, dir, deltaTableStore(dir), "orders", 9000)
}
