package iceberg_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/azblob"
)

// The same on Azure Blob Storage (Azurite): metadata and manifests written
// through iceberg-go's Azure IO (wasb://container@account…, the emulator's
// endpoint and shared key as properties), footers read from the blobs, and
// the table read back through it.
func TestAzureTable(t *testing.T) {
	az := testenv.Azurite(t)
	az.CreateContainer(t, "lake")
	const prefix = "orders/dev"
	store, err := azblob.New(context.Background(), azblob.Config{AccountURL: az.BlobURL, Container: "lake", Prefix: prefix, SharedKey: az.AccountKey})
	if err != nil {
		t.Fatal(err)
	}
	testObjectStoreTable(t, objectStore{
		location: "wasb://lake@" + az.AccountName + ".blob.core.windows.net/" + prefix,
		props: map[string]string{
			"adls.auth.shared-key.account.name": az.AccountName,
			"adls.auth.shared-key.account.key":  az.AccountKey,
			"adls.endpoint":                     fmt.Sprintf("127.0.0.1:%d", az.Port),
			"adls.protocol":                     "http",
		},
		put: func(ctx context.Context, rel string, data []byte) error {
			return providers.Put(ctx, store, rel, data)
		},
		count: func(ctx context.Context, dir string) (int, error) {
			n := 0
			err := store.List(ctx, dir, func(providers.ObjectInfo) error {
				n++
				return nil
			})
			return n, err
		},
	})
}
