package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/all"
)

// The reference is generated from Schema. These tests keep Schema and the
// decoders in step, in both directions:
//
//   - every block type of topSchema and sinkSchema, every kind's source,
//     destination and state role, and every attribute of sinkSchema is in
//     Schema (compared with the Go values the decoders use);
//   - every documented attribute and block is accepted by Load, every required
//     attribute is refused when missing, every secret is refused as plain text
//     and every example value is valid (probing Load with configurations);
//   - no undocumented attribute or block is accepted: every name that appears
//     in the decoders' source (hcl tags, schema literals) or anywhere in Schema
//     is tried in every block, and Load must call it unsupported there.

func schemaRoot() *SchemaBlock {
	return &SchemaBlock{ID: "top level", Blocks: Schema(all.Kinds())}
}

func TestSchemaMatchesDecoderTables(t *testing.T) {
	root := schemaRoot()
	kinds := func(parent *SchemaBlock, typ string) []string {
		var out []string
		for _, b := range parent.Blocks {
			if b.Type == typ {
				out = append(out, b.Kind)
			}
		}
		sort.Strings(out)
		return out
	}
	same := func(what string, got, want []string) {
		t.Helper()
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: the reference has %q, the decoders accept %q", what, got, want)
		}
	}

	var top []string
	for _, h := range topSchema.Blocks {
		top = append(top, h.Type)
		for _, b := range root.Blocks {
			if b.Type == h.Type && strings.Join(b.Labels, ",") != strings.Join(h.LabelNames, ",") {
				t.Errorf("block %s: the reference has labels %q, the decoder %q", b.ID, b.Labels, h.LabelNames)
			}
		}
	}
	var documentedTop []string
	for _, b := range root.Blocks {
		if !containsString(documentedTop, b.Type) {
			documentedTop = append(documentedTop, b.Type)
		}
	}
	same("top-level blocks", documentedTop, top)
	types := func(plays func(*providers.Kind) bool) []string {
		var out []string
		for _, k := range all.Kinds() {
			if plays(k) {
				out = append(out, k.Type)
			}
		}
		return out
	}
	same("source types", kinds(root, "source"), types(isSource))

	streamctl := root.Block("streamctl", "")
	sink := root.Block("sink", "")
	if streamctl == nil || sink == nil {
		t.Fatal("the reference has no streamctl or sink block")
	}
	same("state backends", kinds(streamctl, "state"), types(isState))
	same("destination types", kinds(sink, "destination"), types(isDestination))

	var attrs, documented []string
	for _, a := range sinkSchema.Attributes {
		attrs = append(attrs, a.Name)
		if d := sink.Attribute(a.Name); d != nil && d.Required != a.Required {
			t.Errorf("sink attribute %s: the reference says required=%v, the decoder %v", a.Name, d.Required, a.Required)
		}
	}
	for _, a := range sink.Attributes {
		documented = append(documented, a.Name)
	}
	same("sink attributes", documented, attrs)
	var blocks, documentedBlocks []string
	for _, h := range sinkSchema.Blocks {
		blocks = append(blocks, h.Type+strings.Join(h.LabelNames, ","))
	}
	for _, b := range sink.Blocks {
		s := b.Type + strings.Join(b.Labels, ",")
		if !containsString(documentedBlocks, s) {
			documentedBlocks = append(documentedBlocks, s)
		}
	}
	same("sink blocks", documentedBlocks, blocks)
}

func TestSchemaIsComplete(t *testing.T) {
	blocks := Schema(all.Kinds())
	if err := FillDocs(filepath.Join("..", ".."), blocks); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	Walk(blocks, func(path []*SchemaBlock) {
		b := path[len(path)-1]
		if ids[b.ID] {
			t.Errorf("two blocks have the ID %s", b.ID)
		}
		ids[b.ID] = true
		if b.Summary == "" {
			t.Errorf("block %s has no summary", b.ID)
		}
		if len(path) == 1 && b.Example == "" {
			t.Errorf("block %s has no example", b.ID)
		}
		for _, a := range b.Attributes {
			if a.Description == "" {
				t.Errorf("attribute %s of %s has no description: write a doc comment on its Go field or one in schema.go", a.Name, b.ID)
			}
			if a.Example == "" {
				t.Errorf("attribute %s of %s has no example", a.Name, b.ID)
			}
			if a.Type == "" || a.Type == "any" && a.Name != "default" {
				t.Errorf("attribute %s of %s has no type", a.Name, b.ID)
			}
		}
	})
}

// TestSchemaExamplesValidate loads every block's example configuration.
func TestSchemaExamplesValidate(t *testing.T) {
	t.Setenv("KAFKA_SASL_PASSWORD", "example")
	Walk(Schema(all.Kinds()), func(path []*SchemaBlock) {
		b := path[len(path)-1]
		if b.Example == "" {
			return
		}
		if diags := loadText(t, b.Example); diags.HasErrors() {
			t.Errorf("the example of %s is not valid:\n%s\n%s", b.ID, diags, b.Example)
		}
	})
}

// companions are what an example value needs beside it, by attribute name or
// by "<block ID>.<attribute>".
var companions = map[string]string{
	"kms_key_id": `sse = "aws:kms"`,
	"cert_file":  `key_file = "client-key.pem"`,
	"key_file":   `cert_file = "client.pem"`,
	// Keyed by block ID and attribute where the name is ambiguous.
	"sink.compression": "format = \"parquet\"\n" + probeColumn,
	"sink.format":      probeColumn,
	// A registry format reads through a registry.
	"source-kafka.value_format": "schema_registry {\n  url = \"http://127.0.0.1:8081\"\n}",
	"source-kafka.key_format":   "schema_registry {\n  url = \"http://127.0.0.1:8081\"\n}",
	// A REST catalog has no default address.
	"sink-destination-local-table.catalog": `uri = "https://catalog.example.com/api/catalog"`,
	// A REST catalog's settings need one.
	"warehouse":                              `catalog = "rest"`,
	"sink-destination-local-table.warehouse": "uri = \"https://catalog.example.com/api/catalog\"\n",
}

// registryOnly are the attributes of a sink whose source reads a schema
// registry, by "<block ID>.<attribute>": the probe reads registrySource.
var registryOnly = map[string]bool{"sink.columns": true}

const registrySource = `
source "kafka" "registry" {
  brokers      = ["127.0.0.1:9092"]
  topic        = "orders"
  value_format = "avro"
  schema_registry {
    url = "http://127.0.0.1:8081"
  }
}
`

// deltaOnly are the attributes of a Delta table only, by "<block ID>.<attribute>".
var deltaOnly = map[string]bool{
	"sink-destination-local-table.checkpoint_interval":  true,
	"sink-destination-s3-table.checkpoint_interval":     true,
	"sink-destination-azblob-table.checkpoint_interval": true,
	"sink-destination-gcs-table.checkpoint_interval":    true,
}

// icebergOnly are the attributes of a sink that needs a destination with an
// Iceberg table, by "<block ID>.<attribute>": the probe's destination gets one.
var icebergOnly = map[string]bool{
	"sink-maintenance.expire_snapshots_after": true,
}

// probeColumn is the schema that parquet and csv sinks need.
const probeColumn = `column "country" {
  type = "string"
}`

// baseBodies are what a block needs besides its required attributes to be valid.
var baseBodies = map[string]string{
	"variable":                `default = 1`,
	"streamctl-state-azblob":  `account_name = "probeacct"`,
	"sink-destination-azblob": `account_name = "probeacct"`,
	// An Iceberg table (the format's example) is named; only a local
	// destination has a default catalog.
	"sink-destination-local-table":  "namespace = \"lake\"\nname = \"orders\"",
	"sink-destination-s3-table":     "uri = \"/var/lib/streamctl/catalog.db\"\nnamespace = \"lake\"\nname = \"orders\"",
	"sink-destination-azblob-table": "uri = \"/var/lib/streamctl/catalog.db\"\nnamespace = \"lake\"\nname = \"orders\"",
	"sink-destination-gcs-table":    "uri = \"/var/lib/streamctl/catalog.db\"\nnamespace = \"lake\"\nname = \"orders\"",
	// A maintenance block sets something; compaction needs nothing more.
	"sink-maintenance": `target_file_size = "256MB"`,
}

// TestSchemaAttributesAreAccepted sets each documented attribute, alone, to its
// example, and removes each required one.
func TestSchemaAttributesAreAccepted(t *testing.T) {
	t.Setenv("KAFKA_SASL_PASSWORD", "example")
	t.Setenv("SCHEMA_REGISTRY_PASSWORD", "example") // for username alone
	Walk(Schema(all.Kinds()), func(path []*SchemaBlock) {
		b := path[len(path)-1]
		if b.AnyAttributes {
			return
		}
		if diags := loadText(t, probeConfig(path, "")); diags.HasErrors() {
			t.Errorf("%s with only its required attributes is not valid:\n%s\n%s", b.ID, diags, probeConfig(path, ""))
			return
		}
		for _, a := range b.Attributes {
			switch {
			case a.Required:
				cfg := probeConfigWithout(path, a.Name)
				if !hasSchemaDiag(loadText(t, cfg), "Missing required argument", a.Name) {
					t.Errorf("%s: attribute %s is documented as required, but Load accepts the block without it:\n%s", b.ID, a.Name, cfg)
				}
			case a.Secret:
				cfg := probeConfig(path, a.Name+` = "plain text"`)
				if !hasSchemaDiag(loadText(t, cfg), "Secret from plain text", "") {
					t.Errorf("%s: attribute %s is documented as a secret, but Load accepts it as plain text:\n%s", b.ID, a.Name, cfg)
				}
			default:
				if strings.Contains(baseBodies[b.ID], a.Name+" ") {
					continue
				}
				extra := a.Name + " = " + a.Example
				if c := companions[b.ID+"."+a.Name] + companions[a.Name]; c != "" {
					extra += "\n" + c
				}
				cfg := probeConfig(path, extra)
				if icebergOnly[b.ID+"."+a.Name] {
					cfg = strings.Replace(cfg, "sink \"probe\" {\n", "sink \"probe\" {\nformat = \"parquet\"\n"+probeColumn+"\n", 1)
					cfg = strings.Replace(cfg, `path = "out/probe"`, "path = \"out/probe\"\n  table {\n    format = \"iceberg\"\n    namespace = \"lake\"\n    name = \"orders\"\n  }", 1)
				}
				if deltaOnly[b.ID+"."+a.Name] {
					// The probe's table is Iceberg's example: make it a
					// Delta table, which has no catalog nor name.
					cfg = strings.NewReplacer(`format = "iceberg"`, `format = "delta"`, baseBodies[b.ID], "").Replace(cfg)
				}
				if registryOnly[b.ID+"."+a.Name] {
					cfg = strings.Replace(cfg, "sink \"probe\" {\nsource = source.generate.orders", "sink \"probe\" {\nsource = source.kafka.registry", 1) + registrySource
				}
				if diags := loadText(t, cfg); diags.HasErrors() {
					t.Errorf("%s: attribute %s = %s is refused:\n%s\n%s", b.ID, a.Name, a.Example, diags, cfg)
				}
			}
		}
		for name := range b.Refused {
			cfg := probeConfig(path, name+` = "x"`)
			if !loadText(t, cfg).HasErrors() {
				t.Errorf("%s: attribute %s is documented as refused, but Load accepts it", b.ID, name)
			}
		}
	})
}

// TestSchemaHasNoUndocumentedNames tries every known name as an attribute and as
// a block in every block, and wants Load to call each one it is not documented
// for unsupported there.
func TestSchemaHasNoUndocumentedNames(t *testing.T) {
	t.Setenv("KAFKA_SASL_PASSWORD", "example")
	names := candidateNames(t)
	root := schemaRoot()
	check := func(path []*SchemaBlock) {
		b := path[len(path)-1]
		if b.AnyAttributes {
			return
		}
		var extra []string
		var attrs, blocks []string
		for _, n := range names {
			if b.Attribute(n) == nil && b.Refused[n] == "" {
				attrs = append(attrs, n)
				extra = append(extra, n+` = "probe"`)
			}
			documentedBlock := false
			for _, c := range b.Blocks {
				documentedBlock = documentedBlock || c.Type == n
			}
			if !documentedBlock {
				blocks = append(blocks, n)
				extra = append(extra, n+" {\n}")
			}
		}
		var cfg string
		if len(path) == 1 {
			cfg = baseConfig + strings.Join(extra, "\n") + "\n"
		} else {
			cfg = probeConfig(path[1:], strings.Join(extra, "\n"))
		}
		diags := loadText(t, cfg)
		for _, n := range attrs {
			if !hasSchemaDiag(diags, "Unsupported argument", n) {
				t.Errorf("%s accepts an attribute %q that the reference does not document (add it to schema.go)", b.ID, n)
			}
		}
		for _, n := range blocks {
			if !hasSchemaDiag(diags, "Unsupported block type", n) {
				t.Errorf("%s accepts a block %q that the reference does not document (add it to schema.go)", b.ID, n)
			}
		}
	}
	check([]*SchemaBlock{root})
	Walk(root.Blocks, func(path []*SchemaBlock) {
		check(append([]*SchemaBlock{root}, path...))
	})
}

// candidateNames are every name in the reference and every name the decoders'
// source mentions as an hcl tag or a schema literal: a superset of what any
// block accepts.
func candidateNames(t *testing.T) []string {
	set := map[string]bool{}
	Walk(Schema(all.Kinds()), func(path []*SchemaBlock) {
		b := path[len(path)-1]
		set[b.Type] = true
		for _, a := range b.Attributes {
			set[a.Name] = true
		}
	})
	// The decoders are this package and the packages of the kinds' configs.
	dirs := []string{"."}
	for _, k := range all.Kinds() {
		var bodies []*providers.Body
		if k.Source != nil {
			bodies = append(bodies, &k.Source.Body)
		}
		if k.Destination != nil {
			bodies = append(bodies, &k.Destination.Body)
		}
		if k.State != nil {
			bodies = append(bodies, &k.State.Body)
		}
		for _, kb := range bodies {
			dir := filepath.Join("..", "..", strings.TrimPrefix(reflect.TypeOf(kb.Config).PkgPath(), "github.com/streamctl/streamctl/"))
			if !containsString(dirs, dir) {
				dirs = append(dirs, dir)
			}
		}
	}
	tag := regexp.MustCompile(`hcl:"([a-z_][a-z0-9_]*)`)
	lit := regexp.MustCompile(`(?:Name|Type):\s*"([a-z_][a-z0-9_]*)"`)
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || filepath.Base(f) == "schema.go" {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, re := range []*regexp.Regexp{tag, lit} {
				for _, m := range re.FindAllSubmatch(src, -1) {
					set[string(m[1])] = true
				}
			}
		}
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	if len(out) < 40 {
		t.Fatalf("only %d candidate names found: the source scan is broken", len(out))
	}
	return out
}

// baseConfig is valid on its own; probes add one block to it.
const baseConfig = `
source "generate" "orders" {
  records_per_partition = 10
}

sink "base" {
  source = source.generate.orders

  destination "local" "base" {
    path = "out/base"
  }
}
`

// probeConfig renders baseConfig plus the block at path (a top-level block
// first), whose body holds its required attributes (their examples) and extra.
func probeConfig(path []*SchemaBlock, extra string) string {
	return renderProbe(path, extra, "")
}

// probeConfigWithout renders the block at path without the attribute omit.
func probeConfigWithout(path []*SchemaBlock, omit string) string {
	return renderProbe(path, "", omit)
}

func renderProbe(path []*SchemaBlock, extra, omit string) string {
	var body string
	for i := len(path) - 1; i >= 0; i-- {
		b := path[i]
		var lines []string
		for _, a := range b.Attributes {
			if a.Required && (i != len(path)-1 || a.Name != omit) {
				lines = append(lines, a.Name+" = "+a.Example)
			}
		}
		if base := baseBodies[b.ID]; base != "" {
			lines = append(lines, base)
		}
		if i == len(path)-1 {
			if extra != "" {
				lines = append(lines, extra)
			}
		} else {
			lines = append(lines, body)
		}
		leaf := path[len(path)-1].Type
		if b.Type == "table" && leaf == "sigv4" {
			// sigv4 signs a REST catalog's requests.
			lines = append(lines, `catalog = "rest"`)
			if !strings.Contains(baseBodies[b.ID], "uri =") {
				lines = append(lines, `uri = "https://catalog.example.com/api/catalog"`)
			}
		}
		if b.Type == "sink" && (leaf == "table" || leaf == "sigv4") {
			lines = append(lines, "format = \"parquet\"\n"+probeColumn) // a table holds Parquet
		}
		if b.Type == "sink" && (i == len(path)-1 || path[i+1].Type != "destination") {
			lines = append(lines, "destination \"local\" \"probe\" {\n  path = \"out/probe\"\n}")
		}
		header := b.Type
		for j := range b.Labels {
			switch {
			case j == 0 && b.Kind != "":
				header += fmt.Sprintf(" %q", b.Kind)
			case b.Type == "variable":
				// A validation's examples refer to the variable by the
				// name the documentation's examples give it.
				header += ` "records"`
			default:
				header += ` "probe"`
			}
		}
		body = header + " {\n" + strings.Join(lines, "\n") + "\n}"
	}
	if path[0].Type == "moved" {
		// A move ends at a declared sink: the one its example names.
		body += "\nsink \"orders\" {\n  source = source.generate.orders\n  destination \"local\" \"orders\" {\n    path = \"out/orders\"\n  }\n}"
	}
	return baseConfig + secretVariables + body + "\n"
}

// secretVariables declare the sensitive variables the secrets' examples use.
const secretVariables = `
variable "aws_access_key" {
  sensitive = true
  default   = "AKIAEXAMPLE"
}
variable "aws_secret_key" {
  sensitive = true
  default   = "secret"
}
variable "lake_sas" {
  sensitive = true
  default   = "sv=2024-01-01&sig=x"
}
variable "lake_key" {
  sensitive = true
  default   = "a2V5"
}
variable "lake_connection_string" {
  sensitive = true
  default   = "UseDevelopmentStorage=true"
}
variable "kafka_password" {
  sensitive = true
  default   = "example"
}
`

func loadText(t *testing.T, text string) hcl.Diagnostics {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := Load(dir, all.Kinds(), Inputs{Environ: os.Environ()})
	return diags
}

// hasDiag reports whether diags has an error with summary whose detail
// mentions name quoted (or any detail when name is "").
func hasSchemaDiag(diags hcl.Diagnostics, summary, name string) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Summary == summary && (name == "" || strings.Contains(d.Detail, `"`+name+`"`)) {
			return true
		}
	}
	return false
}
