package parquet_test

import (
	"io"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/format/formattest"
	streamparquet "github.com/streamctl/streamctl/internal/format/parquet"
	"github.com/streamctl/streamctl/providers"
)

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
	s, err := format.NewSchema(formattest.Columns(false))
	if err != nil {
		b.Fatal(err)
	}
	columns := make([]streamparquet.Column, len(s.Columns))
	for i, c := range s.Columns {
		columns[i] = streamparquet.Column{Name: c.Name, Kind: s.Kinds[i], Nullable: c.IsNullable()}
	}
	x, _ := format.NewExtractor(s.Fields())
	const n = 4096
	rows := make([][]format.Value, n)
	raws := make([]rawRow, n)
	for i := range rows {
		r := formattest.MakeRow(0, int64(i))
		raws[i] = rawRow{r.ID, r.Partition, r.Offset, r.TS, r.CustomerID, r.Country, r.Amount, r.Note}
		rows[i] = make([]format.Value, len(s.Columns))
		if err := x.Extract(&providers.Record{Value: formattest.AppendRecord(nil, r)}, rows[i]); err != nil {
			b.Fatal(err)
		}
		for j := range rows[i] {
			rows[i][j].Bytes = append([]byte(nil), rows[i][j].Bytes...)
		}
	}
	for _, comp := range []string{"zstd", "snappy"} {
		b.Run("streamctl-"+comp, func(b *testing.B) {
			f, err := streamparquet.NewFormat(columns, streamparquet.Options{Compression: comp})
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
			w := parquet.NewGenericWriter[rawRow](io.Discard, codec, parquet.MaxRowsPerRowGroup(streamparquet.DefaultRowGroupRecords))
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
