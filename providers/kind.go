package providers

import (
	"context"
	"fmt"
	"strconv"
)

// Kind declares one provider type: the first label of its blocks, the roles it
// plays and, for each role, what the block accepts, how it is decoded and how
// what it configures is opened. Each provider package exports one Kind;
// providers/all lists them. The configuration loader, the reference and the
// commands read nothing else about a provider.
type Kind struct {
	// Type is the block label: `source "kafka"`, `destination "s3"`.
	Type string

	// The roles, nil when the kind does not play them.
	Source      *SourceRole
	Destination *DestinationRole
	State       *StateRole
}

// SourceRole is a kind that can be a `source "TYPE" "NAME"`.
type SourceRole struct {
	Body
	// Open connects the source of a decoded config.
	Open func(ctx context.Context, cfg any) (Source, error)
	// StartsAtLatest, when set, reports whether a new sink starts at the
	// source's latest offsets rather than its earliest.
	StartsAtLatest func(cfg any) bool
	// RegistrySubject, when set, names the schema registry subject a
	// source's values are read with, "" when they are not: a sink may then
	// take its columns from that subject's schema (columns = "from_schema").
	RegistrySubject func(cfg any) string
	// Shared, when set, checks a source read by several sinks (their names):
	// a non-empty summary is an error, with detail saying what to do. key is
	// "TYPE.NAME".
	Shared func(cfg any, key string, sinks []string) (summary, detail string)
}

// DestinationRole is a kind that can be a `destination "TYPE" "NAME"` of a sink.
type DestinationRole struct {
	Body
	// Open connects the storage of a decoded config.
	Open func(ctx context.Context, cfg any) (Storage, error)
	// Location names where a decoded config writes, as a URL-like string: two
	// destinations with one location collide.
	Location func(cfg any) string
	// TableLocation is the destination as the location of a table whose data
	// files it holds (`file:///abs/path`, `s3://bucket/prefix`,
	// `wasbs://container@account.blob.core.windows.net/prefix`), with the
	// file IO properties a table library needs to reach it (endpoint,
	// credentials). Nil for a kind that cannot hold a table yet.
	TableLocation func(cfg any) (url string, properties map[string]string, err error)
}

// StateRole is a kind that can keep the state: `state "TYPE"` in the
// streamctl block. Exactly one of Open and File is set.
type StateRole struct {
	// Body's Example is the streamctl block alone: the reference completes it
	// into a configuration.
	Body
	// Open connects the storage that keeps the state as the object named by
	// the block's `key` attribute, locked by an object beside it. The loader
	// takes `key` out of the body before decoding the rest.
	Open func(ctx context.Context, cfg any) (Storage, error)
	// File names the local file that keeps the state, for a kind that keeps
	// it in a file locked with a lock file.
	File func(cfg any) string
}

// Body describes and decodes the body of one role's block. The reference is
// generated from it, so what it documents is what Decode accepts.
type Body struct {
	// Summary is one sentence; Description and Example are Markdown and a
	// complete configuration that passes validate.
	Summary, Description, Example string

	// Config is the zero config: a gohcl struct whose hcl tags are the
	// block's attributes and nested blocks.
	Config any
	// Attributes document Config's attributes, by name; Blocks its nested
	// blocks, by type.
	Attributes map[string]Attribute
	Blocks     map[string]NestedBlock
	// Secrets are accepted only from sensitive variables; "sasl.password"
	// names an attribute of a nested block.
	Secrets []string
	// Paths name where data or state is written. Their values end up in file
	// names, keys and messages, so they are refused from sensitive variables.
	Paths []string
	// Refused are attributes of Config the role always refuses, with the
	// reason; Decode reports them.
	Refused map[string]string

	// Decode, when set, decodes a block and returns its config, or nil when
	// the block is invalid (its errors reported). Unset, the block is decoded
	// into a new Config. The loader then refuses secrets from plain text and
	// reports the errors of the config's Validate() error method, if any:
	// each error's message starts with the attribute's name and a colon.
	Decode func(b Block) any
}

// Attribute documents what reflection on a config cannot know.
type Attribute struct {
	// Default is what an unset attribute means, as shown to people.
	Default string
	// Example is an HCL expression; every attribute has one.
	Example string
	// Description is Markdown; when empty, the Go field's doc comment is used.
	Description string
	// Allowed are the accepted values of an enumerated attribute, unquoted.
	Allowed []string
}

// NestedBlock documents a nested block of a config; its attributes come from
// the field's struct type.
type NestedBlock struct {
	Summary, Description string
	Attributes           map[string]Attribute
	Blocks               map[string]NestedBlock // its own blocks, by name
}

// Block is one block being decoded, as a role's Decode sees it.
type Block interface {
	// Decode decodes the body into target, a pointer to a gohcl struct, and
	// reports whether that went without errors; the errors are reported.
	Decode(target any) bool
	// Errorf reports an error at the attribute attr of the block, or at the
	// block's header when attr is "" or not set.
	Errorf(attr, summary, format string, args ...any)
	// Getenv reads the environment the configuration is loaded with.
	Getenv(key string) string
	// Dir is the configuration directory, absolute.
	Dir() string
	// Path resolves p against Dir.
	Path(p string) string
}

// Kinds is a list of kinds, each Type once.
type Kinds []*Kind

// Lookup returns the kind of type typ, or nil.
func (ks Kinds) Lookup(typ string) *Kind {
	for _, k := range ks {
		if k.Type == typ {
			return k
		}
	}
	return nil
}

// SizeDoc shows a size in bytes in the reference, with its unit when round:
// "8388608 (8 MiB)".
func SizeDoc(n int64) string {
	switch {
	case n%(1<<30) == 0:
		return fmt.Sprintf("%d (%d GiB)", n, n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d (%d MiB)", n, n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d (%d KiB)", n, n>>10)
	}
	return strconv.FormatInt(n, 10)
}
