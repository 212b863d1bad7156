package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
)

// Iceberg tables on S3 and Azure with a PostgreSQL catalog, which goes away
// in the middle of an apply: between the batch's stage and the table's
// commit, and during the commit, after PostgreSQL committed and before its
// answer reached streamctl. The apply fails, naming the catalog; the next
// one, with the catalog back, converges with every record once.
//
// The catalog goes away behind a TCP proxy: the PostgreSQL server is shared
// by the package's tests, which must not see the outage.

// catalogProxy forwards TCP connections from its port to PostgreSQL's.
type catalogProxy struct {
	addr, upstream string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
	// loseCommit, when set, makes the next COMMIT of a transaction that
	// updates a table's row of the catalog (a table commit) reach
	// PostgreSQL, and its answer never come back; with down, the catalog
	// goes down at that moment too.
	loseCommit chan struct{}
	down       bool
	// pauseCommit, when set, holds the next table commit's COMMIT for
	// pause, as a catalog that stops answering for a while (a failover, a
	// paused VM) does; the channel is closed when it is let through.
	pauseCommit chan struct{}
	pause       time.Duration
}

// pauseNextCommit arms pauseCommit.
func (p *catalogProxy) pauseNextCommit(d time.Duration) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pauseCommit, p.pause = make(chan struct{}), d
	return p.pauseCommit
}

func startCatalogProxy(t *testing.T, upstream string) *catalogProxy {
	t.Helper()
	p := &catalogProxy{addr: "127.0.0.1:0", upstream: upstream, conns: map[net.Conn]bool{}}
	p.start(t)
	t.Cleanup(p.stop)
	return p
}

// start listens (again, on the same port) and forwards.
func (p *catalogProxy) start(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatalf("catalog proxy: %v", err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
}

// stop closes the port and cuts every connection: the catalog is down.
func (p *catalogProxy) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// loseNextCommitAnswer arms loseCommit; the channel is closed once the
// COMMIT went through (and, with down, the proxy went down).
func (p *catalogProxy) loseNextCommitAnswer(down bool) <-chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.loseCommit, p.down = make(chan struct{}), down
	return p.loseCommit
}

func (p *catalogProxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln == nil {
		return false
	}
	for _, c := range cs {
		p.conns[c] = true
	}
	return true
}

func (p *catalogProxy) serve(client net.Conn) {
	server, err := net.Dial("tcp", p.upstream)
	if err != nil {
		client.Close()
		return
	}
	if !p.track(client, server) {
		client.Close()
		server.Close()
		return
	}
	go func() {
		io.Copy(client, server)
		client.Close()
	}()
	buf := make([]byte, 64<<10)
	updated := false // the transaction under way updates iceberg_tables
	for {
		n, err := client.Read(buf)
		if n > 0 {
			chunk := buf[:n]
			lower := bytes.ToLower(chunk)
			updated = updated || bytes.Contains(lower, []byte("update")) && bytes.Contains(lower, []byte("iceberg_tables"))
			// pgx ends a transaction with the simple query "commit".
			if chunk[0] == 'Q' && bytes.Contains(lower, []byte("commit\x00")) && updated {
				updated = false
				p.mu.Lock()
				lost, down := p.loseCommit, p.down
				paused, pause := p.pauseCommit, p.pause
				p.loseCommit, p.pauseCommit = nil, nil
				if lost != nil && down && p.ln != nil {
					p.ln.Close() // no new connection from now on
					p.ln = nil
				}
				p.mu.Unlock()
				if lost != nil {
					// No answer goes back; PostgreSQL commits.
					client.SetWriteDeadline(time.Now())
					server.Write(chunk)
					time.Sleep(500 * time.Millisecond)
					if down {
						p.stop()
					}
					server.Close()
					client.Close()
					close(lost)
					return
				}
				if paused != nil {
					time.Sleep(pause)
					close(paused)
				}
			}
			if _, werr := server.Write(chunk); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	server.Close()
	client.Close()
}

// catalogURI is uri (of testenv.Postgres) through the proxy.
func (p *catalogProxy) catalogURI(t *testing.T, uri string) string {
	t.Helper()
	u, err := url.Parse(uri)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = p.addr
	return u.String()
}

// tableStore is an object store holding an Iceberg table in a test.
type tableStore struct {
	name     string
	dest     func(t *testing.T, bucket string, tableBlock string) string
	storage  func(t *testing.T, bucket string) providers.Storage
	location func(bucket string) string
	props    map[string]string
	env      []string
	newB     func(t *testing.T, name string) string
}

func tableStores(t *testing.T, body func(t *testing.T, s tableStore)) {
	t.Run("s3", func(t *testing.T) {
		t.Parallel()
		srv := testenv.S3(t)
		body(t, tableStore{
			name: "s3",
			dest: func(t *testing.T, bucket, tableBlock string) string {
				return s3TableDestination(srv, "table", bucket, "lake/orders", tableBlock)
			},
			storage:  func(t *testing.T, bucket string) providers.Storage { return s3Storage(t, srv, bucket, "lake/orders") },
			location: func(bucket string) string { return "s3://" + bucket + "/lake/orders" },
			props:    s3TableProps(srv),
			env:      srv.Env(),
			newB: func(t *testing.T, name string) string {
				b := bucketName(name)
				srv.CreateBucket(t, b)
				return b
			},
		})
	})
	t.Run("azure", func(t *testing.T) {
		t.Parallel()
		az := testenv.Azurite(t)
		body(t, tableStore{
			name: "azure",
			dest: func(t *testing.T, container, tableBlock string) string {
				return azDestination(az, "table", container, "lake/orders", tableBlock)
			},
			storage: func(t *testing.T, container string) providers.Storage {
				return azStorage(t, az, container, "lake/orders")
			},
			location: func(container string) string {
				return "wasb://" + container + "@" + az.AccountName + ".blob.core.windows.net/lake/orders"
			},
			props: map[string]string{"adls.endpoint": fmt.Sprintf("127.0.0.1:%d", az.Port), "adls.protocol": "http",
				"adls.auth.shared-key.account.name": az.AccountName, "adls.auth.shared-key.account.key": az.AccountKey},
			env: az.Env(),
			newB: func(t *testing.T, name string) string {
				c := bucketName(name)
				az.CreateContainer(t, c)
				return c
			},
		})
	})
}

func TestIcebergPostgresCatalogOutage(t *testing.T) {
	t.Parallel()
	tableStores(t, func(t *testing.T, s tableStore) {
		for _, outage := range []string{"before-table-commit", "commit-answer-lost", "commit-answer-lost-catalog-down", "paused-during-commit"} {
			t.Run(outage, func(t *testing.T) {
				t.Parallel()
				uri := testenv.Postgres(t)
				pg, err := url.Parse(uri)
				if err != nil {
					t.Fatal(err)
				}
				proxy := startCatalogProxy(t, pg.Host)
				bucket := s.newB(t, "outage-"+outage)
				tableBlock := strings.Replace(remoteTableBlock, `uri       = "catalog.db"`, fmt.Sprintf("uri       = %q", proxy.catalogURI(t, uri)), 1)
				hcl := strings.Replace(icebergConfig, `  destination "local" "table" {
    path = "out/table"
    table {
      format    = "iceberg"
      namespace = "lake"
      name      = "orders"
    }
  }
`, s.dest(t, bucket, tableBlock), 1)
				dir := writeConfig(t, hcl)

				var failed result
				switch outage {
				case "paused-during-commit":
					// Past the sinks' lease (4 s in the tests): the apply
					// keeps its lock meanwhile, and finishes once the
					// catalog answers.
					mustRun(t, dir, 0, s.env, "apply", "-auto-approve", "-no-color", "-var=records=1000")
					resumed := proxy.pauseNextCommit(6 * time.Second)
					r := run(t, dir, s.env, "apply", "-auto-approve", "-no-color")
					select {
					case <-resumed:
					default:
						t.Fatalf("no table commit went to the catalog: %s", r)
					}
					if r.code != 0 || r.killed {
						t.Fatalf("the apply whose catalog paused during a commit: want exit 0, got %s", r)
					}
					mustRun(t, dir, 0, s.env, "plan", "-detailed-exitcode", "-no-color")
					checkRemoteTable(t, dir, uri, s.location(bucket), s.props, s.storage(t, bucket), expectedIDs(3, 2000))
					return
				case "before-table-commit":
					// Stopped between the stage and the table commit of
					// the second batch, while the catalog goes down.
					env := append([]string{"STREAMCTL_FAULT=before-table-commit:2", "STREAMCTL_FAULT_STOP=1"}, s.env...)
					paused := startRun(t, dir, env, "apply", "-auto-approve", "-no-color")
					waitFor(t, 2*time.Minute, "the apply to stop before the table commit", func() bool {
						return processStopped(paused.pid()) || paused.exited()
					})
					if paused.exited() {
						t.Fatalf("the apply ended before the table commit: %s", paused.wait(t, time.Second))
					}
					proxy.stop()
					if err := syscall.Kill(paused.pid(), syscall.SIGCONT); err != nil {
						t.Fatal(err)
					}
					failed = paused.wait(t, 3*time.Minute)
				case "commit-answer-lost", "commit-answer-lost-catalog-down":
					// Two batches committed first: the next COMMIT is a
					// batch's table commit.
					mustRun(t, dir, 0, s.env, "apply", "-auto-approve", "-no-color", "-var=records=1000")
					down := outage == "commit-answer-lost-catalog-down"
					lost := proxy.loseNextCommitAnswer(down)
					failed = run(t, dir, s.env, "apply", "-auto-approve", "-no-color")
					select {
					case <-lost:
					case <-time.After(10 * time.Second):
						t.Fatalf("no table commit went to the catalog: %s", failed)
					}
					if !down {
						// The catalog answers the retry, which finds the
						// snapshot made: the apply finishes by itself.
						if failed.code != 0 || failed.killed {
							t.Fatalf("the apply that lost a commit's answer: want exit 0, got %s", failed)
						}
						mustRun(t, dir, 0, s.env, "plan", "-detailed-exitcode", "-no-color")
						checkRemoteTable(t, dir, uri, s.location(bucket), s.props, s.storage(t, bucket), expectedIDs(3, 2000))
						return
					}
				}
				if failed.code != 1 || failed.killed || !strings.Contains(failed.stderr, "127.0.0.1:"+strings.Split(proxy.addr, ":")[1]) {
					t.Errorf("the apply without its catalog: want exit 1 naming the catalog, got %s", failed)
				}
				t.Logf("the apply without its catalog says:\n%s", failed.stderr)

				proxy.start(t)
				mustRun(t, dir, 0, s.env, "apply", "-auto-approve", "-no-color", "-lock-timeout=30s")
				mustRun(t, dir, 0, s.env, "plan", "-detailed-exitcode", "-no-color")
				checkRemoteTable(t, dir, uri, s.location(bucket), s.props, s.storage(t, bucket), expectedIDs(3, 2000))
				if got := fmt.Sprint(duckdb(t, dir, `SELECT count(*), count(DISTINCT id) FROM read_parquet('out/folder/**/*.parquet')`)); got != "[[6000 6000]]" {
					t.Errorf("the Hive-folder destination: %s (want 6000 records, each once)", got)
				}
			})
		}
	})
}

// checkRemoteTable reads the table of icebergConfig at location (catalog at
// uri) through iceberg-go, then its current snapshot's data files, copied
// out of the store, through DuckDB: both see every record of want once, and
// the table has one snapshot per committed batch.
func checkRemoteTable(t *testing.T, dir, uri, location string, props map[string]string, store providers.Storage, want map[int64]bool) {
	t.Helper()
	ctx := context.Background()
	tb := openIcebergOrders(t, iceberg.Config{URI: uri, Location: location, Properties: props})
	defer tb.Close()
	checkScan(t, dir, tb, store, location, want)
	ms, err := engine.ReadManifests(ctx, store, "orders", 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(tb.Iceberg().Metadata().Snapshots()); n != len(ms) {
		t.Errorf("%d snapshots for %d committed batches", n, len(ms))
	}
}
