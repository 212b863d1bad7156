package command

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

func TestVersionJSON(t *testing.T) {
	c := newCLI(t, testConfig)
	o := c.must(ExitOK, "version", "-json")
	var doc map[string]string
	if err := json.Unmarshal([]byte(o.stdout), &doc); err != nil || strings.Count(o.stdout, "\n") != 1 {
		t.Fatalf("version -json is not one JSON document on one line (%v):\n%s", err, o.stdout)
	}
	want := map[string]string{"version": Version, "commit": Commit, "go": runtime.Version(), "platform": runtime.GOOS + "/" + runtime.GOARCH}
	if len(doc) != len(want) {
		t.Errorf("version -json has keys %v, want exactly version, commit, go, platform", doc)
	}
	for k, v := range want {
		if doc[k] != v || v == "" {
			t.Errorf("version -json %q = %q, want %q", k, doc[k], v)
		}
	}
	human := c.must(ExitOK, "version").stdout
	if !strings.HasPrefix(human, "streamctl v"+Version+"\n") || !strings.Contains(human, "commit "+Commit+",") || !strings.Contains(human, want["platform"]) {
		t.Errorf("version:\n%s", human)
	}
	if o := c.run("version", "extra"); o.code != ExitError || !strings.Contains(o.stderr, `unexpected argument "extra"`) {
		t.Errorf("version extra: exit %d, stderr %q", o.code, o.stderr)
	}
}

func TestResolveVersion(t *testing.T) {
	for _, tc := range []struct{ set, module, want string }{
		{devVersion, "(devel)", devVersion},
		{devVersion, "", devVersion},
		{devVersion, "v1.4.2", "1.4.2"},
		{devVersion, "v1.5.0-rc.1", "1.5.0-rc.1"},
		{devVersion, "v0.0.0-20261204031500-af7647c1d2e3", devVersion},
		{devVersion, "v1.4.3-0.20261204031500-af7647c1d2e3", devVersion},
		{devVersion, "v1.4.2+dirty", devVersion},
		{"1.6.0", "v1.4.2", "1.6.0"},
		{"v1.6.0", "(devel)", "1.6.0"},
	} {
		if got := resolveVersion(tc.set, tc.module); got != tc.want {
			t.Errorf("resolveVersion(%q, %q) = %q, want %q", tc.set, tc.module, got, tc.want)
		}
	}
}
