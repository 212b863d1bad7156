package e2e

import (
	"context"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/hamba/avro/v2"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/streamctl/streamctl/internal/testenv"
)

// benchAvroSchema is BenchmarkKafkaAvro's record: the JSON benchmark's
// fields, the amount a decimal, plus a timestamp.
const benchAvroSchema = `{"type": "record", "name": "Order", "fields": [
  {"name": "id", "type": "long"},
  {"name": "country", "type": "string"},
  {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
  {"name": "note", "type": "string"},
  {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}}
]}`

// benchOrder is the record as hamba/avro decodes it into Go.
type benchOrder struct {
	ID      int64     `avro:"id"`
	Country string    `avro:"country"`
	Amount  *big.Rat  `avro:"amount"`
	Note    string    `avro:"note"`
	At      time.Time `avro:"at"`
}

// BenchmarkKafkaAvro measures an Avro topic framed for a schema registry →
// local Parquet through the streamctl binary, in records per second, beside
// a plain franz-go consumer that decodes every value with hamba/avro in the
// same run (the floor: the broker, the wire and the Avro decoding).
//
//	go test -run '^$' -bench BenchmarkKafkaAvro -benchtime 3x ./internal/e2e/
func BenchmarkKafkaAvro(b *testing.B) {
	if raceEnabled {
		b.Skip("figures under the race detector mean nothing")
	}
	n := benchRecords(b)
	broker := testenv.Kafka(b)
	reg := testenv.StartSchemaRegistry(b)
	const topic = "bench-avro"
	broker.CreateTopic(b, topic, 3)
	ids := testenv.ProduceWithRegistry(b, broker, reg, topic, []testenv.RegistrySchema{{Subject: topic + "-value", Type: "AVRO", Schema: benchAvroSchema}}, nil)
	schema, err := avro.Parse(benchAvroSchema)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	produceAvroBenchRecords(b, broker, topic, schema, ids[0], n)
	b.Logf("produced %d records in %s", n, time.Since(start).Round(time.Millisecond))

	b.Run("franz-go-hamba", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			before := selfCPU(b)
			consumeAvroFranz(b, broker, topic, schema, n)
			cpu += selfCPU(b) - before
		}
		reportRecordsPerSec(b, n)
		reportCPU(b, cpu, n)
	})

	b.Run("streamctl-parquet", func(b *testing.B) {
		hcl := fmt.Sprintf(`
source "kafka" "bench" {
  brokers      = [%q]
  topic        = %q
  value_format = "avro"

  schema_registry {
    url = %q
  }
}

sink "bench" {
  source = source.kafka.bench
  format = "parquet"

  column "id" {
    type = "int64"
  }
  column "country" {
    type = "string"
  }
  column "amount" {
    type = "double"
  }
  column "note" {
    type = "string"
  }
  column "at" {
    type = "timestamp"
  }

  batch {
    max_records = 100000
  }

  destination "local" "out" {
    path = "out"
  }
}
`, broker.Addr, topic, reg.URL)
		benchApply(b, hcl, n)
	})
}

// produceAvroBenchRecords writes n records round-robin over 3 partitions,
// framed as the registry's serializers frame them.
func produceAvroBenchRecords(b *testing.B, broker *testenv.KafkaBroker, topic string, schema avro.Schema, id int, n int64) {
	b.Helper()
	header := []byte{0, byte(id >> 24), byte(id >> 16), byte(id >> 8), byte(id)}
	produceBench(b, broker, topic, n, func(i int64) []byte {
		datum, err := avro.Marshal(schema, benchOrder{
			ID: i, Country: benchCountries[i%5], Amount: big.NewRat(i%100000, 100),
			Note: fmt.Sprintf("order %d of the benchmark stream", i), At: time.UnixMilli(1772600767000 + i),
		})
		if err != nil {
			b.Fatal(err)
		}
		return append(append(make([]byte, 0, 5+len(datum)), header...), datum...)
	})
}

// consumeAvroFranz reads the topic from the start with a plain franz-go
// consumer and decodes every value (after its 5-byte frame) with hamba/avro.
func consumeAvroFranz(b *testing.B, broker *testenv.KafkaBroker, topic string, schema avro.Schema, n int64) {
	b.Helper()
	cl := benchConsumer(b, broker, topic)
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var seen, sum int64
	var o benchOrder
	for seen < n {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			b.Fatalf("consume: %v (after %d of %d records)", err, seen, n)
		}
		fs.EachRecord(func(r *kgo.Record) {
			if err := avro.Unmarshal(schema, r.Value[5:], &o); err != nil {
				b.Fatalf("decode: %v", err)
			}
			seen++
			sum += o.ID
		})
	}
	if seen != n || sum != n*(n-1)/2 {
		b.Fatalf("consumed %d records (ids summing to %d), want %d", seen, sum, n)
	}
}
