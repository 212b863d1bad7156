package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/streamctl/streamctl/providers/local"
)

// LocalBackend keeps the state in a file, as a document of the folder it is
// in (written by providers/local: temp file, fsync, rename, fsync of the
// folder), with a FileLock beside it.
type LocalBackend struct {
	path string
	name string // the file's name in its folder
	docs *Docs
	*FileLock
}

var _ Backend = (*LocalBackend)(nil)

// NewLocal returns the backend for the state file at path. New files are
// private (0600): states can name accounts.
func NewLocal(path string) *LocalBackend {
	store := local.New(filepath.Dir(path)).WithFileMode(0o600)
	return &LocalBackend{path: path, name: filepath.Base(path), docs: NewDocs(store), FileLock: NewFileLock(path)}
}

// Describe implements Backend.
func (b *LocalBackend) Describe() string { return b.path }

// Documents implements DocBackend.
func (b *LocalBackend) Documents() (*Docs, string) { return b.docs, b.name }

// Read implements Backend. The version is a hash of the content.
func (b *LocalBackend) Read(ctx context.Context) ([]byte, string, error) {
	data, v, err := b.docs.Read(ctx, b.name)
	if errors.Is(err, ErrNoState) {
		// A folder in the state's place holds no state, but must not be
		// taken for a missing one.
		if fi, serr := os.Lstat(b.path); serr == nil && fi.IsDir() {
			return nil, "", &fs.PathError{Op: "read", Path: b.path, Err: syscall.EISDIR}
		}
	}
	return data, v, err
}

// Write implements Backend: the previous file is kept as "<path>.backup" (a
// hard link). A file the user made read-only is not replaced (renaming over
// it would succeed in a writable folder), and a replaced file keeps its mode.
// Neither the read-only file nor a conflict touches the backup.
func (b *LocalBackend) Write(ctx context.Context, data []byte, version string) (string, error) {
	if fi, err := os.Stat(b.path); err == nil && fi.Mode().IsRegular() {
		if mode := fi.Mode().Perm(); mode&0o200 == 0 {
			return "", &ReadOnlyError{Path: b.path, Mode: mode}
		}
	}
	if version != "" {
		cur, err := b.docs.Version(ctx, b.name)
		if errors.Is(err, ErrNoState) || err == nil && cur != version {
			return "", ErrConflict
		}
		if err != nil {
			return "", err
		}
	}
	return b.docs.Write(ctx, b.name, data, version)
}

// ReadOnlyError is a local state file without the owner's write permission.
type ReadOnlyError struct {
	Path string
	Mode fs.FileMode
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("the state file %s is read-only; make it writable to apply (its mode is %04o: chmod u+w %s). Nothing was written", e.Path, e.Mode, e.Path)
}
