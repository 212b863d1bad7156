// Package config reads a streamctl configuration: every *.hcl file of a
// directory, merged, with variables, locals, the go-cty standard functions and
// interpolation. Every mistake is reported in one run, each as an HCL
// diagnostic with file, line, column and a snippet. Source, destination and
// state blocks are decoded as the provider kinds given to Load declare
// (providers/all in the commands); this package imports no provider.
package config

import (
	"strconv"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/streamctl/streamctl/internal/format"
)

// Config is a whole evaluated configuration.
type Config struct {
	// Dir is the configuration directory; relative paths resolve against it.
	Dir string
	// Files are the parsed files, for rendering diagnostics with snippets.
	Files map[string]*hcl.File

	State     StateConfig
	Variables map[string]*Variable
	Sources   map[string]*Source // by Key(): "TYPE.NAME"
	Sinks     []*Sink            // in name order
	Moved     []*Moved           // renamed sinks, in declaration order

	// Hash identifies the configuration a plan was made from: the files' bytes and
	// the non-sensitive variable values.
	Hash string
	// values are the variables' final values, unmarked.
	values map[string]cty.Value
}

// Sink returns the sink named name, or nil.
func (c *Config) Sink(name string) *Sink {
	for _, s := range c.Sinks {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// StateConfig says where the checkpoint lives.
type StateConfig struct {
	Type string // the kind: local, s3, azblob…
	// Config is the decoded block (*local.StateConfig, *s3.Config…).
	Config any
	// Key is the state object's key, for a kind that keeps the state in a
	// storage.
	Key       string
	DeclRange hcl.Range
}

// Variable is a declared input variable with its final value.
type Variable struct {
	Name        string
	Description string
	Sensitive   bool
	DeclRange   hcl.Range
}

// Source is a declared source.
type Source struct {
	Type      string
	Name      string
	Config    any // the decoded block: *generate.Config, *kafka.Config…
	DeclRange hcl.Range
}

// Key is how sinks refer to the source: "TYPE.NAME".
func (s *Source) Key() string { return s.Type + "." + s.Name }

// Sink is one streaming query: a source, an output layout and destinations.
type Sink struct {
	Name   string
	Source string // the source's Key()
	// Layout is how the sink's records become files, built and checked
	// at load.
	Layout
	OnDataLoss string
	MaxRecords int64 // batch { max_records }
	// Maintenance is the maintenance block; nil without one.
	Maintenance  *Maintenance
	History      int
	Destinations []*Destination // in config order
	// Shards is the declared shards (1: not sharded).
	Shards int
	// Shard is set on each of the sinks a sink with shards > 1 stands for
	// once loaded: Config.Sinks holds its shards, not the sink.
	Shard     *Shard
	DeclRange hcl.Range
}

// Maintenance is when and how apply compacts a sink's folder destinations
// (protocol.md#compaction) and expires the snapshots of their Iceberg
// tables (protocol.md#table-expiry).
type Maintenance struct {
	// TargetFileSize is the size, in bytes, a compacted file ends at; files
	// smaller are compacted.
	TargetFileSize int64
	// CompactAfter is how long after their batch's commit files may be
	// compacted.
	CompactAfter time.Duration
	// ExpireSnapshotsAfter is how long after their commit the snapshots of
	// the destinations' Iceberg tables are expired; 0: never.
	ExpireSnapshotsAfter time.Duration
	// ExpireRange is where expire_snapshots_after is set, for messages.
	ExpireRange *hcl.Range `json:"-"`
}

// Shard is shard Index of Count of the declared sink Sink.
type Shard struct {
	Sink         string
	Index, Count int
}

// ShardName is the name of shard k of sink: its checkpoint's name in the
// state and the folder of its manifests, _streamctl/<sink>/shard-<k>/.
func ShardName(sink string, k int) string {
	return sink + "/shard-" + strconv.Itoa(k)
}

// Declared is the name of the sink block s comes from: the sink's own name,
// or the sharded sink's for one of its shards.
func (s *Sink) Declared() string {
	if s.Shard != nil {
		return s.Shard.Sink
	}
	return s.Name
}

// Declared lists the sinks named name: the sink, or every shard of the
// sink declared as name with shards > 1.
func (c *Config) Declared(name string) []*Sink {
	var out []*Sink
	for _, s := range c.Sinks {
		if s.Declared() == name || s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// Column is a declared output column: `column "NAME" { type, nullable, from }`.
type Column = format.Column

// Destination is where a sink's files land.
type Destination struct {
	Type string
	Name string
	// Config is the decoded block: *local.Config, *s3.Config…
	Config any
	// NoBackfill is backfill = false: added to a sink with history, the
	// destination starts at the current head instead of receiving past batches.
	NoBackfill bool
	// Table is the table block: the table each batch is also committed to.
	Table     *Table
	DeclRange hcl.Range
}
