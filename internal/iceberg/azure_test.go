package iceberg_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/azblob"
)

// The same on Azure Blob Storage (Azurite): metadata and manifests written
// through iceberg-go's Azure IO (wasb://container@account…, the emulator's
// endpoint and shared key as properties), footers read from the blobs, and
// the table read back through it.
func TestAzureTable(t *testing.T) {
	ctx := context.Background()
	az := testenv.Azurite(t)
	az.CreateContainer(t, "lake")
	const prefix = "orders/dev"
	store, err := azblob.New(ctx, azblob.Config{AccountURL: az.BlobURL, Container: "lake", Prefix: prefix, SharedKey: az.AccountKey})
	if err != nil {
		t.Fatal(err)
	}
	local := t.TempDir()
	location := "wasb://lake@" + az.AccountName + ".blob.core.windows.net/" + prefix
	upload := func(files []iceberg.DataFile) []iceberg.DataFile {
		t.Helper()
		out := make([]iceberg.DataFile, len(files))
		for i, f := range files {
			rel := strings.TrimPrefix(f.URL, "file://"+local+"/")
			b, err := os.ReadFile(filepath.Join(local, rel))
			if err != nil {
				t.Fatal(err)
			}
			if err := providers.Put(ctx, store, rel, b); err != nil {
				t.Fatal(err)
			}
			f.URL = location + "/" + rel
			out[i] = f
		}
		return out
	}
	by := []string{"day(ts)", "truncate(1, country)"}
	b0 := upload(writeBatch(t, local, layoutWith(by...), 0, records(0, 60)))
	b1 := upload(writeBatch(t, local, layoutWith(by...), 1, records(60, 100)))
	cfg := config(local, by...)
	cfg.Location = location
	cfg.URI = filepath.Join(t.TempDir(), "catalog.db")
	cfg.Properties = map[string]string{
		"adls.auth.shared-key.account.name": az.AccountName,
		"adls.auth.shared-key.account.key":  az.AccountKey,
		"adls.endpoint":                     fmt.Sprintf("127.0.0.1:%d", az.Port),
		"adls.protocol":                     "http",
	}
	tb := open(t, cfg)
	for b, files := range [][]iceberg.DataFile{b0, b1, b1} {
		if err := tb.Append(ctx, "orders", int64(min(b, 1)), "r", files); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(tb.Iceberg().Metadata().Snapshots()); n != 2 {
		t.Errorf("%d snapshots, want 2", n)
	}
	if !strings.HasPrefix(tb.Iceberg().MetadataLocation(), location+"/_streamctl/iceberg/metadata/") {
		t.Errorf("metadata at %s", tb.Iceberg().MetadataLocation())
	}
	var metadata []string
	if err := store.List(ctx, "_streamctl/iceberg/metadata/", func(o providers.ObjectInfo) error {
		metadata = append(metadata, o.Key)
		return nil
	}); err != nil || len(metadata) == 0 {
		t.Fatalf("no metadata blobs in the container: %v", err)
	}
	checkOnce(t, scanRows(t, tb.Iceberg(), nil), 100, false)
	files, err := tb.Files(ctx)
	if err != nil || len(files) != len(b0)+len(b1) {
		t.Errorf("Files: %d files (%v), want %d", len(files), err, len(b0)+len(b1))
	}
}
