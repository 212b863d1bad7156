package state

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// FileLock is the lock of a local document: an OS file lock on
// "<path>.lock", so the kernel releases it when the holder dies: a killed
// apply never leaves a stale lock. The lock file also carries the holder's
// LockInfo.
type FileLock struct {
	path string // of the document the lock guards
}

var _ Locker = (*FileLock)(nil)

// NewFileLock returns the lock of the document at path.
func NewFileLock(path string) *FileLock { return &FileLock{path: path} }

func (b *FileLock) lockPath() string { return b.path + ".lock" }

// Lock implements Locker.
func (b *FileLock) Lock(_ context.Context, info *LockInfo) (Unlocker, error) {
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

// Held implements Unlocker: a kernel lock is held until the file is closed.
func (l *localLock) Held() error { return nil }

// LockInfo implements Locker. The info file is only meaningful while someone
// holds the kernel lock, which is checked first.
func (b *FileLock) LockInfo(context.Context) (*LockInfo, error) {
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

// ForceUnlock implements Locker. A kernel lock cannot be taken from a live
// process; it goes away when the holder exits.
func (b *FileLock) ForceUnlock(ctx context.Context, id string) error {
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
