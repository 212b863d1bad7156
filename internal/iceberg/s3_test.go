package iceberg_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/streamctl/streamctl/internal/testenv"
)

// The same on S3 (versitygw): metadata and manifests written through
// iceberg-go's S3 IO with an endpoint override, footers read from the
// objects, and the table read back through it.
func TestS3Table(t *testing.T) {
	srv := testenv.S3(t)
	srv.CreateBucket(t, "lake")
	client := srv.Client()
	const prefix = "orders/dev"
	testObjectStoreTable(t, objectStore{
		location: "s3://lake/" + prefix,
		props: map[string]string{
			"s3.endpoint":          srv.Endpoint,
			"s3.region":            srv.Region,
			"s3.access-key-id":     srv.AccessKey,
			"s3.secret-access-key": srv.SecretKey,
		},
		put: func(ctx context.Context, rel string, data []byte) error {
			_, err := client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String("lake"), Key: aws.String(prefix + "/" + rel), Body: bytes.NewReader(data)})
			return err
		},
		count: func(ctx context.Context, dir string) (int, error) {
			out, err := client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String("lake"), Prefix: aws.String(prefix + "/" + dir)})
			if err != nil {
				return 0, err
			}
			return len(out.Contents), nil
		},
	})
}
