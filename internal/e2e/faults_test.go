package e2e

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// Faults between streamctl and its stores, injected by a proxy on loopback in
// front of versitygw and Azurite: lost answers, cut bodies and slow answers
// converge exactly once with no force-unlock, no false conflict and no
// phantom lock.

// objectGet matches a GET of one object (not a listing), whose body a reader
// resumes after a cut.
func objectGet(r *http.Request) bool {
	q := r.URL.Query()
	return r.Method == http.MethodGet && !q.Has("list-type") && !q.Has("comp") && !q.Has("restype") && !q.Has("uploads")
}

func isPut(suffix string) func(*http.Request) bool {
	return func(r *http.Request) bool {
		return r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, suffix) && r.Header.Get("X-Amz-Copy-Source") == "" && r.Header.Get("X-Ms-Copy-Source") == ""
	}
}

// s3ProxyCase is a sink writing to S3, its state in S3, both through a fault
// proxy in front of a fresh versitygw.
func s3ProxyCase(t *testing.T) (remoteCase, *testenv.FaultProxy) {
	t.Helper()
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	proxy := testenv.StartFaultProxy(t, srv.Endpoint)
	cfg := streamConfig(s3StateBlock(srv, "lake"), 2, 800, 400, s3Destination(srv, "lake", "lake", "orders"))
	cfg = strings.ReplaceAll(cfg, srv.Endpoint, proxy.Endpoint)
	return remoteCase{
		dir:   writeConfig(t, cfg),
		env:   srv.Env(),
		state: s3Storage(t, srv, "lake", ""),
		dests: map[string]providers.Storage{"lake": s3Storage(t, srv, "lake", "orders")},
	}, proxy
}

// azProxyCase is the same on Azurite.
func azProxyCase(t *testing.T) (remoteCase, *testenv.FaultProxy) {
	t.Helper()
	az := testenv.Azurite(t)
	c := azCase(t, az, "faults", 2, 800, 400)
	proxy := testenv.StartFaultProxy(t, az.BlobURL)
	cfg := streamConfig(azStateBlock(az, "faults"), 2, 800, 400, azDestination(az, "archive", "faults", "orders"))
	through := proxy.Endpoint + "/" + az.AccountName
	c.dir = writeConfig(t, strings.ReplaceAll(cfg, az.BlobURL, through))
	c.env = nil
	for _, kv := range az.Env() {
		c.env = append(c.env, strings.ReplaceAll(kv, az.BlobURL, through))
	}
	return c, proxy
}

type faultCase struct {
	name  string
	kind  testenv.Fault
	match func(*http.Request) bool
	delay time.Duration
}

// lostAnswers runs an apply per fault, each armed for its first matching
// request; every apply must succeed as if nothing happened.
func lostAnswers(t *testing.T, c remoteCase, proxy *testenv.FaultProxy, faults []faultCase) {
	t.Helper()
	records := int64(1000)
	for _, f := range faults {
		records += 1000
		fired := proxy.Arm(f.kind, f.match, f.delay)
		r := run(t, c.dir, c.env, "apply", "-auto-approve", "-no-color", "-var=records="+strconv.FormatInt(records, 10))
		select {
		case <-fired:
		default:
			t.Fatalf("%s: the fault never fired (the apply sent no matching request): %s", f.name, r)
		}
		if r.code != 0 || r.killed {
			t.Fatalf("%s: apply: want exit 0, got %s", f.name, r)
		}
		if h := lockHolder(t, c.state); h != nil {
			t.Fatalf("%s: a phantom lock stays after the apply: %+v", f.name, h)
		}
		mustRun(t, c.dir, 0, c.env, "plan", "-detailed-exitcode", "-no-color", "-var=records="+strconv.FormatInt(records, 10))
		for _, d := range c.dests {
			assertExactlyOnce(t, d, expectedIDs(2, records))
		}
	}
	t.Logf("faults injected and survived: %v", proxy.Fired())
}

func remoteFaults(stateKey string) []faultCase {
	return []faultCase{
		// apply takes the lock of each sink, not the state's (a remote
		// state is kept per sink).
		{"the answer to the lock create is lost", testenv.DropAnswer, isPut(state.SinksPrefix(stateKey) + "orders.lock"), 0},
		{"the answer to a sink document's compare-and-swap is lost", testenv.DropAnswer, isPut(state.SinksPrefix(stateKey) + "orders.json"), 0},
		{"the answer to a manifest create is lost", testenv.DropAnswer, func(r *http.Request) bool {
			return isPut(".json")(r) && strings.Contains(r.URL.Path, "/_streamctl/orders/")
		}, 0},
		{"the body of the state is cut off", testenv.CutBody, func(r *http.Request) bool { return objectGet(r) && strings.HasSuffix(r.URL.Path, "/"+stateKey) }, 0},
		{"the body of the lock is cut off as it is released", testenv.CutBody, func(r *http.Request) bool { return objectGet(r) && strings.HasSuffix(r.URL.Path, ".lock") }, 0},
		{"the answer to the unlock is lost", testenv.DropAnswer, func(r *http.Request) bool {
			return r.Method == http.MethodDelete && strings.HasSuffix(r.URL.Path, ".lock")
		}, 0},
		{"a heartbeat answer is slower than the heartbeat interval", testenv.Slow, isPut(state.SinksPrefix(stateKey) + "orders.lock"), time.Second},
	}
}

func TestS3LostAnswers(t *testing.T) {
	t.Parallel()
	c, proxy := s3ProxyCase(t)
	lostAnswers(t, c, proxy, remoteFaults(remoteStateKey))
}

func TestAzureLostAnswers(t *testing.T) {
	t.Parallel()
	c, proxy := azProxyCase(t)
	lostAnswers(t, c, proxy, remoteFaults(remoteStateKey))
}

// faultStorm: random kills, while the network drops answers, cuts bodies
// and slows requests; then convergence without human action.
func faultStorm(t *testing.T, c remoteCase, proxy *testenv.FaultProxy, seed uint64) {
	c.env = append(slices.Clip(c.env), raceEnv)
	t.Helper()
	proxy.Randomly(11, []testenv.Fault{testenv.DropAnswer, testenv.Slow, testenv.CutBody}, 300*time.Millisecond, func(r *http.Request) bool {
		return r.Method != http.MethodGet || objectGet(r)
	})
	randomKills(t, c, seed, 12, proxy.Calm)
	t.Logf("%d faults injected", len(proxy.Fired()))
}

func TestS3FaultStorm(t *testing.T) {
	t.Parallel()
	c, proxy := s3ProxyCase(t)
	faultStorm(t, c, proxy, 20261203)
}

func TestAzureFaultStorm(t *testing.T) {
	t.Parallel()
	c, proxy := azProxyCase(t)
	faultStorm(t, c, proxy, 20261204)
}

// TestS3LockJudgedByTheStoresClock: a holder whose clock is an hour behind
// is alive while it runs, and dead once killed, whatever its timestamps say.
func TestS3LockJudgedByTheStoresClock(t *testing.T) {
	t.Parallel()
	c, _ := s3ProxyCase(t)
	skewed := append([]string{"STREAMCTL_TEST_CLOCK_SKEW=-1h"}, c.env...)
	holder := startRun(t, c.dir, skewed, "apply", "-auto-approve", "-no-color", "-var=records=200000")
	if !holder.waitOutput(t, 2*time.Minute, "committed in") {
		t.Fatalf("the skewed apply ended before its first batch committed: %s", holder.stderr.String())
	}
	time.Sleep(3 * time.Second) // past the lease: only refreshes keep it
	if h := lockHolder(t, c.state); h == nil || time.Since(h.Heartbeat) < 50*time.Minute {
		t.Fatalf("the skewed holder's lock does not carry its clock: %+v", h)
	}
	r := run(t, c.dir, c.env, "apply", "-auto-approve", "-no-color", "-var=records=200000")
	if r.code != 4 || !strings.Contains(r.stderr, "Wait for it to finish") {
		t.Fatalf("an apply while the skewed holder runs: want exit 4, got %s", r)
	}
	if k := holder.kill(t); !k.killed {
		t.Fatalf("the skewed apply ended before it was killed: make it longer")
	}
	recoverKilled(t, c, holder.pid(), "-var=records=200000")
	for _, d := range c.dests {
		assertExactlyOnce(t, d, expectedIDs(2, 200000))
	}
}
