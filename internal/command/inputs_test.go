package command

import (
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/cli"
)

const twoSinks = testConfig + `
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

func TestTargetAndExclude(t *testing.T) {
	c := newCLI(t, twoSinks)
	o := c.must(ExitOK, "plan", "-target=sink.clicks")
	if strings.Contains(o.stdout, `sink "orders"`) || !strings.Contains(o.stdout, "Plan: 1 batch, 500 records to 1 destination.") {
		t.Errorf("-target=sink.clicks:\n%s", o.stdout)
	}
	if !strings.Contains(o.stderr, "Warning: Only some sinks are planned") {
		t.Errorf("no targeting warning: %s", o.stderr)
	}
	o = c.must(ExitOK, "plan", "-exclude=sink.clicks")
	if strings.Contains(o.stdout, `sink "clicks"`) || !strings.Contains(o.stdout, "Plan: 3 batches, 3,000 records") {
		t.Errorf("-exclude=sink.clicks:\n%s", o.stdout)
	}
	o = c.must(ExitOK, "plan", "-target=sink.clicks", "-target=sink.orders")
	if !strings.Contains(o.stdout, "Plan: 4 batches, 3,500 records to 3 destinations.") {
		t.Errorf("two -target:\n%s", o.stdout)
	}
	for _, bad := range []string{"-target=sink.nope", "-target=clicks", "-exclude=sink.nope"} {
		o = c.must(ExitError, "plan", bad)
		if !strings.Contains(o.stderr, "Invalid -target or -exclude") {
			t.Errorf("%s: %s", bad, o.stderr)
		}
	}
	c.must(ExitError, "plan", "-target=sink.clicks", "-exclude=sink.clicks")

	c.must(ExitOK, "apply", "-auto-approve", "-target=sink.clicks")
	o = c.must(ExitOK, "state", "list")
	if o.stdout != "clicks\n" {
		t.Errorf("after apply -target=sink.clicks, the state holds %q", o.stdout)
	}
	c.must(ExitOK, "plan", "-out=t.plan", "-exclude=sink.clicks")
	c.must(ExitError, "apply", "-target=sink.orders", "t.plan")
	c.must(ExitOK, "apply", "t.plan")
	c.must(ExitOK, "plan", "-detailed-exitcode")
}

func TestInputFalse(t *testing.T) {
	c := newCLI(t, testConfig)
	c.terminal, c.stdin = true, "yes\n"
	o := c.must(ExitError, "apply", "-input=false")
	if !strings.Contains(o.stderr, "-input=false forbids asking") {
		t.Errorf("apply -input=false: %s", o.stderr)
	}
	c.must(ExitOK, "plan", "-input=false")
	c.must(ExitOK, "apply", "-input=false", "-auto-approve")
	o = c.must(ExitError, "state", "rm", "-input=false", "orders")
	if !strings.Contains(o.stderr, "-force") {
		t.Errorf("state rm -input=false: %s", o.stderr)
	}
}

func TestStateRmAndPull(t *testing.T) {
	c := newCLI(t, twoSinks)
	if o := c.must(ExitOK, "state", "pull"); o.stdout != "" {
		t.Errorf("state pull without a state: %q", o.stdout)
	}
	c.must(ExitOK, "apply", "-auto-approve")
	raw, _ := os.ReadFile(filepath.Join(c.dir, ".streamctl", "state.json"))
	if o := c.must(ExitOK, "state", "pull"); o.stdout != string(raw) {
		t.Errorf("state pull differs from the state file")
	}
	// No terminal: state rm refuses to go on without -force.
	c.must(ExitError, "state", "rm", "clicks")
	c.terminal, c.stdin = true, "no\n"
	o := c.must(ExitError, "state", "rm", "clicks")
	if !strings.Contains(o.stdout, "Nothing was removed.") {
		t.Errorf("state rm answered no: %s", o.stdout)
	}
	c.stdin = "yes\n"
	o = c.must(ExitOK, "state", "rm", "clicks")
	if !strings.Contains(o.stdout, `Removed the checkpoint of sink "clicks".`) {
		t.Errorf("state rm: %s", o.stdout)
	}
	if o = c.must(ExitOK, "state", "list"); o.stdout != "orders\n" {
		t.Errorf("state list after rm: %q", o.stdout)
	}
	c.must(ExitError, "state", "rm", "-force", "nope")
	c.terminal = false
	c.must(ExitOK, "state", "rm", "-force", "orders")
	if o = c.must(ExitOK, "state", "list"); o.stdout != "" {
		t.Errorf("state list after rm -force: %q", o.stdout)
	}
}

func TestStatus(t *testing.T) {
	c := newCLI(t, twoSinks)
	o := c.must(ExitOK, "status")
	golden(t, "status-new.txt", o.stdout)
	c.must(ExitOK, "apply", "-auto-approve", "-target=sink.orders")
	o = c.must(ExitOK, "status", "-var", "records=1100")
	golden(t, "status.txt", o.stdout)
	o = c.must(ExitOK, "status", "-json", "-var", "records=1100")
	golden(t, "status.jsonl", o.stdout)
	msgs := jsonLines(t, o.stdout)
	if got := strings.Join(types(msgs), " "); got != "version sink_status sink_status status_summary" {
		t.Errorf("status -json: %s", got)
	}
	// clicks: 500 behind; orders: 300 behind.
	c.must(ExitChanges, "status", "-detailed-exitcode", "-var", "records=1100")
	c.must(ExitChanges, "status", "-detailed-exitcode", "-max-lag=499", "-var", "records=1100")
	c.must(ExitOK, "status", "-detailed-exitcode", "-max-lag=500", "-var", "records=1100")
	c.must(ExitOK, "status", "-detailed-exitcode", "-target=sink.orders")
	c.must(ExitChanges, "status", "-detailed-exitcode", "-target=sink.orders", "-var", "records=1100")
	c.must(ExitError, "status", "-max-lag=-1")
}

func TestFmt(t *testing.T) {
	messy := strings.Replace(testConfig, "  partitions            = 3", "  partitions = 3", 1)
	c := newCLI(t, messy)
	os.MkdirAll(filepath.Join(c.dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(c.dir, "sub", "x.auto.vars"), []byte("records   =   5\n"), 0o644)
	os.MkdirAll(filepath.Join(c.dir, ".hidden"), 0o755)
	os.WriteFile(filepath.Join(c.dir, ".hidden", "y.hcl"), []byte("a   =   5\n"), 0o644)

	o := c.must(ExitUnformatted, "fmt", "-check")
	if o.stdout != "main.hcl\n" {
		t.Errorf("fmt -check lists %q", o.stdout)
	}
	if got, _ := os.ReadFile(filepath.Join(c.dir, "main.hcl")); string(got) != messy {
		t.Errorf("fmt -check changed the file")
	}
	o = c.must(ExitUnformatted, "fmt", "-check", "-diff", "-list=false")
	golden(t, "fmt.diff", o.stdout)
	o = c.must(ExitUnformatted, "fmt", "-check", "-recursive")
	if o.stdout != "main.hcl\nsub/x.auto.vars\n" {
		t.Errorf("fmt -check -recursive lists %q", o.stdout)
	}
	o = c.must(ExitOK, "fmt")
	if o.stdout != "main.hcl\n" {
		t.Errorf("fmt lists %q", o.stdout)
	}
	if got, _ := os.ReadFile(filepath.Join(c.dir, "main.hcl")); string(got) != testConfig {
		t.Errorf("fmt wrote:\n%s", got)
	}
	c.must(ExitOK, "fmt", "-check")
	c.must(ExitOK, "fmt", "-recursive", "sub")
	c.must(ExitOK, "fmt", "-check", "-recursive")
	if got, _ := os.ReadFile(filepath.Join(c.dir, ".hidden", "y.hcl")); string(got) != "a   =   5\n" {
		t.Errorf("fmt -recursive entered a hidden directory")
	}

	c.stdin = "a   =   1\n"
	if o = c.must(ExitOK, "fmt", "-"); o.stdout != "a = 1\n" {
		t.Errorf("fmt -: %q", o.stdout)
	}
	c.must(ExitUnformatted, "fmt", "-check", "-")

	os.WriteFile(filepath.Join(c.dir, "broken.hcl"), []byte("sink \"x\" {\n"), 0o644)
	o = c.must(ExitError, "fmt", "-check")
	if !strings.Contains(o.stderr, "broken.hcl") {
		t.Errorf("fmt of a syntax error: %s", o.stderr)
	}
}

// TestExitCodes runs one command per documented exit code.
func TestExitCodes(t *testing.T) {
	c := newCLI(t, testConfig)
	c.must(ExitOK, "validate")
	c.must(ExitError, "plan", "-bogus")
	c.must(ExitChanges, "plan", "-detailed-exitcode")
	os.WriteFile(filepath.Join(c.dir, "messy.hcl"), []byte("locals {\n  a   =   1\n}\n"), 0o644)
	c.must(ExitUnformatted, "fmt", "-check")
	holdLock(t, c)
	c.must(ExitLocked, "apply", "-auto-approve")
	if ExitOK != 0 || ExitError != 1 || ExitChanges != 2 || ExitUnformatted != 3 || ExitLocked != 4 {
		t.Fatal("an exit code changed: website/content/exit-codes.md and every script depend on them")
	}
}

func TestAutocompleteFlags(t *testing.T) {
	m := &Meta{}
	for name, factory := range Commands(m) {
		cmd, _ := factory()
		fl, ok := cmd.(flagged)
		if !ok {
			continue
		}
		ac, ok := cmd.(cli.CommandAutocomplete)
		if !ok {
			t.Errorf("%s has flags but no completion", name)
			continue
		}
		flags := ac.AutocompleteFlags()
		n := 0
		fl.FlagSet().VisitAll(func(f *flag.Flag) {
			n++
			if _, ok := flags["-"+f.Name]; !ok {
				t.Errorf("%s: -%s is not completed", name, f.Name)
			}
		})
		if n == 0 {
			t.Errorf("%s: no flags", name)
		}
	}
	plan := (&PlanCommand{Meta: m}).AutocompleteFlags()
	for _, f := range []string{"-json", "-out", "-target", "-markdown", "-var"} {
		if _, ok := plan[f]; !ok {
			t.Errorf("plan does not complete %s", f)
		}
	}
}

// TestCompletion asks the shell-completion protocol (COMP_LINE) for plan's
// flags starting with -ta.
func TestCompletion(t *testing.T) {
	t.Setenv("COMP_LINE", "streamctl plan -ta")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	code := Main([]string{"plan"}, Streams{Stdout: io.Discard, Stderr: io.Discard, Environ: []string{}})
	os.Stdout = stdout
	w.Close()
	out, _ := io.ReadAll(r)
	if code != 0 || strings.TrimSpace(string(out)) != "-target" {
		t.Errorf("completion of %q: exit %d, %q", "streamctl plan -ta", code, out)
	}
}

func TestHelpOfEveryCommand(t *testing.T) {
	c := newCLI(t, testConfig)
	for name := range Commands(&Meta{}) {
		o := c.run(append(strings.Fields(name), "-help")...)
		if !strings.Contains(o.stdout+o.stderr, "Usage: streamctl") {
			t.Errorf("%s -help:\n%s%s", name, o.stdout, o.stderr)
		}
	}
	var doc map[string]any
	o := c.must(ExitOK, "lock", "-json")
	if err := json.Unmarshal([]byte(o.stdout), &doc); err != nil || doc["locked"] != false {
		t.Errorf("lock -json: %s", o.stdout)
	}
}
