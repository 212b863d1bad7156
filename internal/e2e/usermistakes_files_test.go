package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	filessource "github.com/streamctl/streamctl/providers/files"
)

// runUmask runs streamctl under umask 022, the common default, set in a shell
// for the child alone: the test process's umask is shared by parallel tests.
func runUmask(t *testing.T, dir string, want int, args ...string) result {
	t.Helper()
	cmd := exec.Command("/bin/sh", append([]string{"-c", `umask 022 && exec "$0" "$@"`, binary}, args...)...)
	base := command(dir, nil)
	cmd.Dir, cmd.Env = base.Dir, base.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := finish(t, cmd, cmd.Run(), stdout.String(), stderr.String())
	if r.code != want || r.killed {
		t.Fatalf("streamctl %s: want exit %d, got %s", strings.Join(args, " "), want, r)
	}
	return r
}

// TestLocalDestinationModes: a user applies the quickstart and reads the
// files with another account or tool; data files, manifests and folders are
// shared data with the modes of the umask (0644, 0755), while the state and a
// plan file, which can name accounts, stay private (0600).
func TestLocalDestinationModes(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh to set the umask in")
	}
	dir := writeConfig(t, `
source "generate" "orders" {
  partitions            = 2
  records_per_partition = 3000
}

sink "orders" {
  source = source.generate.orders
  format = "jsonl"

  batch {
    max_records = 2500
  }

  destination "local" "lake" {
    path = "out/lake"
  }
}
`)
	runUmask(t, dir, 0, "plan", "-no-color", "-out=orders.plan")
	runUmask(t, dir, 0, "apply", "-no-color", "orders.plan") // 3 batches: the state is rewritten, with a backup

	files := 0
	err := filepath.WalkDir(filepath.Join(dir, "out"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		want := fs.FileMode(0o644)
		if d.IsDir() {
			want = 0o755 | fs.ModeDir
		} else {
			files++
		}
		if fi.Mode() != want {
			t.Errorf("%s has mode %v, want %v", rel, fi.Mode(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 3 { // 3 batches: data files and manifests
		t.Errorf("%d files in out/, want the data files and manifests of 3 batches", files)
	}
	for _, private := range []string{".streamctl/state.json", ".streamctl/state.json.backup", "orders.plan"} {
		fi, err := os.Stat(filepath.Join(dir, private))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != 0o600 {
			t.Errorf("%s has mode %v, want -rw------- (private)", private, fi.Mode())
		}
	}
}

// TestStatusTruncatedSource: a user truncates an input file after an apply
// (rotating it in place, say). The committed offsets now point past the
// file's end: records were delivered that the source no longer has. status
// must raise it for alerting, not call the sink up to date.
func TestStatusTruncatedSource(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, `
source "files" "clicks" {
  path = "in/*.jsonl"
}

sink "clicks" {
  source = source.files.clicks
  format = "jsonl"

  destination "local" "lake" {
    path = "out/lake"
  }
}
`)
	lines := func(n int) []byte {
		var b bytes.Buffer
		for i := range n {
			fmt.Fprintf(&b, "{\"id\":%d}\n", i)
		}
		return b.Bytes()
	}
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, n := range map[string]int{"a.jsonl": 100, "b.jsonl": 50} {
		if err := os.WriteFile(filepath.Join(in, name), lines(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color")
	mustRun(t, dir, 0, nil, "status", "-detailed-exitcode", "-max-lag=1000000", "-no-color")

	if err := os.WriteFile(filepath.Join(in, "a.jsonl"), lines(40), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, dir, 2, nil, "status", "-detailed-exitcode", "-max-lag=1000000", "-no-color")
	if strings.Contains(r.stdout, "up to date") || !strings.Contains(r.stdout, "source behind the committed offsets") || !strings.Contains(r.stdout, "a.jsonl") {
		t.Errorf("status after truncating in/a.jsonl:\n%s", r.stdout)
	}
	t.Logf("status after truncating in/a.jsonl:\n%s", r.stdout)

	// The file removed: its partition vanished from the source.
	if err := os.Remove(filepath.Join(in, "b.jsonl")); err != nil {
		t.Fatal(err)
	}
	r = mustRun(t, dir, 2, nil, "status", "-json", "-detailed-exitcode", "-max-lag=1000000")
	var sink struct {
		SourceBehind []struct {
			Partition string `json:"partition"`
			Committed int64  `json:"committed"`
			Latest    *int64 `json:"latest"`
			Vanished  bool   `json:"vanished"`
		} `json:"source_behind"`
	}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var msg struct {
			Type  string          `json:"type"`
			Level string          `json:"@level"`
			Sink  json.RawMessage `json:"sink"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("status -json: %v\n%s", err, line)
		}
		if msg.Type == "sink_status" {
			if err := json.Unmarshal(msg.Sink, &sink); err != nil {
				t.Fatal(err)
			}
			if msg.Level != "warn" {
				t.Errorf("sink_status of a source behind its offsets has level %q, want warn", msg.Level)
			}
		}
	}
	got := fmt.Sprintf("%+v", sink.SourceBehind)
	if len(sink.SourceBehind) != 2 ||
		!strings.HasSuffix(sink.SourceBehind[0].Partition, "a.jsonl") || sink.SourceBehind[0].Committed != 100 || sink.SourceBehind[0].Latest == nil || *sink.SourceBehind[0].Latest != 40 || sink.SourceBehind[0].Vanished ||
		!strings.HasSuffix(sink.SourceBehind[1].Partition, "b.jsonl") || sink.SourceBehind[1].Committed != 50 || sink.SourceBehind[1].Latest != nil || !sink.SourceBehind[1].Vanished {
		t.Errorf("source_behind: %s\n%s", got, r.stdout)
	}
}

// TestFilesSourceFormats: every format the configuration reference lists
// for the files source (the schema's allowed values) passes validate, and
// one it does not list is refused, naming each accepted format.
func TestFilesSourceFormats(t *testing.T) {
	t.Parallel()
	config := func(format string) string {
		return fmt.Sprintf(`
source "files" "clicks" {
  path   = "in/*"
  format = %q
}

sink "clicks" {
  source = source.files.clicks
  format = "jsonl"

  destination "local" "lake" {
    path = "out/clicks"
  }
}
`, format)
	}
	allowed := filessource.Kind.Source.Attributes["format"].Allowed
	if len(allowed) == 0 {
		t.Fatal("the files source's format attribute lists no allowed value")
	}
	for _, format := range allowed {
		mustRun(t, writeConfig(t, config(format)), 0, nil, "validate", "-no-color")
	}
	r := mustRun(t, writeConfig(t, config("xml")), 1, nil, "validate", "-no-color")
	if !strings.Contains(r.stderr, "Unsupported input format") {
		t.Errorf("validate of format \"xml\": %s", r)
	}
	// The refusal's list, unwrapped: `"jsonl", "csv" (a header row), … or
	// "avro" (…), not "xml".`
	var named []string
	for _, m := range regexp.MustCompile(`"(\w+)"(?: \([^)]*\))?(?:,| or )`).FindAllStringSubmatch(strings.Join(strings.Fields(r.stderr), " "), -1) {
		named = append(named, m[1])
	}
	slices.Sort(named)
	listed := slices.Sorted(slices.Values(allowed))
	if !slices.Equal(named, listed) {
		t.Errorf("validate accepts formats %v, the reference lists %v:\n%s", named, listed, r.stderr)
	}
}
