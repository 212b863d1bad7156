package pipeline

import (
	"context"
	"crypto/sha256"
	"hash"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/format/formattest"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/generate"
)

// benchRecords is the size of a batch in the record-path benchmarks.
const benchRecords = 200_000

var benchData struct {
	recs []*providers.Record
	rows []formattest.Row
}

func loadBench() {
	if benchData.recs != nil {
		return
	}
	for i := range benchRecords {
		r := formattest.MakeRow(i%4, int64(i/4))
		benchData.rows = append(benchData.rows, r)
		benchData.recs = append(benchData.recs, &providers.Record{Partition: "p", Offset: int64(i), Value: formattest.AppendRecord(nil, r)})
	}
}

// countingOutput discards files and counts their bytes.
type countingOutput struct{ bytes atomic.Int64 }

func (o *countingOutput) Create([]int, string) (File, error) { return countingFile{o}, nil }

type countingFile struct{ o *countingOutput }

func (f countingFile) Write(p []byte) (int, error) { f.o.bytes.Add(int64(len(p))); return len(p), nil }
func (countingFile) Finish(int64) error            { return nil }
func (countingFile) Abort()                        {}

// rawRow and rawRowNoCountry have the schema streamctl writes for
// formattest.Columns(false), without and with the country partition.
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

type rawRowNoCountry struct {
	ID         int64   `parquet:"id"`
	Partition  int32   `parquet:"partition"`
	Offset     int64   `parquet:"offset"`
	TS         int64   `parquet:"ts,timestamp(millisecond)"`
	CustomerID int64   `parquet:"customer_id"`
	Amount     float64 `parquet:"amount"`
	Note       string  `parquet:"note"`
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportRate reports records/s (wall clock) and the CPU time per record
// since cpu0, which other load on the machine disturbs much less.
func reportRate(b *testing.B, out *countingOutput, cpu0 time.Duration) {
	n := float64(benchRecords) * float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(cpuTime()-cpu0)/n, "cpu-ns/record")
	b.ReportMetric(float64(out.bytes.Load())/float64(b.N), "out-bytes/op")
}

// BenchmarkRecordPath writes 200,000 records of the generate schema as
// Parquet ZSTD through the whole record path (extract, partition, encode),
// beside the raw limit: parquet-go writing the same rows from memory with the
// same schema, compression and row groups.
func BenchmarkRecordPath(b *testing.B) {
	loadBench()
	for _, tc := range []struct {
		name      string
		partition []string
		nullable  bool
		seq       bool
	}{
		{"streamctl/country/pipelined", []string{"country"}, false, false},
		{"streamctl/country/sequential", []string{"country"}, false, true},
		{"streamctl/country/nullable", []string{"country"}, true, false},
		{"streamctl/unpartitioned/pipelined", nil, false, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			out := &countingOutput{}
			cpu0 := cpuTime()
			l := Layout{Format: "parquet", Compression: "zstd", Columns: formattest.Columns(tc.nullable), PartitionBy: tc.partition, Sequential: tc.seq}
			b.ReportAllocs()
			for b.Loop() {
				w, err := New(l, 0, []int{0}, out)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range benchData.recs {
					if err := w.Write(r); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			reportRate(b, out, cpu0)
		})
	}
	b.Run("raw-parquet-go/country", func(b *testing.B) {
		byCountry := map[string][]rawRowNoCountry{}
		var order []string
		for _, r := range benchData.rows {
			if byCountry[r.Country] == nil {
				order = append(order, r.Country)
			}
			byCountry[r.Country] = append(byCountry[r.Country], rawRowNoCountry{r.ID, r.Partition, r.Offset, r.TS, r.CustomerID, r.Amount, r.Note})
		}
		out := &countingOutput{}
		cpu0 := cpuTime()
		for b.Loop() {
			for _, c := range order {
				w := parquet.NewGenericWriter[rawRowNoCountry](countingFile{out}, parquet.Compression(&parquet.Zstd), parquet.MaxRowsPerRowGroup(format.DefaultRowGroupRecords))
				if _, err := w.Write(byCountry[c]); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
		}
		reportRate(b, out, cpu0)
	})
	b.Run("raw-parquet-go/unpartitioned", func(b *testing.B) {
		rows := make([]rawRow, len(benchData.rows))
		for i, r := range benchData.rows {
			rows[i] = rawRow(r)
		}
		out := &countingOutput{}
		cpu0 := cpuTime()
		for b.Loop() {
			w := parquet.NewGenericWriter[rawRow](countingFile{out}, parquet.Compression(&parquet.Zstd), parquet.MaxRowsPerRowGroup(format.DefaultRowGroupRecords))
			if _, err := w.Write(rows); err != nil {
				b.Fatal(err)
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
		reportRate(b, out, cpu0)
	})
}

// hashingOutput discards files after hashing them with SHA-256, as the
// engine's staging does on the encoding side.
type hashingOutput struct{ bytes atomic.Int64 }

func (o *hashingOutput) Create([]int, string) (File, error) {
	return &hashingFile{o: o, h: sha256.New()}, nil
}

type hashingFile struct {
	o *hashingOutput
	h hash.Hash
}

func (f *hashingFile) Write(p []byte) (int, error) {
	f.h.Write(p)
	f.o.bytes.Add(int64(len(p)))
	return len(p), nil
}
func (f *hashingFile) Finish(int64) error { f.h.Sum(nil); return nil }
func (*hashingFile) Abort()               {}

// BenchmarkGenerate is the record path of `apply` from the generate source
// (4 partitions read one after the other, payload_bytes = 64) into Parquet
// ZSTD partitioned by country, the case of internal/bench/parquet without the
// process around it: -bench Generate -cpuprofile shows where its time goes.
func BenchmarkGenerate(b *testing.B) {
	const records = 2_000_000
	src := &generate.Source{Partitions: 4, RecordsPerPartition: records / 4, PayloadBytes: 64}
	l := Layout{Format: "parquet", Compression: "zstd", Columns: formattest.Columns(true), PartitionBy: []string{"country"}}
	out := &hashingOutput{}
	cpu0 := cpuTime()
	for b.Loop() {
		w, err := New(l, 0, []int{0}, out)
		if err != nil {
			b.Fatal(err)
		}
		for p := range src.Partitions {
			if err := src.Read(context.Background(), strconv.Itoa(p), 0, src.RecordsPerPartition, w.Write); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	n := float64(records) * float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(cpuTime()-cpu0)/n, "cpu-ns/record")
	b.ReportMetric(float64(out.bytes.Load())/float64(b.N), "out-bytes/op")
}

// peakRSS is the process's peak resident set size (VmHWM), in bytes.
func peakRSS(b *testing.B) float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb * 1024
		}
	}
	return 0
}

// BenchmarkBatchMemory runs one batch of generate records, made on the fly so
// that the input holds no memory, into Parquet ZSTD partitioned by country
// (8 folders), and reports the process's peak RSS. Run each size in its own
// process (-bench 'BatchMemory/2000000' -benchtime 1x): the peak is the
// process's, not the sub-benchmark's.
func BenchmarkBatchMemory(b *testing.B) {
	for _, n := range []int{200_000, 2_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			benchBatchMemory(b, Layout{Format: "parquet", Compression: "zstd", Columns: formattest.Columns(true), PartitionBy: []string{"country"}}, n)
		})
	}
}

// benchBatchMemory writes one batch of n generate records, made on the fly
// so that the input holds no memory, with l, and reports the process's peak
// RSS and the bytes written per batch: the memory benchmarks differ only in
// their layout and size.
func benchBatchMemory(b *testing.B, l Layout, n int) {
	out := &countingOutput{}
	rec := &providers.Record{Partition: "0"}
	for b.Loop() {
		w, err := New(l, 0, []int{0}, out)
		if err != nil {
			b.Fatal(err)
		}
		for i := range n {
			rec.Offset = int64(i)
			rec.Value = formattest.AppendRecord(rec.Value[:0], formattest.MakeRow(0, int64(i)))
			if err := w.Write(rec); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(peakRSS(b)/(1<<20), "peak-RSS-MB")
	b.ReportMetric(float64(out.bytes.Load())/float64(b.N)/(1<<20), "out-MB")
}
