package wire

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/sr"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Formats of a Kafka key or value read through a schema registry.
const (
	Avro       = "avro"
	Protobuf   = "protobuf"
	JSONSchema = "json_schema"
)

// schemaType is the registry's name of each format's schemas.
var schemaType = map[string]sr.SchemaType{Avro: sr.TypeAvro, Protobuf: sr.TypeProtobuf, JSONSchema: sr.TypeJSON}

// RegistryConfig says how to reach a schema registry.
type RegistryConfig struct {
	URL                string
	Username, Password string
	TLS                *tls.Config // nil: the system's defaults
	Timeout            time.Duration
}

// Registry decodes Confluent-framed payloads with the schemas of one
// registry, each fetched once per run and kept.
type Registry struct {
	url string
	cl  *sr.Client

	mu      sync.Mutex
	schemas map[int]*schema
}

// schema is one registry schema, compiled. missing is set for an id the
// registry does not know: every record naming it is invalid.
type schema struct {
	typ     sr.SchemaType
	avro    *AvroSchema
	proto   protoreflect.FileDescriptor
	missing error
}

// NewRegistry returns a Registry for c. It does not contact the registry.
func NewRegistry(c RegistryConfig) (*Registry, error) {
	httpcl := &http.Client{Timeout: c.Timeout}
	if c.TLS != nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.TLSClientConfig = c.TLS
		httpcl.Transport = tr
	}
	opts := []sr.ClientOpt{sr.URLs(c.URL), sr.HTTPClient(httpcl), sr.UserAgent("streamctl")}
	if c.Username != "" || c.Password != "" {
		opts = append(opts, sr.BasicAuth(c.Username, c.Password))
	}
	cl, err := sr.NewClient(opts...)
	if err != nil {
		return nil, fmt.Errorf("schema registry %s: %w", c.URL, err)
	}
	return &Registry{url: c.URL, cl: cl, schemas: map[int]*schema{}}, nil
}

// Check asks the registry for its schema types, so that a registry that is
// down, answers 5xx or refuses the credentials fails a run before it logs a
// batch. A registry that does not serve that endpoint (404) answered, which
// is all Check asks.
func (r *Registry) Check(ctx context.Context) error {
	_, err := r.cl.SupportedTypes(ctx)
	var re *sr.ResponseError
	switch {
	case err == nil, errors.As(err, &re) && re.StatusCode < 500 && re.StatusCode != http.StatusUnauthorized && re.StatusCode != http.StatusForbidden:
		return nil
	case re != nil && (re.StatusCode == http.StatusUnauthorized || re.StatusCode == http.StatusForbidden):
		return fmt.Errorf("the schema registry %s refused the credentials (HTTP %d): check schema_registry's username and password (or SCHEMA_REGISTRY_USERNAME and SCHEMA_REGISTRY_PASSWORD)", r.url, re.StatusCode)
	}
	return r.unreachable("list the schema types", err)
}

// Append decodes one key or value payload of format (Avro, Protobuf or
// JSONSchema) framed in the Confluent wire format and appends its canonical
// JSON to dst. A nil payload (a tombstone) is JSON null. A payload that is
// not framed, names a schema the registry does not have or does not decode
// gives an *InvalidError; a registry that cannot be reached gives another
// error, which must fail the batch.
func (r *Registry) Append(ctx context.Context, dst []byte, fmtName string, b []byte) ([]byte, error) {
	if b == nil {
		return append(dst, "null"...), nil
	}
	if len(b) < 5 || b[0] != 0 {
		return dst, notFramed(b)
	}
	id := int(binary.BigEndian.Uint32(b[1:5]))
	s, err := r.schema(ctx, id)
	if err != nil {
		return dst, err
	}
	if s.missing != nil {
		return dst, s.missing
	}
	if want := schemaType[fmtName]; s.typ != want {
		return dst, invalidf("schema %d is %s, not the %s the source is configured with", id, s.typ, want)
	}
	payload := b[5:]
	switch fmtName {
	case Avro:
		return AppendAvro(dst, s.avro, payload)
	case Protobuf:
		index, rest, err := messageIndex(payload)
		if err != nil {
			return dst, err
		}
		md, err := ProtoMessage(s.proto, index)
		if err != nil {
			return dst, err
		}
		return AppendProto(dst, md, rest)
	}
	if !json.Valid(payload) {
		return dst, invalidf("JSON Schema payload is not JSON")
	}
	return append(dst, payload...), nil
}

func notFramed(b []byte) error {
	head := b[:min(len(b), 5)]
	return invalidf("payload is not in the Confluent wire format (a 0 byte, a 4-byte schema id, the data): it starts with % x", head)
}

// messageIndex reads the Protobuf message index that follows the schema id:
// a zigzag count then as many zigzag indexes, a lone 0 meaning [0].
func messageIndex(b []byte) ([]int, []byte, error) {
	n, k := binary.Varint(b)
	if k <= 0 || n < 0 || n > 64 {
		return nil, nil, invalidf("Protobuf payload has no valid message index")
	}
	b = b[k:]
	if n == 0 {
		return []int{0}, b, nil
	}
	index := make([]int, n)
	for i := range index {
		v, k := binary.Varint(b)
		if k <= 0 {
			return nil, nil, invalidf("Protobuf payload has no valid message index")
		}
		index[i], b = int(v), b[k:]
	}
	return index, b, nil
}

// schema returns schema id, fetching and compiling it on first use.
func (r *Registry) schema(ctx context.Context, id int) (*schema, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.schemas[id]; ok {
		return s, nil
	}
	s, err := r.fetch(ctx, id)
	if err != nil {
		return nil, err
	}
	r.schemas[id] = s
	return s, nil
}

func (r *Registry) fetch(ctx context.Context, id int) (*schema, error) {
	got, err := r.cl.SchemaByID(ctx, id)
	if notFound(err) {
		return &schema{missing: invalidf("schema id %d is not in the schema registry %s", id, r.url)}, nil
	}
	if err != nil {
		return nil, r.unreachable(fmt.Sprintf("fetch schema %d", id), err)
	}
	s := &schema{typ: got.Type}
	refs, err := r.references(ctx, got.References, map[string]bool{})
	if err != nil {
		return nil, err
	}
	switch got.Type {
	case sr.TypeAvro:
		texts := make([]string, len(refs))
		for i, ref := range refs {
			texts[i] = ref.text
		}
		s.avro, err = ParseAvro(got.Schema, texts...)
	case sr.TypeProtobuf:
		byName := map[string]string{}
		for _, ref := range refs {
			byName[ref.name] = ref.text
		}
		s.proto, err = CompileProto(ctx, got.Schema, byName)
	case sr.TypeJSON:
	default:
		err = fmt.Errorf("type %s is not supported", got.Type)
	}
	if err != nil {
		// The registry accepted it, so another reader could read it:
		// say which schema, and stop rather than reject every record.
		return nil, fmt.Errorf("schema %d from the schema registry %s: %w", id, r.url, err)
	}
	return s, nil
}

type reference struct{ name, text string }

// references fetches refs and theirs, dependencies before their dependents.
func (r *Registry) references(ctx context.Context, refs []sr.SchemaReference, seen map[string]bool) ([]reference, error) {
	var out []reference
	for _, ref := range refs {
		key := fmt.Sprintf("%s/%d", ref.Subject, ref.Version)
		if seen[key] {
			continue
		}
		seen[key] = true
		got, err := r.cl.SchemaByVersion(ctx, ref.Subject, ref.Version)
		if err != nil {
			return nil, r.unreachable(fmt.Sprintf("fetch reference %q (subject %s version %d)", ref.Name, ref.Subject, ref.Version), err)
		}
		deeper, err := r.references(ctx, got.References, seen)
		if err != nil {
			return nil, err
		}
		out = append(append(out, deeper...), reference{name: ref.Name, text: got.Schema.Schema})
	}
	return out, nil
}

func notFound(err error) bool {
	var re *sr.ResponseError
	return errors.As(err, &re) && re.StatusCode == http.StatusNotFound
}

func (r *Registry) unreachable(what string, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	msg := err.Error()
	if re := (*sr.ResponseError)(nil); errors.As(err, &re) {
		msg = fmt.Sprintf("HTTP %d: %s", re.StatusCode, strings.TrimSpace(cmpOr(re.Message, string(re.Raw))))
	}
	return fmt.Errorf("%s from the schema registry %s: %s (nothing of this batch is written; run again once the registry answers)", what, r.url, msg)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Subject is the subject the Confluent serializers register a topic's
// schemas under (TopicNameStrategy): "<topic>-value", or "<topic>-key".
func Subject(topic string, key bool) string {
	if key {
		return topic + "-key"
	}
	return topic + "-value"
}

// Versions fetches every version of subject, oldest first, each with its
// fields as columns. A Protobuf schema's fields are its first message's,
// the one a serializer with default settings writes. A subject the
// registry does not have has no versions. A version of another type than
// fmtName, or whose records are not objects, is an error naming it.
func (r *Registry) Versions(ctx context.Context, subject, fmtName string) ([]Version, error) {
	all, err := r.cl.Schemas(ctx, subject)
	if notFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, r.unreachable(fmt.Sprintf("list the versions of subject %s", subject), err)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Version < all[j].Version })
	out := make([]Version, 0, len(all))
	for _, ss := range all {
		v := Version{Subject: subject, Version: ss.Version, ID: ss.ID}
		if want := schemaType[fmtName]; ss.Type != want {
			return nil, fmt.Errorf("subject %s version %d is a %s schema, not the %s the source reads", subject, ss.Version, ss.Type, want)
		}
		s, err := r.schema(ctx, ss.ID)
		if err != nil {
			return nil, err
		}
		switch {
		case s.missing != nil:
			return nil, fmt.Errorf("subject %s version %d: %w", subject, ss.Version, s.missing)
		case fmtName == Avro:
			v.Fields, err = AvroFields(s.avro)
		case fmtName == Protobuf:
			var md protoreflect.MessageDescriptor
			if md, err = ProtoMessage(s.proto, nil); err == nil {
				v.Fields = ProtoFields(md)
			}
		default:
			v.Fields, err = JSONSchemaFields(ss.Schema.Schema)
		}
		if err != nil {
			return nil, fmt.Errorf("subject %s version %d: %w", subject, ss.Version, err)
		}
		out = append(out, v)
	}
	return out, nil
}
