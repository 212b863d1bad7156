package iceberg_test

import (
	"context"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	// Scans with a row filter evaluate it through Substrait, which
	// streamctl's iceberg-go links only where this package is imported
	// (third_party/iceberg-go/PATCHES.md).
	_ "github.com/apache/iceberg-go/table/substrait"

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
func writeBatch(t testing.TB, root string, l pipeline.Layout, batch int64, recs []map[string]any) []iceberg.DataFile {
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
			case *array.Decimal128: // its exact text, every digit of the scale
				rows[i][name] = a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
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

// objectStore is where testObjectStoreTable puts a table: location is the
// table's location as iceberg-go names it, props its IO's properties, put
// writes data at rel under location, and count counts the objects under
// dir (relative to location).
type objectStore struct {
	location string
	props    map[string]string
	put      func(ctx context.Context, rel string, data []byte) error
	count    func(ctx context.Context, dir string) (int, error)
}

// testObjectStoreTable is the test of a table on an object store, the same
// for each store but for its own calls: two batches written locally and
// uploaded, appended (the second twice: a retry adds nothing), the metadata
// written through iceberg-go's IO for the store, and the table read back.
func testObjectStoreTable(t *testing.T, s objectStore) {
	t.Helper()
	ctx := context.Background()
	local := t.TempDir()
	upload := func(files []iceberg.DataFile) []iceberg.DataFile {
		t.Helper()
		out := make([]iceberg.DataFile, len(files))
		for i, f := range files {
			rel := strings.TrimPrefix(f.URL, "file://"+local+"/")
			b, err := os.ReadFile(filepath.Join(local, rel))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.put(ctx, rel, b); err != nil {
				t.Fatal(err)
			}
			f.URL = s.location + "/" + rel
			out[i] = f
		}
		return out
	}
	by := []string{"day(ts)", "truncate(1, country)"}
	b0 := upload(writeBatch(t, local, layoutWith(by...), 0, records(0, 60)))
	b1 := upload(writeBatch(t, local, layoutWith(by...), 1, records(60, 100)))
	cfg := config(local, by...)
	cfg.Location = s.location
	cfg.URI = filepath.Join(t.TempDir(), "catalog.db")
	cfg.Properties = s.props
	tb := open(t, cfg)
	for b, files := range [][]iceberg.DataFile{b0, b1, b1} {
		if err := tb.Append(ctx, "orders", int64(min(b, 1)), "r", files); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(tb.Iceberg().Metadata().Snapshots()); n != 2 {
		t.Errorf("%d snapshots, want 2", n)
	}
	if !strings.HasPrefix(tb.Iceberg().MetadataLocation(), s.location+"/metadata/") {
		t.Errorf("metadata at %s", tb.Iceberg().MetadataLocation())
	}
	if n, err := s.count(ctx, "metadata/"); err != nil || n == 0 {
		t.Fatalf("no metadata objects on the store: %v", err)
	}
	checkOnce(t, scanRows(t, tb.Iceberg(), nil), 100, false)
	files, err := tb.Files(ctx)
	if err != nil || len(files) != len(b0)+len(b1) {
		t.Errorf("Files: %d files (%v), want %d", len(files), err, len(b0)+len(b1))
	}
}
