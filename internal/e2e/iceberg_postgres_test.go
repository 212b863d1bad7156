package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
)

// TestIcebergPostgresTwoProcesses: two streamctl processes, each with its
// own state, sink and table, commit to one PostgreSQL catalog at once,
// from the catalog's first use: each table holds its sink's records once,
// one snapshot per batch, and only its sink's.
func TestIcebergPostgresTwoProcesses(t *testing.T) {
	t.Parallel()
	uri := testenv.Postgres(t)
	names := []string{"orders", "refunds"}
	dirs := map[string]string{}
	for _, name := range names {
		hcl := strings.Replace(icebergConfigWith(uri), `sink "orders"`, fmt.Sprintf("sink %q", name), 1)
		hcl = strings.Replace(hcl, `name      = "orders"`, fmt.Sprintf("name      = %q", name), 1)
		dirs[name] = writeConfig(t, hcl)
	}
	var wg sync.WaitGroup
	results := make([]result, len(names))
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = run(t, dirs[name], nil, "apply", "-auto-approve", "-no-color")
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Fatalf("apply of sink %s: %s", names[i], r)
		}
	}
	for _, name := range names {
		mustRun(t, dirs[name], 0, nil, "plan", "-detailed-exitcode", "-no-color")
		checkSinkTable(t, dirs[name], uri, name, expectedIDs(3, 2000))
	}
}

// TestIcebergPostgresUnreachable: apply with a PostgreSQL catalog that does
// not answer stops before it writes anything, names the catalog (its
// password, from a sensitive variable, hidden) and the destination, and
// says what to do.
func TestIcebergPostgresUnreachable(t *testing.T) {
	t.Parallel()
	const password = "canary-pg-5ecret"
	port := testenv.ClosedPort(t)
	uri := fmt.Sprintf("postgres://streamctl:${var.pg_password}@127.0.0.1:%d/lake?sslmode=disable", port)
	dir := writeConfig(t, "variable \"pg_password\" {\n  sensitive = true\n}\n"+icebergConfigWith(uri))
	r := run(t, dir, []string{"STREAMCTL_VAR_pg_password=" + password}, "apply", "-auto-approve", "-no-color")
	// The plan that apply makes first reads the table, and stops there.
	want := fmt.Sprintf("catalog postgres://streamctl:xxxxx@127.0.0.1:%d/lake", port)
	if r.code != 1 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "destination table") ||
		!strings.Contains(r.stderr, "connection refused") || !strings.Contains(r.stderr, "check that the server runs") {
		t.Errorf("apply: %s\nwant exit 1, %q and the destination named, the cause and what to do", r, want)
	}
	if strings.Contains(r.stdout+r.stderr, password) {
		t.Errorf("the output shows the password: %s", r)
	}
	for _, p := range []string{".streamctl/state.json", "out"} {
		if _, err := os.Stat(filepath.Join(dir, p)); !os.IsNotExist(err) {
			t.Errorf("%s exists after an apply that could not reach the catalog (%v)", p, err)
		}
	}
}
