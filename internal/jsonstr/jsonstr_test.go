package jsonstr

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Append escapes as encoding/json does without HTML escaping, so
// that every JSON string streamctl writes (typed JSONL, rejects, Kafka raw
// values) reads back as the input, invalid UTF-8 aside.
func TestAppendMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		"", "plain", `quote " and \ backslash`, "\n\r\t\b\f", "\x00\x01\x1f\x7f",
		"héllo ✓ \u2028 \u2029 😀", "<html> & 'x'",
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := string(Append(nil, s)); got+"\n" != want.String() {
			t.Errorf("Append(%q) = %s, want %s", s, got, want.String())
		}
	}
	// Invalid UTF-8 becomes U+FFFD, as encoding/json does.
	if got := string(Append(nil, []byte("a\xffb"))); got != `"a\ufffdb"` {
		t.Errorf("invalid UTF-8: %s", got)
	}
}
