package s3

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/internal/upload"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/storagetest"
)

// serverConfig is a Config for a bucket of srv.
func serverConfig(srv *testenv.S3Server, bucket, prefix string) Config {
	return Config{
		Bucket:         bucket,
		Prefix:         prefix,
		Region:         srv.Region,
		Endpoint:       srv.Endpoint,
		ForcePathStyle: true,
		AccessKey:      srv.AccessKey,
		SecretKey:      srv.SecretKey,
	}
}

func mustNew(t testing.TB, cfg Config, optFns ...func(*s3.Options)) *Storage {
	t.Helper()
	s, err := newStorage(context.Background(), cfg, optFns...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// recorder wraps the SDK's HTTP client to see the requests really sent: their
// number (retries included), their headers, and how many part uploads overlap.
type recorder struct {
	next s3.HTTPClient

	mu       sync.Mutex
	requests []*http.Request
	parts    int // part uploads in flight
	maxParts int
}

func (r *recorder) option(o *s3.Options) {
	r.next = o.HTTPClient
	o.HTTPClient = r
}

func (r *recorder) Do(req *http.Request) (*http.Response, error) {
	isPart := req.Method == http.MethodPut && req.URL.Query().Has("partNumber")
	r.mu.Lock()
	r.requests = append(r.requests, req)
	if isPart {
		r.parts++
		r.maxParts = max(r.maxParts, r.parts)
	}
	r.mu.Unlock()
	defer func() {
		if isPart {
			r.mu.Lock()
			r.parts--
			r.mu.Unlock()
		}
	}()
	return r.next.Do(req)
}

// matching returns the requests sent so far that match.
func (r *recorder) matching(match func(*http.Request) bool) []*http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*http.Request
	for _, req := range r.requests {
		if match(req) {
			out = append(out, req)
		}
	}
	return out
}

func (r *recorder) count(match func(*http.Request) bool) int { return len(r.matching(match)) }

func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests, r.maxParts = nil, 0
}

func every(*http.Request) bool { return true }

func isUploadPart(req *http.Request) bool {
	return req.Method == http.MethodPut && req.URL.Query().Has("partNumber") && req.Header.Get("X-Amz-Copy-Source") == ""
}

// versitygwQuirks: its conditional DELETE is not serialised with a
// conditional PUT (seen as both succeeding in 1 of 10 races, under load).
// Amazon S3 serialises them.
var versitygwQuirks = storagetest.Quirks{UnserialisedDeletes: true}

func TestStorage(t *testing.T) {
	srv := testenv.S3(t)
	srv.CreateBucket(t, "suite")
	var n atomic.Int64
	t.Run("Prefix", func(t *testing.T) {
		// A small threshold sends the suite's large object through the
		// multipart path; sibling prefixes (…/List and …/ListStops) check that
		// a storage sees nothing outside its own prefix.
		storagetest.RunWith(t, versitygwQuirks, func(t *testing.T) providers.Storage {
			cfg := serverConfig(srv, "suite", "/streams//"+t.Name()+"/")
			cfg.MultipartThreshold, cfg.PartSize = 5<<20, 5<<20
			return mustNew(t, cfg)
		})
	})
	t.Run("BucketRoot", func(t *testing.T) {
		storagetest.RunWith(t, versitygwQuirks, func(t *testing.T) providers.Storage {
			bucket := fmt.Sprintf("root-%d", n.Add(1))
			srv.CreateBucket(t, bucket)
			return mustNew(t, serverConfig(srv, bucket, ""))
		})
	})
	t.Run("IndependentClient", func(t *testing.T) {
		checkWithAWSCLI(t, srv, mustNew(t, serverConfig(srv, "suite", "")))
	})
	t.Run("Faults", func(t *testing.T) {
		proxy := testenv.StartFaultProxy(t, srv.Endpoint)
		storagetest.RunFaults(t, func(t *testing.T) providers.Storage {
			cfg := serverConfig(srv, "suite", "/faults/"+t.Name()+"/")
			cfg.Endpoint = proxy.Endpoint
			return mustNew(t, cfg)
		}, proxy)
	})
}

// checkWithAWSCLI lists the bucket of s with Debian's awscli and compares what it
// sees with s.List: same keys, same sizes.
func checkWithAWSCLI(t *testing.T, srv *testenv.S3Server, s *Storage) {
	bin, err := exec.LookPath("aws")
	if err != nil {
		bin = "/usr/bin/aws"
	}
	testenv.Require(t, bin, "aws (Debian awscli, the independent S3 client)")

	want := map[string]int64{}
	err = s.List(t.Context(), "", func(info providers.ObjectInfo) error {
		want[info.Key] = info.Size
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 10 {
		t.Fatalf("the suite left only %d objects: nothing to compare", len(want))
	}
	out := runAWS(t, bin, srv, "s3", "ls", "--recursive", "s3://"+s.bucket+"/")
	line := regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +(\d+) (.+)$`)
	got := map[string]int64{}
	for l := range strings.Lines(out) {
		m := line.FindStringSubmatch(strings.TrimRight(l, "\n"))
		if m == nil {
			t.Fatalf("aws s3 ls: unexpected line %q", l)
		}
		size, _ := strconv.ParseInt(m[1], 10, 64)
		got[m[2]] = size
	}
	for k, size := range want {
		if gs, ok := got[k]; !ok || gs != size {
			t.Errorf("aws s3 ls: %q: size %d, present %v; streamctl lists %d bytes", k, gs, ok, size)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("aws s3 ls shows %q, which List does not", k)
		}
	}
	// And the objects with a Hive partition key read back whole.
	var hive []string
	for k := range want {
		if strings.Contains(k, "country=") {
			hive = append(hive, k)
		}
	}
	if len(hive) == 0 {
		t.Fatal("no Hive partition key to read back")
	}
	slices.Sort(hive)
	for _, k := range hive[:min(2, len(hive))] { // awscli takes a second to start
		data, _, err := providers.ReadAll(t.Context(), s, k)
		if err != nil {
			t.Fatal(err)
		}
		if got := runAWS(t, bin, srv, "s3", "cp", "s3://"+s.bucket+"/"+k, "-"); got != string(data) {
			t.Errorf("aws s3 cp %s: %q; streamctl reads %q", k, got, data)
		}
	}
}

func runAWS(t *testing.T, bin string, srv *testenv.S3Server, args ...string) string {
	t.Helper()
	args = append([]string{"--endpoint-url", srv.Endpoint, "--region", srv.Region}, args...)
	cmd := exec.CommandContext(t.Context(), bin, args...)
	// Only the server's credentials: no profile or CA bundle of the machine.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, srv.Env()...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("aws %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

func TestBadCredentials(t *testing.T) {
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	good := mustNew(t, serverConfig(srv, "lake", "orders"))
	if err := providers.Put(t.Context(), good, "x.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, access, secret string
		// versitygw answers an unknown access key with a 404 (XAdminUserNotFound),
		// which a HEAD cannot tell from a missing object; AWS answers 403.
		headIs404 bool
	}{
		{"unknown access key", "nobody", "whatever-secret", true},
		{"wrong secret", srv.AccessKey, "not-the-secret", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := serverConfig(srv, "lake", "orders")
			cfg.AccessKey, cfg.SecretKey = tc.access, tc.secret
			var rec recorder
			s := mustNew(t, cfg, rec.option)
			ctx := t.Context()
			ops := []struct {
				op, loc string
				call    func() error
			}{
				{"put", "s3://lake/orders/_streamctl/orders/12.json", func() error {
					_, err := s.PutIfAbsent(ctx, "_streamctl/orders/12.json", []byte("{}"))
					return err
				}},
				{"put", "s3://lake/orders/x.json", func() error {
					return providers.Put(ctx, s, "x.json", []byte("{}"))
				}},
				{"get", "s3://lake/orders/x.json", func() error {
					_, _, err := providers.ReadAll(ctx, s, "x.json")
					return err
				}},
				{"stat", "s3://lake/orders/x.json", func() error {
					_, err := s.Stat(ctx, "x.json")
					return err
				}},
				{"list", "s3://lake/orders/", func() error {
					return s.List(ctx, "", func(providers.ObjectInfo) error { return nil })
				}},
				{"delete", "s3://lake/orders/x.json", func() error { return s.Delete(ctx, "x.json") }},
				{"copy", "s3://lake/orders/x.json to s3://lake/orders/y.json", func() error {
					return s.Copy(ctx, "x.json", "y.json")
				}},
			}
			for _, o := range ops {
				rec.reset()
				err := o.call()
				if o.op == "stat" && tc.headIs404 {
					if !errors.Is(err, providers.ErrNotExist) {
						t.Errorf("stat: versitygw's 404 gives %v", err)
					}
					continue
				}
				if err == nil {
					t.Fatalf("%s with bad credentials succeeded", o.op)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, o.op+" "+o.loc+": ") {
					t.Errorf("%s: error does not start with %q: %v", o.op, o.op+" "+o.loc, err)
				}
				if !strings.Contains(msg, "credentials") {
					t.Errorf("%s: error gives no hint about the credentials: %v", o.op, err)
				}
				if errors.Is(err, providers.ErrNotExist) {
					t.Errorf("%s: a refused request reads as a missing object: %v", o.op, err)
				}
				if n := rec.count(every); n != 1 {
					t.Errorf("%s: %d requests sent; a refused request must not be retried", o.op, n)
				}
			}
		})
	}
	// The object is still there.
	if _, _, err := providers.ReadAll(t.Context(), good, "x.json"); err != nil {
		t.Fatal(err)
	}
}

func TestNoCredentials(t *testing.T) {
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	// An empty chain: no keys, no profile, no instance metadata.
	for _, v := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
		"AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"} {
		t.Setenv(v, "")
	}
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_CONFIG_FILE", t.TempDir()+"/config")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", t.TempDir()+"/credentials")
	cfg := serverConfig(srv, "lake", "orders")
	cfg.AccessKey, cfg.SecretKey = "", ""
	var rec recorder
	s := mustNew(t, cfg, rec.option)
	_, err := s.Stat(t.Context(), "x.json")
	if err == nil || !strings.HasPrefix(err.Error(), "stat s3://lake/orders/x.json: no AWS credentials found: ") {
		t.Fatalf("got %v; want a missing-credentials error", err)
	}
	if n := rec.count(every); n != 0 {
		t.Errorf("%d requests sent without credentials", n)
	}

	// The environment is part of the chain: the one a child process gets.
	for _, kv := range srv.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	cfg.Region = ""
	s = mustNew(t, cfg)
	if err := providers.Put(t.Context(), s, "x.json", []byte("{}")); err != nil {
		t.Fatalf("with credentials in the environment: %v", err)
	}
}

func TestNotFoundErrors(t *testing.T) {
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	var rec recorder
	s := mustNew(t, serverConfig(srv, "lake", "orders/dev"), rec.option)
	_, err := s.Stat(t.Context(), "_streamctl/orders/12.json")
	if want := "stat s3://lake/orders/dev/_streamctl/orders/12.json: object does not exist"; err == nil || err.Error() != want {
		t.Errorf("got %v; want %s", err, want)
	}
	if n := rec.count(every); n != 1 {
		t.Errorf("%d requests sent: not-found must not be retried", n)
	}

	// A missing bucket is not a missing object: the run must stop.
	missing := mustNew(t, serverConfig(srv, "no-such-bucket", ""))
	for name, call := range map[string]func() error{
		"get": func() error { _, _, err := missing.Get(t.Context(), "k"); return err },
		"put": func() error { _, err := missing.PutIfAbsent(t.Context(), "k", nil); return err },
		"list": func() error {
			return missing.List(t.Context(), "", func(providers.ObjectInfo) error { return nil })
		},
	} {
		err := call()
		if err == nil || errors.Is(err, providers.ErrNotExist) || !strings.Contains(err.Error(), `bucket "no-such-bucket" does not exist`) {
			t.Errorf("%s in a missing bucket: got %v; want a missing-bucket error", name, err)
		}
	}
}

func TestServerDown(t *testing.T) {
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	cfg := serverConfig(srv, "lake", "orders")
	cfg.MaxAttempts = 3
	cfg.MultipartThreshold, cfg.PartSize = 5<<20, 5<<20
	var rec recorder
	s := mustNew(t, cfg, rec.option)
	ctx := t.Context()
	if err := providers.Put(ctx, s, "before.json", []byte("before")); err != nil {
		t.Fatal(err)
	}

	t.Run("request", func(t *testing.T) {
		srv.Stop()
		defer srv.Restart(t)
		rec.reset()
		start := time.Now()
		_, err := s.PutIfAbsent(ctx, "_streamctl/orders/12.json", []byte("{}"))
		elapsed := time.Since(start)
		if err == nil {
			t.Fatal("put to a stopped server succeeded")
		}
		var maxErr *retry.MaxAttemptsError
		if !errors.As(err, &maxErr) || maxErr.Attempt != 3 {
			t.Errorf("error does not carry the 3 attempts: %v", err)
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "put s3://lake/orders/_streamctl/orders/12.json: ") ||
			!strings.Contains(msg, "attempts, 3") {
			t.Errorf("error does not say what, where and how many attempts: %v", err)
		}
		if n := rec.count(every); n != 3 {
			t.Errorf("%d requests sent; want 3 attempts", n)
		}
		if elapsed > 20*time.Second {
			t.Errorf("giving up took %s", elapsed)
		}
	})
	// After a restart on the same port and data, the client works again.
	if _, _, err := providers.ReadAll(ctx, s, "before.json"); err != nil {
		t.Fatalf("after restart: %v", err)
	}

	t.Run("multipart", func(t *testing.T) {
		w, err := s.Create(ctx, "big.bin")
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		chunk := bytes.Repeat([]byte("z"), 64<<10)
		for range 6 << 20 / len(chunk) { // past the threshold: the upload has begun
			if _, err := w.Write(chunk); err != nil {
				t.Fatal(err)
			}
		}
		srv.Stop()
		defer srv.Restart(t)
		start := time.Now()
		for range 6 << 20 / len(chunk) {
			if _, err = w.Write(chunk); err != nil {
				break
			}
		}
		if commitErr := w.Commit(); commitErr == nil {
			t.Fatal("a multipart upload to a stopped server succeeded")
		} else if err == nil {
			err = commitErr
		}
		if !strings.HasPrefix(err.Error(), "put s3://lake/orders/big.bin") || !strings.Contains(err.Error(), "attempts") {
			t.Errorf("error does not say what, where and how many attempts: %v", err)
		}
		if time.Since(start) > 30*time.Second {
			t.Errorf("giving up took %s", time.Since(start))
		}
	})
	if _, err := s.Stat(ctx, "big.bin"); !errors.Is(err, providers.ErrNotExist) {
		t.Fatalf("after a failed upload: stat gives %v; want ErrNotExist", err)
	}

	t.Run("commit after a failed write", func(t *testing.T) {
		// The upload cannot start while the server is down: the bytes of that
		// Write are lost, so a Commit once the server is back must not publish
		// the rest.
		w, err := s.Create(ctx, "truncated.bin")
		if err != nil {
			t.Fatal(err)
		}
		defer w.Abort()
		if _, err := w.Write(make([]byte, 4<<20)); err != nil {
			t.Fatal(err)
		}
		srv.Stop()
		_, err = w.Write(make([]byte, 2<<20))
		srv.Restart(t)
		if err == nil {
			t.Fatal("write past the threshold to a stopped server succeeded")
		}
		if err := w.Commit(); err == nil {
			t.Fatal("commit after a failed write succeeded")
		}
		if _, err := s.Stat(ctx, "truncated.bin"); !errors.Is(err, providers.ErrNotExist) {
			t.Fatalf("stat gives %v; want ErrNotExist", err)
		}
	})
}

func TestMultipart(t *testing.T) {
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	cfg := serverConfig(srv, "lake", "orders")
	cfg.MultipartThreshold, cfg.PartSize = 5<<20, 5<<20
	cfg.SSE, cfg.StorageClass = "AES256", "STANDARD"
	var rec recorder
	s := mustNew(t, cfg, rec.option)
	ctx := t.Context()
	raw := srv.Client()

	uploads := func() int {
		out, err := raw.ListMultipartUploads(ctx, &s3.ListMultipartUploadsInput{Bucket: aws.String("lake")})
		if err != nil {
			t.Fatal(err)
		}
		return len(out.Uploads)
	}
	data := make([]byte, 12<<20)
	for i := range data {
		data[i] = byte(i * 7 / 5)
	}
	// write streams data in 64 KiB chunks and checks, before the last one, that
	// parts went out already.
	write := func(t *testing.T, key string) providers.ObjectWriter {
		w, err := s.Create(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(data); i += 64 << 10 {
			if _, err := w.Write(data[i : i+64<<10]); err != nil {
				w.Abort()
				t.Fatal(err)
			}
		}
		if n := uploads(); n != 1 {
			t.Errorf("%d multipart uploads in progress; want 1", n)
		}
		// Two full parts were handed to the background uploads by now.
		for deadline := time.Now().Add(10 * time.Second); rec.count(isUploadPart) < 2; {
			if time.Now().After(deadline) {
				t.Fatalf("%d parts sent before Commit; parts must upload while writing", rec.count(isUploadPart))
			}
			time.Sleep(10 * time.Millisecond)
		}
		if info, err := s.Stat(ctx, key); err != nil || info.Size == int64(len(data)) {
			t.Errorf("stat before commit: %+v, %v; want the previous object", info, err)
		}
		return w
	}

	t.Run("commit", func(t *testing.T) {
		rec.reset()
		if err := providers.Put(ctx, s, "part-00000000-00000.bin", []byte("replace me")); err != nil {
			t.Fatal(err)
		}
		w := write(t, "part-00000000-00000.bin")
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		got, info, err := providers.ReadAll(ctx, s, "part-00000000-00000.bin")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("read back %d bytes, differing from the %d written", len(got), len(data))
		}
		if n := rec.count(isUploadPart); n != 3 {
			t.Errorf("%d parts sent; want 3 of 5 MiB for 12 MiB", n)
		}
		if rec.maxParts > 2 {
			t.Errorf("%d parts in flight at once; want at most 2", rec.maxParts)
		}
		if n := uploads(); n != 0 {
			t.Errorf("%d multipart uploads remain after Commit", n)
		}
		var keys []string
		s.List(ctx, "", func(i providers.ObjectInfo) error { keys = append(keys, i.Key); return nil })
		if !slices.Equal(keys, []string{"part-00000000-00000.bin"}) {
			t.Errorf("list: %q; want the one object", keys)
		}
		// The multipart ETag is a version like any other.
		if _, err := s.PutIfMatch(ctx, "part-00000000-00000.bin", []byte("small"), info.Version); err != nil {
			t.Errorf("put-if-match with the multipart ETag %s: %v", info.Version, err)
		}
	})

	t.Run("abort", func(t *testing.T) {
		rec.reset()
		if err := providers.Put(ctx, s, "keep.bin", []byte("previous")); err != nil {
			t.Fatal(err)
		}
		w := write(t, "keep.bin")
		if err := w.Abort(); err != nil {
			t.Fatal(err)
		}
		if n := uploads(); n != 0 {
			t.Errorf("%d multipart uploads remain after Abort", n)
		}
		if got, _, err := providers.ReadAll(ctx, s, "keep.bin"); err != nil || string(got) != "previous" {
			t.Errorf("after Abort: %q, %v; want the previous object", got, err)
		}
	})

	t.Run("memory", func(t *testing.T) {
		// 60 MiB through a writer with a 5 MiB threshold and 5 MiB parts: what
		// it allocates is the threshold's buffer and three part buffers, reused,
		// not the object.
		const total = 60 << 20
		chunk := data[:64<<10]
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		w, err := s.Create(ctx, "memory.bin")
		if err != nil {
			t.Fatal(err)
		}
		for range total / len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				w.Abort()
				t.Fatal(err)
			}
		}
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		allocated := after.TotalAlloc - before.TotalAlloc
		t.Logf("allocated %d MiB to upload %d MiB", allocated>>20, total>>20)
		if allocated > total/2 {
			t.Errorf("allocated %d MiB to upload %d MiB: memory is not bounded", allocated>>20, total>>20)
		}
		if info, err := s.Stat(ctx, "memory.bin"); err != nil || info.Size != total {
			t.Errorf("stat: %+v, %v", info, err)
		}
	})

	t.Run("copy", func(t *testing.T) {
		// Copy part by part, as for sources over 5 GiB.
		big := mustNew(t, cfg, rec.option)
		big.copyInParts, big.copyPartSize = true, 5<<20
		if err := providers.Put(ctx, big, "src.bin", data); err != nil {
			t.Fatal(err)
		}
		if err := providers.Put(ctx, big, "dst.bin", []byte("replace me")); err != nil {
			t.Fatal(err)
		}
		rec.reset()
		if err := big.Copy(ctx, "src.bin", "dst.bin"); err != nil {
			t.Fatal(err)
		}
		isPartCopy := func(r *http.Request) bool { return r.Header.Get("X-Amz-Copy-Source-Range") != "" }
		if n := rec.count(isPartCopy); n != 3 {
			t.Errorf("%d UploadPartCopy requests; want 3", n)
		}
		if got, _, err := providers.ReadAll(ctx, big, "dst.bin"); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("copy read back: %d bytes, %v", len(got), err)
		}
		if n := uploads(); n != 0 {
			t.Errorf("%d multipart uploads remain after the copy", n)
		}
		if err := big.Copy(ctx, "missing.bin", "dst.bin"); !errors.Is(err, providers.ErrNotExist) {
			t.Errorf("copy of a missing source: %v; want ErrNotExist", err)
		}
	})

	// SSE and the storage class go with every write and copy.
	writes := func(r *http.Request) bool {
		q := r.URL.Query()
		return r.Method == http.MethodPut && !q.Has("partNumber") || r.Method == http.MethodPost && q.Has("uploads")
	}
	rec.reset()
	if err := providers.Put(ctx, s, "small.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutIfAbsent(ctx, "manifest.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := s.Copy(ctx, "small.json", "copy.json"); err != nil {
		t.Fatal(err)
	}
	if err := providers.Put(ctx, s, "big.bin", nil); err != nil {
		t.Fatal(err)
	}
	w := write(t, "big.bin")
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := rec.count(writes); n != 5 {
		t.Errorf("%d writes seen; want 5", n)
	}
	for _, r := range rec.matching(writes) {
		if r.Header.Get("X-Amz-Server-Side-Encryption") != "AES256" || r.Header.Get("X-Amz-Storage-Class") != "STANDARD" {
			t.Errorf("%s %s without sse or storage class: %v", r.Method, r.URL.Path, r.Header)
		}
	}
}

func TestPrefix(t *testing.T) {
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	s := mustNew(t, serverConfig(srv, "lake", "/orders//dev/"))
	if got := s.Describe(); got != "s3://lake/orders/dev" {
		t.Errorf("Describe = %q", got)
	}
	ctx := t.Context()
	if err := providers.Put(ctx, s, "a/b.json", []byte("x")); err != nil {
		t.Fatal(err)
	}
	raw := srv.Client()
	if _, err := raw.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String("lake"), Key: aws.String("orders/dev/a/b.json")}); err != nil {
		t.Errorf("the object is not at orders/dev/a/b.json: %v", err)
	}
	// A sibling prefix that starts the same is outside the storage.
	for _, k := range []string{"orders/dev2/a/b.json", "orders/devx", "orders/de"} {
		if _, err := raw.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("lake"), Key: aws.String(k), Body: strings.NewReader("y")}); err != nil {
			t.Fatal(err)
		}
	}
	var keys []string
	if err := s.List(ctx, "", func(i providers.ObjectInfo) error { keys = append(keys, i.Key); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(keys, []string{"a/b.json"}) {
		t.Errorf("list: %q; want [a/b.json]", keys)
	}
	for _, key := range []string{"", "/a", "a//b", "a/../b", "./a", "a/"} {
		if err := providers.Put(ctx, s, key, nil); err == nil {
			t.Errorf("put of the invalid key %q succeeded", key)
		}
	}
}

func TestValidate(t *testing.T) {
	ok := Config{Bucket: "lake"}
	for _, tc := range []struct {
		name string
		edit func(*Config)
		attr string // the attribute the error names; "" for valid
	}{
		{"minimal", func(c *Config) {}, ""},
		{"everything", func(c *Config) {
			*c = Config{Bucket: "lake", Prefix: "orders/dev", Region: "eu-west-1", Endpoint: "https://s3.example:9000",
				ForcePathStyle: true, SSE: "aws:kms", KMSKeyID: "arn:aws:kms:eu-west-1:1:key/x", StorageClass: "STANDARD_IA",
				MultipartThreshold: 8 << 20, PartSize: 5 << 20, MaxAttempts: 10}
		}, ""},
		{"sse AES256", func(c *Config) { c.SSE = "AES256" }, ""},
		{"sse kms without key", func(c *Config) { c.SSE = "aws:kms" }, ""},
		{"static credentials", func(c *Config) { c.AccessKey, c.SecretKey = "a", "b" }, ""},
		{"no bucket", func(c *Config) { c.Bucket = "" }, "bucket"},
		{"bucket with path", func(c *Config) { c.Bucket = "lake/orders" }, "bucket"},
		{"sse lowercase", func(c *Config) { c.SSE = "aes256" }, "sse"},
		{"sse unknown", func(c *Config) { c.SSE = "aws:kms:dsse" }, "sse"},
		{"kms key without kms", func(c *Config) { c.KMSKeyID = "k" }, "kms_key_id"},
		{"kms key with AES256", func(c *Config) { c.SSE, c.KMSKeyID = "AES256", "k" }, "kms_key_id"},
		{"access key alone", func(c *Config) { c.AccessKey = "a" }, "access_key"},
		{"secret key alone", func(c *Config) { c.SecretKey = "b" }, "access_key"},
		{"profile and keys", func(c *Config) { c.Profile, c.AccessKey, c.SecretKey = "p", "a", "b" }, "profile"},
		{"part size too small", func(c *Config) { c.PartSize = 5<<20 - 1 }, "part_size"},
		{"part size too large", func(c *Config) { c.PartSize = 5<<30 + 1 }, "part_size"},
		{"threshold negative", func(c *Config) { c.MultipartThreshold = -1 }, "multipart_threshold"},
		{"threshold over 5 GiB", func(c *Config) { c.MultipartThreshold = 6 << 30 }, "multipart_threshold"},
		{"max attempts negative", func(c *Config) { c.MaxAttempts = -1 }, "max_attempts"},
		{"endpoint without scheme", func(c *Config) { c.Endpoint = "127.0.0.1:9000" }, "endpoint"},
		{"prefix with dot-dot", func(c *Config) { c.Prefix = "a/../b" }, "prefix"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			err := c.Validate()
			if tc.attr == "" {
				if err != nil {
					t.Fatalf("valid config refused: %v", err)
				}
				return
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Attribute != tc.attr {
				t.Fatalf("got %v; want an error about %s", err, tc.attr)
			}
			if _, err := New(context.Background(), c); err == nil {
				t.Error("New accepted an invalid config")
			}
		})
	}
	// Every problem is reported at once.
	err := Config{SSE: "x", PartSize: 1}.Validate()
	var n int
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		if _, ok := e.(*ConfigError); ok {
			n++
		}
	}
	if n != 3 {
		t.Errorf("got %d problems (%v); want 3", n, err)
	}
}

// A batch staging many large files at once (one per partition folder) holds
// little memory: past 256 KiB each object waits in a temporary file.
func TestManyOpenObjectsStayOutOfMemory(t *testing.T) {
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	storagetest.ManyOpenObjects(t, mustNew(t, serverConfig(srv, "lake", "orders")), 24<<20)
}

// A batch staging thousands of small files (one per partition folder) sends
// each with one PutObject at publication, not a multipart upload of three
// requests, as long as their bytes fit the memory budget; past it the rest
// are multipart uploads, and every object arrives.
func TestManySmallStagedObjectsOneRequestEach(t *testing.T) {
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	rec := &recorder{}
	s := mustNew(t, serverConfig(srv, "lake", "orders"), rec.option)
	s.waiting.Memory = &upload.Memory{Max: 800 * 4096} // room for 800 of the 1,200 below
	const n = 1200
	body := func(i int) []byte { return bytes.Repeat([]byte{byte(i)}, 4000+i%96) }
	var staged []providers.Staged
	for i := range n {
		w, err := s.Stage(t.Context(), fmt.Sprintf("day=%04d/part-00000001-0.parquet", i), providers.StageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(body(i)); err != nil {
			t.Fatal(err)
		}
		u, err := w.Finish()
		if err != nil {
			t.Fatal(err)
		}
		staged = append(staged, u)
	}
	for _, u := range staged {
		if err := u.Publish(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	creates := rec.count(func(r *http.Request) bool { return r.Method == http.MethodPost && r.URL.Query().Has("uploads") })
	puts := rec.count(func(r *http.Request) bool { return r.Method == http.MethodPut && !r.URL.Query().Has("partNumber") })
	if puts < 800 || puts > 819 || puts+creates != n { // 4,000 to 4,095 bytes each
		t.Errorf("%d single PUTs and %d multipart uploads for %d small objects, want about 800 PUTs (the budget) and the rest multipart", puts, creates, n)
	}
	for i := 0; i < n; i += 97 {
		data, _, err := providers.ReadAll(t.Context(), s, fmt.Sprintf("day=%04d/part-00000001-0.parquet", i))
		if err != nil || !bytes.Equal(data, body(i)) {
			t.Fatalf("object %d: %d bytes, %v", i, len(data), err)
		}
	}
	// Given back: as many again fit.
	if !s.waiting.Take(800*4096, true) {
		t.Error("after publication the budget has not the room it had")
	}
}
