package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/streamctl/streamctl/providers/all"
	"github.com/streamctl/streamctl/providers/generate"
	"github.com/streamctl/streamctl/providers/local"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const validConfig = `
variable "env" {
  default = "dev"
}
variable "records" {
  type    = number
  default = 10
}
locals {
  base = "out/${var.env}"
  lake = "${local.base}/lake"
}
source "generate" "orders" {
  partitions            = 2
  records_per_partition = var.records * 2
}
sink "orders" {
  source = source.generate.orders
  batch {
    max_records = 7
  }
  destination "local" "lake" {
    path = local.lake
  }
  destination "local" "copy" {
    path = upper("copy-${var.env}")
  }
}
`

func TestLoadValidConfigAcrossFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.hcl": validConfig,
		"streamctl.hcl": `streamctl {
  state "local" {
    path = "state/s.json"
  }
}`,
	})
	cfg, diags := Load(dir, all.Kinds(), Inputs{Args: []VarArg{{Value: "env=prod"}}, Environ: []string{"STREAMCTL_VAR_records=50"}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if got := cfg.State.Config.(*local.StateConfig).Path; got != filepath.Join(cfg.Dir, "state", "s.json") {
		t.Errorf("state path %s", got)
	}
	src := cfg.Sources["generate.orders"].Config.(*generate.Config)
	if src.Partitions != 2 || src.RecordsPerPartition != 100 {
		t.Errorf("source %+v: the environment variable should give records = 50", src)
	}
	s := cfg.Sink("orders")
	if s == nil || s.MaxRecords != 7 || s.Format != "jsonl" || len(s.Destinations) != 2 {
		t.Fatalf("sink %+v", s)
	}
	if got := s.Destinations[0].Config.(*local.Config).Path; got != filepath.Join(cfg.Dir, "out/prod/lake") {
		t.Errorf("lake path %s: -var env=prod should win over the default", got)
	}
	if got := s.Destinations[1].Config.(*local.Config).Path; got != filepath.Join(cfg.Dir, "COPY-PROD") {
		t.Errorf("copy path %s: functions should apply", got)
	}
	// The hash depends on the variables' values.
	other, _ := Load(dir, all.Kinds(), Inputs{})
	if other.Hash == cfg.Hash {
		t.Error("the configuration hash ignores variable values")
	}
}

func TestVariablePrecedence(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.hcl":         strings.Replace(validConfig, `default = "dev"`, `default = "dev"`, 1),
		"streamctl.vars":   `env = "auto"`,
		"zz.auto.vars":     `env = "auto2"`,
		"override.hclvars": `env = "file"`,
	})
	lake := func(in Inputs) string {
		cfg, diags := Load(dir, all.Kinds(), in)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return filepath.Base(filepath.Dir(cfg.Sink("orders").Destinations[0].Config.(*local.Config).Path))
	}
	env := []string{"STREAMCTL_VAR_env=environ"}
	if got := lake(Inputs{Environ: env}); got != "auto2" {
		t.Errorf("auto files beat the environment: got %s", got)
	}
	if got := lake(Inputs{Environ: env, Args: []VarArg{{File: true, Value: filepath.Join(dir, "override.hclvars")}, {Value: "env=flag"}}}); got != "flag" {
		t.Errorf("the last -var wins: got %s", got)
	}
	if got := lake(Inputs{Args: []VarArg{{Value: "env=flag"}, {File: true, Value: filepath.Join(dir, "override.hclvars")}}}); got != "file" {
		t.Errorf("the last -var-file wins: got %s", got)
	}
}

// TestEveryMistakeIsReported checks that one run reports each mistake, with
// its file and line.
func TestEveryMistakeIsReported(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.hcl": `
source "generate" "orders" {
  records_per_partition = "many"
  colour = "blue"
}
source "generate" "orders" {
  records_per_partition = 1
}
source "nope" "x" {}
`,
		"b.hcl": `
sink "orders" {
  source = source.generate.missing
  format = "xml"
  destination "local" "a" {
    path = "x"
  }
  destination "local" "a" {
    path = "y"
  }
}
sink "empty" {
  source = source.generate.orders
}
sink "twin" {
  source = source.generate.orders
  destination "local" "x" {
    path = "x"
  }
}
unknown_block {}
variable "needed" {}
`,
	})
	_, diags := Load(dir, all.Kinds(), Inputs{})
	want := []struct {
		summary, file string
		line          int
	}{
		{"Unsupported argument", "a.hcl", 4}, // colour
		{"Duplicate source", "a.hcl", 6},
		{"Unknown source type", "a.hcl", 9},
		{"Unsupported block type", "b.hcl", 21}, // unknown_block
		{"Invalid format", "b.hcl", 4},
		{"Duplicate destination", "b.hcl", 8},
		{"Sink without destinations", "b.hcl", 12},
		{"Reference to undeclared source", "b.hcl", 3},
		{"Destination shared by two sinks", "b.hcl", 17},
		{"No value for required variable", "b.hcl", 22},
	}
	for _, w := range want {
		if !hasDiag(diags, w.summary, w.file, w.line) {
			t.Errorf("no %q at %s:%d in:\n%s", w.summary, w.file, w.line, render(diags))
		}
	}
	// records_per_partition = "many" is a type error.
	if !strings.Contains(render(diags), "a number is required") {
		t.Errorf("no type error for records_per_partition:\n%s", render(diags))
	}
}

// TestNestedDestinationsAreRefused: a destination inside another's location
// doubles the records of whoever reads the outer one; siblings, and names
// that only share a prefix of characters, are fine.
func TestNestedDestinationsAreRefused(t *testing.T) {
	block := func(kind, name string, attrs ...string) string {
		return fmt.Sprintf("destination %q %q {\n    %s\n  }", kind, name, strings.Join(attrs, "\n    "))
	}
	for _, tc := range []struct {
		name      string
		x, y      string // the two sinks' destination blocks
		wantError bool
	}{
		{"local folder inside another", block("local", "x", `path = "out"`), block("local", "y", `path = "out/nested"`), true},
		{"local siblings", block("local", "x", `path = "out/a"`), block("local", "y", `path = "out/b"`), false},
		{"local names sharing characters", block("local", "x", `path = "out"`), block("local", "y", `path = "out-2"`), false},
		{"s3 prefix inside another", block("s3", "x", `bucket = "lake"`), block("s3", "y", `bucket = "lake"`, `prefix = "raw/orders"`), true},
		{"s3 prefixes in two buckets", block("s3", "x", `bucket = "lake"`, `prefix = "raw"`), block("s3", "y", `bucket = "lake2"`, `prefix = "raw/orders"`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.hcl": fmt.Sprintf(`
source "generate" "g" {
  records_per_partition = 10
}
sink "a" {
  source = source.generate.g
  %s
}
sink "b" {
  source = source.generate.g
  %s
}
`, tc.x, tc.y)})
			_, diags := Load(dir, all.Kinds(), Inputs{})
			got := hasDiag(diags, "Destination inside another destination", "main.hcl", 13)
			if got != tc.wantError {
				t.Errorf("refused: %v, want %v:\n%s", got, tc.wantError, render(diags))
			}
			if !tc.wantError && diags.HasErrors() {
				t.Errorf("unexpected errors:\n%s", render(diags))
			}
		})
	}
}

func hasDiag(diags hcl.Diagnostics, summary, file string, line int) bool {
	for _, d := range diags {
		if d.Summary == summary && d.Subject != nil && strings.HasSuffix(d.Subject.Filename, file) && d.Subject.Start.Line == line {
			return true
		}
	}
	return false
}

func render(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Error())
		b.WriteByte('\n')
	}
	return b.String()
}

func TestNoConfigurationFiles(t *testing.T) {
	_, diags := Load(t.TempDir(), all.Kinds(), Inputs{})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "No configuration files") {
		t.Fatalf("want a no-configuration error, got %v", diags)
	}
}

func TestLocalsCycle(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.hcl": `
locals {
  a = local.b
  b = local.a
}
`})
	_, diags := Load(dir, all.Kinds(), Inputs{})
	if !strings.Contains(diags.Error(), "Cycle in local values") {
		t.Fatalf("want a cycle error, got %v", diags)
	}
}
