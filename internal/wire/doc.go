// Package wire turns records described by a schema (Avro, Protobuf, JSON
// Schema, usually framed in the Confluent wire format behind a schema
// registry) into the canonical JSON the pipeline reads.
//
// The mapping is one table, documented in website/content/schema-registry.md:
// records and messages become objects with the schema's field names in schema
// order, unions their branch's value, enums their symbol, integers JSON
// numbers, bytes standard base64, decimals exact literals with exactly scale
// fractional digits, dates "YYYY-MM-DD", timestamps RFC 3339 UTC with the
// source's precision, Avro durations ISO 8601 ("P14M3DT4.005S"), Protobuf's
// well-known types as Protobuf's JSON mapping has them (but an Any, whose
// packed type is unknown: its type URL and base64 bytes). The same payload
// and schema always give the same bytes.
//
// A schema's fields are also columns (AvroFields, ProtoFields,
// JSONSchemaFields): a sink with columns = "from_schema" takes the columns
// that hold every version of its subject (DeriveColumns), and plan refuses a
// version that declared columns cannot hold (CheckDeclared).
//
// A payload that cannot be decoded is an *InvalidError: the record is
// invalid, and the sink's on_invalid decides. A registry that cannot be
// reached is any other error: the batch fails before anything is staged.
package wire
