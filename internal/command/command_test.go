package command

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// runner runs streamctl in process with -chdir=dir.
type runner struct {
	t        *testing.T
	dir      string
	terminal bool
	stdin    string
	env      []string
	// now is the clock; nil fixes it at testTime, so that JSON golden files
	// are stable.
	now func() time.Time
}

// testTime is the fixed clock of the tests.
var testTime = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

type out struct {
	code           int
	stdout, stderr string
}

func (c runner) run(args ...string) out {
	c.t.Helper()
	var stdout, stderr bytes.Buffer
	now := c.now
	if now == nil {
		now = func() time.Time { return testTime }
	}
	code := Main(append([]string{"-chdir=" + c.dir}, args...), Streams{
		Stdin:            strings.NewReader(c.stdin),
		Stdout:           &stdout,
		Stderr:           &stderr,
		Environ:          append([]string{"PATH=/usr/bin"}, c.env...),
		IsTerminal:       c.terminal,
		Now:              now,
		ProgressInterval: -1,
	})
	return out{code, stdout.String(), stderr.String()}
}

func (c runner) must(want int, args ...string) out {
	c.t.Helper()
	o := c.run(args...)
	if o.code != want {
		c.t.Fatalf("streamctl %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), o.code, want, o.stdout, o.stderr)
	}
	return o
}

const testConfig = `
variable "records" {
  type    = number
  default = 1000
}

source "generate" "orders" {
  partitions            = 3
  records_per_partition = var.records
}

sink "orders" {
  source = source.generate.orders

  batch {
    max_records = 1200
  }

  destination "local" "lake" {
    path = "out/lake"
  }
  destination "local" "archive" {
    path = "out/archive"
  }
}
`

func newCLI(t *testing.T, hcl string) runner {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	return runner{t: t, dir: dir}
}

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it; review the diff):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

var timing = regexp.MustCompile(`\d+(\.\d+)?(ms|µs|s)\b|[\d,]+ records/s`)

// sortParallel sorts each run of consecutive lines that contain marker: the
// destinations of a batch commit in parallel, in any order.
func sortParallel(out, marker string) string {
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && strings.Contains(lines[j], marker) {
			j++
		}
		if j > i {
			sort.Strings(lines[i:j])
			i = j
		} else {
			i++
		}
	}
	return strings.Join(lines, "\n")
}

func TestPlanApplyCycle(t *testing.T) {
	c := newCLI(t, testConfig)
	plan := c.must(ExitChanges, "plan", "-detailed-exitcode")
	golden(t, "plan.txt", plan.stdout)
	c.must(ExitOK, "plan")

	apply := c.must(ExitOK, "apply", "-auto-approve")
	golden(t, "apply.txt", sortParallel(timing.ReplaceAllString(apply.stdout, "<t>"), "committed to"))

	again := c.must(ExitOK, "plan", "-detailed-exitcode")
	if !strings.Contains(again.stdout, "No changes. All sinks are up to date.") {
		t.Errorf("second plan:\n%s", again.stdout)
	}
	// The source grows: only the new records are planned.
	grown := c.must(ExitChanges, "plan", "-detailed-exitcode", "-var", "records=1100", "-verbose")
	golden(t, "plan-grown.txt", grown.stdout)

	list := c.must(ExitOK, "state", "list")
	if list.stdout != "orders\n" {
		t.Errorf("state list: %q", list.stdout)
	}
	show := c.must(ExitOK, "state", "show", "orders")
	for _, want := range []string{"next batch:        3", "3 batches, 3,000 records", "lake                 last batch 2"} {
		if !strings.Contains(show.stdout, want) {
			t.Errorf("state show lacks %q:\n%s", want, show.stdout)
		}
	}
	c.must(ExitError, "state", "show", "nope")
}

func TestApplyAsksForApproval(t *testing.T) {
	c := newCLI(t, testConfig)
	o := c.must(ExitError, "apply")
	if !strings.Contains(o.stderr, "no terminal") || !strings.Contains(o.stderr, "-auto-approve") {
		t.Errorf("apply without a terminal:\n%s", o.stderr)
	}
	c.terminal, c.stdin = true, "no\n"
	o = c.must(ExitError, "apply", "-no-color")
	if !strings.Contains(o.stdout, "Apply cancelled.") {
		t.Errorf("apply answered no:\n%s", o.stdout)
	}
	if _, err := os.Stat(filepath.Join(c.dir, "out")); !os.IsNotExist(err) {
		t.Errorf("a cancelled apply wrote to the destinations")
	}
	c.stdin = "yes\n"
	o = c.must(ExitOK, "apply", "-no-color")
	if !strings.Contains(o.stdout, "Apply complete! 3 batches, 3,000 records, 6 files") {
		t.Errorf("apply answered yes:\n%s", o.stdout)
	}
}

func TestSavedPlan(t *testing.T) {
	c := newCLI(t, testConfig)
	c.must(ExitOK, "plan", "-out=p1.plan")
	c.must(ExitOK, "plan", "-out=p2.plan")
	show := c.must(ExitOK, "show", "p1.plan")
	if !strings.Contains(show.stdout, "Plan: 3 batches, 3,000 records to 2 destinations.") {
		t.Errorf("show plan:\n%s", show.stdout)
	}
	// A saved plan runs without asking, even without a terminal.
	c.must(ExitOK, "apply", "p1.plan")
	o := c.must(ExitError, "apply", "p2.plan")
	if !strings.Contains(o.stderr, "Saved plan is stale") || !strings.Contains(o.stderr, "It was made before the state existed") {
		t.Errorf("a stale plan:\n%s", o.stderr)
	}
	if n := strings.Count(strings.ToLower(o.stderr), "plan is stale"); n != 1 {
		t.Errorf("the refusal says its title %d times:\n%s", n, o.stderr)
	}
	// A saved plan carries its variables: it applies without them.
	c.must(ExitOK, "plan", "-out=p3.plan", "-var", "records=1500")
	c.must(ExitOK, "apply", "p3.plan")
	c.must(ExitOK, "plan", "-detailed-exitcode", "-var", "records=1500")
	// A plan made before the configuration changed is stale.
	c.must(ExitOK, "plan", "-out=p4.plan", "-var", "records=1500")
	os.WriteFile(filepath.Join(c.dir, "extra.hcl"), []byte("locals {\n  unused = 1\n}\n"), 0o644)
	o = c.must(ExitError, "apply", "p4.plan")
	if !strings.Contains(o.stderr, "Saved plan is stale") || !strings.Contains(o.stderr, "The configuration or its variables changed since it was made.") {
		t.Errorf("a plan for another configuration:\n%s", o.stderr)
	}
}

func TestCorruptStateIsRefusedAndNothingIsWritten(t *testing.T) {
	cases := map[string]string{
		"truncated":    `{"version": 1, "lineage": "5d0b5e0e-8c1a-4b8a-9f5e`,
		"not JSON":     "this is not a state\n",
		"another tool": `{"version": 4, "terraform_version": "1.9.0", "serial": 3, "lineage": "5d0b5e0e-8c1a-4b8a-9f5e-1c2d3e4f5a6b", "outputs": {}, "resources": []}`,
		"newer":        `{"version": 3, "lineage": "5d0b5e0e-8c1a-4b8a-9f5e-1c2d3e4f5a6b", "serial": 3, "sinks": {}}`,
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			c := newCLI(t, testConfig)
			path := filepath.Join(c.dir, ".streamctl", "state.json")
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, []byte(content), 0o600)
			for _, args := range [][]string{{"plan"}, {"apply", "-auto-approve"}, {"state", "list"}} {
				o := c.must(ExitError, args...)
				for _, want := range []string{"state.json cannot be used", "state.json.backup", "Nothing was written"} {
					if !strings.Contains(o.stderr, want) {
						t.Errorf("%s: error lacks %q:\n%s", args[0], want, o.stderr)
					}
				}
			}
			if got, _ := os.ReadFile(path); string(got) != content {
				t.Errorf("the state file was changed")
			}
			if _, err := os.Stat(filepath.Join(c.dir, "out")); !os.IsNotExist(err) {
				t.Errorf("destinations were written")
			}
		})
	}
}

func TestUnwritableDestinationLeavesStateUnchanged(t *testing.T) {
	c := newCLI(t, strings.Replace(testConfig, `path = "out/archive"`, `path = "blocker/archive"`, 1))
	// A regular file where a directory is needed: unwritable even for root.
	os.WriteFile(filepath.Join(c.dir, "blocker"), []byte("x"), 0o644)
	o := c.must(ExitError, "apply", "-auto-approve")
	// Planning lists the destination (not a directory) or the write check
	// refuses it: either way before any intent is logged.
	if !strings.Contains(o.stderr, "destination archive") || !strings.Contains(o.stderr, "cannot be written") && !strings.Contains(o.stderr, "not a directory") {
		t.Errorf("error:\n%s", o.stderr)
	}
	if _, err := os.Stat(filepath.Join(c.dir, ".streamctl", "state.json")); !os.IsNotExist(err) {
		t.Errorf("the state was written (%v)", err)
	}
}

func TestValidate(t *testing.T) {
	c := newCLI(t, testConfig)
	o := c.must(ExitOK, "validate")
	if !strings.Contains(o.stdout, "Success!") {
		t.Errorf("validate: %s", o.stdout)
	}
	bad := newCLI(t, testConfig+"\nsink \"x\" {\n  source = source.kafka.nope\n  colour = 1\n}\n")
	o = bad.must(ExitError, "validate", "-no-color")
	for _, want := range []string{"main.hcl line 28", "Reference to undeclared source", "main.hcl line 29", "Unsupported argument", "Sink without destinations", "3 errors"} {
		if !strings.Contains(o.stderr, want) {
			t.Errorf("validate output lacks %q:\n%s", want, o.stderr)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	c := newCLI(t, testConfig)
	if o := c.must(ExitOK, "version"); !strings.HasPrefix(o.stdout, "streamctl v") {
		t.Errorf("version: %q", o.stdout)
	}
	for _, cmd := range [][]string{{"plan"}, {"apply"}, {"show"}, {"validate"}, {"state", "list"}, {"state", "show"}, {"force-unlock"}} {
		o := c.run(append(cmd, "-help")...)
		if !strings.Contains(o.stdout+o.stderr, "Usage: streamctl") {
			t.Errorf("%v -help:\n%s%s", cmd, o.stdout, o.stderr)
		}
	}
	if o := c.run("plan", "-bogus"); o.code != ExitError || !strings.Contains(o.stderr, "flag provided but not defined: -bogus") {
		t.Errorf("unknown flag: %d %s", o.code, o.stderr)
	}
}
