package iceberg_test

import (
	"context"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/gcs"
)

// The same on Google Cloud Storage (fake-gcs-server): metadata and
// manifests written through the gs:// file IO (gsio), configured with the
// properties the gcs destination gives its table, and read back through it.
func TestGCSTable(t *testing.T) {
	srv := testenv.GCS(t)
	srv.CreateBucket(t, "lake")
	cfg := &gcs.Config{Bucket: "lake", Prefix: "orders/dev", Endpoint: srv.Endpoint}
	location, props, err := gcs.Kind.Destination.TableLocation(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if location != "gs://lake/orders/dev" {
		t.Errorf("location %s, want gs://lake/orders/dev", location)
	}
	store, err := gcs.New(context.Background(), *cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	testObjectStoreTable(t, objectStore{
		location: location,
		props:    props,
		put: func(ctx context.Context, rel string, data []byte) error {
			_, err := store.PutIfAbsent(ctx, rel, data)
			return err
		},
		count: func(ctx context.Context, dir string) (int, error) {
			n := 0
			err := store.List(ctx, dir, func(providers.ObjectInfo) error { n++; return nil })
			return n, err
		},
	})
}
