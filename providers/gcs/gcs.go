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
// rename: the engine
// stages under _temporary/<N>/ and promotes with Copy (a server-side
// rewrite) then Delete.
package gcs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"cloud.google.com/go/storage"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/iterator"
	"google.golang.org/api/option"

	"github.com/streamctl/streamctl/internal/spill"
	"github.com/streamctl/streamctl/providers"
)

// Storage is a bucket, or a prefix in it, used as an object store.
type Storage struct {
	client    *storage.Client
	bucket    *storage.BucketHandle
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
	// Reads go through the JSON API, as every other request: the API the
	// emulator serves on any host name, so the tested path is the one taken.
	opts := []option.ClientOption{storage.WithJSONReads()}
	switch {
	case cfg.Endpoint != "":
		// An emulator: the JSON API under /storage/v1/, no credentials.
		opts = append(opts,
			option.WithEndpoint(strings.TrimSuffix(cfg.Endpoint, "/")+"/storage/v1/"),
			option.WithoutAuthentication())
	case cfg.CredentialsJSON != "":
		opts = append(opts, option.WithAuthCredentialsJSON(option.ServiceAccount, []byte(cfg.CredentialsJSON)))
	}
	// Without either, the library reads STORAGE_EMULATOR_HOST, then
	// Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, the
	// gcloud login, the metadata server).
	client, err := storage.NewClient(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("gcs gs://%s: credentials: %w: set GOOGLE_APPLICATION_CREDENTIALS to a service account key file, run `gcloud auth application-default login`, or give credentials_json", cfg.Bucket, err)
	}
	s := &Storage{
		client:    client,
		bucket:    client.Bucket(cfg.Bucket),
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

// Close releases the client's connections.
func (s *Storage) Close() error { return s.client.Close() }

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

// object is the handle of name. Every request is retried on transient
// errors, conditional or not: an unconditional write or delete repeated
// after a lost answer has the same effect as once.
func (s *Storage) object(name string) *storage.ObjectHandle {
	return s.bucket.Object(name).Retryer(storage.WithPolicy(storage.RetryAlways))
}

// version is a generation as a version string.
func version(generation int64) string { return strconv.FormatInt(generation, 10) }

// generation parses a version; ok is false for a string no object has.
func generation(v string) (int64, bool) {
	g, err := strconv.ParseInt(v, 10, 64)
	return g, err == nil && g > 0
}

func (s *Storage) info(name string, a *storage.ObjectAttrs) providers.ObjectInfo {
	return providers.ObjectInfo{
		Key:     strings.TrimPrefix(name, s.prefix),
		Size:    a.Size,
		Version: version(a.Generation),
		ModTime: a.Updated,
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
	if _, err := w.s.upload(w.ctx, w.name, w.buf.Section(0, w.buf.Size()), w.buf.Size(), storage.Conditions{}); err != nil {
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

// Retries of a single-request upload, which the library cannot rewind: the
// n-th retry waits retryDelay × 2^(n-1).
const (
	maxAttempts = 5
	retryDelay  = 200 * time.Millisecond
)

// upload writes the size bytes of body at name under cond and returns the
// new generation. Up to chunk_size bytes go in one request, retried here on
// network errors, throttling and server errors (a conditional one meets its
// own object after a lost answer, which the caller settles); more go as a
// resumable upload, whose chunks the library retries.
func (s *Storage) upload(ctx context.Context, name string, body io.ReadSeeker, size int64, cond storage.Conditions) (string, error) {
	obj := s.object(name)
	if cond != (storage.Conditions{}) {
		obj = obj.If(cond)
	}
	chunk := 0
	if size > s.chunkSize {
		chunk = int(s.chunkSize)
	}
	for attempt := 1; ; attempt++ {
		gen, err := s.uploadOnce(ctx, obj, body, chunk)
		if err == nil {
			return gen, nil
		}
		if chunk > 0 || attempt >= maxAttempts || ctx.Err() != nil || !retryable(err) {
			return "", err
		}
		select {
		case <-ctx.Done():
			return "", err
		case <-time.After(retryDelay << (attempt - 1)):
		}
	}
}

func (s *Storage) uploadOnce(ctx context.Context, obj *storage.ObjectHandle, body io.ReadSeeker, chunk int) (string, error) {
	if _, err := body.Seek(0, io.SeekStart); err != nil {
		return "", fmt.Errorf("read the buffer: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := obj.NewWriter(ctx)
	w.ChunkSize = chunk
	w.ContentType = "application/octet-stream"
	if _, err := io.Copy(w, body); err != nil {
		cancel() // the upload is not finalised
		_ = w.Close()
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return version(w.Attrs().Generation), nil
}

// retryable says whether a failed request may be sent again: a network
// error, a timeout, throttling or a server error.
func retryable(err error) bool {
	switch st := status(err); {
	case st == 0:
		return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
	case st == http.StatusRequestTimeout || st == http.StatusTooManyRequests || st >= 500:
		return true
	}
	return false
}

// put writes data at name under cond, in one request.
func (s *Storage) put(ctx context.Context, name string, data []byte, cond storage.Conditions) (string, error) {
	return s.upload(ctx, name, bytes.NewReader(data), int64(len(data)), cond)
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
	v, err := s.put(ctx, name, data, storage.Conditions{DoesNotExist: true})
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
	v, err := s.put(ctx, name, data, storage.Conditions{GenerationMatch: gen})
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

// Get implements providers.Storage. Reading the body resumes after an error
// from where it stopped, on the generation first read: if the object was
// replaced or deleted meanwhile, the read fails.
func (s *Storage) Get(ctx context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	name, err := s.objectName(key)
	if err != nil {
		return nil, providers.ObjectInfo{}, err
	}
	r, err := s.object(name).NewReader(ctx)
	if err != nil {
		return nil, providers.ObjectInfo{}, s.fail("get", name, err)
	}
	info := providers.ObjectInfo{
		Key:     key,
		Size:    r.Attrs.Size,
		Version: version(r.Attrs.Generation),
		ModTime: r.Attrs.LastModified,
	}
	return &reader{ctx: ctx, s: s, name: name, gen: r.Attrs.Generation, size: r.Attrs.Size, r: r}, info, nil
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
	r       *storage.Reader
	err     error
}

func (r *reader) Read(p []byte) (int, error) {
	for {
		if r.err != nil {
			return 0, r.err
		}
		if r.r == nil {
			if err := r.reopen(); err != nil {
				r.err = err
				return 0, err
			}
		}
		n, err := r.r.Read(p)
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
			_ = r.r.Close()
			r.r = nil
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
	nr, err := r.s.bucket.Object(r.name).Generation(r.gen).NewRangeReader(r.ctx, r.off, -1)
	if err != nil {
		if status(err) == http.StatusNotFound || errors.Is(err, storage.ErrObjectNotExist) {
			return fmt.Errorf("read %s: the object was replaced or deleted while it was read (generation %d is gone): read it again", r.s.location(r.name), r.gen)
		}
		return r.s.fail("read", r.name, err)
	}
	r.r = nr
	return nil
}

func (r *reader) Close() error {
	if r.r != nil {
		return r.r.Close()
	}
	return nil
}

// Stat implements providers.Storage.
func (s *Storage) Stat(ctx context.Context, key string) (providers.ObjectInfo, error) {
	name, err := s.objectName(key)
	if err != nil {
		return providers.ObjectInfo{}, err
	}
	a, err := s.object(name).Attrs(ctx)
	if err != nil {
		return providers.ObjectInfo{}, s.fail("stat", name, err)
	}
	return s.info(name, a), nil
}

// Copy implements providers.Storage with a server-side rewrite, which
// replaces dst atomically.
func (s *Storage) Copy(ctx context.Context, src, dst string) error {
	srcName, err := s.objectName(src)
	if err != nil {
		return err
	}
	dstName, err := s.objectName(dst)
	if err != nil {
		return err
	}
	c := s.object(dstName).CopierFrom(s.bucket.Object(srcName))
	c.ContentType = "application/octet-stream"
	if _, err := c.Run(ctx); err != nil {
		e := s.fail("copy", srcName, err)
		if oe, ok := e.(*opError); ok {
			oe.loc += " to " + s.location(dstName)
		}
		return e
	}
	return nil
}

// Delete implements providers.Storage.
func (s *Storage) Delete(ctx context.Context, key string) error {
	name, err := s.objectName(key)
	if err != nil {
		return err
	}
	if err := s.object(name).Delete(ctx); err != nil {
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
	err = s.object(name).Generation(gen).If(storage.Conditions{GenerationMatch: gen}).Delete(ctx)
	switch st := status(err); {
	case err == nil:
		return nil
	case st == http.StatusPreconditionFailed || st == http.StatusNotFound || errors.Is(err, storage.ErrObjectNotExist):
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
// lexicographic order of their bytes.
func (s *Storage) List(ctx context.Context, prefix string, fn func(providers.ObjectInfo) error) error {
	q := &storage.Query{Prefix: s.prefix + prefix}
	if err := q.SetAttrSelection([]string{"Name", "Size", "Generation", "Updated"}); err != nil {
		return err
	}
	it := s.bucket.Objects(ctx, q)
	for {
		a, err := it.Next()
		if err == iterator.Done {
			return nil
		}
		if err != nil {
			return s.fail("list", s.prefix+prefix+"*", err)
		}
		if a.Name == "" {
			continue
		}
		if err := fn(s.info(a.Name, a)); err != nil {
			return err
		}
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
