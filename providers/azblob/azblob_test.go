package azblob

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/sas"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/service"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/storagetest"
)

var containerSeq atomic.Int64

// newContainer creates a container of its own for a storage under test.
func newContainer(t testing.TB, srv *testenv.AzuriteServer) string {
	name := fmt.Sprintf("t%05d-%d", containerSeq.Add(1), os.Getpid()%100000)
	srv.CreateContainer(t, name)
	return name
}

// keyConfig is a shared-key configuration of a new container.
func keyConfig(t testing.TB, srv *testenv.AzuriteServer) Config {
	return Config{AccountURL: srv.BlobURL, Container: newContainer(t, srv), SharedKey: srv.AccountKey}
}

func newStorage(t testing.TB, cfg Config) *Storage {
	t.Helper()
	s, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("new: %v", err)
	}
	return s
}

// accountSAS is an account SAS token granting everything on blobs for an hour.
func accountSAS(t testing.TB, srv *testenv.AzuriteServer, perms sas.AccountPermissions) string {
	t.Helper()
	cred, err := service.NewSharedKeyCredential(srv.AccountName, srv.AccountKey)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.NewClientWithSharedKeyCredential(srv.BlobURL+"/", cred, nil)
	if err != nil {
		t.Fatal(err)
	}
	u, err := svc.GetSASURL(sas.AccountResourceTypes{Service: true, Container: true, Object: true}, perms, time.Now().Add(time.Hour), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, query, _ := strings.Cut(u, "?")
	return query
}

var allPerms = sas.AccountPermissions{Read: true, Add: true, Create: true, Write: true, Delete: true, List: true}

func TestConformance(t *testing.T) {
	srv := testenv.Azurite(t)
	t.Run("shared-key", func(t *testing.T) {
		storagetest.Run(t, func(t *testing.T) providers.Storage {
			return newStorage(t, keyConfig(t, srv))
		})
	})
	// A SAS, a prefix (keys must come back relative to it) and small blocks, so
	// that the 20 MiB object of the suite is committed from hundreds of blocks.
	sasToken := accountSAS(t, srv, allPerms)
	t.Run("sas-prefix-small-blocks", func(t *testing.T) {
		storagetest.Run(t, func(t *testing.T) providers.Storage {
			return newStorage(t, Config{
				AccountURL: srv.BlobURL, Container: newContainer(t, srv), SASToken: sasToken,
				Prefix: "/lake/orders/", BlockSize: MinBlockSize,
			})
		})
	})
	t.Run("faults", func(t *testing.T) {
		proxy := testenv.StartFaultProxy(t, srv.BlobURL)
		storagetest.RunFaults(t, func(t *testing.T) providers.Storage {
			cfg := keyConfig(t, srv)
			cfg.AccountURL = proxy.Endpoint + "/" + srv.AccountName
			return newStorage(t, cfg)
		}, proxy)
	})
	// A connection string from the environment, as the streamctl binary gets it.
	t.Run("connection-string-env", func(t *testing.T) {
		t.Setenv(EnvConnectionString, srv.ConnectionString)
		storagetest.Run(t, func(t *testing.T) providers.Storage {
			return newStorage(t, Config{Container: newContainer(t, srv), Prefix: "p"})
		})
	})
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{AccountName: "lakeus", Container: "orders"}, "azblob://lakeus/orders"},
		{Config{AccountURL: "https://lakeus.blob.core.windows.net/", Container: "orders", Prefix: "/a/b/"}, "azblob://lakeus/orders/a/b"},
		{Config{AccountURL: "http://127.0.0.1:10000/devstoreaccount1", Container: "c01", SharedKey: emulatorKey}, "azblob://devstoreaccount1/c01"},
	} {
		s := newStorage(t, tc.cfg)
		if got := s.Describe(); got != tc.want {
			t.Errorf("Describe() = %q, want %q", got, tc.want)
		}
	}
}

// TestWrongSharedKey: the service refuses the key; the error says so at once
// (no retries), names the account, container, blob and operation, and does not
// print the key.
func TestWrongSharedKey(t *testing.T) {
	srv := testenv.Azurite(t)
	cfg := keyConfig(t, srv)
	wrong := []byte(srv.AccountKey)
	copy(wrong, "WRONGKEYWRONGKEY")
	cfg.SharedKey = string(wrong)
	s := newStorage(t, cfg)

	ops := map[string]func() error{
		"put-if-absent": func() error { _, err := s.PutIfAbsent(t.Context(), "_streamctl/s/0.json", []byte("{}")); return err },
		"stat":          func() error { _, err := s.Stat(t.Context(), "_streamctl/s/0.json"); return err },
		"list":          func() error { return s.List(t.Context(), "", func(providers.ObjectInfo) error { return nil }) },
		"put":           func() error { return providers.Put(t.Context(), s, "x", []byte("x")) },
	}
	for op, fn := range ops {
		t.Run(op, func(t *testing.T) {
			start := time.Now()
			err := fn()
			if err == nil {
				t.Fatal("a wrong key was accepted")
			}
			msg := err.Error()
			t.Log(msg)
			for _, want := range []string{op + " ", "azblob://devstoreaccount1/" + cfg.Container, "403", "not retried", "shared_key"} {
				if !strings.Contains(msg, want) {
					t.Errorf("the error does not say %q", want)
				}
			}
			for _, secret := range []string{cfg.SharedKey, srv.AccountKey, cfg.SharedKey[:20]} {
				if strings.Contains(msg, secret) {
					t.Errorf("the error prints the key")
				}
			}
			if errors.Is(err, providers.ErrNotExist) || errors.Is(err, providers.ErrExist) {
				t.Errorf("an authentication error maps to a sentinel: %v", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %s: retried?", d)
			}
		})
	}
}

// TestServiceDown: with the service gone, an operation fails within a bounded
// time, saying how many attempts it made; once the service is back, what was
// written before is there.
func TestServiceDown(t *testing.T) {
	srv := testenv.Azurite(t)
	cfg := keyConfig(t, srv)
	cfg.MaxAttempts = 3
	s := newStorage(t, cfg)
	if _, err := s.PutIfAbsent(t.Context(), "state.json", []byte("serial 1")); err != nil {
		t.Fatal(err)
	}
	srv.Stop()

	start := time.Now()
	_, err := s.Stat(t.Context(), "state.json")
	elapsed := time.Since(start)
	if err == nil {
		t.Fatal("stat succeeded with the service down")
	}
	t.Log(err)
	for _, want := range []string{"stat azblob://devstoreaccount1/" + cfg.Container + "/state.json", "after 3 attempts", "connection refused"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q", want)
		}
	}
	if errors.Is(err, providers.ErrNotExist) {
		t.Error("an unreachable service maps to ErrNotExist")
	}
	// Backoffs of 0.5 s and 1.5 s, with jitter of -20% to +30%.
	if elapsed < 1600*time.Millisecond || elapsed > 10*time.Second {
		t.Errorf("gave up after %s; want the two backoffs of about 2 s", elapsed)
	}

	w, err := s.Create(t.Context(), "big")
	if err != nil {
		t.Fatal(err)
	}
	w.Write(make([]byte, 10))
	if err := w.Commit(); err == nil || !strings.Contains(err.Error(), "after 3 attempts") {
		t.Errorf("commit with the service down: %v", err)
	}

	srv.Restart(t)
	data, _, err := providers.ReadAll(t.Context(), s, "state.json")
	if err != nil || string(data) != "serial 1" {
		t.Fatalf("after restart: %q, %v", data, err)
	}
}

// TestStreamedWrite writes 20 MiB in 4 MiB blocks: nothing is visible until
// Commit, the blob is committed from its five blocks at once, reads back
// intact, and the writer never held the whole object.
func TestStreamedWrite(t *testing.T) {
	srv := testenv.Azurite(t)
	cfg := keyConfig(t, srv)
	cfg.BlockSize = 4 << 20
	s := newStorage(t, cfg)

	const size = 20 << 20
	data := make([]byte, size)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	w, err := s.Create(t.Context(), "big/part-00000001-00000.parquet")
	if err != nil {
		t.Fatal(err)
	}
	storagetest.WriteOddSizes(t, w, data)
	runtime.ReadMemStats(&after)
	// Three blocks (one filling, two in flight) and the first small buffer.
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("writing 20 MiB allocated %.1f MiB", float64(alloc)/(1<<20))
	if alloc > 3*4<<20+4<<20 {
		t.Errorf("writing 20 MiB allocated %d MiB: the writer does not stream", alloc>>20)
	}

	if _, err := s.Stat(t.Context(), "big/part-00000001-00000.parquet"); !errors.Is(err, providers.ErrNotExist) {
		t.Fatalf("before commit: stat says %v; want ErrNotExist", err)
	}
	bb := s.blockBlob(s.prefix + "big/part-00000001-00000.parquet")
	staged, err := bb.GetBlockList(t.Context(), blockblob.BlockListTypeUncommitted, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Four full blocks were handed over, at most two may still be in flight.
	if n := len(staged.UncommittedBlocks); n < 2 {
		t.Errorf("%d blocks staged before commit; want at least 2 (the writer stages while it is written)", n)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}

	list, err := bb.GetBlockList(t.Context(), blockblob.BlockListTypeAll, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.CommittedBlocks) != 5 || len(list.UncommittedBlocks) != 0 {
		t.Errorf("committed %d blocks, %d left uncommitted; want 5 and 0", len(list.CommittedBlocks), len(list.UncommittedBlocks))
	}
	for i, b := range list.CommittedBlocks {
		if *b.Size != 4<<20 {
			t.Errorf("block %d has %d bytes", i, *b.Size)
		}
	}
	got, info, err := providers.ReadAll(t.Context(), s, "big/part-00000001-00000.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if info.Size != size || sha256.Sum256(got) != sha256.Sum256(data) {
		t.Fatalf("read back %d bytes that differ from the %d written", len(got), size)
	}

	// The same bytes written again give the same block IDs: a redone batch
	// does not pile up uncommitted blocks.
	w, _ = s.Create(t.Context(), "big/part-00000001-00000.parquet")
	w.Write(data)
	if err := w.(*writer).stageAll(); err != nil {
		t.Fatal(err)
	}
	again, err := bb.GetBlockList(t.Context(), blockblob.BlockListTypeAll, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := func(blocks []*blockblob.Block) []string {
		var out []string
		for _, b := range blocks {
			out = append(out, *b.Name)
		}
		slices.Sort(out)
		return out
	}
	if first, second := names(list.CommittedBlocks), names(again.UncommittedBlocks); !slices.Equal(first, second) {
		t.Errorf("block IDs differ the second time:\n %q\n %q", first, second)
	}
	w.Abort()
}

// TestAbortMultiBlock: blocks already staged when a writer aborts never become
// visible, and an object being replaced keeps its content.
func TestAbortMultiBlock(t *testing.T) {
	srv := testenv.Azurite(t)
	cfg := keyConfig(t, srv)
	cfg.BlockSize = MinBlockSize
	s := newStorage(t, cfg)
	if err := providers.Put(t.Context(), s, "old", []byte("old content")); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"new", "old"} {
		w, err := s.Create(t.Context(), key)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(make([]byte, 5*MinBlockSize+1)); err != nil {
			t.Fatal(err)
		}
		if err := w.(*writer).stageAll(); err != nil {
			t.Fatal(err)
		}
		if err := w.Abort(); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); err == nil {
			t.Error("commit after abort succeeded")
		}
	}
	if _, err := s.Stat(t.Context(), "new"); !errors.Is(err, providers.ErrNotExist) {
		t.Errorf("aborted new object: stat says %v", err)
	}
	got, _, err := providers.ReadAll(t.Context(), s, "old")
	if err != nil || string(got) != "old content" {
		t.Errorf("aborted replacement: %q, %v", got, err)
	}
	var keys []string
	s.List(t.Context(), "", func(i providers.ObjectInfo) error { keys = append(keys, i.Key); return nil })
	if !slices.Equal(keys, []string{"old"}) {
		t.Errorf("list: %q", keys)
	}
}

func TestAccessTier(t *testing.T) {
	srv := testenv.Azurite(t)
	cfg := keyConfig(t, srv)
	cfg.AccessTier = "cool"
	cfg.BlockSize = MinBlockSize
	s := newStorage(t, cfg)
	ctx := t.Context()
	if err := providers.Put(ctx, s, "small", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := providers.Put(ctx, s, "large", make([]byte, 3*MinBlockSize)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutIfAbsent(ctx, "manifest", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	// Written Hot by another client, then copied: the copy is Cool.
	if _, err := s.blockBlob("hot").Upload(ctx, body([]byte("h")), &blockblob.UploadOptions{Tier: to.Ptr(blob.AccessTierHot)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Copy(ctx, "hot", "copied"); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"small", "large", "manifest", "copied"} {
		p, err := s.client.NewBlobClient(key).GetProperties(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p.AccessTier == nil || *p.AccessTier != "Cool" {
			t.Errorf("%s: access tier %v, want Cool", key, p.AccessTier)
		}
	}
}

func TestListPagesAndDirectories(t *testing.T) {
	srv := testenv.Azurite(t)
	cfg := keyConfig(t, srv)
	cfg.Prefix = "root"
	s := newStorage(t, cfg)
	s.listPageSize = 2
	ctx := t.Context()
	var want []string
	for i := range 7 {
		key := fmt.Sprintf("dir/%d", i)
		want = append(want, key)
		if err := providers.Put(ctx, s, key, []byte(key)); err != nil {
			t.Fatal(err)
		}
	}
	// Outside the prefix, and a directory entry of a hierarchical namespace.
	if _, err := s.blockBlob("rootless").Upload(ctx, body(nil), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.blockBlob("root/dir").Upload(ctx, body(nil), &blockblob.UploadOptions{
		Metadata: map[string]*string{"hdi_isfolder": to.Ptr("true")},
	}); err != nil {
		t.Fatal(err)
	}
	var got []string
	err := s.List(ctx, "", func(info providers.ObjectInfo) error {
		got = append(got, info.Key)
		st, err := s.Stat(ctx, info.Key)
		if err != nil || st.Version != info.Version || st.Size != info.Size || !st.ModTime.Equal(info.ModTime) {
			t.Errorf("list gives %+v, stat %+v, %v", info, st, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("list:\n got  %q\n want %q", got, want)
	}
}

func TestContainerMissing(t *testing.T) {
	srv := testenv.Azurite(t)
	s := newStorage(t, Config{AccountURL: srv.BlobURL, Container: "nosuchcontainer", SharedKey: srv.AccountKey})
	_, err := s.Stat(t.Context(), "x")
	if err == nil || errors.Is(err, providers.ErrNotExist) {
		t.Fatalf("stat in a missing container: %v; want an error other than ErrNotExist", err)
	}
	if !strings.Contains(err.Error(), `container "nosuchcontainer" does not exist`) {
		t.Errorf("unclear: %v", err)
	}
	if err := s.Delete(t.Context(), "x"); err == nil {
		t.Error("delete in a missing container succeeded")
	}
}

// TestRclone reads what the storage wrote with an independent client.
func TestRclone(t *testing.T) {
	rclone := "/usr/bin/rclone"
	testenv.Require(t, rclone, "rclone (Debian package rclone)")
	srv := testenv.Azurite(t)
	cfg := keyConfig(t, srv)
	cfg.Prefix = "lake/orders"
	cfg.BlockSize = MinBlockSize
	s := newStorage(t, cfg)
	ctx := t.Context()
	files := map[string][]byte{
		"country=de/part-00000000-00000.jsonl": []byte(`{"id":1}` + "\n"),
		"country=fr/part-00000000-00000.jsonl": bytes.Repeat([]byte(`{"id":2}`+"\n"), 30000), // several blocks
		"_streamctl/orders/0.json":             []byte(`{"batch":0}`),
	}
	for key, data := range files {
		if err := providers.Put(ctx, s, key, data); err != nil {
			t.Fatal(err)
		}
	}
	// Aborted and staged-only writes are invisible to other clients too.
	w, _ := s.Create(ctx, "_temporary/1/aborted")
	w.Write(make([]byte, 2*MinBlockSize))
	w.(*writer).stageAll()
	defer w.Abort()

	run := func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, rclone, args...)
		cmd.Env = append(os.Environ(),
			"RCLONE_CONFIG_AZ_TYPE=azureblob",
			"RCLONE_CONFIG_AZ_SAS_URL="+srv.BlobURL+"/?"+accountSAS(t, srv, sas.AccountPermissions{Read: true, List: true}),
		)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("rclone %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return string(out)
	}
	listed := strings.Fields(run("lsf", "-R", "--files-only", "az:"+cfg.Container+"/lake/orders"))
	var want []string
	for key := range files {
		want = append(want, key)
	}
	slices.Sort(want)
	slices.Sort(listed)
	if !slices.Equal(listed, want) {
		t.Errorf("rclone lists:\n %q\nwant\n %q", listed, want)
	}
	for key, data := range files {
		if got := run("cat", "az:"+cfg.Container+"/lake/orders/"+key); got != string(data) {
			t.Errorf("rclone reads %s: %d bytes differing from the %d written", key, len(got), len(data))
		}
	}
}

// faultProxy stands between the storage and Azurite and fails chosen requests:
// before they reach Azurite (a throttling answer) or after Azurite has done
// them (the connection drops before the answer: the client cannot know).
type faultProxy struct {
	target string // host:port of Azurite
	mu     sync.Mutex
	fault  func(r *http.Request) string // "", "busy" or "drop"
	seen   int
}

func newFaultProxy(t *testing.T, srv *testenv.AzuriteServer) (*faultProxy, string) {
	p := &faultProxy{target: fmt.Sprintf("127.0.0.1:%d", srv.Port)}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: p}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	return p, "http://" + l.Addr().String() + "/" + srv.AccountName
}

func (p *faultProxy) set(fault func(r *http.Request) string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fault, p.seen = fault, 0
}

// requests is how many requests reached the proxy since the last set.
func (p *faultProxy) requests() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.seen++
	fault := ""
	if p.fault != nil {
		fault = p.fault(r)
	}
	p.mu.Unlock()
	if fault == "busy" {
		w.Header().Set("x-ms-error-code", "ServerBusy")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `<?xml version="1.0" encoding="utf-8"?><Error><Code>ServerBusy</Code><Message>Operations per second is over the account limit.</Message></Error>`)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.URL.Scheme, out.URL.Host = "http", p.target
	resp, err := http.DefaultTransport.RoundTrip(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	if fault == "drop" {
		io.Copy(io.Discard, resp.Body)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// nth fails the first n requests that match.
func nth(n int, match func(r *http.Request) bool, fault string) func(r *http.Request) string {
	count := 0
	return func(r *http.Request) string {
		if match(r) && count < n {
			count++
			return fault
		}
		return ""
	}
}

func isPut(r *http.Request) bool { return r.Method == http.MethodPut }

func TestRetries(t *testing.T) {
	srv := testenv.Azurite(t)
	proxy, url := newFaultProxy(t, srv)
	cfg := keyConfig(t, srv)
	cfg.AccountURL = url
	cfg.MaxAttempts = 3
	s := newStorage(t, cfg)
	ctx := t.Context()

	t.Run("throttled then served", func(t *testing.T) {
		proxy.set(nth(2, isPut, "busy"))
		if _, err := s.PutIfAbsent(ctx, "a", []byte("a")); err != nil {
			t.Fatalf("two 503s then success: %v", err)
		}
	})
	t.Run("throttled too long", func(t *testing.T) {
		proxy.set(nth(100, isPut, "busy"))
		_, err := s.PutIfAbsent(ctx, "b", []byte("b"))
		if err == nil || !strings.Contains(err.Error(), "503 ServerBusy after 3 attempts") {
			t.Fatalf("got %v; want 503 ServerBusy after 3 attempts", err)
		}
		if n := proxy.requests(); n != 3 {
			t.Errorf("%d requests; want 3", n)
		}
	})
	t.Run("connection dropped while staging", func(t *testing.T) {
		proxy.set(nth(1, func(r *http.Request) bool { return r.URL.Query().Get("comp") == "block" }, "drop"))
		w, _ := s.Create(ctx, "big")
		data := make([]byte, 3*DefaultBlockSize/2)
		data[12345] = 1
		w.Write(data)
		if err := w.Commit(); err != nil {
			t.Fatalf("commit: %v", err)
		}
		got, _, err := providers.ReadAll(ctx, s, "big")
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read back: %d bytes, %v", len(got), err)
		}
	})

	// The first try of a conditional write succeeds but its answer is lost; the
	// retry finds the object there. The write is ours: it succeeded.
	ifNoneMatch := func(r *http.Request) bool { return isPut(r) && r.Header.Get("If-None-Match") == "*" }
	ifMatch := func(r *http.Request) bool { return isPut(r) && r.Header.Get("If-Match") != "" }
	t.Run("put-if-absent answer lost", func(t *testing.T) {
		proxy.set(nth(1, ifNoneMatch, "drop"))
		v, err := s.PutIfAbsent(ctx, "_streamctl/s/1.json", []byte("manifest 1"))
		if err != nil {
			t.Fatalf("put-if-absent whose answer was lost: %v", err)
		}
		if info, err := s.Stat(ctx, "_streamctl/s/1.json"); err != nil || info.Version != v {
			t.Errorf("stat %+v, %v; want version %s", info, err, v)
		}
		// Someone else's object is still someone else's.
		proxy.set(nth(1, ifNoneMatch, "drop"))
		if _, err := s.PutIfAbsent(ctx, "_streamctl/s/1.json", []byte("another manifest")); !errors.Is(err, providers.ErrExist) {
			t.Fatalf("got %v; want ErrExist", err)
		}
	})
	t.Run("put-if-match answer lost", func(t *testing.T) {
		proxy.set(nil)
		v1, err := s.PutIfAbsent(ctx, "state.json", []byte("serial 1"))
		if err != nil {
			t.Fatal(err)
		}
		proxy.set(nth(1, ifMatch, "drop"))
		v2, err := s.PutIfMatch(ctx, "state.json", []byte("serial 2"), v1)
		if err != nil {
			t.Fatalf("put-if-match whose answer was lost: %v", err)
		}
		if info, err := s.Stat(ctx, "state.json"); err != nil || info.Version != v2 {
			t.Errorf("stat %+v, %v; want version %s", info, err, v2)
		}
		// A stale writer stays refused.
		proxy.set(nth(1, ifMatch, "drop"))
		if _, err := s.PutIfMatch(ctx, "state.json", []byte("serial 2 by another"), v1); !errors.Is(err, providers.ErrPrecondition) {
			t.Fatalf("got %v; want ErrPrecondition", err)
		}
	})
}

// TestEnvironment: secrets and the account come from AZURE_STORAGE_* when the
// configuration does not set them, never over an explicit secret.
func TestEnvironment(t *testing.T) {
	srv := testenv.Azurite(t)
	name := newContainer(t, srv)
	put := func(cfg Config) error {
		s, err := New(t.Context(), cfg)
		if err != nil {
			return err
		}
		_, err = s.PutIfAbsent(t.Context(), fmt.Sprint(time.Now().UnixNano()), []byte("x"))
		return err
	}
	t.Run("connection string", func(t *testing.T) {
		t.Setenv(EnvConnectionString, srv.ConnectionString)
		if err := put(Config{Container: name}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("key", func(t *testing.T) {
		t.Setenv(EnvKey, srv.AccountKey)
		if err := put(Config{AccountURL: srv.BlobURL, Container: name}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("sas", func(t *testing.T) {
		t.Setenv(EnvSASToken, accountSAS(t, srv, allPerms))
		if err := put(Config{AccountURL: srv.BlobURL, Container: name}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("explicit secret wins", func(t *testing.T) {
		t.Setenv(EnvKey, srv.AccountKey)
		wrong := "WRONG" + srv.AccountKey[5:]
		if err := put(Config{AccountURL: srv.BlobURL, Container: name, SharedKey: wrong}); err == nil {
			t.Fatal("the environment's key replaced the configuration's")
		}
	})
	t.Run("Env of the server", func(t *testing.T) {
		for _, kv := range srv.Env() {
			k, v, _ := strings.Cut(kv, "=")
			t.Setenv(k, v)
		}
		if err := put(Config{Container: name}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestValidate(t *testing.T) {
	// A developer's environment must not change the outcome.
	for _, k := range []string{EnvAccount, EnvKey, EnvSASToken, EnvConnectionString} {
		t.Setenv(k, "")
	}
	const sasToken = "sv=2024-08-04&ss=b&srt=sco&sp=rwdlac&se=2030-01-01T00:00:00Z&sig=c2VjcmV0LXNpZ25hdHVyZQ%3D%3D"
	const conn = "DefaultEndpointsProtocol=https;AccountName=lakeus;AccountKey=" + emulatorKey + ";EndpointSuffix=core.windows.net"
	for _, tc := range []struct {
		name string
		cfg  Config
		env  map[string]string
		want []string // substrings of the error; none for a valid config
	}{
		{"account name, Entra ID", Config{AccountName: "lakeus", Container: "orders"}, nil, nil},
		{"account URL", Config{AccountURL: "https://lakeus.blob.core.windows.net", Container: "orders", Prefix: "a/b", AccessTier: "Cold", BlockSize: 16 << 20, MaxAttempts: 10}, nil, nil},
		{"custom domain with account name", Config{AccountURL: "https://blobs.example.com", AccountName: "lakeus", Container: "orders", SharedKey: emulatorKey}, nil, nil},
		{"emulator", Config{AccountURL: "http://127.0.0.1:10000/devstoreaccount1", Container: "orders", SharedKey: emulatorKey}, nil, nil},
		{"sas with ?", Config{AccountName: "lakeus", Container: "orders", SASToken: "?" + sasToken}, nil, nil},
		{"connection string alone", Config{Container: "orders", ConnectionString: conn}, nil, nil},
		{"connection string with its account", Config{AccountName: "lakeus", Container: "orders", ConnectionString: conn}, nil, nil},
		{"development storage", Config{Container: "orders", ConnectionString: "UseDevelopmentStorage=true"}, nil, nil},
		{"account from env", Config{Container: "orders"}, map[string]string{EnvAccount: "lakeus"}, nil},
		{"connection string from env", Config{Container: "orders"}, map[string]string{EnvConnectionString: conn}, nil},

		{"no account", Config{Container: "orders"}, nil, []string{"account_url: account_url or account_name is required"}},
		{"no container", Config{AccountName: "lakeus"}, nil, []string{"container: is required"}},
		{"bad container", Config{AccountName: "lakeus", Container: "Orders_1"}, nil, []string{`container: "Orders_1"`}},
		{"bad account", Config{AccountName: "Lake-US", Container: "orders"}, nil, []string{`account_name: "Lake-US"`}},
		{"ftp URL", Config{AccountURL: "ftp://lakeus", Container: "orders"}, nil, []string{"account_url: \"ftp://lakeus\" is not an http(s) URL"}},
		{"URL with SAS", Config{AccountURL: "https://lakeus.blob.core.windows.net/?" + sasToken, Container: "orders"}, nil, []string{"account_url: must not carry a query"}},
		{"URL with container", Config{AccountURL: "http://127.0.0.1:10000/devstoreaccount1/orders", Container: "orders"}, nil, []string{"account_url: \"http://127.0.0.1:10000/devstoreaccount1/orders\" names more than an account"}},
		{"plain http", Config{AccountURL: "http://lakeus.blob.core.windows.net", Container: "orders"}, nil, []string{"account_url: http://lakeus.blob.core.windows.net uses http"}},
		{"bad prefix", Config{AccountName: "lakeus", Container: "orders", Prefix: "a/../b"}, nil, []string{`prefix: "a/../b"`}},
		{"archive", Config{AccountName: "lakeus", Container: "orders", AccessTier: "Archive"}, nil, []string{"access_tier: Archive is not supported"}},
		{"tier", Config{AccountName: "lakeus", Container: "orders", AccessTier: "premium"}, nil, []string{`access_tier: "premium"`}},
		{"small blocks", Config{AccountName: "lakeus", Container: "orders", BlockSize: 1000}, nil, []string{"block_size: 1000 is out of range"}},
		{"huge blocks", Config{AccountName: "lakeus", Container: "orders", BlockSize: 5000 << 20}, nil, []string{"block_size"}},
		{"attempts", Config{AccountName: "lakeus", Container: "orders", MaxAttempts: -1}, nil, []string{"max_attempts: -1"}},
		{"bad sas", Config{AccountName: "lakeus", Container: "orders", SASToken: "secret-token-value"}, nil, []string{"sas_token: not a SAS token"}},
		{"bad key", Config{AccountName: "lakeus", Container: "orders", SharedKey: "secret key value!"}, nil, []string{"shared_key: not a storage account key"}},
		{"bad connection string", Config{Container: "orders", ConnectionString: "secretvalue"}, nil, []string{"connection_string: malformed"}},
		{"connection string without secret", Config{Container: "orders", ConnectionString: "AccountName=lakeus"}, nil, []string{"connection_string: neither AccountKey nor SharedAccessSignature"}},
		{"bad connection string from env", Config{Container: "orders"}, map[string]string{EnvConnectionString: "AccountName=lakeus;AccountKey=secret!"}, []string{"connection_string (from AZURE_STORAGE_CONNECTION_STRING): malformed AccountKey"}},
		{"connection string for another account", Config{AccountName: "lakeeu", Container: "orders", ConnectionString: conn}, nil, []string{"connection_string: it is for https://lakeus.blob.core.windows.net, not https://lakeeu.blob.core.windows.net"}},
		{"several mistakes at once", Config{AccountName: "x", Container: "X", MaxAttempts: 1000}, nil, []string{"account_name", "container", "max_attempts"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			err := tc.cfg.Validate()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Attribute == "" {
				t.Errorf("%v: not a *ConfigError naming the attribute", err)
			}
			for _, secret := range []string{"sig=c2Vj", "secret", emulatorKey[:16]} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error %q prints a secret", err)
				}
			}
			if _, nerr := New(t.Context(), tc.cfg); nerr == nil {
				t.Error("New accepts what Validate refuses")
			}
		})
	}
}

// TestAuthPreference: Entra ID without a secret, then SAS, shared key and
// connection string.
func TestAuthPreference(t *testing.T) {
	for _, k := range []string{EnvAccount, EnvKey, EnvSASToken, EnvConnectionString} {
		t.Setenv(k, "")
	}
	const sasToken = "sv=2024-08-04&sig=abc"
	conn := "AccountName=lakeus;AccountKey=" + emulatorKey
	for _, tc := range []struct {
		cfg  Config
		want auth
	}{
		{Config{AccountName: "lakeus", Container: "orders"}, authEntra},
		{Config{AccountName: "lakeus", Container: "orders", SASToken: sasToken, SharedKey: emulatorKey, ConnectionString: conn}, authSAS},
		{Config{AccountName: "lakeus", Container: "orders", SharedKey: emulatorKey, ConnectionString: conn}, authSharedKey},
		{Config{Container: "orders", ConnectionString: conn}, authConnKey},
		{Config{Container: "orders", ConnectionString: "BlobEndpoint=https://lakeus.blob.core.windows.net;SharedAccessSignature=" + sasToken}, authConnSAS},
	} {
		r, err := tc.cfg.resolve(os.LookupEnv)
		if err != nil {
			t.Fatal(err)
		}
		if r.auth != tc.want {
			t.Errorf("%+v: %s; want %s", tc.cfg, r.auth, tc.want)
		}
	}
}

// TestErrorURLRedaction: a network error quotes the request URL; with a SAS
// the URL holds the signature, which must not reach the message.
func TestErrorURLRedaction(t *testing.T) {
	port := testenv.ClosedPort(t)
	const sig = "c2VjcmV0LXNpZ25hdHVyZQ"
	s := newStorage(t, Config{
		AccountURL: fmt.Sprintf("http://127.0.0.1:%d/devstoreaccount1", port), Container: "orders",
		SASToken: "sv=2024-08-04&sig=" + sig, MaxAttempts: 1,
	})
	_, err := s.Stat(t.Context(), "x")
	if err == nil {
		t.Fatal("stat succeeded with nothing listening")
	}
	if strings.Contains(err.Error(), sig) {
		t.Fatalf("the error prints the SAS: %v", err)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		t.Errorf("the error chain holds the URL: %v", ue)
	}
	t.Log(err)
}

// TestEntraWithoutCredential: with no secret, the storage authenticates with
// Microsoft Entra ID; where no identity is found, the error says what to do.
func TestEntraWithoutCredential(t *testing.T) {
	for _, k := range []string{EnvAccount, EnvKey, EnvSASToken, EnvConnectionString, "AZURE_TENANT_ID", "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_FEDERATED_TOKEN_FILE"} {
		t.Setenv(k, "")
	}
	srv := testenv.Azurite(t)
	cfg := keyConfig(t, srv)
	cfg.SharedKey = ""
	s := newStorage(t, cfg)
	_, err := s.Stat(t.Context(), "x")
	if err == nil {
		t.Fatal("stat without any credential succeeded")
	}
	t.Log(err)
	for _, want := range []string{"stat azblob://devstoreaccount1/" + cfg.Container + "/x", "Entra", "devstoreaccount1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q", want)
		}
	}
}

// A batch staging many large files at once (one per partition folder) holds
// little memory: past 256 KiB each blob waits in a temporary file.
func TestManyOpenBlobsStayOutOfMemory(t *testing.T) {
	srv := testenv.Azurite(t)
	cfg := keyConfig(t, srv)
	cfg.BlockSize = 4 << 20 // blobs of 6 MiB: two blocks each
	storagetest.ManyOpenObjects(t, newStorage(t, cfg), 24<<20)
}
