package format_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/providers"
)

// Issue 17: a value written is the value every mainstream reader reads
// back, or the record is refused as invalid with the reason. These tests
// write with on_invalid = "reject" and ask DuckDB what it reads: the data
// files, every one, with the values as written, and the rejects.

// writeRecords writes recs as batch 5 and returns the stats.
func writeRecords(t *testing.T, dir string, l pipeline.Layout, recs []string) pipeline.Stats {
	t.Helper()
	l.OnInvalid = "reject"
	w, err := pipeline.New(l, 5, []int{0}, dirOutput{dir})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		if err := w.Write(&providers.Record{Partition: "0", Offset: int64(i), Value: []byte(r)}); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	st, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// dataSource is how DuckDB reads every data file of dir: the glob a user
// writes, which also matches any file under folders starting with '_'.
func dataSource(dir, format string, hive bool) string {
	glob := filepath.Join(dir, "**", "*."+format)
	switch format {
	case "parquet":
		return fmt.Sprintf("read_parquet('%s', hive_partitioning = %v)", glob, hive)
	case "csv":
		return fmt.Sprintf("read_csv('%s', hive_partitioning = %v, header = true, allow_quoted_nulls = false)", glob, hive)
	}
	return fmt.Sprintf("read_json('%s', hive_partitioning = %v, format = 'newline_delimited')", glob, hive)
}

// rejectReasons returns the reasons of the rejected records of dir, as
// DuckDB reads them, by offset.
func rejectReasons(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pipeline.RejectedDir), "*"))
	if len(files) == 0 {
		return nil
	}
	res := duckdb(t, fmt.Sprintf("SELECT \"offset\"::VARCHAR, reason FROM read_json('%s/*', format = 'newline_delimited') ORDER BY \"offset\"", filepath.Join(dir, filepath.FromSlash(pipeline.RejectedDir))))
	out := map[string]string{}
	for _, r := range res[0].Rows {
		out[fmt.Sprint(r[0])] = fmt.Sprint(r[1])
	}
	return out
}

func checkReasons(t *testing.T, what string, got map[string]string, want map[string]string) {
	t.Helper()
	for off, reason := range want {
		if !strings.Contains(got[off], reason) {
			t.Errorf("%s: record %s rejected for %q, want a reason containing %q", what, off, got[off], reason)
		}
	}
	for off := range got {
		if _, ok := want[off]; !ok {
			t.Errorf("%s: record %s rejected for %q, want it written", what, off, got[off])
		}
	}
}

var utf8Columns = []format.Column{
	{Name: "id", Type: "int64", Nullable: new(bool)},
	{Name: "s", Type: "string"},
	{Name: "j", Type: "json"},
}

// Records with text that is not UTF-8, raw or as a lone surrogate escape,
// and records with the text readers do take.
var utf8Records = []string{
	`{"id":0,"s":"plain","j":{"k":"é"}}`,
	`{"id":1,"s":"x` + "\xff" + `y"}`,
	`{"id":2,"s":"\ud800"}`,
	`{"id":3,"j":{"k":"` + "\xc3" + `"}}`,
	`{"id":4,"j":["\udc00x"]}`,
	`{"id":5,"s":"\ud83d\ude00 \\ud800","j":"\ud83d\ude00"}`,
	`{"id":6,"s":"` + "\xed\xa0\x80" + `"}`,
	`{"id":7,"s":"Köln 日本"}`,
}

var utf8Reasons = map[string]string{
	"1": `column "s": invalid UTF-8 at byte 1 of its value`,
	"2": `column "s": lone surrogate \ud800`,
	"3": `column "j": invalid UTF-8 at byte 6 of its value`,
	"4": `column "j": lone surrogate \udc00`,
	"6": `column "s": invalid UTF-8 at byte 0 of its value`,
}

func TestReadersGetOnlyUTF8Text(t *testing.T) {
	for _, f := range []string{"parquet", "csv", "jsonl"} {
		t.Run(f, func(t *testing.T) {
			dir := t.TempDir()
			st := writeRecords(t, dir, pipeline.Layout{Format: f, Columns: utf8Columns}, utf8Records)
			if st.Rejected != int64(len(utf8Reasons)) {
				t.Errorf("rejected %d records, want %d", st.Rejected, len(utf8Reasons))
			}
			// Every data file reads; the text is what was written.
			res := duckdb(t, fmt.Sprintf("SELECT id::VARCHAR, s, j::VARCHAR FROM %s ORDER BY id", dataSource(dir, f, false)))
			var got []string
			for _, r := range res[0].Rows {
				got = append(got, fmt.Sprint(r...))
			}
			want := []string{`0plain{"k":"é"}`, `5😀 \ud800"😀"`, `7Köln 日本<nil>`}
			if f != "jsonl" { // JSON text is kept as it came; DuckDB reads JSONL's as JSON
				want[1] = `5😀 \ud800"\ud83d\ude00"`
			}
			if !slices.Equal(got, want) {
				t.Errorf("DuckDB reads:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			checkReasons(t, f, rejectReasons(t, dir), utf8Reasons)
		})
	}
}

// JSONL written byte for byte (no columns) is checked whole, as readers
// parse every field of it; partition folders hold only UTF-8 values.
func TestReadersGetOnlyUTF8PassThrough(t *testing.T) {
	for _, partitioned := range []bool{false, true} {
		t.Run(fmt.Sprint("partitioned=", partitioned), func(t *testing.T) {
			dir := t.TempDir()
			recs := []string{
				`{"id":0,"p":"a","x":"é"}`,
				`{"id":1,"p":"a","x":"` + "\xff" + `"}`,
				`{"id":2,"p":"a","x":"\ud800"}`,
				`{"id":3,"p":"b` + "\xff" + `"}`,
				`{"id":4,"p":"\udbff","x":1}`,
				`{"id":5,"p":"b","x":"\udbff\udfff"}`,
			}
			l := pipeline.Layout{Format: "jsonl"}
			want := map[string]string{"1": "invalid UTF-8 at byte 21 of the record", "2": `lone surrogate \ud800 at byte 21 of the record`}
			if partitioned {
				l.PartitionBy = []string{"p"}
				want["3"] = `field "p": invalid UTF-8 at byte 1 of its value`
				want["4"] = `field "p": lone surrogate \udbff`
			} else {
				want["3"] = "invalid UTF-8 at byte 14 of the record"
				want["4"] = `lone surrogate \udbff at byte 13 of the record`
			}
			writeRecords(t, dir, l, recs)
			res := duckdb(t, fmt.Sprintf("SELECT id::VARCHAR, x::VARCHAR FROM %s ORDER BY id", dataSource(dir, "jsonl", partitioned)))
			if got := fmt.Sprint(res[0].Rows); got != `[[0 é] [5 􏿿]]` {
				t.Errorf("DuckDB reads %s", got)
			}
			checkReasons(t, "pass-through", rejectReasons(t, dir), want)
		})
	}
}

// Timestamps and dates from year 0001 to 9999 read back as written; others
// are refused, with the reason, rather than failing the whole file in
// DuckDB, reading as infinity or printing as 10000-01-01.
func TestReadersGetTimestampsInRange(t *testing.T) {
	cols := []format.Column{
		{Name: "id", Type: "int64", Nullable: new(bool)},
		{Name: "ts", Type: "timestamp"},
		{Name: "d", Type: "date"},
	}
	recs := []string{
		`{"id":0,"ts":"0001-01-01T00:00:00Z","d":"0001-01-01"}`,
		`{"id":1,"ts":"9999-12-31T23:59:59.999Z","d":"9999-12-31"}`,
		`{"id":2,"ts":-62135596800000}`,
		`{"id":3,"ts":253402300799999}`,
		`{"id":4,"ts":253402300800000}`,
		`{"id":5,"ts":9223372036854775807}`,
		`{"id":6,"ts":-9223372036854775808}`,
		`{"id":7,"ts":"9999-12-31T23:30:00-01:00"}`,
		`{"id":8,"ts":"0000-06-01T00:00:00Z"}`,
		`{"id":9,"d":"0000-01-01"}`,
		`{"id":10,"ts":9223372036854775}`,
	}
	reasons := map[string]string{
		"4":  "253402300800000 is outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z",
		"5":  "9223372036854775807 is outside",
		"6":  "-9223372036854775808 is outside",
		"7":  `"9999-12-31T23:30:00-01:00" is outside`,
		"8":  `"0000-06-01T00:00:00Z" is outside`,
		"9":  `"0000-01-01" is outside 0001-01-01 to 9999-12-31`,
		"10": "9223372036854775 is outside",
	}
	for _, f := range []string{"parquet", "csv", "jsonl"} {
		t.Run(f, func(t *testing.T) {
			dir := t.TempDir()
			writeRecords(t, dir, pipeline.Layout{Format: f, Columns: cols}, recs)
			src := dataSource(dir, f, false)
			if f != "parquet" {
				src = strings.Replace(src, ")", ", columns = {'id': 'BIGINT', 'ts': 'TIMESTAMPTZ', 'd': 'DATE'})", 1)
			}
			res := duckdb(t, "SET TimeZone = 'UTC'", fmt.Sprintf("SELECT id::VARCHAR, epoch_ms(ts)::VARCHAR, strftime(ts, '%%Y-%%m-%%dT%%H:%%M:%%S.%%g'), d::VARCHAR FROM %s ORDER BY id", src))
			got := fmt.Sprint(res[1].Rows)
			want := "[[0 -62135596800000 0001-01-01T00:00:00.000 0001-01-01] [1 253402300799999 9999-12-31T23:59:59.999 9999-12-31] " +
				"[2 -62135596800000 0001-01-01T00:00:00.000 <nil>] [3 253402300799999 9999-12-31T23:59:59.999 <nil>]]"
			if got != want {
				t.Errorf("DuckDB reads\n%s\nwant\n%s", got, want)
			}
			checkReasons(t, f, rejectReasons(t, dir), reasons)
		})
	}
}

// A non-nullable identity partition holds its values in the folder names
// only (the column is not in the files, as Hive and Spark want it), and
// DuckDB prefers the folder's value to a file's column of the same name
// anyway: a value the folder cannot hold as it is (longer than a folder
// name takes, "" or __HIVE_DEFAULT_PARTITION__, which read back as NULL)
// is refused. A nullable one keeps "" as Hive does: it reads as NULL.
func TestReadersGetIdentityPartitionValues(t *testing.T) {
	long := strings.Repeat("ü", 101) // 202 bytes: one more than a folder takes
	fits := strings.Repeat("y", 200)
	recs := []string{
		`{"id":0,"c":"de"}`,
		`{"id":1,"c":""}`,
		`{"id":2,"c":"__HIVE_DEFAULT_PARTITION__"}`,
		`{"id":3,"c":"` + long + `"}`,
		`{"id":4,"c":"` + fits + `"}`,
		`{"id":5,"c":"a/b=%"}`,
		`{"id":6}`,
	}
	for _, nullable := range []bool{false, true} {
		t.Run(fmt.Sprint("nullable=", nullable), func(t *testing.T) {
			cols := []format.Column{{Name: "id", Type: "int64", Nullable: new(bool)}, {Name: "c", Type: "string", Nullable: &nullable}}
			dir := t.TempDir()
			writeRecords(t, dir, pipeline.Layout{Format: "parquet", Columns: cols, PartitionBy: []string{"c"}}, recs)
			res := duckdb(t, fmt.Sprintf("SELECT id::VARCHAR, c FROM read_parquet('%s/c=*/*.parquet', hive_partitioning = true, hive_types_autocast = false) ORDER BY id", dir))
			want := map[string]any{"0": "de", "4": fits, "5": "a/b=%"}
			reasons := map[string]string{
				"2": `column "c": "__HIVE_DEFAULT_PARTITION__" is the folder name of a null value`,
				"3": `column "c": the value is 202 bytes as a folder name (escaped); a folder takes at most 200`,
			}
			if nullable {
				want["1"], want["6"] = nil, nil
			} else {
				reasons["1"] = `column "c": "" is written as the folder of a null value (__HIVE_DEFAULT_PARTITION__), and the column is not nullable`
				reasons["6"] = "missing, and the column is not nullable"
			}
			got := map[string]any{}
			for _, r := range res[0].Rows {
				got[fmt.Sprint(r[0])] = r[1]
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("DuckDB reads\n%v\nwant\n%v", got, want)
			}
			checkReasons(t, "identity", rejectReasons(t, dir), reasons)
		})
	}
}

// Readers infer the types of partition values from the folder names:
// DuckDB reads "7" as a BIGINT and "2026-1-2" as the DATE 2026-01-02.
// hive_types_autocast = false, or hive_types, keeps the strings.
func TestReadersKeepPartitionStringsWithTheirOptions(t *testing.T) {
	cols := []format.Column{{Name: "id", Type: "int64"}, {Name: "code", Type: "string"}}
	for _, tc := range []struct {
		values      []string
		typ, asRead string
	}{
		{[]string{"7", "12"}, "BIGINT", "[[0 7] [1 12]]"},
		{[]string{"2026-1-2", "2026-1-2"}, "DATE", "[[0 2026-01-02] [1 2026-01-02]]"},
	} {
		dir := t.TempDir()
		var recs []string
		for i, v := range tc.values {
			recs = append(recs, fmt.Sprintf(`{"id":%d,"code":%q}`, i, v))
		}
		writeRecords(t, dir, pipeline.Layout{Format: "parquet", Columns: cols, PartitionBy: []string{"code"}}, recs)
		src := fmt.Sprintf("read_parquet('%s/code=*/*.parquet', hive_partitioning = true", dir)
		res := duckdb(t,
			"SELECT typeof(code), id::VARCHAR, code::VARCHAR FROM "+src+") ORDER BY id",
			"SELECT typeof(code), id::VARCHAR, code FROM "+src+", hive_types_autocast = false) ORDER BY id",
			"SELECT typeof(code), id::VARCHAR, code FROM "+src+", hive_types = {'code': VARCHAR}) ORDER BY id",
		)
		if typ, rows := res[0].Rows[0][0], rowsAfter(res[0].Rows, 1); typ != tc.typ || rows != tc.asRead {
			t.Errorf("%v by default: %v %s, want %s %s", tc.values, typ, rows, tc.typ, tc.asRead)
		}
		want := fmt.Sprintf("[[0 %s] [1 %s]]", tc.values[0], tc.values[1])
		for i, opt := range []string{"hive_types_autocast = false", "hive_types"} {
			if typ, rows := res[i+1].Rows[0][0], rowsAfter(res[i+1].Rows, 1); typ != "VARCHAR" || rows != want {
				t.Errorf("%v with %s: %v %s, want VARCHAR %s", tc.values, opt, typ, rows, want)
			}
		}
	}
}

func rowsAfter(rows [][]any, skip int) string {
	var out [][]any
	for _, r := range rows {
		out = append(out, r[skip:])
	}
	return fmt.Sprint(out)
}

// Rejected records stay out of the data glob (**/*.jsonl matches folders
// starting with '_' in DuckDB): they are JSONL files of another name, under
// _streamctl/, which DuckDB reads on their own.
func TestRejectsStayOutOfTheDataGlob(t *testing.T) {
	dir := t.TempDir()
	cols := []format.Column{{Name: "id", Type: "int64", Nullable: new(bool)}, {Name: "c", Type: "string"}}
	recs := []string{`{"id":0,"c":"de"}`, `{"c":"fr"}`, `{"id":2,"c":"fr"}`, `not json`}
	for _, f := range []string{"jsonl", "csv", "parquet"} {
		d := filepath.Join(dir, f)
		st := writeRecords(t, d, pipeline.Layout{Format: f, Columns: cols, PartitionBy: []string{"c"}}, recs)
		if st.Rejected != 2 {
			t.Fatalf("%s: rejected %d, want 2", f, st.Rejected)
		}
		res := duckdb(t, fmt.Sprintf("SELECT count(*)::VARCHAR, sum(id)::VARCHAR FROM %s", dataSource(d, f, true)))
		if got := fmt.Sprint(res[0].Rows); got != "[[2 2]]" {
			t.Errorf("%s: DuckDB's **/*.%s reads %s, want the 2 data records", f, f, got)
		}
		checkReasons(t, f, rejectReasons(t, d), map[string]string{"1": `column "id": missing`, "3": "not JSON"})
		var names []string
		filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				rel, _ := filepath.Rel(d, p)
				names = append(names, filepath.ToSlash(rel))
			}
			return err
		})
		want := []string{"_streamctl/_rejected/part-00000005-00000.ndjson", "c=de/part-00000005-00000." + f, "c=fr/part-00000005-00000." + f}
		if !slices.Equal(names, want) {
			t.Errorf("%s: files %v, want %v", f, names, want)
		}
	}
}

// A rejected record that is not UTF-8 keeps its bytes (base64) beside a
// readable rendering; one with a lone surrogate is kept as a JSON string:
// DuckDB reads the reject files, and they give the records back exactly.
func TestRejectLinesReadInDuckDB(t *testing.T) {
	dir := t.TempDir()
	recs := []string{`{"id":"` + "\xff" + `"}`, `{"id":"\ud800"}`, `{"id":{}}`}
	writeRecords(t, dir, pipeline.Layout{Format: "jsonl", Columns: []format.Column{{Name: "id", Type: "string"}}}, recs)
	rdir := filepath.Join(dir, filepath.FromSlash(pipeline.RejectedDir))
	res := duckdb(t, fmt.Sprintf("SELECT count(*)::VARCHAR, count(record_base64)::VARCHAR FROM read_json('%s/*', format = 'newline_delimited')", rdir))
	if got := fmt.Sprint(res[0].Rows); got != "[[3 1]]" {
		t.Errorf("DuckDB reads %s of the rejects, want 3 lines, 1 with record_base64", got)
	}
	data, err := os.ReadFile(filepath.Join(rdir, "part-00000005-00000.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var r struct {
			Record       json.RawMessage `json:"record"`
			RecordBase64 []byte          `json:"record_base64"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		got := string(r.RecordBase64)
		if r.RecordBase64 == nil {
			if err := json.Unmarshal(r.Record, &got); err != nil {
				got = string(r.Record) // the record's own JSON
			}
		}
		if got != recs[i] {
			t.Errorf("line %d gives the record back as %q, want %q:\n%s", i, got, recs[i], line)
		}
	}
}

// What a glob reads after a crash: a batch staged under _temporary/<N>/ has
// the data files' names, and DuckDB's ** matches it; a glob of the
// partition folders (or the manifests) does not read it.
func TestGlobsAndTemporaries(t *testing.T) {
	dir := t.TempDir()
	cols := []format.Column{{Name: "id", Type: "int64"}, {Name: "c", Type: "string"}}
	l := pipeline.Layout{Format: "parquet", Columns: cols, PartitionBy: []string{"c"}}
	writeRecords(t, dir, l, []string{`{"id":1,"c":"de"}`, `{"id":2,"c":"fr"}`})
	writeRecords(t, filepath.Join(dir, "_temporary", "6"), l, []string{`{"id":3,"c":"de"}`}) // left by a crash
	res := duckdb(t,
		fmt.Sprintf("SELECT count(*)::VARCHAR FROM read_parquet('%s/**/*.parquet', hive_partitioning = true)", dir),
		fmt.Sprintf("SELECT count(*)::VARCHAR FROM read_parquet('%s/c=*/*.parquet', hive_partitioning = true)", dir),
	)
	if got := fmt.Sprint(res[0].Rows[0][0], " ", res[1].Rows[0][0]); got != "3 2" {
		t.Errorf("** reads %v records, c=* reads %v; want 3 (the staged one too) and 2", res[0].Rows[0][0], res[1].Rows[0][0])
	}
}
