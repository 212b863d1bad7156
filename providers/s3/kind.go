package s3

import (
	"context"
	"strconv"
	"strings"

	"github.com/streamctl/streamctl/providers"
)

// Kind declares `destination "s3"` and `state "s3"`.
var Kind = &providers.Kind{
	Type: "s3",
	Destination: &providers.DestinationRole{
		Body: roleBody(providers.Body{
			Summary: "An Amazon S3 bucket, or any S3-compatible store (`endpoint`).",
			Description: "S3 has no rename: a batch's files are uploaded on their final keys as multipart uploads that " +
				"promotion completes (files up to `multipart_threshold` are sent whole at promotion); the manifest is " +
				"written with `If-None-Match: *`, so it is created once. Credentials come from the AWS chain " +
				"(environment, profile, instance role) unless `access_key` and `secret_key` are set.",
		}),
		Open:          open,
		Location:      location,
		TableLocation: tableLocation,
	},
	State: &providers.StateRole{
		Body: roleBody(providers.Body{
			Summary: "The state in an S3 bucket (or any S3-compatible store).",
			Description: "Written with compare-and-swap (`If-Match` on the ETag), locked with a " +
				"create-only `<key>.lock` (`If-None-Match: *`). Every attribute of " +
				"[destination \"s3\"](#sink-destination-s3) is accepted too: bucket, region, endpoint, credentials.",
			Example: `streamctl {
  state "s3" {
    bucket = "ops"
    key    = "streamctl/orders.json"
    region = "eu-west-1"
  }
}
`,
		}),
		Open: open,
	},
}

// roleBody completes b with what both roles share: Config and its attributes.
func roleBody(b providers.Body) providers.Body {
	b.Config = Config{}
	b.Secrets = []string{"access_key", "secret_key"}
	b.Paths = []string{"prefix", "bucket"}
	b.Attributes = map[string]providers.Attribute{
		"bucket":                       {Example: `"lake-eu"`},
		"prefix":                       {Example: `"orders/prod"`},
		"region":                       {Default: "the AWS chain, else `us-east-1`", Example: `"eu-west-1"`},
		"endpoint":                     {Default: "AWS", Example: `"http://127.0.0.1:7070"`},
		"force_path_style":             {Default: "false", Example: "true"},
		"sse":                          {Default: "the bucket's default encryption", Example: `"aws:kms"`, Allowed: []string{"AES256", "aws:kms"}},
		"kms_key_id":                   {Default: "the account's S3 key", Example: `"alias/lake"`},
		"storage_class":                {Default: `"STANDARD"`, Example: `"STANDARD_IA"`},
		"profile":                      {Default: "the AWS chain", Example: `"lake"`},
		"access_key":                   {Default: "the AWS chain", Example: "var.aws_access_key"},
		"secret_key":                   {Default: "the AWS chain", Example: "var.aws_secret_key", Description: "The secret of `access_key`. Only accepted from a sensitive variable."},
		"multipart_threshold":          {Default: providers.SizeDoc(DefaultMultipartThreshold), Example: "134217728"},
		"part_size":                    {Default: providers.SizeDoc(DefaultPartSize), Example: "33554432"},
		"max_attempts":                 {Default: strconv.Itoa(DefaultMaxAttempts), Example: "10"},
		"skip_conditional_write_check": {Default: "false", Example: "true"},
	}
	return b
}

func open(ctx context.Context, cfg any) (providers.Storage, error) {
	return New(ctx, *cfg.(*Config))
}

// tableLocation is the destination as an Iceberg-style location, with the
// properties of iceberg-go's S3 file IO (unset ones come from the AWS chain).
func tableLocation(cfg any) (string, map[string]string, error) {
	c := cfg.(*Config)
	url := "s3://" + c.Bucket
	if p := strings.Trim(c.Prefix, "/"); p != "" {
		url += "/" + p
	}
	props := map[string]string{}
	for k, v := range map[string]string{
		"s3.endpoint": c.Endpoint, "s3.region": c.Region,
		"s3.access-key-id": c.AccessKey, "s3.secret-access-key": c.SecretKey,
	} {
		if v != "" {
			props[k] = v
		}
	}
	return url, props, nil
}

func location(cfg any) string {
	c := cfg.(*Config)
	return "s3://" + c.Endpoint + "/" + c.Bucket + "/" + strings.Trim(c.Prefix, "/")
}
