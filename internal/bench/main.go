// Command bench measures `streamctl apply` end to end, as a user runs it,
// beside the raw limit of the same work measured in the same run: the same
// records produced by the same generator and written by a plain loop with
// buffered writes. It prints one table; `make bench` runs it.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/generate"
)

func main() {
	records := flag.Int64("records", 2_000_000, "records per run")
	runs := flag.Int("runs", 3, "runs of each case; the median is shown")
	flag.Parse()
	if err := run(*records, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type row struct {
	name    string
	seconds float64
	bytes   int64
	rssKB   int64
}

const partitions = 4

func run(records int64, runs int) error {
	tmp, err := os.MkdirTemp("", "streamctl-bench-")
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

	var rows []row
	for _, c := range []struct {
		name       string
		dests      int
		maxRecords int64
	}{
		{"apply → 1 local JSONL destination", 1, 1_000_000},
		{"apply → 3 local JSONL destinations", 3, 1_000_000},
		{"apply → 1 destination, max_records 10,000", 1, 10_000},
	} {
		r, err := median(runs, func() (row, error) { return applyOnce(tmp, bin, records, c.dests, c.maxRecords) })
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		r.name = c.name
		rows = append(rows, r)
		raw, err := median(runs, func() (row, error) { return rawOnce(tmp, records, c.dests) })
		if err != nil {
			return err
		}
		raw.name = fmt.Sprintf("  raw limit: generator + bufio to %d file(s)", c.dests)
		rows = append(rows, raw)
	}

	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "case\tseconds\trecords/s\tMB/s written\tpeak RSS MB\tvs raw\t\n")
	for i, r := range rows {
		ratio := ""
		if i%2 == 0 {
			ratio = fmt.Sprintf("%.2f", rows[i+1].seconds/r.seconds)
		}
		rss := "-"
		if r.rssKB > 0 {
			rss = fmt.Sprintf("%.0f", float64(r.rssKB)/1024)
		}
		fmt.Fprintf(w, "%s\t%.2f\t%.0f\t%.0f\t%s\t%s\t\n", r.name, r.seconds, float64(records)/r.seconds, float64(r.bytes)/1e6/r.seconds, rss, ratio)
	}
	w.Flush()
	// The cost of a batch as such: the same records in batches of 10,000 and
	// in batches of a million, both applies.
	fmt.Printf("\nbatches of 10,000 records vs batches of 1,000,000: %.2f\n", rows[0].seconds/rows[4].seconds)
	fmt.Printf("\n%s records of the generate schema (payload_bytes = 64), %d partitions, median of %d runs; raw RSS is the bench process's.\n", fmtCount(records), partitions, runs)
	return nil
}

func median(n int, f func() (row, error)) (row, error) {
	var rs []row
	for i := 0; i < n; i++ {
		r, err := f()
		if err != nil {
			return r, err
		}
		rs = append(rs, r)
	}
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if rs[j].seconds < rs[i].seconds {
				rs[i], rs[j] = rs[j], rs[i]
			}
		}
	}
	return rs[len(rs)/2], nil
}

func applyOnce(tmp, bin string, records int64, dests int, maxRecords int64) (row, error) {
	dir, err := os.MkdirTemp(tmp, "apply-")
	if err != nil {
		return row{}, err
	}
	defer os.RemoveAll(dir)
	var b strings.Builder
	fmt.Fprintf(&b, "source \"generate\" \"g\" {\n  partitions = %d\n  records_per_partition = %d\n  payload_bytes = 64\n}\n", partitions, records/partitions)
	fmt.Fprintf(&b, "sink \"bench\" {\n  source = source.generate.g\n  batch {\n    max_records = %d\n  }\n", maxRecords)
	for d := 0; d < dests; d++ {
		fmt.Fprintf(&b, "  destination \"local\" \"d%d\" {\n    path = \"out/d%d\"\n  }\n", d, d)
	}
	b.WriteString("}\n")
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(b.String()), 0o644); err != nil {
		return row{}, err
	}
	cmd := exec.Command(bin, "-chdir="+dir, "apply", "-auto-approve", "-no-color")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return row{}, fmt.Errorf("apply: %v\n%s", err, out.String())
	}
	elapsed := time.Since(start).Seconds()
	size, err := dirSize(filepath.Join(dir, "out"))
	if err != nil {
		return row{}, err
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	return row{seconds: elapsed, bytes: size, rssKB: rss}, nil
}

// rawOnce writes the same records with a plain loop: the generator, a
// bufio.Writer per file, fsync at the end, as a hand-written job would.
func rawOnce(tmp string, records int64, dests int) (row, error) {
	dir, err := os.MkdirTemp(tmp, "raw-")
	if err != nil {
		return row{}, err
	}
	defer os.RemoveAll(dir)
	src := &generate.Source{Partitions: partitions, RecordsPerPartition: records / partitions, PayloadBytes: 64}
	start := time.Now()
	files := make([]*os.File, dests)
	writers := make([]*bufio.Writer, dests)
	for d := range files {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("d%d.jsonl", d)))
		if err != nil {
			return row{}, err
		}
		files[d], writers[d] = f, bufio.NewWriterSize(f, 256<<10)
	}
	for p := 0; p < partitions; p++ {
		err := src.Read(context.Background(), fmt.Sprint(p), 0, records/partitions, func(r *providers.Record) error {
			for _, w := range writers {
				w.Write(r.Value)
				w.WriteByte('\n')
			}
			return nil
		})
		if err != nil {
			return row{}, err
		}
	}
	var size int64
	for d, f := range files {
		if err := writers[d].Flush(); err != nil {
			return row{}, err
		}
		if err := f.Sync(); err != nil {
			return row{}, err
		}
		fi, _ := f.Stat()
		size += fi.Size()
		f.Close()
	}
	return row{seconds: time.Since(start).Seconds(), bytes: size}, nil
}

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && !strings.Contains(p, "_streamctl") {
			n += fi.Size()
		}
		return err
	})
	return n, err
}

func fmtCount(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
