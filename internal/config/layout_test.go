package config

import (
	"testing"

	"github.com/streamctl/streamctl/providers/all"
)

const layoutSource = `source "generate" "orders" {
  records_per_partition = 10
}
`

// layoutSink is sink "orders" with body, in parquet with one column.
func layoutSink(body string) string {
	return layoutSource + `sink "orders" {
  source = source.generate.orders
  format = "parquet"
  column "id" { type = "int64" }
` + body + `
  destination "local" "lake" { path = "out" }
}
`
}

// TestLayoutIsCheckedAtLoad: every layout setting a file could not be
// written with is refused when the configuration is loaded (validate,
// plan), at its line, not when a batch is written.
func TestLayoutIsCheckedAtLoad(t *testing.T) {
	for _, tc := range []struct {
		body, summary string
		line          int
	}{
		{"  row_group_records = 0", "Invalid row_group_records", 8},
		{"  row_group_records = 3000000000", "Invalid row_group_records", 8},
		{"  max_file_records = 0", "Invalid max_file_records", 8},
		{`  max_file_size = "128 apples"`, "Invalid max_file_size", 8},
		{"  max_file_size = 0", "Invalid max_file_size", 8},
		{`  max_file_size = "-1MB"`, "Invalid max_file_size", 8},
		{`  compression = "lz4"`, "Invalid compression", 8},
	} {
		t.Run(tc.body, func(t *testing.T) {
			_, diags := Load(writeFiles(t, map[string]string{"main.hcl": layoutSink(tc.body)}), all.Kinds(), Inputs{})
			d := wantDiag(t, diags, tc.summary)
			if d.Subject == nil || d.Subject.Start.Line != tc.line {
				t.Errorf("%s points at %v, want line %d", tc.summary, d.Subject, tc.line)
			}
		})
	}
}

// TestLayoutIsBuiltWithItsDefaults: the layout the workspace and pipeline
// take holds every setting, the defaults filled in.
func TestLayoutIsBuiltWithItsDefaults(t *testing.T) {
	for _, tc := range []struct {
		body              string
		compression       string
		rowGroup, maxFile int64
		maxSize           int64
	}{
		{"", "zstd", 131072, 0, 0},
		{"  row_group_records = 1000\n  max_file_records = 10\n  compression = \"none\"", "none", 1000, 10, 0},
		{`  max_file_size = "128MB"`, "zstd", 131072, 0, 128e6},
		{`  max_file_size = 1048576`, "zstd", 131072, 0, 1 << 20},
	} {
		cfg, diags := Load(writeFiles(t, map[string]string{"main.hcl": layoutSink(tc.body)}), all.Kinds(), Inputs{})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		l := cfg.Sinks[0].Layout
		if l.Format != "parquet" || l.Compression != tc.compression || l.RowGroupRecords != tc.rowGroup || l.MaxFileRecords != tc.maxFile || l.MaxFileSize != tc.maxSize || l.OnInvalid != "fail" {
			t.Errorf("%q: layout %+v, want parquet, %s, row groups of %d, files of %d records and %d bytes, on_invalid fail", tc.body, l, tc.compression, tc.rowGroup, tc.maxFile, tc.maxSize)
		}
	}
}

// TestLayoutSettingsLeaveOutARowGroupSizeNotDeclared: the settings the state
// keeps beside the layout hash follow the hash: a row group size the sink
// does not declare is not among them, so that declaring it, even as the
// default, is a layout change that names row_group_records.
func TestLayoutSettingsLeaveOutARowGroupSizeNotDeclared(t *testing.T) {
	settings := func(body string) (map[string]string, string) {
		t.Helper()
		cfg, diags := Load(writeFiles(t, map[string]string{"main.hcl": layoutSink(body)}), all.Kinds(), Inputs{})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return cfg.Sinks[0].Layout.Settings(), cfg.Sinks[0].Layout.Hash()
	}
	undeclared, undeclaredHash := settings("")
	if v, ok := undeclared["row_group_records"]; ok {
		t.Errorf("a sink declaring no row_group_records has the setting %s", v)
	}
	declared, declaredHash := settings("  row_group_records = 131072")
	if got := declared["row_group_records"]; got != "131072" {
		t.Errorf("a sink declaring row_group_records = 131072 has the setting %q", got)
	}
	if undeclaredHash == declaredHash {
		t.Errorf("declaring the default row group size keeps the hash %s: the plan could not show the change", declaredHash)
	}
}
