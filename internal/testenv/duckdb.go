package testenv

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// DuckDBResult is one statement's answer: its columns, their types and the
// rows, numbers as json.Number.
type DuckDBResult struct {
	Columns []string `json:"columns"`
	Types   []string `json:"types"`
	Rows    [][]any  `json:"rows"`
}

// DuckDB runs SQL statements in dir with DuckDB, the independent reader the
// suite checks files with (its Node API under ToolsDir), and returns each
// statement's result.
func DuckDB(t testing.TB, dir string, sql ...string) []DuckDBResult {
	t.Helper()
	modules := filepath.Join(ToolsDir(), "node", "node_modules")
	Require(t, filepath.Join(modules, "@duckdb", "node-api"), "@duckdb/node-api (the independent Parquet reader)")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH: DuckDB runs on it (make tools installs it under .tools/)")
	}
	script := filepath.Join(RepoRoot(), "internal", "format", "testdata", "duckdb-query.mjs")
	cmd := exec.Command(node, append([]string{script}, sql...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb: %v\n%s", err, stderr.String())
	}
	var results []DuckDBResult
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	for dec.More() {
		var r DuckDBResult
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("duckdb output: %v\n%s", err, out)
		}
		results = append(results, r)
	}
	if len(results) != len(sql) {
		t.Fatalf("duckdb answered %d of %d statements:\n%s\n%s", len(results), len(sql), out, stderr.String())
	}
	return results
}
