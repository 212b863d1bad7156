package command

import (
	"bytes"
	"strings"
	"testing"
)

func TestEscapeControls(t *testing.T) {
	for _, tc := range []struct {
		in, want, terminal string // terminal: the output on a terminal, if other
	}{
		{in: "plain text\n\tindented → ok", want: "plain text\n\tindented → ok"},
		{in: "\x1b]0;pwned\x07", want: `\x1b]0;pwned\a`},
		{in: "a\x1b[2Jb\rc\x00d\x7f", want: `a\x1b[2Jb\rc\x00d\x7f`},
		{in: "csi \u009b2J, nel \u0085", want: `csi \u009b2J, nel \u0085`},
		{in: "lone \x9b byte, é and € kept", want: `lone \x9b byte, é and € kept`},
		{in: "\x1b[31mError\x1b[0m: \x1b[1;4mx\x1b[0m", want: `\x1b[31mError\x1b[0m: \x1b[1;4mx\x1b[0m`, terminal: "\x1b[31mError\x1b[0m: \x1b[1;4mx\x1b[0m"},
		{in: "\r\x1b[KApplying: 3 batches\x1b[2K", want: `\r\x1b[KApplying: 3 batches\x1b[2K`, terminal: "\r\x1b[KApplying: 3 batches\\x1b[2K"},
		{in: "\x1b]8;;http://evil\x1b\\link", want: `\x1b]8;;http://evil\x1b\link`},
		// Bidirectional overrides and isolates reorder what is shown after
		// them ("Trojan Source"): a sink named "ok\u202e..." must not read
		// as another name.
		{in: "sink \u202ecod.txt\u202c, \u2066x\u2069, \u200e\u200f\u061c", want: `sink \u202ecod.txt\u202c, \u2066x\u2069, \u200e\u200f\u061c`},
	} {
		if got := escapeControls(tc.in, false); got != tc.want {
			t.Errorf("escapeControls(%q) = %q, want %q", tc.in, got, tc.want)
		}
		want := tc.want
		if tc.terminal != "" {
			want = tc.terminal
		}
		if got := escapeControls(tc.in, true); got != want {
			t.Errorf("on a terminal, escapeControls(%q) = %q, want %q", tc.in, got, want)
		}
	}
}

// TestMessagesEscapeControlCharacters: a variable value with terminal
// escapes is shown escaped in the error about it, to people and in -json.
func TestMessagesEscapeControlCharacters(t *testing.T) {
	c := newCLI(t, testConfig)
	for _, terminal := range []bool{false, true} {
		c.terminal = terminal
		o := c.must(ExitError, "validate", "-var", "records=\x1b]0;pwned\x07\x1b[2J")
		raw := strings.ContainsAny(o.stdout+o.stderr, "\x07") || strings.Contains(o.stdout+o.stderr, "\x1b]") || strings.Contains(o.stdout+o.stderr, "\x1b[2J")
		if raw || !strings.Contains(o.stderr, `records=\x1b]0;pwned\a\x1b[2J`) {
			t.Errorf("terminal %v: the value is not escaped:\n%q", terminal, o.stderr)
		}
		o = c.must(ExitError, "validate", "-json", "-var", "records=\x1b[2J\u009b")
		if strings.ContainsAny(o.stdout+o.stderr, "\x1b\u009b") || !strings.Contains(o.stdout, `\u001b[2J\u009b`) {
			t.Errorf("terminal %v: -json does not escape the value:\n%q", terminal, o.stdout)
		}
	}
}

// TestMainRecoversPanics: a panic exits 1 with a message, never 2 (which
// scripts read as "changes pending").
func TestMainRecoversPanics(t *testing.T) {
	var stderr bytes.Buffer
	code := Main([]string{"version"}, Streams{Stdout: nil, Stderr: &stderr, Environ: []string{}})
	if code != ExitError {
		t.Fatalf("exit %d, want %d", code, ExitError)
	}
	if !strings.Contains(stderr.String(), "Error: internal error:") || !strings.Contains(stderr.String(), "please report it") {
		t.Errorf("the panic is not reported:\n%s", stderr.String())
	}
}
