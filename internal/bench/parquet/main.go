// Command parquet measures JSONL → Parquet ZSTD partitioned by country three
// ways, in one run, and prints one table (issue 10):
//
//   - streamctl: the real binary, `apply` end to end, from a files source
//     (the JSONL file) and from the generate source (the same records);
//   - DuckDB: COPY of the same JSONL file (duckdb-copy.mjs, 2 threads);
//   - raw parquet-go: the same rows written from memory, the library's limit.
//
// Every case runs in its own process, so that its peak RSS (the child's
// rusage Maxrss) is its own. The cases are interleaved run by run, so that
// other load on the machine falls on all of them alike, and medians are shown.
//
//	go run ./internal/bench/parquet [-records 2000000] [-small 200000] [-runs 5]
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"

	"github.com/streamctl/streamctl/internal/format"
	streamparquet "github.com/streamctl/streamctl/internal/format/parquet"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/generate"
)

func main() {
	records := flag.Int64("records", 2_000_000, "records of the large runs")
	small := flag.Int64("small", 200_000, "records of the small runs (peak RSS should not grow from them to -records)")
	runs := flag.Int("runs", 5, "interleaved runs of each case; medians are shown")
	rawChild := flag.String("raw-child", "", "internal: write the rows of this many records with parquet-go into -out, print the time")
	rawWorkers := flag.Int("raw-workers", 1, "internal: goroutines of -raw-child")
	rawCodec := flag.String("raw-codec", "parquet-go", "internal: zstd codec of -raw-child: parquet-go's or streamctl's")
	outDir := flag.String("out", "", "internal: output directory of -raw-child")
	flag.Parse()
	var err error
	if *rawChild != "" {
		err = rawMain(*rawChild, *outDir, *rawWorkers, *rawCodec)
	} else {
		err = run(*records, *small, *runs)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench/parquet:", err)
		os.Exit(1)
	}
}

// The raw cases the ratios are taken against.
const (
	rawDefault = "raw parquet-go, its zstd (a)"
	rawSame    = "raw parquet-go, streamctl's zstd (b)"
)

// The generate schema: the columns streamctl declares, and DuckDB's
// read_json columns in duckdb-copy.mjs.
var columns = []format.Column{
	{Name: "id", Type: "int64"},
	{Name: "partition", Type: "int32"},
	{Name: "offset", Type: "int64"},
	{Name: "ts", Type: "timestamp"},
	{Name: "customer_id", Type: "int64"},
	{Name: "country", Type: "string"},
	{Name: "amount", Type: "double"},
	{Name: "note", Type: "string"},
}

const (
	partitions   = 4
	payloadBytes = 64
)

func source(records int64) *generate.Source {
	return &generate.Source{Partitions: partitions, RecordsPerPartition: records / partitions, PayloadBytes: payloadBytes}
}

// result is one run of one case.
type result struct {
	seconds float64
	rssKB   int64
	bytes   int64
}

// bench is one case: run does one run in a fresh output directory.
type bench struct {
	name    string
	records int64
	run     func(out string) (result, error)
	results []result
}

func run(records, small int64, runs int) error {
	tmp, err := os.MkdirTemp("", "streamctl-bench-parquet-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "streamctl")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("build streamctl: %w", err)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("node is not on PATH (make tools installs @duckdb/node-api): %w", err)
	}
	modules, err := filepath.Abs(filepath.Join(".tools", "node", "node_modules"))
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(modules, "@duckdb", "node-api")); err != nil {
		return fmt.Errorf("@duckdb/node-api is not installed under %s: run make tools", modules)
	}
	script, err := filepath.Abs(filepath.Join("internal", "bench", "parquet", "duckdb-copy.mjs"))
	if err != nil {
		return err
	}

	var cases []*bench
	for _, n := range []int64{records, small} {
		in := filepath.Join(tmp, fmt.Sprintf("in-%d.jsonl", n))
		if err := writeJSONL(in, n); err != nil {
			return err
		}
		cases = append(cases,
			&bench{name: "streamctl apply: files (JSONL) → Parquet", records: n, run: func(out string) (result, error) {
				return apply(bin, out, filesConfig(in, n))
			}},
			&bench{name: "streamctl apply: generate → Parquet", records: n, run: func(out string) (result, error) {
				return apply(bin, out, generateConfig(n))
			}},
			&bench{name: "DuckDB COPY: JSONL → Parquet, 2 threads", records: n, run: func(out string) (result, error) {
				return child(exec.Command(node, script, in, filepath.Join(out, "out")), out, "NODE_PATH="+modules)
			}},
		)
		for _, raw := range []struct {
			name    string
			codec   string
			workers int
		}{
			{rawDefault, "parquet-go", 1},
			{rawSame, "streamctl", 1},
			{"raw parquet-go, streamctl's zstd, 2 goroutines", "streamctl", 2},
		} {
			cases = append(cases, &bench{name: raw.name, records: n, run: func(out string) (result, error) {
				cmd := exec.Command(self, "-raw-child", fmt.Sprint(n), "-raw-workers", fmt.Sprint(raw.workers), "-raw-codec", raw.codec, "-out", filepath.Join(out, "out"))
				return child(cmd, out)
			}})
		}
	}

	fmt.Fprintf(os.Stderr, "load before: %s\n", loadAverage())
	for i := range runs {
		for _, c := range cases {
			out, err := os.MkdirTemp(tmp, "run-")
			if err != nil {
				return err
			}
			// DuckDB does not fsync its files: flush what earlier runs left
			// dirty, so that its write-back does not fall on the next case.
			syscall.Sync()
			r, err := c.run(out)
			os.RemoveAll(out)
			if err != nil {
				return fmt.Errorf("%s, %d records: %w", c.name, c.records, err)
			}
			c.results = append(c.results, r)
			fmt.Fprintf(os.Stderr, "run %d/%d: %-45s %9d records %6.2f s %5d MB RSS\n", i+1, runs, c.name, c.records, r.seconds, r.rssKB>>10)
		}
	}
	fmt.Fprintf(os.Stderr, "load after: %s\n", loadAverage())

	med := func(c *bench) result { return median(c.results) }
	byName := func(n int64, prefix string) result {
		for _, c := range cases {
			if c.records == n && strings.HasPrefix(c.name, prefix) {
				return med(c)
			}
		}
		panic(prefix)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	// The runs' spread is shown beside the median: on a shared host it is
	// often ±20%, and a ratio of medians moves with it.
	fmt.Fprintf(w, "case\trecords\tseconds\truns' seconds\trecords/s\tpeak RSS MB\toutput MB\tspeed ÷ DuckDB\tsize ÷ DuckDB\tspeed ÷ raw (a)\tspeed ÷ raw (b)\t\n")
	for _, c := range cases {
		r := med(c)
		duck := byName(c.records, "DuckDB")
		rawA := byName(c.records, rawDefault)
		rawB := byName(c.records, rawSame)
		lo := slices.MinFunc(c.results, func(a, b result) int { return cmp.Compare(a.seconds, b.seconds) })
		hi := slices.MaxFunc(c.results, func(a, b result) int { return cmp.Compare(a.seconds, b.seconds) })
		fmt.Fprintf(w, "%s\t%d\t%.2f\t%.2f–%.2f\t%.0f\t%.0f\t%.1f\t%.2f\t%.3f\t%.2f\t%.2f\t\n",
			c.name, c.records, r.seconds, lo.seconds, hi.seconds, float64(c.records)/r.seconds, float64(r.rssKB)/1024, float64(r.bytes)/1e6,
			duck.seconds/r.seconds, float64(r.bytes)/float64(duck.bytes), rawA.seconds/r.seconds, rawB.seconds/r.seconds)
	}
	w.Flush()
	fmt.Println()
	for _, p := range []string{"streamctl apply: files", "streamctl apply: generate", "DuckDB"} {
		a, b := byName(small, p), byName(records, p)
		fmt.Printf("peak RSS %-28s %d → %d records: %.0f → %.0f MB (×%.2f)\n", p+":", small, records, float64(a.rssKB)/1024, float64(b.rssKB)/1024, float64(b.rssKB)/float64(a.rssKB))
	}
	fmt.Printf("\nGenerate schema (payload_bytes = %d), ZSTD, partitioned by country (8 folders); median of %d interleaved runs; GOMAXPROCS %d.\n", payloadBytes, runs, runtime.GOMAXPROCS(0))
	fmt.Println("streamctl: wall time of the whole `apply -auto-approve` process (plan, stage, fsync, promote, manifest, state).")
	fmt.Println("DuckDB: the COPY statement alone (start-up left out); RSS is the node process's.")
	fmt.Println("raw parquet-go: the rows prepared in memory first (not timed), then written by parquet-go's")
	fmt.Println("  GenericWriter, 131072-row groups, one file per country, fsync; RSS includes the rows.")
	fmt.Println("  (a) with parquet-go's ZSTD codec (default level: high-entropy text is stored raw, files 26% larger);")
	fmt.Println("  (b) with streamctl's ZSTD codec (internal/format/parquet's ZstdCodec: the same compression as streamctl's files).")
	return nil
}

func median(rs []result) result {
	s := slices.Clone(rs)
	slices.SortFunc(s, func(a, b result) int {
		switch {
		case a.seconds < b.seconds:
			return -1
		case a.seconds > b.seconds:
			return 1
		}
		return 0
	})
	m := s[len(s)/2]
	rss := make([]int64, len(rs))
	for i, r := range rs {
		rss[i] = r.rssKB
	}
	slices.Sort(rss)
	m.rssKB = rss[len(rss)/2]
	return m
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// writeJSONL writes the generate source's records, one per line.
func writeJSONL(path string, records int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	src := source(records)
	for p := range partitions {
		err := src.Read(context.Background(), fmt.Sprint(p), 0, src.RecordsPerPartition, func(r *providers.Record) error {
			w.Write(r.Value)
			return w.WriteByte('\n')
		})
		if err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func sinkConfig(source string, records int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "sink \"lake\" {\n  source       = %s\n  format       = \"parquet\"\n  compression  = \"zstd\"\n  partition_by = [\"country\"]\n", source)
	fmt.Fprintf(&b, "  batch {\n    max_records = %d\n  }\n", records)
	for _, c := range columns {
		fmt.Fprintf(&b, "  column %q { type = %q }\n", c.Name, c.Type)
	}
	b.WriteString("  destination \"local\" \"out\" {\n    path = \"out\"\n  }\n}\n")
	return b.String()
}

func filesConfig(in string, records int64) string {
	return fmt.Sprintf("source \"files\" \"in\" {\n  path   = %q\n  format = \"jsonl\"\n}\n\n", in) +
		sinkConfig("source.files.in", records)
}

func generateConfig(records int64) string {
	return fmt.Sprintf("source \"generate\" \"g\" {\n  partitions            = %d\n  records_per_partition = %d\n  payload_bytes         = %d\n}\n\n", partitions, records/partitions, payloadBytes) +
		sinkConfig("source.generate.g", records)
}

// apply runs `streamctl apply` on config in dir and times the process.
func apply(bin, dir, config string) (result, error) {
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(config), 0o644); err != nil {
		return result{}, err
	}
	start := time.Now()
	r, err := child(exec.Command(bin, "-chdir="+dir, "apply", "-auto-approve", "-no-color"), dir)
	if err != nil {
		return r, err
	}
	r.seconds = time.Since(start).Seconds()
	return r, nil
}

// child runs cmd, whose output files go under dir/out, and returns its peak
// RSS, the size of its Parquet files and, when it prints {"seconds": S}, S.
func child(cmd *exec.Cmd, dir string, env ...string) (result, error) {
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return result{}, fmt.Errorf("%s: %v\n%s%s", cmd.Path, err, stdout.String(), stderr.String())
	}
	var r result
	r.rssKB = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	var timing struct{ Seconds float64 }
	if line := bytes.TrimSpace(stdout.Bytes()); bytes.HasPrefix(line, []byte(`{"seconds"`)) {
		if err := json.Unmarshal(line, &timing); err != nil {
			return r, fmt.Errorf("%s: %v: %s", cmd.Path, err, line)
		}
		r.seconds = timing.Seconds
	}
	var files int
	err := filepath.Walk(filepath.Join(dir, "out"), func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && strings.HasSuffix(p, ".parquet") {
			r.bytes += fi.Size()
			files++
		}
		return err
	})
	if err == nil && files == 0 {
		err = fmt.Errorf("%s wrote no Parquet file", cmd.Path)
	}
	return r, err
}

// rawRow is a row as parquet-go writes it from a Go struct: the streamctl
// schema without country, which names the folder.
type rawRow struct {
	ID         int64   `parquet:"id"`
	Partition  int32   `parquet:"partition"`
	Offset     int64   `parquet:"offset"`
	TS         int64   `parquet:"ts,timestamp(millisecond)"`
	CustomerID int64   `parquet:"customer_id"`
	Amount     float64 `parquet:"amount"`
	Note       string  `parquet:"note"`
}

// rawMain is the raw parquet-go child: it makes the rows of records records
// in memory, then times writing them, one file per country, on workers
// goroutines, with parquet-go's zstd codec or streamctl's.
func rawMain(records, out string, workers int, codec string) error {
	var n int64
	if _, err := fmt.Sscan(records, &n); err != nil {
		return err
	}
	s, err := format.NewSchema(columns)
	if err != nil {
		return err
	}
	x, err := format.NewExtractor(s.Fields())
	if err != nil {
		return err
	}
	byCountry := map[string][]rawRow{}
	var countries []string
	vals := make([]format.Value, len(columns))
	src := source(n)
	for p := range partitions {
		err := src.Read(context.Background(), fmt.Sprint(p), 0, src.RecordsPerPartition, func(r *providers.Record) error {
			if err := x.Extract(r, vals); err != nil {
				return err
			}
			c := string(vals[5].Bytes)
			if _, ok := byCountry[c]; !ok {
				countries = append(countries, c)
			}
			byCountry[c] = append(byCountry[c], rawRow{vals[0].Int, int32(vals[1].Int), vals[2].Int, vals[3].Int, vals[4].Int, vals[6].Float, string(vals[7].Bytes)})
			return nil
		})
		if err != nil {
			return err
		}
	}
	runtime.GC()

	start := time.Now()
	errs := make([]error, len(countries))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(countries); i += workers {
				errs[i] = writeRaw(filepath.Join(out, "country="+countries[i]), byCountry[countries[i]], codec)
			}
		})
	}
	wg.Wait()
	seconds := time.Since(start).Seconds()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	fmt.Printf("{\"seconds\": %g}\n", seconds)
	return nil
}

func writeRaw(dir string, rows []rawRow, codec string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "part-0.parquet"))
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	var c compress.Codec = &parquet.Zstd
	if codec == "streamctl" {
		c = streamparquet.ZstdCodec
	}
	w := parquet.NewGenericWriter[rawRow](bw, parquet.Compression(c), parquet.MaxRowsPerRowGroup(format.DefaultRowGroupRecords))
	if _, err := w.Write(rows); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}
