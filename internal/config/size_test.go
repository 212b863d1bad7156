package config

import (
	"strings"
	"testing"
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
