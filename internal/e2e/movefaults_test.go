package e2e

import (
	"maps"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/testenv"
)

// Moves and owner records on S3 and Azure under the faults of their
// networks and hosts: lost answers and cut bodies of the requests a move,
// its undo and its cleanup make, and an apply frozen in the middle of a move
// past its lease.

// moveBlock declares the rename of sink from to sink to.
func moveBlock(from, to string) string {
	return "moved {\n  from = sink." + from + "\n  to   = sink." + to + "\n}\n"
}

// inDest matches a request on key in destination d (out/d in the bucket or
// container), with method.
func inDest(method, d, key string) func(*http.Request) bool {
	return func(r *http.Request) bool {
		return r.Method == method && strings.HasSuffix(r.URL.Path, "/out/"+d+"/"+key) &&
			r.Header.Get("X-Amz-Copy-Source") == "" && r.Header.Get("X-Ms-Copy-Source") == ""
	}
}

// removal matches the removal of key in destination d: its DELETE, or on S3
// the DeleteObjects naming the keys under a prefix (one per page).
func removal(d, key string) func(*http.Request) bool {
	del := inDest(http.MethodDelete, d, key)
	return func(r *http.Request) bool {
		return del(r) || r.Method == http.MethodPost && r.URL.Query().Has("delete")
	}
}

// assertOnlyOwnersManifests checks that destination d holds its owner
// record and the manifests of the sink it names, and no other sink's.
func assertOnlyOwnersManifests(t *testing.T, c *moveCase, d, want string) {
	t.Helper()
	if owner := c.owner(t, d); owner != want {
		t.Errorf("%s: owned by sink %q, want %q", d, owner, want)
	}
	for _, k := range c.keys(t, d, "_streamctl/") {
		if k != "_streamctl/owner.json" && !strings.HasPrefix(k, "_streamctl/"+want+"/") {
			t.Errorf("%s: %s is left beside the manifests of sink %s", d, k, want)
		}
	}
}

func TestMovesUnderLostAnswers(t *testing.T) {
	t.Parallel()
	remoteStores(t, func(t *testing.T, s moveStore) {
		orders := driftConfig("", "a", "b")
		v2 := renamed(orders, "orders_v2") + moveBlock("orders", "orders_v2")
		back := orders + moveBlock("orders_v2", "orders")
		c, proxy := s.newProxiedCase(t, "lost-answers", orders)
		steps := []struct {
			name   string
			killAt string // a first apply of killed is killed there
			killed string
			hcl    string
			owner  string
			kind   testenv.Fault
			match  func(*http.Request) bool
		}{
			{"the answer to an owner record's create", "", "", orders, "orders", testenv.DropAnswer, inDest(http.MethodPut, "a", "_streamctl/owner.json")},
			{"the answer to a manifest's copy under the new name", "", "", v2, "orders_v2", testenv.DropAnswer, inDest(http.MethodPut, "a", "_streamctl/orders_v2/1.json")},
			{"the answer to the switch of an owner record", "", "", back, "orders", testenv.DropAnswer, inDest(http.MethodPut, "b", "_streamctl/owner.json")},
			{"the answer to the removal of the old manifests", "", "", v2, "orders_v2", testenv.DropAnswer, removal("b", "_streamctl/orders/0.json")},
			{"the body of an owner record read by a move", "", "", back, "orders", testenv.CutBody, inDest(http.MethodGet, "a", "_streamctl/owner.json")},
			{"the answer to an owner record given back by an undo", "before-move-state", v2, orders, "orders", testenv.DropAnswer, inDest(http.MethodPut, "a", "_streamctl/owner.json")},
			{"the answer to the removal of the copies left by a reverted move", "after-move-manifests", v2, orders, "orders", testenv.DropAnswer, removal("a", "_streamctl/orders_v2/0.json")},
		}
		for _, st := range steps {
			deadPID := 0
			if st.killAt != "" {
				c.set(t, st.killed)
				crashed := startRun(t, c.dir, append([]string{"STREAMCTL_FAULT=" + st.killAt}, c.env...), "apply", "-auto-approve", "-no-color")
				if r := crashed.wait(t, 2*time.Minute); !r.killed {
					t.Fatalf("%s: the apply did not reach %s: %s", st.name, st.killAt, r)
				}
				deadPID = crashed.pid()
			}
			c.set(t, st.hcl)
			fired := proxy.Arm(st.kind, st.match, 0)
			r := c.run(t, nil, "apply", "-auto-approve", "-no-color")
			select {
			case <-fired:
			default:
				t.Fatalf("%s: the fault never fired (the apply sent no matching request): %s", st.name, r)
			}
			if r.code != 0 || r.killed {
				t.Fatalf("%s: apply: want exit 0, got %s", st.name, r)
			}
			// The killed apply held the whole state's lock (a pending move
			// changes two sinks); the next apply, of one sink, waits for its
			// lease to end but does not remove it.
			if h := lockHolder(t, s.stateStorage(t, c)); h != nil && h.PID != deadPID {
				t.Fatalf("%s: a phantom lock stays after the apply: %+v", st.name, h)
			}
			c.mustRun(t, 0, nil, "plan", "-detailed-exitcode", "-no-color")
			for _, d := range []string{"a", "b"} {
				assertExactlyOnce(t, c.dest(t, d), expectedIDs(2, 1000))
				assertOnlyOwnersManifests(t, c, d, st.owner)
			}
		}
		t.Logf("faults injected and survived: %v", proxy.Fired())
	})
}

// TestPausedMoveIsFenced: an apply frozen at a step of a move past its
// lease loses the move to the next apply, which finishes it. Woken, it stops
// with "the state lock was lost" before it writes anything more.
func TestPausedMoveIsFenced(t *testing.T) {
	t.Parallel()
	remoteStores(t, func(t *testing.T, s moveStore) {
		for _, point := range []string{"after-move-manifests", "before-move-state", "after-move-state"} {
			t.Run(point, func(t *testing.T) {
				t.Parallel()
				orders := driftConfig("", "a", "b")
				c := s.newCase(t, "paused-"+point, orders)
				c.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
				c.set(t, renamed(orders, "orders_v2")+moveBlock("orders", "orders_v2"))

				lease := []string{"STREAMCTL_TEST_LOCK_LEASE_MS=8000", "STREAMCTL_TEST_HEARTBEAT_MS=1000"}
				env := append(append(append([]string{}, c.env...), lease...), "STREAMCTL_FAULT="+point, "STREAMCTL_FAULT_STOP=1", "STREAMCTL_TEST_HEARTBEAT_STALL_MS=600000")
				frozen := startRun(t, c.dir, env, "apply", "-auto-approve", "-no-color")
				waitFor(t, 2*time.Minute, "the apply to stop at "+point, func() bool {
					return processStopped(frozen.pid()) || frozen.exited()
				})
				if frozen.exited() {
					t.Fatalf("the apply ended before it reached %s: %s", point, frozen.wait(t, time.Second))
				}

				c.mustRun(t, 0, lease, "apply", "-auto-approve", "-no-color", "-lock-timeout=1m")
				before := map[string]map[string]string{}
				for _, d := range []string{"a", "b"} {
					before[d] = objectVersions(t, c.dest(t, d))
				}
				time.Sleep(1100 * time.Millisecond) // a rewrite would show a later second

				if err := syscall.Kill(frozen.pid(), syscall.SIGCONT); err != nil {
					t.Fatal(err)
				}
				r := frozen.wait(t, 2*time.Minute)
				if r.code != 1 || r.killed || !strings.Contains(r.stderr, "the state lock was lost") {
					t.Errorf("the apply woken after its lease was taken over: want exit 1 saying the state lock was lost, got %s", r)
				}
				for _, d := range []string{"a", "b"} {
					if after := objectVersions(t, c.dest(t, d)); !maps.Equal(before[d], after) {
						t.Errorf("%s: the woken apply wrote after losing its lock:\nbefore %v\nafter  %v", d, before[d], after)
					}
				}
				c.mustRun(t, 0, nil, "plan", "-detailed-exitcode", "-no-color")
				for _, d := range []string{"a", "b"} {
					assertExactlyOnce(t, c.dest(t, d), expectedIDs(2, 1000))
					assertOnlyOwnersManifests(t, c, d, "orders_v2")
				}
			})
		}
	})
}
