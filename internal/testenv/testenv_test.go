package testenv

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A server that took our port answers in our server's place: WaitServer
// tells them apart by the Server header, and stops waiting when ours exits.
func TestWaitServer(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Server", "VERSITYGW")
		w.WriteHeader(http.StatusForbidden)
	}))
	defer other.Close()
	running := &Process{done: make(chan struct{})}
	if err := WaitServer(running, other.URL, "VERSITYGW", time.Second); err != nil {
		t.Errorf("the expected server: %v", err)
	}
	err := WaitServer(running, other.URL, "Azurite-Blob", time.Second)
	if err == nil || !strings.Contains(err.Error(), "the port is taken") {
		t.Errorf("another server: %v, want the port taken", err)
	}

	exited := &Process{done: make(chan struct{})}
	close(exited.done)
	url := other.URL
	other.Close() // nothing answers now
	start := time.Now()
	if err := WaitServer(exited, url, "VERSITYGW", 10*time.Second); err == nil || !strings.Contains(err.Error(), "exited") {
		t.Errorf("an exited server: %v, want it reported as exited", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("WaitServer waited %s for a server that had exited", time.Since(start))
	}
}

// Connections to a ClosedPort are refused, and no server can bind it.
func TestClosedPort(t *testing.T) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(ClosedPort(t)))
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Fatalf("dial %s succeeded, want refused", addr)
	} else if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("dial %s: %v, want connection refused", addr, err)
	}
	if l, err := net.Listen("tcp", addr); err == nil {
		l.Close()
		t.Fatalf("listen on %s succeeded, want the port held", addr)
	}
}
