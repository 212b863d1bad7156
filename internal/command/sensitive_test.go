package command

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// canary is a secret planted in sensitive variables; no output may show it.
const canary = "canary-5ecret-7f3a9c"

const sensitiveConfig = `
variable "prefix" {
  type      = string
  sensitive = true
  default   = "canary-default-1b2c"
}

variable "pin" {
  type      = number
  sensitive = true
  default   = 1
}

source "generate" "orders" {
  partitions            = 2
  records_per_partition = 300
}

locals {
  # Secrets may flow through locals; never into paths (see below).
  label = "orders-${var.prefix}"
}

sink "orders" {
  source = source.generate.orders

  destination "local" "lake" {
    path = "out/lake"
  }
}
`

// TestSensitiveValuesNeverShown plants a canary in sensitive variables, then
// greps every output for it: stdout and stderr of every command, human and
// JSON and Markdown, errors included, the plan file, the state, its backup
// and lock, and the metrics file. A sensitive value in a destination's path
// is refused: it would name the files, where masking cannot reach.
func TestSensitiveValuesNeverShown(t *testing.T) {
	c := newCLI(t, strings.Replace(sensitiveConfig, `path = "out/lake"`, `path = "out/${var.prefix}"`, 1))
	c.env = []string{"STREAMCTL_VAR_prefix=" + canary}
	var outputs []string
	run := func(want int, args ...string) out {
		t.Helper()
		o := c.must(want, args...)
		outputs = append(outputs, strings.ReplaceAll(strings.Join(args, " "), canary, "CANARY")+"\n"+o.stdout+o.stderr)
		return o
	}
	if o := run(ExitError, "validate"); !strings.Contains(o.stderr, "Sensitive value in a path") {
		t.Errorf("a sensitive value in a path is not refused:\n%s", o.stderr)
	}
	run(ExitError, "validate", "-json")
	if err := os.WriteFile(filepath.Join(c.dir, "main.hcl"), []byte(sensitiveConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	run(ExitOK, "validate")
	run(ExitOK, "validate", "-json")
	run(ExitOK, "plan")
	run(ExitOK, "plan", "-json", "-verbose")
	run(ExitOK, "plan", "-markdown", "-out=p.plan", "-json-out=p.jsonl", "-markdown-out=p.md")
	run(ExitOK, "show", "p.plan")
	run(ExitOK, "show", "-json", "p.plan")
	run(ExitOK, "show", "-markdown", "p.plan")
	run(ExitOK, "apply", "-metrics-file=metrics.prom", "p.plan")
	run(ExitOK, "show")
	run(ExitOK, "show", "-json")
	run(ExitOK, "state", "show", "orders")
	run(ExitOK, "state", "pull")
	run(ExitOK, "state", "list")
	run(ExitOK, "status")
	run(ExitOK, "status", "-json")
	run(ExitOK, "lock")
	run(ExitOK, "apply", "-auto-approve", "-json")
	// Errors: a value refused for its type, and a destination that cannot be
	// listed.
	o := run(ExitError, "plan", "-var", "pin="+canary)
	if !strings.Contains(o.stderr, "pin=(sensitive)") {
		t.Errorf("the refused value is not masked:\n%s", o.stderr)
	}
	run(ExitError, "plan", "-json", "-var", "pin="+canary)
	// A regular file where the destination's parent folder should be.
	if err := os.Rename(filepath.Join(c.dir, "out"), filepath.Join(c.dir, "data")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(c.dir, "out"), []byte("x"), 0o644)
	run(ExitError, "apply", "-auto-approve")
	run(ExitError, "apply", "-auto-approve", "-json")
	c.env = nil
	run(ExitError, "plan") // the default value, sensitive too

	for _, out := range outputs {
		for _, secret := range []string{canary, "canary-default-1b2c"} {
			if strings.Contains(out, secret) {
				t.Errorf("output shows a sensitive value:\n%s", out)
			}
		}
	}
	// Every file streamctl wrote, data included.
	filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), canary) {
			t.Errorf("%s holds the sensitive value", path)
		}
		return nil
	})
	for _, name := range []string{"p.plan", "p.jsonl", "p.md", "metrics.prom", ".streamctl/state.json", ".streamctl/state.json.backup"} {
		if _, err := os.Stat(filepath.Join(c.dir, name)); err != nil {
			t.Errorf("%s was not written: the check above did not cover it", name)
		}
	}
}
