package testenv

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// S3Server is a Versity S3 gateway (versitygw, posix backend) serving a
// temporary directory on 127.0.0.1, started by a test.
type S3Server struct {
	Endpoint  string // http://127.0.0.1:PORT
	AccessKey string
	SecretKey string
	Region    string // us-east-1
	DataDir   string // the posix backend's root: one directory per bucket

	bin  string
	addr string
	log  string

	mu   sync.Mutex
	proc *Process
}

// S3 starts versitygw on a free port with its data in a fresh temporary directory
// and stops it when the test ends. It skips the test (fails it in CI) when
// versitygw is not installed.
func S3(t testing.TB) *S3Server {
	t.Helper()
	bin := filepath.Join(ToolsDir(), "bin", "versitygw")
	Require(t, bin, "versitygw (the S3 server)")
	dir := t.TempDir()
	s := &S3Server{
		AccessKey: "streamctl-test",
		SecretKey: "streamctl-test-secret-key",
		Region:    "us-east-1",
		DataDir:   filepath.Join(dir, "data"),
		bin:       bin,
		log:       filepath.Join(dir, "versitygw.log"),
	}
	if err := os.Mkdir(s.DataDir, 0o755); err != nil {
		t.Fatalf("s3 server: %v", err)
	}
	t.Cleanup(s.Stop)
	StartOnFreePort(t, func(port int) error {
		s.addr = "127.0.0.1:" + strconv.Itoa(port)
		s.Endpoint = "http://" + s.addr
		return s.tryStart(t)
	})
	return s
}

func (s *S3Server) start(t testing.TB) {
	t.Helper()
	if err := s.tryStart(t); err != nil {
		t.Fatal(err)
	}
}

func (s *S3Server) tryStart(t testing.TB) error {
	t.Helper()
	logf, err := os.OpenFile(s.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("s3 server: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command(s.bin, "--quiet", "--port", s.addr, "posix", s.DataDir)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+s.AccessKey, "ROOT_SECRET_KEY="+s.SecretKey)
	cmd.Stdout = logf
	cmd.Stderr = logf
	p := Start(t, cmd)
	if err := WaitServer(p, s.Endpoint, "VERSITYGW", 10*time.Second); err != nil {
		p.Stop()
		out, _ := os.ReadFile(s.log)
		return fmt.Errorf("s3 server did not start: %v\n%s", err, out)
	}
	s.mu.Lock()
	s.proc = p
	s.mu.Unlock()
	return nil
}

// CPU is the CPU time the running server has used so far.
func (s *S3Server) CPU() (time.Duration, error) {
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p == nil {
		return 0, fmt.Errorf("the s3 server is not running")
	}
	return p.CPU()
}

// Stop kills the server. Its data stays for Restart. Stopping a stopped server
// does nothing.
func (s *S3Server) Stop() {
	s.mu.Lock()
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p != nil {
		p.Stop()
	}
}

// Restart stops the server if it runs and starts it again on the same port with
// the same data, as after a crash of the object store.
func (s *S3Server) Restart(t testing.TB) {
	t.Helper()
	s.Stop()
	s.start(t)
}

// Env is the environment a child process (the streamctl binary) needs to reach
// the server through the standard AWS credential chain, without touching the
// instance metadata service.
func (s *S3Server) Env() []string {
	return []string{
		"AWS_ACCESS_KEY_ID=" + s.AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + s.SecretKey,
		"AWS_REGION=" + s.Region,
		"AWS_EC2_METADATA_DISABLED=true",
	}
}

// Client returns an S3 client for the server with path-style addressing, for
// tests that check what was written through an independent path.
func (s *S3Server) Client() *s3.Client {
	return s3.New(s3.Options{
		Region:       s.Region,
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
	})
}

// CreateBucket creates a bucket (at least 3 characters, lowercase). A bucket that
// exists already is fine.
func (s *S3Server) CreateBucket(t testing.TB, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := s.Client().CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)})
	var owned *types.BucketAlreadyOwnedByYou
	if err != nil && !errors.As(err, &owned) {
		t.Fatalf("create bucket %s on %s: %v", name, s.Endpoint, err)
	}
}

// String names the server for messages.
func (s *S3Server) String() string { return fmt.Sprintf("versitygw at %s", s.Endpoint) }
