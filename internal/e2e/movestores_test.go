package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/local"
)

// The move and owner-record tests run on every store: their destinations
// (and, on S3 and Azure, their state) live where the store puts them, and
// everything they check is read through the store's provider.

// moveStore is where a move test keeps its destinations and state: local
// folders (s3 and az nil), a versitygw or an Azurite shared by the test's
// cases, one bucket or container per case.
type moveStore struct {
	s3 *testenv.S3Server
	az *testenv.AzuriteServer
}

// moveCase is one configuration of a move test in its store.
type moveCase struct {
	store  moveStore
	dir    string
	bucket string // "" on local
	// destBucket holds the destinations when they are not in bucket.
	destBucket string
	env        []string
	// through, when set, points the configuration at proxy.
	through *strings.Replacer
	proxy   *testenv.FaultProxy
}

// localDest matches a destination block of driftConfig.
var localDest = regexp.MustCompile(`destination "local" "(\w+)" \{\n    path = "out/\w+"\n  \}\n`)

// newCase writes hcl, a driftConfig, as a configuration of the store: on S3
// and Azure its state and destinations go into a fresh bucket or container
// named after name, each destination under the prefix out/NAME.
func (s moveStore) newCase(t *testing.T, name, hcl string) *moveCase {
	t.Helper()
	c := &moveCase{store: s}
	switch {
	case s.s3 != nil:
		c.bucket = bucketName(name)
		s.s3.CreateBucket(t, c.bucket)
		c.env = s.s3.Env()
	case s.az != nil:
		c.bucket = bucketName(name)
		s.az.CreateContainer(t, c.bucket)
		c.env = s.az.Env()
	}
	c.dir = writeConfig(t, c.config(hcl))
	return c
}

// config turns a driftConfig into one of the case's store.
func (c *moveCase) config(hcl string) string {
	s := c.store
	bucket := c.destinations()
	switch {
	case s.s3 != nil:
		return s3StateBlock(s.s3, c.bucket) + localDest.ReplaceAllStringFunc(hcl, func(block string) string {
			d := localDest.FindStringSubmatch(block)[1]
			return strings.TrimPrefix(s3Destination(s.s3, d, bucket, "out/"+d), "\n")
		})
	case s.az != nil:
		return azStateBlock(s.az, c.bucket) + localDest.ReplaceAllStringFunc(hcl, func(block string) string {
			d := localDest.FindStringSubmatch(block)[1]
			return strings.TrimPrefix(azDestination(s.az, d, bucket, "out/"+d), "\n")
		})
	}
	return hcl
}

// destinations is the bucket or container holding the destinations.
func (c *moveCase) destinations() string {
	if c.destBucket != "" {
		return c.destBucket
	}
	return c.bucket
}

func (c *moveCase) set(t *testing.T, hcl string) {
	t.Helper()
	cfg := c.config(hcl)
	if c.through != nil {
		cfg = c.through.Replace(cfg)
	}
	setConfig(t, c.dir, cfg)
}

// dest opens destination name as streamctl writes it.
func (c *moveCase) dest(t *testing.T, name string) providers.Storage {
	t.Helper()
	switch {
	case c.store.s3 != nil:
		return s3Storage(t, c.store.s3, c.destinations(), "out/"+name)
	case c.store.az != nil:
		return azStorage(t, c.store.az, c.destinations(), "out/"+name)
	}
	return local.New(filepath.Join(c.dir, "out", name))
}

// run runs streamctl on the case. On S3 and Azure a run waits for the lock a
// killed one left behind (its lease is short in the tests), as a scheduled
// job does.
func (c *moveCase) run(t *testing.T, env []string, args ...string) result {
	t.Helper()
	if c.bucket != "" && len(args) > 0 {
		at := 1
		if args[0] == "state" && len(args) > 1 {
			at = 2
		}
		if slices.Contains([]string{"apply", "plan", "state"}, args[0]) {
			args = slices.Insert(slices.Clone(args), at, "-lock-timeout=30s")
		}
	}
	return run(t, c.dir, append(slices.Clip(c.env), env...), args...)
}

func (c *moveCase) mustRun(t *testing.T, want int, env []string, args ...string) result {
	t.Helper()
	r := c.run(t, env, args...)
	if r.code != want || r.killed {
		t.Fatalf("streamctl %s: want exit %d, got %s", strings.Join(args, " "), want, r)
	}
	return r
}

// owner reads the sink a destination's owner record names.
func (c *moveCase) owner(t *testing.T, d string) string {
	t.Helper()
	data, _, err := providers.ReadAll(context.Background(), c.dest(t, d), "_streamctl/owner.json")
	if err != nil {
		t.Fatalf("read the owner record of %s: %v", d, err)
	}
	var o struct{ Sink string }
	if err := json.Unmarshal(data, &o); err != nil {
		t.Fatalf("the owner record of %s: %v", d, err)
	}
	return o.Sink
}

// keys lists the keys of destination d under prefix.
func (c *moveCase) keys(t *testing.T, d, prefix string) []string {
	t.Helper()
	var keys []string
	err := c.dest(t, d).List(context.Background(), prefix, func(info providers.ObjectInfo) error {
		keys = append(keys, info.Key)
		return nil
	})
	if err != nil && !errors.Is(err, providers.ErrNotExist) {
		t.Fatalf("list %s in %s: %v", prefix, d, err)
	}
	return keys
}

// removeAll removes everything under prefix in destination d.
func (c *moveCase) removeAll(t *testing.T, d, prefix string) {
	t.Helper()
	s := c.dest(t, d)
	for _, k := range c.keys(t, d, prefix) {
		if err := s.Delete(context.Background(), k); err != nil {
			t.Fatal(err)
		}
	}
}

// remoteStores runs body once per object store, each with its server shared by
// the cases body starts.
func remoteStores(t *testing.T, body func(t *testing.T, s moveStore)) {
	t.Run("s3", func(t *testing.T) {
		t.Parallel()
		body(t, moveStore{s3: testenv.S3(t)})
	})
	t.Run("azure", func(t *testing.T) {
		t.Parallel()
		body(t, moveStore{az: testenv.Azurite(t)})
	})
}

// newCaseWriting is newCase with the destinations of other's: a second
// state writing the same folders.
func (s moveStore) newCaseWriting(t *testing.T, name, hcl string, other *moveCase) *moveCase {
	t.Helper()
	c := s.newCase(t, name, "")
	c.destBucket = other.bucket
	setConfig(t, c.dir, c.config(hcl))
	return c
}

// lineage reads the lineage of the case's state.
func (c *moveCase) lineage(t *testing.T) string {
	t.Helper()
	var data []byte
	var err error
	switch {
	case c.store.s3 != nil:
		data, _, err = providers.ReadAll(context.Background(), s3Storage(t, c.store.s3, c.bucket, ""), remoteStateKey)
	case c.store.az != nil:
		data, _, err = providers.ReadAll(context.Background(), azStorage(t, c.store.az, c.bucket, ""), remoteStateKey)
	default:
		data, _, err = providers.ReadAll(context.Background(), local.New(filepath.Join(c.dir, ".streamctl")), "state.json")
	}
	if err != nil {
		t.Fatalf("read the state: %v", err)
	}
	var st struct{ Lineage string }
	if err := json.Unmarshal(data, &st); err != nil || st.Lineage == "" {
		t.Fatalf("the state has no lineage (%v):\n%s", err, data)
	}
	return st.Lineage
}

// newProxiedCase is newCase with streamctl reaching the store through a
// fault proxy; the checks read the store directly.
func (s moveStore) newProxiedCase(t *testing.T, name, hcl string) (*moveCase, *testenv.FaultProxy) {
	t.Helper()
	c := s.newCase(t, name, "")
	var server, through string
	switch {
	case s.s3 != nil:
		c.proxy = testenv.StartFaultProxy(t, s.s3.Endpoint)
		server, through = s.s3.Endpoint, c.proxy.Endpoint
	case s.az != nil:
		c.proxy = testenv.StartFaultProxy(t, s.az.BlobURL)
		server, through = s.az.BlobURL, c.proxy.Endpoint+"/"+s.az.AccountName
	default:
		t.Fatal("a local store has no network to fault")
	}
	c.through = strings.NewReplacer(server, through)
	for i, kv := range c.env {
		c.env[i] = c.through.Replace(kv)
	}
	c.set(t, hcl)
	return c, c.proxy
}

// stateStorage opens the bucket or container holding c's state.
func (s moveStore) stateStorage(t *testing.T, c *moveCase) providers.Storage {
	t.Helper()
	if s.s3 != nil {
		return s3Storage(t, s.s3, c.bucket, "")
	}
	return azStorage(t, s.az, c.bucket, "")
}

// TestSecondStateIsRefusedOnObjectStores: TestSecondStateIsRefused with the
// states in two buckets (containers) and the destination in the first.
func TestSecondStateIsRefusedOnObjectStores(t *testing.T) {
	t.Parallel()
	remoteStores(t, func(t *testing.T, s moveStore) {
		first := s.newCase(t, "second-state-first", driftConfig("", "a"))
		first.mustRun(t, 0, nil, "apply", "-auto-approve", "-no-color")
		before := objectVersions(t, first.dest(t, "a"))

		second := s.newCaseWriting(t, "second-state-second", strings.Replace(driftConfig("", "a"), "max_records = 500", "max_records = 700", 1), first)
		for _, args := range [][]string{{"plan", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
			r := second.run(t, nil, args...)
			if r.code != 1 || !strings.Contains(r.stderr, `belongs to sink "orders" of another state`) || !strings.Contains(r.stderr, "_streamctl/owner.json") {
				t.Errorf("%s from a second state: want exit 1 and the owner, got %s", args[0], r)
			}
		}
		if after := objectVersions(t, first.dest(t, "a")); !maps.Equal(before, after) {
			t.Errorf("the refused apply changed the destination:\nbefore %v\nafter  %v", before, after)
		}
		first.mustRun(t, 0, nil, "plan", "-detailed-exitcode", "-no-color")
		assertExactlyOnce(t, first.dest(t, "a"), expectedIDs(2, 1000))
	})
}

// TestTwoStatesRacingForOneDestinationOnObjectStores: two states starting
// at once on one empty prefix race for its owner record: one writes, the
// other is refused before it stages anything.
func TestTwoStatesRacingForOneDestinationOnObjectStores(t *testing.T) {
	t.Parallel()
	remoteStores(t, func(t *testing.T, s moveStore) {
		for round := range 2 {
			first := s.newCase(t, fmt.Sprint("race-", round, "-first"), driftConfig("", "a"))
			second := s.newCaseWriting(t, fmt.Sprint("race-", round, "-second"), strings.Replace(driftConfig("", "a"), "max_records = 500", "max_records = 700", 1), first)
			cases := []*moveCase{first, second}
			results := make([]result, 2)
			var wg sync.WaitGroup
			for i, c := range cases {
				wg.Go(func() { results[i] = c.run(t, nil, "apply", "-auto-approve", "-no-color") })
			}
			wg.Wait()
			won := raceWinner(t, round, results)
			cases[won].mustRun(t, 0, nil, "plan", "-detailed-exitcode", "-no-color")
			assertExactlyOnce(t, first.dest(t, "a"), expectedIDs(2, 1000))
		}
	})
}
