package command

import (
	"strings"
	"testing"
)

// A mistyped command is named back with the closest command, on stderr, and
// exits 1, instead of the whole help and hashicorp/cli's 127.
func TestUnknownCommand(t *testing.T) {
	c := newCLI(t, testConfig)
	for _, tc := range []struct {
		args      []string
		firstLine string
	}{
		{[]string{"aply"}, `streamctl has no command named "aply". Did you mean "apply"?`},
		{[]string{"pln", "-auto-approve"}, `streamctl has no command named "pln". Did you mean "plan"?`},
		{[]string{"sate", "list"}, `streamctl has no command named "sate". Did you mean "state"?`},
		{[]string{"validte", "-help"}, `streamctl has no command named "validte". Did you mean "validate"?`},
		{[]string{"xyz"}, `streamctl has no command named "xyz".`},
		{[]string{"deploy"}, `streamctl has no command named "deploy".`},
	} {
		o := c.run(tc.args...)
		if o.code != ExitError {
			t.Errorf("streamctl %s: exit %d, want %d", strings.Join(tc.args, " "), o.code, ExitError)
		}
		lines := strings.Split(o.stderr, "\n")
		if lines[0] != tc.firstLine {
			t.Errorf("streamctl %s: stderr starts with %q, want %q\nstderr:\n%s", strings.Join(tc.args, " "), lines[0], tc.firstLine, o.stderr)
		}
		if !strings.Contains(o.stderr, "streamctl -help") {
			t.Errorf("streamctl %s: stderr does not point at streamctl -help:\n%s", strings.Join(tc.args, " "), o.stderr)
		}
		if o.stdout != "" {
			t.Errorf("streamctl %s: stdout %q, want nothing", strings.Join(tc.args, " "), o.stdout)
		}
	}
}

// What is not a mistyped command keeps hashicorp/cli's behaviour.
func TestKnownCommandsUnaffected(t *testing.T) {
	c := newCLI(t, testConfig)
	if o := c.run(); o.code != 127 || !strings.Contains(o.stderr, "Usage: streamctl") {
		t.Errorf("no arguments: exit %d, want the help and 127\n%s", o.code, o.stderr)
	}
	if o := c.must(ExitOK, "-help"); !strings.Contains(o.stdout, "Usage: streamctl") || !strings.Contains(o.stdout, "apply") {
		t.Errorf("-help:\n%s", o.stdout)
	}
	if o := c.must(ExitOK, "-version"); !strings.HasPrefix(o.stdout, Version) {
		t.Errorf("-version: %q", o.stdout)
	}
	if o := c.must(ExitOK, "version"); !strings.HasPrefix(o.stdout, "streamctl v") {
		t.Errorf("version: %q", o.stdout)
	}
	if o := c.must(ExitOK, "state", "list"); strings.Contains(o.stderr, "no command named") {
		t.Errorf("state list:\n%s", o.stderr)
	}
	if o := c.must(ExitOK, "state", "list", "-help"); !strings.Contains(o.stdout, "Usage: streamctl") {
		t.Errorf("state list -help:\n%s", o.stdout)
	}
	if o := c.must(ExitOK, "validate"); !strings.Contains(o.stdout, "Success!") {
		t.Errorf("validate:\n%s", o.stdout)
	}
}
