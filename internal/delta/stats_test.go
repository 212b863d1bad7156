package delta_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/streamctl/streamctl/internal/delta"
	"github.com/streamctl/streamctl/internal/format"
)

// statsColumns cover every kind a sink writes to a Delta table.
var statsColumns = []format.Column{
	{Name: "id", Type: "int64"}, {Name: "qty", Type: "int32"}, {Name: "amount", Type: "double"},
	{Name: "ratio", Type: "float"}, {Name: "ts", Type: "timestamp"}, {Name: "day", Type: "date"},
	{Name: "country", Type: "string"}, {Name: "ok", Type: "bool"}, {Name: "blob", Type: "bytes"},
	{Name: "region", Type: "string"},
}

// parquetFile writes rows (nil is null) with the project's writer, in row
// groups of rowGroup rows, and returns the file.
func parquetFile(t *testing.T, cols []format.Column, rowGroup int64, rows [][]any) []byte {
	t.Helper()
	s, err := format.NewSchema(cols)
	if err != nil {
		t.Fatal(err)
	}
	f, err := format.NewFormat(s, format.Options{Format: format.Parquet, RowGroupRecords: rowGroup})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := f.NewEncoder(&buf)
	for _, r := range rows {
		vals := make([]format.Value, len(r))
		for i, v := range r {
			switch v := v.(type) {
			case nil:
				vals[i] = format.Value{Null: true}
			case int64:
				vals[i] = format.Value{Int: v, Token: format.TokNumber}
			case float64:
				vals[i] = format.Value{Float: v, Token: format.TokNumber}
			case bool:
				vals[i] = format.Value{Int: map[bool]int64{false: 0, true: 1}[v], Token: format.TokBool}
			case string:
				vals[i] = format.Value{Bytes: []byte(v), Token: format.TokString}
			}
		}
		if err := enc.Append(nil, vals); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// footer cuts the footer out of a Parquet file, as the Parquet format
// lays it out: FileMetaData, its 4-byte length, "PAR1".
func footer(t *testing.T, file []byte) []byte {
	t.Helper()
	n := len(file)
	if string(file[n-4:]) != "PAR1" {
		t.Fatal("not a Parquet file")
	}
	size := int(binary.LittleEndian.Uint32(file[n-8 : n-4]))
	return file[n-8-size : n-8]
}

func TestStatsFromFooter(t *testing.T) {
	// 2024-03-01T10:00:00.123Z and a day later; dates 19723 = 2024-01-01.
	const ts0 = int64(1709287200123)
	rows := [][]any{
		{int64(5), int64(7), 2.5, 0.5, ts0, int64(19723), "DE", true, "\x00", nil},
		{int64(-3), nil, -1.25, 1.5, ts0 + 86400000, int64(19724), "AT", false, "x", nil},
		{int64(9), int64(-2), nil, 0.0, nil, int64(19800), nil, nil, nil, nil},
		// A second row group, whose bounds widen the first's.
		{int64(100), int64(1), 10.0, nil, ts0 - 1, int64(19000), "ZA", true, "y", nil},
		{nil, int64(3), 0.0, 2.0, ts0, nil, "Zürich", false, nil, nil},
	}
	file := parquetFile(t, statsColumns, 3, rows)
	schema, err := delta.Schema(statsColumns)
	if err != nil {
		t.Fatal(err)
	}
	st, err := delta.StatsFromFooter(footer(t, file), int64(len(rows)), schema, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	// The bounds are the rows' own: the file holds no long string. The
	// booleans and binaries have null counts only; region, only nulls,
	// has no bounds.
	want := `{"numRecords":5,` +
		`"minValues":{"amount":-1.25,"country":"AT","day":"2022-01-08","id":-3,"qty":-2,"ratio":0,"ts":"2024-03-01T10:00:00.122Z"},` +
		`"maxValues":{"amount":10,"country":"Zürich","day":"2024-03-18","id":100,"qty":7,"ratio":2,"ts":"2024-03-02T10:00:00.123Z"},` +
		`"nullCount":{"amount":1,"blob":2,"country":1,"day":1,"id":1,"ok":1,"qty":1,"ratio":1,"region":5,"ts":1}}`
	if string(got) != want {
		t.Errorf("stats\n%s\nwant\n%s", got, want)
	}
}

// TestStatsLeaveOutWhatTheFooterCannotBound: a string column one of whose
// row groups has no bound (no short string above its max) gets no bounds at
// all, a partition column none, and a footer counting other rows than the
// file's records is an error (the commit then goes without them).
func TestStatsLeaveOutWhatTheFooterCannotBound(t *testing.T) {
	cols := []format.Column{{Name: "s", Type: "string"}, {Name: "country", Type: "string"}}
	huge := string(bytes.Repeat([]byte("\U0010FFFF"), 100))
	file := parquetFile(t, cols, 2, [][]any{{"a", "DE"}, {"b", "DE"}, {huge, "DE"}, {"c", "DE"}})
	schema, err := delta.Schema(cols)
	if err != nil {
		t.Fatal(err)
	}
	st, err := delta.StatsFromFooter(footer(t, file), 4, schema, []string{"country"})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.MinValues) != 0 || len(st.MaxValues) != 0 || st.NullCount["s"] != int64(0) || st.NullCount["country"] != nil {
		t.Errorf("stats %+v", st)
	}
	if _, err := delta.StatsFromFooter(footer(t, file), 5, schema, nil); err == nil {
		t.Error("a footer of 4 rows read as the stats of 5 records")
	}
}

func FuzzStatsFromFooter(f *testing.F) {
	f.Add([]byte{0x15, 0x02})
	schema, _ := delta.Schema(statsColumns)
	f.Fuzz(func(t *testing.T, footer []byte) {
		st, err := delta.StatsFromFooter(footer, 1, schema, nil)
		if err == nil {
			if _, err := json.Marshal(st); err != nil {
				t.Fatalf("stats that do not encode: %v", err)
			}
		}
	})
}
