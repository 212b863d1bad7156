package engine

import (
	"strconv"

	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/planner"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/state"
)

// Destination is one place a sink writes to.
type Destination struct {
	Name    string
	Storage providers.Storage
	// Table, when set, is the table each batch is also committed to, as one
	// snapshot: what engines that read the table (and not the manifests) see.
	Table Table
}

// Sink is a sink ready to run: its source, destinations and output layout.
//
// A sink is known by two names, each for one thing:
//
//   - Name is its checkpoint's: the key of its checkpoint in the state and
//     the folder of its manifests (_streamctl/<Name>/). For a shard of a
//     sharded sink it is the shard's ("orders/shard-3").
//   - declaredName is the sink's in the configuration: the sharded sink's
//     ("orders") for each of its shards, whose destinations it owns.
//
// While a move is pending (Observe only: apply moves the sink first), both
// are still stored under MovedFrom; storedName and ownerName are the two
// names as the state and the destinations hold them at that moment.
type Sink struct {
	Name         string
	SourceType   string
	SourceName   string
	Source       providers.Source
	Destinations []Destination // in config order
	Layout       pipeline.Layout
	// LayoutHash identifies the output settings; see state.Batch.Layout.
	LayoutHash string
	// LayoutSettings are the settings LayoutHash covers, by attribute
	// name (config.Layout.Settings): the state keeps them beside it.
	LayoutSettings map[string]string
	History        int
	// MovedFrom is the sink's former name while a moved block's rename is
	// pending: until apply moves them, its manifests are under that name.
	// It is never set on a shard: a moved block renames a whole sink.
	MovedFrom string
	// Shard is set on a shard of a sharded sink: see Name and declaredName.
	Shard *planner.Shard
	// Maintenance is when its folder destinations are compacted; nil: never.
	Maintenance *CompactionPolicy
}

// declaredName is the sink's name in the configuration: the sharded sink's
// for one of its shards.
func (s *Sink) declaredName() string {
	if s.Shard != nil {
		return s.Shard.Sink
	}
	return s.Name
}

// storedName is Name as the destinations hold it now: the former name while
// a move is pending.
func (s *Sink) storedName() string {
	if s.MovedFrom != "" {
		return s.MovedFrom
	}
	return s.Name
}

// ownerName is declaredName as the destinations' owner records hold it now:
// the former name while a move is pending.
func (s *Sink) ownerName() string {
	if s.Shard != nil {
		return s.declaredName()
	}
	return s.storedName()
}

// fileShard is what the names of the shard's files start with ("s3"); ""
// for a sink not sharded.
func (s *Sink) fileShard() string {
	if s.Shard == nil {
		return ""
	}
	return "s" + strconv.Itoa(s.Shard.Index)
}

// temporaryPrefix is where the sink stages batch: each shard under its own
// folder of _temporary/, as shards number their batches on their own.
func (s *Sink) temporaryPrefix(batch int64) string {
	if s.Shard == nil {
		return TemporaryPrefix(batch)
	}
	return TemporaryDir + "/" + s.shardDir() + "/" + strconv.FormatInt(batch, 10) + "/"
}

// temporaryRoot is the folder the sink's temporaries are listed under.
func (s *Sink) temporaryRoot() string {
	if s.Shard == nil {
		return TemporaryDir + "/"
	}
	return TemporaryDir + "/" + s.shardDir() + "/"
}

// stateShard is what the sink's checkpoint records of its shard.
func (s *Sink) stateShard() *state.Shard {
	if s.Shard == nil {
		return nil
	}
	sh := *s.Shard
	return &sh
}

func (s *Sink) shardDir() string { return "shard-" + strconv.Itoa(s.Shard.Index) }

func (s *Sink) destination(name string) *Destination {
	for i := range s.Destinations {
		if s.Destinations[i].Name == name {
			return &s.Destinations[i]
		}
	}
	return nil
}
