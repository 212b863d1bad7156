// Package local implements providers.Storage on a local or mounted filesystem.
// Writes are durable (fsync of file and directory) and appear atomically (a temp
// file beside the target, then rename). Every operation goes through an
// os.Root of the destination folder, so no key, and no symbolic link planted
// in the folder, can make a write, a read or a deletion reach outside it.
package local

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/streamctl/streamctl/providers"
)

// tempPrefix marks files being written; List never shows them.
const tempPrefix = ".streamctl-tmp-"

// casLock is the lock file of PutIfMatch in each folder; tempPrefix keeps it
// out of listings.
const casLock = tempPrefix + "cas.lock"

// Storage is a directory tree used as an object store.
type Storage struct {
	root string
	mode fs.FileMode // of new files; 0: what the umask gives
}

var (
	_ providers.Storage       = (*Storage)(nil)
	_ providers.Renamer       = (*Storage)(nil)
	_ providers.PrefixDeleter = (*Storage)(nil)
	_ providers.Linker        = (*Storage)(nil)
)

// Features implements providers.Storage: a folder renames, links, writes
// scratch files and removes a prefix whole.
func (s *Storage) Features() providers.Features {
	return providers.Features{ScratchCreator: s, Renamer: s, Linker: s, PrefixDeleter: s}
}

// New returns the storage rooted at dir. The directory is created on first write.
func New(dir string) *Storage {
	return &Storage{root: filepath.Clean(dir)}
}

// WithFileMode returns the storage with new files created with mode instead
// of the umask's, and replaced files (PutIfMatch) keeping theirs: for private
// documents such as the state, whose mode a user may have changed.
func (s *Storage) WithFileMode(mode fs.FileMode) *Storage {
	return &Storage{root: s.root, mode: mode.Perm()}
}

// Describe implements providers.Storage.
func (s *Storage) Describe() string { return s.root }

// Root is the directory the storage is rooted at.
func (s *Storage) Root() string { return s.root }

// LinkError is an operation refused because a path of the destination is a
// symbolic link that leads out of it: writing, reading or deleting through
// it would touch files that are not the destination's.
type LinkError struct {
	Path   string // the link, absolute
	Target string // what it points to
	Root   string // the destination folder
}

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is a symbolic link to %s, out of the destination %s: streamctl never writes, reads or deletes through a link that leaves a destination; replace the link with a real folder, or point the destination's path at the folder it leads to", e.Path, e.Target, e.Root)
}

// name maps a key to a path relative to the root, refusing keys that would
// leave it. The os.Root the path is used with refuses the rest: links out.
func (s *Storage) name(key string) (string, error) {
	if err := providers.CheckKey(key); err != nil {
		return "", err
	}
	return filepath.FromSlash(key), nil
}

// full is the absolute path of a name, for messages.
func (s *Storage) full(name string) string { return filepath.Join(s.root, name) }

// open opens the root. With create, a missing root is created first (with
// plain os calls: the root's own path is the user's to choose, links and all).
func (s *Storage) open(create bool) (*os.Root, error) {
	r, err := os.OpenRoot(s.root)
	if err == nil || !create || !errors.Is(err, fs.ErrNotExist) {
		return r, err
	}
	if err := mkdirAllOS(s.root); err != nil {
		return nil, err
	}
	return os.OpenRoot(s.root)
}

// fail explains a failed operation on name: a link out of the root on the
// way is named as such; otherwise err is mapped as mapErr does.
func (s *Storage) fail(r *os.Root, op, name string, err error) error {
	if le := s.linkOut(r, name); le != nil {
		return fmt.Errorf("%s %s: %w", op, s.full(name), le)
	}
	return mapErr(op, s.full(name), err)
}

// linkOut finds the first component of name that is a symbolic link leading
// out of the root (or an absolute one, which os.Root never follows).
func (s *Storage) linkOut(r *os.Root, name string) *LinkError {
	if r == nil {
		return nil
	}
	parts := strings.Split(filepath.ToSlash(name), "/")
	for i := range parts {
		p := filepath.Join(parts[:i+1]...)
		fi, err := r.Lstat(p)
		if err != nil {
			return nil // missing, or behind a component reported already
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		if _, err := r.Stat(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			target, _ := r.Readlink(p)
			return &LinkError{Path: s.full(p), Target: target, Root: s.root}
		}
	}
	return nil
}

// Create implements providers.Storage.
func (s *Storage) Create(_ context.Context, key string) (providers.ObjectWriter, error) {
	return s.create(key, true)
}

// CreateScratch implements providers.ScratchCreator: the file's bytes are
// synced at Commit, its folder entries are not.
func (s *Storage) CreateScratch(_ context.Context, key string) (providers.ObjectWriter, error) {
	return s.create(key, false)
}

// create opens a writer of key; durable says whether its name and new folders
// are synced too.
func (s *Storage) create(key string, durable bool) (providers.ObjectWriter, error) {
	target, err := s.name(key)
	if err != nil {
		return nil, err
	}
	r, err := s.open(true)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", s.full(target), err)
	}
	// The root is not kept open with the file: a batch writing to many
	// folders at once would hold two descriptors per file. Commit and Abort
	// open it again.
	defer r.Close()
	f, tmp, err := s.tempFile(r, target, durable)
	if err != nil {
		return nil, err
	}
	return &writer{s: s, f: f, tmp: tmp, target: target, durable: durable}, nil
}

// tempFile creates a temporary file in target's directory, creating the
// directory if needed, and returns it with its name. A concurrent Delete
// removes directories it leaves empty, possibly between the mkdir and the
// create: then it tries again.
func (s *Storage) tempFile(r *os.Root, target string, durable bool) (*os.File, string, error) {
	dir := filepath.Dir(target)
	for attempt := 1; ; attempt++ {
		err := s.mkdirs(r, dir, durable)
		if err == nil {
			f, tmp, cerr := createTemp(r, dir)
			if cerr == nil && s.mode != 0 {
				if cerr = f.Chmod(s.mode); cerr != nil {
					f.Close()
					r.Remove(tmp)
				}
			}
			if cerr == nil {
				return f, tmp, nil
			}
			err = s.fail(r, "create", target, cerr)
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, providers.ErrNotExist) || attempt == maxDirRaces {
			return nil, "", err
		}
	}
}

// createTemp creates a new temp file in dir. Unlike os.CreateTemp (always
// 0600) it asks for 0666, so that the renamed file gets the mode the umask
// gives shared data (0644 under 022), as files of other tools do.
func createTemp(r *os.Root, dir string) (*os.File, string, error) {
	for attempt := 1; ; attempt++ {
		name := filepath.Join(dir, tempPrefix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) && attempt < 100 {
			continue // a name another writer took: draw again
		}
		return f, name, err
	}
}

// maxDirRaces bounds the retries of an operation whose directory a concurrent
// Delete removed: each retry means another goroutine made progress.
const maxDirRaces = 100

// mkdirAll creates dir (relative to the root) and its missing parents,
// syncing each parent so that the new entries survive a crash.
func (s *Storage) mkdirAll(r *os.Root, dir string) error { return s.mkdirs(r, dir, true) }

// mkdirs creates dir and its missing parents; durable says whether each new
// folder's entry is synced.
func (s *Storage) mkdirs(r *os.Root, dir string, durable bool) error {
	if dir == "." {
		return nil
	}
	if fi, err := r.Stat(dir); err == nil && fi.IsDir() {
		return nil
	}
	parent := filepath.Dir(dir)
	if err := s.mkdirs(r, parent, durable); err != nil {
		return err
	}
	// 0777: the umask decides, as for mkdir(1) (0755 under 022).
	if err := r.Mkdir(dir, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
		if le := s.linkOut(r, dir); le != nil {
			return fmt.Errorf("create directory %s: %w", s.full(dir), le)
		}
		return fmt.Errorf("create directory %s: %w", s.full(dir), err)
	}
	if !durable {
		return nil
	}
	return s.syncDir(r, parent)
}

// mkdirAllOS creates the root folder itself and its missing parents, syncing
// each parent.
func mkdirAllOS(dir string) error {
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return nil
	}
	parent := filepath.Dir(dir)
	if parent != dir {
		if err := mkdirAllOS(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create directory %s: %w", dir, err)
	}
	d, err := os.Open(parent)
	if err != nil {
		return fmt.Errorf("sync directory %s: %w", parent, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("sync directory %s: %w", parent, err)
	}
	return nil
}

type writer struct {
	s           *Storage
	f           *os.File
	tmp, target string // relative to the root
	done        bool
	err         error // the first failed Write: Commit must not publish a short file
	durable     bool  // Commit syncs the name too (not for scratch files)

	written, flushed int64 // bytes written, and those handed to writeback
}

// writebackChunk is how many written bytes a writer lets accumulate before it
// starts their writeback: large enough to be one efficient disk write, small
// enough that a small batch's fsync does not wait for all of its file.
const writebackChunk = 1 << 20

func (w *writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.f.Write(p)
	w.written += int64(n)
	if err != nil {
		w.err = fmt.Errorf("write %s: %w", w.s.full(w.target), err)
		return n, w.err
	}
	if w.written-w.flushed >= writebackChunk {
		startWriteback(w.f, w.flushed, w.written-w.flushed)
		w.flushed = w.written
	}
	return n, nil
}

func (w *writer) Commit() error {
	if w.done {
		return errors.New("commit of a finished object")
	}
	w.done = true
	r, err := w.s.open(false)
	if err != nil {
		w.f.Close()
		return fmt.Errorf("write %s: %w", w.s.full(w.target), err)
	}
	defer r.Close()
	if w.err != nil {
		w.f.Close()
		r.Remove(w.tmp)
		return w.err
	}
	if err := syncAndClose(w.f); err != nil {
		r.Remove(w.tmp)
		return fmt.Errorf("write %s: %w", w.s.full(w.target), err)
	}
	if err := r.Rename(w.tmp, w.target); err != nil {
		r.Remove(w.tmp)
		return w.s.fail(r, "write", w.target, err)
	}
	if !w.durable {
		return nil
	}
	return w.s.syncDir(r, filepath.Dir(w.target))
}

func (w *writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.f.Close()
	r, err := w.s.open(false)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.Remove(w.tmp)
}

// PutIfAbsent implements providers.Storage with link(2), which fails atomically
// when the target exists, so the object appears whole or not at all.
func (s *Storage) PutIfAbsent(_ context.Context, key string, data []byte) (string, error) {
	target, err := s.name(key)
	if err != nil {
		return "", err
	}
	r, err := s.open(true)
	if err != nil {
		return "", fmt.Errorf("create %s: %w", s.full(target), err)
	}
	defer r.Close()
	tmp, err := s.writeTemp(r, target, data)
	if err != nil {
		return "", err
	}
	defer r.Remove(tmp)
	if err := r.Link(tmp, target); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("create %s: %w", s.full(target), providers.ErrExist)
		}
		return "", s.fail(r, "create", target, err)
	}
	if err := s.syncDir(r, filepath.Dir(target)); err != nil {
		return "", err
	}
	return version(data), nil
}

// PutIfMatch implements providers.Storage. The check and the rename happen under
// an exclusive flock on a lock file of the key's folder, so racing processes
// serialize. One lock file per folder, not per key: it is never removed
// (removing a lock file lets two holders in), so a lock file per key would
// pile up, one for every key ever written (the conditional-write probe
// writes a new one each run).
func (s *Storage) PutIfMatch(_ context.Context, key string, data []byte, want string) (string, error) {
	target, err := s.name(key)
	if err != nil {
		return "", err
	}
	r, err := s.open(false)
	if err != nil {
		return "", mapErr("replace", s.full(target), err)
	}
	defer r.Close()
	// No mkdir: a missing directory means a missing object, and the lock file
	// keeps the directory from being removed while it is held.
	lf, err := lockFolder(r, target)
	if err != nil {
		return "", s.fail(r, "replace", target, err)
	}
	defer lf.Close()
	current, err := r.ReadFile(target)
	if errors.Is(err, syscall.EISDIR) {
		err = fs.ErrNotExist
	}
	if err != nil {
		return "", s.fail(r, "replace", target, err)
	}
	if version(current) != want {
		return "", fmt.Errorf("replace %s: %w", s.full(target), providers.ErrPrecondition)
	}
	tmp, err := s.writeTemp(r, target, data)
	if err != nil {
		return "", err
	}
	if s.mode != 0 {
		if err := keepMode(r, target, tmp); err != nil {
			r.Remove(tmp)
			return "", s.fail(r, "replace", target, err)
		}
	}
	if err := r.Rename(tmp, target); err != nil {
		r.Remove(tmp)
		return "", s.fail(r, "replace", target, err)
	}
	if err := s.syncDir(r, filepath.Dir(target)); err != nil {
		return "", err
	}
	return version(data), nil
}

// keepMode gives tmp the mode of the file it replaces.
func keepMode(r *os.Root, target, tmp string) error {
	fi, err := r.Stat(target)
	if err != nil {
		return err
	}
	return r.Chmod(tmp, fi.Mode().Perm())
}

// pair maps the keys of a two-key operation (op) to names and opens the root.
func (s *Storage) pair(op, src, dst string) (sp, dp string, r *os.Root, err error) {
	if sp, err = s.name(src); err != nil {
		return "", "", nil, err
	}
	if dp, err = s.name(dst); err != nil {
		return "", "", nil, err
	}
	if r, err = s.open(false); err != nil {
		return "", "", nil, mapErr(op, s.full(sp), err)
	}
	return sp, dp, r, nil
}

// Link makes dst a second name of the object at src, replacing dst
// atomically. Nothing is rewritten: the bytes are already durable. The folder
// is not synced; the next write in it syncs the new name (a backup lost in a
// crash is the previous backup).
func (s *Storage) Link(_ context.Context, src, dst string) error {
	sp, dp, r, err := s.pair("link", src, dst)
	if err != nil {
		return err
	}
	defer r.Close()
	if filepath.Dir(sp) != filepath.Dir(dp) {
		return fmt.Errorf("link %s: %s is in another folder", s.full(sp), s.full(dp))
	}
	tmp := filepath.Join(filepath.Dir(dp), tempPrefix+strconv.FormatUint(rand.Uint64(), 36))
	if err := r.Link(sp, tmp); err != nil {
		return s.fail(r, "link", sp, err)
	}
	if err := r.Rename(tmp, dp); err != nil {
		r.Remove(tmp)
		return s.fail(r, "link", dp, err)
	}
	return nil
}

// writeTemp writes data to a synced temp file beside target and returns its
// name.
func (s *Storage) writeTemp(r *os.Root, target string, data []byte) (string, error) {
	f, tmp, err := s.tempFile(r, target, true)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		r.Remove(tmp)
		return "", fmt.Errorf("write %s: %w", s.full(target), err)
	}
	if err := syncAndClose(f); err != nil {
		r.Remove(tmp)
		return "", fmt.Errorf("write %s: %w", s.full(target), err)
	}
	return tmp, nil
}

// Get implements providers.Storage. The version of a local object is a hash of
// its content, so Get reads small objects whole to compute it; large ones report
// no version.
func (s *Storage) Get(_ context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	name, err := s.name(key)
	if err != nil {
		return nil, providers.ObjectInfo{}, err
	}
	r, err := s.open(false)
	if err != nil {
		return nil, providers.ObjectInfo{}, mapErr("read", s.full(name), err)
	}
	// Files opened through the root stay open when it closes.
	defer r.Close()
	f, err := r.Open(name)
	if err != nil {
		return nil, providers.ObjectInfo{}, s.fail(r, "read", name, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, providers.ObjectInfo{}, mapErr("read", s.full(name), err)
	}
	if !fi.Mode().IsRegular() {
		// A directory holds other keys; it is not an object itself.
		f.Close()
		return nil, providers.ObjectInfo{}, fmt.Errorf("read %s: %w", s.full(name), providers.ErrNotExist)
	}
	info := providers.ObjectInfo{Key: key, Size: fi.Size(), ModTime: fi.ModTime()}
	if fi.Size() <= versionedSize {
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, info, fmt.Errorf("read %s: %w", s.full(name), err)
		}
		info.Version = version(data)
		return io.NopCloser(bytes.NewReader(data)), info, nil
	}
	return f, info, nil
}

// versionedSize bounds the objects whose version Get and Stat compute: state and
// lock files, which are the only objects written with PutIfMatch.
const versionedSize = 64 << 20

// Stat implements providers.Storage.
func (s *Storage) Stat(ctx context.Context, key string) (providers.ObjectInfo, error) {
	r, info, err := s.Get(ctx, key)
	if err != nil {
		return info, err
	}
	r.Close()
	return info, nil
}

// Copy implements providers.Storage.
func (s *Storage) Copy(ctx context.Context, src, dst string) error {
	sp, err := s.name(src)
	if err != nil {
		return err
	}
	r, err := s.open(false)
	if err != nil {
		return mapErr("copy", s.full(sp), err)
	}
	in, err := r.Open(sp)
	if err != nil {
		err = s.fail(r, "copy", sp, err)
		r.Close()
		return err
	}
	r.Close() // the file stays open
	defer in.Close()
	if fi, err := in.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("copy %s: %w", s.full(sp), providers.ErrNotExist)
	}
	w, err := s.Create(ctx, dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, in); err != nil {
		w.Abort()
		return fmt.Errorf("copy %s: %w", s.full(sp), err)
	}
	return w.Commit()
}

// Rename implements providers.Renamer.
func (s *Storage) Rename(_ context.Context, src, dst string) error {
	sp, dp, r, err := s.pair("rename", src, dst)
	if err != nil {
		return err
	}
	defer r.Close()
	if fi, err := r.Lstat(sp); err != nil || !fi.Mode().IsRegular() {
		// A directory holds other keys; renaming it would move them all.
		if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return fmt.Errorf("rename %s: %w", s.full(sp), providers.ErrNotExist)
		}
		return s.fail(r, "rename", sp, err)
	}
	for attempt := 1; ; attempt++ {
		err := s.mkdirAll(r, filepath.Dir(dp))
		if err == nil {
			if err = r.Rename(sp, dp); err == nil {
				break
			}
			err = s.fail(r, "rename", dp, err)
		}
		// ENOENT: src is missing, or a concurrent Delete removed dst's
		// directory after the mkdir.
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, providers.ErrNotExist) {
			return err
		}
		if fi, serr := r.Lstat(sp); serr != nil || !fi.Mode().IsRegular() || attempt == maxDirRaces {
			return fmt.Errorf("rename %s: %w", s.full(sp), providers.ErrNotExist)
		}
	}
	if err := s.syncDir(r, filepath.Dir(dp)); err != nil {
		return err
	}
	if filepath.Dir(sp) != filepath.Dir(dp) {
		if err := s.syncDir(r, filepath.Dir(sp)); err != nil {
			return err
		}
		removeEmptyParents(r, sp)
	}
	return nil
}

// Delete implements providers.Storage. Directories it leaves empty are removed.
func (s *Storage) Delete(_ context.Context, key string) error {
	r, p, err := s.openToDelete(key)
	if r == nil {
		return err
	}
	defer r.Close()
	if fi, err := r.Lstat(p); err != nil || fi.IsDir() {
		// Missing, or a directory holding other keys: no object to delete.
		if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil
		}
		return s.fail(r, "delete", p, err)
	}
	// A link itself is removed, never what it points to.
	if err := r.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s.fail(r, "delete", p, err)
	}
	removeEmptyParents(r, p)
	return nil
}

// DeleteIfMatch implements providers.Storage under the folder's lock file,
// as PutIfMatch: the check and the removal are one step for every writer
// that takes the lock.
func (s *Storage) DeleteIfMatch(_ context.Context, key, want string) error {
	r, target, err := s.openToDelete(key)
	if r == nil {
		return err
	}
	defer r.Close()
	lf, err := lockFolder(r, target)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil // no folder: no object
	}
	if err != nil {
		return s.fail(r, "delete", target, err)
	}
	defer lf.Close()
	current, err := r.ReadFile(target)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.EISDIR):
		return nil
	case err != nil:
		return s.fail(r, "delete", target, err)
	case version(current) != want:
		return fmt.Errorf("delete %s: %w", s.full(target), providers.ErrPrecondition)
	}
	if err := r.Remove(target); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s.fail(r, "delete", target, err)
	}
	return s.syncDir(r, filepath.Dir(target))
}

// openToDelete opens the root to delete key, whose name it returns. A
// missing root holds nothing to delete: then the root is nil, and so is the
// error.
func (s *Storage) openToDelete(key string) (*os.Root, string, error) {
	name, err := s.name(key)
	if err != nil {
		return nil, "", err
	}
	r, err := s.open(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, name, nil
	}
	if err != nil {
		return nil, name, fmt.Errorf("delete %s: %w", s.full(name), err)
	}
	return r, name, nil
}

// lockFolder takes the lock file of target's folder, which serialises the
// conditional writes and deletes there; closing the file releases it.
func lockFolder(r *os.Root, target string) (*os.File, error) {
	// 0666: the umask decides, as for the data beside it; the file is empty.
	lf, err := r.OpenFile(filepath.Join(filepath.Dir(target), casLock), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		lf.Close()
		return nil, fmt.Errorf("lock: %w", err)
	}
	return lf, nil
}

// removeEmptyParents removes the directories above name that are left
// empty, up to the root, so that a cleaned-up prefix leaves no trace.
func removeEmptyParents(r *os.Root, name string) {
	for dir := filepath.Dir(name); dir != "." && dir != string(filepath.Separator); dir = filepath.Dir(dir) {
		// Only a real, empty folder: a link in its place is not removed.
		if fi, err := r.Lstat(dir); err != nil || !fi.IsDir() || r.Remove(dir) != nil {
			break
		}
	}
}

// DeletePrefix implements providers.PrefixDeleter: the folder goes whole, with
// the temp files a killed writer left in it. Links inside it are removed, not
// followed; a link in its place or on the way to it is refused.
func (s *Storage) DeletePrefix(_ context.Context, prefix string) error {
	if !strings.HasSuffix(prefix, "/") {
		return fmt.Errorf("delete prefix %q: it must end with '/'", prefix)
	}
	p, err := s.name(strings.TrimSuffix(prefix, "/"))
	if err != nil {
		return err
	}
	r, err := s.open(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete %s: %w", s.full(p), err)
	}
	defer r.Close()
	if le := s.linkOut(r, p); le != nil {
		return fmt.Errorf("delete %s: %w", s.full(p), le)
	}
	if err := r.RemoveAll(p); err != nil {
		return s.fail(r, "delete", p, err)
	}
	if err := s.syncDir(r, filepath.Dir(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	removeEmptyParents(r, p)
	return nil
}

// List implements providers.Storage. A link out of the root met on the way is
// an error: the listing would otherwise describe files that are not the
// destination's. Links within the root are listed as the files they lead to.
func (s *Storage) List(ctx context.Context, prefix string, fn func(providers.ObjectInfo) error) error {
	// Walk the deepest directory the prefix names whole, then filter by prefix.
	dirKey := "."
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dirKey = path.Clean(prefix[:i])
	}
	if !fs.ValidPath(dirKey) || strings.ContainsRune(prefix, 0) {
		return fmt.Errorf("invalid prefix %q", prefix)
	}
	r, err := s.open(false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list %s: %w", path.Join(s.root, prefix), err)
	}
	defer r.Close()
	var infos []providers.ObjectInfo
	err = fs.WalkDir(r.FS(), dirKey, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				return nil
			}
			if le := s.linkOut(r, filepath.FromSlash(p)); le != nil {
				return le
			}
			return err
		}
		if d.IsDir() || strings.HasPrefix(d.Name(), tempPrefix) {
			return nil
		}
		key := p
		if !strings.HasPrefix(key, prefix) {
			return nil
		}
		var fi fs.FileInfo
		if d.Type()&fs.ModeSymlink != 0 {
			fi, err = r.Stat(filepath.FromSlash(p))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				if le := s.linkOut(r, filepath.FromSlash(p)); le != nil {
					return le
				}
				return err
			}
			if err != nil || !fi.Mode().IsRegular() {
				return nil // dangling, or a folder listed under its own path
			}
		} else if fi, err = d.Info(); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		infos = append(infos, providers.ObjectInfo{Key: key, Size: fi.Size(), ModTime: fi.ModTime()})
		return nil
	})
	if err != nil {
		return fmt.Errorf("list %s: %w", path.Join(s.root, prefix), err)
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Key < infos[j].Key })
	for _, info := range infos {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(info); err != nil {
			return err
		}
	}
	return nil
}

func version(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// mapErr maps a missing file, or a path through a file (ENOTDIR: "a/b" when
// "a" is an object), to providers.ErrNotExist.
func mapErr(op, p string, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return fmt.Errorf("%s %s: %w", op, p, providers.ErrNotExist)
	}
	return fmt.Errorf("%s %s: %w", op, p, err)
}

func syncAndClose(f *os.File) error {
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir makes a directory's new entries durable. Filesystems that cannot sync
// a directory (EINVAL) are tolerated.
func (s *Storage) syncDir(r *os.Root, dir string) error {
	d, err := r.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory %s: %w", s.full(dir), err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("sync directory %s: %w", s.full(dir), err)
	}
	return nil
}
