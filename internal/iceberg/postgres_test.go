package iceberg_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/internal/testenv"
)

// configFunc is config, or config with another catalog.
type configFunc func(root string, partitionBy ...string) iceberg.Config

// eachCatalog runs test with each server of the SQL catalog: SQLite (the
// default, a file in the table's folder) and PostgreSQL (a database of its
// own).
func eachCatalog(t *testing.T, test func(t *testing.T, config configFunc)) {
	t.Run("sqlite", func(t *testing.T) { test(t, config) })
	t.Run("postgres", func(t *testing.T) {
		dsn := testenv.Postgres(t)
		test(t, func(root string, partitionBy ...string) iceberg.Config {
			c := config(root, partitionBy...)
			c.URI = dsn
			return c
		})
	})
}

// Two sinks, each with its table, commit to one catalog at once, from its
// first use (the catalog's own tables are created by both): each table
// holds its sink's batches once, and knows only its sink.
func TestTwoTablesOneCatalog(t *testing.T) {
	shared := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return filepath.Join(t.TempDir(), "catalog.db") },
		"postgres": func(t *testing.T) string { return testenv.Postgres(t) },
	}
	for name, uri := range shared {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			catalog := uri(t)
			layout := pipeline.Layout{Columns: columns, MaxFileRecords: 20}
			sinks := []string{"orders", "refunds"}
			roots := map[string]string{}
			batches := map[string][][]iceberg.DataFile{}
			for _, sink := range sinks {
				roots[sink] = t.TempDir()
				for b := range 3 {
					batches[sink] = append(batches[sink], writeBatch(t, roots[sink], layout, int64(b), records(b*30, (b+1)*30)))
				}
			}
			cfgOf := func(sink string) iceberg.Config {
				c := config(roots[sink])
				c.URI, c.Table = catalog, sink
				return c
			}
			var wg sync.WaitGroup
			errs := make([]error, len(sinks))
			for i, sink := range sinks {
				wg.Add(1)
				go func() {
					defer wg.Done()
					tb, err := iceberg.Open(ctx, cfgOf(sink))
					if err != nil {
						errs[i] = err
						return
					}
					defer tb.Close()
					for b, files := range batches[sink] {
						if err := tb.Append(ctx, sink, int64(b), fmt.Sprintf("r%d", b), files); err != nil {
							errs[i] = err
							return
						}
					}
				}()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("sink %s: %v", sinks[i], err)
				}
			}
			for _, sink := range sinks {
				tb := open(t, cfgOf(sink))
				if n := len(tb.Iceberg().Metadata().Snapshots()); n != 3 {
					t.Errorf("table %s: %d snapshots, want 3", sink, n)
				}
				checkOnce(t, scanRows(t, tb.Iceberg(), nil), 90, false)
				for _, other := range sinks {
					done, err := tb.Committed(ctx, other, 2)
					if err != nil || done != (other == sink) {
						t.Errorf("table %s: Committed(%s, 2) = %v, %v", sink, other, done, err)
					}
				}
			}
		})
	}
}

// A PostgreSQL catalog that does not answer: Ping and Open say why and what
// to do, Open and CatalogAddress which catalog, never its password; nothing
// is created.
func TestPostgresUnreachable(t *testing.T) {
	ctx := context.Background()
	port := testenv.ClosedPort(t)
	for _, c := range []struct{ uri, shown string }{
		{fmt.Sprintf("postgres://streamctl:canary-pw@127.0.0.1:%d/lake?sslmode=disable", port),
			fmt.Sprintf("postgres://streamctl:xxxxx@127.0.0.1:%d/lake", port)},
		{fmt.Sprintf("postgresql://127.0.0.1:%d/lake?user=streamctl&password=canary-pw", port),
			fmt.Sprintf("postgresql://127.0.0.1:%d/lake", port)},
	} {
		root := t.TempDir()
		cfg := config(root)
		cfg.URI = c.uri
		if got := iceberg.CatalogAddress(cfg); strings.Contains(got, "canary") || !strings.Contains(got, c.shown) {
			t.Errorf("CatalogAddress(%s) = %q, want %s and no password", c.shown, got, c.shown)
		}
		for name, err := range map[string]error{
			"Ping": iceberg.Ping(ctx, cfg),
			"Open": func() error { _, err := iceberg.Open(ctx, cfg); return err }(),
		} {
			if err == nil {
				t.Fatalf("%s of %s succeeded", name, c.shown)
			}
			msg := err.Error()
			if strings.Contains(msg, "canary") {
				t.Errorf("%s shows the password: %s", name, msg)
			}
			if name == "Open" && !strings.Contains(msg, c.shown) || !strings.Contains(msg, "connection refused") || !strings.Contains(msg, "check that the server runs") {
				t.Errorf("%s: %s\nwant the catalog %s, the cause and what to do", name, msg, c.shown)
			}
		}
		if m, _ := filepath.Glob(filepath.Join(root, "*")); len(m) != 0 {
			t.Errorf("the table's folder holds %v after a failed open", m)
		}
	}
}

// TestInspectFreshPostgres: a PostgreSQL database that never held a catalog
// (no iceberg_tables yet) holds no table, and Inspect creates none of the
// catalog's tables: plan before the first apply.
func TestInspectFreshPostgres(t *testing.T) {
	ctx := context.Background()
	dsn := testenv.Postgres(t)
	c := config(t.TempDir())
	c.URI = dsn
	in, err := iceberg.Inspect(ctx, c, "orders")
	if err != nil || in.Exists {
		t.Fatalf("Inspect of a fresh database: %v, %+v", err, in)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("Inspect created %d tables in the database", n)
	}
}

// Many writers open one fresh catalog at once, each for its own table,
// over and over: every Open succeeds. iceberg-go creates the catalog's
// tables with CREATE TABLE IF NOT EXISTS, which neither server serialises;
// on PostgreSQL the loser of the race fails on the table's name or on its
// row type, depending on where the two meet, and the writers' serialisable
// inserts of their tables fail each other.
func TestCatalogOpenedByManyAtOnce(t *testing.T) {
	const rounds, writers = 15, 6
	ctx := context.Background()
	fresh := map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return filepath.Join(t.TempDir(), "catalog.db") },
		"postgres": func(t *testing.T) string { return testenv.Postgres(t) },
	}
	for name, uri := range fresh {
		t.Run(name, func(t *testing.T) {
			for round := range rounds {
				catalog := uri(t)
				var wg sync.WaitGroup
				errs := make([]error, writers)
				for w := range writers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						c := config(t.TempDir())
						c.URI, c.Table = catalog, fmt.Sprintf("sink%d", w)
						tb, err := iceberg.Open(ctx, c)
						if err != nil {
							errs[w] = err
							return
						}
						errs[w] = tb.Close()
					}()
				}
				wg.Wait()
				for w, err := range errs {
					if err != nil {
						t.Errorf("round %d, writer %d: %v", round, w, err)
					}
				}
			}
		})
	}
}
