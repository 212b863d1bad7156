// Package providers defines the two contracts every provider implements: Storage,
// the small object-store interface the commit protocol and the state backends run
// over, and Source, a replayable input. Providers hold no protocol logic; the
// protocol lives once, in internal/engine.
//
// Adding a store: implement Storage, pass the conformance suite in
// providers/storagetest, and declare in Features the optional capabilities
// the store has (each an interface of this package, implemented by the store
// itself) and what it says of itself (ConditionalWritesUnchecked). A store
// with a new kind of capability adds an interface here and a field to
// Features; it sets the field, every wrapper (providers/faulty,
// providers/logged) passes it through, wrapping its calls, and the engine
// or the state reads the field to choose its path (storagetest.Wrapper
// fails until every wrapper wraps it). Nothing asserts a Storage's type.
package providers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Sentinel errors every Storage maps its backend's errors into, so that the engine
// and the state backends can decide without knowing the backend.
var (
	// ErrNotExist: the object does not exist.
	ErrNotExist = errors.New("object does not exist")
	// ErrExist: a create-only write found an object already there.
	ErrExist = errors.New("object already exists")
	// ErrPrecondition: a conditional write found a different version than expected.
	ErrPrecondition = errors.New("object changed since it was read")
)

// ObjectInfo describes one stored object.
type ObjectInfo struct {
	Key     string // relative to the storage's root, '/'-separated
	Size    int64
	Version string // an opaque version tag (ETag, or a content hash for local files)
	ModTime time.Time
}

// Storage is an object store rooted at a destination's prefix. Keys are relative,
// '/'-separated and never start with '/'. Every method is safe for concurrent use.
type Storage interface {
	// Describe names the storage for messages, e.g. "s3://bucket/prefix".
	Describe() string

	// Create returns a writer for the object at key. The object appears atomically
	// on Commit, replacing any object at key, and never partially: after Abort, a
	// failed Commit or a crash, the key holds what it held before. Memory stays
	// bounded whatever is written.
	Create(ctx context.Context, key string) (ObjectWriter, error)

	// PutIfAbsent writes data at key only if no object exists there. It returns
	// ErrExist (possibly wrapped) when one does; exactly one of racing writers wins.
	// It returns the new object's version.
	//
	// A conditional write whose answer was lost after the store applied it is
	// retried by the client and fails its condition against the object it has
	// just written. The rule, for PutIfAbsent and PutIfMatch alike: a write
	// whose condition failed while the object holds exactly data has
	// succeeded. Implementations apply it with SettleCondition. Writers make
	// their bytes unique (a lock's ID, a state's serial), so that equal bytes
	// mean their own write.
	PutIfAbsent(ctx context.Context, key string, data []byte) (version string, err error)

	// PutIfMatch replaces the object at key only if its current version is
	// version. It returns ErrPrecondition when the object changed and ErrNotExist
	// when it is missing. It returns the new object's version. A lost answer is
	// settled as for PutIfAbsent.
	PutIfMatch(ctx context.Context, key string, data []byte, version string) (newVersion string, err error)

	// Get opens the object at key. It returns ErrNotExist when it is missing.
	// Reading the body survives a dropped connection: it resumes where it
	// stopped while the object is unchanged, and fails otherwise.
	Get(ctx context.Context, key string) (io.ReadCloser, ObjectInfo, error)

	// Stat describes the object at key. It returns ErrNotExist when it is missing.
	Stat(ctx context.Context, key string) (ObjectInfo, error)

	// Copy copies src to dst server-side, replacing dst atomically. It returns
	// ErrNotExist when src is missing.
	Copy(ctx context.Context, src, dst string) error

	// Delete removes the object at key. Deleting a missing object is not an error.
	Delete(ctx context.Context, key string) error

	// DeleteIfMatch removes the object at key only if its current version is
	// version (If-Match on DELETE), so that the holder of a lock removes its
	// own lock and never one another holder wrote meanwhile. It returns
	// ErrPrecondition when the object changed. A missing object is not an
	// error: the retry of a delete whose answer was lost finds it gone. A
	// store that cannot delete conditionally returns errors.ErrUnsupported
	// (wrapped), for the caller to choose another way.
	DeleteIfMatch(ctx context.Context, key, version string) error

	// List calls fn for every object whose key starts with prefix, in
	// lexicographic key order. A prefix with no objects is not an error.
	List(ctx context.Context, prefix string, fn func(ObjectInfo) error) error

	// Features lists what the store can do beyond this interface. A
	// wrapper returns the Features of what it wraps, with each capability
	// whose calls it intercepts wrapped in turn, so that a wrapped store
	// takes the same paths as the bare one.
	Features() Features
}

// Features is the capability record of a Storage: each optional capability
// it has, nil where it has none, and what it declares of itself. The engine and the state choose their way
// by it (rename or copy, staged uploads or _temporary/<N>/, ...), never by
// asserting the Storage's type, which a wrapper would hide.
type Features struct {
	ScratchCreator ScratchCreator
	Renamer        Renamer
	Linker         Linker
	PrefixDeleter  PrefixDeleter
	Stager         Stager
	// StagedLister is set only with Stager.
	StagedLister StagedLister
	// ConditionalWritesUnchecked: the store is trusted to honour
	// conditional writes without ProbeConditionalWrites, as its block says
	// (skip_conditional_write_check = true).
	ConditionalWritesUnchecked bool
}

// CheckKey refuses what is not a key: empty, absolute, holding a NUL, or with
// an empty, "." or ".." segment. Every Storage checks keys with it, so that a
// key one store takes, every store takes, and none leaves its root.
func CheckKey(key string) error {
	reason := ""
	switch {
	case key == "":
		reason = "empty"
	case strings.HasPrefix(key, "/"):
		reason = "not relative"
	case strings.ContainsRune(key, 0):
		reason = "holds a NUL byte"
	default:
		for part := range strings.SplitSeq(key, "/") {
			if part == "" || part == "." || part == ".." {
				reason = `an empty, "." or ".." segment`
				break
			}
		}
	}
	if reason != "" {
		return fmt.Errorf("invalid key %q: %s", key, reason)
	}
	return nil
}

// ObjectWriter streams one object into a Storage. See Storage.Create.
type ObjectWriter interface {
	io.Writer
	// Commit makes the object visible, durably. It may be called once.
	Commit() error
	// Abort discards what was written. It is safe after Commit (then it does nothing).
	Abort() error
}

// ScratchCreator is the optional capability of a Storage that can write an
// object whose name need not survive a crash: Commit makes its bytes durable
// and the object visible, but not its name (nor the folders created for it),
// which a later Rename makes durable at the new name. The engine stages with
// it where it promotes by rename: a staged file a crash loses is written again,
// so its name is not worth the folder syncs that make it durable.
type ScratchCreator interface {
	CreateScratch(ctx context.Context, key string) (ObjectWriter, error)
}

// Linker is the optional capability of a Storage that can give an object a
// second name without rewriting it (a local folder, with a hard link). The
// state keeps its backup copy this way where it can.
type Linker interface {
	// Link makes dst a second name of the object at src, replacing dst;
	// both are in one folder. It returns ErrNotExist when src is missing.
	Link(ctx context.Context, src, dst string) error
}

// Renamer is the optional capability of a Storage with an atomic rename (a local
// filesystem). Without it the engine promotes a file by Copy then Delete.
type Renamer interface {
	// Rename moves src to dst atomically and durably, replacing dst. It returns
	// ErrNotExist when src is missing.
	Rename(ctx context.Context, src, dst string) error
}

// Stager is the optional capability of an object store that uploads an object
// under its final key and publishes it later with one request that moves no
// data: S3 completes a multipart upload, Azure commits a block list. The engine
// stages batches this way instead of writing under _temporary/<N>/ and copying
// into place, so that every byte crosses the network once.
//
// A staged upload is invisible to every reader (Get, Stat, List) until it is
// published, and publishing replaces the object at its key atomically.
type Stager interface {
	// Stage returns a writer for key. Its Finish uploads every byte and returns
	// the staged upload; key holds what it held before until Publish.
	Stage(ctx context.Context, key string, opt StageOptions) (StagedWriter, error)
}

// StageOptions shape one staged upload.
type StageOptions struct {
	// Hold, when not nil, keeps the upload off the store until it is closed:
	// the writer buffers locally, begins nothing and sends nothing, and Finish
	// waits for Hold (or the context) before it sends what Publish will not
	// carry in one request. The engine stages the next batch while the batch
	// before it commits, before the next batch's intent is logged: nothing of
	// a batch may reach a destination before then.
	Hold <-chan struct{}
}

// Wait returns once Hold is open, or with ctx's error.
func (o StageOptions) Wait(ctx context.Context) error {
	if o.Hold == nil {
		return nil
	}
	select {
	case <-o.Hold:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// StagedLister is the capability of a Stager whose staged uploads outlive a
// crash as stored (and billed) bytes until they are discarded: S3's multipart
// uploads. The engine lists them as it lists _temporary/<N>/, and discards a
// batch's before redoing it.
type StagedLister interface {
	// ListStaged calls fn for every upload staged under prefix that was
	// neither published nor discarded: a crashed run's leftovers.
	ListStaged(ctx context.Context, prefix string, fn func(StagedUpload) error) error
	// Discard removes a staged upload and the bytes the store keeps for it.
	// The object at its key is untouched. Discarding an upload that is gone
	// is not an error.
	Discard(ctx context.Context, u StagedUpload) error
}

// StagedUpload names an upload staged and not published.
type StagedUpload struct {
	Key     string // the key it publishes to, relative to the storage's root
	ID      string // the store's name for the upload (an S3 upload ID)
	Started time.Time
}

// StagedWriter streams one staged object. See Stager.Stage.
type StagedWriter interface {
	io.Writer
	// Finish uploads what is left and returns the upload, still invisible.
	// It may be called once.
	Finish() (Staged, error)
	// Abort stops the upload and discards what was staged. It is safe after
	// Finish (then it does nothing: the upload is the caller's).
	Abort() error
}

// Staged is an upload whose bytes are all staged and which nobody sees yet.
// A small object may be staged locally (in a spill buffer) and sent with one
// plain write on Publish: one request instead of three, and nothing left on
// the store by a crash.
type Staged interface {
	Upload() StagedUpload
	// Publish makes the object visible at its key, replacing what is there,
	// atomically, sending no byte twice. A publish whose answer was lost
	// after the store applied it has succeeded (see SettleCondition).
	Publish(ctx context.Context) error
	// Release frees what the upload holds locally when it will not be
	// published. It does nothing after Publish.
	Release()
}

// PrefixDeleter is the optional capability of a Storage that can remove a
// whole prefix at once, including partial writes it keeps there (a local
// folder with the temp files of a killed writer). Without it the engine lists
// and deletes object by object.
type PrefixDeleter interface {
	// DeletePrefix removes everything under prefix, which ends with '/'.
	// A missing prefix is not an error.
	DeletePrefix(ctx context.Context, prefix string) error
}

// Put writes data at key through Create, replacing any object there.
func Put(ctx context.Context, s Storage, key string, data []byte) error {
	w, err := s.Create(ctx, key)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		_ = w.Abort()
		return err
	}
	if err := w.Commit(); err != nil {
		_ = w.Abort()
		return err
	}
	return nil
}

// ReadAll reads the whole object at key.
func ReadAll(ctx context.Context, s Storage, key string) ([]byte, ObjectInfo, error) {
	r, info, err := s.Get(ctx, key)
	if err != nil {
		return nil, info, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	return data, info, err
}

// SettleCondition resolves a conditional write (PutIfAbsent, PutIfMatch) that
// failed its condition with failed, by the rule of the Storage contract: when
// the object at key holds exactly data, the write succeeded — its answer was
// lost after the store applied it, and the client's retry met it — and its
// version is returned. Otherwise failed is returned.
func SettleCondition(ctx context.Context, s Storage, key string, data []byte, failed error) (string, error) {
	info, err := s.Stat(ctx, key)
	if err != nil || info.Size != int64(len(data)) {
		return "", failed
	}
	r, info, err := s.Get(ctx, key)
	if err != nil {
		return "", failed
	}
	defer r.Close()
	got, err := io.ReadAll(io.LimitReader(r, int64(len(data))+1))
	if err != nil || !bytes.Equal(got, data) {
		return "", failed
	}
	return info.Version, nil
}
