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
type Sink struct {
	Name         string
	SourceType   string
	SourceName   string
	Source       providers.Source
	Destinations []Destination // in config order
	Layout       pipeline.Layout
	// LayoutHash identifies the output settings; see state.Batch.Layout.
	LayoutHash string
	History    int
	// MovedFrom is the sink's former name while a moved block's rename is
	// pending: until apply moves them, its manifests are under that name.
	MovedFrom string
	// Shard is set on a shard of a sharded sink: Name is then the shard's
	// ("orders/shard-3"), which names its checkpoint and its manifests'
	// folder, and the destinations are owned by the sharded sink, whose
	// shards share them.
	Shard *planner.Shard
}

// ownerName is the sink that owns the destinations: the sharded sink for
// one of its shards.
func (s *Sink) ownerName() string {
	if s.Shard != nil {
		return s.Shard.Sink
	}
	return s.observedName()
}

// declared is the sink's name in the configuration: the sharded sink's for
// one of its shards.
func (s *Sink) declared() string {
	if s.Shard != nil {
		return s.Shard.Sink
	}
	return s.Name
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

// observedName is the name the sink's manifests are kept under now.
func (s *Sink) observedName() string {
	if s.MovedFrom != "" {
		return s.MovedFrom
	}
	return s.Name
}

func (s *Sink) destination(name string) *Destination {
	for i := range s.Destinations {
		if s.Destinations[i].Name == name {
			return &s.Destinations[i]
		}
	}
	return nil
}
