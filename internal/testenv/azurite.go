package testenv

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
)

// The emulator's single account and its key, published by Microsoft.
const (
	AzuriteAccountName = "devstoreaccount1"
	AzuriteAccountKey  = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

// AzuriteBin is where `make tools` installs azurite-blob.
func AzuriteBin() string {
	return filepath.Join(ToolsDir(), "node", "node_modules", ".bin", "azurite-blob")
}

// AzuriteServer is an Azurite blob service on 127.0.0.1, its data in a
// temporary directory of the test.
type AzuriteServer struct {
	AccountName      string
	AccountKey       string
	BlobURL          string // http://127.0.0.1:PORT/devstoreaccount1
	ConnectionString string
	Port             int
	Dir              string

	bin    string
	mu     sync.Mutex
	proc   *Process
	stderr *bytes.Buffer
}

// Azurite starts an Azurite blob service for the test and stops it when the
// test ends. It fails in CI, and skips elsewhere, when Azurite is not installed.
func Azurite(t testing.TB) *AzuriteServer {
	t.Helper()
	bin := AzuriteBin()
	Require(t, bin, "Azurite (npm azurite)")
	a := &AzuriteServer{
		AccountName: AzuriteAccountName,
		AccountKey:  AzuriteAccountKey,
		Dir:         t.TempDir(),
		bin:         bin,
	}
	// Registered after TempDir, so it runs first: the server stops before its
	// directory is removed.
	t.Cleanup(a.Stop)
	StartOnFreePort(t, func(port int) error {
		a.Port = port
		a.BlobURL = fmt.Sprintf("http://127.0.0.1:%d/%s", a.Port, a.AccountName)
		a.ConnectionString = fmt.Sprintf("DefaultEndpointsProtocol=http;AccountName=%s;AccountKey=%s;BlobEndpoint=%s;",
			a.AccountName, a.AccountKey, a.BlobURL)
		return a.tryStart(t)
	})
	return a
}

// start runs the server on a.Port and a.Dir and waits until it answers HTTP.
func (a *AzuriteServer) start(t testing.TB) {
	t.Helper()
	if err := a.tryStart(t); err != nil {
		t.Fatal(err)
	}
}

func (a *AzuriteServer) tryStart(t testing.TB) error {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	// --skipApiVersionCheck: the Go SDK sends an API version newer than Azurite
	// knows, which it would refuse with 400.
	cmd := exec.Command(a.bin,
		"--blobHost", "127.0.0.1", "--blobPort", strconv.Itoa(a.Port),
		"--location", a.Dir, "--skipApiVersionCheck", "--disableTelemetry", "--silent")
	a.stderr = new(bytes.Buffer)
	cmd.Stdout = a.stderr
	cmd.Stderr = a.stderr
	a.proc = Start(t, cmd)
	// The port opens a moment before the service is ready: wait for an
	// answer, from Azurite.
	if err := WaitServer(a.proc, a.BlobURL+"?comp=list", "Azurite-Blob", 30*time.Second); err != nil {
		a.proc.Stop()
		return fmt.Errorf("azurite on port %d: %v\n%s", a.Port, err, a.stderr.String())
	}
	return nil
}

// CPU is the CPU time the running server has used so far.
func (a *AzuriteServer) CPU() (time.Duration, error) {
	a.mu.Lock()
	p := a.proc
	a.mu.Unlock()
	if p == nil {
		return 0, fmt.Errorf("azurite is not running")
	}
	return p.CPU()
}

// Stop stops the server, as an outage would: what it acknowledged stays. It
// is safe to call more than once.
//
// Azurite saves its metadata every 5 s, so SIGKILL would lose acknowledged
// writes, which Azure never does: Stop sends SIGTERM, on which Azurite saves
// and exits, and kills what is left after a while.
func (a *AzuriteServer) Stop() {
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.proc
	if p == nil {
		return
	}
	select {
	case <-p.done:
		return
	default:
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(15 * time.Second):
	}
	p.Stop()
}

// Restart stops the server if it runs and starts it again on the same port
// with the same data, like a service coming back after an outage.
func (a *AzuriteServer) Restart(t testing.TB) {
	t.Helper()
	a.Stop()
	a.start(t)
}

// Env is the environment for a child process (the streamctl binary) to reach
// the server: the connection string, and the account and its key.
func (a *AzuriteServer) Env() []string {
	return []string{
		"AZURE_STORAGE_CONNECTION_STRING=" + a.ConnectionString,
		"AZURE_STORAGE_ACCOUNT=" + a.AccountName,
		"AZURE_STORAGE_KEY=" + a.AccountKey,
	}
}

// CreateContainer creates the container name; an existing one is fine.
func (a *AzuriteServer) CreateContainer(t testing.TB, name string) {
	t.Helper()
	cred, err := container.NewSharedKeyCredential(a.AccountName, a.AccountKey)
	if err != nil {
		t.Fatalf("azurite credential: %v", err)
	}
	c, err := container.NewClientWithSharedKeyCredential(a.BlobURL+"/"+name, cred, nil)
	if err != nil {
		t.Fatalf("azurite container client: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Create(ctx, nil); err != nil && !bloberror.HasCode(err, bloberror.ContainerAlreadyExists) {
		t.Fatalf("create container %s: %v", name, err)
	}
}
