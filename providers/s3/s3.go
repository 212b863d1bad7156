// Package s3 implements providers.Storage on Amazon S3 and S3-compatible stores.
//
// S3 has no rename, so Storage is not a providers.Renamer: the engine promotes a
// file by server-side Copy then Delete. Every object still appears atomically:
// a PutObject, a CopyObject or the completion of a multipart upload. Versions
// are ETags; create-only and compare-and-swap writes use If-None-Match: * and
// If-Match: <etag>.
package s3

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/streamctl/streamctl/internal/crash"
	"github.com/streamctl/streamctl/internal/upload"
	"github.com/streamctl/streamctl/providers"
)

// Storage is a bucket, rooted at a prefix, used as an object store.
type Storage struct {
	client    *s3.Client
	cfg       Config // with defaults applied
	bucket    string
	prefix    string // cleaned, no leading or trailing slash; "" for the bucket's root
	threshold int64
	partSize  int64

	// noBatchDelete is set once the store refused DeleteObjects.
	noBatchDelete atomic.Bool
	// Objects CopyObject refuses as too large are copied part by part in
	// ranges of copyPartSize. Tests set copyInParts to take that path with
	// small objects.
	copyInParts  bool
	copyPartSize int64

	// waiting bounds the staged objects kept in their buffers until
	// promotion; past it they are uploaded as multipart uploads at once.
	waiting *upload.Budget
}

var (
	_ providers.Storage       = (*Storage)(nil)
	_ providers.PrefixDeleter = (*Storage)(nil)
	_ providers.Stager        = (*Storage)(nil)
	_ providers.StagedLister  = (*Storage)(nil)
)

// Features implements providers.Storage: multipart uploads are staged and
// listed, a prefix is removed with batch deletes, and conditional writes
// are probed unless the block skips the check.
func (s *Storage) Features() providers.Features {
	return providers.Features{PrefixDeleter: s, Stager: s, StagedLister: s, ConditionalWritesUnchecked: s.cfg.SkipConditionalWriteCheck}
}

// retryBaseDelay is the first backoff before a retry of a transient error; it
// doubles each attempt, so the default 5 attempts ride out a few seconds of
// outage (an S3-compatible server restarting). Throttling backs off from 1 s.
const retryBaseDelay = 250 * time.Millisecond

// responseTimeout bounds the wait for a response's headers after a request was
// sent. S3 answers even a 5 GiB CopyObject within it (it sends its 200 at once).
const responseTimeout = 2 * time.Minute

// New validates cfg and builds the client from the standard AWS chain
// (environment, shared config and profile, SSO, web identity, instance
// metadata), or from access_key and secret_key when they are set. It does not
// touch the network.
func New(ctx context.Context, cfg Config) (*Storage, error) {
	return newStorage(ctx, cfg)
}

func newStorage(ctx context.Context, cfg Config, optFns ...func(*s3.Options)) (*Storage, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("s3://%s: invalid configuration: %w", cfg.Bucket, err)
	}
	cfg = cfg.withDefaults()
	opts := []func(*awsconfig.LoadOptions) error{
		awsconfig.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) {
				o.MaxAttempts = cfg.MaxAttempts
				o.BaseDelay = retryBaseDelay
				// The token bucket would fail a long run's retries once a few
				// dozen have happened; max_attempts already bounds each request.
				o.RateLimiter = ratelimit.None
				o.Retryables = append(o.Retryables, retry.IsErrorRetryableFunc(func(err error) aws.Ternary {
					// versitygw's posix backend answers a write whose parent
					// directory a concurrent DeleteObject just removed with this
					// 409; the retry succeeds. AWS never sends it.
					if codeOf(err) == "ExistingObjectIsDirectory" {
						return aws.TrueTernary
					}
					return aws.UnknownTernary
				}))
			})
		}),
	}
	opts = append(opts, awsconfig.WithHTTPClient(awshttp.NewBuildableClient().WithTransportOptions(func(tr *http.Transport) {
		// A server that accepts a request and never answers must not hang a
		// run: the timeout is a retryable error like a refused connection.
		// It starts once the request is sent, so large uploads are not cut.
		tr.ResponseHeaderTimeout = responseTimeout
	})))
	if cfg.Region != "" {
		opts = append(opts, awsconfig.WithRegion(cfg.Region))
	}
	if cfg.Profile != "" {
		opts = append(opts, awsconfig.WithSharedConfigProfile(cfg.Profile))
	}
	if cfg.AccessKey != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(cfg.AccessKey, cfg.SecretKey, "")))
	}
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("s3://%s: load the AWS configuration: %w", cfg.Bucket, err)
	}
	if awsCfg.Region == "" {
		awsCfg.Region = "us-east-1"
	}
	if awsCfg.Credentials != nil {
		awsCfg.Credentials = credentialsProvider{awsCfg.Credentials}
	}
	client := s3.NewFromConfig(awsCfg, func(o *s3.Options) {
		o.UsePathStyle = cfg.ForcePathStyle
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
		for _, fn := range optFns {
			fn(o)
		}
	})
	return &Storage{
		client:       client,
		cfg:          cfg,
		bucket:       cfg.Bucket,
		prefix:       cleanPrefix(cfg.Prefix),
		threshold:    cfg.MultipartThreshold,
		partSize:     cfg.PartSize,
		copyPartSize: 512 << 20,
		waiting:      upload.DefaultBudget(),
	}, nil
}

// Describe implements providers.Storage: "s3://bucket/prefix".
func (s *Storage) Describe() string {
	if s.prefix == "" {
		return "s3://" + s.bucket
	}
	return "s3://" + s.bucket + "/" + s.prefix
}

// objectKey maps a key to the S3 key under the prefix, refusing keys that are
// not relative '/'-separated paths.
func (s *Storage) objectKey(key string) (string, error) {
	if err := providers.CheckKey(key); err != nil {
		return "", err
	}
	if s.prefix == "" {
		return key, nil
	}
	return s.prefix + "/" + key, nil
}

// loc names an S3 key for messages.
func (s *Storage) loc(objectKey string) string { return "s3://" + s.bucket + "/" + objectKey }

func (s *Storage) wrap(op, objectKey string, err error) error {
	return wrapErr(op, s.loc(objectKey), s.bucket, err)
}

// sse returns the encryption settings applied to every write.
func (s *Storage) sse() (types.ServerSideEncryption, *string) {
	var kms *string
	if s.cfg.KMSKeyID != "" {
		kms = aws.String(s.cfg.KMSKeyID)
	}
	return types.ServerSideEncryption(s.cfg.SSE), kms
}

// Create implements providers.Storage. An object of at most
// multipart_threshold bytes is sent with one PutObject on Commit; a larger one
// becomes a multipart upload whose parts are sent while writing, at most two
// at a time, and which Commit completes. The bytes wait in a spill.Buffer: in
// memory up to 256 KiB, then in a temporary file, so that memory stays small
// whatever the object's size and however many objects a batch writes at once.
func (s *Storage) Create(ctx context.Context, key string) (providers.ObjectWriter, error) {
	ok, err := s.objectKey(key)
	if err != nil {
		return nil, fmt.Errorf("put %s: %w", s.Describe(), err)
	}
	return &writer{m: s.newMultipart(ctx, ok, s.threshold, nil)}, nil
}

// Stage implements providers.Stager: a multipart upload on the final key, its
// parts sent while writing, which Publish completes. Completing moves no
// data, where promoting a staged copy would copy every byte once more. An
// object of at most multipart_threshold bytes waits in its buffer instead
// and Publish sends it with one PutObject: one request instead of three.
func (s *Storage) Stage(ctx context.Context, key string, opt providers.StageOptions) (providers.StagedWriter, error) {
	ok, err := s.objectKey(key)
	if err != nil {
		return nil, fmt.Errorf("stage %s: %w", s.Describe(), err)
	}
	return &stagedWriter{m: s.newMultipart(ctx, ok, s.threshold, opt.Hold)}, nil
}

// ListStaged implements providers.Stager with ListMultipartUploads, page by
// page: the uploads begun and neither completed nor aborted.
func (s *Storage) ListStaged(ctx context.Context, prefix string, fn func(providers.StagedUpload) error) error {
	full := s.relativeRoot() + prefix
	in := &s3.ListMultipartUploadsInput{Bucket: aws.String(s.bucket), Prefix: aws.String(full)}
	for {
		page, err := s.client.ListMultipartUploads(ctx, in)
		if err != nil {
			return wrapErr("list uploads", s.loc(full), s.bucket, err)
		}
		for _, u := range page.Uploads {
			err := fn(providers.StagedUpload{
				Key:     s.relative(aws.ToString(u.Key)),
				ID:      aws.ToString(u.UploadId),
				Started: aws.ToTime(u.Initiated),
			})
			if err != nil {
				return err
			}
		}
		if !aws.ToBool(page.IsTruncated) {
			return nil
		}
		in.KeyMarker, in.UploadIdMarker = page.NextKeyMarker, page.NextUploadIdMarker
	}
}

// Discard implements providers.Stager with AbortMultipartUpload.
func (s *Storage) Discard(ctx context.Context, u providers.StagedUpload) error {
	ok, err := s.objectKey(u.Key)
	if err != nil {
		return fmt.Errorf("discard %s: %w", s.Describe(), err)
	}
	return s.abortUpload(ctx, ok, u.ID)
}

// relativeRoot is what relative strips: the prefix and its slash.
func (s *Storage) relativeRoot() string {
	if s.prefix == "" {
		return ""
	}
	return s.prefix + "/"
}

// relative maps an S3 key under the prefix back to a storage key.
func (s *Storage) relative(objectKey string) string {
	return strings.TrimPrefix(objectKey, s.relativeRoot())
}

func (s *Storage) putObject(ctx context.Context, key string, data []byte, ifNoneMatch, ifMatch *string) (*s3.PutObjectOutput, error) {
	return s.putObjectFrom(ctx, key, bytes.NewReader(data), int64(len(data)), ifNoneMatch, ifMatch)
}

func (s *Storage) putObjectFrom(ctx context.Context, key string, body io.ReadSeeker, size int64, ifNoneMatch, ifMatch *string) (*s3.PutObjectOutput, error) {
	enc, kms := s.sse()
	return s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:               aws.String(s.bucket),
		Key:                  aws.String(key),
		Body:                 body,
		ContentLength:        aws.Int64(size),
		ServerSideEncryption: enc,
		SSEKMSKeyId:          kms,
		StorageClass:         types.StorageClass(s.cfg.StorageClass),
		IfNoneMatch:          ifNoneMatch,
		IfMatch:              ifMatch,
	})
}

// PutIfAbsent implements providers.Storage with PutObject and If-None-Match: *.
// A 412, and a 409 ConditionalRequestConflict (a racing conditional write to the
// same key), mean another writer got there first: ErrExist.
func (s *Storage) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	ok, err := s.objectKey(key)
	if err != nil {
		return "", fmt.Errorf("put %s: %w", s.Describe(), err)
	}
	out, err := s.putObject(ctx, ok, data, aws.String("*"), nil)
	if err != nil {
		if statusOf(err) == 412 || codeOf(err) == "PreconditionFailed" || codeOf(err) == "ConditionalRequestConflict" {
			return providers.SettleCondition(ctx, s, key, data, fmt.Errorf("put %s: %w", s.loc(ok), providers.ErrExist))
		}
		return "", s.wrapConditional(ok, "If-None-Match", err)
	}
	return aws.ToString(out.ETag), nil
}

// PutIfMatch implements providers.Storage with PutObject and If-Match: <etag>. A
// 412, and a 409 ConditionalRequestConflict, are ErrPrecondition; a 404 is
// ErrNotExist.
func (s *Storage) PutIfMatch(ctx context.Context, key string, data []byte, version string) (string, error) {
	ok, err := s.objectKey(key)
	if err != nil {
		return "", fmt.Errorf("put %s: %w", s.Describe(), err)
	}
	if version == "" {
		// No ETag is empty, so the write cannot match; say whether the object
		// is there, as for any other stale version.
		if _, err := s.Stat(ctx, key); err != nil {
			return "", err
		}
		return "", fmt.Errorf("put %s: empty version: %w", s.loc(ok), providers.ErrPrecondition)
	}
	out, err := s.putObject(ctx, ok, data, nil, aws.String(version))
	if err != nil {
		if statusOf(err) == 412 || codeOf(err) == "PreconditionFailed" || codeOf(err) == "ConditionalRequestConflict" {
			return providers.SettleCondition(ctx, s, key, data, fmt.Errorf("put %s: %w", s.loc(ok), providers.ErrPrecondition))
		}
		if codeOf(err) == "ObjectParentIsFile" {
			// versitygw (posix): "a/b" is an object, so "a/b/c" cannot exist.
			return "", fmt.Errorf("put %s: %w", s.loc(ok), providers.ErrNotExist)
		}
		return "", s.wrapConditional(ok, "If-Match", err)
	}
	return aws.ToString(out.ETag), nil
}

// wrapConditional wraps the error of a conditional write, saying so when the
// store does not support the condition: streamctl's commit protocol needs it.
func (s *Storage) wrapConditional(key, header string, err error) error {
	if statusOf(err) == 501 || codeOf(err) == "NotImplemented" {
		return fmt.Errorf("put %s: the store does not support conditional writes (%s), which streamctl's "+
			"commits and locks need: %w", s.loc(key), header, err)
	}
	return s.wrap("put", key, err)
}

// Get implements providers.Storage. The object's version is its ETag.
// Reading the body resumes after a dropped connection with a ranged GET on
// the same ETag, as Azure's retry reader does: a body cut off half way is not
// an error while the object is unchanged.
func (s *Storage) Get(ctx context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	ok, err := s.objectKey(key)
	if err != nil {
		return nil, providers.ObjectInfo{}, fmt.Errorf("get %s: %w", s.Describe(), err)
	}
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(ok)})
	if err != nil {
		return nil, providers.ObjectInfo{}, s.wrap("get", ok, err)
	}
	info := providers.ObjectInfo{
		Key:     key,
		Size:    aws.ToInt64(out.ContentLength),
		Version: aws.ToString(out.ETag),
		ModTime: aws.ToTime(out.LastModified),
	}
	return &body{ReadCloser: out.Body, s: s, ctx: ctx, key: ok, etag: info.Version, size: info.Size}, info, nil
}

// bodyResumes bounds how often one body is reopened after a dropped
// connection.
const bodyResumes = 5

// body reads an object, resuming after a dropped connection, and names the
// object in the errors that happen while it is read.
type body struct {
	io.ReadCloser
	s       *Storage
	ctx     context.Context
	key     string
	etag    string
	size    int64
	read    int64
	resumed int
	broken  error // the connection dropped after the bytes last returned
}

func (b *body) Read(p []byte) (int, error) {
	for {
		var n int
		err := b.broken
		if err == nil {
			n, err = b.ReadCloser.Read(p)
			b.read += int64(n)
		}
		b.broken = nil
		if err == nil || err == io.EOF {
			return n, err
		}
		if n > 0 {
			b.broken = err // resume on the next Read
			return n, nil
		}
		if b.resumed >= bodyResumes || b.read >= b.size || b.ctx.Err() != nil {
			return 0, fmt.Errorf("get %s: read: %w", b.s.loc(b.key), err)
		}
		b.resumed++
		b.ReadCloser.Close()
		out, rerr := b.s.client.GetObject(b.ctx, &s3.GetObjectInput{
			Bucket:  aws.String(b.s.bucket),
			Key:     aws.String(b.key),
			Range:   aws.String(fmt.Sprintf("bytes=%d-", b.read)),
			IfMatch: aws.String(b.etag),
		})
		if rerr != nil {
			b.ReadCloser = io.NopCloser(bytes.NewReader(nil))
			return 0, fmt.Errorf("get %s: read: %w; resuming at byte %d: %w", b.s.loc(b.key), err, b.read, b.s.wrap("get", b.key, rerr))
		}
		b.ReadCloser = out.Body
	}
}

// Stat implements providers.Storage with HeadObject.
func (s *Storage) Stat(ctx context.Context, key string) (providers.ObjectInfo, error) {
	ok, err := s.objectKey(key)
	if err != nil {
		return providers.ObjectInfo{}, fmt.Errorf("stat %s: %w", s.Describe(), err)
	}
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(ok)})
	if err != nil {
		return providers.ObjectInfo{}, s.wrap("stat", ok, err)
	}
	return providers.ObjectInfo{
		Key:     key,
		Size:    aws.ToInt64(out.ContentLength),
		Version: aws.ToString(out.ETag),
		ModTime: aws.ToTime(out.LastModified),
	}, nil
}

// Copy implements providers.Storage with a server-side CopyObject, which
// replaces dst atomically. CopyObject is limited to sources of 5 GiB: when it
// refuses a larger one, the copy is a multipart upload of UploadPartCopy ranges,
// which also appears atomically when completed. The common case costs one
// request.
func (s *Storage) Copy(ctx context.Context, src, dst string) error {
	sk, err := s.objectKey(src)
	if err != nil {
		return fmt.Errorf("copy %s: %w", s.Describe(), err)
	}
	dk, err := s.objectKey(dst)
	if err != nil {
		return fmt.Errorf("copy %s: %w", s.Describe(), err)
	}
	loc := s.loc(sk) + " to " + s.loc(dk)
	var copyErr error
	if !s.copyInParts {
		enc, kms := s.sse()
		_, copyErr = s.client.CopyObject(ctx, &s3.CopyObjectInput{
			Bucket:               aws.String(s.bucket),
			Key:                  aws.String(dk),
			CopySource:           aws.String(copySource(s.bucket, sk)),
			ServerSideEncryption: enc,
			SSEKMSKeyId:          kms,
			StorageClass:         types.StorageClass(s.cfg.StorageClass),
		})
		// S3 refuses a source over 5 GiB with a 400 InvalidRequest.
		if copyErr == nil || statusOf(copyErr) != 400 {
			return wrapErr("copy", loc, s.bucket, copyErr)
		}
	}
	head, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(sk)})
	if err != nil {
		return wrapErr("copy", loc, s.bucket, err)
	}
	if size := aws.ToInt64(head.ContentLength); copyErr == nil || size > maxCopySize {
		return s.copyParts(ctx, sk, dk, size, aws.ToString(head.ETag), loc)
	}
	return wrapErr("copy", loc, s.bucket, copyErr)
}

// copyParts copies an object too large for CopyObject, range by range, each
// range pinned to the source's ETag so that a source replaced meanwhile fails
// the copy instead of mixing two versions.
func (s *Storage) copyParts(ctx context.Context, src, dst string, size int64, etag, loc string) error {
	partSize := max(s.copyPartSize, (size+maxParts-1)/maxParts)
	enc, kms := s.sse()
	created, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{
		Bucket:               aws.String(s.bucket),
		Key:                  aws.String(dst),
		ServerSideEncryption: enc,
		SSEKMSKeyId:          kms,
		StorageClass:         types.StorageClass(s.cfg.StorageClass),
	})
	if err != nil {
		return wrapErr("copy", loc, s.bucket, err)
	}
	uploadID := created.UploadId
	abort := func() {
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		s.client.AbortMultipartUpload(actx, &s3.AbortMultipartUploadInput{
			Bucket: aws.String(s.bucket), Key: aws.String(dst), UploadId: uploadID,
		})
	}
	n := int((size + partSize - 1) / partSize)
	parts := make([]types.CompletedPart, n)
	errs := make([]error, n)
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i := range n {
		start := int64(i) * partSize
		end := min(start+partSize, size) - 1
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			defer crash.Report()
			out, err := s.client.UploadPartCopy(ctx, &s3.UploadPartCopyInput{
				Bucket:            aws.String(s.bucket),
				Key:               aws.String(dst),
				UploadId:          uploadID,
				PartNumber:        aws.Int32(int32(i + 1)),
				CopySource:        aws.String(copySource(s.bucket, src)),
				CopySourceRange:   aws.String(fmt.Sprintf("bytes=%d-%d", start, end)),
				CopySourceIfMatch: aws.String(etag),
			})
			if err != nil {
				errs[i] = fmt.Errorf("part %d: %w", i+1, err)
				return
			}
			parts[i] = types.CompletedPart{ETag: out.CopyPartResult.ETag, PartNumber: aws.Int32(int32(i + 1))}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		abort()
		if statusOf(err) == 412 {
			return fmt.Errorf("copy %s: the source changed during the copy: %w", loc, err)
		}
		return wrapErr("copy", loc, s.bucket, err)
	}
	_, err = s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket:          aws.String(s.bucket),
		Key:             aws.String(dst),
		UploadId:        uploadID,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	})
	if err != nil {
		abort()
		return wrapErr("copy", loc, s.bucket, err)
	}
	return nil
}

// copySource is the x-amz-copy-source value: bucket/key, URL-encoded. The SDK
// sends it as given, so keys with spaces, '%' or '+' must be encoded here.
func copySource(bucket, key string) string {
	return escapePath(bucket) + "/" + escapePath(key)
}

// escapePath percent-encodes everything but unreserved characters and '/'.
func escapePath(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '-' || c == '_' || c == '.' || c == '~' || c == '/' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

// Delete implements providers.Storage with DeleteObject; a missing object is
// not an error.
func (s *Storage) Delete(ctx context.Context, key string) error {
	ok, err := s.objectKey(key)
	if err != nil {
		return fmt.Errorf("delete %s: %w", s.Describe(), err)
	}
	_, err = s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(ok)})
	if err != nil {
		if err := s.wrap("delete", ok, err); errors.Is(err, providers.ErrNotExist) {
			return nil
		} else {
			return err
		}
	}
	return nil
}

// DeleteIfMatch implements providers.Storage with DeleteObject and If-Match:
// <etag>. A store that answers 501 cannot delete conditionally.
func (s *Storage) DeleteIfMatch(ctx context.Context, key, version string) error {
	ok, err := s.objectKey(key)
	if err != nil {
		return fmt.Errorf("delete %s: %w", s.Describe(), err)
	}
	stale := func() error {
		// The store says 412 whether the object changed or is gone.
		if _, err := s.Stat(ctx, key); errors.Is(err, providers.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		return fmt.Errorf("delete %s: %w", s.loc(ok), providers.ErrPrecondition)
	}
	if version == "" {
		return stale()
	}
	_, err = s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(ok), IfMatch: aws.String(version)})
	switch {
	case err == nil:
		return nil
	case statusOf(err) == 412 || codeOf(err) == "PreconditionFailed" || codeOf(err) == "ConditionalRequestConflict":
		return stale()
	case statusOf(err) == 501 || codeOf(err) == "NotImplemented":
		return fmt.Errorf("delete %s: the store does not support conditional deletes (If-Match): %w: %w", s.loc(ok), errors.ErrUnsupported, err)
	}
	if err := s.wrap("delete", ok, err); !errors.Is(err, providers.ErrNotExist) {
		return err
	}
	return nil
}

// DeletePrefix implements providers.PrefixDeleter: one ListObjectsV2 page,
// then one DeleteObjects call for its (at most 1000) keys, page after page, so
// that a batch's staging folder goes in two requests instead of one per file.
// On a store without DeleteObjects (some S3-compatible ones) it deletes the
// keys one by one.
func (s *Storage) DeletePrefix(ctx context.Context, prefix string) error {
	if !strings.HasSuffix(prefix, "/") {
		return fmt.Errorf("delete prefix %q: it must end with '/'", prefix)
	}
	full, err := s.objectKey(prefix + "x")
	if err != nil {
		return fmt.Errorf("delete prefix %s: %w", s.Describe(), err)
	}
	full = strings.TrimSuffix(full, "x")
	pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{
		Bucket:  aws.String(s.bucket),
		Prefix:  aws.String(full),
		MaxKeys: aws.Int32(1000), // DeleteObjects takes at most 1000 keys
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return wrapErr("list", s.loc(full), s.bucket, err)
		}
		if len(page.Contents) == 0 {
			continue
		}
		if s.noBatchDelete.Load() {
			if err := s.deleteEach(ctx, page.Contents); err != nil {
				return err
			}
			continue
		}
		objects := make([]types.ObjectIdentifier, len(page.Contents))
		for i, obj := range page.Contents {
			objects[i] = types.ObjectIdentifier{Key: obj.Key}
		}
		out, err := s.client.DeleteObjects(ctx, &s3.DeleteObjectsInput{
			Bucket: aws.String(s.bucket),
			Delete: &types.Delete{Objects: objects, Quiet: aws.Bool(true)},
		})
		if err != nil {
			if code, status := codeOf(err), statusOf(err); code == "NotImplemented" || status == 405 || status == 501 {
				s.noBatchDelete.Store(true)
				if err := s.deleteEach(ctx, page.Contents); err != nil {
					return err
				}
				continue
			}
			return wrapErr("delete objects under", s.loc(full), s.bucket, err)
		}
		var failed []types.Error
		for _, e := range out.Errors {
			if aws.ToString(e.Code) != "NoSuchKey" { // gone already: what we wanted
				failed = append(failed, e)
			}
		}
		if len(failed) > 0 {
			e := failed[0]
			return fmt.Errorf("delete %s: %s: %s (and %d other keys failed)", s.loc(aws.ToString(e.Key)), aws.ToString(e.Code), aws.ToString(e.Message), len(failed)-1)
		}
	}
	return nil
}

// deleteEach deletes objects one DeleteObject at a time.
func (s *Storage) deleteEach(ctx context.Context, objects []types.Object) error {
	for _, obj := range objects {
		if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: obj.Key}); err != nil {
			if err := s.wrap("delete", aws.ToString(obj.Key), err); !errors.Is(err, providers.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// List implements providers.Storage with ListObjectsV2, page by page. S3 returns
// keys in UTF-8 binary order, which is Go's string order. Keys are given
// relative to the storage's prefix.
func (s *Storage) List(ctx context.Context, prefix string, fn func(providers.ObjectInfo) error) error {
	root := ""
	if s.prefix != "" {
		root = s.prefix + "/"
	}
	full := root + prefix
	pages := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{
		Bucket: aws.String(s.bucket),
		Prefix: aws.String(full),
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return wrapErr("list", s.loc(full), s.bucket, err)
		}
		for _, obj := range page.Contents {
			err := fn(providers.ObjectInfo{
				Key:     strings.TrimPrefix(aws.ToString(obj.Key), root),
				Size:    aws.ToInt64(obj.Size),
				Version: aws.ToString(obj.ETag),
				ModTime: aws.ToTime(obj.LastModified),
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}
