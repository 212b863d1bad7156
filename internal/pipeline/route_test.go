package pipeline

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/providers"
)

// Records without a route_by value: one lacks the field, one has null.
var unroutable = []*providers.Record{
	{Partition: "1", Offset: 10, Value: []byte(`{"id":1,"customer_id":5}`)},
	{Partition: "1", Offset: 11, Value: []byte(`{"id":2}`)},
	{Partition: "2", Offset: 12, Value: []byte(`{"id":3,"customer_id":null}`)},
	{Partition: "2", Offset: 13, Value: []byte(`{"id":4,"customer_id":6}`)},
}

// routeLayouts route by customer_id through a helper field (pass-through
// JSONL) and through a nullable column.
func routeLayouts(onInvalid string) map[string]Layout {
	names := []string{"a", "b"}
	return map[string]Layout{
		"pass-through": {Format: "jsonl", RouteBy: "customer_id", Destinations: names, OnInvalid: onInvalid},
		"column": {Format: "jsonl", RouteBy: "customer_id", Destinations: names, OnInvalid: onInvalid,
			Columns: []format.Column{{Name: "id", Type: "int64"}, {Name: "customer_id", Type: "int64"}}},
	}
}

// A record the route cannot be read from is not sent to whichever
// destination the empty key hashes to: with on_invalid = "fail" it fails
// the batch, naming the field and the record.
func TestUnroutableRecordFails(t *testing.T) {
	for name, l := range routeLayouts("") {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				rec  *providers.Record
				want string
			}{
				{unroutable[1], `invalid record at partition 1 offset 11: field "customer_id": missing, and route_by needs it to choose the record's destination`},
				{unroutable[2], `invalid record at partition 2 offset 12: field "customer_id": null, and route_by needs a value to choose the record's destination`},
			} {
				// A declared column is named as such, as in its other errors.
				want := tc.want
				if name == "column" {
					want = strings.Replace(want, `field "customer_id"`, `column "customer_id"`, 1)
				}
				t.Run(fmt.Sprintf("offset %d", tc.rec.Offset), func(t *testing.T) {
					modes(t, func(t *testing.T, seq bool) {
						l.Sequential = seq
						w, err := New(l, 0, []int{0, 1}, newMemOutput())
						if err != nil {
							t.Fatal(err)
						}
						defer w.Abort()
						if err := w.Write(unroutable[0]); err != nil {
							t.Fatal(err)
						}
						err = w.Write(tc.rec)
						var ie *InvalidRecordError
						if !errors.As(err, &ie) {
							t.Fatalf("err = %v, want an *InvalidRecordError", err)
						}
						if err.Error() != want {
							t.Errorf("message:\n got %s\nwant %s", err, want)
						}
						if ie.Column != "customer_id" || ie.Partition != tc.rec.Partition || ie.Offset != tc.rec.Offset {
							t.Errorf("error fields = %+v", ie)
						}
					})
				})
			}
		})
	}
}

// With on_invalid = "reject", such a record goes to RejectedDir of every
// active destination, like a record that is not JSON, with the reason.
func TestUnroutableRecordRejected(t *testing.T) {
	for name, l := range routeLayouts("reject") {
		t.Run(name, func(t *testing.T) {
			l.Sequential = true
			out, st := run(t, l, []int{0, 1}, unroutable)
			if st.Records != 4 || st.Rejected != 2 {
				t.Errorf("stats = %+v, want 4 records, 2 rejected", st)
			}
			data := 0
			for d := range 2 {
				if st.Destinations[d].Rejected != 2 {
					t.Errorf("destination %d: %d rejected, want 2", d, st.Destinations[d].Rejected)
				}
				data += int(st.Destinations[d].Records)
				rejected := string(out.tree(t, d)[RejectedDir+"/part-00000007-00000.ndjson"])
				noun := map[string]string{"pass-through": "field", "column": "column"}[name]
				for _, want := range []string{
					`"offset":11,"reason":"` + noun + ` \"customer_id\": missing, and route_by needs it to choose the record's destination"`,
					`"offset":12,"reason":"` + noun + ` \"customer_id\": null, and route_by needs a value to choose the record's destination"`,
				} {
					if !strings.Contains(rejected, want) {
						t.Errorf("destination %d rejects lack %s:\n%s", d, want, rejected)
					}
				}
				if strings.Count(rejected, "\n") != 2 {
					t.Errorf("destination %d rejects:\n%s", d, rejected)
				}
			}
			if data != 2 {
				t.Errorf("%d records in data files, want the 2 routable ones", data)
			}
		})
	}
}
