package kafka_test

import (
	"context"
	"encoding/binary"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hamba/avro/v2"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sr"
	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/internal/wire"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/kafka"
)

func confluentFrame(id int, payload []byte) []byte {
	b := make([]byte, 5, 5+len(payload))
	binary.BigEndian.PutUint32(b[1:], uint32(id))
	return append(b, payload...)
}

// TestAvroValues reads Avro keys and values through a registry: decoded
// records, the invalid ones marked with their reason, and a registry that
// answers 503 failing the Read rather than marking records invalid.
func TestAvroValues(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "avro")
	reg := srfake.New()
	defer reg.Close()
	var down atomic.Bool
	reg.Intercept(func(w http.ResponseWriter, _ *http.Request) bool {
		if down.Load() {
			http.Error(w, `{"error_code":50301,"message":"unavailable"}`, http.StatusServiceUnavailable)
		}
		return down.Load()
	})
	const schemaText = `{"type":"record","name":"Order","fields":[{"name":"id","type":"long"},{"name":"note","type":["null","string"],"default":null}]}`
	id, _, err := reg.RegisterSchema("avro-value", sr.Schema{Schema: schemaText, Type: sr.TypeAvro})
	if err != nil {
		t.Fatal(err)
	}
	keyID, _, err := reg.RegisterSchema("avro-key", sr.Schema{Schema: `"string"`, Type: sr.TypeAvro})
	if err != nil {
		t.Fatal(err)
	}
	s, err := avro.Parse(schemaText)
	if err != nil {
		t.Fatal(err)
	}
	enc := func(v map[string]any) []byte {
		p, err := avro.Marshal(s, v)
		if err != nil {
			t.Fatal(err)
		}
		return confluentFrame(id, p)
	}
	key := confluentFrame(keyID, []byte{2, 'k'}) // "k"
	b.Produce(t, "avro",
		&kgo.Record{Key: key, Value: enc(map[string]any{"id": int64(1), "note": nil})},
		&kgo.Record{Key: key, Value: enc(map[string]any{"id": int64(2), "note": map[string]any{"string": "hi"}})},
		&kgo.Record{Key: key, Value: []byte(`{"id":3}`)},
		&kgo.Record{Key: key, Value: confluentFrame(777, []byte{6})},
		&kgo.Record{Key: key, Value: nil},
	)

	src := newSource(t, b.Addr, "avro", func(c *kafka.Config) {
		c.ValueFormat, c.KeyFormat = kafka.FormatAvro, kafka.FormatAvro
		c.SchemaRegistry = &kafka.SchemaRegistryConfig{URL: reg.URL()}
	})
	type got struct{ key, value, invalid string }
	var out []got
	err = src.Read(context.Background(), "0", 0, 5, func(r *providers.Record) error {
		g := got{key: string(r.Key), value: string(r.Value)}
		if r.Invalid != nil {
			g.invalid = r.Invalid.Error()
			g.value = ""
		}
		out = append(out, g)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []got{
		{`"k"`, `{"id":1,"note":null}`, ""},
		{`"k"`, `{"id":2,"note":"hi"}`, ""},
		{`"k"`, "", "value: payload is not in the Confluent wire format (a 0 byte, a 4-byte schema id, the data): it starts with 7b 22 69 64 22"},
		{`"k"`, "", "value: schema id 777 is not in the schema registry " + reg.URL()},
		{`"k"`, "null", ""},
	}
	if len(out) != len(want) {
		t.Fatalf("read %v, want %v", out, want)
	}
	for i := range want {
		if out[i] != want[i] {
			t.Errorf("record %d = %+v, want %+v", i, out[i], want[i])
		}
	}

	// A fresh source has no schema cached: with the registry down, the
	// read fails with what to do, and no record is delivered.
	down.Store(true)
	src = newSource(t, b.Addr, "avro", func(c *kafka.Config) {
		c.ValueFormat = kafka.FormatAvro
		c.SchemaRegistry = &kafka.SchemaRegistryConfig{URL: reg.URL()}
	})
	delivered := 0
	err = src.Read(context.Background(), "0", 0, 5, func(*providers.Record) error { delivered++; return nil })
	var ie *wire.InvalidError
	if err == nil || errors.As(err, &ie) || delivered != 0 || !strings.Contains(err.Error(), "decode the record at offset 0") || !strings.Contains(err.Error(), "HTTP 503") {
		t.Errorf("registry down: %d records delivered, error %v; want none and an error naming offset 0 and HTTP 503", delivered, err)
	}
}

// TestRegistryClientFrames reads records that the registry's JavaScript
// client registered and framed, in the three formats, across a schema
// evolution: each decodes to the JSON computed from what the producer was
// given, and each schema is fetched once.
func TestRegistryClientFrames(t *testing.T) {
	t.Parallel()
	b := testenv.Kafka(t, "avro-orders", "proto-orders", "json-orders")
	reg := testenv.StartSchemaRegistry(t)
	onePartition := func(int) int32 { return 0 }
	for _, tc := range []struct {
		topic, format string
		schemas       []testenv.RegistrySchema
		records       []testenv.RegistryRecord
		want          func(int) string
	}{
		{"avro-orders", kafka.FormatAvro, testenv.AvroOrderSchemas("avro-orders-value"), testenv.AvroOrderRecords(onePartition), testenv.AvroOrderWant},
		{"proto-orders", kafka.FormatProtobuf, testenv.ProtoOrderSchemas("proto-orders-value"), testenv.ProtoOrderRecords(onePartition), testenv.ProtoOrderWant},
		{"json-orders", kafka.FormatJSONSchema, testenv.JSONOrderSchemas("json-orders-value"), testenv.JSONOrderRecords(onePartition), testenv.JSONOrderWant},
	} {
		testenv.ProduceWithRegistry(t, b, reg, tc.topic, tc.schemas, tc.records)
		src := newSource(t, b.Addr, tc.topic, func(c *kafka.Config) {
			c.ValueFormat = tc.format
			c.SchemaRegistry = &kafka.SchemaRegistryConfig{URL: reg.URL}
		})
		before := reg.SchemaFetches()
		got := mustRead(t, src, "0", 0, testenv.OrderCount)
		if len(got) != testenv.OrderCount {
			t.Fatalf("%s: read %d records, want %d", tc.topic, len(got), testenv.OrderCount)
		}
		for i, r := range got {
			if want := tc.want(i); r.Value != want {
				t.Errorf("%s record %d:\n got  %s\n want %s", tc.topic, i, r.Value, want)
			}
		}
		if n := reg.SchemaFetches() - before; n != 2 {
			t.Errorf("%s: %d schemas fetched by id for 2 versions, want each once", tc.topic, n)
		}
	}
}
