package kafka

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/streamctl/streamctl/internal/wire"
	"github.com/streamctl/streamctl/providers"
)

// Values of Config's enumerated attributes.
const (
	StartEarliest = "earliest"
	StartLatest   = "latest"

	ReadCommitted   = "read_committed"
	ReadUncommitted = "read_uncommitted"

	FormatJSON = "json"
	FormatRaw  = "raw"
	// Read through the schema registry; see package wire.
	FormatAvro       = wire.Avro
	FormatProtobuf   = wire.Protobuf
	FormatJSONSchema = wire.JSONSchema

	DefaultTimeout = 30 * time.Second
)

// Config is the body of a `source "kafka" "NAME"` block, decoded with gohcl.
// Empty optional attributes take their defaults in New; Validate accepts them.
type Config struct {
	// Brokers are the bootstrap brokers, "host:port".
	Brokers []string `hcl:"brokers"`
	Topic   string   `hcl:"topic"`

	// StartingOffsets is where a partition with no committed offset starts:
	// "earliest" (default) or "latest". See StartOffset.
	StartingOffsets string `hcl:"starting_offsets,optional"`

	// Isolation is "read_committed" (default: records of aborted or open
	// transactions are never read, and Snapshot's Latest is the last stable
	// offset) or "read_uncommitted" (Latest is the high watermark).
	Isolation string `hcl:"isolation,optional"`

	// ValueFormat is "json" (default: the value is passed through as the
	// record's JSON), "raw" (the value becomes {"value": "<the value as a
	// JSON string>"}), or "avro", "protobuf", "json_schema": the value is
	// framed in the Confluent wire format and decoded with its schema from
	// SchemaRegistry into JSON.
	ValueFormat string `hcl:"value_format,optional"`

	// KeyFormat is "raw" (default: the key is its bytes) or one of the
	// registry formats, decoded into JSON text as the value is.
	KeyFormat string `hcl:"key_format,optional"`

	SchemaRegistry *SchemaRegistryConfig `hcl:"schema_registry,block"`

	// Timeout bounds every exchange with the brokers (a Go duration,
	// default "30s"): unreachable brokers, an unknown topic or a failed
	// authentication give an error within it, never a hang.
	Timeout string `hcl:"timeout,optional"`

	// CommitGroup, when set, is the consumer group CommitGroup commits
	// offsets to, for lag dashboards. streamctl's state stays the truth.
	CommitGroup string `hcl:"commit_group,optional"`

	TLS  *TLSConfig  `hcl:"tls,block"`
	SASL *SASLConfig `hcl:"sasl,block"`
}

// TLSConfig is the `tls` block. Its presence turns TLS on; with no ca_file the
// system roots verify the brokers.
type TLSConfig struct {
	CAFile             string `hcl:"ca_file,optional"`
	CertFile           string `hcl:"cert_file,optional"` // client certificate, with key_file
	KeyFile            string `hcl:"key_file,optional"`
	InsecureSkipVerify bool   `hcl:"insecure_skip_verify,optional"`
}

// SASLConfig is the `sasl` block. The config layer ensures Password comes from
// a sensitive variable or the KAFKA_SASL_PASSWORD environment variable.
type SASLConfig struct {
	Mechanism string `hcl:"mechanism"` // PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512
	Username  string `hcl:"username"`
	Password  string `hcl:"password,optional"`
}

// SchemaRegistryConfig is the `schema_registry` block. Unset attributes come
// from the SCHEMA_REGISTRY_URL, SCHEMA_REGISTRY_USERNAME and
// SCHEMA_REGISTRY_PASSWORD environment variables.
type SchemaRegistryConfig struct {
	URL      string     `hcl:"url,optional"`
	Username string     `hcl:"username,optional"`
	Password string     `hcl:"password,optional"`
	TLS      *TLSConfig `hcl:"tls,block"`
}

// registryFormat says whether format is read through the schema registry.
func registryFormat(format string) bool {
	return oneOf(format, FormatAvro, FormatProtobuf, FormatJSONSchema)
}

// usesRegistry says whether the key or the value is read through the schema
// registry.
func (c Config) usesRegistry() bool {
	return registryFormat(c.ValueFormat) || registryFormat(c.KeyFormat)
}

// Validate reports every invalid attribute at once, each error naming its
// attribute. It does not contact the brokers or read files.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if len(c.Brokers) == 0 {
		bad("brokers: at least one broker is required")
	}
	for _, b := range c.Brokers {
		if host, port, err := net.SplitHostPort(b); err != nil || host == "" || port == "" {
			bad("brokers: %q is not host:port", b)
		}
	}
	if err := validTopic(c.Topic); err != nil {
		bad("topic: %w", err)
	}
	if !oneOf(c.StartingOffsets, "", StartEarliest, StartLatest) {
		bad("starting_offsets: %q is neither %q nor %q", c.StartingOffsets, StartEarliest, StartLatest)
	}
	if !oneOf(c.Isolation, "", ReadCommitted, ReadUncommitted) {
		bad("isolation: %q is neither %q nor %q", c.Isolation, ReadCommitted, ReadUncommitted)
	}
	if !oneOf(c.ValueFormat, "", FormatJSON, FormatRaw) && !registryFormat(c.ValueFormat) {
		bad("value_format: %q is none of %q, %q, %q, %q, %q", c.ValueFormat, FormatJSON, FormatRaw, FormatAvro, FormatProtobuf, FormatJSONSchema)
	}
	if !oneOf(c.KeyFormat, "", FormatRaw) && !registryFormat(c.KeyFormat) {
		bad("key_format: %q is none of %q, %q, %q, %q", c.KeyFormat, FormatRaw, FormatAvro, FormatProtobuf, FormatJSONSchema)
	}
	r := c.SchemaRegistry
	switch {
	case c.usesRegistry() && (r == nil || r.URL == ""):
		attr, f := "value_format", c.ValueFormat
		if !registryFormat(f) {
			attr, f = "key_format", c.KeyFormat
		}
		bad("%s: %q reads schemas from a schema registry: add a schema_registry block with its url (or set %s)", attr, f, EnvRegistryURL)
	}
	if r != nil && r.URL != "" {
		if u, err := url.Parse(r.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("schema_registry: url %q is not an http:// or https:// URL", r.URL)
		}
	}
	if r != nil && (r.Username == "") != (r.Password == "") {
		bad("schema_registry: username and password go together (set the password from a sensitive variable or %s)", EnvRegistryPassword)
	}
	if r != nil && r.TLS != nil && (r.TLS.CertFile == "") != (r.TLS.KeyFile == "") {
		bad("schema_registry: tls: cert_file and key_file go together")
	}
	if c.Timeout != "" {
		if d, err := time.ParseDuration(c.Timeout); err != nil || d <= 0 {
			bad("timeout: %q is not a positive duration such as \"30s\"", c.Timeout)
		}
	}
	if t := c.TLS; t != nil && (t.CertFile == "") != (t.KeyFile == "") {
		bad("tls: cert_file and key_file go together")
	}
	if s := c.SASL; s != nil {
		if !oneOf(s.Mechanism, "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512") {
			bad("sasl: mechanism %q is none of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512", s.Mechanism)
		}
		if s.Username == "" {
			bad("sasl: username is empty")
		}
		if s.Password == "" {
			bad("sasl: password is empty (set it from a sensitive variable or KAFKA_SASL_PASSWORD)")
		}
	}
	return errors.Join(errs...)
}

// StartOffset is where a partition with no committed offset starts reading:
// its earliest offset, or its latest with starting_offsets = "latest".
func (c Config) StartOffset(p providers.PartitionSnapshot) int64 {
	if c.StartingOffsets == StartLatest {
		return p.Latest
	}
	return p.Earliest
}

// withDefaults fills the empty optional attributes.
func (c Config) withDefaults() Config {
	if c.StartingOffsets == "" {
		c.StartingOffsets = StartEarliest
	}
	if c.Isolation == "" {
		c.Isolation = ReadCommitted
	}
	if c.ValueFormat == "" {
		c.ValueFormat = FormatJSON
	}
	if c.KeyFormat == "" {
		c.KeyFormat = FormatRaw
	}
	if c.Timeout == "" {
		c.Timeout = DefaultTimeout.String()
	}
	return c
}

// validTopic applies Kafka's own rule, so that a typo fails before any
// connection.
func validTopic(t string) error {
	switch {
	case t == "":
		return errors.New("is empty")
	case t == "." || t == "..":
		return fmt.Errorf("%q is not a valid topic name", t)
	case len(t) > 249:
		return fmt.Errorf("%q is longer than 249 characters", t)
	}
	for _, r := range t {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return fmt.Errorf("%q has %q: topic names use only ASCII letters, digits, '.', '_' and '-'", t, r)
		}
	}
	return nil
}

func oneOf(v string, allowed ...string) bool { return slices.Contains(allowed, v) }

// brokerList names the brokers in messages.
func (c Config) brokerList() string { return strings.Join(c.Brokers, ",") }

// valueSubject is the registry subject of the topic's values.
func (c Config) valueSubject() string { return wire.Subject(c.Topic, false) }
