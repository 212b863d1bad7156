package pipeline

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/streamctl/streamctl/internal/format/formattest"
)

// TestRollingBySizeText: a CSV or JSONL file ends with the record that takes
// it to max_file_size or past it, so every file of a folder but the last
// holds at least the size and less than the size plus its last record, the
// files hold every record once in order, and the cut is the same with the
// folders written at once or sorted (maxOpen 1) and on one goroutine or two.
func TestRollingBySizeText(t *testing.T) {
	recs := genRecords(3000)
	for _, tc := range []struct {
		name string
		l    Layout
	}{
		{"jsonl passed through", Layout{Format: "jsonl"}},
		{"jsonl columns", Layout{Format: "jsonl", Columns: formattest.Columns(true)}},
		{"csv", Layout{Format: "csv", Columns: formattest.Columns(true)}},
		{"csv by country", Layout{Format: "csv", Columns: formattest.Columns(true), PartitionBy: []string{"country"}}},
		{"csv by country sorted", Layout{Format: "csv", Columns: formattest.Columns(true), PartitionBy: []string{"country"}, maxOpen: 1}},
	} {
		for _, size := range []int64{1, 10 << 10, 100 << 10} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, size), func(t *testing.T) {
				var first map[string][]byte
				modes(t, func(t *testing.T, seq bool) {
					l := tc.l
					l.MaxFileSize, l.Sequential = size, seq
					out, st := run(t, l, []int{0}, recs)
					tree := out.tree(t, 0)
					checkTextSizes(t, tree, size, tc.l.Format == "csv")
					if rows := countLines(tree, tc.l.Format == "csv"); rows != len(recs) || st.Records != int64(len(recs)) {
						t.Errorf("%d rows in the files, %d records counted, want %d", rows, st.Records, len(recs))
					}
					if st.Files != int64(len(tree)) {
						t.Errorf("stats say %d files, %d written", st.Files, len(tree))
					}
					if first == nil {
						first = tree
					} else if !maps.EqualFunc(first, tree, bytes.Equal) {
						t.Error("the files differ between the sequential and the pipelined run")
					}
				})
			})
		}
	}
}

// checkTextSizes checks the files of each folder against max_file_size.
func checkTextSizes(t *testing.T, tree map[string][]byte, size int64, header bool) {
	t.Helper()
	folders := map[string][]string{}
	for rel := range tree {
		dir, _, _ := strings.Cut(rel, "part-")
		folders[dir] = append(folders[dir], rel)
	}
	for dir, names := range folders {
		slices.Sort(names)
		for i, n := range names {
			data := tree[n]
			lines := bytes.SplitAfter(data, []byte("\n"))
			lines = lines[:len(lines)-1] // after the last newline
			if header && len(lines) < 2 || len(lines) == 0 {
				t.Fatalf("%s holds no record", n)
			}
			// A file takes at least one record, a CSV file's header besides.
			before := int64(len(data)) - int64(len(lines[len(lines)-1]))
			multi := len(lines) > 1 && !header || len(lines) > 2
			if multi && before >= size {
				t.Errorf("%s: %d bytes before its last record, want under %d: the file went on past the size", n, before, size)
			}
			if i < len(names)-1 && int64(len(data)) < size {
				t.Errorf("%s: %d bytes, want at least %d: only the last file of %q may end short", n, len(data), size, dir)
			}
		}
	}
}

func countLines(tree map[string][]byte, header bool) int {
	n := 0
	for _, data := range tree {
		n += bytes.Count(data, []byte("\n"))
		if header {
			n--
		}
	}
	return n
}

// TestRollingBySizeParquet: Parquet files end between row groups near
// max_file_size (the footer on top), each a valid file, together every
// record once, and the same bytes on one goroutine or two.
func TestRollingBySizeParquet(t *testing.T) {
	recs := genRecords(40000)
	for _, tc := range []struct {
		compression string
		size        int64
		rowGroup    int64
	}{
		{"zstd", 64 << 10, 0},
		{"zstd", 256 << 10, 0},
		{"zstd", 256 << 10, 1000},
		{"none", 256 << 10, 0},
		{"snappy", 1 << 20, 2000},
	} {
		t.Run(fmt.Sprintf("%s/%d/rg%d", tc.compression, tc.size, tc.rowGroup), func(t *testing.T) {
			var first map[string][]byte
			modes(t, func(t *testing.T, seq bool) {
				l := Layout{Format: "parquet", Columns: formattest.Columns(true), Compression: tc.compression,
					RowGroupRecords: tc.rowGroup, MaxFileSize: tc.size, Sequential: seq}
				out, _ := run(t, l, []int{0}, recs)
				tree := out.tree(t, 0)
				names := slices.Sorted(maps.Keys(tree))
				if len(names) < 2 {
					t.Fatalf("%d files, want several", len(names))
				}
				rows := 0
				var sizes []int
				for i, n := range names {
					rows += len(readParquet(t, tree[n]))
					sizes = append(sizes, len(tree[n]))
					// The estimate of the open row group is the ratio of the
					// file's others; these records compress evenly, so
					// files land within a tenth of the size (3% here).
					if got := int64(len(tree[n])); got > tc.size*11/10 || i < len(names)-1 && got < tc.size*9/10 {
						t.Errorf("%s: %d bytes, want %d ± 10%%", n, got, tc.size)
					}
				}
				if rows != len(recs) {
					t.Errorf("%d rows in the files, want %d", rows, len(recs))
				}
				t.Logf("file sizes %v", sizes)
				if first == nil {
					first = tree
				} else if !maps.EqualFunc(first, tree, bytes.Equal) {
					t.Error("the files differ between the sequential and the pipelined run")
				}
			})
		})
	}
}

// TestRollingBySizeOrRecords: with max_file_records too, a file ends at
// whichever comes first.
func TestRollingBySizeOrRecords(t *testing.T) {
	const line = 32 // `{"n":0000000000000000000000042}` and its newline
	recs := genRecords(1000)
	for _, r := range recs {
		r.Value = fmt.Appendf(nil, `{"n":%025d}`, r.Offset)
	}
	for _, tc := range []struct {
		name       string
		maxRecords int64
		maxSize    int64
		want       int // records in the first file
	}{
		{"records first", 10, 100 * line, 10},
		{"size first", 100, 10 * line, 10},
		{"size only", 0, 25 * line, 25},
		{"size one byte into the next record", 0, 25*line + 1, 26},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := run(t, Layout{Format: "jsonl", MaxFileRecords: tc.maxRecords, MaxFileSize: tc.maxSize}, []int{0}, recs)
			if got := out.files[0]["part-00000007-00000.jsonl"].records; got != int64(tc.want) {
				t.Errorf("the first file holds %d records, want %d", got, tc.want)
			}
		})
	}
}

func TestMaxFileSizeMustBePositive(t *testing.T) {
	if _, err := New(Layout{Format: "jsonl", MaxFileSize: -1}, 7, []int{0}, newMemOutput()); err == nil || !strings.Contains(err.Error(), "max_file_size must be positive") {
		t.Errorf("New with max_file_size -1: %v", err)
	}
}
