package wire

import (
	"math/big"
	"testing"
	"time"

	"github.com/hamba/avro/v2"
)

// BenchmarkAppendAvro decodes an order of five fields (a decimal and a
// timestamp among them) into JSON.
func BenchmarkAppendAvro(b *testing.B) {
	const text = `{"type": "record", "name": "Order", "fields": [
  {"name": "id", "type": "long"},
  {"name": "country", "type": "string"},
  {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
  {"name": "note", "type": "string"},
  {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}}]}`
	s, err := ParseAvro(text)
	if err != nil {
		b.Fatal(err)
	}
	datum, err := avro.Marshal(avro.MustParse(text), map[string]any{"id": int64(123456), "country": "DE", "amount": big.NewRat(123456, 100),
		"note": "order 123456 of the benchmark stream", "at": time.UnixMilli(1772600767123)})
	if err != nil {
		b.Fatal(err)
	}
	var dst []byte
	b.ReportAllocs()
	for b.Loop() {
		if dst, err = AppendAvro(dst[:0], s, datum); err != nil {
			b.Fatal(err)
		}
	}
}
