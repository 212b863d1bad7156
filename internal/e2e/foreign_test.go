package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForeignFileRefused: a file that another tool put at the name the next
// batch writes is shown by plan, which refuses naming it, and apply refuses
// as well: the file and the state are left as they were. Once the file is
// moved away, the batch is planned.
func TestForeignFileRefused(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, localConfig(2, 1000, 0))
	mustRun(t, dir, 0, nil, "apply", "-auto-approve", "-no-color", "-var", "records=100")

	lake := filepath.Join(dir, "out", "a")
	matches, err := filepath.Glob(filepath.Join(lake, "part-00000000-*"))
	if err != nil || len(matches) == 0 {
		t.Fatalf("batch 0 wrote no part-00000000-* file in %s: %v", lake, err)
	}
	// The name batch 1 writes first.
	foreignName := strings.Replace(filepath.Base(matches[0]), "part-00000000-", "part-00000001-", 1)
	foreign := filepath.Join(lake, foreignName)
	content := []byte("written by another tool\n")
	if err := os.WriteFile(foreign, content, 0o644); err != nil {
		t.Fatal(err)
	}
	// A file at no batch's name is no concern of the sink's.
	if err := os.WriteFile(filepath.Join(lake, "README.txt"), []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	statePath := filepath.Join(dir, ".streamctl", "state.json")
	stateBefore, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}

	for _, args := range [][]string{
		{"plan", "-detailed-exitcode", "-no-color", "-var", "records=200"},
		{"apply", "-auto-approve", "-no-color", "-var", "records=200"},
	} {
		r := mustRun(t, dir, 1, nil, args...)
		for _, want := range []string{`destination "a" holds files streamctl did not write`, foreignName, "nothing is written"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("streamctl %s: stderr lacks %q:\n%s", args[0], want, r.stderr)
			}
		}
		if got, err := os.ReadFile(foreign); err != nil || string(got) != string(content) {
			t.Fatalf("after %s the foreign file holds %q (%v), want %q", args[0], got, err, content)
		}
		if after, err := os.ReadFile(statePath); err != nil || string(after) != string(stateBefore) {
			t.Fatalf("%s changed the state: %v", args[0], err)
		}
		// Destination b has no foreign file: it is untouched too.
		if m, _ := filepath.Glob(filepath.Join(dir, "out", "b", "part-00000001-*")); len(m) != 0 {
			t.Fatalf("%s wrote batch 1 into b: %v", args[0], m)
		}
	}

	if err := os.Rename(foreign, filepath.Join(dir, foreignName)); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, dir, 2, nil, "plan", "-detailed-exitcode", "-no-color", "-var", "records=200")
	if !strings.Contains(r.stdout, "batch 1") {
		t.Errorf("plan once the file is moved away: no batch 1:\n%s", r.stdout)
	}
}
