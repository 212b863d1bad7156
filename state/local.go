package state

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// LocalBackend keeps the state in a file. The lock is an OS file lock on
// "<path>.lock", so the kernel releases it when the holder dies: a killed apply
// never leaves a stale lock. The lock file also carries the holder's LockInfo.
type LocalBackend struct {
	path string
}

var _ Backend = (*LocalBackend)(nil)

// NewLocal returns the backend for the state file at path.
func NewLocal(path string) *LocalBackend { return &LocalBackend{path: path} }

// Describe implements Backend.
func (b *LocalBackend) Describe() string { return b.path }

// Read implements Backend. The version is a hash of the content.
func (b *LocalBackend) Read(context.Context) ([]byte, string, error) {
	data, err := os.ReadFile(b.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", ErrNoState
	}
	if err != nil {
		return nil, "", err
	}
	return data, contentVersion(data), nil
}

func contentVersion(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// Write implements Backend: the previous file is kept as "<path>.backup", the
// new one written to a temp file, synced and renamed into place, and the
// directory synced. New files are private (0600): states can name accounts.
// A file the user made read-only is not replaced (renaming over it would
// succeed in a writable folder), and a replaced file keeps its mode.
func (b *LocalBackend) Write(_ context.Context, data []byte, version string) (string, error) {
	mode := fs.FileMode(0o600)
	current, err := os.ReadFile(b.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if version != "" {
			return "", ErrConflict
		}
	case err != nil:
		return "", err
	default:
		fi, err := os.Stat(b.path)
		if err != nil {
			return "", err
		}
		mode = fi.Mode().Perm()
		if mode&0o200 == 0 {
			return "", &ReadOnlyError{Path: b.path, Mode: mode}
		}
		if contentVersion(current) != version {
			return "", ErrConflict
		}
		if err := keepBackup(b.path); err != nil {
			return "", fmt.Errorf("keep backup: %w", err)
		}
	}
	if err := writeFileAtomic(b.path, data, mode); err != nil {
		return "", err
	}
	return contentVersion(data), nil
}

// ReadOnlyError is a local state file without the owner's write permission.
type ReadOnlyError struct {
	Path string
	Mode fs.FileMode
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("the state file %s is read-only; make it writable to apply (its mode is %04o: chmod u+w %s). Nothing was written", e.Path, e.Mode, e.Path)
}

// keepBackup makes the current state file also "<path>.backup", by a hard link
// renamed into place: the bytes are already durable, so nothing is rewritten.
func keepBackup(path string) error {
	tmp := fmt.Sprintf("%s.backup.tmp-%d", path, os.Getpid())
	os.Remove(tmp)
	if err := os.Link(path, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, path+".backup"); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

func writeFileAtomic(path string, data []byte, mode fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

func (b *LocalBackend) lockPath() string { return b.path + ".lock" }

// Lock implements Backend.
func (b *LocalBackend) Lock(_ context.Context, info *LockInfo) (Unlocker, error) {
	if err := os.MkdirAll(filepath.Dir(b.path), 0o755); err != nil {
		return nil, fmt.Errorf("lock state %s: %w", b.path, err)
	}
	f, err := os.OpenFile(b.lockPath(), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock state %s: %w", b.path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			holder, _ := b.LockInfo(context.Background())
			return nil, &LockedError{Holder: holder, Path: b.path}
		}
		return nil, fmt.Errorf("lock state %s: %w", b.path, err)
	}
	info.Path = b.path
	data, _ := json.MarshalIndent(info, "", "  ")
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt(append(data, '\n'), 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock state %s: write lock info: %w", b.path, err)
	}
	return &localLock{f: f, lost: make(chan struct{})}, nil
}

type localLock struct {
	once sync.Once
	f    *os.File
	lost chan struct{}
}

func (l *localLock) Unlock() error {
	var err error
	l.once.Do(func() {
		// Clear the info while still holding the lock, then let the kernel go.
		l.f.Truncate(0)
		err = l.f.Close()
	})
	return err
}

// Lost implements Unlocker: a kernel lock is never lost while the file is open.
func (l *localLock) Lost() <-chan struct{} { return l.lost }

// LockInfo implements Backend. The info file is only meaningful while someone
// holds the kernel lock, which is checked first.
func (b *LocalBackend) LockInfo(context.Context) (*LockInfo, error) {
	f, err := os.OpenFile(b.lockPath(), os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return nil, nil
	}
	data, err := os.ReadFile(b.lockPath())
	if err != nil {
		return nil, err
	}
	var info LockInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return &LockInfo{ID: "unknown", Operation: "unknown", Who: "unknown"}, nil
	}
	return &info, nil
}

// ForceUnlock implements Backend. A kernel lock cannot be taken from a live
// process; it goes away when the holder exits.
func (b *LocalBackend) ForceUnlock(ctx context.Context, id string) error {
	holder, err := b.LockInfo(ctx)
	if err != nil {
		return err
	}
	if holder == nil {
		return fmt.Errorf("the state %s is not locked", b.path)
	}
	if holder.ID != id {
		return fmt.Errorf("the lock on %s has ID %s, not %s", b.path, holder.ID, id)
	}
	return fmt.Errorf("the state %s is locked by a live process (pid %d, %s): a local lock is released by the kernel when that process exits; stop it instead", b.path, holder.PID, holder.Who)
}
