package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
)

// A destination belongs to one destination of one sink of one state. The
// owner record "_streamctl/owner.json" says which, and is written create-only
// before the first batch stages anything there. Data file names carry only the
// batch number, so two owners of one folder (a renamed sink, a copied
// configuration with its own state) would overwrite each other's committed
// files; the record turns that into a refusal before anything is written.

// OwnerVersion is the format version of owner records.
const OwnerVersion = 1

// OwnerKey is where a destination's owner record lives.
const OwnerKey = MetadataDir + "/owner.json"

// Owner is the owner record of a destination.
type Owner struct {
	FormatVersion int       `json:"format_version"`
	Lineage       string    `json:"lineage"`
	Sink          string    `json:"sink"`
	Destination   string    `json:"destination"`
	State         string    `json:"state"` // where the owning state lives, for messages
	Claimed       time.Time `json:"claimed"`
	Version       string    `json:"streamctl_version"`
}

func (o *Owner) identity() planner.Owner {
	return planner.Owner{Lineage: o.Lineage, Sink: o.Sink, Destination: o.Destination, State: o.State}
}

func encodeOwner(o *Owner) []byte {
	data, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("encode owner: %v", err))
	}
	return append(data, '\n')
}

// readOwner returns a destination's owner record and its version, or nil when
// it has none.
func readOwner(ctx context.Context, s providers.Storage) (*Owner, string, error) {
	data, info, err := providers.ReadAll(ctx, s, OwnerKey)
	if errors.Is(err, providers.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", OwnerKey, err)
	}
	var o Owner
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, "", fmt.Errorf("read %s: it is not an owner record (%v); restore it from the state that owns this destination", OwnerKey, err)
	}
	if o.FormatVersion < 1 || o.FormatVersion > OwnerVersion {
		return nil, "", fmt.Errorf("read %s: unsupported format version %d (written by a newer streamctl?)", OwnerKey, o.FormatVersion)
	}
	if o.Lineage == "" || o.Sink == "" || o.Destination == "" {
		return nil, "", fmt.Errorf("read %s: it names no lineage, sink or destination; restore it from the state that owns this destination", OwnerKey)
	}
	return &o, info.Version, nil
}

// foreignSinks lists the sinks other than ours whose manifests a destination
// without an owner record holds: it was written before owner records existed,
// by them. It stops at the first one found.
func foreignSinks(ctx context.Context, s providers.Storage, ours ...string) ([]string, error) {
	var found []string
	stop := errors.New("found")
	err := s.List(ctx, MetadataDir+"/", func(info providers.ObjectInfo) error {
		rest := info.Key[len(MetadataDir)+1:]
		name, file, ok := strings.Cut(rest, "/")
		if !ok || slices.Contains(ours, name) {
			return nil
		}
		if _, ok := parseBatchKey(file, true); ok || strings.HasPrefix(file, "index-") {
			found = append(found, name)
			return stop
		}
		return nil
	})
	if errors.Is(err, stop) {
		err = nil
	}
	return found, err
}

// Ownership is who the engine writes as: the state's lineage and where it lives.
type Ownership struct {
	Lineage string
	State   string
}

// ErrNotOwner is a destination that belongs to another sink or state.
type ErrNotOwner struct {
	Destination string
	Location    string
	Owner       planner.Owner
	Want        planner.Owner
}

func (e *ErrNotOwner) Error() string {
	return planner.OwnerConflict(e.Want, e.Owner, e.Location)
}

// claim makes sure a destination is owned by want, writing the owner record
// when there is none. It never replaces another owner's record.
func claim(ctx context.Context, d *Destination, sinkName string, want planner.Owner, version string, now time.Time) error {
	o, _, err := readOwner(ctx, d.Storage)
	if err != nil {
		return err
	}
	if o == nil {
		others, err := foreignSinks(ctx, d.Storage, sinkName)
		if err != nil {
			return fmt.Errorf("list %s/: %w", MetadataDir, err)
		}
		if len(others) > 0 {
			return &ErrNotOwner{Destination: d.Name, Location: d.Storage.Describe(), Owner: planner.Owner{Sink: others[0]}, Want: want}
		}
		rec := &Owner{FormatVersion: OwnerVersion, Lineage: want.Lineage, Sink: want.Sink, Destination: want.Destination, State: want.State, Claimed: now.UTC(), Version: version}
		_, err = d.Storage.PutIfAbsent(ctx, OwnerKey, encodeOwner(rec))
		if err == nil {
			return nil
		}
		if !errors.Is(err, providers.ErrExist) {
			return fmt.Errorf("write %s: %w", OwnerKey, err)
		}
		// Another writer claimed it first: it is ours only if it was us.
		if o, _, err = readOwner(ctx, d.Storage); err != nil {
			return err
		}
		if o == nil {
			return fmt.Errorf("write %s: it was created and removed meanwhile by another writer; stop every other streamctl on this destination and retry", OwnerKey)
		}
	}
	if !planner.SameOwner(o.identity(), want) {
		return &ErrNotOwner{Destination: d.Name, Location: d.Storage.Describe(), Owner: o.identity(), Want: want}
	}
	return nil
}

// checkOwner refuses to touch a destination whose owner is no longer want:
// someone replaced or removed the record since the apply claimed it.
func checkOwner(ctx context.Context, d *Destination, want planner.Owner) error {
	o, _, err := readOwner(ctx, d.Storage)
	if err != nil {
		return err
	}
	if o == nil {
		return fmt.Errorf("its owner record %s was removed during the apply; nothing more is written there. Run streamctl plan to see who owns it", OwnerKey)
	}
	if !planner.SameOwner(o.identity(), want) {
		return &ErrNotOwner{Destination: d.Name, Location: d.Storage.Describe(), Owner: o.identity(), Want: want}
	}
	return nil
}

// LeftoverManifests lists the destinations of sink, owned by it, that still
// hold manifests under _streamctl/<of>/: those of a sink whose move to this
// one was interrupted and which this one then adopted.
func LeftoverManifests(ctx context.Context, sink *Sink, lineage, of string) ([]string, error) {
	var found []string
	stop := errors.New("found")
	for _, d := range sink.Destinations {
		o, _, err := readOwner(ctx, d.Storage)
		if err != nil {
			return nil, fmt.Errorf("destination %s: %w", d.Name, err)
		}
		if o == nil || o.Lineage != lineage || o.Sink != sink.declaredName() {
			continue
		}
		prefix := MetadataDir + "/" + of + "/"
		err = d.Storage.List(ctx, prefix, func(info providers.ObjectInfo) error {
			if _, ok := parseBatchKey(info.Key[len(prefix):], true); ok {
				return stop
			}
			return nil
		})
		switch {
		case errors.Is(err, stop):
			found = append(found, d.Name)
		case err != nil:
			return nil, fmt.Errorf("destination %s: list %s: %w", d.Name, prefix, err)
		}
	}
	return found, nil
}

// interruptedMoveError explains a refusal to claim a destination that a
// move killed before its state commit switched to another name: the plan
// undoes that move, but only when it read the owner records.
func (e *Engine) interruptedMoveError(sink *Sink, err error) error {
	var no *ErrNotOwner
	if sink.Shard != nil || !errors.As(err, &no) || no.Owner.Lineage != no.Want.Lineage || no.Owner.Sink == no.Want.Sink {
		return err
	}
	s := e.State.State()
	if s.Sinks[no.Owner.Sink] != nil || s.Sinks[no.Want.Sink] == nil {
		return err
	}
	return fmt.Errorf("destination %q (%s) was switched to sink %q by a move of sink %q to %q that was killed before the state was renamed. Run apply without -refresh=false: its plan reads the owner records and undoes the move. Or declare the move again to finish it",
		no.Destination, no.Location, no.Owner.Sink, no.Want.Sink, no.Owner.Sink)
}
