package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// User mistakes on the command line and in the configuration, with the real
// binary: what it prints, its exit code, and that it writes nothing it
// should not.

func TestMistypedCommand(t *testing.T) {
	dir := t.TempDir()
	r := mustRun(t, dir, 1, nil, "aply", "-auto-approve")
	if first, _, _ := strings.Cut(r.stderr, "\n"); first != `streamctl has no command named "aply". Did you mean "apply"?` {
		t.Errorf("first line of stderr %q\n%s", first, r)
	}
	r = mustRun(t, dir, 1, nil, "xyz")
	if !strings.HasPrefix(r.stderr, "streamctl has no command named \"xyz\".\n") || !strings.Contains(r.stderr, "streamctl -help") {
		t.Errorf("unknown command without a close one:\n%s", r)
	}
	if r.stdout != "" {
		t.Errorf("stdout %q, want nothing", r.stdout)
	}
	// Shell completion calls streamctl with the words being completed, which
	// are no command: the completion must still answer.
	r = mustRun(t, dir, 0, []string{"COMP_LINE=streamctl ap", "COMP_POINT=12"}, "streamctl", "ap", "streamctl")
	if strings.TrimSpace(r.stdout) != "apply" {
		t.Errorf("completion of \"ap\": %s", r)
	}
	if r := mustRun(t, dir, 0, nil, "-version"); !strings.Contains(r.stdout, ".") {
		t.Errorf("-version: %s", r)
	}
}

const typedVarConfig = `
variable "count" {
  type    = number
  default = 10
}

source "generate" "orders" {
  partitions            = 1
  records_per_partition = var.count
}

sink "orders" {
  source = source.generate.orders
  destination "local" "lake" {
    path = "out"
  }
}
`

func TestBadVariableValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"flag", nil, []string{"-var", "count=abc"},
			`-var count=abc: a number is required (the variable is declared type = number).`},
		{"environment", []string{"STREAMCTL_VAR_count=abc"}, nil,
			`The environment variable STREAMCTL_VAR_count=abc: a number is required (the variable is declared type = number).`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeConfig(t, typedVarConfig)
			r := mustRun(t, dir, 1, tc.env, append([]string{"apply", "-auto-approve", "-no-color"}, tc.args...)...)
			for _, want := range []string{`Error: Invalid value for variable "count"`, tc.want} {
				if !strings.Contains(unwrap(r.stderr), want) {
					t.Errorf("stderr lacks %q:\n%s", want, r)
				}
			}
			if strings.Contains(r.stderr, "source code not available") || strings.Contains(r.stderr, "Variables not allowed") {
				t.Errorf("stderr still has HCL's message for HCL code:\n%s", r)
			}
			for _, p := range []string{".streamctl", "out"} {
				if _, err := os.Stat(filepath.Join(dir, p)); !os.IsNotExist(err) {
					t.Errorf("%s exists after a refused variable (err %v)", p, err)
				}
			}
		})
	}
}

// route_by naming a field the records do not have: an error at validate
// time when the sink declares columns; without columns, every record is
// invalid when written, instead of all going to one destination.
func TestRouteByMissingField(t *testing.T) {
	sink := func(extra string) string {
		return `
source "generate" "orders" {
  partitions            = 2
  records_per_partition = 20
}

sink "orders" {
  source   = source.generate.orders
  route_by = "customer"
` + extra + `
  destination "local" "a" {
    path = "out/a"
  }
  destination "local" "b" {
    path = "out/b"
  }
}
`
	}

	t.Run("columns", func(t *testing.T) {
		dir := writeConfig(t, sink(`
  column "id"          { type = "int64" }
  column "customer_id" { type = "int64" }
`))
		r := mustRun(t, dir, 1, nil, "validate", "-no-color")
		for _, want := range []string{"Error: Unknown route_by column", "main.hcl line 9", `Sink "orders" routes by "customer", which is none of its columns: id, customer_id.`, `Did you mean "customer_id"?`} {
			if !strings.Contains(unwrap(r.stderr), want) {
				t.Errorf("stderr lacks %q:\n%s", want, r)
			}
		}
	})

	t.Run("fail", func(t *testing.T) {
		dir := writeConfig(t, sink(""))
		mustRun(t, dir, 0, nil, "validate")
		r := mustRun(t, dir, 1, nil, "apply", "-auto-approve", "-no-color")
		want := `invalid record at partition 0 offset 0: field "customer": missing, and route_by needs it to choose the record's destination`
		if !strings.Contains(unwrap(r.stderr), want) {
			t.Errorf("stderr lacks %q:\n%s", want, r)
		}
		for _, d := range []string{"a", "b"} {
			if m, _ := filepath.Glob(filepath.Join(dir, "out", d, "part-*")); len(m) > 0 {
				t.Errorf("destination %s has data files %v", d, m)
			}
		}
	})

	t.Run("reject", func(t *testing.T) {
		dir := writeConfig(t, sink(`  on_invalid = "reject"`))
		mustRun(t, dir, 0, nil, "apply", "-auto-approve")
		for _, d := range []string{"a", "b"} {
			var m struct {
				Records  int64 `json:"records"`
				Rejected int64 `json:"rejected"`
			}
			b, err := os.ReadFile(filepath.Join(dir, "out", d, "_streamctl", "orders", "0.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if m.Records != 0 || m.Rejected != 40 {
				t.Errorf("destination %s: manifest says %d records, %d rejected; want 0 and all 40", d, m.Records, m.Rejected)
			}
			rejects, err := os.ReadFile(filepath.Join(dir, "out", d, "_streamctl", "_rejected", "part-00000000-00000.ndjson"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(rejects)), "\n")
			if len(lines) != 40 || !strings.Contains(lines[0], `"reason":"field \"customer\": missing, and route_by needs it to choose the record's destination"`) {
				t.Errorf("destination %s: %d rejects, first %s", d, len(lines), lines[0])
			}
		}
	})
}

// unwrap joins the lines that the human output wraps at 100 columns.
func unwrap(s string) string { return strings.Join(strings.Fields(s), " ") }
