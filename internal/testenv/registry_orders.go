package testenv

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// Orders for schema registry topics: nested records, arrays, maps, decimals,
// timestamps, enums and optional fields, in Avro, Protobuf and JSON Schema,
// with a second schema version (adding the optional field coupon) from
// record EvolvedFrom on. Each format's Want gives the canonical JSON
// streamctl makes of each record, computed from the same numbers the
// producer is given, never from streamctl's output.

// OrderCount orders are produced; the ones from EvolvedFrom on with v2.
const (
	OrderCount  = 10
	EvolvedFrom = 6
)

var orderStatuses = []string{"NEW", "PAID", "SHIPPED"}

// Order is one order's numbers.
type Order struct {
	ID       int64
	Status   string
	Amount   int64 // unscaled, scale 2
	AtMicros int64
	Day      int32 // days since the epoch
	Name     string
	Email    *string
	Lines    []OrderLine
	Tags     [][2]string // in the producer's order
	Coupon   *string     // v2 only
}

// OrderLine is one line of an order.
type OrderLine struct {
	SKU   string
	Qty   int32
	Price int64 // unscaled, scale 2
}

// Orders returns the orders the fixture produces.
func Orders() []Order {
	var out []Order
	for i := range OrderCount {
		o := Order{
			ID:       int64(i + 1),
			Status:   orderStatuses[i%3],
			Amount:   int64(i)*12345 - 30000,
			AtMicros: 1772600767123456 + int64(i)*1000001,
			Day:      20516 + int32(i),
			Name:     fmt.Sprintf("customer \"%d\" é", i),
			Tags:     [][2]string{{"src", "web"}, {"idx", fmt.Sprint(i)}},
		}
		if i%2 == 1 {
			e := fmt.Sprintf("c%d@example.com", i)
			o.Email = &e
		}
		for j := range i % 3 {
			o.Lines = append(o.Lines, OrderLine{SKU: fmt.Sprintf("sku-%d", j), Qty: int32(j + 1), Price: int64(j+1)*199 - 250})
		}
		if i >= EvolvedFrom && i%2 == 0 {
			c := fmt.Sprintf("SAVE%d", i)
			o.Coupon = &c
		}
		out = append(out, o)
	}
	return out
}

// twos is v as a minimal big-endian two's-complement integer, as Avro and
// Confluent's Protobuf decimal hold an unscaled value.
func twos(v int64) []byte {
	n := big.NewInt(v)
	if v >= 0 {
		b := n.Bytes()
		if len(b) == 0 || b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
		return b
	}
	b := new(big.Int).Add(n, new(big.Int).Lsh(big.NewInt(1), 64)).FillBytes(make([]byte, 8))
	for len(b) > 1 && b[0] == 0xff && b[1]&0x80 != 0 {
		b = b[1:]
	}
	return b
}

// Decimal2 is the unscaled v with scale 2 as an exact literal: -30000 is
// "-300.00".
func Decimal2(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func optString(s *string) string {
	if s == nil {
		return "null"
	}
	return jsonString(*s)
}

// AvroOrderSchemas are the two versions of the Avro schema, subject subject.
func AvroOrderSchemas(subject string) []RegistrySchema {
	const fields = `
    {"name": "id", "type": "long"},
    {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID", "SHIPPED"]}},
    {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 2}},
    {"name": "at", "type": {"type": "long", "logicalType": "timestamp-micros"}},
    {"name": "day", "type": {"type": "int", "logicalType": "date"}},
    {"name": "customer", "type": {"type": "record", "name": "Customer", "fields": [
      {"name": "name", "type": "string"},
      {"name": "email", "type": ["null", "string"], "default": null}]}},
    {"name": "lines", "type": {"type": "array", "items": {"type": "record", "name": "Line", "fields": [
      {"name": "sku", "type": "string"},
      {"name": "qty", "type": "int"},
      {"name": "price", "type": {"type": "bytes", "logicalType": "decimal", "precision": 8, "scale": 2}}]}}},
    {"name": "tags", "type": {"type": "map", "values": "string"}}`
	v1 := `{"type": "record", "name": "Order", "namespace": "shop", "fields": [` + fields + `]}`
	v2 := `{"type": "record", "name": "Order", "namespace": "shop", "fields": [` + fields + `,
    {"name": "coupon", "type": ["null", "string"], "default": null}]}`
	return []RegistrySchema{{Subject: subject, Type: "AVRO", Schema: v1}, {Subject: subject, Type: "AVRO", Schema: v2}}
}

// AvroOrderRecords are the orders as the Avro producer is given them,
// keyed by their id, on partition partition(i).
func AvroOrderRecords(partition func(i int) int32) []RegistryRecord {
	var out []RegistryRecord
	for i, o := range Orders() {
		tags := map[string]any{}
		for _, kv := range o.Tags {
			tags[kv[0]] = kv[1]
		}
		lines := []any{}
		for _, l := range o.Lines {
			lines = append(lines, map[string]any{"sku": l.SKU, "qty": l.Qty, "price": Bytes(twos(l.Price))})
		}
		v := map[string]any{
			"id": o.ID, "status": o.Status, "amount": Bytes(twos(o.Amount)), "at": o.AtMicros, "day": o.Day,
			"customer": map[string]any{"name": o.Name, "email": o.Email}, "lines": lines, "tags": tags,
		}
		schema := 0
		if i >= EvolvedFrom {
			schema, v["coupon"] = 1, o.Coupon
		}
		key := fmt.Sprint(o.ID)
		out = append(out, RegistryRecord{Schema: schema, Value: v, Key: &key, Partition: partition(i)})
	}
	return out
}

func orderAt(o Order) time.Time { return time.UnixMicro(o.AtMicros).UTC() }

func orderLinesJSON(o Order) string {
	var lines []string
	for _, l := range o.Lines {
		lines = append(lines, fmt.Sprintf(`{"sku":%s,"qty":%d,"price":%s}`, jsonString(l.SKU), l.Qty, Decimal2(l.Price)))
	}
	return "[" + strings.Join(lines, ",") + "]"
}

// AvroOrderWant is the canonical JSON of order i read with the Avro schema it
// was written with. Map entries keep the producer's order: JSON objects
// parse from the spec in the order they were written, sorted by key.
func AvroOrderWant(i int) string {
	o := Orders()[i]
	s := fmt.Sprintf(`{"id":%d,"status":%q,"amount":%s,"at":%q,"day":%q,"customer":{"name":%s,"email":%s},"lines":%s,"tags":{"idx":%s,"src":"web"}`,
		o.ID, o.Status, Decimal2(o.Amount), orderAt(o).Format("2006-01-02T15:04:05.000000Z"), time.Unix(int64(o.Day)*86400, 0).UTC().Format(time.DateOnly),
		jsonString(o.Name), optString(o.Email), orderLinesJSON(o), jsonString(o.Tags[1][1]))
	if i >= EvolvedFrom {
		s += `,"coupon":` + optString(o.Coupon)
	}
	return s + "}"
}

// Protobuf's well-known and Confluent types are registered as references,
// as the registry's JavaScript client needs their text to encode.
const (
	protoTimestamp = `syntax = "proto3";
package google.protobuf;
message Timestamp {
  int64 seconds = 1;
  int32 nanos = 2;
}
`
	protoDecimal = `syntax = "proto3";
package confluent.type;
message Decimal {
  bytes value = 1;
  uint32 precision = 2;
  int32 scale = 3;
}
`
)

// ProtoOrderSchemas are the Protobuf schemas: the two references, then the
// two versions of Order, subject subject.
func ProtoOrderSchemas(subject string) []RegistrySchema {
	body := func(coupon string) string {
		return `syntax = "proto3";
package shop;
import "google/protobuf/timestamp.proto";
import "confluent/type/decimal.proto";

message Order {
  int64 id = 1;
  Status status = 2;
  confluent.type.Decimal amount = 3;
  google.protobuf.Timestamp at = 4;
  Customer customer = 5;
  repeated Line lines = 6;
  map<string, string> tags = 7;` + coupon + `
}
message Customer {
  string name = 1;
  optional string email = 2;
}
message Line {
  string sku = 1;
  int32 qty = 2;
  confluent.type.Decimal price = 3;
}
enum Status {
  NEW = 0;
  PAID = 1;
  SHIPPED = 2;
}
`
	}
	refs := []RegistryReference{
		{Name: "google/protobuf/timestamp.proto", Subject: "google/protobuf/timestamp.proto", Version: 1},
		{Name: "confluent/type/decimal.proto", Subject: "confluent/type/decimal.proto", Version: 1},
	}
	return []RegistrySchema{
		{Subject: "google/protobuf/timestamp.proto", Type: "PROTOBUF", Schema: protoTimestamp},
		{Subject: "confluent/type/decimal.proto", Type: "PROTOBUF", Schema: protoDecimal},
		{Subject: subject, Type: "PROTOBUF", Schema: body(""), References: refs},
		{Subject: subject, Type: "PROTOBUF", Schema: body("\n  optional string coupon = 8;"), References: refs},
	}
}

func protoDecimal2(v int64) map[string]any {
	return map[string]any{"value": Bytes(twos(v)), "precision": 12, "scale": 2}
}

// ProtoOrderRecords are the orders as the Protobuf producer is given them.
func ProtoOrderRecords(partition func(i int) int32) []RegistryRecord {
	var out []RegistryRecord
	for i, o := range Orders() {
		tags := map[string]any{}
		for _, kv := range o.Tags {
			tags[kv[0]] = kv[1]
		}
		lines := []any{}
		for _, l := range o.Lines {
			lines = append(lines, map[string]any{"sku": l.SKU, "qty": l.Qty, "price": protoDecimal2(l.Price)})
		}
		customer := map[string]any{"name": o.Name}
		if o.Email != nil {
			customer["email"] = *o.Email
		}
		at := orderAt(o)
		v := map[string]any{
			// protobufjs takes an enum's number.
			"id": o.ID, "status": i % 3, "amount": protoDecimal2(o.Amount),
			"at":       map[string]any{"seconds": at.Unix(), "nanos": at.Nanosecond()},
			"customer": customer, "lines": lines, "tags": tags,
		}
		schema := 2
		if i >= EvolvedFrom {
			schema = 3
			if o.Coupon != nil {
				v["coupon"] = *o.Coupon
			}
		}
		key := fmt.Sprint(o.ID)
		out = append(out, RegistryRecord{Schema: schema, Value: v, Key: &key, Partition: partition(i)})
	}
	return out
}

// ProtoOrderWant is the canonical JSON of order i read with its Protobuf
// schema: map keys sorted, timestamps to the nanosecond.
func ProtoOrderWant(i int) string {
	o := Orders()[i]
	s := fmt.Sprintf(`{"id":%d,"status":%q,"amount":%s,"at":%q,"customer":{"name":%s,"email":%s},"lines":%s,"tags":{"idx":%s,"src":"web"}`,
		o.ID, o.Status, Decimal2(o.Amount), orderAt(o).Format("2006-01-02T15:04:05.000000000Z"),
		jsonString(o.Name), optString(o.Email), orderLinesJSON(o), jsonString(o.Tags[1][1]))
	if i >= EvolvedFrom {
		s += `,"coupon":` + optString(o.Coupon)
	}
	return s + "}"
}

// JSONOrderSchemas are the two versions of the JSON Schema, subject subject.
func JSONOrderSchemas(subject string) []RegistrySchema {
	props := `"id": {"type": "integer"},
    "status": {"enum": ["NEW", "PAID", "SHIPPED"]},
    "amount": {"type": "string"},
    "at": {"type": "string"},
    "customer": {"type": "object", "properties": {"name": {"type": "string"}, "email": {"type": ["string", "null"]}}, "required": ["name"]},
    "lines": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}, "price": {"type": "string"}}}},
    "tags": {"type": "object", "additionalProperties": {"type": "string"}}`
	v1 := `{"type": "object", "properties": {` + props + `}, "required": ["id"]}`
	v2 := `{"type": "object", "properties": {` + props + `, "coupon": {"type": ["string", "null"]}}, "required": ["id"]}`
	return []RegistrySchema{{Subject: subject, Type: "JSON", Schema: v1}, {Subject: subject, Type: "JSON", Schema: v2}}
}

// jsonOrder is order i as the JSON Schema producer is given it (decimals as
// strings, which JSON numbers in JavaScript could not hold exactly).
func jsonOrder(i int) map[string]any {
	o := Orders()[i]
	lines := []any{}
	for _, l := range o.Lines {
		lines = append(lines, map[string]any{"sku": l.SKU, "qty": l.Qty, "price": Decimal2(l.Price)})
	}
	v := map[string]any{
		"id": o.ID, "status": o.Status, "amount": Decimal2(o.Amount), "at": orderAt(o).Format("2006-01-02T15:04:05.000000Z"),
		"customer": map[string]any{"name": o.Name, "email": o.Email}, "lines": lines,
		"tags": map[string]any{"src": "web", "idx": o.Tags[1][1]},
	}
	if i >= EvolvedFrom {
		v["coupon"] = o.Coupon
	}
	return v
}

// JSONOrderRecords are the orders as the JSON Schema producer is given them.
func JSONOrderRecords(partition func(i int) int32) []RegistryRecord {
	var out []RegistryRecord
	for i, o := range Orders() {
		schema := 0
		if i >= EvolvedFrom {
			schema = 1
		}
		key := fmt.Sprint(o.ID)
		out = append(out, RegistryRecord{Schema: schema, Value: jsonOrder(i), Key: &key, Partition: partition(i)})
	}
	return out
}

// JSONOrderWant is order i as the producer serializes it: JSON.stringify of
// the spec's object, whose keys encoding/json sorted.
func JSONOrderWant(i int) string {
	b, err := json.Marshal(jsonOrder(i))
	if err != nil {
		panic(err)
	}
	return string(b)
}
