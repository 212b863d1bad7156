package e2e

// The Google Cloud Storage proof of issue 32, against fake-gcs-server
// started by the test: the crash test with a GCS destination and the state
// in GCS, killed at every fault point.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/gcs"
)

// gcsDestination is a destination block for a bucket of srv, named by its
// endpoint.
func gcsDestination(srv *testenv.GCSServer, name, bucket, prefix string) string {
	return fmt.Sprintf(`
  destination "gcs" %q {
    bucket   = %q
    prefix   = %q
    endpoint = %q
  }
`, name, bucket, prefix, srv.Endpoint)
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
				gcsDestination(srv, "lake", bucket, "lake/orders")))
			crashAndRecover(t, remoteCase{
				dir:   dir,
				env:   srv.Env(),
				state: gcsStorage(t, srv, bucket, ""),
				dests: map[string]providers.Storage{"lake": gcsStorage(t, srv, bucket, "lake/orders")},
			}, fp)
		})
	}
}
