package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Hostile files and inputs (issue 18): whatever a destination, a state, a
// manifest or a configuration holds, streamctl ends with a precise message
// and exit 1, and leaves the state and everything outside the destination as
// they were.

const hostileConfig = `
variable "records" {
  type    = number
  default = 10
}
source "generate" "orders" {
  partitions            = 2
  records_per_partition = var.records
}
sink "orders" {
  source       = source.generate.orders
  partition_by = ["partition"]
  destination "local" "lake" {
    path = "out/lake"
  }
}
`

// outsideFolder is a folder beside the configuration, not in any
// destination, holding a sentinel file and a folder named like a batch.
func outsideFolder(t *testing.T) (dir, sentinel string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "precious")
	if err := os.MkdirAll(filepath.Join(dir, "0", "partition=0"), 0o755); err != nil {
		t.Fatal(err)
	}
	sentinel = filepath.Join(dir, "sentinel.txt")
	for _, f := range []string{sentinel, filepath.Join(dir, "0", "partition=0", "keep.txt")} {
		if err := os.WriteFile(f, []byte("do not touch\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, sentinel
}

// TestHostileSymlinkOutOfDestination: a folder of a local destination that
// is a symbolic link out of it is never written through nor cleaned up
// through: apply refuses, naming the link.
func TestHostileSymlinkOutOfDestination(t *testing.T) {
	t.Parallel()
	for _, link := range []string{"_temporary", "_streamctl", "partition=0", "_temporary/0"} {
		t.Run(strings.ReplaceAll(link, "/", "_"), func(t *testing.T) {
			t.Parallel()
			dir := writeConfig(t, hostileConfig)
			outside, sentinel := outsideFolder(t)
			before := snapshotTree(t, outside)
			lake := filepath.Join(dir, "out", "lake")
			if err := os.MkdirAll(filepath.Dir(filepath.Join(lake, link)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(lake, link)); err != nil {
				t.Fatal(err)
			}
			r := run(t, dir, nil, "apply", "-auto-approve", "-no-color")
			if r.code != 1 || r.killed {
				t.Fatalf("apply with %s a link out of the destination: want exit 1, got %s", link, r)
			}
			first := strings.Split(link, "/")[0]
			if !strings.Contains(r.stderr, "symbolic link") || !strings.Contains(r.stderr, filepath.Join(lake, first)) {
				t.Errorf("the error does not name the link %s:\n%s", filepath.Join(lake, first), r.stderr)
			}
			if _, err := os.Stat(sentinel); err != nil {
				t.Fatalf("the sentinel outside the destination is gone: %v", err)
			}
			if after := snapshotTree(t, outside); after != before {
				t.Errorf("the folder outside the destination changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			// plan refuses a link on the control folders it reads as well.
			if first != "partition=0" {
				if p := run(t, dir, nil, "plan", "-no-color"); p.code != 1 || !strings.Contains(p.stderr, "symbolic link") {
					t.Errorf("plan: want exit 1 and the link named, got %s", p)
				}
			}
		})
	}
}

// committedDir applies hostileConfig once and returns the configuration
// folder and the manifest of batch 0.
func committedDir(t *testing.T) (dir, manifest string) {
	t.Helper()
	dir = writeConfig(t, hostileConfig)
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	return dir, filepath.Join(dir, "out", "lake", "_streamctl", "orders", "0.json")
}

// TestHostileManifestPaths: a manifest whose files leave the destination,
// name its control folders or carry terminal escapes is refused, by files,
// plan and verify alike, with the manifest named; the path is never printed
// as a committed file.
func TestHostileManifestPaths(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{
		"../../etc/passwd",
		"/etc/passwd",
		"partition=0/../../../etc/passwd",
		"\x1b[31mred\x1b[0m.jsonl",
		"partition=0\n/part.jsonl",
		"_streamctl/orders/0.json",
		"_temporary/0/partition=0/part-00000000-00000.jsonl",
		"./partition=0/part-00000000-00000.jsonl",
		"partition=0//part-00000000-00000.jsonl",
		`partition=0\part.jsonl`,
		"",
	} {
		t.Run(strconv.Quote(bad), func(t *testing.T) {
			t.Parallel()
			dir, manifest := committedDir(t)
			data, err := os.ReadFile(manifest)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			m["files"].([]any)[0].(map[string]any)["path"] = bad
			data, _ = json.Marshal(m)
			if err := os.WriteFile(manifest, data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"files", "orders"}, {"files", "-json", "orders"}, {"verify", "-no-color"}} {
				r := run(t, dir, nil, args...)
				if r.code != 1 || r.killed {
					t.Errorf("%s with file path %q in a manifest: want exit 1, got %s", strings.Join(args, " "), bad, r)
					continue
				}
				if !strings.Contains(r.stderr, "_streamctl/orders/0.json") {
					t.Errorf("%s: the error does not name the manifest:\n%s", strings.Join(args, " "), r.stderr)
				}
				if bad != "" && strings.Contains(r.stdout, bad) {
					t.Errorf("%s printed the hostile path:\n%s", strings.Join(args, " "), r.stdout)
				}
				if strings.ContainsRune(r.stdout+r.stderr, 0x1b) {
					t.Errorf("%s printed a raw escape: %q", strings.Join(args, " "), r.stdout+r.stderr)
				}
			}
		})
	}
}

// TestHostileStateNumbers: a state whose batch numbers or offsets are out of
// range (next_batch near 2^63 would wrap) is refused with the reason, and
// left as it is.
func TestHostileStateNumbers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, want string
		edit       func(sink map[string]any)
	}{
		{"next_batch near 2^63", "next_batch", func(s map[string]any) { s["next_batch"] = json.Number("9223372036854775807") }},
		{"negative next_batch", "next_batch", func(s map[string]any) { s["next_batch"] = -1 }},
		{"negative offset", "offset", func(s map[string]any) { s["offsets"].(map[string]any)["0"] = -5 }},
		{"negative history id", "history", func(s map[string]any) { s["history"].([]any)[0].(map[string]any)["id"] = -3 }},
		{"huge history id", "history", func(s map[string]any) {
			s["history"].([]any)[0].(map[string]any)["id"] = json.Number("9223372036854775000")
		}},
		{"range end before start", "range", func(s map[string]any) {
			r := s["history"].([]any)[0].(map[string]any)["ranges"].([]any)[0].(map[string]any)
			r["start"], r["end"] = 10, 5
		}},
		{"in-flight id near 2^63", "in_flight", func(s map[string]any) {
			h := s["history"].([]any)[0].(map[string]any)
			s["in_flight"] = map[string]any{"id": json.Number("9223372036854775807"), "ranges": h["ranges"], "records": 0}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, _ := committedDir(t)
			path := filepath.Join(dir, ".streamctl", "state.json")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			var st map[string]any
			if err := dec.Decode(&st); err != nil {
				t.Fatal(err)
			}
			tc.edit(st["sinks"].(map[string]any)["orders"].(map[string]any))
			data, _ = json.MarshalIndent(st, "", "  ")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			lake := snapshotTree(t, filepath.Join(dir, "out"))
			for _, args := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color", "-var", "records=20"}} {
				r := run(t, dir, nil, args...)
				if r.code != 1 || r.killed {
					t.Errorf("%s: want exit 1, got %s", args[0], r)
					continue
				}
				if !strings.Contains(r.stderr, "cannot be used") || !strings.Contains(r.stderr, tc.want) {
					t.Errorf("%s: the error does not give the reason (%s):\n%s", args[0], tc.want, r.stderr)
				}
			}
			if now, _ := os.ReadFile(path); !bytes.Equal(now, data) {
				t.Errorf("the refused state was rewritten")
			}
			if after := snapshotTree(t, filepath.Join(dir, "out")); after != lake {
				t.Errorf("the destination changed")
			}
		})
	}
}

// runLimited runs streamctl under a memory limit: an address-space limit set
// by the shell (not under the race detector, whose shadow memory needs far
// more address space), and a watchdog that kills it past maxRSS.
func runLimited(t *testing.T, dir string, maxRSS int64, args ...string) (result, int64) {
	t.Helper()
	var cmd *exec.Cmd
	if raceEnabled {
		cmd = exec.Command(binary, args...)
	} else {
		cmd = exec.Command("/bin/sh", append([]string{"-c", `ulimit -v 4194304 && exec "$0" "$@"`, binary}, args...)...)
	}
	base := command(dir, nil)
	cmd.Dir, cmd.Env = base.Dir, base.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	var overLimit bool
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-tick.C:
			if rss := procRSS(cmd.Process.Pid); rss > maxRSS && !overLimit {
				overLimit = true
				cmd.Process.Kill()
			}
		}
	}
	r := finish(t, cmd, err, stdout.String(), stderr.String())
	peak := int64(0)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		peak = ru.Maxrss << 10
	}
	if overLimit {
		t.Fatalf("streamctl %s went past %d MiB of memory and was killed", strings.Join(args, " "), maxRSS>>20)
	}
	return r, peak
}

// procRSS is a process's resident set in bytes, or 0 when it is gone.
func procRSS(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TestHostileConfigMemory: a proposed configuration of a few hundred bytes
// that doubles a string over and over, or amplifies one in one expression,
// is refused by validate (run by CI, offline) within bounded memory.
func TestHostileConfigMemory(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc to watch the memory in")
	}
	doubling := func() string {
		var b strings.Builder
		b.WriteString("locals {\n  s0 = \"xxxxxxxxxxxxxxxx\"\n")
		for i := 1; i <= 40; i++ {
			fmt.Fprintf(&b, "  s%d = \"${local.s%d}${local.s%d}\"\n", i, i-1, i-1)
		}
		b.WriteString("}\n")
		return b.String()
	}()
	maxRSS := int64(1 << 30)
	if raceEnabled {
		maxRSS = 3 << 30
	}
	for name, extra := range map[string]string{
		"doubling locals": doubling,
		"wide template": func() string {
			var b strings.Builder
			b.WriteString("locals {\n  s0 = \"xxxxxxxxxxxxxxxx\"\n")
			for i := 1; i <= 20; i++ {
				fmt.Fprintf(&b, "  s%d = \"${local.s%d}${local.s%d}\"\n", i, i-1, i-1)
			}
			b.WriteString("  t = \"" + strings.Repeat("${local.s20}", 64) + "\"\n}\n")
			return b.String()
		}(),
		"replace amplifies": `locals {
  a = join("", [for i in range(1000) : "xxxxxxxxxx"])
  b = replace(local.a, "x", local.a)
  c = replace(local.b, "x", local.b)
}
`,
		"format width": `locals {
  a = format("%999999999999d", 1)
}
`,
		"nested for": `locals {
  a = [for i in range(1000) : [for j in range(1000) : [for k in range(1000) : "${i}-${j}-${k}"]]]
}
`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := writeConfig(t, hostileConfig+extra)
			r, peak := runLimited(t, dir, maxRSS, "validate", "-no-color")
			if r.code != 1 || r.killed {
				t.Fatalf("validate: want exit 1, got %s", r)
			}
			if !strings.Contains(r.stderr, "too large") {
				t.Errorf("validate does not say what is too large:\n%s", r.stderr)
			}
			t.Logf("peak RSS %d MiB; %s", peak>>20, firstLines(r.stderr, 6))
		})
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// TestHostileConfigNesting: 100,000 nested brackets would overflow the
// parser's stack, a fatal error that exits 2 ("changes pending"). validate
// refuses them with exit 1 and a message, in files, -var values, variables
// files and the environment.
func TestHostileConfigNesting(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	// One argument or environment variable holds at most 128 KiB.
	deepArg := strings.Repeat("[", 60000) + strings.Repeat("]", 60000)
	for _, tc := range []struct {
		name  string
		extra string
		env   []string
		args  []string
	}{
		{name: "file", extra: "locals {\n  x = " + deep + "\n}\n"},
		{name: "parentheses", extra: "locals {\n  x = " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + "\n}\n"},
		{name: "unary", extra: "locals {\n  x = " + strings.Repeat("!", 100000) + "true\n}\n"},
		{name: "conditional", extra: "locals {\n  x = " + strings.Repeat("true ? 1 : ", 100000) + "2\n}\n"},
		{name: "templates", extra: "locals {\n  x = " + strings.Repeat(`"${`, 50000) + "1" + strings.Repeat(`}"`, 50000) + "\n}\n"},
		{name: "-var", args: []string{"-var", "deep=" + deepArg}, extra: "variable \"deep\" {\n  default = []\n}\n"},
		{name: "environment", env: []string{"STREAMCTL_VAR_deep=" + deepArg}, extra: "variable \"deep\" {\n  default = []\n}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writeConfig(t, hostileConfig+tc.extra)
			r := run(t, dir, tc.env, append([]string{"validate", "-no-color"}, tc.args...)...)
			if r.code != 1 || r.killed {
				t.Fatalf("validate: want exit 1, got exit %d (killed %v)\n%s", r.code, r.killed, firstLines(r.stderr, 20))
			}
			if !strings.Contains(r.stderr, "nested too deeply") {
				t.Errorf("validate does not say the nesting is too deep:\n%s", firstLines(r.stderr, 20))
			}
		})
	}
	t.Run("variables file", func(t *testing.T) {
		t.Parallel()
		dir := writeConfig(t, hostileConfig+"variable \"deep\" {\n  default = []\n}\n")
		if err := os.WriteFile(filepath.Join(dir, "deep.vars"), []byte("deep = "+deep+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := run(t, dir, nil, "validate", "-no-color", "-var-file=deep.vars")
		if r.code != 1 || !strings.Contains(r.stderr, "nested too deeply") {
			t.Fatalf("validate: want exit 1 and the nesting named, got exit %d\n%s", r.code, firstLines(r.stderr, 20))
		}
	})
}

// TestHostileEscapesInMessages: terminal escapes in variable values and
// record data are printed visibly escaped, never raw.
func TestHostileEscapesInMessages(t *testing.T) {
	t.Parallel()
	esc := "\x1b]0;pwned\x07\x1b[2J\r"
	dir := writeConfig(t, hostileConfig)
	for _, tc := range []struct {
		env  []string
		args []string
	}{
		{args: []string{"validate", "-no-color", "-var", "records=" + esc}},
		{args: []string{"plan", "-no-color", "-var", "nope=" + esc}},
		{env: []string{"STREAMCTL_VAR_records=" + esc}, args: []string{"plan", "-no-color"}},
	} {
		r := run(t, dir, tc.env, tc.args...)
		if r.code != 1 {
			t.Errorf("%q: want exit 1, got %s", tc.args, r)
		}
		if strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07\r") {
			t.Errorf("%q printed raw control characters: %q", tc.args, r.stderr)
		}
		if !strings.Contains(r.stderr, `\x1b]0;pwned\a\x1b[2J\r`) && !strings.Contains(r.stderr, `\x1b]0;pwned\x07\x1b[2J\r`) {
			t.Errorf("%q does not show the value escaped:\n%s", tc.args, r.stderr)
		}
	}

	// Record data: an input file whose name holds escapes, which plan shows.
	files := writeConfig(t, `
source "files" "in" {
  path = "in/*.jsonl"
}
sink "s" {
  source = source.files.in
  destination "local" "lake" {
    path = "out"
  }
}
`)
	if err := os.Mkdir(filepath.Join(files, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(files, "in", "a\x1b[2Jb.jsonl"), []byte(`{"id":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, files, 0, nil, "plan", "-no-color")
	if strings.ContainsRune(r.stdout+r.stderr, 0x1b) || !strings.Contains(r.stdout, `a\x1b[2Jb.jsonl`) {
		t.Errorf("plan shows the partition name unescaped:\n%q", r.stdout)
	}
}

// TestHostileSensitiveInPaths: a sensitive value in a destination's or the
// state's path, prefix, key, bucket or container would end up in object keys
// and file names while the output masks it: validate refuses it.
func TestHostileSensitiveInPaths(t *testing.T) {
	t.Parallel()
	for name, block := range map[string]string{
		"local path": `destination "local" "lake" {
    path = "out/${var.tenant}"
  }`,
		"s3 prefix": `destination "s3" "lake" {
    bucket = "lake"
    region = "eu-west-1"
    prefix = "orders/${var.tenant}"
  }`,
		"s3 bucket": `destination "s3" "lake" {
    bucket = var.tenant
    region = "eu-west-1"
  }`,
		"azblob container": `destination "azblob" "lake" {
    account_url = "https://lake.blob.core.windows.net"
    container   = lower(var.tenant)
  }`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := writeConfig(t, `
variable "tenant" {
  default   = "acme-secret-tenant"
  sensitive = true
}
source "generate" "orders" {
  records_per_partition = 10
}
sink "orders" {
  source = source.generate.orders
  `+block+`
}
`)
			r := run(t, dir, nil, "validate", "-no-color")
			if r.code != 1 || !strings.Contains(r.stderr, "Sensitive value in a path") {
				t.Fatalf("validate: want exit 1 and the sensitive path refused, got %s", r)
			}
			if strings.Contains(r.stdout+r.stderr, "acme-secret-tenant") {
				t.Errorf("the secret was printed:\n%s", r.stderr)
			}
		})
	}
	t.Run("state key", func(t *testing.T) {
		t.Parallel()
		dir := writeConfig(t, `
variable "tenant" {
  default   = "acme-secret-tenant"
  sensitive = true
}
streamctl {
  state "s3" {
    bucket = "ops"
    region = "eu-west-1"
    key    = "streamctl/${var.tenant}.json"
  }
}
source "generate" "orders" {
  records_per_partition = 10
}
sink "orders" {
  source = source.generate.orders
  destination "local" "lake" {
    path = "out"
  }
}
`)
		r := run(t, dir, nil, "validate", "-no-color")
		if r.code != 1 || !strings.Contains(r.stderr, "Sensitive value in a path") {
			t.Fatalf("validate: want exit 1 and the sensitive key refused, got %s", r)
		}
	})
}

// TestHostileReadOnlyState: a state file made read-only is respected: apply
// refuses to replace it, saying so, and the file keeps its bytes and mode.
func TestHostileReadOnlyState(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Log("running as root: the mode is still respected")
	}
	for _, mode := range []os.FileMode{0o400, 0o444} {
		t.Run(fmt.Sprintf("%04o", mode), func(t *testing.T) {
			t.Parallel()
			dir, _ := committedDir(t)
			path := filepath.Join(dir, ".streamctl", "state.json")
			if err := os.Chmod(path, mode); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(path)
			r := run(t, dir, nil, "apply", "-auto-approve", "-no-color", "-var", "records=20")
			if r.code != 1 || r.killed {
				t.Fatalf("apply with a read-only state: want exit 1, got %s", r)
			}
			want := fmt.Sprintf("the state file %s is read-only; make it writable to apply", path)
			if !strings.Contains(r.stderr, want) {
				t.Errorf("apply does not say %q:\n%s", want, r.stderr)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != mode {
				t.Errorf("the state file has mode %04o now, want %04o", fi.Mode().Perm(), mode)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Errorf("the read-only state file was rewritten")
			}
			if _, err := os.Stat(filepath.Join(dir, "out", "lake", "_streamctl", "orders", "1.json")); err == nil {
				t.Errorf("a batch was committed to the destination while the state could not record it")
			}
			// Made writable again, apply goes on.
			if err := os.Chmod(path, 0o600); err != nil {
				t.Fatal(err)
			}
			mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-var", "records=20")
		})
	}
}

// TestHostileFmtNesting: fmt parses files itself; 100,000 nested brackets
// are refused with exit 1, not a stack overflow that exits 2.
func TestHostileFmtNesting(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, "locals {\n  x = "+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+"\n}\n")
	for _, args := range [][]string{{"fmt", "-check", "-no-color"}, {"fmt", "-no-color"}} {
		r := run(t, dir, nil, args...)
		if r.code != 1 || r.killed || !strings.Contains(r.stderr, "nested too deeply") {
			t.Errorf("%s of a deeply nested file: want exit 1 and the nesting named, got exit %d\n%s", strings.Join(args, " "), r.code, firstLines(r.stderr, 10))
		}
	}
}
