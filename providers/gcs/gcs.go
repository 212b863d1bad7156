// Package gcs implements providers.Storage on Google Cloud Storage: one
// bucket, optionally under a prefix.
//
// Versions are object generations, as decimal strings. Create-only writes
// carry ifGenerationMatch=0 and compare-and-swap writes ifGenerationMatch=
// <generation>, which the service checks atomically; DeleteIfMatch deletes
// with ifGenerationMatch too. An object being created waits in a spill
// buffer (memory, then a temporary file) and is uploaded on Commit, in one
// request or as a resumable upload of chunk_size requests, visible only once
// finalised. Reads are pinned to the generation first read. GCS has no
// rename: the engine stages under _temporary/<N>/ and promotes with Copy (a
// server-side rewrite) then Delete.
//
// Requests go through Google's generated client of the JSON API
// (google.golang.org/api/storage/v1), not cloud.google.com/go/storage: that
// library wraps the same client for its HTTP path but also links its gRPC
// transport (gRPC, xDS, Envoy's protos, OpenTelemetry), 19 MB of a 107 MB
// stripped binary against 1.4 MB for this one, and about 4 ms of start-up in
// every command. What it added on top, retries of idempotent requests and
// STORAGE_EMULATOR_HOST, is done here.
package gcs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/googleapis/gax-go/v2"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	gstorage "google.golang.org/api/storage/v1"

	"github.com/streamctl/streamctl/internal/spill"
	"github.com/streamctl/streamctl/providers"
)

// Storage is a bucket, or a prefix in it, used as an object store.
type Storage struct {
	objects   *gstorage.ObjectsService
	name      string // the bucket's name
	prefix    string // "" or ending with "/"
	chunkSize int64
}

var _ providers.Storage = (*Storage)(nil)

// maxResumes bounds the reopenings of one object's body that make no
// progress: a body that keeps failing where it stopped is a failure.
const maxResumes = 5

// New returns the storage cfg describes, after Validate. It does no I/O:
// a missing bucket or wrong credentials show on the first operation.
func New(ctx context.Context, cfg Config) (*Storage, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("gcs configuration: %w", err)
	}
	endpoint := cfg.Endpoint
	if endpoint == "" && cfg.CredentialsJSON == "" {
		endpoint = emulatorEndpoint(os.Getenv(EnvEmulatorHost))
	}
	var opts []option.ClientOption
	switch {
	case endpoint != "":
		// An emulator: the JSON API under /storage/v1/, no credentials.
		opts = append(opts,
			option.WithEndpoint(strings.TrimSuffix(endpoint, "/")+"/storage/v1/"),
			option.WithoutAuthentication())
	case cfg.CredentialsJSON != "":
		opts = append(opts, option.WithAuthCredentialsJSON(option.ServiceAccount, []byte(cfg.CredentialsJSON)),
			option.WithScopes(gstorage.DevstorageReadWriteScope))
	default:
		// Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS,
		// the gcloud login, the metadata server.
		opts = append(opts, option.WithScopes(gstorage.DevstorageReadWriteScope))
	}
	svc, err := gstorage.NewService(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("gcs gs://%s: credentials: %w: set GOOGLE_APPLICATION_CREDENTIALS to a service account key file, run `gcloud auth application-default login`, or give credentials_json", cfg.Bucket, err)
	}
	s := &Storage{
		objects:   svc.Objects,
		name:      cfg.Bucket,
		chunkSize: cfg.ChunkSize,
	}
	if s.chunkSize == 0 {
		s.chunkSize = DefaultChunkSize
	}
	if p := cleanPrefix(cfg.Prefix); p != "" {
		s.prefix = p + "/"
	}
	return s, nil
}

// emulatorEndpoint is the URL of STORAGE_EMULATOR_HOST's value, which the
// Google client libraries take as host:port or as a URL.
func emulatorEndpoint(host string) string {
	if host == "" || strings.Contains(host, "://") {
		return host
	}
	return "http://" + host
}

// Close implements io.Closer; the client holds nothing to release.
func (s *Storage) Close() error { return nil }

// Describe implements providers.Storage: gs://bucket[/prefix].
func (s *Storage) Describe() string {
	return "gs://" + s.name + strings.TrimSuffix("/"+s.prefix, "/")
}

// location names an object in messages.
func (s *Storage) location(name string) string { return "gs://" + s.name + "/" + name }

// objectName maps a key to the object's name under the prefix.
func (s *Storage) objectName(key string) (string, error) {
	if err := providers.CheckKey(key); err != nil {
		return "", fmt.Errorf("%s: %w", s.Describe(), err)
	}
	name := s.prefix + key
	if len(name) > 1024 {
		return "", fmt.Errorf("invalid key %q for %s: object names are at most 1024 bytes", key, s.Describe())
	}
	return name, nil
}

// Retries of a request that failed on the way: the n-th retry waits
// retryDelay × 2^(n-1).
const (
	maxAttempts = 5
	retryDelay  = 200 * time.Millisecond
)

// retry runs call until it succeeds, fails for good, or maxAttempts calls
// failed on transient errors. Every request is retried, conditional or not:
// an unconditional write or delete repeated after a lost answer has the same
// effect as once, and a conditional one meets its own effect, which the
// caller settles.
func retry(ctx context.Context, call func() error) error {
	for attempt := 1; ; attempt++ {
		err := call()
		if err == nil || attempt >= maxAttempts || ctx.Err() != nil || !retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(retryDelay << (attempt - 1)):
		}
	}
}

// version is a generation as a version string.
func version(generation int64) string { return strconv.FormatInt(generation, 10) }

// generation parses a version; ok is false for a string no object has.
func generation(v string) (int64, bool) {
	g, err := strconv.ParseInt(v, 10, 64)
	return g, err == nil && g > 0
}

func (s *Storage) info(o *gstorage.Object) providers.ObjectInfo {
	updated, _ := time.Parse(time.RFC3339Nano, o.Updated)
	return providers.ObjectInfo{
		Key:     strings.TrimPrefix(o.Name, s.prefix),
		Size:    int64(o.Size),
		Version: version(o.Generation),
		ModTime: updated,
	}
}

// Create implements providers.Storage. The bytes wait in a spill.Buffer (in
// memory up to 256 KiB, then in a temporary file), so that memory stays small
// however many objects a batch writes at once; Commit uploads them: an object
// of at most chunk_size bytes in one request, a larger one as a resumable
// upload of chunk_size requests. The object appears when the upload is
// finalised; Abort sends nothing.
func (s *Storage) Create(ctx context.Context, key string) (providers.ObjectWriter, error) {
	name, err := s.objectName(key)
	if err != nil {
		return nil, err
	}
	return &writer{ctx: ctx, s: s, name: name}, nil
}

// writer is the ObjectWriter of Create.
type writer struct {
	ctx  context.Context
	s    *Storage
	name string
	buf  spill.Buffer
	done bool
}

func (w *writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, fmt.Errorf("write %s: the object is already committed or aborted", w.s.location(w.name))
	}
	n, err := w.buf.Write(p)
	if err != nil {
		return n, fmt.Errorf("write %s: %w", w.s.location(w.name), err)
	}
	return n, nil
}

// Commit uploads the buffer and finalises the object.
func (w *writer) Commit() error {
	if w.done {
		return fmt.Errorf("commit %s: the object is already committed or aborted", w.s.location(w.name))
	}
	w.done = true
	defer w.buf.Close()
	if _, err := w.s.upload(w.ctx, w.name, w.buf.Section(0, w.buf.Size()), w.buf.Size(), nil); err != nil {
		return w.s.fail("put", w.name, err)
	}
	return nil
}

// Abort drops the buffer; nothing was sent.
func (w *writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	return w.buf.Close()
}

// upload writes the size bytes of body at name and returns the new
// generation; ifGeneration, when not nil, is the generation the live object
// must have (0: none). Up to chunk_size bytes go in one request, retried
// here; more go as a resumable upload, whose chunks the client retries.
func (s *Storage) upload(ctx context.Context, name string, body io.ReadSeeker, size int64, ifGeneration *int64) (string, error) {
	call := func() (*gstorage.Object, error) {
		if _, err := body.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("read the buffer: %w", err)
		}
		c := s.objects.Insert(s.name, &gstorage.Object{Name: name, ContentType: "application/octet-stream"}).
			Media(body, googleapi.ChunkSize(int(s.chunkSize))).
			Fields("generation").Context(ctx)
		if ifGeneration != nil {
			c = c.IfGenerationMatch(*ifGeneration)
		}
		if size > s.chunkSize {
			// The client resumes the chunks itself; a failure here is final.
			c = c.WithRetry(&gax.Backoff{Initial: retryDelay, Max: 5 * time.Second, Multiplier: 2}, retryable)
		}
		return c.Do()
	}
	var o *gstorage.Object
	var err error
	if size > s.chunkSize {
		o, err = call()
	} else {
		err = retry(ctx, func() error { o, err = call(); return err })
	}
	if err != nil {
		return "", err
	}
	return version(o.Generation), nil
}

// retryable says whether a failed request may be sent again: a network
// error, a timeout, throttling or a server error. The client's retries ask
// it of every answer, successes (nil) included.
func retryable(err error) bool {
	switch st := status(err); {
	case err == nil:
		return false
	case st == 0:
		return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
	case st == http.StatusRequestTimeout || st == http.StatusTooManyRequests || st >= 500:
		return true
	}
	return false
}

// put writes data at name, in one request.
func (s *Storage) put(ctx context.Context, name string, data []byte, ifGeneration int64) (string, error) {
	return s.upload(ctx, name, bytes.NewReader(data), int64(len(data)), &ifGeneration)
}

// PutIfAbsent implements providers.Storage with ifGenerationMatch=0. A retry
// whose first try succeeded unseen meets its own object:
// providers.SettleCondition takes the write as done when the object holds
// exactly data.
func (s *Storage) PutIfAbsent(ctx context.Context, key string, data []byte) (string, error) {
	const op = "put-if-absent"
	name, err := s.objectName(key)
	if err != nil {
		return "", err
	}
	v, err := s.put(ctx, name, data, 0)
	if err == nil {
		return v, nil
	}
	if status(err) == http.StatusPreconditionFailed {
		return providers.SettleCondition(ctx, s, key, data, s.failAs(op, name, err, providers.ErrExist))
	}
	return "", s.fail(op, name, err)
}

// PutIfMatch implements providers.Storage with ifGenerationMatch=<version>.
// A lost answer is settled as in PutIfAbsent.
func (s *Storage) PutIfMatch(ctx context.Context, key string, data []byte, ver string) (string, error) {
	const op = "put-if-match"
	name, err := s.objectName(key)
	if err != nil {
		return "", err
	}
	gen, ok := generation(ver)
	if !ok {
		// No object has this version; say which way it failed.
		if _, err := s.Stat(ctx, key); err != nil {
			return "", err
		}
		return "", &opError{op: op, loc: s.location(name), sentinel: providers.ErrPrecondition}
	}
	v, err := s.put(ctx, name, data, gen)
	if err == nil {
		return v, nil
	}
	switch status(err) {
	case http.StatusPreconditionFailed, http.StatusNotFound:
		if v, err := providers.SettleCondition(ctx, s, key, data, providers.ErrPrecondition); err == nil {
			return v, nil
		}
		// The service answers 412 whether the object changed or is gone.
		if _, serr := s.Stat(ctx, key); errors.Is(serr, providers.ErrNotExist) {
			return "", s.failAs(op, name, err, providers.ErrNotExist)
		}
		return "", s.failAs(op, name, err, providers.ErrPrecondition)
	}
	return "", s.fail(op, name, err)
}

// download opens name's body from byte off, on generation gen (0: the live
// one).
func (s *Storage) download(ctx context.Context, name string, gen, off int64) (*http.Response, error) {
	var res *http.Response
	err := retry(ctx, func() error {
		c := s.objects.Get(s.name, name).Context(ctx)
		if gen != 0 {
			c = c.Generation(gen)
		}
		if off > 0 {
			c.Header().Set("Range", fmt.Sprintf("bytes=%d-", off))
		}
		var err error
		res, err = c.Download()
		return err
	})
	return res, err
}

// Get implements providers.Storage. Reading the body resumes after an error
// from where it stopped, on the generation first read: if the object was
// replaced or deleted meanwhile, the read fails.
func (s *Storage) Get(ctx context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	name, err := s.objectName(key)
	if err != nil {
		return nil, providers.ObjectInfo{}, err
	}
	res, err := s.download(ctx, name, 0, 0)
	if err != nil {
		return nil, providers.ObjectInfo{}, s.fail("get", name, err)
	}
	gen, err := strconv.ParseInt(res.Header.Get("X-Goog-Generation"), 10, 64)
	if err != nil || gen <= 0 || res.ContentLength < 0 {
		res.Body.Close()
		return nil, providers.ObjectInfo{}, fmt.Errorf("get %s: the answer names no generation or size (X-Goog-Generation %q, Content-Length %d): is the endpoint Cloud Storage's JSON API?",
			s.location(name), res.Header.Get("X-Goog-Generation"), res.ContentLength)
	}
	modTime, _ := http.ParseTime(res.Header.Get("Last-Modified"))
	info := providers.ObjectInfo{Key: key, Size: res.ContentLength, Version: version(gen), ModTime: modTime}
	return &reader{ctx: ctx, s: s, name: name, gen: gen, size: res.ContentLength, body: res.Body}, info, nil
}

// reader resumes an object's body on its generation.
type reader struct {
	ctx     context.Context
	s       *Storage
	name    string
	gen     int64
	size    int64
	off     int64
	resumes int
	body    io.ReadCloser
	err     error
}

func (r *reader) Read(p []byte) (int, error) {
	for {
		if r.err != nil {
			return 0, r.err
		}
		if r.body == nil {
			if err := r.reopen(); err != nil {
				r.err = err
				return 0, err
			}
		}
		n, err := r.body.Read(p)
		r.off += int64(n)
		if n > 0 {
			r.resumes = 0
		}
		switch {
		case err == nil || err == io.EOF && r.off >= r.size:
			return n, err
		case r.ctx.Err() != nil:
			r.err = fmt.Errorf("read %s: %w", r.s.location(r.name), context.Cause(r.ctx))
		case err == io.EOF:
			// The connection ended before the body did.
			err = io.ErrUnexpectedEOF
			fallthrough
		default:
			_ = r.body.Close()
			r.body = nil
			r.resumes++
			if r.resumes > maxResumes {
				r.err = fmt.Errorf("read %s at byte %d of %d: %w (after %d resumptions)", r.s.location(r.name), r.off, r.size, err, maxResumes)
			}
		}
		if n > 0 {
			return n, nil // the error, if any, on the next Read
		}
	}
}

// reopen reads on from r.off, on the same generation.
func (r *reader) reopen() error {
	res, err := r.s.download(r.ctx, r.name, r.gen, r.off)
	if err != nil {
		if status(err) == http.StatusNotFound {
			return fmt.Errorf("read %s: the object was replaced or deleted while it was read (generation %d is gone): read it again", r.s.location(r.name), r.gen)
		}
		return r.s.fail("read", r.name, err)
	}
	r.body = res.Body
	return nil
}

func (r *reader) Close() error {
	if r.body != nil {
		return r.body.Close()
	}
	return nil
}

// ReadRange opens n bytes (n < 0: the rest) of generation gen of key from
// byte off, in one ranged request (retried): the random reads of a table's
// file IO, which reads Parquet footers and Avro manifests by range.
func (s *Storage) ReadRange(ctx context.Context, key string, gen, off, n int64) (io.ReadCloser, error) {
	name, err := s.objectName(key)
	if err != nil {
		return nil, err
	}
	rng := fmt.Sprintf("bytes=%d-", off)
	if n >= 0 {
		rng += strconv.FormatInt(off+n-1, 10)
	}
	var res *http.Response
	err = retry(ctx, func() error {
		c := s.objects.Get(s.name, name).Generation(gen).Context(ctx)
		c.Header().Set("Range", rng)
		res, err = c.Download()
		return err
	})
	if err != nil {
		return nil, s.fail("read", name, err)
	}
	return res.Body, nil
}

// objectFields are the fields of an object streamctl reads.
const objectFields = "name,size,generation,updated"

// Stat implements providers.Storage.
func (s *Storage) Stat(ctx context.Context, key string) (providers.ObjectInfo, error) {
	name, err := s.objectName(key)
	if err != nil {
		return providers.ObjectInfo{}, err
	}
	var o *gstorage.Object
	err = retry(ctx, func() (err error) {
		o, err = s.objects.Get(s.name, name).Fields(objectFields).Context(ctx).Do()
		return err
	})
	if err != nil {
		return providers.ObjectInfo{}, s.fail("stat", name, err)
	}
	return s.info(o), nil
}

// Copy implements providers.Storage with a server-side rewrite, which
// replaces dst atomically. A large object across storage classes or
// locations takes several calls, each carrying on from the last one's token.
func (s *Storage) Copy(ctx context.Context, src, dst string) error {
	srcName, err := s.objectName(src)
	if err != nil {
		return err
	}
	dstName, err := s.objectName(dst)
	if err != nil {
		return err
	}
	token := ""
	for {
		var res *gstorage.RewriteResponse
		err := retry(ctx, func() (err error) {
			c := s.objects.Rewrite(s.name, srcName, s.name, dstName, &gstorage.Object{ContentType: "application/octet-stream"}).
				Fields("done,rewriteToken").Context(ctx)
			if token != "" {
				c = c.RewriteToken(token)
			}
			res, err = c.Do()
			return err
		})
		if err != nil {
			e := s.fail("copy", srcName, err)
			if oe, ok := e.(*opError); ok {
				oe.loc += " to " + s.location(dstName)
			}
			return e
		}
		if res.Done {
			return nil
		}
		token = res.RewriteToken
	}
}

// Delete implements providers.Storage.
func (s *Storage) Delete(ctx context.Context, key string) error {
	name, err := s.objectName(key)
	if err != nil {
		return err
	}
	err = retry(ctx, func() error { return s.objects.Delete(s.name, name).Context(ctx).Do() })
	if err != nil {
		if e := s.fail("delete", name, err); !errors.Is(e, providers.ErrNotExist) {
			return e
		}
	}
	return nil
}

// DeleteIfMatch implements providers.Storage with ifGenerationMatch.
func (s *Storage) DeleteIfMatch(ctx context.Context, key, ver string) error {
	const op = "delete-if-match"
	name, err := s.objectName(key)
	if err != nil {
		return err
	}
	gen, ok := generation(ver)
	if !ok {
		if _, err := s.Stat(ctx, key); errors.Is(err, providers.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		return &opError{op: op, loc: s.location(name), sentinel: providers.ErrPrecondition}
	}
	// The generation is named twice: ifGenerationMatch makes the service
	// check the live object's, and generation= deletes that generation
	// only, which is what an emulator that ignores preconditions on
	// delete (fake-gcs-server) checks instead. On a bucket with
	// versioning, a matching delete removes the generation outright.
	err = retry(ctx, func() error {
		return s.objects.Delete(s.name, name).Generation(gen).IfGenerationMatch(gen).Context(ctx).Do()
	})
	switch st := status(err); {
	case err == nil:
		return nil
	case st == http.StatusPreconditionFailed || st == http.StatusNotFound:
		// The object changed or is gone (a retry after a lost answer
		// finds it gone): which one, Stat says.
		if _, serr := s.Stat(ctx, key); errors.Is(serr, providers.ErrNotExist) {
			return nil
		}
		return s.failAs(op, name, err, providers.ErrPrecondition)
	}
	return s.fail(op, name, err)
}

// List implements providers.Storage. The service lists names in
// lexicographic order of their bytes, a page at a time.
func (s *Storage) List(ctx context.Context, prefix string, fn func(providers.ObjectInfo) error) error {
	token := ""
	for {
		var page *gstorage.Objects
		err := retry(ctx, func() (err error) {
			c := s.objects.List(s.name).Prefix(s.prefix+prefix).
				Fields("nextPageToken", googleapi.Field("items("+objectFields+")")).Context(ctx)
			if token != "" {
				c = c.PageToken(token)
			}
			page, err = c.Do()
			return err
		})
		if err != nil {
			return s.fail("list", s.prefix+prefix+"*", err)
		}
		for _, o := range page.Items {
			if o.Name == "" {
				continue
			}
			if err := fn(s.info(o)); err != nil {
				return err
			}
		}
		if page.NextPageToken == "" {
			return nil
		}
		token = page.NextPageToken
	}
}

// Features implements providers.Storage: none yet. Staging on the final
// object (a resumable upload finished at promotion) is not implemented.
func (s *Storage) Features() providers.Features { return providers.Features{} }

// status is the HTTP status of a service error, 0 for another error.
func status(err error) int {
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	return 0
}
