package iceberg_test

import (
	"context"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/streamctl/streamctl/internal/iceberg"
	"github.com/streamctl/streamctl/internal/pipeline"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
)

// dirOutput writes a batch's files under a local folder and records them.
type dirOutput struct {
	root  string
	mu    *sync.Mutex // files are finished concurrently
	files *[]written
}

type written struct {
	rel     string
	records int64
}

func (o dirOutput) Create(_ []int, rel string) (pipeline.File, error) {
	p := filepath.Join(o.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(p)
	if err != nil {
		return nil, err
	}
	return &osFile{File: f, rel: rel, mu: o.mu, out: o.files}, nil
}

type osFile struct {
	*os.File
	rel string
	mu  *sync.Mutex
	out *[]written
}

func (f *osFile) Finish(n int64) error {
	f.mu.Lock()
	*f.out = append(*f.out, written{f.rel, n})
	f.mu.Unlock()
	return f.Close()
}
func (f *osFile) Abort() { f.Close(); os.Remove(f.Name()) }

// writeBatch writes records as batch with streamctl's pipeline under root
// and returns its data files.
func writeBatch(t *testing.T, root string, l pipeline.Layout, batch int64, recs []map[string]any) []iceberg.DataFile {
	t.Helper()
	l.Format = "parquet"
	var files []written
	w, err := pipeline.New(l, batch, []int{0}, dirOutput{root, new(sync.Mutex), &files})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		raw, _ := json.Marshal(r)
		if err := w.Write(&providers.Record{Partition: "0", Offset: int64(i), Value: raw}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	out := make([]iceberg.DataFile, len(files))
	for i, f := range files {
		st, err := os.Stat(filepath.Join(root, f.rel))
		if err != nil {
			t.Fatal(err)
		}
		folder := path.Dir(f.rel)
		if folder == "." {
			folder = ""
		}
		out[i] = iceberg.DataFile{URL: "file://" + root + "/" + f.rel, Size: st.Size(), Records: f.records, Folder: folder}
	}
	return out
}

// scanRows reads the table through iceberg-go's scan and returns each row
// as column name -> value (arrow's JSON form of the value).
func scanRows(t *testing.T, tb *table.Table, filter ice.BooleanExpression) []map[string]any {
	t.Helper()
	var opts []table.ScanOption
	if filter != nil {
		opts = append(opts, table.WithRowFilter(filter))
	}
	_, it, err := tb.Scan(opts...).ToArrowRecords(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	for rec, err := range it {
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, recordRows(rec)...)
		rec.Release()
	}
	return rows
}

func recordRows(rec arrow.RecordBatch) []map[string]any {
	rows := make([]map[string]any, rec.NumRows())
	for i := range rows {
		rows[i] = map[string]any{}
	}
	for c, col := range rec.Columns() {
		name := rec.ColumnName(c)
		for i := range rows {
			if col.IsNull(i) {
				rows[i][name] = nil
				continue
			}
			switch a := col.(type) {
			case *array.Timestamp:
				rows[i][name] = a.Value(i).ToTime(a.DataType().(*arrow.TimestampType).Unit).UTC()
			default:
				rows[i][name] = col.GetOneForMarshal(i)
			}
		}
	}
	return rows
}

// duckdb runs SQL statements with DuckDB and returns each one's rows.
func duckdb(t *testing.T, sql ...string) [][][]any {
	t.Helper()
	var out [][][]any
	for _, r := range testenv.DuckDB(t, ".", sql...) {
		out = append(out, r.Rows)
	}
	return out
}

type tableScanOption = table.ScanOption

func rowFilter(e ice.BooleanExpression) []table.ScanOption {
	return []table.ScanOption{table.WithRowFilter(e)}
}
