package config

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/streamctl/streamctl/providers"
)

// This file describes the configuration language for people and programs: every
// block and attribute with its type, default, allowed values, description and an
// example. The documentation site's configuration reference is generated from
// Schema, and schema_test.go fails when a block or attribute that the decoders
// accept is missing here, so the reference cannot drift from the code.
//
// Attributes decoded with gohcl come from the Go structs by reflection (name,
// type, required); their descriptions are the structs' field doc comments, read
// from the Go source by FillDocs when the site is generated. What reflection
// cannot know (defaults, allowed values, examples) is written beside it: here
// for the blocks of the language, in each provider's Kind for its blocks.

// SchemaBlock describes one kind of block.
type SchemaBlock struct {
	// Type is the block's keyword: "sink", "destination".
	Type string
	// Labels name the block's labels, e.g. ["type", "name"].
	Labels []string
	// Kind is the value of the first label for blocks whose body depends on it
	// (source "kafka", destination "s3", state "azblob"); "" otherwise.
	Kind string
	// ID is unique among all blocks and usable as an HTML anchor:
	// "sink-destination-s3".
	ID string
	// Summary is one sentence; Description is Markdown.
	Summary     string
	Description string
	// Min and Max bound how many times the block appears in its parent (per
	// Kind for typed blocks); Max 0 is unbounded.
	Min, Max int
	// AnyAttributes is true for bodies that take attributes of any name (locals).
	AnyAttributes bool
	Attributes    []*SchemaAttribute
	Blocks        []*SchemaBlock
	// Refused are attributes the decoder of this block reads but always refuses,
	// with the reason (e.g. access_tier in state "azblob").
	Refused map[string]string
	// Example is a complete configuration using the block; it passes validate.
	Example string
}

// SchemaAttribute describes one attribute.
type SchemaAttribute struct {
	Name string
	// Type is the HCL type: string, number, bool, list(string), a type
	// expression, a reference, or any.
	Type     string
	Required bool
	// Default is what an unset attribute means, as shown to people; "" when
	// there is none.
	Default string
	// Allowed lists the accepted values of an enumerated attribute.
	Allowed []string
	// Secret attributes are accepted only from a sensitive variable.
	Secret bool
	// Description is Markdown. For attributes decoded from a Go struct it is the
	// field's doc comment (see FillDocs) unless written here.
	Description string
	// Example is an HCL expression for the attribute.
	Example string
	// GoField is "<package path>.<Type>.<Field>", the struct field the attribute
	// is decoded into; its doc comment describes it.
	GoField string
}

// Label returns how the block is written: `destination "s3" "NAME"`.
func (b *SchemaBlock) Label() string {
	parts := []string{b.Type}
	for i, l := range b.Labels {
		if i == 0 && b.Kind != "" {
			parts = append(parts, strconv.Quote(b.Kind))
			continue
		}
		parts = append(parts, `"`+strings.ToUpper(l)+`"`)
	}
	return strings.Join(parts, " ")
}

// Attribute returns the attribute named name, or nil.
func (b *SchemaBlock) Attribute(name string) *SchemaAttribute {
	for _, a := range b.Attributes {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Block returns the nested block of type typ and kind (kind "" for untyped
// blocks), or nil.
func (b *SchemaBlock) Block(typ, kind string) *SchemaBlock {
	for _, c := range b.Blocks {
		if c.Type == typ && c.Kind == kind {
			return c
		}
	}
	return nil
}

// Walk calls fn for every block of the tree rooted at blocks, parents first,
// with the path of block types from the top.
func Walk(blocks []*SchemaBlock, fn func(path []*SchemaBlock)) {
	var walk func(path []*SchemaBlock, bs []*SchemaBlock)
	walk = func(path []*SchemaBlock, bs []*SchemaBlock) {
		for _, b := range bs {
			p := append(append([]*SchemaBlock(nil), path...), b)
			fn(p)
			walk(p, b.Blocks)
		}
	}
	walk(nil, blocks)
}

// Schema returns the description of every top-level block, in the order the
// reference presents them, with the blocks of the given kinds in their order.
// Each call returns a fresh tree.
func Schema(kinds providers.Kinds) []*SchemaBlock {
	blocks := []*SchemaBlock{streamctlSchema(kinds), variableSchema(), localsSchema()}
	for _, k := range kinds {
		if k.Source != nil {
			blocks = append(blocks, kindSchema("source", []string{"type", "name"}, k.Type, &k.Source.Body))
		}
	}
	blocks = append(blocks, sinkSchemaDoc(kinds), movedSchemaDoc())
	Walk(blocks, func(path []*SchemaBlock) {
		var ids []string
		for _, b := range path {
			ids = append(ids, b.Type)
			if b.Kind != "" {
				ids = append(ids, b.Kind)
			}
		}
		path[len(path)-1].ID = strings.Join(ids, "-")
	})
	return blocks
}

// structAttributes lists the attributes of a gohcl struct: one per field with an
// `hcl:"NAME"` or `hcl:"NAME,optional"` tag, in field order, but those refused.
// Nested blocks (",block" fields) are returned by structBlocks. docs must
// describe every attribute: an attribute without an example is a mistake caught
// by the tests.
func structAttributes(v any, docs map[string]providers.Attribute, secrets []string, refused map[string]string) []*SchemaAttribute {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []*SchemaAttribute
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, kind, ok := hclTag(f)
		if !ok || (kind != "" && kind != "optional") || refused[name] != "" {
			continue
		}
		// A new field without documentation still appears, with its type; the
		// tests ask for an example and a description.
		d := docs[name]
		var allowed []string
		if d.Allowed != nil {
			allowed = quoted(d.Allowed...)
		}
		out = append(out, &SchemaAttribute{
			Name:        name,
			Type:        hclType(f.Type),
			Required:    kind == "",
			Default:     d.Default,
			Allowed:     allowed,
			Secret:      containsString(secrets, name),
			Description: d.Description,
			Example:     d.Example,
			GoField:     t.PkgPath() + "." + t.Name() + "." + f.Name,
		})
	}
	return out
}

// structBlocks returns the ",block" fields of a gohcl struct, each described by
// describe(name, element type, whether the field holds one block at most).
func structBlocks(v any, describe func(name string, t reflect.Type, one bool) *SchemaBlock) []*SchemaBlock {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []*SchemaBlock
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, kind, ok := hclTag(f)
		if !ok || kind != "block" {
			continue
		}
		et := f.Type
		for et.Kind() == reflect.Pointer || et.Kind() == reflect.Slice {
			et = et.Elem()
		}
		out = append(out, describe(name, et, f.Type.Kind() != reflect.Slice))
	}
	return out
}

func hclTag(f reflect.StructField) (name, kind string, ok bool) {
	tag, ok := f.Tag.Lookup("hcl")
	if !ok {
		return "", "", false
	}
	name, kind, _ = strings.Cut(tag, ",")
	return name, kind, name != ""
}

// hclType names the HCL type a Go field decodes from.
func hclType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice:
		return "list(" + hclType(t.Elem()) + ")"
	case reflect.Map:
		return "map(" + hclType(t.Elem()) + ")"
	}
	return "any"
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoted(list ...string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strconv.Quote(s)
	}
	return out
}

// minimalSink completes an example of a source or state block into a valid
// configuration.
const minimalSink = `
sink "orders" {
  source = source.generate.orders

  destination "local" "lake" {
    path = "out/lake"
  }
}
`

const minimalSource = `
source "generate" "orders" {
  records_per_partition = 1000
}
`

func streamctlSchema(kinds providers.Kinds) *SchemaBlock {
	b := &SchemaBlock{
		Type:    "streamctl",
		Summary: "Settings of streamctl itself: the versions it may run with, where the state lives.",
		Description: "At most one per configuration. Without it, the state is the local file " +
			"`.streamctl/state.json` beside the configuration.",
		Max: 1,
		Attributes: []*SchemaAttribute{
			{Name: "required_version", Type: "string",
				Description: "Version constraints the streamctl binary must satisfy, in Terraform's syntax: comma-separated `=`, `!=`, `>`, `>=`, `<`, `<=` or `~>` and a version. " +
					"Every command refuses to run with another version, naming both. A development build, whose version is unknown, runs with a warning.",
				Example: `">= 0.9, < 2.0"`},
		},
		Example: `streamctl {
  required_version = ">= 0.1"

  state "local" {
    path = ".streamctl/state.json"
  }
}
` + minimalSource + minimalSink,
	}
	for _, k := range kinds {
		if k.State != nil {
			b.Blocks = append(b.Blocks, stateSchema(k))
		}
	}
	return b
}

// stateSchema describes `state "TYPE"`. A kind that keeps the state in a
// storage takes the key attribute beside its own.
func stateSchema(k *providers.Kind) *SchemaBlock {
	b := kindSchema("state", []string{"type"}, k.Type, &k.State.Body)
	b.Max = 1
	b.Example += minimalSource + minimalSink
	if k.State.Open != nil {
		key := &SchemaAttribute{
			Name: "key", Type: "string", Required: true,
			Description: "The state object's key. The lock is the object `<key>.lock` beside it.",
			Example:     `"streamctl/orders.json"`,
		}
		b.Attributes = append([]*SchemaAttribute{key}, b.Attributes...)
	}
	return b
}

// kindSchema describes the block of one role of a kind: typ is the block's
// keyword, labels its labels.
func kindSchema(typ string, labels []string, kind string, kb *providers.Body) *SchemaBlock {
	var here []string
	nested := map[string][]string{}
	for _, n := range kb.Secrets {
		if blk, attr, ok := strings.Cut(n, "."); ok {
			nested[blk] = append(nested[blk], attr)
		} else {
			here = append(here, n)
		}
	}
	return &SchemaBlock{
		Type: typ, Labels: labels, Kind: kind,
		Summary:     kb.Summary,
		Description: kb.Description,
		Attributes:  structAttributes(kb.Config, kb.Attributes, here, kb.Refused),
		Blocks:      nestedBlocks(kb.Config, kb.Blocks, nested),
		Refused:     kb.Refused,
		Example:     kb.Example,
	}
}

// nestedBlocks describes the blocks of the config struct cfg, and theirs,
// from docs; secrets are the secret attributes of each block, by name.
func nestedBlocks(cfg any, docs map[string]providers.NestedBlock, secrets map[string][]string) []*SchemaBlock {
	return structBlocks(cfg, func(name string, t reflect.Type, one bool) *SchemaBlock {
		doc, ok := docs[name]
		if !ok {
			return &SchemaBlock{Type: name}
		}
		inner := reflect.New(t).Elem().Interface()
		b := &SchemaBlock{
			Type:        name,
			Summary:     doc.Summary,
			Description: doc.Description,
			Attributes:  structAttributes(inner, doc.Attributes, secrets[name], nil),
			Blocks:      nestedBlocks(inner, doc.Blocks, nil),
		}
		if one {
			b.Max = 1
		}
		return b
	})
}

func variableSchema() *SchemaBlock {
	return &SchemaBlock{
		Type: "variable", Labels: []string{"name"},
		Summary: "An input variable, referenced as `var.NAME`.",
		Description: "Values come from, lowest precedence first: `default`, `" + EnvPrefix + "<NAME>` environment variables, the file `" + AutoVarsFile +
			"`, `*.auto.vars` files in name order, then `-var` and `-var-file` in command-line order: a later source wins, as in Terraform. " +
			"A variable without a default must be given a value, except a sensitive one to `validate`, which checks the configuration without secrets (the value is unknown, and what is made of it is checked by `plan`). " +
			"Each `validation` block is checked against the final value.",
		Attributes: []*SchemaAttribute{
			{Name: "type", Type: "type expression", Default: "any",
				Description: "The type values are converted to: `string`, `number`, `bool`, `list(string)`, `map(string)`, `object({...})`, `any`.",
				Example:     "number"},
			{Name: "default", Type: "any",
				Description: "The value when none is given. It must match `type`.",
				Example:     "50000"},
			{Name: "description", Type: "string",
				Description: "What the variable is for, shown in messages.",
				Example:     `"Records per partition."`},
			{Name: "sensitive", Type: "bool", Default: "false",
				Description: "Mask the value as `(sensitive)` in every output. Secrets (`access_key`, `sas_token`, `password`, …) are only accepted from sensitive variables.",
				Example:     "true"},
		},
		Blocks: []*SchemaBlock{{
			Type:        "validation",
			Summary:     "A rule the variable's value must follow.",
			Description: "Checked as in Terraform, by `validate`, `plan` and `apply`, once the value is final: when `condition` is false, the command fails with `error_message` and the rule's file and line. The condition may refer only to the variable itself. Any number per variable.",
			Attributes: []*SchemaAttribute{
				{Name: "condition", Type: "bool", Required: true,
					Description: "An expression of `var.NAME` and the standard functions; true when the value is valid.",
					Example:     "var.records > 0"},
				{Name: "error_message", Type: "string", Required: true,
					Description: "What is wrong and what to give instead, shown when `condition` is false.",
					Example:     `"records must be positive."`},
			},
		}},
		Example: `variable "records" {
  type        = number
  default     = 50000
  description = "Records per partition."

  validation {
    condition     = var.records > 0
    error_message = "records must be positive."
  }
}

source "generate" "orders" {
  records_per_partition = var.records
}
` + minimalSink,
	}
}

func localsSchema() *SchemaBlock {
	return &SchemaBlock{
		Type:          "locals",
		Summary:       "Named expressions, referenced as `local.NAME`.",
		Description:   "Any number of attributes of any name. Locals may use variables, other locals and the standard functions.",
		AnyAttributes: true,
		Example: `variable "env" {
  default = "dev"
}

locals {
  root = "out/${var.env}"
}

source "generate" "orders" {
  records_per_partition = 1000
}

sink "orders" {
  source = source.generate.orders

  destination "local" "lake" {
    path = "${local.root}/lake"
  }
}
`,
	}
}

func sinkSchemaDoc(kinds providers.Kinds) *SchemaBlock {
	attrs := []*SchemaAttribute{
		{Name: "source", Type: "reference", Required: true, Example: "source.generate.orders",
			Description: "The source, as `source.TYPE.NAME`. Several sinks may read one source; each has its own offsets."},
		{Name: "format", Type: "string", Default: strconv.Quote(DefaultFormat), Allowed: quoted(formats...), Example: `"parquet"`,
			Description: "The output format. `jsonl` without `column` blocks passes the records through byte for byte; " +
				"`parquet` and `csv` write the declared columns."},
		{Name: "compression", Type: "string", Default: "`\"zstd\"` for parquet, none otherwise", Allowed: quoted(compressions...), Example: `"zstd"`,
			Description: "The Parquet compression codec. Other formats are written uncompressed."},
		{Name: "partition_by", Type: "list(string)", Example: `["country", "day(ts)"]`,
			Description: "Hive-style folders, in order, from fields or Iceberg's partition transforms: `country` (folder `country=de`), " +
				"`year(ts)`, `month(ts)`, `day(ts)` (`ts_day=2026-01-02`), `hour(ts)`, `bucket(16, id)` (`id_bucket=0`…`15`), `truncate(4, s)` (`s_trunc`). " +
				"Values are escaped so that no record can make a path leave the destination's prefix; null values (and `\"\"` from a nullable column) become `__HIVE_DEFAULT_PARTITION__`, which readers read as null. " +
				"An identity partition's column is not written into the files: the folder holds it. A value a folder cannot hold as it is (longer than 200 bytes escaped, `__HIVE_DEFAULT_PARTITION__`, `\"\"` from a column with `nullable = false`) makes the record invalid. " +
				"`validate` refuses a column named like a transform's folder (`ts_day` beside `day(ts)`) and names differing only in case. See [partition folders](file-formats.md#partition-folders)."},
		{Name: "route_by", Type: "string", Example: `"customer_id"`,
			Description: "Shard the records across the destinations: each record goes to exactly one, chosen by a hash of this field modulo the number of destinations (in name order), so a replay routes every record to the same place. Without it every destination gets every record. " +
				"With `column` blocks it names a column (or record metadata: `_key`, `_partition`, …). A record without the field, or with null in it, cannot be routed: it is invalid (see `on_invalid`)."},
		{Name: "max_file_records", Type: "number", Default: "one file per partition folder per batch", Example: "1000000",
			Description: "Roll to a new file after this many records. Files are numbered by the `seq` of their deterministic name."},
		{Name: "max_file_size", Type: "string", Default: "no limit", Example: `"128MB"`,
			Description: "End a file once it holds this many bytes, and go on in the next (`seq` + 1): bytes (`1048576`) or a number and a unit, `KB`, `MB`, `GB` (powers of 1000) or `KiB`, `MiB`, `GiB` (powers of 1024). " +
				"The cut depends only on the records, never on timing, so a retried batch writes the same files. A CSV or JSONL file ends with the record that takes it to the size or past it. " +
				"A Parquet file ends between row groups: the row groups written count at their size, the open one at the compression ratio of those (before the first, its first row group ends once its uncompressed bytes reach the size), so files land near the size, the footer on top. " +
				"With `max_file_records` too, a file ends at whichever comes first. See [file sizes](file-formats.md#file-sizes)."},
		{Name: "row_group_records", Type: "number", Default: strconv.Itoa(DefaultRowGroupRecords), Example: "131072",
			Description: "Records per Parquet row group. Memory is bounded by row-group size × open partition folders."},
		{Name: "on_invalid", Type: "string", Default: `"fail"`, Allowed: quoted(onInvalid...), Example: `"reject"`,
			Description: "A record that does not fit the columns, holds text that is not UTF-8, a timestamp outside years 0001–9999, a partition value its folder cannot hold, or has no `route_by` value: `fail` stops the apply (the batch stays in flight, nothing is promoted); " +
				"`reject` writes it with the reason as JSONL under `_streamctl/_rejected/` (files ending in `.ndjson`, out of every data glob), in the same batch and commit. See [data files](file-formats.md#data-files)."},
		{Name: "columns", Type: "string", Default: "the `column` blocks", Allowed: quoted(ColumnsFromSchema), Example: `"from_schema"`,
			Description: "Take the sink's columns from the schema registry instead of `column` blocks: the fields of the subject its `kafka` source's values are registered under (`<topic>-value`, as the Confluent serializers register them), " +
				"each a column of the type its schema gives (decimal logical types `decimal(p,s)`, records `struct<…>`, arrays `list<…>`, maps `map<string,…>`, timestamps, dates; enums, uuids `string`; a union with null nullable). " +
				"`plan` reads the subject's versions and shows the columns; a version that adds optional fields adds nullable columns, shown by `plan` as a change of the output settings; one the columns cannot hold is refused before anything is written. " +
				"`validate` does not contact the registry. Only for a `kafka` source with a registry `value_format`, and not with a `table` block. See [schema evolution](schema-registry.md#evolution)."},
		{Name: "on_data_loss", Type: "string", Default: `"fail"`, Allowed: quoted(onDataLoss...), Example: `"skip"`,
			Description: "When the source no longer holds offsets that were never committed (retention deleted them): `fail` is an error; `skip` skips them and the plan reports the skipped ranges."},
		{Name: "history", Type: "number", Default: "1000", Example: "1000",
			Description: "How many recent batches the state keeps per sink, with their ranges: what a new destination is backfilled from."},
		{Name: "shards", Type: "number", Default: "1", Example: "8",
			Description: "Split the source's partitions into this many fixed groups, each applied on its own: its own batch sequence, checkpoint document and lock in the state, and manifests under `_streamctl/<sink>/shard-<k>/`, so that several `apply` processes over one remote state write one large topic at once. " +
				"A partition whose ID is a number (Kafka partitions, `generate`) goes to shard ID mod `shards`; any other (a `files` source's file paths) to the FNV-1a hash of its ID mod `shards`. " +
				"A shard that gets no partition plans nothing. At most 1024. Changing it splits the committed offsets again, planned as `~ reshard` and logged in the state first: see [sharded sinks](concepts.md#shards)."},
	}
	b := &SchemaBlock{
		Type: "sink", Labels: []string{"name"},
		Summary: "One streaming query: a source, an output layout and its destinations, with its own checkpoint.",
		Description: "All destinations of a sink share its batches: batch N covers the same offset ranges everywhere. " +
			"The name is the key of its checkpoint and part of every destination's control paths (`_streamctl/<sink>/`): to rename a sink, " +
			"declare the rename with a [`moved`](#moved) block (or run `streamctl state mv OLD NEW`), and its checkpoint, manifests and destinations move with it. " +
			"Renamed without one, it is refused by `plan`, which shows the block to add.",
		Attributes: attrs,
		Blocks: []*SchemaBlock{
			{
				Type: "batch", Max: 1,
				Summary: "How pending records are cut into batches.",
				Attributes: []*SchemaAttribute{{
					Name: "max_records", Type: "number", Default: strconv.Itoa(DefaultMaxRecords), Example: "500000",
					Description: "At most this many records (offsets) per batch, spread over the partitions in proportion to what each has pending.",
				}},
			},
			{
				Type: "maintenance", Max: 1,
				Summary: "Compact the sink's destinations and expire the snapshots of their Iceberg tables: `plan` shows which files are rewritten into which and the snapshots to expire, `apply` does it after the sink's batches.",
				Description: "A compaction rewrites the files of committed batches into files of `target_file_size`, folder by folder, keeping the rows' order, exactly once through crashes: " +
					"see [compacting a folder destination](protocol.md#compaction), which also says what a reader that globs the folders sees meanwhile. " +
					"A destination with an Iceberg table commits its compaction to the table as one replace snapshot and keeps the replaced files for the table's older snapshots until they expire: " +
					"see [compacting a destination with an Iceberg table](protocol.md#table-compaction). A destination with a Delta table is not compacted. " +
					"With `expire_snapshots_after`, the old snapshots of the destinations' Iceberg tables are expired after the compactions, and the files only they referenced (the files a compaction replaced, the expired manifests) deleted: " +
					"see [expiring snapshots](protocol.md#table-expiry). The block sets `target_file_size`, `expire_snapshots_after`, or both.",
				Attributes: []*SchemaAttribute{
					{Name: "target_file_size", Type: "string", Example: `"256MB"`,
						Description: "The size a compacted file ends at, as `max_file_size` takes it. The files smaller than it are compacted: a folder is compacted once it holds two of them or more, old enough. Without it, nothing is compacted."},
					{Name: "compact_after", Type: "string", Default: `"1h"`, Example: `"1h"`,
						Description: "How long after its batch's commit (the time in its manifest) a file may be rewritten: `\"30m\"`, `\"1h\"`, `\"7d\"`. Readers that hold a list of files older than that may find them gone."},
					{Name: "expire_snapshots_after", Type: "string", Example: `"7d"`,
						Description: "How long after its commit a snapshot of a destination's Iceberg table is expired: `\"12h\"`, `\"7d\"`, more than zero. The current snapshot and, down to them, the newest snapshot of the sink (of each shard) and of its compactions are kept, whatever their age: a retried batch or compaction is recognised by them. A query planned on an expired snapshot, or time travel to it, fails once its files are deleted. Without it, no snapshot is expired. Only for a sink with an Iceberg table."},
				},
			},
			{
				Type: "column", Labels: []string{"name"},
				Summary:     "An output column, in order. Required by parquet and csv; with jsonl, only these fields are written.",
				Description: "The label is the column's name.",
				Attributes: structAttributes(Column{}, map[string]providers.Attribute{
					"type": {Example: `"decimal(12,2)"`,
						Description: "The column's type: `string`, `int32`, `int64`, `float`, `double`, `bool`, `timestamp`, `date`, `bytes`, `json`, or `decimal(p,s)` (precision 1 to 38, scale 0 to p), read exactly and written as Parquet's DECIMAL; see [column types](file-formats.md#column-types). `timestamp` reads RFC 3339 strings or epoch milliseconds (UTC); `json` keeps the raw JSON text of a nested value. `list<T>`, `map<string,T>` and `struct<name:T,…>`, nested to any depth, are written by Parquet (its nested types, also in Iceberg and Delta tables) and JSONL; CSV refuses them (declare such a column `json`)."},
					"nullable": {Default: "true", Example: "false", Description: "Whether a missing field or a JSON null gives a null; with `false` such a record is invalid (see `on_invalid`)."},
					"from": {Default: "the column's name", Example: `"order.amount"`,
						Description: "The dotted path of the JSON field to read, or record metadata: `_key`, `_partition`, `_offset`, `_timestamp`, `_headers`."},
				}, nil, nil),
			},
		},
		Example: `source "kafka" "orders" {
  brokers = ["127.0.0.1:9092"]
  topic   = "orders"
}

sink "orders_lake" {
  source       = source.kafka.orders
  format       = "parquet"
  compression  = "zstd"
  partition_by = ["country"]
  on_invalid   = "reject"

  batch {
    max_records = 500000
  }

  column "id" {
    type     = "int64"
    nullable = false
  }
  column "country" {
    type = "string"
  }
  column "amount" {
    type = "decimal(12,2)"
    from = "order.amount"
  }

  destination "local" "lake" {
    path = "out/lake"
  }

  destination "s3" "eu" {
    bucket = "lake-eu"
    prefix = "orders"
    region = "eu-west-1"
  }

  destination "azblob" "us" {
    account_url = "https://lakeus.blob.core.windows.net"
    container   = "orders"
    access_tier = "Cool"
  }
}
`,
	}
	for _, k := range kinds {
		if k.Destination != nil {
			d := kindSchema("destination", []string{"type", "name"}, k.Type, &k.Destination.Body)
			d.Attributes = append(d.Attributes, destinationCommon()...)
			d.Blocks = append(d.Blocks, tableSchema(k.Type))
			b.Blocks = append(b.Blocks, d)
		}
	}
	return b
}

// destinationCommon are the attributes every destination type has, decoded by
// decodeSink before the provider's own.
func destinationCommon() []*SchemaAttribute {
	return []*SchemaAttribute{{
		Name: "backfill", Type: "bool", Default: "true", Example: "false",
		Description: "Whether a destination added to a sink that already committed batches receives them, " +
			"replayed from the source with their recorded ranges (from the state's `history`). " +
			"`false` starts it at the current head.",
	}}
}

// FillDocs gives every attribute without a description the doc comment of its
// Go field, read from the source under root (the module's top directory).
// Field names in the comment are replaced by the attributes' names, so that
// "Bucket holds the objects" reads "`bucket` holds the objects".
func FillDocs(root string, blocks []*SchemaBlock) error {
	const module = "github.com/streamctl/streamctl"
	parsed := map[string]map[string]*ast.StructType{}
	structOf := func(pkg, typ string) (*ast.StructType, error) {
		if _, ok := parsed[pkg]; !ok {
			rel, ok := strings.CutPrefix(pkg, module)
			if !ok {
				return nil, fmt.Errorf("package %s is outside the module", pkg)
			}
			types, err := parseStructs(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(rel, "/"))))
			if err != nil {
				return nil, err
			}
			parsed[pkg] = types
		}
		st := parsed[pkg][typ]
		if st == nil {
			return nil, fmt.Errorf("no struct %s in %s", typ, pkg)
		}
		return st, nil
	}
	var firstErr error
	Walk(blocks, func(path []*SchemaBlock) {
		b := path[len(path)-1]
		for _, a := range b.Attributes {
			if a.Description != "" || a.GoField == "" || firstErr != nil {
				continue
			}
			i := strings.LastIndex(a.GoField, ".")
			j := strings.LastIndex(a.GoField[:i], ".")
			pkg, typ, field := a.GoField[:j], a.GoField[j+1:i], a.GoField[i+1:]
			st, err := structOf(pkg, typ)
			if err != nil {
				firstErr = err
				return
			}
			a.Description = fieldDoc(st, field)
		}
	})
	return firstErr
}

// parseStructs returns the struct types declared in the Go files of dir.
func parseStructs(dir string) (map[string]*ast.StructType, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	out := map[string]*ast.StructType{}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if st, ok := ts.Type.(*ast.StructType); ok {
					out[ts.Name.Name] = st
				}
			}
			return true
		})
	}
	return out, nil
}

var goIdent = regexp.MustCompile(`\b[A-Z][A-Za-z0-9]*\b`)

// fieldDoc is the doc comment (or trailing comment) of field, as one
// paragraph, with Go field names replaced by their HCL names.
func fieldDoc(st *ast.StructType, field string) string {
	hclNames := map[string]string{}
	var doc string
	for _, f := range st.Fields.List {
		name := ""
		if f.Tag != nil {
			if tag, err := strconv.Unquote(f.Tag.Value); err == nil {
				name, _, _ = strings.Cut(reflect.StructTag(tag).Get("hcl"), ",")
			}
		}
		for _, id := range f.Names {
			if name != "" {
				hclNames[id.Name] = name
			}
			if id.Name == field {
				switch {
				case f.Doc != nil:
					doc = f.Doc.Text()
				case f.Comment != nil:
					doc = f.Comment.Text()
				}
			}
		}
	}
	doc = strings.Join(strings.Fields(doc), " ")
	doc = goIdent.ReplaceAllStringFunc(doc, func(w string) string {
		if n, ok := hclNames[w]; ok {
			return "`" + n + "`"
		}
		return w
	})
	if doc != "" && !strings.HasSuffix(doc, ".") {
		doc += "."
	}
	if doc != "" && doc[0] != '`' {
		doc = strings.ToUpper(doc[:1]) + doc[1:]
	}
	return doc
}
