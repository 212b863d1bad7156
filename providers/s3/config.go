package s3

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Defaults for the Config fields left unset (zero).
const (
	DefaultMultipartThreshold int64 = 64 << 20
	DefaultPartSize           int64 = 16 << 20
	DefaultMaxAttempts              = 5
)

// S3's limits on one PutObject, one part, the number of parts and one CopyObject.
const (
	maxPutSize  int64 = 5 << 30
	minPartSize int64 = 5 << 20
	maxPartSize int64 = 5 << 30
	maxParts          = 10000
	maxCopySize int64 = 5 << 30
)

// Config is the body of a `destination "s3" "NAME"` or `state "s3"` block, decoded
// with gohcl. Zero values mean "unset": the AWS default chain or the package
// defaults apply.
type Config struct {
	// Bucket holds the objects. Required.
	Bucket string `hcl:"bucket"`
	// Prefix roots every key: key k is stored at "<prefix>/k". Leading, trailing
	// and repeated slashes are dropped.
	Prefix string `hcl:"prefix,optional"`
	// Region of the bucket. Default: the AWS chain (AWS_REGION, the profile),
	// else us-east-1.
	Region string `hcl:"region,optional"`
	// Endpoint is the base URL of an S3-compatible store, e.g. http://127.0.0.1:7070.
	Endpoint string `hcl:"endpoint,optional"`
	// ForcePathStyle addresses the bucket in the path (http://host/bucket/key)
	// instead of the host name, as most S3-compatible stores need.
	ForcePathStyle bool `hcl:"force_path_style,optional"`
	// SSE is the server-side encryption of every written object: "AES256" or
	// "aws:kms". Default: the bucket's default encryption.
	SSE string `hcl:"sse,optional"`
	// KMSKeyID is the KMS key for sse = "aws:kms". Default: the account's S3 key.
	KMSKeyID string `hcl:"kms_key_id,optional"`
	// StorageClass of every written object, e.g. "STANDARD_IA". Default: STANDARD.
	StorageClass string `hcl:"storage_class,optional"`
	// Profile is the shared-config profile the credentials and region come from.
	Profile string `hcl:"profile,optional"`
	// AccessKey and SecretKey are static credentials that replace the AWS chain.
	// The config layer only accepts them from sensitive variables.
	AccessKey string `hcl:"access_key,optional"`
	SecretKey string `hcl:"secret_key,optional"`
	// MultipartThreshold is the size in bytes above which an object is uploaded in
	// parts; smaller objects are buffered and sent in one PutObject. A batch's
	// larger files are uploaded in parts on their final keys while they are
	// written, and completed at promotion; its smaller ones are sent at
	// promotion. Default 64 MiB.
	MultipartThreshold int64 `hcl:"multipart_threshold,optional"`
	// PartSize is the size in bytes of each part of a multipart upload. Default
	// 16 MiB; at least 5 MiB (S3's minimum).
	PartSize int64 `hcl:"part_size,optional"`
	// MaxAttempts bounds the attempts of each request on throttling and transient
	// errors. Default 5.
	MaxAttempts int `hcl:"max_attempts,optional"`
	// SkipConditionalWriteCheck trusts the store's conditional writes
	// (If-None-Match, If-Match) without the probe streamctl runs before it
	// takes a lock or commits a batch there. Only for a store with a single
	// writer: where conditions are ignored, two writers go undetected.
	SkipConditionalWriteCheck bool `hcl:"skip_conditional_write_check,optional"`
}

// ConfigError is one invalid attribute of a Config, named as in HCL so that the
// config layer can point at it.
type ConfigError struct {
	Attribute string
	Problem   string
}

func (e *ConfigError) Error() string { return e.Attribute + ": " + e.Problem }

// Validate checks the values of c and returns every problem found, each a
// *ConfigError, joined with errors.Join. It does not touch the network.
func (c Config) Validate() error {
	var errs []error
	bad := func(attr, format string, args ...any) {
		errs = append(errs, &ConfigError{Attribute: attr, Problem: fmt.Sprintf(format, args...)})
	}
	switch {
	case c.Bucket == "":
		bad("bucket", "is required")
	case strings.Contains(c.Bucket, "/"):
		bad("bucket", "%q contains '/': set the bucket name alone and the path in prefix", c.Bucket)
	}
	for _, seg := range strings.Split(c.Prefix, "/") {
		if seg == "." || seg == ".." {
			bad("prefix", "%q contains a %q segment", c.Prefix, seg)
			break
		}
	}
	if c.Endpoint != "" {
		u, err := url.Parse(c.Endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("endpoint", "%q is not an http:// or https:// URL", c.Endpoint)
		}
	}
	switch c.SSE {
	case "", "AES256", "aws:kms":
	default:
		bad("sse", `must be "AES256" or "aws:kms", not %q`, c.SSE)
	}
	if c.KMSKeyID != "" && c.SSE != "aws:kms" {
		bad("kms_key_id", `is only used with sse = "aws:kms"`)
	}
	if (c.AccessKey == "") != (c.SecretKey == "") {
		bad("access_key", "access_key and secret_key must be set together")
	}
	if c.AccessKey != "" && c.Profile != "" {
		bad("profile", "set either profile or access_key and secret_key, not both")
	}
	if c.MultipartThreshold < 0 || c.MultipartThreshold > maxPutSize {
		bad("multipart_threshold", "must be between 0 (default) and %d bytes (5 GiB, the largest single upload), not %d", maxPutSize, c.MultipartThreshold)
	}
	if c.PartSize != 0 && (c.PartSize < minPartSize || c.PartSize > maxPartSize) {
		bad("part_size", "must be between %d bytes (5 MiB) and %d bytes (5 GiB), not %d", minPartSize, maxPartSize, c.PartSize)
	}
	if c.MaxAttempts < 0 {
		bad("max_attempts", "must be at least 1, not %d", c.MaxAttempts)
	}
	return errors.Join(errs...)
}

// withDefaults returns c with the defaults in place of unset sizes and counts.
func (c Config) withDefaults() Config {
	if c.MultipartThreshold == 0 {
		c.MultipartThreshold = DefaultMultipartThreshold
	}
	if c.PartSize == 0 {
		c.PartSize = DefaultPartSize
	}
	if c.MaxAttempts == 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	return c
}

// cleanPrefix drops leading, trailing and repeated slashes.
func cleanPrefix(p string) string {
	var segs []string
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	return strings.Join(segs, "/")
}
