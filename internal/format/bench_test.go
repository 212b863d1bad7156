package format_test

import (
	"io"
	"testing"

	. "github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/format/formattest"
	"github.com/streamctl/streamctl/providers"

	"github.com/parquet-go/parquet-go"
)

var benchColumns = formattest.Columns(true)

func benchRecord(offset int64) []byte {
	return formattest.AppendRecord(nil, formattest.MakeRow(0, offset))
}

// BenchmarkExtract measures field extraction alone: the generate schema's 8
// columns out of ~200-byte records.
func BenchmarkExtract(b *testing.B) {
	s, err := NewSchema(benchColumns)
	if err != nil {
		b.Fatal(err)
	}
	x, err := NewExtractor(s.Fields())
	if err != nil {
		b.Fatal(err)
	}
	recs := make([][]byte, 1024)
	size := 0
	for i := range recs {
		recs[i] = benchRecord(int64(i))
		size += len(recs[i])
	}
	vals := make([]Value, len(benchColumns))
	rec := &providers.Record{}
	b.ReportAllocs()
	b.SetBytes(int64(size / len(recs)))
	for i := 0; b.Loop(); i++ {
		rec.Value = recs[i%len(recs)]
		if err := x.Extract(rec, vals); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkEncode measures each encoder alone on already extracted rows.
func BenchmarkEncode(b *testing.B) {
	s, err := NewSchema(benchColumns)
	if err != nil {
		b.Fatal(err)
	}
	x, _ := NewExtractor(s.Fields())
	const n = 4096
	rows := make([][]Value, n)
	for i := range rows {
		rows[i] = make([]Value, len(benchColumns))
		if err := x.Extract(&providers.Record{Value: benchRecord(int64(i))}, rows[i]); err != nil {
			b.Fatal(err)
		}
		for j := range rows[i] { // own the bytes: the extractor reuses its memory
			rows[i][j].Bytes = append([]byte(nil), rows[i][j].Bytes...)
		}
	}
	for _, o := range []Options{{Format: Parquet, Compression: "zstd"}, {Format: Parquet, Compression: "none"}, {Format: Parquet, Compression: "snappy"}, {Format: CSV}, {Format: JSONL}} {
		b.Run(o.Format+"-"+o.Compression, func(b *testing.B) {
			f, err := NewFormat(s, o)
			if err != nil {
				b.Fatal(err)
			}
			enc := f.NewEncoder(io.Discard)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := enc.Append(nil, rows[i%n]); err != nil {
					b.Fatal(err)
				}
			}
			if err := enc.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// The record path must not allocate per record once its buffers have grown.
func TestExtractDoesNotAllocate(t *testing.T) {
	s, err := NewSchema(benchColumns)
	if err != nil {
		t.Fatal(err)
	}
	x, err := NewExtractor(s.Fields())
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]Value, len(benchColumns))
	rec := &providers.Record{Value: benchRecord(1)}
	rec.Value = append(rec.Value[:len(rec.Value)-1], []byte(`,"esc":"a\"b","extra":{"k":[1,2,{"z":null}]}}`)...)
	allocs := testing.AllocsPerRun(1000, func() {
		if err := x.Extract(rec, vals); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("Extract allocates %.1f times per record, want 0", allocs)
	}
}

// rawRow is formattest.Row with parquet tags giving the same schema as
// formattest.Columns(false).
type rawRow struct {
	ID         int64   `parquet:"id"`
	Partition  int32   `parquet:"partition"`
	Offset     int64   `parquet:"offset"`
	TS         int64   `parquet:"ts,timestamp(millisecond)"`
	CustomerID int64   `parquet:"customer_id"`
	Country    string  `parquet:"country"`
	Amount     float64 `parquet:"amount"`
	Note       string  `parquet:"note"`
}

// BenchmarkEncodeRequired compares the Parquet encoder with parquet-go
// writing the same rows from Go structs (the raw limit), on required columns.
func BenchmarkEncodeRequired(b *testing.B) {
	s, err := NewSchema(formattest.Columns(false))
	if err != nil {
		b.Fatal(err)
	}
	x, _ := NewExtractor(s.Fields())
	const n = 4096
	rows := make([][]Value, n)
	raws := make([]rawRow, n)
	for i := range rows {
		r := formattest.MakeRow(0, int64(i))
		raws[i] = rawRow{r.ID, r.Partition, r.Offset, r.TS, r.CustomerID, r.Country, r.Amount, r.Note}
		rows[i] = make([]Value, len(s.Columns))
		if err := x.Extract(&providers.Record{Value: formattest.AppendRecord(nil, r)}, rows[i]); err != nil {
			b.Fatal(err)
		}
		for j := range rows[i] {
			rows[i][j].Bytes = append([]byte(nil), rows[i][j].Bytes...)
		}
	}
	for _, comp := range []string{"zstd", "snappy"} {
		b.Run("streamctl-"+comp, func(b *testing.B) {
			f, err := NewFormat(s, Options{Format: Parquet, Compression: comp})
			if err != nil {
				b.Fatal(err)
			}
			enc := f.NewEncoder(io.Discard)
			for i := 0; b.Loop(); i++ {
				if err := enc.Append(nil, rows[i%n]); err != nil {
					b.Fatal(err)
				}
			}
			if err := enc.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
		b.Run("raw-"+comp, func(b *testing.B) {
			codec := map[string]parquet.WriterOption{"zstd": parquet.Compression(&parquet.Zstd), "snappy": parquet.Compression(&parquet.Snappy)}[comp]
			w := parquet.NewGenericWriter[rawRow](io.Discard, codec, parquet.MaxRowsPerRowGroup(DefaultRowGroupRecords))
			for i := 0; b.Loop(); i++ {
				if i%n == n-1 {
					if _, err := w.Write(raws); err != nil {
						b.Fatal(err)
					}
				}
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}
