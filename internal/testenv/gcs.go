package testenv

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// GCSServer is fake-gcs-server (the Google Cloud Storage emulator,
// filesystem backend) serving a temporary directory on 127.0.0.1, started by
// a test.
type GCSServer struct {
	Endpoint string // http://127.0.0.1:PORT, the JSON API's base without /storage/v1
	DataDir  string // the filesystem backend's root: one directory per bucket

	bin  string
	port int
	log  string

	mu   sync.Mutex
	proc *Process
}

// GCS starts fake-gcs-server on a free port with its data in a fresh
// temporary directory and stops it when the test ends. It skips the test
// (fails it in CI) when fake-gcs-server is not installed.
func GCS(t testing.TB) *GCSServer {
	t.Helper()
	bin := filepath.Join(ToolsDir(), "bin", "fake-gcs-server")
	Require(t, bin, "fake-gcs-server (the Google Cloud Storage emulator)")
	dir := t.TempDir()
	s := &GCSServer{
		DataDir: filepath.Join(dir, "data"),
		bin:     bin,
		log:     filepath.Join(dir, "fake-gcs-server.log"),
	}
	if err := os.Mkdir(s.DataDir, 0o755); err != nil {
		t.Fatalf("gcs server: %v", err)
	}
	t.Cleanup(s.Stop)
	StartOnFreePort(t, func(port int) error {
		s.port = port
		s.Endpoint = "http://127.0.0.1:" + strconv.Itoa(port)
		return s.tryStart(t)
	})
	return s
}

func (s *GCSServer) tryStart(t testing.TB) error {
	t.Helper()
	logf, err := os.OpenFile(s.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("gcs server: %w", err)
	}
	defer logf.Close()
	host := "127.0.0.1:" + strconv.Itoa(s.port)
	cmd := exec.Command(s.bin, "-scheme", "http", "-host", "127.0.0.1", "-port", strconv.Itoa(s.port),
		"-backend", "filesystem", "-filesystem-root", s.DataDir,
		"-external-url", s.Endpoint, "-public-host", host, "-log-level", "warn")
	cmd.Stdout = logf
	cmd.Stderr = logf
	p := Start(t, cmd)
	if err := waitGCS(p, s.Endpoint, 10*time.Second); err != nil {
		p.Stop()
		out, _ := os.ReadFile(s.log)
		return fmt.Errorf("gcs server did not start: %v\n%s", err, out)
	}
	s.mu.Lock()
	s.proc = p
	s.mu.Unlock()
	return nil
}

// waitGCS waits until the emulator lists its buckets at url. It sends no
// Server header, so the answer's body tells it from another service on the
// port.
func waitGCS(p *Process, url string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: time.Second}
	for {
		resp, err := client.Get(url + "/storage/v1/b")
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && bytes.Contains(body, []byte(`"storage#buckets"`)) {
				return nil
			}
			return fmt.Errorf("%s answers %s %.80q, not a bucket list: the port is taken", url, resp.Status, body)
		}
		select {
		case <-p.done:
			return fmt.Errorf("exited before answering on %s", url)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer on %s after %s: %w", url, timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop kills the server. Its data stays for Restart. Stopping a stopped
// server does nothing.
func (s *GCSServer) Stop() {
	s.mu.Lock()
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p != nil {
		p.Stop()
	}
}

// Restart stops the server if it runs and starts it again on the same port
// with the same data.
func (s *GCSServer) Restart(t testing.TB) {
	t.Helper()
	s.Stop()
	if err := s.tryStart(t); err != nil {
		t.Fatal(err)
	}
}

// Env is the environment a child process (the streamctl binary) needs to
// reach the server the way the Google client libraries find an emulator.
func (s *GCSServer) Env() []string {
	return []string{"STORAGE_EMULATOR_HOST=" + strings.TrimPrefix(s.Endpoint, "http://")}
}

// CreateBucket creates a bucket. A bucket that exists already is fine.
func (s *GCSServer) CreateBucket(t testing.TB, name string) {
	t.Helper()
	body := strings.NewReader(fmt.Sprintf(`{"name":%q}`, name))
	resp, err := http.Post(s.Endpoint+"/storage/v1/b?project=streamctl-test", "application/json", body)
	if err != nil {
		t.Fatalf("create bucket %s on %s: %v", name, s.Endpoint, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusConflict {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		t.Fatalf("create bucket %s on %s: %s %s", name, s.Endpoint, resp.Status, msg)
	}
}

// String names the server for messages.
func (s *GCSServer) String() string { return fmt.Sprintf("fake-gcs-server at %s", s.Endpoint) }
