package state

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/streamctl/streamctl/providers"
)

// Docs is a set of named documents in a providers.Storage: the state, and
// the documents kept beside it. A document is read with its version and
// replaced only by compare-and-swap on that version, so that a writer that
// lost its lock cannot overwrite a newer one (fencing).
type Docs struct {
	store providers.Storage
}

// NewDocs returns the documents kept in store.
func NewDocs(store providers.Storage) *Docs { return &Docs{store: store} }

// Storage is the store the documents are kept in.
func (d *Docs) Storage() providers.Storage { return d.store }

// Read returns the document name and its version. It returns ErrNoState
// when there is none.
func (d *Docs) Read(ctx context.Context, name string) ([]byte, string, error) {
	data, info, err := providers.ReadAll(ctx, d.store, name)
	if errors.Is(err, providers.ErrNotExist) {
		return nil, "", ErrNoState
	}
	if err != nil {
		return nil, "", err
	}
	return data, info.Version, nil
}

// Version returns the version of the document name, or ErrNoState.
func (d *Docs) Version(ctx context.Context, name string) (string, error) {
	info, err := d.store.Stat(ctx, name)
	if errors.Is(err, providers.ErrNotExist) {
		return "", ErrNoState
	}
	return info.Version, err
}

// Write replaces the document name if its version is still version ("":
// only if there is none yet), first keeping the current one as
// "<name>.backup". It returns ErrConflict when another writer changed it in
// between.
func (d *Docs) Write(ctx context.Context, name string, data []byte, version string) (string, error) {
	if version == "" {
		v, err := d.store.PutIfAbsent(ctx, name, data)
		if errors.Is(err, providers.ErrExist) {
			return "", ErrConflict
		}
		return v, err
	}
	if err := d.keepBackup(ctx, name); err != nil {
		return "", fmt.Errorf("keep backup: %w", err)
	}
	v, err := d.store.PutIfMatch(ctx, name, data, version)
	if errors.Is(err, providers.ErrPrecondition) || errors.Is(err, providers.ErrNotExist) {
		return "", ErrConflict
	}
	return v, err
}

// keepBackup makes the document also "<name>.backup": a link where the store
// has them (the bytes are already durable, so nothing is rewritten), a
// server-side copy otherwise.
func (d *Docs) keepBackup(ctx context.Context, name string) error {
	var err error
	if l := d.store.Features().Linker; l != nil {
		err = l.Link(ctx, name, name+".backup")
	} else {
		err = d.store.Copy(ctx, name, name+".backup")
	}
	if errors.Is(err, providers.ErrNotExist) {
		return nil
	}
	return err
}

// Create writes a document that is written once and never replaced. A
// document already there with the same bytes is this write, done before (a
// retry after a crash or a lost answer).
func (d *Docs) Create(ctx context.Context, name string, data []byte) error {
	_, err := d.store.PutIfAbsent(ctx, name, data)
	if !errors.Is(err, providers.ErrExist) {
		return err
	}
	cur, _, rerr := providers.ReadAll(ctx, d.store, name)
	if rerr != nil {
		return fmt.Errorf("%w; reading it failed: %v", err, rerr)
	}
	if !bytes.Equal(cur, data) {
		return fmt.Errorf("%s/%s exists with other content", d.store.Describe(), name)
	}
	return nil
}

// Delete removes the document name; a missing one is not an error.
func (d *Docs) Delete(ctx context.Context, name string) error {
	return d.store.Delete(ctx, name)
}
