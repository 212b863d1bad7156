package format_test

import (
	"io"
	"testing"

	. "github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/format/formattest"
	"github.com/streamctl/streamctl/providers"
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
