package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReleaseReproducible runs make release's script twice for one platform
// and compares the bytes. It links the binary twice (a minute or more, and
// several more the first time: a release build shares no compiled package
// with a default build), so it runs only with STREAMCTL_RELEASE_TEST=1.
func TestReleaseReproducible(t *testing.T) {
	if os.Getenv("STREAMCTL_RELEASE_TEST") != "1" {
		t.Skip("set STREAMCTL_RELEASE_TEST=1 to build two releases and compare them (minutes)")
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	const name = "streamctl_9.9.9-test_linux_amd64"
	release := func(dist string) {
		cmd := exec.Command("bash", "scripts/release.sh")
		cmd.Env = append(os.Environ(), "PLATFORMS=linux/amd64", "VERSION=v9.9.9-test", "DIST="+dist, "ALLOW_DIRTY=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("release into %s: %v\n%s", dist, err, out)
		}
	}
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	release(a)
	release(b)
	for _, f := range []string{"SHA256SUMS", name + ".tar.gz", name + "/streamctl"} {
		x, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two release builds of one commit (%d and %d bytes)", f, len(x), len(y))
		}
	}
	sums, _ := os.ReadFile(filepath.Join(a, "SHA256SUMS"))
	if !strings.HasSuffix(strings.TrimSpace(string(sums)), "  "+name+".tar.gz") {
		t.Errorf("SHA256SUMS does not list the archive:\n%s", sums)
	}
	bin, _ := os.ReadFile(filepath.Join(a, name, "streamctl"))
	modcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	for _, p := range []string{root, strings.TrimSpace(string(modcache))} {
		if p != "" && bytes.Contains(bin, []byte(p)) {
			t.Errorf("the release binary holds the build machine's path %s", p)
		}
	}
	if runtime.GOOS+"/"+runtime.GOARCH != "linux/amd64" {
		return
	}
	out, err := exec.Command(filepath.Join(a, name, "streamctl"), "version", "-json").Output()
	if err != nil {
		t.Fatalf("version -json: %v", err)
	}
	var v struct{ Version, Commit, Platform string }
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("version -json: %v: %s", err, out)
	}
	head, _ := exec.Command("git", "rev-parse", "HEAD").Output()
	if v.Version != "9.9.9-test" || v.Commit != strings.TrimSpace(string(head)) || v.Platform != "linux/amd64" {
		t.Errorf("version -json of the release: %s (want version 9.9.9-test, commit %s)", out, head)
	}
}
