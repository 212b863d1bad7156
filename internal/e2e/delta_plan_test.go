package e2e

import (
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

func tableStore(dir string) providers.Storage { return local.New(filepath.Join(dir, "out", "table")) }

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
	store := tableStore(dir)
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
	if len(changes) != 1 || changes[0] != int64(len(before)) {
		t.Errorf("metaData in versions %v, want one in version %d", changes, len(before))
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
