package iceberg_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/internal/testenv"
)

// restConfig is config(root) through the REST catalog srv, authenticated
// with the given catalog properties (credential or token).
func restConfig(srv *testenv.RESTCatalog, root string, auth map[string]string) iceberg.Config {
	cfg := config(root)
	cfg.Catalog, cfg.URI, cfg.Properties = iceberg.CatalogREST, srv.URL, auth
	return cfg
}

// TestRESTCatalog: through iceberg-go's REST client, with OAuth2 client
// credentials or a bearer token, four shards of a sink commit to one table
// at once; the catalog refuses the commits whose requirement a faster shard
// broke (409), and each is retried: one snapshot per shard-batch, every
// record once. Wrong credentials are refused before anything is written.
func TestRESTCatalog(t *testing.T) {
	ctx := context.Background()
	srv := testenv.StartRESTCatalog(t)
	root := t.TempDir()
	const shards, batches, perBatch = 4, 3, 10
	files := make([][][]iceberg.DataFile, shards)
	for s := range shards {
		layout := pipeline.Layout{Columns: columns, Shard: "s" + strconv.Itoa(s)}
		for b := range batches {
			first := (s*batches + b) * perBatch
			files[s] = append(files[s], writeBatch(t, root, layout, int64(b), records(first, first+perBatch)))
		}
	}
	creds := map[string]string{"credential": srv.ClientID + ":" + srv.ClientSecret}
	token := map[string]string{"token": srv.Token}

	if _, err := iceberg.Open(ctx, restConfig(srv, root, map[string]string{"credential": srv.ClientID + ":wrong"})); err == nil {
		t.Fatal("wrong client credentials were accepted")
	}
	if _, err := iceberg.Open(ctx, restConfig(srv, root, map[string]string{"token": "wrong"})); err == nil || !strings.Contains(err.Error(), "401") && !strings.Contains(strings.ToLower(err.Error()), "authoriz") {
		t.Fatalf("a wrong bearer token: %v, want it refused as unauthorised", err)
	}

	var wg sync.WaitGroup
	errs := make([]error, shards)
	for s := range shards {
		wg.Go(func() {
			auth := creds
			if s%2 == 1 {
				auth = token
			}
			tb, err := iceberg.Open(ctx, restConfig(srv, root, auth))
			if err != nil {
				errs[s] = err
				return
			}
			defer tb.Close()
			for b := range int64(batches) {
				if err := tb.Append(ctx, fmt.Sprintf("orders/shard-%d", s), b, "r", files[s][b]); err != nil {
					errs[s] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if srv.Conflicts() == 0 {
		t.Log("no commit conflicted this time: the 409 path was not taken")
	}
	tb := open(t, restConfig(srv, root, token))
	if n := len(tb.Iceberg().Metadata().Snapshots()); n != shards*batches {
		t.Errorf("%d snapshots, want %d", n, shards*batches)
	}
	checkOnce(t, scanRows(t, tb.Iceberg(), nil), shards*batches*perBatch, false)
}

// TestRESTCommitConflict: a commit whose requirement no longer holds (the
// branch moved since the writer read it) is refused by the catalog with 409,
// and Append reads the table again and commits on top.
func TestRESTCommitConflict(t *testing.T) {
	ctx := context.Background()
	srv := testenv.StartRESTCatalog(t)
	root := t.TempDir()
	layout := pipeline.Layout{Columns: columns}
	b0 := writeBatch(t, root, layout, 0, records(0, 20))
	other := writeBatch(t, root, pipeline.Layout{Columns: columns, Shard: "s9"}, 0, records(20, 40))
	auth := map[string]string{"token": srv.Token}
	slow := open(t, restConfig(srv, root, auth))
	fast := open(t, restConfig(srv, root, auth))
	// Between slow's read of the table and its commit, fast commits once.
	var done atomic.Bool
	var fastErr error
	t.Cleanup(iceberg.SetHookBeforeCommit(func() {
		if done.CompareAndSwap(false, true) { // fast's own commit passes here too
			fastErr = fast.Append(ctx, "refunds", 0, "r", other)
		}
	}))
	conflicts := srv.Conflicts()
	if err := slow.Append(ctx, "orders", 0, "r", b0); err != nil {
		t.Fatal(err)
	}
	if fastErr != nil {
		t.Fatal(fastErr)
	}
	if srv.Conflicts() != conflicts+1 {
		t.Errorf("the catalog refused %d commits, want the stale one refused once", srv.Conflicts()-conflicts)
	}
	tb := open(t, restConfig(srv, root, auth))
	if n := len(tb.Iceberg().Metadata().Snapshots()); n != 2 {
		t.Errorf("%d snapshots, want 2", n)
	}
	checkOnce(t, scanRows(t, tb.Iceberg(), nil), 40, false)
}

// TestRESTLostAnswer: the catalog makes a commit and goes down before
// answering (503); Append fails. Once it is back, the retry finds the batch
// in the table and adds nothing.
func TestRESTLostAnswer(t *testing.T) {
	ctx := context.Background()
	srv := testenv.StartRESTCatalog(t)
	root := t.TempDir()
	layout := pipeline.Layout{Columns: columns}
	b0 := writeBatch(t, root, layout, 0, records(0, 20))
	auth := map[string]string{"credential": srv.ClientID + ":" + srv.ClientSecret}
	tb := open(t, restConfig(srv, root, auth))
	srv.LoseAnswerAfter(1)
	if err := tb.Append(ctx, "orders", 0, "r", b0); err == nil {
		t.Fatal("Append succeeded with the catalog down")
	}
	srv.SetDown(false)
	again := open(t, restConfig(srv, root, auth))
	if err := again.Append(ctx, "orders", 0, "r", b0); err != nil {
		t.Fatal(err)
	}
	if n := len(again.Iceberg().Metadata().Snapshots()); n != 1 {
		t.Errorf("%d snapshots, want the lost answer's one", n)
	}
	checkOnce(t, scanRows(t, again.Iceberg(), nil), 20, false)
}
