package iceberg_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/testenv"
)

// The same on S3 (versitygw): metadata and manifests written through
// iceberg-go's S3 IO with an endpoint override, footers read from the
// objects, and the table read back through it.
func TestS3Table(t *testing.T) {
	ctx := context.Background()
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	client := srv.Client()
	local := t.TempDir()
	const prefix = "orders/dev"
	upload := func(files []iceberg.DataFile) []iceberg.DataFile {
		t.Helper()
		out := make([]iceberg.DataFile, len(files))
		for i, f := range files {
			rel := strings.TrimPrefix(f.URL, "file://"+local+"/")
			b, err := os.ReadFile(filepath.Join(local, rel))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("lake"), Key: aws.String(prefix + "/" + rel), Body: strings.NewReader(string(b))}); err != nil {
				t.Fatal(err)
			}
			f.URL = "s3://lake/" + prefix + "/" + rel
			out[i] = f
		}
		return out
	}
	by := []string{"day(ts)", "truncate(1, country)"}
	b0 := upload(writeBatch(t, local, layoutWith(by...), 0, records(0, 60)))
	b1 := upload(writeBatch(t, local, layoutWith(by...), 1, records(60, 100)))
	cfg := config(local, by...)
	cfg.Location = "s3://lake/" + prefix
	cfg.URI = filepath.Join(t.TempDir(), "catalog.db")
	cfg.Properties = map[string]string{
		"s3.endpoint":          srv.Endpoint,
		"s3.region":            srv.Region,
		"s3.access-key-id":     srv.AccessKey,
		"s3.secret-access-key": srv.SecretKey,
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
	if !strings.HasPrefix(tb.Iceberg().MetadataLocation(), "s3://lake/"+prefix+"/_streamctl/iceberg/metadata/") {
		t.Errorf("metadata at %s", tb.Iceberg().MetadataLocation())
	}
	out, err := client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("lake"), Prefix: aws.String(prefix + "/_streamctl/iceberg/metadata/")})
	if err != nil || len(out.Contents) == 0 {
		t.Fatalf("no metadata objects on the store: %v", err)
	}
	checkOnce(t, scanRows(t, tb.Iceberg(), nil), 100, false)
	files, err := tb.Files(ctx)
	if err != nil || len(files) != len(b0)+len(b1) {
		t.Errorf("Files: %d files (%v), want %d", len(files), err, len(b0)+len(b1))
	}
}
