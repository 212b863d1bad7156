// Package testenv starts the real services integration tests run against (an S3
// server, Azurite, a Kafka broker, PostgreSQL) on 127.0.0.1, from the tools
// that `make tools` installs. A missing tool skips the test on a developer's
// machine and fails it in CI (CI=true), so an integration test can never
// silently not run where it matters; PostgreSQL fails it everywhere.
package testenv

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// RepoRoot is the repository's top directory.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// ToolsDir is where `make tools` installs the services.
func ToolsDir() string {
	if d := os.Getenv("STREAMCTL_TOOLS"); d != "" {
		return d
	}
	return filepath.Join(RepoRoot(), ".tools")
}

// InCI reports whether the tests run in CI, where every service must be present.
func InCI() bool { return os.Getenv("CI") != "" }

// Require fails the test in CI, and skips it elsewhere, when a tool is missing.
func Require(t testing.TB, path, what string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		return
	}
	if InCI() {
		t.Fatalf("%s is missing at %s: CI must run every integration test (run `make tools`)", what, path)
	}
	t.Skipf("%s is missing at %s: run `make tools` to run this test", what, path)
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	return port
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// WaitPort waits until something accepts connections on addr.
func WaitPort(addr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("nothing listens on %s after %s: %w", addr, timeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// StartOnFreePort calls start with a free port until it succeeds, up to four
// times, and fails the test with start's last error. The tests of several
// packages run at once, each starting servers on ports found free
// (FreePort): another package's server can take such a port before ours
// binds it. Ours then exits, or the other answers in its place, and start
// must report that as an error.
func StartOnFreePort(t testing.TB, start func(port int) error) {
	t.Helper()
	var err error
	for range 4 {
		if err = start(FreePort(t)); err == nil {
			return
		}
	}
	t.Fatal(err)
}

// WaitServer waits until the HTTP server at url answers with a Server header
// that starts with server, which tells the service p started from another
// one on the same port. It gives up when p exits, when another server
// answers, or after timeout.
func WaitServer(p *Process, url, server string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: time.Second}
	for {
		resp, err := client.Get(url)
		if err == nil {
			resp.Body.Close()
			got := resp.Header.Get("Server")
			if strings.HasPrefix(got, server) {
				return nil
			}
			return fmt.Errorf("%s answers with server %q, not %s: the port is taken", url, got, server)
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

// Process is a service started by a test, stopped by its PID.
type Process struct {
	cmd  *exec.Cmd
	done chan struct{}
}

// Start runs cmd in its own process group, killed when the test binary
// exits, and returns once it has started.
func Start(t testing.TB, cmd *exec.Cmd) *Process {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	p, err := startProcess(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// startProcess runs cmd in its own process group, with the rest of its
// SysProcAttr as set.
func startProcess(cmd *exec.Cmd) (*Process, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	p := &Process{cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(p.done) }()
	return p, nil
}

// CPU is the user and system time the process has used so far, with that of
// its children it waited for (as the kernel counts them, in clock ticks), for
// benchmarks that count the server's share of a machine's cores.
func (p *Process) CPU() (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0, fmt.Errorf("CPU time of %s: %w", p.cmd.Path, err)
	}
	// The fields after the command name, which is in parentheses and may hold
	// spaces: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(fields) < 15 {
		return 0, fmt.Errorf("CPU time of %s: unexpected /proc stat %q", p.cmd.Path, b)
	}
	var ticks int64
	for _, f := range fields[11:15] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("CPU time of %s: %w", p.cmd.Path, err)
		}
		ticks += n
	}
	// USER_HZ is 100 on every Linux architecture Go supports.
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// Stop kills the process group and waits for it to exit.
func (p *Process) Stop() {
	select {
	case <-p.done:
		return
	default:
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// ClosedPort returns a port on 127.0.0.1 where nothing listens, for the
// duration of the test: a socket is bound to it without listening, so that
// connections are refused and no other server (another package's test
// starting on a FreePort) can take it meanwhile.
func ClosedPort(t testing.TB) int {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatalf("closed port: %v", err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatalf("closed port: %v", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatalf("closed port: %v", err)
	}
	return sa.(*syscall.SockaddrInet4).Port
}
