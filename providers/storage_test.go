package providers

import (
	"strings"
	"testing"
)

func TestCheckKey(t *testing.T) {
	for _, tc := range []struct {
		key, err string
	}{
		{"a", ""},
		{"a/b/part-00000001-00000.parquet", ""},
		{"country=de/..x", ""},
		{"", "empty"},
		{"/a", "not relative"},
		{"a\x00b", "NUL"},
		{"a//b", "segment"},
		{"a/", "segment"},
		{"./a", "segment"},
		{"a/../../b", "segment"},
	} {
		err := CheckKey(tc.key)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("CheckKey(%q) = %v, want nil", tc.key, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("CheckKey(%q) = %v, want an error saying %q", tc.key, err, tc.err)
		}
	}
}
