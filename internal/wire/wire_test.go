package wire

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hamba/avro/v2"
	"github.com/twmb/franz-go/pkg/sr"
	"github.com/twmb/franz-go/pkg/sr/srfake"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

const orderAvro = `{
  "type": "record", "name": "Order", "namespace": "shop",
  "fields": [
    {"name": "id", "type": "long"},
    {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID"]}},
    {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}},
    {"name": "at", "type": {"type": "long", "logicalType": "timestamp-micros"}},
    {"name": "day", "type": {"type": "int", "logicalType": "date"}},
    {"name": "customer", "type": {"type": "record", "name": "Customer", "fields": [
      {"name": "name", "type": "string"},
      {"name": "email", "type": ["null", "string"], "default": null}
    ]}},
    {"name": "lines", "type": {"type": "array", "items": {"type": "record", "name": "Line", "fields": [
      {"name": "sku", "type": "string"}, {"name": "qty", "type": "int"}
    ]}}},
    {"name": "tags", "type": {"type": "map", "values": "string"}},
    {"name": "weight", "type": "double"},
    {"name": "raw", "type": "bytes"}
  ]
}`

func TestAppendAvro(t *testing.T) {
	s, err := ParseAvro(orderAvro)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 4, 5, 6, 7, 123456000, time.UTC)
	rec := map[string]any{
		"id":       int64(42),
		"status":   "PAID",
		"amount":   big.NewRat(-1230, 100),
		"at":       at,
		"day":      time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC),
		"customer": map[string]any{"name": "Ada", "email": map[string]any{"string": "ada@example.com"}},
		"lines":    []any{map[string]any{"sku": "a", "qty": 2}, map[string]any{"sku": "b\"", "qty": -1}},
		"tags":     map[string]any{"k": "v"},
		"weight":   1.5,
		"raw":      []byte{0xff, 0x00},
	}
	b, err := avro.Marshal(avro.MustParse(orderAvro), rec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := AppendAvro(nil, s, b)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":42,"status":"PAID","amount":-12.30,"at":"2026-03-04T05:06:07.123456Z","day":"2026-03-04",` +
		`"customer":{"name":"Ada","email":"ada@example.com"},"lines":[{"sku":"a","qty":2},{"sku":"b\"","qty":-1}],` +
		`"tags":{"k":"v"},"weight":1.5,"raw":"/wA="}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}

	// The optional field's null branch, and a truncated payload.
	rec["customer"] = map[string]any{"name": "Bo", "email": nil}
	b, err = avro.Marshal(avro.MustParse(orderAvro), rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, err = AppendAvro(nil, s, b); err != nil || !strings.Contains(string(got), `"customer":{"name":"Bo","email":null}`) {
		t.Errorf("null branch: %s, %v", got, err)
	}
	var ie *InvalidError
	if _, err := AppendAvro(nil, s, b[:len(b)-1]); !errors.As(err, &ie) || !strings.Contains(err.Error(), "ends inside field raw") {
		t.Errorf("truncated payload: %v, want an InvalidError naming field raw", err)
	}
	if _, err := AppendAvro(nil, s, append(b, 0)); !errors.As(err, &ie) {
		t.Errorf("trailing byte: %v, want an InvalidError", err)
	}
}

func TestAvroNaNIsInvalid(t *testing.T) {
	const text = `{"type":"record","name":"R","fields":[{"name":"x","type":"double"}]}`
	s, err := ParseAvro(text)
	if err != nil {
		t.Fatal(err)
	}
	b, err := avro.Marshal(avro.MustParse(text), map[string]any{"x": math.NaN()})
	if err != nil {
		t.Fatal(err)
	}
	var ie *InvalidError
	if _, err := AppendAvro(nil, s, b); !errors.As(err, &ie) || !strings.Contains(err.Error(), "field x is NaN") {
		t.Errorf("NaN: %v, want an InvalidError naming field x", err)
	}
}

func TestAppendDecimal(t *testing.T) {
	for _, tc := range []struct {
		unscaled int64
		scale    int
		want     string
	}{
		{-1230, 2, "-12.30"}, {5, 3, "0.005"}, {-5, 3, "-0.005"}, {0, 2, "0.00"}, {123, 0, "123"}, {127, 1, "12.7"}, {-128, 1, "-12.8"},
	} {
		b := big.NewInt(tc.unscaled).Bytes()
		if tc.unscaled < 0 { // two's complement, minimal width
			n := new(big.Int).Add(big.NewInt(tc.unscaled), new(big.Int).Lsh(big.NewInt(1), 64))
			b = n.FillBytes(make([]byte, 8))
			for len(b) > 1 && b[0] == 0xff && b[1]&0x80 != 0 {
				b = b[1:]
			}
		} else if len(b) > 0 && b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
		if got := string(AppendDecimal(nil, b, tc.scale)); got != tc.want {
			t.Errorf("AppendDecimal(%d, %d) = %s, want %s", tc.unscaled, tc.scale, got, tc.want)
		}
	}
}

const orderProto = `syntax = "proto3";
package shop;
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
import "confluent/type/decimal.proto";

message Order {
  int64 id = 1;
  Status status = 2;
  confluent.type.Decimal amount = 3;
  google.protobuf.Timestamp at = 4;
  Customer customer = 5;
  repeated Line lines = 6;
  map<string, int32> stock = 7;
  google.protobuf.StringValue note = 8;
  uint64 big = 9;
  bytes raw = 10;
  optional string coupon = 11;

  message Line { string sku_code = 1; int32 qty = 2; }
}
message Customer { string name = 1; }
enum Status { NEW = 0; PAID = 1; }
`

func TestAppendProto(t *testing.T) {
	fd, err := CompileProto(context.Background(), orderProto, nil)
	if err != nil {
		t.Fatal(err)
	}
	md, err := ProtoMessage(fd, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	m := dynamicpb.NewMessage(md)
	f := md.Fields()
	set := func(m *dynamicpb.Message, name string, v protoreflect.Value) {
		m.Set(m.Descriptor().Fields().ByName(protoreflect.Name(name)), v)
	}
	set(m, "id", protoreflect.ValueOfInt64(1<<53+1))
	set(m, "status", protoreflect.ValueOfEnum(1))
	amount := dynamicpb.NewMessage(f.ByName("amount").Message())
	set(amount, "value", protoreflect.ValueOfBytes([]byte{0xfb, 0x32})) // -1230
	set(amount, "precision", protoreflect.ValueOfUint32(10))
	set(amount, "scale", protoreflect.ValueOfInt32(2))
	set(m, "amount", protoreflect.ValueOfMessage(amount))
	at := dynamicpb.NewMessage(f.ByName("at").Message())
	set(at, "seconds", protoreflect.ValueOfInt64(1772600767))
	set(at, "nanos", protoreflect.ValueOfInt32(5))
	set(m, "at", protoreflect.ValueOfMessage(at))
	lines := m.Mutable(f.ByName("lines")).List()
	line := dynamicpb.NewMessage(f.ByName("lines").Message())
	set(line, "sku_code", protoreflect.ValueOfString("a"))
	set(line, "qty", protoreflect.ValueOfInt32(2))
	lines.Append(protoreflect.ValueOfMessage(line))
	stock := m.Mutable(f.ByName("stock")).Map()
	for _, k := range []string{"z", "a", "m"} {
		stock.Set(protoreflect.ValueOfString(k).MapKey(), protoreflect.ValueOfInt32(int32(len(k))))
	}
	note := dynamicpb.NewMessage(f.ByName("note").Message())
	set(note, "value", protoreflect.ValueOfString("hi"))
	set(m, "note", protoreflect.ValueOfMessage(note))
	set(m, "big", protoreflect.ValueOfUint64(math.MaxUint64))
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := AppendProto(nil, md, b)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":9007199254740993,"status":"PAID","amount":-12.30,"at":"2026-03-04T05:06:07.000000005Z",` +
		`"customer":null,"lines":[{"sku_code":"a","qty":2}],"stock":{"a":1,"m":1,"z":1},"note":"hi",` +
		`"big":18446744073709551615,"raw":"","coupon":null}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Map entries are nested messages too, as in Confluent's serializers:
	// StockEntry (field 7's) comes before Line, declared after it.
	nested, err := ProtoMessage(fd, []int{0, 1})
	if err != nil || nested.FullName() != "shop.Order.Line" {
		t.Errorf("index [0 1] = %v, %v; want shop.Order.Line", nested.FullName(), err)
	}
	if _, err := ProtoMessage(fd, []int{5}); err == nil {
		t.Error("index [5] found a message")
	}
}

func frame(id int, payload []byte) []byte {
	b := []byte{0, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], uint32(id))
	return append(b, payload...)
}

func TestRegistry(t *testing.T) {
	reg := srfake.New()
	defer reg.Close()
	var requests atomic.Int64
	down := atomic.Bool{}
	reg.Intercept(func(w http.ResponseWriter, r *http.Request) bool {
		requests.Add(1)
		if down.Load() {
			http.Error(w, `{"error_code":50001,"message":"backend unavailable"}`, http.StatusServiceUnavailable)
			return true
		}
		return false
	})
	avroID, _, err := reg.RegisterSchema("orders-value", sr.Schema{Schema: `{"type":"record","name":"R","fields":[{"name":"n","type":"long"}]}`, Type: sr.TypeAvro})
	if err != nil {
		t.Fatal(err)
	}
	protoID, _, err := reg.RegisterSchema("p-value", sr.Schema{Schema: "syntax = \"proto3\";\nmessage A { int32 a = 1; }\nmessage B { string b = 1; }\n", Type: sr.TypeProtobuf})
	if err != nil {
		t.Fatal(err)
	}
	jsonID, _, err := reg.RegisterSchema("j-value", sr.Schema{Schema: `{"type":"object"}`, Type: sr.TypeJSON})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRegistry(RegistryConfig{URL: reg.URL(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var ie *InvalidError

	if err := r.Check(ctx); err != nil {
		t.Errorf("Check of a registry that answers: %v", err)
	}
	down.Store(true)
	if err := r.Check(ctx); err == nil || !strings.Contains(err.Error(), "HTTP 503") {
		t.Errorf("Check of a registry answering 503: %v", err)
	}
	_, err = r.Append(ctx, nil, Avro, frame(avroID, []byte{0x54}))
	if err == nil || errors.As(err, &ie) || !strings.Contains(err.Error(), "HTTP 503") || !strings.Contains(err.Error(), "run again") {
		t.Fatalf("registry down: %v, want an error that is not an InvalidError, naming HTTP 503", err)
	}
	down.Store(false)

	for range 3 {
		got, err := r.Append(ctx, nil, Avro, frame(avroID, []byte{0x54}))
		if err != nil || string(got) != `{"n":42}` {
			t.Fatalf("avro: %s, %v", got, err)
		}
	}
	before := requests.Load()
	if _, err := r.Append(ctx, nil, Avro, frame(avroID, []byte{0x54})); err != nil || requests.Load() != before {
		t.Errorf("a cached schema was fetched again (%d requests, then %d), %v", before, requests.Load(), err)
	}
	// Message index [1] (count 1, index 1, zigzag) is message B.
	got, err := r.Append(ctx, nil, Protobuf, frame(protoID, []byte{2, 2, 0x0a, 1, 'x'}))
	if err != nil || string(got) != `{"b":"x"}` {
		t.Errorf("protobuf index [1]: %s, %v", got, err)
	}
	got, err = r.Append(ctx, nil, Protobuf, frame(protoID, []byte{0, 0x08, 7}))
	if err != nil || string(got) != `{"a":7}` {
		t.Errorf("protobuf index [0] shortcut: %s, %v", got, err)
	}
	got, err = r.Append(ctx, nil, JSONSchema, frame(jsonID, []byte(`{"x":[1,2]}`)))
	if err != nil || string(got) != `{"x":[1,2]}` {
		t.Errorf("json schema: %s, %v", got, err)
	}
	if got, err = r.Append(ctx, nil, Avro, nil); err != nil || string(got) != "null" {
		t.Errorf("tombstone: %s, %v", got, err)
	}

	for _, tc := range []struct {
		name, format string
		payload      []byte
		reason       string
	}{
		{"unknown id", Avro, frame(9999, []byte{0}), "schema id 9999 is not in the schema registry"},
		{"not framed", Avro, []byte(`{"n":1}`), "not in the Confluent wire format"},
		{"short", Avro, []byte{0, 0}, "not in the Confluent wire format"},
		{"wrong type", Protobuf, frame(avroID, []byte{0}), "is AVRO, not the PROTOBUF"},
		{"bad json", JSONSchema, frame(jsonID, []byte(`{"x":`)), "not JSON"},
	} {
		_, err := r.Append(ctx, nil, tc.format, tc.payload)
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: %v, want an InvalidError saying %q", tc.name, err, tc.reason)
		}
	}
}

// TestAvroHostileCounts: nested arrays of nulls declare a trillion items in
// a few bytes; decoding stops at the item budget instead of working on.
func TestAvroHostileCounts(t *testing.T) {
	s, err := ParseAvro(`{"type": "array", "items": {"type": "array", "items": "null"}}`)
	if err != nil {
		t.Fatal(err)
	}
	// Blocks of 1,000,000 (zigzag varint) arrays, each of 1,000,000 nulls.
	million := binary.AppendVarint(nil, 1_000_000)
	payload := append(append([]byte{}, million...), million...)
	start := time.Now()
	var ie *InvalidError
	if _, err := AppendAvro(nil, s, payload); !errors.As(err, &ie) || !strings.Contains(err.Error(), "array or map items") {
		t.Errorf("hostile counts: %v, want an InvalidError about the items", err)
	}
	t.Logf("refused in %s", time.Since(start))
}

// TestAppendTime compares the hand-written RFC 3339 writer with
// time.AppendFormat, over years 0001 to 9999 and beyond.
func TestAppendTime(t *testing.T) {
	layouts := map[int]string{-1: time.DateOnly, 0: "2006-01-02T15:04:05Z07:00", 3: "2006-01-02T15:04:05.000Z07:00",
		6: "2006-01-02T15:04:05.000000Z07:00", 9: "2006-01-02T15:04:05.000000000Z07:00"}
	times := []time.Time{
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-5, 6, 7, 8, 9, 10, 11, time.UTC), time.Unix(0, 0).UTC(),
		time.UnixMicro(-1).UTC(), time.UnixMilli(1772600767123).UTC(),
	}
	for i := range 2000 {
		times = append(times, time.Unix(int64(i)*159_873_121-150_000_000_000, int64(i)*7_919_777%1e9).UTC())
	}
	for _, tm := range times {
		for frac, layout := range layouts {
			want := `"` + tm.Format(layout) + `"`
			if got := string(appendTime(nil, tm, frac)); got != want {
				t.Fatalf("appendTime(%v, %d) = %s, want %s", tm, frac, got, want)
			}
		}
	}
}

// TestRegistryBasicAuth: the credentials go as HTTP basic authentication;
// refused ones fail Check with what to set.
func TestRegistryBasicAuth(t *testing.T) {
	reg := srfake.New(srfake.WithAuth("Basic " + base64.StdEncoding.EncodeToString([]byte("streamctl:s3cret"))))
	defer reg.Close()
	ctx := context.Background()
	good, err := NewRegistry(RegistryConfig{URL: reg.URL(), Username: "streamctl", Password: "s3cret", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := good.Check(ctx); err != nil {
		t.Errorf("Check with the right credentials: %v", err)
	}
	bad, err := NewRegistry(RegistryConfig{URL: reg.URL(), Username: "streamctl", Password: "wrong", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := bad.Check(ctx); err == nil || !strings.Contains(err.Error(), "refused the credentials (HTTP 403)") || !strings.Contains(err.Error(), "SCHEMA_REGISTRY_PASSWORD") {
		t.Errorf("Check with a wrong password: %v", err)
	}
}
