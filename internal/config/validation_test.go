package config

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/streamctl/streamctl/providers/all"
)

const validatedSink = `
source "generate" "orders" {
  records_per_partition = var.records
}
sink "orders" {
  source = source.generate.orders
  destination "local" "lake" {
    path = var.lake
  }
}
`

// TestVariableValidation: a validation block is checked against the final
// value, wherever it came from; a false condition is an error with the
// rule's file and line and its message.
func TestVariableValidation(t *testing.T) {
	const decls = `
variable "records" {
  type    = number
  default = 10

  validation {
    condition     = var.records > 0 && var.records <= 1000
    error_message = "records must be between 1 and 1000, not ${var.records}."
  }
}
variable "lake" {
  default = "out/lake"

  validation {
    condition     = substr(var.lake, 0, 1) != "/"
    error_message = "lake must be a relative path."
  }
}
`
	for _, tc := range []struct {
		name     string
		args     []string
		env      []string
		wantErr  string // a substring of the error detail; "" when valid
		wantLine int
	}{
		{name: "defaults pass"},
		{name: "-var passes", args: []string{"records=1000"}},
		{name: "-var fails", args: []string{"records=0"}, wantErr: "records must be between 1 and 1000, not 0.", wantLine: 7},
		{name: "environment fails", env: []string{"STREAMCTL_VAR_records=5000"}, wantErr: "not 5000.", wantLine: 7},
		{name: "second variable fails", args: []string{"lake=/abs"}, wantErr: "lake must be a relative path.", wantLine: 15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.hcl": decls + validatedSink})
			var args []VarArg
			for _, a := range tc.args {
				args = append(args, VarArg{Value: a})
			}
			_, diags := Load(dir, all.Kinds(), Inputs{Args: args, Environ: tc.env})
			d := findDiag(diags, "Invalid value for variable")
			if tc.wantErr == "" {
				if diags.HasErrors() {
					t.Fatalf("unexpected errors: %s", diagList(diags))
				}
				return
			}
			if d == nil || !strings.Contains(d.Detail, tc.wantErr) || d.Subject == nil || d.Subject.Start.Line != tc.wantLine || !strings.HasSuffix(d.Subject.Filename, "main.hcl") {
				t.Fatalf("want %q at main.hcl:%d, got %s", tc.wantErr, tc.wantLine, diagList(diags))
			}
			if countErrors(diags) != 1 {
				t.Errorf("want one error, got %s", diagList(diags))
			}
		})
	}
}

// TestVariableValidationRefersOnlyToItself: as in Terraform, a condition
// about another variable is refused where it is written.
func TestVariableValidationRefersOnlyToItself(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.hcl": `
variable "lake" {
  default = "out/lake"
}
variable "records" {
  default = 10
  validation {
    condition     = var.records > 0 && var.lake != ""
    error_message = "no."
  }
}
` + validatedSink})
	_, diags := Load(dir, all.Kinds(), Inputs{})
	d := findDiag(diags, "Invalid reference in variable validation")
	if d == nil || !strings.Contains(d.Detail, "var.lake") || d.Subject == nil || d.Subject.Start.Line != 8 {
		t.Fatalf("want the reference to var.lake refused at line 8, got %s", diagList(diags))
	}
}

// TestRequiredVersion compares streamctl { required_version } with the
// binary's version.
func TestRequiredVersion(t *testing.T) {
	for _, tc := range []struct {
		constraint, binary string
		want               string // the diagnostic's summary; "" when none
		severity           hcl.DiagnosticSeverity
	}{
		{">= 0.9", "0.9.0", "", 0},
		{">= 0.9", "1.4.2", "", 0},
		{">= 0.9", "0.8.3", "Unsupported streamctl version", hcl.DiagError},
		{">= 0.9, < 2.0", "2.0.0", "Unsupported streamctl version", hcl.DiagError},
		{"~> 1.2", "1.9.0", "", 0},
		{"~> 1.2", "2.0.0", "Unsupported streamctl version", hcl.DiagError},
		{"~> 1.2.3", "1.3.0", "Unsupported streamctl version", hcl.DiagError},
		{"= 1.0.0", "1.0.0-rc1", "Unsupported streamctl version", hcl.DiagError},
		{">= 0.9", "0.1.0-dev", "Version constraint not checked", hcl.DiagWarning},
		{">= 0.9", "dev", "Version constraint not checked", hcl.DiagWarning},
		{">= banana", "1.0.0", "Invalid required_version", hcl.DiagError},
	} {
		t.Run(tc.constraint+" "+tc.binary, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"main.hcl": `
streamctl {
  required_version = "` + tc.constraint + `"
}
variable "records" {
  default = 1
}
variable "lake" {
  default = "out"
}
` + validatedSink})
			_, diags := Load(dir, all.Kinds(), Inputs{Version: tc.binary})
			if tc.want == "" {
				if len(diags) > 0 {
					t.Fatalf("unexpected diagnostics: %s", diagList(diags))
				}
				return
			}
			d := findDiag(diags, tc.want)
			if d == nil || d.Severity != tc.severity || len(diags) != 1 || d.Subject == nil || d.Subject.Start.Line != 3 {
				t.Fatalf("want %q at line 3, got %s", tc.want, diagList(diags))
			}
			if tc.want == "Unsupported streamctl version" && (!strings.Contains(d.Detail, tc.constraint) || !strings.Contains(d.Detail, "v"+tc.binary)) {
				t.Errorf("the message must name both versions: %s", d.Detail)
			}
		})
	}
}

// TestValidateWithoutSensitiveValues: validate needs no value for a
// sensitive variable (a fork's pull request has no secrets); plan does.
func TestValidateWithoutSensitiveValues(t *testing.T) {
	dir := writeFiles(t, map[string]string{"main.hcl": `
variable "sas" {
  type      = string
  sensitive = true
}
source "generate" "orders" {
  records_per_partition = 10
}
sink "orders" {
  source = source.generate.orders
  destination "azblob" "archive" {
    account_url = "https://acct.blob.core.windows.net"
    container   = "archive"
    sas_token   = var.sas
  }
}
`})
	if _, diags := Load(dir, all.Kinds(), Inputs{Validate: true}); len(diags) > 0 {
		t.Fatalf("validate without the sensitive value: %s", diagList(diags))
	}
	_, diags := Load(dir, all.Kinds(), Inputs{})
	if findDiag(diags, "No value for required variable") == nil {
		t.Fatalf("without validate, the value is required: %s", diagList(diags))
	}
	// A bad value given to validate is still checked.
	_, diags = Load(dir, all.Kinds(), Inputs{Validate: true, Environ: []string{"STREAMCTL_VAR_sas=nonsense"}})
	if !diags.HasErrors() {
		t.Fatalf("a bad SAS token given to validate passed")
	}
}
