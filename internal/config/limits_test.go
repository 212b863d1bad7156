package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/streamctl/streamctl/providers/all"
	"github.com/streamctl/streamctl/providers/local"
)

const limitsSink = `
source "generate" "orders" {
  records_per_partition = 10
}
sink "orders" {
  source = source.generate.orders
  destination "local" "lake" {
    path = local.path
  }
}
`

func loadWith(t *testing.T, extra string, in Inputs) (*Config, hcl.Diagnostics) {
	t.Helper()
	return Load(writeFiles(t, map[string]string{"main.hcl": limitsSink + extra}), all.Kinds(), in)
}

// wantDiag fails the test unless diags hold one error whose summary is
// summary, and only errors naming it (no cascade).
func wantDiag(t *testing.T, diags hcl.Diagnostics, summary string) *hcl.Diagnostic {
	t.Helper()
	var found *hcl.Diagnostic
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Summary == summary {
			if found != nil {
				t.Errorf("more than one %q: %v", summary, diags)
			}
			found = d
		}
	}
	if found == nil {
		t.Fatalf("want an error %q, got %v", summary, diags)
	}
	return found
}

func TestLoadRefusesDeepNesting(t *testing.T) {
	deep := func(open, close string, n int) string {
		return strings.Repeat(open, n) + "1" + strings.Repeat(close, n)
	}
	for name, expr := range map[string]string{
		"brackets":     deep("[", "]", maxNesting+1),
		"braces":       deep("{a = ", "}", maxNesting+1),
		"parentheses":  deep("(", ")", maxNesting+1),
		"templates":    deep(`"${`, `}"`, maxNesting),
		"unary":        strings.Repeat("-", maxNesting+1) + "1",
		"conditionals": "(" + strings.Repeat("true ? 1 :\n ", maxNesting+1) + "2)",
		"binary":       strings.Repeat("1 + ", maxNesting+1) + "1",
		"directives":   `"` + strings.Repeat("%{ if true }", maxNesting+1) + strings.Repeat("%{ endif }", maxNesting+1) + `"`,
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := loadWith(t, fmt.Sprintf("locals {\n  path = \"out\"\n  x = %s\n}\n", expr), Inputs{})
			d := wantDiag(t, diags, "Expression nested too deeply")
			if d.Subject == nil || !strings.HasSuffix(d.Subject.Filename, "main.hcl") {
				t.Errorf("the diagnostic does not point into the file: %v", d.Subject)
			}
		})
	}
	deepValue := strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1)
	withVar := "variable \"v\" {\n  type = any\n  default = []\n}\nlocals {\n  path = \"out\"\n}\n"
	for name, in := range map[string]Inputs{
		"-var":        {Args: []VarArg{{Value: "v=" + deepValue}}},
		"environment": {Environ: []string{EnvPrefix + "v=" + deepValue}},
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := loadWith(t, withVar, in)
			wantDiag(t, diags, "Expression nested too deeply")
		})
	}
}

func TestLoadAcceptsOrdinaryNesting(t *testing.T) {
	cfg, diags := loadWith(t, `
locals {
  path   = "out/${join("-", [for i, v in local.matrix : "${i}${length(v)}"])}"
  matrix = [[[[[[[[[[1]]]]]]]]], [[2]], [[3], [4]]]
  object = {a = {b = {c = [3]}}, d = [for k, v in {x = 1} : { (k) = v }]}
  text   = <<EOT
%{ for x in range(3) }%{ if x > 0 }${x}%{ endif }%{ endfor }
EOT
  maths  = ((((1 + 2) * 3 - 4) / 5) % 6 == 1 ? !false : true && false || true)
  list   = [
    "a${"b${"c${"d"}"}"}",
    format("%05d|%-8s|%.2f", 42, "x", 3.14159),
    replace(title("hello world"), "/o/", "0"),
    indent(2, "a\nb"),
  ]
}
`, Inputs{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := cfg.Sinks[0].Destinations[0].Config.(*local.Config).Path; !strings.HasSuffix(got, "out/01-11-22") {
		t.Errorf("path = %q", got)
	}
}

func TestLoadBoundsTheValuesItBuilds(t *testing.T) {
	doubling := func(n int) string {
		var b strings.Builder
		b.WriteString("locals {\n  path = \"out\"\n  s0 = \"xxxxxxxxxxxxxxxx\"\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "  s%d = \"${local.s%d}${local.s%d}\"\n", i, i-1, i-1)
		}
		return b.String() + "}\n"
	}
	for name, src := range map[string]string{
		"doubling locals":   doubling(30),
		"doubling join":     "locals {\n  path = \"out\"\n  a = join(\"\", [for i in range(1100000) : \"xxxxxxxxxxxxxxxx\"])\n}\n",
		"shared tuples":     "locals {\n  path = \"out\"\n  a = [\"xxxxxxxxxxxxxxxx\"]\n" + sharedTuples(20) + "}\n",
		"encode shared":     "locals {\n  path = \"out\"\n  a = [\"xxxxxxxxxxxxxxxx\"]\n" + sharedTuples(16) + "  e = jsonencode(local.a16)\n}\n",
		"replace":           "locals {\n  path = \"out\"\n  a = join(\"\", [for i in range(1000) : \"xxxxx\"])\n  b = replace(local.a, \"x\", local.a)\n}\n",
		"regex_replace":     "locals {\n  path = \"out\"\n  a = join(\"\", [for i in range(1000) : \"xxxxx\"])\n  b = regex_replace(local.a, \"x\", \"$0${local.a}\")\n}\n",
		"format width":      "locals {\n  path = \"out\"\n  a = format(\"%999999999999d\", 1)\n}\n",
		"format precision":  "locals {\n  path = \"out\"\n  a = format(\"%.99999999f\", 1)\n}\n",
		"formatlist":        "locals {\n  path = \"out\"\n  a = formatlist(\"%9999999d\", range(100))\n}\n",
		"indent":            "locals {\n  path = \"out\"\n  a = indent(99999999999, \"a\\nb\")\n}\n",
		"range":             "locals {\n  path = \"out\"\n  a = range(100000000)\n}\n",
		"setproduct":        "locals {\n  path = \"out\"\n  r = range(100)\n  a = setproduct(local.r, local.r, local.r, local.r, local.r)\n}\n",
		"nested for":        "locals {\n  path = \"out\"\n  a = [for i in range(1000) : [for j in range(1000) : [for k in range(100) : k]]]\n}\n",
		"for directive":     "locals {\n  path = \"out\"\n  a = \"%{ for i in range(1000) }%{ for j in range(200) }" + strings.Repeat("x", 500) + "%{ endfor }%{ endfor }\"\n}\n",
		"jsondecode nested": "locals {\n  path = \"out\"\n  a = jsondecode(\"" + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "\")\n}\n",
		"in an attribute":   "locals {\n  path = \"out\"\n}\nsink \"more\" {\n  source = source.generate.orders\n  destination \"local\" \"x\" {\n    path = join(\"\", [for i in range(2000000) : \"xxxxxxxxxxxxxxxx\"])\n  }\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, diags := loadWith(t, src, Inputs{})
			d := wantDiag(t, diags, "Value too large")
			if d.Subject == nil || !strings.Contains(d.Detail, "16 MiB") && !strings.Contains(d.Detail, "256 MiB") {
				t.Errorf("the diagnostic: %v (%s)", d.Subject, d.Detail)
			}
			if len(diags) > 3 {
				t.Errorf("a cascade of %d diagnostics: %v", len(diags), diags)
			}
		})
	}
}

// sharedTuples doubles local.a n times by reference: little memory, a huge
// value once encoded.
func sharedTuples(n int) string {
	var b strings.Builder
	prev := "a"
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "  a%d = [local.%s, local.%s]\n", i, prev, prev)
		prev = fmt.Sprintf("a%d", i)
	}
	return b.String()
}

// TestGuardedExpressionsKeepTheirMeaning: the rewritten templates and for
// expressions report what HCL reports, and keep sensitive marks.
func TestGuardedExpressionsKeepTheirMeaning(t *testing.T) {
	_, diags := loadWith(t, "locals {\n  path = \"out/${null}\"\n}\n", Inputs{})
	d := wantDiag(t, diags, "Invalid template interpolation value")
	if d.Subject == nil || d.Subject.Start.Line != 12 || d.Subject.Start.Column != 17 {
		t.Errorf("the diagnostic points at %v", d.Subject)
	}
	_, diags = loadWith(t, "locals {\n  path = [for x in null : x]\n}\n", Inputs{})
	wantDiag(t, diags, "Iteration over null value")

	_, diags = Load(writeFiles(t, map[string]string{"main.hcl": `
variable "secret" {
  default   = "hunter22"
  sensitive = true
}
locals {
  joined = "${var.secret}-x"
  listed = [for s in [var.secret] : "${s}!"]
}
source "generate" "orders" {
  records_per_partition = 10
}
sink "orders" {
  source = source.generate.orders
  destination "local" "a" {
    path = "out/${local.joined}"
  }
  destination "local" "b" {
    path = "out/${local.listed[0]}"
  }
}
`}), all.Kinds(), Inputs{})
	n := 0
	for _, d := range diags {
		if d.Summary == "Sensitive value in a path" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("the marks of sensitive values are lost through templates and for expressions: %v", diags)
	}
}

func TestLoadRefusesSensitivePaths(t *testing.T) {
	for name, block := range map[string]string{
		"local path":       `destination "local" "a" { path = "out/${var.tenant}" }`,
		"s3 prefix":        `destination "s3" "a" { bucket = "b", region = "eu-west-1", prefix = "p/${var.tenant}" }`,
		"s3 bucket":        `destination "s3" "a" { bucket = var.tenant, region = "eu-west-1" }`,
		"azblob container": `destination "azblob" "a" { account_url = "https://a.blob.core.windows.net", container = lower(var.tenant) }`,
		"azblob prefix":    `destination "azblob" "a" { account_url = "https://a.blob.core.windows.net", container = "c", prefix = var.tenant }`,
	} {
		t.Run(name, func(t *testing.T) {
			block = strings.ReplaceAll(strings.ReplaceAll(block, "{ ", "{\n"), ", ", "\n")
			block = strings.Replace(block, " }", "\n}", 1)
			_, diags := Load(writeFiles(t, map[string]string{"main.hcl": `
variable "tenant" {
  default   = "acme"
  sensitive = true
}
source "generate" "orders" {
  records_per_partition = 10
}
sink "orders" {
  source = source.generate.orders
  ` + block + `
}
`}), all.Kinds(), Inputs{})
			d := wantDiag(t, diags, "Sensitive value in a path")
			if strings.Contains(d.Detail, "acme") {
				t.Errorf("the diagnostic shows the secret: %s", d.Detail)
			}
		})
	}
	t.Run("state", func(t *testing.T) {
		_, diags := Load(writeFiles(t, map[string]string{"main.hcl": `
variable "tenant" {
  default   = "acme"
  sensitive = true
}
streamctl {
  state "local" {
    path = "state/${var.tenant}.json"
  }
}
locals {
  path = "out"
}
` + limitsSink}), all.Kinds(), Inputs{})
		wantDiag(t, diags, "Sensitive value in a path")
	})
	t.Run("not sensitive", func(t *testing.T) {
		_, diags := Load(writeFiles(t, map[string]string{"main.hcl": `
variable "tenant" {
  default = "acme"
}
locals {
  path = "out/${var.tenant}"
}
` + limitsSink}), all.Kinds(), Inputs{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
	})
}
