// Package azblob implements providers.Storage on Azure Blob Storage: one
// container, optionally under a prefix.
//
// Every object is a block blob. Large objects are streamed as blocks and appear
// at once with a single Put Block List; create-only and compare-and-swap writes
// use If-None-Match: * and If-Match: <ETag>. Versions are ETags in their HTTP
// form, quotes included. Azure has no rename: Storage is not a providers.Renamer,
// so the engine promotes with Copy (server-side) then Delete.
package azblob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/streaming"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"

	"github.com/streamctl/streamctl/internal/upload"
	"github.com/streamctl/streamctl/providers"
)

// Storage is a container, or a prefix in it, used as an object store.
type Storage struct {
	client    *container.Client
	account   string
	container string
	prefix    string // "" or ending with "/"
	endpoint  string
	auth      auth
	tier      *blob.AccessTier
	blockSize int
	attempts  int
	// unchecked trusts conditional writes without the probe.
	unchecked bool

	// listPageSize, when set, bounds the listing pages; tests shrink it to
	// exercise pagination.
	listPageSize int32

	// waiting bounds the staged blobs kept in their buffers until promotion;
	// past it they are staged as blocks at once.
	waiting *upload.Budget
}

var _ providers.Storage = (*Storage)(nil)

// Timing of the HTTP client. The n-th retry waits (2^n - 1) × retryDelay, with
// jitter, at most maxRetryDelay: 0.5, 1.5, 3.5, 7.5 s for the default five
// attempts. A server that accepts a request and then says nothing for
// responseTimeout is treated as a network error, and retried.
const (
	retryDelay      = 500 * time.Millisecond
	maxRetryDelay   = 30 * time.Second
	responseTimeout = 2 * time.Minute
	copyTimeout     = 10 * time.Minute
)

// New returns the storage cfg describes, after Validate. It does no I/O: a
// missing container or wrong credentials show on the first operation.
func New(_ context.Context, cfg Config) (*Storage, error) {
	r, err := cfg.resolve(os.LookupEnv)
	if err != nil {
		return nil, fmt.Errorf("azblob configuration: %w", err)
	}
	s := &Storage{
		account:   r.account,
		container: r.container,
		prefix:    r.prefix,
		endpoint:  r.endpoint,
		auth:      r.auth,
		blockSize: int(r.blockSize),
		waiting:   upload.DefaultBudget(),
		attempts:  r.attempts,
		unchecked: cfg.SkipConditionalWriteCheck,
	}
	if r.tier != "" {
		s.tier = to.Ptr(blob.AccessTier(r.tier))
	}

	maxRetries := int32(r.attempts - 1)
	if maxRetries == 0 {
		maxRetries = -1 // 0 means the SDK's default of 3
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	transport.ResponseHeaderTimeout = responseTimeout
	transport.MaxIdleConnsPerHost = 16
	opts := &container.ClientOptions{ClientOptions: azcore.ClientOptions{
		Retry: policy.RetryOptions{
			MaxRetries:    maxRetries,
			RetryDelay:    retryDelay,
			MaxRetryDelay: maxRetryDelay,
			StatusCodes:   retryStatus,
		},
		PerRetryPolicies: []policy.Policy{countAttempts{}},
		Transport:        &http.Client{Transport: transport},
		Telemetry:        policy.TelemetryOptions{ApplicationID: "streamctl"},
		// Validate allows http only on the loopback interface (the emulator).
		InsecureAllowCredentialWithHTTP: strings.HasPrefix(r.endpoint, "http://"),
	}}

	containerURL := r.endpoint + "/" + r.container
	switch r.auth {
	case authSAS, authConnSAS:
		s.client, err = container.NewClientWithNoCredential(containerURL+"?"+r.sas, opts)
	case authSharedKey, authConnKey:
		var cred *container.SharedKeyCredential
		if cred, err = container.NewSharedKeyCredential(r.account, r.key); err == nil {
			s.client, err = container.NewClientWithSharedKeyCredential(containerURL, cred, opts)
		}
	default:
		var cred azcore.TokenCredential
		if cred, err = azidentity.NewDefaultAzureCredential(nil); err == nil {
			s.client, err = container.NewClient(containerURL, cred, opts)
		}
	}
	if err != nil {
		// The SDK's messages here name what is wrong, not the secret.
		return nil, fmt.Errorf("azblob %s: %s authentication: %w", s.Describe(), r.auth, err)
	}
	return s, nil
}

// Describe implements providers.Storage: azblob://account/container[/prefix].
func (s *Storage) Describe() string {
	return "azblob://" + s.account + "/" + s.container + strings.TrimSuffix("/"+s.prefix, "/")
}

// location names a blob in messages.
func (s *Storage) location(name string) string {
	return "azblob://" + s.account + "/" + s.container + "/" + name
}

func (s *Storage) endpointHost() string {
	return strings.TrimPrefix(strings.TrimPrefix(s.endpoint, "https://"), "http://")
}

// blobName maps a key to the blob's name under the prefix.
func (s *Storage) blobName(key string) (string, error) {
	if err := providers.CheckKey(key); err != nil {
		return "", fmt.Errorf("%s: %w", s.Describe(), err)
	}
	name := s.prefix + key
	if len(name) > 1024 {
		return "", fmt.Errorf("invalid key %q for %s: blob names are at most 1024 characters", key, s.Describe())
	}
	return name, nil
}

func (s *Storage) blockBlob(name string) *blockblob.Client {
	return s.client.NewBlockBlobClient(name)
}

// body wraps data for the SDK, which rewinds it on each retry.
func body(data []byte) io.ReadSeekCloser {
	return streaming.NopCloser(bytes.NewReader(data))
}

// version is an ETag in its HTTP form, with quotes: the service sends it so in
// headers but unquoted in listings.
func version(etag *azcore.ETag) string {
	if etag == nil {
		return ""
	}
	v := string(*etag)
	if !strings.HasPrefix(v, `"`) {
		v = `"` + v + `"`
	}
	return v
}

// etagOf is the ETag a caller's version stands for; quotes are optional.
func etagOf(v string) *azcore.ETag {
	if !strings.HasPrefix(v, `"`) {
		v = `"` + v + `"`
	}
	e := azcore.ETag(v)
	return &e
}

// Create implements providers.Storage. An object of at most block_size bytes
// is written with one Put Blob on Commit; a larger one is staged block by
// block while it is written (at most two blocks in flight) and committed with
// one Put Block List. Staged blocks are invisible until then and expire on
// their own after Abort or a crash. The bytes wait in a spill.Buffer: in
// memory up to 256 KiB, then in a temporary file, so that memory stays small
// however many objects a batch writes at once.
func (s *Storage) Create(ctx context.Context, key string) (providers.ObjectWriter, error) {
	name, err := s.blobName(key)
	if err != nil {
		return nil, err
	}
	return newWriter(ctx, s, name), nil
}

// PutIfAbsent implements providers.Storage with If-None-Match: *. The service
// answers 409 BlobAlreadyExists (412 on some versions) when the blob exists.
//
// A retried request whose first try succeeded unseen meets its own blob:
// providers.SettleCondition takes the write as done when the blob holds
// exactly data.
func (s *Storage) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	const op = "put-if-absent"
	name, err := s.blobName(key)
	if err != nil {
		return "", err
	}
	actx, n := withAttempts(ctx)
	resp, err := s.blockBlob(name).Upload(actx, body(data), &blockblob.UploadOptions{
		Tier: s.tier,
		AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{
			IfNoneMatch: to.Ptr(azcore.ETagAny),
		}},
	})
	if err == nil {
		return version(resp.ETag), nil
	}
	if bloberror.HasCode(err, bloberror.BlobAlreadyExists) || bloberror.HasCode(err, bloberror.ConditionNotMet) {
		return providers.SettleCondition(ctx, s, key, data, s.failAs(op, name, err, n, providers.ErrExist))
	}
	return "", s.fail(op, name, err, n)
}

// PutIfMatch implements providers.Storage with If-Match: <version>. A retried
// request whose first try succeeded unseen is resolved as in PutIfAbsent.
func (s *Storage) PutIfMatch(ctx context.Context, key string, data []byte, ver string) (string, error) {
	const op = "put-if-match"
	name, err := s.blobName(key)
	if err != nil {
		return "", err
	}
	if ver == "" {
		// No object has the empty version; say which way it failed.
		_, err := s.Stat(ctx, key)
		switch {
		case errors.Is(err, providers.ErrNotExist):
			return "", &opError{op: op, loc: s.location(name), sentinel: providers.ErrNotExist}
		case err != nil:
			return "", err
		}
		return "", &opError{op: op, loc: s.location(name), sentinel: providers.ErrPrecondition}
	}
	actx, n := withAttempts(ctx)
	resp, err := s.blockBlob(name).Upload(actx, body(data), &blockblob.UploadOptions{
		Tier: s.tier,
		AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{
			IfMatch: etagOf(ver),
		}},
	})
	if err == nil {
		return version(resp.ETag), nil
	}
	if bloberror.HasCode(err, bloberror.ConditionNotMet) {
		if v, err := providers.SettleCondition(ctx, s, key, data, providers.ErrPrecondition); err == nil {
			return v, nil
		}
		// The service answers 412 whether the blob changed or is gone.
		if _, serr := s.Stat(ctx, key); errors.Is(serr, providers.ErrNotExist) {
			return "", s.failAs(op, name, err, n, providers.ErrNotExist)
		}
		return "", s.failAs(op, name, err, n, providers.ErrPrecondition)
	}
	return "", s.fail(op, name, err, n)
}

// failAs is fail for an answer the contract names with a sentinel.
func (s *Storage) failAs(op, name string, err error, n *atomic.Int32, sentinel error) error {
	e := &opError{op: op, loc: s.location(name), attempts: n.Load(), sentinel: sentinel}
	var re *azcore.ResponseError
	if errors.As(err, &re) {
		e.status, e.code, e.cause = re.StatusCode, re.ErrorCode, re
	}
	return e
}

// Get implements providers.Storage. Reading the body resumes after a network
// error from where it stopped, as long as the blob is unchanged.
func (s *Storage) Get(ctx context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	name, err := s.blobName(key)
	if err != nil {
		return nil, providers.ObjectInfo{}, err
	}
	actx, n := withAttempts(ctx)
	resp, err := s.client.NewBlobClient(name).DownloadStream(actx, nil)
	if err != nil {
		return nil, providers.ObjectInfo{}, s.fail("get", name, err, n)
	}
	info := providers.ObjectInfo{Key: key, Version: version(resp.ETag)}
	if resp.ContentLength != nil {
		info.Size = *resp.ContentLength
	}
	if resp.LastModified != nil {
		info.ModTime = *resp.LastModified
	}
	retries := int32(s.attempts - 1)
	if retries < 1 {
		retries = 1
	}
	r := resp.NewRetryReader(ctx, &blob.RetryReaderOptions{MaxRetries: retries})
	return &reader{r: r, s: s, name: name}, info, nil
}

// reader locates the errors of a blob's body.
type reader struct {
	r    io.ReadCloser
	s    *Storage
	name string
}

func (r *reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		err = r.s.readError(r.name, err)
	}
	return n, err
}

func (r *reader) Close() error { return r.r.Close() }

// Stat implements providers.Storage.
func (s *Storage) Stat(ctx context.Context, key string) (providers.ObjectInfo, error) {
	name, err := s.blobName(key)
	if err != nil {
		return providers.ObjectInfo{}, err
	}
	actx, n := withAttempts(ctx)
	resp, err := s.client.NewBlobClient(name).GetProperties(actx, nil)
	if err != nil {
		return providers.ObjectInfo{}, s.fail("stat", name, err, n)
	}
	info := providers.ObjectInfo{Key: key, Version: version(resp.ETag)}
	if resp.ContentLength != nil {
		info.Size = *resp.ContentLength
	}
	if resp.LastModified != nil {
		info.ModTime = *resp.LastModified
	}
	return info, nil
}

// Copy implements providers.Storage with a server-side copy (Copy Blob) within
// the account, and waits until the service reports it done. Within one account
// the service usually completes the copy before answering.
func (s *Storage) Copy(ctx context.Context, src, dst string) error {
	const op = "copy"
	srcName, err := s.blobName(src)
	if err != nil {
		return err
	}
	dstName, err := s.blobName(dst)
	if err != nil {
		return err
	}
	// With a SAS, the source URL carries it: the source needs authorizing too.
	srcURL := s.client.NewBlobClient(srcName).URL()
	dstBlob := s.client.NewBlobClient(dstName)
	actx, n := withAttempts(ctx)
	resp, err := dstBlob.StartCopyFromURL(actx, srcURL, &blob.StartCopyFromURLOptions{Tier: s.tier})
	if err != nil {
		// A missing source is a 404 like a missing blob: ErrNotExist.
		e := s.fail(op, srcName, err, n)
		if oe, ok := e.(*opError); ok {
			oe.loc += " to " + s.location(dstName)
		}
		return e
	}
	status, id := blob.CopyStatusTypeSuccess, ""
	if resp.CopyStatus != nil {
		status = *resp.CopyStatus
	}
	if resp.CopyID != nil {
		id = *resp.CopyID
	}
	deadline := time.Now().Add(copyTimeout)
	for delay := 50 * time.Millisecond; status == blob.CopyStatusTypePending; delay = min(2*delay, 2*time.Second) {
		if time.Now().After(deadline) {
			_, _ = dstBlob.AbortCopyFromURL(ctx, id, nil)
			return fmt.Errorf("%s %s to %s: still pending after %s: aborted", op, s.location(srcName), s.location(dstName), copyTimeout)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s %s to %s: %w", op, s.location(srcName), s.location(dstName), ctx.Err())
		case <-time.After(delay):
		}
		actx, n := withAttempts(ctx)
		props, err := dstBlob.GetProperties(actx, nil)
		if err != nil {
			return s.fail(op, dstName, err, n)
		}
		if props.CopyID != nil && *props.CopyID != id {
			return fmt.Errorf("%s %s to %s: another copy to the destination started meanwhile", op, s.location(srcName), s.location(dstName))
		}
		if props.CopyStatus != nil {
			status = *props.CopyStatus
		} else {
			status = blob.CopyStatusTypeSuccess
		}
		if status == blob.CopyStatusTypeFailed || status == blob.CopyStatusTypeAborted {
			desc := ""
			if props.CopyStatusDescription != nil {
				desc = ": " + *props.CopyStatusDescription
			}
			return fmt.Errorf("%s %s to %s: copy %s%s", op, s.location(srcName), s.location(dstName), status, desc)
		}
	}
	if status != blob.CopyStatusTypeSuccess {
		return fmt.Errorf("%s %s to %s: copy %s", op, s.location(srcName), s.location(dstName), status)
	}
	return nil
}

// Delete implements providers.Storage. The blob's snapshots go with it.
func (s *Storage) Delete(ctx context.Context, key string) error {
	name, err := s.blobName(key)
	if err != nil {
		return err
	}
	actx, n := withAttempts(ctx)
	_, err = s.client.NewBlobClient(name).Delete(actx, &blob.DeleteOptions{
		DeleteSnapshots: to.Ptr(blob.DeleteSnapshotsOptionTypeInclude),
	})
	if err == nil || bloberror.HasCode(err, bloberror.BlobNotFound) {
		return nil
	}
	return s.fail("delete", name, err, n)
}

// DeleteIfMatch implements providers.Storage with Delete Blob and If-Match.
func (s *Storage) DeleteIfMatch(ctx context.Context, key, ver string) error {
	const op = "delete-if-match"
	name, err := s.blobName(key)
	if err != nil {
		return err
	}
	stale := func(cause error, n *atomic.Int32) error {
		// The service answers 412 whether the blob changed or is gone.
		if _, err := s.Stat(ctx, key); errors.Is(err, providers.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		if cause == nil {
			return &opError{op: op, loc: s.location(name), sentinel: providers.ErrPrecondition}
		}
		return s.failAs(op, name, cause, n, providers.ErrPrecondition)
	}
	if ver == "" {
		return stale(nil, nil)
	}
	actx, n := withAttempts(ctx)
	_, err = s.client.NewBlobClient(name).Delete(actx, &blob.DeleteOptions{
		DeleteSnapshots: to.Ptr(blob.DeleteSnapshotsOptionTypeInclude),
		AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{
			IfMatch: etagOf(ver),
		}},
	})
	switch {
	case err == nil || bloberror.HasCode(err, bloberror.BlobNotFound):
		return nil
	case bloberror.HasCode(err, bloberror.ConditionNotMet):
		return stale(err, n)
	}
	return s.fail(op, name, err, n)
}

// List implements providers.Storage with a flat listing, page by page. The
// service lists in key order. Directory entries of accounts with a hierarchical
// namespace (metadata hdi_isfolder=true) are not objects and are skipped.
func (s *Storage) List(ctx context.Context, prefix string, fn func(providers.ObjectInfo) error) error {
	opts := &container.ListBlobsFlatOptions{
		Prefix:  to.Ptr(s.prefix + prefix),
		Include: container.ListBlobsInclude{Metadata: true},
	}
	if s.listPageSize > 0 {
		opts.MaxResults = to.Ptr(s.listPageSize)
	}
	pager := s.client.NewListBlobsFlatPager(opts)
	for pager.More() {
		actx, n := withAttempts(ctx)
		page, err := pager.NextPage(actx)
		if err != nil {
			return s.fail("list", s.prefix+prefix+"*", err, n)
		}
		for _, item := range page.Segment.BlobItems {
			if item.Name == nil || isDirectory(item.Metadata) {
				continue
			}
			info := providers.ObjectInfo{Key: strings.TrimPrefix(*item.Name, s.prefix)}
			if p := item.Properties; p != nil {
				info.Version = version(p.ETag)
				if p.ContentLength != nil {
					info.Size = *p.ContentLength
				}
				if p.LastModified != nil {
					info.ModTime = *p.LastModified
				}
			}
			if err := fn(info); err != nil {
				return err
			}
		}
	}
	return nil
}

func isDirectory(metadata map[string]*string) bool {
	for k, v := range metadata {
		if strings.EqualFold(k, "hdi_isfolder") && v != nil && strings.EqualFold(*v, "true") {
			return true
		}
	}
	return false
}
