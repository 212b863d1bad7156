package config

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/streamctl/streamctl/providers/all"
	"github.com/streamctl/streamctl/providers/local"
)

const typedVariables = validConfig + `
variable "count" {
  type    = number
  default = 1
}
variable "flag" {
  type    = bool
  default = false
}
variable "names" {
  type    = list(string)
  default = []
}
variable "obj" {
  type    = object({ a = number })
  default = { a = 1 }
}
variable "name" {
  type    = string
  default = "x"
}
variable "untyped" {
  default = "x"
}
sink "probe" {
  source = source.generate.orders
  destination "local" "values" {
    path = jsonencode({ count = var.count, flag = var.flag, names = var.names, obj = var.obj, name = var.name, untyped = var.untyped })
  }
}
variable "token" {
  type      = number
  default   = 0
  sensitive = true
}
`

// Values given from outside: what is accepted, and what the message says of
// what is not: the variable, where the value came from, what it was and the
// type it needs, without a "(source code not available)" snippet.
func TestVariableValues(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.hcl":   typedVariables,
		"bad.vars":   "count = \"abc\"\nflag  = foo\n",
		"good.vars":  "names = [\"a\", \"b\"]\ncount = 7\n",
		"other.vars": "obj = { a = \"x\" }\n",
	})
	flag := func(v string) Inputs { return Inputs{Args: []VarArg{{Value: v}}} }
	file := func(name string) Inputs { return Inputs{Args: []VarArg{{File: true, Value: filepath.Join(dir, name)}}} }
	env := func(kv string) Inputs { return Inputs{Environ: []string{EnvPrefix + kv}} }

	for _, tc := range []struct {
		name string
		in   Inputs
		v    string // the variable
		want string // its value as JSON, when the input is valid
		// The error's summary is `Invalid value for variable "<v>"`; its
		// detail is detail, or contains every one of contains.
		detail   string
		contains []string
		// subject is the diagnostic's file:line, "" for none.
		subject string
	}{
		{name: "number", in: flag("count=12"), v: "count", want: `12`},
		{name: "number with spaces", in: flag("count= 12 "), v: "count", want: `12`},
		{name: "number expression", in: flag("count=2*3"), v: "count", want: `6`},
		{name: "negative number", in: env("count=-1.5"), v: "count", want: `-1.5`},
		{name: "bool", in: flag("flag=true"), v: "flag", want: `true`},
		{name: "list", in: flag(`names=["a", "b"]`), v: "names", want: `["a","b"]`},
		{name: "object", in: flag("obj={a=2}"), v: "obj", want: `{"a":2}`},
		// A string is the text as given, whatever HCL would make of it.
		{name: "string word", in: flag("name=foo"), v: "name", want: `"foo"`},
		{name: "string traversal", in: flag("name=foo.bar"), v: "name", want: `"foo.bar"`},
		{name: "string template", in: env("name=${var.x}"), v: "name", want: `"${var.x}"`},
		{name: "string list syntax", in: flag("name=[1]"), v: "name", want: `"[1]"`},
		{name: "untyped word", in: flag("untyped=foo"), v: "untyped", want: `"foo"`},
		{name: "file", in: file("good.vars"), v: "names", want: `["a","b"]`},

		{name: "word for number", in: flag("count=abc"), v: "count",
			detail: `-var count=abc: a number is required (the variable is declared type = number).`},
		{name: "traversal for number", in: flag("count=foo.bar"), v: "count",
			detail: `-var count=foo.bar: a number is required (the variable is declared type = number).`},
		{name: "empty number", in: flag("count="), v: "count",
			detail: `-var count=: a number is required (the variable is declared type = number).`},
		{name: "bad syntax for number", in: flag("count=1+"), v: "count",
			detail: `-var count=1+: a number is required (the variable is declared type = number).`},
		{name: "environment", in: env("count=abc"), v: "count",
			detail: `The environment variable STREAMCTL_VAR_count=abc: a number is required (the variable is declared type = number).`},
		{name: "word for bool", in: flag("flag=yes"), v: "flag",
			detail: `-var flag=yes: a bool is required (the variable is declared type = bool).`},
		{name: "number for bool", in: env("flag=1"), v: "flag",
			detail: `The environment variable STREAMCTL_VAR_flag=1: a bool is required (the variable is declared type = bool).`},
		{name: "comma list", in: flag("names=a,b"), v: "names",
			contains: []string{`-var names=a,b: `, `HCL`, `["a", "b"]`, `(the variable is declared type = list(string))`}},
		{name: "unquoted list element", in: flag("names=[a]"), v: "names",
			contains: []string{`-var 'names=[a]': `, `refers to a`, `double quotes`, `(the variable is declared type = list(string))`}},
		{name: "wrong element type", in: flag(`names=[{}]`), v: "names",
			contains: []string{`-var 'names=[{}]': `, `element 0`, `(the variable is declared type = list(string))`}},
		{name: "object attribute type", in: flag(`obj={a="x"}`), v: "obj",
			detail: `-var 'obj={a="x"}': attribute "a": a number is required (the variable is declared type = object({a=number})).`},
		{name: "object attribute missing", in: flag("obj={b=1}"), v: "obj",
			detail: `-var 'obj={b=1}': attribute "a" is required (the variable is declared type = object({a=number})).`},
		{name: "file string for number", in: file("bad.vars"), v: "count", subject: "bad.vars:1",
			contains: []string{`The variables file `, `bad.vars sets count = "abc": a number is required (the variable is declared type = number).`}},
		{name: "file word for bool", in: file("bad.vars"), v: "flag", subject: "bad.vars:2",
			contains: []string{`The variables file `, `bad.vars sets flag = foo: `, `refers to foo`, `a bool is required (the variable is declared type = bool).`}},
		{name: "file object", in: file("other.vars"), v: "obj", subject: "other.vars:1",
			contains: []string{`The variables file `, `other.vars sets obj = { a = "x" }: attribute "a": a number is required (the variable is declared type = object({a=number})).`}},
		// A sensitive value is never repeated: the load failed, so nothing
		// would mask it.
		{name: "sensitive", in: flag("token=s3cr3t"), v: "token",
			detail: `-var token=(sensitive): a number is required (the variable is declared type = number).`},
		{name: "sensitive environment", in: env("token=s3cr3t"), v: "token",
			detail: `The environment variable STREAMCTL_VAR_token=(sensitive): a number is required (the variable is declared type = number).`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, diags := Load(dir, all.Kinds(), tc.in)
			if tc.want != "" {
				if diags.HasErrors() {
					t.Fatal(diags.Error())
				}
				var values map[string]json.RawMessage
				path := cfg.Sink("probe").Destinations[0].Config.(*local.Config).Path
				if err := json.Unmarshal([]byte(filepath.Base(path)), &values); err != nil {
					t.Fatal(err)
				}
				if got := string(values[tc.v]); got != tc.want {
					t.Fatalf("%s = %s, want %s", tc.v, got, tc.want)
				}
				return
			}
			d := findDiag(diags, `Invalid value for variable "`+tc.v+`"`)
			if d == nil {
				t.Fatalf("no diagnostic for variable %q:\n%s", tc.v, diagList(diags))
			}
			if tc.detail != "" && d.Detail != tc.detail {
				t.Errorf("detail:\n got %s\nwant %s", d.Detail, tc.detail)
			}
			for _, want := range tc.contains {
				if !strings.Contains(d.Detail, want) {
					t.Errorf("detail lacks %q:\n%s", want, d.Detail)
				}
			}
			if strings.Contains(d.Detail, "s3cr3t") {
				t.Errorf("detail shows the sensitive value: %s", d.Detail)
			}
			switch {
			case tc.subject == "" && d.Subject != nil:
				t.Errorf("subject %s, want none: the value is not in a file", d.Subject)
			case tc.subject != "" && (d.Subject == nil || fmt.Sprintf("%s:%d", filepath.Base(d.Subject.Filename), d.Subject.Start.Line) != tc.subject):
				t.Errorf("subject %v, want %s", d.Subject, tc.subject)
			}
			if n := countErrors(diags); n != 1 && !strings.HasPrefix(tc.name, "file") {
				t.Errorf("%d errors, want 1:\n%s", n, diagList(diags))
			}
		})
	}
}

func findDiag(diags hcl.Diagnostics, summary string) *hcl.Diagnostic {
	for _, d := range diags {
		if d.Summary == summary {
			return d
		}
	}
	return nil
}

func diagList(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}

func countErrors(diags hcl.Diagnostics) int {
	n := 0
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			n++
		}
	}
	return n
}
