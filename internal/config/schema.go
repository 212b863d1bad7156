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

	"github.com/streamctl/streamctl/providers/azblob"
	"github.com/streamctl/streamctl/providers/kafka"
	"github.com/streamctl/streamctl/providers/s3"
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
// cannot know (defaults, allowed values, examples) is written beside it here.

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
// reference presents them. Each call returns a fresh tree.
func Schema() []*SchemaBlock {
	blocks := []*SchemaBlock{
		streamctlSchema(),
		variableSchema(),
		localsSchema(),
		generateSchema(),
		filesSchema(),
		kafkaSchema(),
		sinkSchemaDoc(),
		movedSchemaDoc(),
	}
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

// attrDoc is what reflection cannot know about an attribute.
type attrDoc struct {
	def, example, desc string
	allowed            []string
}

// structAttributes lists the attributes of a gohcl struct: one per field with an
// `hcl:"NAME"` or `hcl:"NAME,optional"` tag, in field order. Nested blocks
// (",block" fields) are returned by structBlocks. docs must describe every
// attribute: an attribute without an example is a mistake caught by the tests.
func structAttributes(v any, docs map[string]attrDoc, secrets []string) []*SchemaAttribute {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []*SchemaAttribute
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, kind, ok := hclTag(f)
		if !ok || (kind != "" && kind != "optional") {
			continue
		}
		d, known := docs[name]
		if !known {
			// A new field without documentation still appears, with its type; the
			// tests ask for an example and a description.
			d = attrDoc{}
		}
		out = append(out, &SchemaAttribute{
			Name:        name,
			Type:        hclType(f.Type),
			Required:    kind == "",
			Default:     d.def,
			Allowed:     d.allowed,
			Secret:      containsString(secrets, name),
			Description: d.desc,
			Example:     d.example,
			GoField:     t.PkgPath() + "." + t.Name() + "." + f.Name,
		})
	}
	return out
}

// structBlocks returns the ",block" fields of a gohcl struct, each described by
// describe(name, element type).
func structBlocks(v any, describe func(name string, t reflect.Type) *SchemaBlock) []*SchemaBlock {
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
		out = append(out, describe(name, et))
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

func size(n int64) string {
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

func streamctlSchema() *SchemaBlock {
	return &SchemaBlock{
		Type:    "streamctl",
		Summary: "Settings of streamctl itself: where the state lives.",
		Description: "At most one per configuration. Without it, the state is the local file " +
			"`.streamctl/state.json` beside the configuration.",
		Max: 1,
		Blocks: []*SchemaBlock{
			localStateSchema(),
			remoteStateSchema("s3"),
			remoteStateSchema("azblob"),
		},
		Example: `streamctl {
  state "local" {
    path = ".streamctl/state.json"
  }
}
` + minimalSource + minimalSink,
	}
}

func localStateSchema() *SchemaBlock {
	return &SchemaBlock{
		Type: "state", Labels: []string{"type"}, Kind: "local", Max: 1,
		Summary: "The state in a local file, locked with a lock file beside it.",
		Description: "The file is replaced atomically (write to a temporary file, fsync, rename, " +
			"fsync of the folder); the previous version is kept as `<path>.backup`. " +
			"The lock is `<path>.lock`, created exclusively.",
		Attributes: []*SchemaAttribute{{
			Name: "path", Type: "string", Default: `".streamctl/state.json"`,
			Description: "The state file, relative to the configuration directory.",
			Example:     `".streamctl/state.json"`,
		}},
		Example: `streamctl {
  state "local" {
    path = "state/orders.json"
  }
}
` + minimalSource + minimalSink,
	}
}

func remoteStateSchema(kind string) *SchemaBlock {
	key := &SchemaAttribute{
		Name: "key", Type: "string", Required: true,
		Description: "The state object's key. The lock is the object `<key>.lock` beside it.",
		Example:     `"streamctl/orders.json"`,
	}
	b := &SchemaBlock{
		Type: "state", Labels: []string{"type"}, Kind: kind, Max: 1,
		Attributes: []*SchemaAttribute{key},
	}
	switch kind {
	case "s3":
		b.Summary = "The state in an S3 bucket (or any S3-compatible store)."
		b.Description = "Written with compare-and-swap (`If-Match` on the ETag), locked with a " +
			"create-only `<key>.lock` (`If-None-Match: *`). Every attribute of " +
			"[destination \"s3\"](#sink-destination-s3) is accepted too: bucket, region, endpoint, credentials."
		b.Attributes = append(b.Attributes, s3Attributes()...)
		b.Example = `streamctl {
  state "s3" {
    bucket = "ops"
    key    = "streamctl/orders.json"
    region = "eu-west-1"
  }
}
` + minimalSource + minimalSink
	case "azblob":
		b.Summary = "The state in an Azure Blob Storage container."
		b.Description = "Written with compare-and-swap (`If-Match` on the ETag), locked with a " +
			"create-only `<key>.lock` (`If-None-Match: *`). Every attribute of " +
			"[destination \"azblob\"](#sink-destination-azblob) is accepted except `access_tier`."
		for _, a := range azblobAttributes() {
			if a.Name != "access_tier" {
				b.Attributes = append(b.Attributes, a)
			}
		}
		b.Refused = map[string]string{
			"access_tier": "The state is rewritten on every batch; a Cool or Cold tier would be charged early deletion each time.",
		}
		b.Example = `streamctl {
  state "azblob" {
    account_name = "opsstate"
    container    = "streamctl"
    key          = "orders.json"
  }
}
` + minimalSource + minimalSink
	}
	return b
}

func variableSchema() *SchemaBlock {
	return &SchemaBlock{
		Type: "variable", Labels: []string{"name"},
		Summary: "An input variable, referenced as `var.NAME`.",
		Description: "Values come from, lowest precedence first: `default`, the file `" + AutoVarsFile +
			"`, `*.auto.vars` files in name order, `" + EnvPrefix + "<NAME>` environment variables, " +
			"then `-var` and `-var-file` in command-line order. A variable without a default must be given a value.",
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
		Example: `variable "records" {
  type        = number
  default     = 50000
  description = "Records per partition."
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

func generateSchema() *SchemaBlock {
	return &SchemaBlock{
		Type: "source", Labels: []string{"type", "name"}, Kind: "generate",
		Summary: "Deterministic synthetic records: the same seed, partition and offset always give the same record.",
		Description: "For the quickstart, demos, benchmarks and crash tests. Each partition holds " +
			"`records_per_partition` records; raising it is how new data \"arrives\". Records are JSON objects " +
			"with the fields `id`, `partition`, `offset`, `ts`, `customer_id`, `country`, `amount` and `note`.",
		Attributes: structAttributes(GenerateSource{}, map[string]attrDoc{
			"partitions":            {def: "1", example: "4", desc: "Number of partitions, from 1 to 100000."},
			"records_per_partition": {example: "50000", desc: "Records in each partition: offsets `[0, records_per_partition)`."},
			"seed":                  {def: "0", example: "42", desc: "Seed of the generator: another seed gives other records."},
			"payload_bytes":         {def: "0", example: "16", desc: "Length of the random `note` string of each record, from 0 to 1048576 bytes."},
		}, nil),
		Example: `source "generate" "orders" {
  partitions            = 4
  records_per_partition = 50000
  seed                  = 42
  payload_bytes         = 16
}
` + minimalSink,
	}
}

func filesSchema() *SchemaBlock {
	return &SchemaBlock{
		Type: "source", Labels: []string{"type", "name"}, Kind: "files",
		Summary: "Append-only files matched by a glob: one partition per file, offset = record number.",
		Description: "Files may grow (new lines appended) and new files may appear; a file must never be " +
			"rewritten or truncated, since committed offsets point into it.",
		Attributes: structAttributes(FilesSource{}, map[string]attrDoc{
			"path":   {example: `"in/*.jsonl"`, desc: "A glob of the input files, relative to the configuration directory."},
			"format": {def: `"jsonl"`, example: `"jsonl"`, allowed: quoted("jsonl"), desc: "The input format: one JSON object per line."},
		}, nil),
		Example: `source "files" "clicks" {
  path   = "in/*.jsonl"
  format = "jsonl"
}

sink "clicks" {
  source = source.files.clicks
  format = "parquet"

  column "user_id" {
    type = "int64"
  }
  column "url" {
    type = "string"
  }

  destination "local" "lake" {
    path = "out/clicks"
  }
}
`,
	}
}

func kafkaSchema() *SchemaBlock {
	b := &SchemaBlock{
		Type: "source", Labels: []string{"type", "name"}, Kind: "kafka",
		Summary: "A Kafka topic: one partition per topic partition, offsets are Kafka offsets.",
		Description: "streamctl reads the ranges of each batch with its own offsets; the consumer group is " +
			"not the truth (see `commit_group`). Transactions are honoured: with `isolation = \"read_committed\"` " +
			"a batch never includes records of aborted or open transactions. The SASL password may come from " +
			"the `KAFKA_SASL_PASSWORD` environment variable.",
		Attributes: structAttributes(kafka.Config{}, map[string]attrDoc{
			"brokers": {example: `["127.0.0.1:9092"]`, desc: "The bootstrap brokers, `host:port`."},
			"topic":   {example: `"orders"`, desc: "The topic to read."},
			"starting_offsets": {def: `"earliest"`, example: `"latest"`, allowed: quoted(kafka.StartEarliest, kafka.StartLatest),
				desc: "Where a partition with no committed offset starts: its earliest retained offset, or its latest (skipping what the topic already holds)."},
			"isolation": {def: `"read_committed"`, example: `"read_committed"`, allowed: quoted(kafka.ReadCommitted, kafka.ReadUncommitted),
				desc: "`read_committed` never reads records of aborted or open transactions and plans up to the last stable offset; `read_uncommitted` plans up to the high watermark."},
			"value_format": {def: `"json"`, example: `"raw"`, allowed: quoted(kafka.FormatJSON, kafka.FormatRaw),
				desc: "`json` passes the record value through as the record's JSON; `raw` wraps it as `{\"value\": \"<the value as a JSON string>\"}`."},
			"timeout": {def: strconv.Quote(kafka.DefaultTimeout.String()), example: `"10s"`,
				desc: "Bounds every exchange with the brokers (a Go duration): unreachable brokers, an unknown topic or a failed authentication give an error within it, never a hang."},
			"commit_group": {example: `"streamctl-orders"`,
				desc: "A consumer group that committed offsets are also written to, for lag dashboards. streamctl's state stays the truth."},
		}, nil),
		Example: `source "kafka" "orders" {
  brokers          = ["127.0.0.1:9092"]
  topic            = "orders"
  starting_offsets = "earliest"
  isolation        = "read_committed"

  tls {
    ca_file = "ca.pem"
  }

  sasl {
    mechanism = "SCRAM-SHA-512"
    username  = "streamctl"
    # password from the KAFKA_SASL_PASSWORD environment variable
  }
}

sink "orders" {
  source = source.kafka.orders

  destination "local" "lake" {
    path = "out/orders"
  }
}
`,
	}
	b.Blocks = structBlocks(kafka.Config{}, func(name string, _ reflect.Type) *SchemaBlock {
		switch name {
		case "tls":
			return &SchemaBlock{
				Type: "tls", Max: 1,
				Summary:     "Connect to the brokers with TLS.",
				Description: "The block's presence turns TLS on; without `ca_file` the system's roots verify the brokers.",
				Attributes: structAttributes(kafka.TLSConfig{}, map[string]attrDoc{
					"ca_file":              {example: `"ca.pem"`, desc: "PEM file of the certificate authorities that verify the brokers."},
					"cert_file":            {example: `"client.pem"`, desc: "PEM client certificate, with `key_file`, for mutual TLS."},
					"key_file":             {example: `"client-key.pem"`, desc: "PEM private key of `cert_file`."},
					"insecure_skip_verify": {def: "false", example: "false", desc: "Do not verify the brokers' certificates. For tests only."},
				}, nil),
			}
		case "sasl":
			return &SchemaBlock{
				Type: "sasl", Max: 1,
				Summary: "Authenticate to the brokers with SASL.",
				Attributes: structAttributes(kafka.SASLConfig{}, map[string]attrDoc{
					"mechanism": {example: `"SCRAM-SHA-512"`, allowed: quoted("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"), desc: "The SASL mechanism."},
					"username":  {example: `"streamctl"`, desc: "The SASL user."},
					"password": {def: "`KAFKA_SASL_PASSWORD`", example: "var.kafka_password",
						desc: "The SASL password: from a sensitive variable, or unset to read the `KAFKA_SASL_PASSWORD` environment variable."},
				}, []string{"password"}),
			}
		}
		return &SchemaBlock{Type: name}
	})
	return b
}

func sinkSchemaDoc() *SchemaBlock {
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
		{Name: "row_group_records", Type: "number", Default: "131072", Example: "131072",
			Description: "Records per Parquet row group. Memory is bounded by row-group size × open partition folders."},
		{Name: "on_invalid", Type: "string", Default: `"fail"`, Allowed: quoted(onInvalid...), Example: `"reject"`,
			Description: "A record that does not fit the columns, holds text that is not UTF-8, a timestamp outside years 0001–9999, a partition value its folder cannot hold, or has no `route_by` value: `fail` stops the apply (the batch stays in flight, nothing is promoted); " +
				"`reject` writes it with the reason as JSONL under `_streamctl/_rejected/` (files ending in `.ndjson`, out of every data glob), in the same batch and commit. See [data files](file-formats.md#data-files)."},
		{Name: "on_data_loss", Type: "string", Default: `"fail"`, Allowed: quoted(onDataLoss...), Example: `"skip"`,
			Description: "When the source no longer holds offsets that were never committed (retention deleted them): `fail` is an error; `skip` skips them and the plan reports the skipped ranges."},
		{Name: "history", Type: "number", Default: "1000", Example: "1000",
			Description: "How many recent batches the state keeps per sink, with their ranges: what a new destination is backfilled from."},
	}
	return &SchemaBlock{
		Type: "sink", Labels: []string{"name"},
		Summary: "One streaming query: a source, an output layout and its destinations, with its own checkpoint.",
		Description: "All destinations of a sink share its batches: batch N covers the same offset ranges everywhere. " +
			"The name is part of every destination's control paths (`_streamctl/<sink>/`), so renaming a sink starts it over.",
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
				Type: "column", Labels: []string{"name"},
				Summary:     "An output column, in order. Required by parquet and csv; with jsonl, only these fields are written.",
				Description: "The label is the column's name.",
				Attributes: structAttributes(Column{}, map[string]attrDoc{
					"type": {example: `"double"`,
						allowed: quoted("string", "int32", "int64", "float", "double", "bool", "timestamp", "date", "bytes", "json"),
						desc:    "The column's type. `timestamp` reads RFC 3339 strings or epoch milliseconds (UTC); `json` keeps the raw JSON text of a nested value."},
					"nullable": {def: "true", example: "false", desc: "Whether a missing field or a JSON null gives a null; with `false` such a record is invalid (see `on_invalid`)."},
					"from": {def: "the column's name", example: `"order.amount"`,
						desc: "The dotted path of the JSON field to read, or record metadata: `_key`, `_partition`, `_offset`, `_timestamp`, `_headers`."},
				}, nil),
			},
			{
				Type: "destination", Labels: []string{"type", "name"}, Kind: "local", Min: 0,
				Summary:     "A folder on a local or mounted filesystem.",
				Description: "Files are staged under `_temporary/<batch>/`, fsynced and renamed into place; the manifest is created exclusively.",
				Attributes: append(structAttributes(LocalDestination{}, map[string]attrDoc{
					"path": {example: `"out/lake"`, desc: "The destination's root folder, relative to the configuration directory."},
				}, nil), destinationCommon()...),
			},
			{
				Type: "destination", Labels: []string{"type", "name"}, Kind: "s3",
				Summary: "An Amazon S3 bucket, or any S3-compatible store (`endpoint`).",
				Description: "S3 has no rename: staged objects are copied into place and deleted; the manifest is " +
					"written with `If-None-Match: *`, so it is created once. Credentials come from the AWS chain " +
					"(environment, profile, instance role) unless `access_key` and `secret_key` are set.",
				Attributes: append(s3Attributes(), destinationCommon()...),
			},
			{
				Type: "destination", Labels: []string{"type", "name"}, Kind: "azblob",
				Summary: "An Azure Blob Storage container.",
				Description: "The account is `account_url`, or `account_name` (then `https://NAME.blob.core.windows.net`), " +
					"or the endpoint of the connection string. Authentication prefers Microsoft Entra ID (the default " +
					"credential chain, used when no secret is given), then a SAS token, then a shared key, then a " +
					"connection string. When no secret attribute is set, `AZURE_STORAGE_SAS_TOKEN`, `AZURE_STORAGE_KEY` " +
					"and `AZURE_STORAGE_CONNECTION_STRING` supply them; `AZURE_STORAGE_ACCOUNT` supplies `account_name`.",
				Attributes: append(azblobAttributes(), destinationCommon()...),
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
    type = "double"
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

func s3Attributes() []*SchemaAttribute {
	return structAttributes(s3.Config{}, map[string]attrDoc{
		"bucket":                       {example: `"lake-eu"`},
		"prefix":                       {example: `"orders/prod"`},
		"region":                       {def: "the AWS chain, else `us-east-1`", example: `"eu-west-1"`},
		"endpoint":                     {def: "AWS", example: `"http://127.0.0.1:7070"`},
		"force_path_style":             {def: "false", example: "true"},
		"sse":                          {def: "the bucket's default encryption", example: `"aws:kms"`, allowed: quoted("AES256", "aws:kms")},
		"kms_key_id":                   {def: "the account's S3 key", example: `"alias/lake"`},
		"storage_class":                {def: `"STANDARD"`, example: `"STANDARD_IA"`},
		"profile":                      {def: "the AWS chain", example: `"lake"`},
		"access_key":                   {def: "the AWS chain", example: "var.aws_access_key"},
		"secret_key":                   {def: "the AWS chain", example: "var.aws_secret_key", desc: "The secret of `access_key`. Only accepted from a sensitive variable."},
		"multipart_threshold":          {def: size(s3.DefaultMultipartThreshold), example: "134217728"},
		"part_size":                    {def: size(s3.DefaultPartSize), example: "33554432"},
		"max_attempts":                 {def: strconv.Itoa(s3.DefaultMaxAttempts), example: "10"},
		"skip_conditional_write_check": {def: "false", example: "true"},
	}, s3Secrets)
}

func azblobAttributes() []*SchemaAttribute {
	return structAttributes(azblob.Config{}, map[string]attrDoc{
		"account_url": {example: `"https://lakeus.blob.core.windows.net"`,
			desc: "The account's blob endpoint: `https://NAME.blob.core.windows.net`, or path-style `http://127.0.0.1:10000/NAME` for the emulator. http is only allowed on the loopback interface."},
		"account_name": {def: "`AZURE_STORAGE_ACCOUNT`", example: `"lakeus"`,
			desc: "The storage account: the endpoint is then `https://NAME.blob.core.windows.net`. Beside `account_url`, it names the account of a custom domain."},
		"container":   {example: `"orders"`, desc: "The container that holds the blobs."},
		"prefix":      {example: `"orders/prod"`},
		"access_tier": {def: "the account's default", example: `"Cool"`, allowed: quoted("Hot", "Cool", "Cold")},
		"sas_token": {def: "`AZURE_STORAGE_SAS_TOKEN`", example: "var.lake_sas",
			desc: "A SAS token (the query string, with or without `?`). Only accepted from a sensitive variable."},
		"shared_key": {def: "`AZURE_STORAGE_KEY`", example: "var.lake_key",
			desc: "The storage account key (base64). Only accepted from a sensitive variable."},
		"connection_string": {def: "`AZURE_STORAGE_CONNECTION_STRING`", example: "var.lake_connection_string",
			desc: "A storage connection string with an account key or a SAS. Only accepted from a sensitive variable."},
		"block_size":                   {def: size(azblob.DefaultBlockSize), example: "16777216"},
		"max_attempts":                 {def: strconv.Itoa(azblob.DefaultMaxAttempts), example: "10"},
		"skip_conditional_write_check": {def: "false", example: "true"},
	}, azblobSecrets)
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
