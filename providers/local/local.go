// Package local implements providers.Storage on a local or mounted filesystem.
// Writes are durable (fsync of file and directory) and appear atomically (a temp
// file beside the target, then rename).
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

// Storage is a directory tree used as an object store.
type Storage struct {
	root string
}

var (
	_ providers.Storage       = (*Storage)(nil)
	_ providers.Renamer       = (*Storage)(nil)
	_ providers.PrefixDeleter = (*Storage)(nil)
)

// New returns the storage rooted at dir. The directory is created on first write.
func New(dir string) *Storage {
	return &Storage{root: filepath.Clean(dir)}
}

// Describe implements providers.Storage.
func (s *Storage) Describe() string { return s.root }

// Root is the directory the storage is rooted at.
func (s *Storage) Root() string { return s.root }

// path maps a key to a file path, refusing keys that would leave the root.
func (s *Storage) path(key string) (string, error) {
	if key == "" || strings.HasPrefix(key, "/") || strings.ContainsRune(key, 0) {
		return "", fmt.Errorf("invalid key %q", key)
	}
	for _, part := range strings.Split(key, "/") {
		if part == "" || part == "." || part == ".." {
			return "", fmt.Errorf("invalid key %q", key)
		}
	}
	return filepath.Join(s.root, filepath.FromSlash(key)), nil
}

// Create implements providers.Storage.
func (s *Storage) Create(_ context.Context, key string) (providers.ObjectWriter, error) {
	target, err := s.path(key)
	if err != nil {
		return nil, err
	}
	f, err := s.tempFile(target)
	if err != nil {
		return nil, err
	}
	return &writer{f: f, target: target}, nil
}

// tempFile creates a temporary file in target's directory, creating the
// directory if needed. A concurrent Delete removes directories it leaves empty,
// possibly between the mkdir and the create: then it tries again.
func (s *Storage) tempFile(target string) (*os.File, error) {
	dir := filepath.Dir(target)
	for attempt := 1; ; attempt++ {
		err := s.mkdirAll(dir)
		if err == nil {
			var f *os.File
			if f, err = createTemp(dir); err == nil {
				return f, nil
			}
			err = fmt.Errorf("create %s: %w", target, err)
		}
		if !errors.Is(err, fs.ErrNotExist) || attempt == maxDirRaces {
			return nil, err
		}
	}
}

// createTemp creates a new temp file in dir. Unlike os.CreateTemp (always
// 0600) it asks for 0666, so that the renamed file gets the mode the umask
// gives shared data (0644 under 022), as files of other tools do.
func createTemp(dir string) (*os.File, error) {
	for attempt := 1; ; attempt++ {
		name := filepath.Join(dir, tempPrefix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) && attempt < 100 {
			continue // a name another writer took: draw again
		}
		return f, err
	}
}

// maxDirRaces bounds the retries of an operation whose directory a concurrent
// Delete removed: each retry means another goroutine made progress.
const maxDirRaces = 100

// mkdirAll creates dir and its missing parents, syncing each parent so that the
// new entries survive a crash.
func (s *Storage) mkdirAll(dir string) error {
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		return nil
	}
	parent := filepath.Dir(dir)
	if parent != dir {
		if err := s.mkdirAll(parent); err != nil {
			return err
		}
	}
	// 0777: the umask decides, as for mkdir(1) (0755 under 022).
	if err := os.Mkdir(dir, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create directory %s: %w", dir, err)
	}
	return syncDir(parent)
}

type writer struct {
	f      *os.File
	target string
	done   bool
	err    error // the first failed Write: Commit must not publish a short file
}

func (w *writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.f.Write(p)
	if err != nil {
		w.err = fmt.Errorf("write %s: %w", w.target, err)
		return n, w.err
	}
	return n, nil
}

func (w *writer) Commit() error {
	if w.done {
		return errors.New("commit of a finished object")
	}
	w.done = true
	tmp := w.f.Name()
	if w.err != nil {
		w.f.Close()
		os.Remove(tmp)
		return w.err
	}
	if err := syncAndClose(w.f); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", w.target, err)
	}
	if err := os.Rename(tmp, w.target); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", w.target, err)
	}
	return syncDir(filepath.Dir(w.target))
}

func (w *writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.f.Close()
	return os.Remove(w.f.Name())
}

// PutIfAbsent implements providers.Storage with link(2), which fails atomically
// when the target exists, so the object appears whole or not at all.
func (s *Storage) PutIfAbsent(_ context.Context, key string, data []byte) (string, error) {
	target, err := s.path(key)
	if err != nil {
		return "", err
	}
	tmp, err := s.writeTemp(target, data)
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, target); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("create %s: %w", target, providers.ErrExist)
		}
		return "", fmt.Errorf("create %s: %w", target, err)
	}
	if err := syncDir(filepath.Dir(target)); err != nil {
		return "", err
	}
	return version(data), nil
}

// PutIfMatch implements providers.Storage. The check and the rename happen under
// an exclusive flock on a sibling lock file, so racing processes serialize.
func (s *Storage) PutIfMatch(_ context.Context, key string, data []byte, want string) (string, error) {
	target, err := s.path(key)
	if err != nil {
		return "", err
	}
	// No mkdir: a missing directory means a missing object, and the lock file
	// keeps the directory from being removed while it is held.
	lockPath := filepath.Join(filepath.Dir(target), tempPrefix+filepath.Base(target)+".cas")
	lf, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return "", mapErr("replace", target, err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("replace %s: lock: %w", target, err)
	}
	current, err := os.ReadFile(target)
	if errors.Is(err, syscall.EISDIR) {
		err = fs.ErrNotExist
	}
	if err != nil {
		return "", mapErr("replace", target, err)
	}
	if version(current) != want {
		return "", fmt.Errorf("replace %s: %w", target, providers.ErrPrecondition)
	}
	tmp, err := s.writeTemp(target, data)
	if err != nil {
		return "", err
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("replace %s: %w", target, err)
	}
	if err := syncDir(filepath.Dir(target)); err != nil {
		return "", err
	}
	return version(data), nil
}

func (s *Storage) writeTemp(target string, data []byte) (string, error) {
	f, err := s.tempFile(target)
	if err != nil {
		return "", err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	if err := syncAndClose(f); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	return f.Name(), nil
}

// Get implements providers.Storage. The version of a local object is a hash of
// its content, so Get reads small objects whole to compute it; large ones report
// no version.
func (s *Storage) Get(_ context.Context, key string) (io.ReadCloser, providers.ObjectInfo, error) {
	p, err := s.path(key)
	if err != nil {
		return nil, providers.ObjectInfo{}, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, providers.ObjectInfo{}, mapErr("read", p, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, providers.ObjectInfo{}, mapErr("read", p, err)
	}
	if !fi.Mode().IsRegular() {
		// A directory holds other keys; it is not an object itself.
		f.Close()
		return nil, providers.ObjectInfo{}, fmt.Errorf("read %s: %w", p, providers.ErrNotExist)
	}
	info := providers.ObjectInfo{Key: key, Size: fi.Size(), ModTime: fi.ModTime()}
	if fi.Size() <= versionedSize {
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, info, fmt.Errorf("read %s: %w", p, err)
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
	sp, err := s.path(src)
	if err != nil {
		return err
	}
	in, err := os.Open(sp)
	if err != nil {
		return mapErr("copy", sp, err)
	}
	defer in.Close()
	if fi, err := in.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("copy %s: %w", sp, providers.ErrNotExist)
	}
	w, err := s.Create(ctx, dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, in); err != nil {
		w.Abort()
		return fmt.Errorf("copy %s: %w", sp, err)
	}
	return w.Commit()
}

// Rename implements providers.Renamer.
func (s *Storage) Rename(_ context.Context, src, dst string) error {
	sp, err := s.path(src)
	if err != nil {
		return err
	}
	dp, err := s.path(dst)
	if err != nil {
		return err
	}
	if fi, err := os.Lstat(sp); err != nil || !fi.Mode().IsRegular() {
		// A directory holds other keys; renaming it would move them all.
		if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return fmt.Errorf("rename %s: %w", sp, providers.ErrNotExist)
		}
		return fmt.Errorf("rename %s: %w", sp, err)
	}
	for attempt := 1; ; attempt++ {
		err := s.mkdirAll(filepath.Dir(dp))
		if err == nil {
			if err = os.Rename(sp, dp); err == nil {
				break
			}
		}
		// ENOENT: src is missing, or a concurrent Delete removed dst's
		// directory after the mkdir.
		if !errors.Is(err, fs.ErrNotExist) {
			return mapErr("rename", sp, err)
		}
		if fi, serr := os.Lstat(sp); serr != nil || !fi.Mode().IsRegular() || attempt == maxDirRaces {
			return fmt.Errorf("rename %s: %w", sp, providers.ErrNotExist)
		}
	}
	if err := syncDir(filepath.Dir(dp)); err != nil {
		return err
	}
	if filepath.Dir(sp) != filepath.Dir(dp) {
		if err := syncDir(filepath.Dir(sp)); err != nil {
			return err
		}
		s.removeEmptyParents(sp)
	}
	return nil
}

// Delete implements providers.Storage. Directories it leaves empty are removed.
func (s *Storage) Delete(_ context.Context, key string) error {
	p, err := s.path(key)
	if err != nil {
		return err
	}
	if fi, err := os.Lstat(p); err != nil || fi.IsDir() {
		// Missing, or a directory holding other keys: no object to delete.
		if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil
		}
		return fmt.Errorf("delete %s: %w", p, err)
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete %s: %w", p, err)
	}
	s.removeEmptyParents(p)
	return nil
}

// removeEmptyParents removes the directories above p that are left empty, up to
// the root, so that a cleaned-up prefix leaves no trace.
func (s *Storage) removeEmptyParents(p string) {
	for dir := filepath.Dir(p); dir != s.root && strings.HasPrefix(dir, s.root+string(filepath.Separator)); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			break
		}
	}
}

// DeletePrefix implements providers.PrefixDeleter: the folder goes whole, with
// the temp files a killed writer left in it.
func (s *Storage) DeletePrefix(_ context.Context, prefix string) error {
	if !strings.HasSuffix(prefix, "/") {
		return fmt.Errorf("delete prefix %q: it must end with '/'", prefix)
	}
	p, err := s.path(strings.TrimSuffix(prefix, "/"))
	if err != nil {
		return err
	}
	if err := os.RemoveAll(p); err != nil {
		return fmt.Errorf("delete %s: %w", p, err)
	}
	if err := syncDir(filepath.Dir(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	s.removeEmptyParents(p)
	return nil
}

// List implements providers.Storage.
func (s *Storage) List(ctx context.Context, prefix string, fn func(providers.ObjectInfo) error) error {
	// Walk the deepest directory the prefix names whole, then filter by prefix.
	dirKey := ""
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dirKey = prefix[:i]
	}
	if strings.Contains("/"+dirKey+"/", "/../") {
		return fmt.Errorf("invalid prefix %q", prefix)
	}
	start := filepath.Join(s.root, filepath.FromSlash(dirKey))
	var infos []providers.ObjectInfo
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() || strings.HasPrefix(d.Name(), tempPrefix) {
			return nil
		}
		rel, err := filepath.Rel(s.root, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if !strings.HasPrefix(key, prefix) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
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
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("sync directory %s: %w", dir, err)
	}
	return nil
}
