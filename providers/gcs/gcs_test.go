package gcs

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/storagetest"
)

var buckets atomic.Int64

// newBucket creates an empty bucket on srv.
func newBucket(t *testing.T, srv *testenv.GCSServer) string {
	name := fmt.Sprintf("streamctl-test-%d", buckets.Add(1))
	srv.CreateBucket(t, name)
	return name
}

func mustNew(t *testing.T, cfg Config) *Storage {
	t.Helper()
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// postNetwork names the requests a fault hits as GCS sends them: the
// suite's writes ("PUT") are uploads, POST in the JSON API.
type postNetwork struct{ *testenv.FaultProxy }

func (n postNetwork) DropNextAnswer(method string) <-chan struct{} {
	if method == "PUT" {
		method = "POST"
	}
	return n.FaultProxy.DropNextAnswer(method)
}

// fakeGCSQuirks: fake-gcs-server ignores ifGenerationMatch on delete and
// checks the generation named by generation= before it deletes, without
// holding its lock across both, so a conditional delete racing a write at
// the same generation may both succeed. Uploads honour ifGenerationMatch,
// atomically. The service itself checks both atomically.
var fakeGCSQuirks = storagetest.Quirks{UnserialisedDeletes: true}

func TestConformance(t *testing.T) {
	srv := testenv.GCS(t)
	t.Run("bucket", func(t *testing.T) {
		storagetest.RunWith(t, fakeGCSQuirks, func(t *testing.T) providers.Storage {
			return mustNew(t, Config{Bucket: newBucket(t, srv), Endpoint: srv.Endpoint})
		})
	})
	// A prefix (keys must come back relative to it) and the smallest
	// chunks, so that the suite's 20 MiB object is uploaded in 80 requests.
	t.Run("prefix-small-chunks", func(t *testing.T) {
		storagetest.RunWith(t, fakeGCSQuirks, func(t *testing.T) providers.Storage {
			return mustNew(t, Config{Bucket: newBucket(t, srv), Endpoint: srv.Endpoint, Prefix: "/lake/orders/", ChunkSize: minChunkSize})
		})
	})
	// The emulator found through the environment, as the client libraries
	// (and the streamctl binary in the end-to-end tests) find it.
	t.Run("emulator-env", func(t *testing.T) {
		t.Setenv(EnvEmulatorHost, srv.Env()[0][len(EnvEmulatorHost)+1:])
		storagetest.RunWith(t, fakeGCSQuirks, func(t *testing.T) providers.Storage {
			return mustNew(t, Config{Bucket: newBucket(t, srv), Prefix: "p"})
		})
	})
	t.Run("faults", func(t *testing.T) {
		proxy := testenv.StartFaultProxy(t, srv.Endpoint)
		storagetest.RunFaults(t, func(t *testing.T) providers.Storage {
			return mustNew(t, Config{Bucket: newBucket(t, srv), Endpoint: proxy.Endpoint})
		}, postNetwork{proxy})
	})
}
