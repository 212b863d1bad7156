package kafka

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/streamctl/streamctl/providers"
)

// Environment variables that supply what the blocks leave unset.
const (
	EnvSASLPassword = "KAFKA_SASL_PASSWORD"

	EnvRegistryURL      = "SCHEMA_REGISTRY_URL"
	EnvRegistryUsername = "SCHEMA_REGISTRY_USERNAME"
	EnvRegistryPassword = "SCHEMA_REGISTRY_PASSWORD"
)

// Kind declares `source "kafka"`.
var Kind = &providers.Kind{
	Type: "kafka",
	Source: &providers.SourceRole{
		Body: providers.Body{
			Summary: "A Kafka topic: one partition per topic partition, offsets are Kafka offsets.",
			Description: "streamctl reads the ranges of each batch with its own offsets; the consumer group is " +
				"not the truth (see `commit_group`). Transactions are honoured: with `isolation = \"read_committed\"` " +
				"a batch never includes records of aborted or open transactions. The SASL password may come from " +
				"the `KAFKA_SASL_PASSWORD` environment variable.",
			Config:  Config{},
			Secrets: []string{"sasl.password", "schema_registry.password"},
			Attributes: map[string]providers.Attribute{
				"brokers": {Example: `["127.0.0.1:9092"]`, Description: "The bootstrap brokers, `host:port`."},
				"topic":   {Example: `"orders"`, Description: "The topic to read."},
				"starting_offsets": {Default: strconv.Quote(StartEarliest), Example: `"latest"`, Allowed: []string{StartEarliest, StartLatest},
					Description: "Where a partition with no committed offset starts: its earliest retained offset, or its latest (skipping what the topic already holds)."},
				"isolation": {Default: strconv.Quote(ReadCommitted), Example: `"read_committed"`, Allowed: []string{ReadCommitted, ReadUncommitted},
					Description: "`read_committed` never reads records of aborted or open transactions and plans up to the last stable offset; `read_uncommitted` plans up to the high watermark."},
				"value_format": {Default: strconv.Quote(FormatJSON), Example: `"avro"`, Allowed: []string{FormatJSON, FormatRaw, FormatAvro, FormatProtobuf, FormatJSONSchema},
					Description: "`json` passes the record value through as the record's JSON; `raw` wraps it as `{\"value\": \"<the value as a JSON string>\"}`; " +
						"`avro`, `protobuf` and `json_schema` read a value framed in the Confluent wire format and decode it with its schema from `schema_registry` into JSON (see the schema registry guide for the mapping). " +
						"A value that is not so framed, names a schema the registry does not have, or does not decode is an invalid record (`on_invalid`)."},
				"key_format": {Default: strconv.Quote(FormatRaw), Example: `"avro"`, Allowed: []string{FormatRaw, FormatAvro, FormatProtobuf, FormatJSONSchema},
					Description: "`raw` reads the key as its bytes (a `from = \"key\"` column); `avro`, `protobuf` and `json_schema` decode it through `schema_registry` into JSON text, as for `value_format`."},
				"timeout": {Default: strconv.Quote(DefaultTimeout.String()), Example: `"10s"`,
					Description: "Bounds every exchange with the brokers (a Go duration): unreachable brokers, an unknown topic or a failed authentication give an error within it, never a hang."},
				"commit_group": {Example: `"streamctl-orders"`,
					Description: "A consumer group that committed offsets are also written to, for lag dashboards. streamctl's state stays the truth."},
			},
			Blocks: map[string]providers.NestedBlock{
				"tls": {
					Summary:     "Connect to the brokers with TLS.",
					Description: "The block's presence turns TLS on; without `ca_file` the system's roots verify the brokers.",
					Attributes: map[string]providers.Attribute{
						"ca_file":              {Example: `"ca.pem"`, Description: "PEM file of the certificate authorities that verify the brokers."},
						"cert_file":            {Example: `"client.pem"`, Description: "PEM client certificate, with `key_file`, for mutual TLS."},
						"key_file":             {Example: `"client-key.pem"`, Description: "PEM private key of `cert_file`."},
						"insecure_skip_verify": {Default: "false", Example: "false", Description: "Do not verify the brokers' certificates. For tests only."},
					},
				},
				"schema_registry": {
					Summary: "The schema registry that `avro`, `protobuf` and `json_schema` keys and values are decoded with.",
					Description: "Speaks the Confluent Schema Registry REST API. Each schema is fetched once per run, by the id in the record's frame. " +
						"A registry that is down or answers 5xx fails the batch before anything is written; the next run reads the batch again. " +
						"Unset attributes come from the `SCHEMA_REGISTRY_URL`, `SCHEMA_REGISTRY_USERNAME` and `SCHEMA_REGISTRY_PASSWORD` environment variables; " +
						"with a registry format and no block, `SCHEMA_REGISTRY_URL` alone names the registry.",
					Attributes: map[string]providers.Attribute{
						"url":      {Default: "`SCHEMA_REGISTRY_URL`", Example: `"https://registry.example.com:8081"`, Description: "The registry's base URL, `http://` or `https://`."},
						"username": {Default: "`SCHEMA_REGISTRY_USERNAME`", Example: `"streamctl"`, Description: "The basic authentication user (an API key on Confluent Cloud)."},
						"password": {Default: "`SCHEMA_REGISTRY_PASSWORD`", Example: "var.registry_password",
							Description: "The basic authentication password: from a sensitive variable, or unset to read `SCHEMA_REGISTRY_PASSWORD`."},
					},
					Blocks: map[string]providers.NestedBlock{
						"tls": {
							Summary:     "How to verify the registry's certificate, and the client certificate to present.",
							Description: "Only for `https://` URLs; without `ca_file` the system's roots verify the registry.",
							Attributes: map[string]providers.Attribute{
								"ca_file":              {Example: `"registry-ca.pem"`, Description: "PEM file of the certificate authorities that verify the registry."},
								"cert_file":            {Example: `"client.pem"`, Description: "PEM client certificate, with `key_file`, for mutual TLS."},
								"key_file":             {Example: `"client-key.pem"`, Description: "PEM private key of `cert_file`."},
								"insecure_skip_verify": {Default: "false", Example: "false", Description: "Do not verify the registry's certificate. For tests only."},
							},
						},
					},
				},
				"sasl": {
					Summary: "Authenticate to the brokers with SASL.",
					Attributes: map[string]providers.Attribute{
						"mechanism": {Example: `"SCRAM-SHA-512"`, Allowed: []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"}, Description: "The SASL mechanism."},
						"username":  {Example: `"streamctl"`, Description: "The SASL user."},
						"password": {Default: "`KAFKA_SASL_PASSWORD`", Example: "var.kafka_password",
							Description: "The SASL password: from a sensitive variable, or unset to read the `KAFKA_SASL_PASSWORD` environment variable."},
					},
				},
			},
			Decode: decode,
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
		},
		Open: func(_ context.Context, cfg any) (providers.Source, error) {
			return New(*cfg.(*Config))
		},
		StartsAtLatest: func(cfg any) bool { return cfg.(*Config).StartingOffsets == StartLatest },
		RegistrySubject: func(cfg any) string {
			if c := cfg.(*Config); registryFormat(c.ValueFormat) {
				return c.valueSubject()
			}
			return ""
		},
		Shared: shared,
	},
}

// decode reads the SASL password, and the schema registry's URL and
// credentials, from the environment when the blocks set none. A registry
// format with no schema_registry block takes the registry from the
// environment alone.
func decode(b providers.Block) any {
	c := &Config{}
	if !b.Decode(c) {
		return nil
	}
	if c.SASL != nil && c.SASL.Password == "" {
		c.SASL.Password = b.Getenv(EnvSASLPassword)
	}
	if c.SchemaRegistry == nil && c.usesRegistry() && b.Getenv(EnvRegistryURL) != "" {
		c.SchemaRegistry = &SchemaRegistryConfig{}
	}
	if r := c.SchemaRegistry; r != nil {
		if r.URL == "" {
			r.URL = b.Getenv(EnvRegistryURL)
		}
		if r.Username == "" && r.Password == "" {
			r.Username = b.Getenv(EnvRegistryUsername)
		}
		// A password alone authenticates no one: it is taken for a user.
		if r.Password == "" && r.Username != "" {
			r.Password = b.Getenv(EnvRegistryPassword)
		}
	}
	return c
}

// shared refuses commit_group on a source read by more than one sink: each
// sink commits its own offsets, so the group would flip between them and show
// neither.
func shared(cfg any, key string, sinks []string) (summary, detail string) {
	c := cfg.(*Config)
	if c.CommitGroup == "" {
		return "", ""
	}
	return "commit_group on a shared source", fmt.Sprintf("source.%s has commit_group = %q and is read by sinks %s: each would commit its own offsets to the group. Give each sink its own source block (same brokers and topic) with its own commit_group.", key, c.CommitGroup, strings.Join(sinks, ", "))
}
