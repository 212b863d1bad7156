// Package gsio is iceberg-go's file IO for gs:// locations, on streamctl's
// own Google Cloud Storage provider (providers/gcs). Importing it registers
// the gs scheme.
//
// iceberg-go's GCS IO goes through gocloud.dev and cloud.google.com/go/storage,
// whose gRPC transport streamctl never uses and which would add about 19 MB
// to a stripped binary; the provider already speaks the JSON API, with its
// retries and error messages. The table properties are those iceberg-go's
// IO reads: gcs.endpoint (an emulator's JSON API, …/storage/v1/),
// gcs.no-auth and gcs.jsonkey (a service account key); without them,
// Application Default Credentials apply.
package gsio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"time"

	icebergio "github.com/apache/iceberg-go/io"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/gcs"
)

// The table properties read, as iceberg-go names them.
const (
	PropEndpoint = "gcs.endpoint"
	PropNoAuth   = "gcs.no-auth"
	PropJSONKey  = "gcs.jsonkey"
)

func init() {
	icebergio.Register("gs", func(ctx context.Context, u *url.URL, props map[string]string) (icebergio.IO, error) {
		return New(ctx, u.Host, props)
	})
}

// FileIO reads and writes the objects of one bucket by gs:// URL.
type FileIO struct {
	ctx    context.Context
	bucket string
	store  *gcs.Storage
}

var (
	_ icebergio.WriteFileIO = (*FileIO)(nil)
	_ icebergio.ReadFileIO  = (*FileIO)(nil)
	_ icebergio.StatIO      = (*FileIO)(nil)
)

// New is the file IO of bucket with the table's properties.
func New(ctx context.Context, bucket string, props map[string]string) (*FileIO, error) {
	cfg := gcs.Config{Bucket: bucket, CredentialsJSON: props[PropJSONKey]}
	if e := props[PropEndpoint]; e != "" {
		cfg.Endpoint = strings.TrimSuffix(strings.TrimSuffix(e, "/"), "/storage/v1")
	}
	store, err := gcs.New(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("iceberg file IO for gs://%s: %w", bucket, err)
	}
	return &FileIO{ctx: ctx, bucket: bucket, store: store}, nil
}

// key is the object key of a gs:// URL of the bucket, or of a key itself.
func (f *FileIO) key(op, name string) (string, error) {
	key := name
	if rest, ok := strings.CutPrefix(name, "gs://"); ok {
		bucket, k, _ := strings.Cut(rest, "/")
		if bucket != f.bucket {
			return "", &fs.PathError{Op: op, Path: name, Err: fmt.Errorf("not in bucket %q", f.bucket)}
		}
		key = k
	}
	if err := providers.CheckKey(key); err != nil {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return key, nil
}

// pathError locates err, keeping "does not exist" recognisable.
func pathError(op, name string, err error) error {
	if errors.Is(err, providers.ErrNotExist) {
		err = errors.Join(fs.ErrNotExist, err)
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// Open implements icebergio.IO: the object's generation at Open is the one
// every read of the file sees.
func (f *FileIO) Open(name string) (icebergio.File, error) {
	key, err := f.key("open", name)
	if err != nil {
		return nil, err
	}
	info, err := f.store.Stat(f.ctx, key)
	if err != nil {
		return nil, pathError("open", name, err)
	}
	var gen int64
	if _, err := fmt.Sscan(info.Version, &gen); err != nil {
		return nil, pathError("open", name, fmt.Errorf("generation %q: %w", info.Version, err))
	}
	return &file{io: f, key: key, gen: gen, info: info}, nil
}

// ReadFile implements icebergio.ReadFileIO.
func (f *FileIO) ReadFile(name string) ([]byte, error) {
	key, err := f.key("read", name)
	if err != nil {
		return nil, err
	}
	data, _, err := providers.ReadAll(f.ctx, f.store, key)
	if err != nil {
		return nil, pathError("read", name, err)
	}
	return data, nil
}

// Stat implements icebergio.StatIO.
func (f *FileIO) Stat(name string) (fs.FileInfo, error) {
	key, err := f.key("stat", name)
	if err != nil {
		return nil, err
	}
	info, err := f.store.Stat(f.ctx, key)
	if err != nil {
		return nil, pathError("stat", name, err)
	}
	return fileInfo{info}, nil
}

// Remove implements icebergio.IO.
func (f *FileIO) Remove(name string) error {
	key, err := f.key("remove", name)
	if err != nil {
		return err
	}
	if err := f.store.Delete(f.ctx, key); err != nil {
		return pathError("remove", name, err)
	}
	return nil
}

// Create implements icebergio.WriteFileIO: the object appears, whole, on
// Close.
func (f *FileIO) Create(name string) (icebergio.FileWriter, error) {
	key, err := f.key("create", name)
	if err != nil {
		return nil, err
	}
	w, err := f.store.Create(f.ctx, key)
	if err != nil {
		return nil, pathError("create", name, err)
	}
	return &writer{w: w, name: name}, nil
}

// WriteFile implements icebergio.WriteFileIO.
func (f *FileIO) WriteFile(name string, p []byte) error {
	w, err := f.Create(name)
	if err != nil {
		return err
	}
	if _, err := w.Write(p); err != nil {
		w.(*writer).w.Abort()
		return err
	}
	return w.Close()
}

// writer is a FileWriter committing the object on Close.
type writer struct {
	w    providers.ObjectWriter
	name string
}

func (w *writer) Write(p []byte) (int, error) { return w.w.Write(p) }

func (w *writer) ReadFrom(r io.Reader) (int64, error) { return io.Copy(w.w, r) }

func (w *writer) Close() error {
	if err := w.w.Commit(); err != nil {
		return pathError("write", w.name, err)
	}
	return nil
}

// file is an open object, read on the generation it had at Open: ReadAt
// by ranged requests, Read from a body kept open until a Seek moves off it.
type file struct {
	io   *FileIO
	key  string
	gen  int64
	info providers.ObjectInfo
	off  int64
	body io.ReadCloser // reads on from off
}

func (r *file) Stat() (fs.FileInfo, error) { return fileInfo{r.info}, nil }

func (r *file) Close() error {
	if r.body == nil {
		return nil
	}
	err := r.body.Close()
	r.body = nil
	return err
}

func (r *file) ReadAt(p []byte, off int64) (int, error) {
	if off >= r.info.Size {
		return 0, io.EOF
	}
	want := p
	if rest := r.info.Size - off; int64(len(p)) > rest {
		want = p[:rest]
	}
	body, err := r.io.store.ReadRange(r.io.ctx, r.key, r.gen, off, int64(len(want)))
	if err != nil {
		return 0, pathError("read", r.key, err)
	}
	defer body.Close()
	n, err := io.ReadFull(body, want)
	if err != nil {
		return n, pathError("read", r.key, err)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (r *file) Read(p []byte) (int, error) {
	if r.off >= r.info.Size {
		return 0, io.EOF
	}
	if r.body == nil {
		body, err := r.io.store.ReadRange(r.io.ctx, r.key, r.gen, r.off, -1)
		if err != nil {
			return 0, pathError("read", r.key, err)
		}
		r.body = body
	}
	n, err := r.body.Read(p)
	r.off += int64(n)
	if err == io.EOF && r.off < r.info.Size {
		err = pathError("read", r.key, io.ErrUnexpectedEOF)
	}
	return n, err
}

func (r *file) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		offset += r.info.Size
	default:
		return r.off, fmt.Errorf("seek %s: whence %d", r.key, whence)
	}
	if offset < 0 {
		return r.off, fmt.Errorf("seek %s: negative offset %d", r.key, offset)
	}
	if offset != r.off {
		r.Close()
		r.off = offset
	}
	return offset, nil
}

// fileInfo is an object as an fs.FileInfo.
type fileInfo struct{ providers.ObjectInfo }

func (i fileInfo) Name() string       { return path.Base(i.Key) }
func (i fileInfo) Size() int64        { return i.ObjectInfo.Size }
func (i fileInfo) Mode() fs.FileMode  { return 0o444 }
func (i fileInfo) ModTime() time.Time { return i.ObjectInfo.ModTime }
func (i fileInfo) IsDir() bool        { return false }
func (i fileInfo) Sys() any           { return nil }
