package pipeline

import (
	"errors"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/partition"
	"github.com/streamctl/streamctl/providers"
)

// A record passed through byte for byte is checked whole: readers parse
// every field of it. The error names no column: the record's text is at
// fault.
func TestPassThroughRefusesTextReadersRefuse(t *testing.T) {
	for rec, want := range map[string]string{
		`{"a":"` + "\xff" + `"}`: "invalid UTF-8 at byte 6 of the record",
		`{"a":"\ud800"}`:         `lone surrogate \ud800 at byte 6 of the record`,
	} {
		w, err := New(Layout{Format: "jsonl"}, 0, []int{0}, newMemOutput())
		if err != nil {
			t.Fatal(err)
		}
		err = w.Write(&providers.Record{Partition: "3", Offset: 9, Value: []byte(rec)})
		var ie *InvalidRecordError
		var te *format.TextError
		if !errors.As(err, &ie) || !errors.As(err, &te) || ie.Column != "" || ie.Reason != want ||
			err.Error() != "invalid record at partition 3 offset 9: "+want {
			t.Errorf("%q: %v (%+v), want %q", rec, err, ie, want)
		}
		w.Abort()
	}
}

// New refuses the layouts whose output names readers could not tell apart.
func TestNewRefusesAmbiguousNames(t *testing.T) {
	for _, tc := range []struct {
		cols  []string
		parts []string
		want  string
	}{
		{[]string{"id", "ts", "ts_day"}, []string{"day(ts)"}, `column "ts_day": partition_by "day(ts)" writes folders named ts_day`},
		{[]string{"ID", "id"}, nil, `column "id": its name differs from column "ID" only in case`},
	} {
		var cols []format.Column
		for _, c := range tc.cols {
			cols = append(cols, format.Column{Name: c, Type: map[bool]string{true: "timestamp", false: "string"}[c == "ts"]})
		}
		_, err := New(Layout{Format: "parquet", Columns: cols, PartitionBy: tc.parts}, 0, []int{0}, newMemOutput())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v %v: %v, want %q", tc.cols, tc.parts, err, tc.want)
		}
	}
}

// A non-nullable identity partition refuses "", whose folder reads back as
// null; the error names the column.
func TestIdentityPartitionOfANonNullableColumn(t *testing.T) {
	no := false
	l := Layout{Format: "jsonl", Columns: []format.Column{{Name: "id", Type: "int64"}, {Name: "c", Type: "string", Nullable: &no}}, PartitionBy: []string{"c"}}
	w, err := New(l, 0, []int{0}, newMemOutput())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	err = w.Write(&providers.Record{Partition: "0", Value: []byte(`{"id":1,"c":""}`)})
	var ie *InvalidRecordError
	var ve *partition.ValueError
	if !errors.As(err, &ie) || !errors.As(err, &ve) || ie.Column != "c" || !strings.HasPrefix(ie.Reason, `"" is written as the folder of a null value`) {
		t.Errorf("err = %v (%+v)", err, ie)
	}
}
