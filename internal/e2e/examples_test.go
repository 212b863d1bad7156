package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
)

// copyExample copies the .hcl files of examples/name into a fresh directory,
// so that the state and nothing else is written outside the repository.
func copyExample(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join(testenv.RepoRoot(), "examples", name)
	dir := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".hcl") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// routedOrder is what the multi-account check reads of each record.
type routedOrder struct {
	ID         int64 `json:"id"`
	CustomerID int64 `json:"customer_id"`
}

// readOrders reads every committed data file of a destination (anything
// outside _streamctl/; _temporary/ leftovers fail the test).
func readOrders(t *testing.T, s providers.Storage, fn func(routedOrder)) {
	t.Helper()
	ctx := context.Background()
	err := s.List(ctx, "", func(info providers.ObjectInfo) error {
		switch {
		case strings.HasPrefix(info.Key, "_streamctl/"):
			return nil
		case strings.HasPrefix(info.Key, "_temporary/"):
			return fmt.Errorf("_temporary leftover %s", info.Key)
		}
		r, _, err := s.Get(ctx, info.Key)
		if err != nil {
			return err
		}
		defer r.Close()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var o routedOrder
			if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
				return fmt.Errorf("%s: %v", info.Key, err)
			}
			fn(o)
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatalf("read %s: %v", s.Describe(), err)
	}
}

// TestMultiAccountExample runs examples/multi-account as a user would, with
// only variables and environment pointing it at local servers: versitygw for
// the S3 bucket and the state, Azurite for the two Azure containers. The
// stream is applied, grown and applied again. Routed by customer_id, every
// order is in exactly one of the three destinations and their union is the
// whole stream; every customer's orders are in one destination; each
// destination received a share.
func TestMultiAccountExample(t *testing.T) {
	t.Parallel()
	srv := testenv.S3(t)
	srv.CreateBucket(t, "orders")
	az := testenv.Azurite(t)
	az.CreateContainer(t, "orders-a")
	az.CreateContainer(t, "orders-b")

	dir := copyExample(t, "multi-account")
	// As the README says: the connection string names the account.
	env := append(append(srv.Env(), az.Env()...), "STREAMCTL_VAR_s3_endpoint="+srv.Endpoint, "STREAMCTL_VAR_azure_account_url=")
	mustRun(t, dir, 0, env, "validate", "-no-color")

	const partitions = 4 // as in the example
	for _, records := range []int64{1500, 4000} {
		vars := fmt.Sprintf("-var=records_per_partition=%d", records)
		mustRun(t, dir, 0, env, "apply", "-auto-approve", "-no-color", vars)
		mustRun(t, dir, 0, env, "plan", "-detailed-exitcode", "-no-color", vars)
	}

	dests := map[string]providers.Storage{
		"azure_a": azStorage(t, az, "orders-a", "orders"),
		"azure_b": azStorage(t, az, "orders-b", "orders"),
		"s3_c":    s3Storage(t, srv, "orders", "orders"),
	}
	want := expectedIDs(partitions, 4000)
	seen := map[int64]string{}     // id → destination
	customer := map[int64]string{} // customer_id → destination
	perDest := map[string]int{}
	for name, d := range dests {
		readOrders(t, d, func(o routedOrder) {
			if prev, dup := seen[o.ID]; dup {
				t.Errorf("order %d is in %s and in %s", o.ID, prev, name)
			}
			seen[o.ID] = name
			if prev, ok := customer[o.CustomerID]; ok && prev != name {
				t.Errorf("customer %d has orders in %s and in %s: route_by must keep a customer in one destination", o.CustomerID, prev, name)
			}
			customer[o.CustomerID] = name
			perDest[name]++
		})
	}
	missing, unexpected := 0, 0
	for id := range want {
		if _, ok := seen[id]; !ok {
			missing++
		}
	}
	for id := range seen {
		if !want[id] {
			unexpected++
		}
	}
	if missing+unexpected > 0 {
		t.Errorf("%d orders missing from every destination, %d unexpected (of %d)", missing, unexpected, len(want))
	}
	// 10,000 customers hashed over 3 destinations: each gets about a third.
	for name := range dests {
		if n := perDest[name]; n < len(want)/5 {
			t.Errorf("%s received %d of %d orders: routing does not spread the customers", name, n, len(want))
		}
	}
	t.Logf("orders per destination: %v", perDest)
}
