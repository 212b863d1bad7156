package testenv

import (
	"context"
	"database/sql"
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

// Each test gets a database of its own on the binary's one server: what one
// writes, the other does not see.
func TestPostgres(t *testing.T) {
	a, b := Postgres(t), Postgres(t)
	if a == b {
		t.Fatalf("two calls gave the same database %s", a)
	}
	ctx := context.Background()
	for i, dsn := range []string{a, b} {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if i == 0 {
			if _, err := db.ExecContext(ctx, "CREATE TABLE t (x int)"); err != nil {
				t.Fatalf("%s: %v", dsn, err)
			}
			continue
		}
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 't'").Scan(&n); err != nil || n != 0 {
			t.Errorf("%s sees the other database's table: %d, %v", dsn, n, err)
		}
	}
}
