package e2e

// The Google Cloud Storage proof of issue 32, against fake-gcs-server
// started by the test: the crash tests with a GCS destination and the state
// in GCS, killed at every fault point and at random, and the lost answers
// of faults_test.go.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/gcs"
	"github.com/streamctl/streamctl/state"
)

// gcsDestination is a destination block for a bucket of the emulator at
// endpoint.
func gcsDestination(endpoint, name, bucket, prefix string) string {
	return fmt.Sprintf(`
  destination "gcs" %q {
    bucket   = %q
    prefix   = %q
    endpoint = %q
  }
`, name, bucket, prefix, endpoint)
}

// gcsStateBlock keeps the state in a bucket of srv, at remoteStateKey. It
// names no endpoint: the binary finds the emulator by STORAGE_EMULATOR_HOST
// (srv.Env), as the Google client libraries do.
func gcsStateBlock(bucket string) string {
	return fmt.Sprintf(`
streamctl {
  state "gcs" {
    bucket = %q
    key    = %q
  }
}
`, bucket, remoteStateKey)
}

// gcsStorage opens a bucket of srv (rooted at prefix) to inspect what
// landed, through the same provider streamctl uses.
func gcsStorage(t testing.TB, srv *testenv.GCSServer, bucket, prefix string) providers.Storage {
	t.Helper()
	st, err := gcs.New(context.Background(), gcs.Config{Bucket: bucket, Prefix: prefix, Endpoint: srv.Endpoint})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestGCSCrashAtEveryFaultPoint: a sink writing to Google Cloud Storage,
// its state in GCS, killed at each fault point of the protocol.
func TestGCSCrashAtEveryFaultPoint(t *testing.T) {
	t.Parallel()
	srv := testenv.GCS(t)
	for i, fp := range remoteFaultPoints {
		t.Run(strings.ReplaceAll(fp, ":", "_"), func(t *testing.T) {
			t.Parallel()
			bucket := bucketName("fault-", i, "-", fp)
			srv.CreateBucket(t, bucket)
			dir := writeConfig(t, streamConfig(gcsStateBlock(bucket), 3, 1500, 500,
				gcsDestination(srv.Endpoint, "lake", bucket, "lake/orders")))
			crashAndRecover(t, remoteCase{
				dir:   dir,
				env:   srv.Env(),
				state: gcsStorage(t, srv, bucket, ""),
				dests: map[string]providers.Storage{"lake": gcsStorage(t, srv, bucket, "lake/orders")},
			}, fp)
		})
	}
}

// gcsCase is a sink writing to one GCS destination with its state in GCS,
// in a fresh bucket of srv; endpoint is where streamctl reaches srv (srv's
// own, or a proxy's).
func gcsCase(t *testing.T, srv *testenv.GCSServer, endpoint, bucket string, partitions int, maxRecords, maxFileRecords int64) remoteCase {
	t.Helper()
	srv.CreateBucket(t, bucket)
	return remoteCase{
		dir: writeConfig(t, streamConfig(gcsStateBlock(bucket), partitions, maxRecords, maxFileRecords,
			gcsDestination(endpoint, "lake", bucket, "orders"))),
		env:   []string{"STORAGE_EMULATOR_HOST=" + strings.TrimPrefix(endpoint, "http://")},
		state: gcsStorage(t, srv, bucket, ""),
		dests: map[string]providers.Storage{"lake": gcsStorage(t, srv, bucket, "orders")},
	}
}

// TestGCSRandomKills: 20 random kills of applies writing to GCS with the
// state in GCS.
func TestGCSRandomKills(t *testing.T) {
	t.Parallel()
	srv := testenv.GCS(t)
	randomKills(t, gcsCase(t, srv, srv.Endpoint, "kills", 2, 800, 400), 20261205, 20, nil)
}

// uploadName is the object a GCS upload writes: the JSON API names it in
// the metadata that comes first in the body.
var uploadName = regexp.MustCompile(`"name":"([^"]*)"`)

func gcsUploadWhere(named func(string) bool) func(*http.Request) bool {
	return func(r *http.Request) bool {
		if r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/upload/storage/v1/") || r.GetBody == nil {
			return false
		}
		body, err := r.GetBody()
		if err != nil {
			return false
		}
		data, _ := io.ReadAll(body)
		m := uploadName.FindSubmatch(data)
		return m != nil && named(string(m[1]))
	}
}

func gcsUploadOf(name string) func(*http.Request) bool {
	return gcsUploadWhere(func(n string) bool { return n == name })
}

// gcsObjectGet matches a read of an object's bytes (not of its metadata).
func gcsObjectGet(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.Query().Get("alt") == "media"
}

// gcsFaults are remoteFaults as the requests go to GCS: uploads are POSTs
// naming their object in the body.
func gcsFaults(stateKey string) []faultCase {
	return []faultCase{
		{"the answer to the lock create is lost", testenv.DropAnswer, gcsUploadOf(state.SinksPrefix(stateKey) + "orders.lock"), 0},
		{"the answer to a sink document's compare-and-swap is lost", testenv.DropAnswer, gcsUploadOf(state.SinksPrefix(stateKey) + "orders.json"), 0},
		{"the answer to a manifest create is lost", testenv.DropAnswer, gcsUploadWhere(func(n string) bool {
			return strings.HasSuffix(n, ".json") && strings.Contains(n, "/_streamctl/orders/")
		}), 0},
		{"the body of the state is cut off", testenv.CutBody, func(r *http.Request) bool { return gcsObjectGet(r) && strings.HasSuffix(r.URL.Path, "/"+stateKey) }, 0},
		{"the body of the lock is cut off as it is released", testenv.CutBody, func(r *http.Request) bool { return gcsObjectGet(r) && strings.HasSuffix(r.URL.Path, ".lock") }, 0},
		{"the answer to the unlock is lost", testenv.DropAnswer, func(r *http.Request) bool {
			return r.Method == http.MethodDelete && strings.HasSuffix(r.URL.Path, ".lock")
		}, 0},
		{"a heartbeat answer is slower than the heartbeat interval", testenv.Slow, gcsUploadOf(state.SinksPrefix(stateKey) + "orders.lock"), time.Second},
	}
}

// TestGCSLostAnswers: the lost answers, cut bodies and slow heartbeat of
// TestS3LostAnswers, between streamctl and fake-gcs-server.
func TestGCSLostAnswers(t *testing.T) {
	t.Parallel()
	srv := testenv.GCS(t)
	proxy := testenv.StartFaultProxy(t, srv.Endpoint)
	c := gcsCase(t, srv, proxy.Endpoint, "faults", 2, 800, 400)
	lostAnswers(t, c, proxy, gcsFaults(remoteStateKey))
}
