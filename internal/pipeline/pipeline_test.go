package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/format/formattest"
	"github.com/streamctl/streamctl/providers"
)

// memOutput keeps every destination's files in memory, like the engine's
// staging areas.
type memOutput struct {
	mu      sync.Mutex
	files   map[int]map[string]*memFile // destination → relPath → file
	creates []string                    // "dests relPath", in call order
	failOn  string                      // Create of this relPath fails
	writeOK int                         // Write fails after this many calls when > 0
	writes  int
}

type memFile struct {
	out      *memOutput
	dests    []int
	buf      bytes.Buffer
	records  int64
	finished bool
	aborted  bool
}

func newMemOutput() *memOutput { return &memOutput{files: map[int]map[string]*memFile{}} }

func (o *memOutput) Create(dests []int, rel string) (File, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if rel == o.failOn {
		return nil, errors.New("disk full")
	}
	f := &memFile{out: o, dests: slices.Clone(dests)}
	for _, d := range dests {
		if o.files[d] == nil {
			o.files[d] = map[string]*memFile{}
		}
		if o.files[d][rel] != nil {
			return nil, fmt.Errorf("%s created twice for destination %d", rel, d)
		}
		o.files[d][rel] = f
	}
	o.creates = append(o.creates, fmt.Sprint(dests, " ", rel))
	return f, nil
}

func (f *memFile) Write(p []byte) (int, error) {
	f.out.mu.Lock()
	defer f.out.mu.Unlock()
	f.out.writes++
	if f.out.writeOK > 0 && f.out.writes > f.out.writeOK {
		return 0, errors.New("connection reset")
	}
	return f.buf.Write(p)
}

func (f *memFile) Finish(records int64) error {
	f.records, f.finished = records, true
	return nil
}

func (f *memFile) Abort() { f.aborted = true }

// tree returns destination d's finished files: path → bytes.
func (o *memOutput) tree(t *testing.T, d int) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for rel, f := range o.files[d] {
		if !f.finished || f.aborted {
			t.Fatalf("%s of destination %d: finished=%v aborted=%v", rel, d, f.finished, f.aborted)
		}
		out[rel] = f.buf.Bytes()
	}
	return out
}

func genRecords(n int) []*providers.Record {
	recs := make([]*providers.Record, n)
	for i := range recs {
		r := formattest.MakeRow(i%3, int64(i/3))
		recs[i] = &providers.Record{Partition: fmt.Sprint(i % 3), Offset: int64(i / 3), Value: formattest.AppendRecord(nil, r)}
	}
	return recs
}

// run writes recs through a Writer and returns the output and stats.
func run(t *testing.T, l Layout, active []int, recs []*providers.Record) (*memOutput, Stats) {
	t.Helper()
	out := newMemOutput()
	w, err := New(l, 7, active, out)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	buf := &providers.Record{}
	var value []byte
	for _, r := range recs {
		// Sources reuse their buffers: hand the Writer a copy, then spoil it,
		// so that a Writer keeping a reference would write garbage.
		value = append(value[:0], r.Value...)
		*buf = *r
		buf.Value = value
		if err := w.Write(buf); err != nil {
			t.Fatalf("Write: %v", err)
		}
		for i := range value {
			value[i] = 'X'
		}
	}
	st, err := w.Close()
	if err != nil {
		t.Fatalf("Close: %v", err)
	}
	return out, st
}

// modes runs f sequentially and pipelined.
func modes(t *testing.T, f func(t *testing.T, seq bool)) {
	for _, seq := range []bool{true, false} {
		t.Run(map[bool]string{true: "sequential", false: "pipelined"}[seq], func(t *testing.T) { f(t, seq) })
	}
}

func TestPassThrough(t *testing.T) {
	modes(t, func(t *testing.T, seq bool) {
		recs := genRecords(10000)
		out, st := run(t, Layout{Format: "jsonl", Destinations: []string{"a", "b"}, Sequential: seq}, []int{0, 1}, recs)
		var want bytes.Buffer
		for _, r := range recs {
			want.Write(r.Value)
			want.WriteByte('\n')
		}
		for d := range 2 {
			tree := out.tree(t, d)
			if got := tree["part-00000007-00000.jsonl"]; !bytes.Equal(got, want.Bytes()) || len(tree) != 1 {
				t.Fatalf("destination %d: %d files, content equal = %v", d, len(tree), bytes.Equal(got, want.Bytes()))
			}
		}
		if fmt.Sprint(out.creates) != "[[0 1] part-00000007-00000.jsonl]" {
			t.Errorf("creates = %v: one file for both destinations", out.creates)
		}
		if st.Records != 10000 || st.Files != 1 || st.Destinations[0] != (DestStats{Records: 10000, Files: 1}) || st.Destinations[1] != st.Destinations[0] {
			t.Errorf("stats = %+v", st)
		}
	})
}

func TestRolling(t *testing.T) {
	modes(t, func(t *testing.T, seq bool) {
		recs := genRecords(10)
		out, st := run(t, Layout{Format: "jsonl", MaxFileRecords: 3, Sequential: seq}, []int{0}, recs)
		tree := out.tree(t, 0)
		var names []string
		for _, n := range slices.Sorted(maps.Keys(tree)) {
			names = append(names, fmt.Sprintf("%s:%d", n, out.files[0][n].records))
		}
		want := "[part-00000007-00000.jsonl:3 part-00000007-00001.jsonl:3 part-00000007-00002.jsonl:3 part-00000007-00003.jsonl:1]"
		if fmt.Sprint(names) != want {
			t.Fatalf("files = %v, want %s", names, want)
		}
		if st.Files != 4 || st.Destinations[0].Files != 4 {
			t.Errorf("stats = %+v", st)
		}
		// Concatenated in order, the files are the records in order.
		var all []byte
		for _, n := range slices.Sorted(maps.Keys(tree)) {
			all = append(all, tree[n]...)
		}
		var want2 []byte
		for _, r := range recs {
			want2 = append(append(want2, r.Value...), '\n')
		}
		if !bytes.Equal(all, want2) {
			t.Fatal("the rolled files do not hold the records in order")
		}
	})
}

// TestRollingAtTheRowGroupLimit: a Parquet file holds at most 32,768 row
// groups (readers number them with an int16). A batch that would need more
// in one file (here: row groups of one record) continues in the file's next
// part instead of failing, which would stop the sink on that batch for good.
func TestRollingAtTheRowGroupLimit(t *testing.T) {
	const limit = 1 << 15
	recs := genRecords(limit + 10)
	out, st := run(t, Layout{Format: "parquet", Columns: formattest.Columns(true), RowGroupRecords: 1, Sequential: true}, []int{0}, recs)
	tree := out.tree(t, 0)
	var names []string
	for _, n := range slices.Sorted(maps.Keys(tree)) {
		f, err := parquet.OpenFile(bytes.NewReader(tree[n]), int64(len(tree[n])))
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		names = append(names, fmt.Sprintf("%s:%d rows in %d row groups", n, f.NumRows(), len(f.RowGroups())))
	}
	want := fmt.Sprintf("[part-00000007-00000.parquet:%d rows in %d row groups part-00000007-00001.parquet:11 rows in 11 row groups]", limit-1, limit-1)
	if fmt.Sprint(names) != want || st.Records != limit+10 {
		t.Fatalf("files = %v (%d records), want %s", names, st.Records, want)
	}
}

func readParquet(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	r := parquet.NewReader(f)
	var rows []map[string]any
	for {
		m := map[string]any{}
		if err := r.Read(&m); err == io.EOF {
			return rows
		} else if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, m)
	}
}

func TestPartitionedParquet(t *testing.T) {
	modes(t, func(t *testing.T, seq bool) {
		recs := genRecords(5000)
		l := Layout{
			Format: "parquet", Columns: formattest.Columns(true), PartitionBy: []string{"country", "hour(ts)"},
			MaxFileRecords: 400, RowGroupRecords: 100, Destinations: []string{"x"}, Sequential: seq,
		}
		out, st := run(t, l, []int{0}, recs)
		tree := out.tree(t, 0)
		seen := 0
		perFolder := map[string]int{}
		for rel, data := range tree {
			dir, file, _ := strings.Cut(rel, "/part-")
			perFolder[dir]++
			if !strings.HasPrefix(file, "00000007-") || !strings.HasSuffix(file, ".parquet") {
				t.Errorf("file name %q", rel)
			}
			rows := readParquet(t, data)
			if n := out.files[0][rel].records; n != int64(len(rows)) || n > 400 {
				t.Errorf("%s: Finish said %d records, file has %d", rel, n, len(rows))
			}
			for _, r := range rows {
				ts := r["ts"]
				hour := ""
				switch v := ts.(type) {
				case int64:
					hour = string(format.AppendTimestamp(nil, v))[:13]
				default:
					t.Fatalf("ts is %T", ts)
				}
				if _, ok := r["country"]; ok {
					t.Fatalf("%s: the identity partition column country is in the file", rel)
				}
				src := formattest.MakeRow(int(r["partition"].(int32)), r["offset"].(int64))
				want := fmt.Sprintf("country=%s/ts_hour=%s-%s", src.Country, hour[:10], hour[11:13])
				if dir != want {
					t.Fatalf("row %v is in %s, want %s", r, dir, want)
				}
			}
			seen += len(rows)
		}
		if seen != len(recs) || st.Records != int64(len(recs)) || st.Destinations[0].Records != int64(len(recs)) {
			t.Fatalf("%d rows written, stats %+v; want %d", seen, st, len(recs))
		}
		if st.Files != int64(len(tree)) {
			t.Errorf("stats.Files = %d, %d files", st.Files, len(tree))
		}
		// seq numbering is per folder.
		for dir, n := range perFolder {
			for i := range n {
				if tree[fmt.Sprintf("%s/part-00000007-%05d.parquet", dir, i)] == nil {
					t.Errorf("%s: file %d of %d missing", dir, i, n)
				}
			}
		}
	})
}

// Records are routed by a hash of customer_id: each goes to exactly one
// destination, all of them go somewhere, and the order of the destination
// blocks does not change where they go.
func TestRouting(t *testing.T) {
	modes(t, func(t *testing.T, seq bool) {
		recs := genRecords(3000)
		names := []string{"eu", "us", "apac"}
		cols := []format.Column{{Name: "id", Type: "int64"}, {Name: "customer_id", Type: "int64"}}
		where := func(names []string, active []int) map[string]map[string]bool { // destination name → ids
			out, st := run(t, Layout{Format: "jsonl", Columns: cols, RouteBy: "customer_id", Destinations: names, Sequential: seq}, active, recs)
			got := map[string]map[string]bool{}
			var total int64
			for _, d := range active {
				ids := map[string]bool{}
				for rel, data := range out.tree(t, d) {
					if rel != "part-00000007-00000.jsonl" {
						t.Errorf("unexpected file %s", rel)
					}
					sc := bufio.NewScanner(bytes.NewReader(data))
					for sc.Scan() {
						var row struct{ ID, CustomerID json.Number }
						if err := json.Unmarshal(sc.Bytes(), &struct {
							ID         *json.Number `json:"id"`
							CustomerID *json.Number `json:"customer_id"`
						}{&row.ID, &row.CustomerID}); err != nil {
							t.Fatal(err)
						}
						ids[row.ID.String()] = true
						if want := names[Route([]byte(row.CustomerID.String()), names)]; want != names[d] {
							t.Fatalf("customer %s is in %s, Route says %s", row.CustomerID, names[d], want)
						}
					}
				}
				if st.Destinations[d].Records != int64(len(ids)) {
					t.Errorf("%s: stats say %d records, %d found", names[d], st.Destinations[d].Records, len(ids))
				}
				total += int64(len(ids))
				got[names[d]] = ids
			}
			if len(active) == len(names) && total != int64(len(recs)) {
				t.Errorf("%d records routed, want %d", total, len(recs))
			}
			return got
		}
		all := where(names, []int{0, 1, 2})
		union := map[string]int{}
		for name, ids := range all {
			if len(ids) < 500 {
				t.Errorf("%s got only %d of 3000 records: the hash does not spread", name, len(ids))
			}
			for id := range ids {
				union[id]++
			}
		}
		for _, r := range recs {
			var v struct {
				ID json.Number `json:"id"`
			}
			json.Unmarshal(r.Value, &v)
			if union[v.ID.String()] != 1 {
				t.Fatalf("id %s is in %d destinations, want exactly 1", v.ID, union[v.ID.String()])
			}
		}
		// Another order of the same destinations routes identically.
		reordered := where([]string{"us", "apac", "eu"}, []int{0, 1, 2})
		for name := range all {
			if !maps.Equal(all[name], reordered[name]) {
				t.Errorf("%s got other records when the destinations were reordered", name)
			}
		}
		// Only the active destinations are written; the others' records are skipped.
		partial := where(names, []int{1})
		if len(partial) != 1 || !maps.Equal(partial["us"], all["us"]) {
			t.Errorf("with only us active, us got %d records, want %d", len(partial["us"]), len(all["us"]))
		}
	})
}

func TestRouteIsDocumentedHash(t *testing.T) {
	// FNV-1a 64 of "42" is 0x07ee7e07b4b19223; mod 3 = 1 → the second name
	// in sorted order, "b", which is index 2 in config order.
	if got := fnv1a64([]byte("42")); got != 0x07ee7e07b4b19223 {
		t.Fatalf("fnv1a64 = %#x", got)
	}
	if got := Route([]byte("42"), []string{"c", "a", "b"}); got != 2 {
		t.Fatalf("Route = %d, want 2 (\"b\")", got)
	}
}

func TestRouteNeedsDestinations(t *testing.T) {
	_, err := New(Layout{Format: "jsonl", RouteBy: "id"}, 0, []int{0}, newMemOutput())
	if err == nil || !strings.Contains(err.Error(), "route_by needs Layout.Destinations") {
		t.Fatalf("err = %v", err)
	}
}

var badRecords = []*providers.Record{
	{Partition: "1", Offset: 10, Value: []byte(`{"id":1,"customer_id":5,"amount":1.5}`)},
	{Partition: "1", Offset: 11, Value: []byte(`{"id":2,"customer_id":5,"amount":"abc"}`)},
	{Partition: "2", Offset: 12, Value: []byte(`{"id":3,"customer_id":6}`)},
	{Partition: "2", Offset: 13, Value: []byte(`not json`)},
	{Partition: "2", Offset: 14, Value: []byte(`{"id":5,"customer_id":5,"amount":2}`)},
}

var badColumns = []format.Column{
	{Name: "id", Type: "int64"},
	{Name: "customer_id", Type: "int64"},
	{Name: "amount", Type: "double", Nullable: new(bool)},
}

func TestOnInvalidFail(t *testing.T) {
	modes(t, func(t *testing.T, seq bool) {
		out := newMemOutput()
		w, err := New(Layout{Format: "csv", Columns: badColumns, Sequential: seq}, 0, []int{0}, out)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(badRecords[0]); err != nil {
			t.Fatal(err)
		}
		err = w.Write(badRecords[1])
		var ie *InvalidRecordError
		if !errors.As(err, &ie) {
			t.Fatalf("err = %v, want an *InvalidRecordError", err)
		}
		if ie.Partition != "1" || ie.Offset != 11 || ie.Column != "amount" || ie.Reason != `expected a number, got "abc"` {
			t.Errorf("error fields = %+v", ie)
		}
		if want := `invalid record at partition 1 offset 11: column "amount": expected a number, got "abc"`; err.Error() != want {
			t.Errorf("message = %q, want %q", err, want)
		}
		if w.Write(badRecords[4]) == nil {
			t.Error("Write after an error succeeded")
		}
		w.Abort()
		for _, f := range out.files[0] {
			if f.finished {
				t.Error("a file was finished after the batch failed")
			}
		}
	})
	for i, want := range map[int]string{2: `column "amount": missing, and the column is not nullable`, 3: "not JSON: invalid character 'n', expected '{' at byte 0"} {
		w, _ := New(Layout{Format: "csv", Columns: badColumns, OnInvalid: "fail"}, 0, []int{0}, newMemOutput())
		err := w.Write(badRecords[i])
		var ie *InvalidRecordError
		if !errors.As(err, &ie) || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("record %d: err = %v, want it to end with %q", i, err, want)
		}
		w.Abort()
	}
}

func TestOnInvalidReject(t *testing.T) {
	modes(t, func(t *testing.T, seq bool) {
		l := Layout{Format: "parquet", Columns: badColumns, OnInvalid: "reject", Destinations: []string{"a", "b"}, Sequential: seq}
		out, st := run(t, l, []int{0, 1}, badRecords)
		for d := range 2 {
			tree := out.tree(t, d)
			rejected := string(tree[RejectedDir+"/part-00000007-00000.ndjson"])
			want := `{"partition":"1","offset":11,"reason":"column \"amount\": expected a number, got \"abc\"","record":{"id":2,"customer_id":5,"amount":"abc"}}` + "\n" +
				`{"partition":"2","offset":12,"reason":"column \"amount\": missing, and the column is not nullable","record":{"id":3,"customer_id":6}}` + "\n" +
				`{"partition":"2","offset":13,"reason":"not JSON: invalid character 'n', expected '{' at byte 0","record":"not json"}` + "\n"
			if rejected != want {
				t.Errorf("destination %d rejected:\n%s\nwant:\n%s", d, rejected, want)
			}
			rows := readParquet(t, tree["part-00000007-00000.parquet"])
			if len(rows) != 2 || rows[0]["id"] != int64(1) || rows[1]["id"] != int64(5) {
				t.Errorf("data rows = %v", rows)
			}
			if st.Destinations[d] != (DestStats{Records: 2, Rejected: 3, Files: 2}) {
				t.Errorf("destination %d stats = %+v", d, st.Destinations[d])
			}
		}
		if st.Records != 5 || st.Rejected != 3 || st.Files != 2 {
			t.Errorf("stats = %+v", st)
		}
	})
}

// With route_by, a rejected record stays on its destination's side when its
// route value can be read.
func TestRejectFollowsRoute(t *testing.T) {
	names := []string{"a", "b"}
	l := Layout{Format: "jsonl", Columns: badColumns, OnInvalid: "reject", RouteBy: "customer_id", Destinations: names, Sequential: true}
	out, st := run(t, l, []int{0, 1}, badRecords)
	d5, d6 := Route([]byte("5"), names), Route([]byte("6"), names)
	for d := range 2 {
		rejected := string(out.tree(t, d)[RejectedDir+"/part-00000007-00000.ndjson"])
		// The record that is not JSON has no route: it goes everywhere.
		if !strings.Contains(rejected, `"offset":13`) {
			t.Errorf("destination %d lacks the unroutable reject", d)
		}
		if strings.Contains(rejected, `"offset":11`) != (d == d5) || strings.Contains(rejected, `"offset":12`) != (d == d6) {
			t.Errorf("destination %d rejects:\n%s", d, rejected)
		}
	}
	if st.Rejected != 3 {
		t.Errorf("Rejected = %d, want 3", st.Rejected)
	}
}

// Two runs over the same records give byte-identical trees, in every format
// and in both modes.
func TestDeterministicTrees(t *testing.T) {
	recs := genRecords(20000)
	layouts := []Layout{
		{Format: "jsonl"},
		{Format: "jsonl", Columns: formattest.Columns(true), PartitionBy: []string{"bucket(4, customer_id)"}},
		{Format: "csv", Columns: formattest.Columns(true), PartitionBy: []string{"country"}, MaxFileRecords: 1000},
	}
	for _, c := range format.Compressions {
		layouts = append(layouts, Layout{Format: "parquet", Compression: c, Columns: formattest.Columns(true), PartitionBy: []string{"country", "day(ts)"}, RowGroupRecords: 1000, RouteBy: "customer_id"})
	}
	for _, l := range layouts {
		name := l.Format + "-" + l.Compression
		t.Run(name, func(t *testing.T) {
			l.Destinations = []string{"one", "two"}
			var trees [][]map[string][]byte
			for _, seq := range []bool{true, false, false} {
				l.Sequential = seq
				out, _ := run(t, l, []int{0, 1}, recs)
				trees = append(trees, []map[string][]byte{out.tree(t, 0), out.tree(t, 1)})
			}
			for i := 1; i < len(trees); i++ {
				for d := range 2 {
					if !maps.EqualFunc(trees[0][d], trees[i][d], bytes.Equal) {
						t.Fatalf("run %d differs from run 0 for destination %d", i, d)
					}
				}
			}
			if len(trees[0][0])+len(trees[0][1]) == 0 {
				t.Fatal("nothing was written")
			}
		})
	}
}

func TestNoActiveDestinations(t *testing.T) {
	out, st := run(t, Layout{Format: "jsonl"}, nil, genRecords(5))
	if len(out.creates) != 0 || st.Records != 5 {
		t.Fatalf("creates = %v, stats = %+v", out.creates, st)
	}
}

func TestOutputErrors(t *testing.T) {
	modes(t, func(t *testing.T, seq bool) {
		recs := genRecords(20000)
		// Create fails.
		out := newMemOutput()
		out.failOn = "country=fr/part-00000000-00000.parquet"
		w, err := New(Layout{Format: "parquet", Columns: formattest.Columns(true), PartitionBy: []string{"country"}, Sequential: seq}, 0, []int{0}, out)
		if err != nil {
			t.Fatal(err)
		}
		var werr error
		for _, r := range recs {
			if werr = w.Write(r); werr != nil {
				break
			}
		}
		if werr == nil {
			_, werr = w.Close()
		}
		if werr == nil || !strings.Contains(werr.Error(), "create country=fr/part-00000000-00000.parquet: disk full") {
			t.Fatalf("err = %v", werr)
		}
		w.Abort()
		for rel, f := range out.files[0] {
			if f.finished || !f.aborted {
				t.Errorf("%s: finished=%v aborted=%v after a failure", rel, f.finished, f.aborted)
			}
		}
		// Write fails.
		out = newMemOutput()
		out.writeOK = 1
		w, _ = New(Layout{Format: "jsonl", Sequential: seq}, 0, []int{0}, out)
		werr = nil
		for _, r := range recs {
			if werr = w.Write(r); werr != nil {
				break
			}
		}
		if werr == nil {
			_, werr = w.Close()
		}
		if werr == nil || !strings.Contains(werr.Error(), "write part-00000000-00000.jsonl: connection reset") {
			t.Fatalf("err = %v", werr)
		}
		w.Abort()
	})
}

func TestLayoutErrors(t *testing.T) {
	cols := formattest.Columns(true)
	tests := []struct {
		l   Layout
		err string
	}{
		{Layout{Format: "xml"}, `unknown format "xml"`},
		{Layout{Format: "csv"}, `format "csv" needs column blocks`},
		{Layout{Format: "jsonl", OnInvalid: "skip"}, `on_invalid "skip": want "fail" or "reject"`},
		{Layout{Format: "parquet", Columns: cols, Compression: "brotli"}, `unknown compression "brotli"`},
		{Layout{Format: "parquet", Columns: cols, PartitionBy: []string{"day(country)"}}, `partition_by "day(country)": day does not apply to string "country"`},
		{Layout{Format: "parquet", Columns: cols, PartitionBy: []string{"week(ts)"}}, `unknown transform "week"`},
		{Layout{Format: "parquet", Columns: []format.Column{{Name: "a", Type: "decimal"}}}, `column "a": type "decimal", at character 8: expected "(" after decimal`},
		{Layout{Format: "parquet", Columns: []format.Column{{Name: "a", Type: "decimal(5,2)"}, {Name: "b", Type: "string"}}, PartitionBy: []string{"a"}}, `partition_by "a": identity does not apply to decimal "a"`},
		{Layout{Format: "jsonl", RouteBy: "a..b", Destinations: []string{"x"}}, `route_by: field path "a..b" has an empty segment`},
		{Layout{Format: "csv", Columns: []format.Column{{Name: "a", Type: "struct<b:int32>"}}}, `column "a": csv has no struct values; declare it type = "json" to keep the value as JSON text in one field, or write format = "parquet" or "jsonl"`},
		{Layout{Format: "jsonl", Columns: []format.Column{{Name: "a", Type: "map<string,int32>"}, {Name: "b", Type: "string"}}, PartitionBy: []string{"a"}}, `partition_by "a": identity does not apply to map "a"`},
		{Layout{Format: "jsonl", MaxFileRecords: -1}, "max_file_records must be positive"},
	}
	for _, tc := range tests {
		_, err := New(tc.l, 0, []int{0}, newMemOutput())
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%+v: err = %v, want %q", tc.l, err, tc.err)
		}
	}
	if _, err := New(Layout{Format: "jsonl", Destinations: []string{"a"}}, 0, []int{1}, newMemOutput()); err == nil {
		t.Error("an active index out of range was accepted")
	}
}

// Partitioning without columns reads the fields from the JSON as they are.
func TestSchemalessPartitioning(t *testing.T) {
	recs := []*providers.Record{
		{Value: []byte(`{"ts":"2026-01-02T10:00:00Z","c":"a/b"}`)},
		{Value: []byte(`{"ts":1767225600000,"c":"de"}`)},
		{Value: []byte(`{"c":null}`)},
		{Value: []byte(`{"ts":"soon","c":"x"}`), Offset: 3},
	}
	out, st := run(t, Layout{Format: "jsonl", PartitionBy: []string{"c", "day(ts)"}, OnInvalid: "reject"}, []int{0}, recs)
	tree := out.tree(t, 0)
	want := map[string]string{
		"c=a%2Fb/ts_day=2026-01-02/part-00000007-00000.jsonl":                                      `{"ts":"2026-01-02T10:00:00Z","c":"a/b"}`,
		"c=de/ts_day=2026-01-01/part-00000007-00000.jsonl":                                         `{"ts":1767225600000,"c":"de"}`,
		"c=__HIVE_DEFAULT_PARTITION__/ts_day=__HIVE_DEFAULT_PARTITION__/part-00000007-00000.jsonl": `{"c":null}`,
		RejectedDir + "/part-00000007-00000.ndjson":                                                `{"partition":"","offset":3,"reason":"field \"ts\": expected an RFC 3339 timestamp, a date or epoch milliseconds, got \"soon\"","record":{"ts":"soon","c":"x"}}`,
	}
	if len(tree) != len(want) {
		t.Errorf("files: %v", slices.Sorted(maps.Keys(tree)))
	}
	for rel, content := range want {
		if got := string(tree[rel]); got != content+"\n" {
			t.Errorf("%s = %q, want %q", rel, got, content)
		}
	}
	if st.Rejected != 1 {
		t.Errorf("Rejected = %d", st.Rejected)
	}
}

// Once its buffers have grown, the record path allocates nothing per record.
func TestWriteDoesNotAllocate(t *testing.T) {
	recs := genRecords(4096)
	for _, l := range []Layout{
		{Format: "parquet", Columns: formattest.Columns(true), PartitionBy: []string{"country"}, Sequential: true},
		{Format: "parquet", Columns: formattest.Columns(true), PartitionBy: []string{"country"}, RouteBy: "customer_id", Destinations: []string{"a", "b"}},
		{Format: "csv", Columns: formattest.Columns(true), Sequential: true},
		{Format: "jsonl", Sequential: true},
	} {
		w, err := New(l, 0, []int{0, 1}[:max(1, len(l.Destinations))], discardOutput{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs { // warm up: every folder open, buffers grown
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		i := 0
		allocs := testing.AllocsPerRun(20000, func() {
			if err := w.Write(recs[i%len(recs)]); err != nil {
				t.Fatal(err)
			}
			i++
		})
		if allocs > 0.05 {
			t.Errorf("%s partitioned by %v: %.2f allocations per record", l.Format, l.PartitionBy, allocs)
		}
		if _, err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

type discardOutput struct{}

func (discardOutput) Create([]int, string) (File, error) { return discardFile{}, nil }

type discardFile struct{}

func (discardFile) Write(p []byte) (int, error) { return len(p), nil }
func (discardFile) Finish(int64) error          { return nil }
func (discardFile) Abort()                      {}

// With many folders open, the memory budget ends row groups early, in the
// same places in both modes: the files stay deterministic.
func TestMemoryBudget(t *testing.T) {
	recs := genRecords(30000)
	l := Layout{Format: "parquet", Columns: formattest.Columns(true), PartitionBy: []string{"bucket(40, customer_id)"}, budget: 1 << 20}
	var trees []map[string][]byte
	for _, seq := range []bool{true, false, false} {
		l.Sequential = seq
		out, _ := run(t, l, []int{0}, recs)
		trees = append(trees, out.tree(t, 0))
	}
	for i := 1; i < len(trees); i++ {
		if !maps.EqualFunc(trees[0], trees[i], bytes.Equal) {
			t.Fatalf("run %d differs from run 0", i)
		}
	}
	if len(trees[0]) != 40 {
		t.Fatalf("%d files, want 40", len(trees[0]))
	}
	rows, groups := 0, 0
	for _, data := range trees[0] {
		f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		rows += int(f.NumRows())
		groups += len(f.RowGroups())
	}
	// 40 folders of 7 columns hold a page block each (18 MiB): far over the
	// budget, so row groups end every few hundred records.
	if rows != len(recs) || groups < 200 {
		t.Fatalf("%d rows in %d row groups, want %d rows in many groups", rows, groups, len(recs))
	}
}

// Folders keep appearing while the encoder works on earlier chunks: the
// encoder must see each record's folder (run with -race, as make test does).
func TestFoldersAppearWhileEncoding(t *testing.T) {
	out := newMemOutput()
	w, err := New(Layout{Format: "jsonl", PartitionBy: []string{"offset"}}, 3, []int{0}, out)
	if err != nil {
		t.Fatal(err)
	}
	const n = 3 * chunkRows
	for i := range n {
		r := formattest.MakeRow(0, int64(i/8))
		if err := w.Write(&providers.Record{Partition: "0", Offset: int64(i), Value: formattest.AppendRecord(nil, r)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if len(out.files[0]) != n/8 {
		t.Fatalf("%d files, want one per folder: %d", len(out.files[0]), n/8)
	}
	for rel, f := range out.files[0] {
		if f.records != 8 || !f.finished {
			t.Errorf("%s: %d records (finished %v), want the 8 of its folder", rel, f.records, f.finished)
		}
	}
}

// A record its source could not decode (Invalid set) is rejected with the
// source's reason and its bytes as read, to every destination of a routed
// sink (it has no route value), even as the batch's first record.
func TestSourceInvalidRecordRejected(t *testing.T) {
	names := []string{"a", "b"}
	recs := []*providers.Record{
		{Partition: "0", Offset: 3, Value: []byte{0, 0, 0, 0x27, 0x0f, 0xff}, Invalid: errors.New("value: schema id 9999 is not in the schema registry")},
		{Partition: "0", Offset: 4, Value: []byte(`{"id":1,"customer_id":5,"amount":1.5}`)},
	}
	for _, l := range []Layout{
		{Format: "jsonl", Columns: badColumns, OnInvalid: "reject", RouteBy: "customer_id", Destinations: names, Sequential: true},
		{Format: "jsonl", OnInvalid: "reject", Destinations: names, Sequential: true},
	} {
		out, st := run(t, l, []int{0, 1}, recs)
		want := `{"partition":"0","offset":3,"reason":"value: schema id 9999 is not in the schema registry","record":"\u0000\u0000\u0000'\u000f\ufffd","record_base64":"AAAAJw//"}` + "\n"
		for d := range 2 {
			if got := string(out.tree(t, d)[RejectedDir+"/part-00000007-00000.ndjson"]); got != want {
				t.Errorf("route_by %q, destination %d rejected:\n%s\nwant:\n%s", l.RouteBy, d, got, want)
			}
		}
		if st.Rejected != 1 || st.Records != 2 {
			t.Errorf("route_by %q: stats %+v", l.RouteBy, st)
		}
	}
	l := Layout{Format: "jsonl", Destinations: names, Sequential: true}
	w, err := New(l, 7, []int{0, 1}, newMemOutput())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	var ie *InvalidRecordError
	if err := w.Write(recs[0]); !errors.As(err, &ie) || err.Error() != "invalid record at partition 0 offset 3: value: schema id 9999 is not in the schema registry" {
		t.Errorf("on_invalid = fail: %v", err)
	}
}
