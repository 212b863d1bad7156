package gcs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
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

// TestManyOpenObjectsStayOutOfMemory: 32 objects written at once, as a batch
// writing 32 partition folders does, hold their bytes on disk, not in the
// heap.
func TestManyOpenObjectsStayOutOfMemory(t *testing.T) {
	srv := testenv.GCS(t)
	storagetest.ManyOpenObjects(t, mustNew(t, Config{Bucket: newBucket(t, srv), Endpoint: srv.Endpoint, Prefix: "orders"}), 24<<20)
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want []string // the attributes named, in order; none when valid
	}{
		{"minimal", Config{Bucket: "lake"}, nil},
		{"everything", Config{Bucket: "lake", Prefix: "a/b", Endpoint: "http://127.0.0.1:4443", ChunkSize: 16 << 20,
			CredentialsJSON: `{"type":"service_account","client_email":"w@p.iam.gserviceaccount.com"}`}, nil},
		{"no bucket", Config{}, []string{"bucket"}},
		{"bucket with a path", Config{Bucket: "lake/orders"}, []string{"bucket"}},
		{"bucket as a URL", Config{Bucket: "gs://lake/orders"}, []string{"bucket"}},
		{"credentials without a type", Config{Bucket: "lake", CredentialsJSON: "{}"}, []string{"credentials_json"}},
		{"dot-dot prefix", Config{Bucket: "lake", Prefix: "a/../b"}, []string{"prefix"}},
		{"endpoint without scheme", Config{Bucket: "lake", Endpoint: "127.0.0.1:4443"}, []string{"endpoint"}},
		{"credentials not JSON", Config{Bucket: "lake", CredentialsJSON: "/home/me/key.json"}, []string{"credentials_json"}},
		{"credentials of a user", Config{Bucket: "lake", CredentialsJSON: `{"type":"authorized_user"}`}, []string{"credentials_json"}},
		{"chunk too small", Config{Bucket: "lake", ChunkSize: 1000}, []string{"chunk_size"}},
		{"chunk not a multiple", Config{Bucket: "lake", ChunkSize: 300 << 10}, []string{"chunk_size"}},
		{"two mistakes", Config{Prefix: "..", ChunkSize: -1}, []string{"bucket", "prefix", "chunk_size"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			var got []string
			if err != nil {
				for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
					got = append(got, e.(*ConfigError).Attribute)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("Validate() = %v; want errors for %v", err, tc.want)
			}
			if tc.name == "bucket as a URL" && !strings.Contains(fmt.Sprint(err), "without gs://") {
				t.Errorf("a gs:// URL as the bucket: %v; want it told to drop gs://", err)
			}
			if err != nil && strings.Contains(err.Error(), "client_email") {
				t.Errorf("the message quotes the credentials: %v", err)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	for prefix, want := range map[string]string{"": "gs://lake", "/orders//prod/": "gs://lake/orders/prod"} {
		s := mustNew(t, Config{Bucket: "lake", Prefix: prefix, Endpoint: "http://127.0.0.1:1"})
		if got := s.Describe(); got != want {
			t.Errorf("prefix %q: Describe() = %q, want %q", prefix, got, want)
		}
	}
}

// TestGetOfAReplacedObjectFails: a body cut off after the object was
// replaced is not resumed from the new object's bytes.
func TestGetOfAReplacedObjectFails(t *testing.T) {
	srv := testenv.GCS(t)
	proxy := testenv.StartFaultProxy(t, srv.Endpoint)
	s := mustNew(t, Config{Bucket: newBucket(t, srv), Endpoint: proxy.Endpoint})
	ctx := context.Background()
	old := bytes.Repeat([]byte("old "), 256<<10)
	if err := providers.Put(ctx, s, "big", old); err != nil {
		t.Fatal(err)
	}
	cut := proxy.CutNextBody()
	r, _, err := s.Get(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := providers.Put(ctx, s, "big", bytes.Repeat([]byte("new "), 256<<10)); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	<-cut
	if err == nil {
		t.Fatalf("read an object replaced while its body was cut off: %d bytes, no error (new bytes: %v)", len(got), bytes.Contains(got, []byte("new ")))
	}
	if !strings.Contains(err.Error(), "replaced or deleted") {
		t.Errorf("error %q does not say the object changed", err)
	}
}
