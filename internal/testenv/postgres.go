package testenv

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

// PostgresBinDir is where Debian's postgresql package puts the server's
// programs (/usr/lib/postgresql/<major>/bin), the newest major installed, or
// "" when none is.
func PostgresBinDir() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return majorOf(dirs[i]) > majorOf(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "postgres")); err == nil {
			return d
		}
	}
	return ""
}

func majorOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// postgresServer is the one PostgreSQL server of a test binary: initdb and
// start cost seconds, a database costs a fraction of one.
type postgresServer struct {
	port  int
	admin *sql.DB // on the postgres database, to create the tests' databases
	stop  *os.File
	proc  *Process
}

var pg struct {
	once sync.Once
	srv  *postgresServer
	err  error
	n    atomic.Int64
}

// Postgres returns the DSN of a new, empty database (user postgres, no
// password, sslmode=disable) on a PostgreSQL server on 127.0.0.1, started
// on first use and shared by the tests of the binary. The database is
// dropped when the test ends. A server that cannot be started fails the
// test: an integration test that does not run is not a passing one. With
// -short it skips, as -short runs no services.
func Postgres(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no PostgreSQL server")
	}
	pg.once.Do(func() { pg.srv, pg.err = startPostgres() })
	if pg.err != nil {
		t.Fatalf("PostgreSQL: %v", pg.err)
	}
	name := fmt.Sprintf("test_%d_%d", os.Getpid(), pg.n.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := pg.srv.admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("PostgreSQL on port %d: create database %s: %v", pg.srv.port, name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		// FORCE: a connection a test left open must not keep the database.
		if _, err := pg.srv.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("PostgreSQL: drop database %s: %v", name, err)
		}
	})
	return pg.srv.dsn(name)
}

func (s *postgresServer) dsn(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", s.port, db)
}

// pgWatchdog runs the server and stops it when the test binary is gone,
// however it ended (a panic, a timeout, SIGKILL): the binary holds the
// write end of the pipe on fd 3, and its end reads as EOF here. Then the
// data directory is removed. A server that exits by itself (its port was
// taken) ends the script.
const pgWatchdog = `
bin=$1 dir=$2 port=$3
"$bin/postgres" -D "$dir/data" -k "$dir" -p "$port" -c listen_addresses=127.0.0.1 \
  -c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=200 &
pg=$!
{ read _ <&3; kill -INT $pg 2>/dev/null; while kill -0 $pg 2>/dev/null; do sleep 0.1; done; rm -rf "$dir"; } &
wait $pg
`

// startPostgres creates a cluster and starts its server on a free port, up
// to four times (another package's server may take the port first).
func startPostgres() (*postgresServer, error) {
	bin := PostgresBinDir()
	if bin == "" {
		return nil, errors.New("Debian's postgresql package is not installed (no /usr/lib/postgresql/*/bin/postgres): run `make tools`, which installs it")
	}
	// PostgreSQL refuses to run as root: root runs it as the postgres user
	// the package creates.
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root, the server runs as the user postgres, and there is none (%v): reinstall Debian's postgresql package", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	var err error
	for range 4 {
		var s *postgresServer
		if s, err = tryPostgres(bin, cred); err == nil {
			return s, nil
		}
	}
	return nil, err
}

func tryPostgres(bin string, cred *syscall.Credential) (*postgresServer, error) {
	dir, err := os.MkdirTemp("", "streamctl-pg-")
	if err != nil {
		return nil, err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	env := []string{"PATH=/usr/bin:/bin", "LC_ALL=C", "TZ=UTC"}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", filepath.Join(dir, "data"), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-locale", "--no-sync")
	initdb.Env = env
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	r, w, err := os.Pipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	logPath := filepath.Join(dir, "server.log")
	logf, err := os.Create(logPath)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	defer logf.Close()
	if cred != nil {
		logf.Chown(int(cred.Uid), int(cred.Gid))
	}
	cmd := exec.Command("/bin/sh", "-c", pgWatchdog, "sh", bin, dir, strconv.Itoa(port))
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.ExtraFiles = []*os.File{r}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	p, err := startProcess(cmd)
	r.Close()
	if err != nil {
		w.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	s := &postgresServer{port: port, stop: w, proc: p}
	if err := s.wait(filepath.Join(dir, "data"), 30*time.Second); err != nil {
		out, _ := os.ReadFile(logPath)
		s.close()
		return nil, fmt.Errorf("the server on port %d did not start: %v\n%s", port, err, out)
	}
	return s, nil
}

// wait waits until the server answers on its port, and checks that it is
// ours: another package's server may have taken the port first.
func (s *postgresServer) wait(dataDir string, timeout time.Duration) error {
	db, err := sql.Open("pgx", s.dsn("postgres")+"&connect_timeout=2")
	if err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		var got string
		err = db.QueryRowContext(ctx, "SHOW data_directory").Scan(&got)
		cancel()
		if err == nil {
			if got != dataDir {
				db.Close()
				return fmt.Errorf("the server on the port is another one (its data is in %s): the port is taken", got)
			}
			s.admin = db
			return nil
		}
		select {
		case <-s.proc.done:
			db.Close()
			return fmt.Errorf("it exited: %w", err)
		default:
		}
		if time.Now().After(deadline) {
			db.Close()
			return fmt.Errorf("no answer after %s: %w", timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// close stops the server and waits for it; the watchdog removes its files.
func (s *postgresServer) close() {
	if s.admin != nil {
		s.admin.Close()
	}
	s.stop.Close()
	select {
	case <-s.proc.done:
	case <-time.After(15 * time.Second):
		s.proc.Stop()
	}
}
