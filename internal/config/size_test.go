package config

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/streamctl/streamctl/providers/all"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		err  string
	}{
		{"1048576", 1 << 20, ""},
		{"1", 1, ""},
		{"128MB", 128e6, ""},
		{"128 MB", 128e6, ""},
		{"128mb", 128e6, ""},
		{"128MiB", 128 << 20, ""},
		{"1.5GiB", 3 << 29, ""},
		{"64KB", 64e3, ""},
		{"64kib", 64 << 10, ""},
		{"2TB", 2e12, ""},
		{"1TiB", 1 << 40, ""},
		{"512B", 512, ""},
		{" 7 ", 7, ""},
		{"0", 0, "out of range"},
		{"-1MB", 0, "out of range"},
		{"0.5B", 0, "out of range"},
		{"1.5B", 0, "not a whole number of bytes"},
		{"", 0, "not a size"},
		{"MB", 0, "not a size"},
		{"128 apples", 0, "not a size"},
		{"0x10MB", 0, "not a size"},
		{"1_000", 0, "not a size"},
		{"NaN", 0, "not a size"},
		{"Inf", 0, "not a size"},
		{"1e30", 0, "out of range"},
	} {
		got, err := ParseSize(tc.in)
		if tc.err == "" && (err != nil || got != tc.want) {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseSize(%q) = %d, %v; want an error saying %q", tc.in, got, err, tc.err)
		}
	}
}

func TestParseAge(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"1h", time.Hour, ""},
		{"90m", 90 * time.Minute, ""},
		{"0s", 0, ""},
		{"7d", 7 * 24 * time.Hour, ""},
		{"0d", 0, ""},
		{"-1h", 0, "not a duration"},
		{"-1d", 0, "not a number of days"},
		{"1.5d", 0, "not a number of days"},
		{"a week", 0, "not a duration"},
		{"", 0, "not a duration"},
	} {
		got, err := ParseAge(tc.in)
		if tc.err == "" && (err != nil || got != tc.want) {
			t.Errorf("ParseAge(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseAge(%q) = %v, %v; want an error saying %q", tc.in, got, err, tc.err)
		}
	}
}

// TestMaintenanceBlock: the block is read with its defaults, and a wrong
// value is refused at its line.
func TestMaintenanceBlock(t *testing.T) {
	load := func(block string) (*Config, hcl.Diagnostics) {
		return Load(writeFiles(t, map[string]string{"main.hcl": layoutSink(block)}), all.Kinds(), Inputs{})
	}
	cfg, diags := load("  maintenance {\n    target_file_size = \"256MB\"\n  }")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if m := cfg.Sinks[0].Maintenance; m == nil || m.TargetFileSize != 256e6 || m.CompactAfter != time.Hour {
		t.Errorf("maintenance %+v, want 256 MB files an hour after", m)
	}
	cfg, diags = load("  maintenance {\n    target_file_size = \"1GiB\"\n    compact_after = \"7d\"\n  }")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if m := cfg.Sinks[0].Maintenance; m == nil || m.TargetFileSize != 1<<30 || m.CompactAfter != 7*24*time.Hour {
		t.Errorf("maintenance %+v, want 1 GiB files 7 days after", m)
	}
	// Expiry alone, on a sink whose destination has an Iceberg table.
	lake := "    table {\n      format    = \"iceberg\"\n      namespace = \"lake\"\n      name      = \"orders\"\n    }\n"
	withTable := strings.Replace(layoutSink("  maintenance {\n    expire_snapshots_after = \"7d\"\n  }"), `destination "local" "lake" { path = "out" }`, "destination \"local\" \"lake\" {\n    path = \"out\"\n"+lake+"  }", 1)
	cfg, diags = Load(writeFiles(t, map[string]string{"main.hcl": withTable}), all.Kinds(), Inputs{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if m := cfg.Sinks[0].Maintenance; m == nil || m.TargetFileSize != 0 || m.ExpireSnapshotsAfter != 7*24*time.Hour {
		t.Errorf("maintenance %+v, want snapshots expired after 7 days and no compaction", m)
	}
	if cfg, _ := load(""); cfg.Sinks[0].Maintenance != nil {
		t.Error("a sink without the block has maintenance")
	}
	for _, tc := range []struct{ block, summary string }{
		{"  maintenance {\n    target_file_size = \"big\"\n  }", "Invalid target_file_size"},
		{"  maintenance {\n    target_file_size = \"1MB\"\n    compact_after = \"soon\"\n  }", "Invalid compact_after"},
		{"  maintenance {\n    compact_after = \"1h\"\n  }", "Empty maintenance block"},
		{"  maintenance {\n    target_file_size = \"1MB\"\n    expire_snapshots_after = \"7d\"\n  }", "No Iceberg table to expire"},
		{"  maintenance {\n    target_file_size = \"1MB\"\n    expire_snapshots_after = \"0d\"\n  }", "Invalid expire_snapshots_after"},
		{"  maintenance {\n    expire_snapshots_after = \"a week\"\n  }", "Invalid expire_snapshots_after"},
		{"  maintenance {\n    target_file_size = \"1MB\"\n  }\n  maintenance {\n    target_file_size = \"1MB\"\n  }", "Duplicate maintenance block"},
	} {
		_, diags := load(tc.block)
		wantDiag(t, diags, tc.summary)
	}
}
