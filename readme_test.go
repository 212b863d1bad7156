package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeLayoutNamesEveryPackage: the layout map of README.md names each
// package of the module, at the start of its line or, for a package inside
// another, by its folder name in its parent's entry, so that the map a
// newcomer reads first does not fall behind the tree.
func TestReadmeLayoutNamesEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "## Layout\n\n```\n")
	if block, _, ok = strings.Cut(block, "```"); !ok {
		t.Fatal("README.md has no layout map (## Layout, then a fenced block)")
	}
	// entries maps a path at the start of a line to its text, with the
	// lines that continue it.
	entries := map[string]string{}
	last := ""
	for line := range strings.SplitSeq(block, "\n") {
		if path, text, ok := strings.Cut(line, " "); ok && path != "" {
			last = strings.TrimSuffix(path, "/")
			entries[last] = text
		} else if last != "" {
			entries[last] += " " + strings.TrimSpace(line)
		}
	}

	var missing []string
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || path == "third_party" || path == "website/public") {
			return filepath.SkipDir
		}
		if path == "." || !hasGoSource(t, path) {
			return nil
		}
		if _, ok := entries[path]; ok {
			return nil
		}
		for parent := filepath.Dir(path); parent != "."; parent = filepath.Dir(parent) {
			if text, ok := entries[parent]; ok {
				if regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(text) {
					return nil
				}
				break
			}
		}
		missing = append(missing, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		t.Errorf("the layout map of README.md does not name %s: add a line for each, or name it in its parent's entry", strings.Join(missing, ", "))
	}
}

// hasGoSource says whether dir holds a Go file other than tests.
func hasGoSource(t *testing.T, dir string) bool {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	return slices.ContainsFunc(files, func(f string) bool { return !strings.HasSuffix(f, "_test.go") })
}
