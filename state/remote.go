package state

import (
	"context"
	"fmt"

	"github.com/streamctl/streamctl/providers"
)

// RemoteBackend keeps the state in an object store (S3, Azure Blob): a root
// document and one document per sink (ShardedVersion), with a LeaseLock
// beside the root and one beside each sink's document. Writes are compare-and-swap on the
// object's version, so a writer that lost its lock cannot overwrite a newer
// state (fencing).
type RemoteBackend struct {
	docs *Docs
	key  string
	*LeaseLock
}

var _ ShardedBackend = (*RemoteBackend)(nil)

// NewRemote returns the backend for the state object key in store.
func NewRemote(store providers.Storage, key string) *RemoteBackend {
	return &RemoteBackend{docs: NewDocs(store), key: key, LeaseLock: NewLeaseLock(store, key)}
}

// Describe implements Backend.
func (b *RemoteBackend) Describe() string { return b.where }

// Documents implements DocBackend.
func (b *RemoteBackend) Documents() (*Docs, string) { return b.docs, b.key }

// Read implements Backend.
func (b *RemoteBackend) Read(ctx context.Context) ([]byte, string, error) {
	return b.docs.Read(ctx, b.key)
}

// Write implements Backend. The previous state is copied to "<key>.backup" first.
func (b *RemoteBackend) Write(ctx context.Context, data []byte, version string) (string, error) {
	return b.docs.Write(ctx, b.key, data, version)
}

// SinkLock implements ShardedBackend: the lease lock
// "<key>.d/sinks/<sink>.lock" of the sink's document.
func (b *RemoteBackend) SinkLock(name string) Locker {
	key := sinkLockKey(b.key, name)
	return b.LeaseLock.sibling(key, fmt.Sprintf("%s (sink %q)", b.where, name))
}

// RootLock implements ShardedBackend.
func (b *RemoteBackend) RootLock() *LeaseLock { return b.LeaseLock }
