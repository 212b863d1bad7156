package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/streamctl/streamctl/internal/testenv"
)

// BenchmarkManyFolders is one batch of 400,000 records spread over 10,000
// partition folders (bucket(1250, customer_id) × country), as Parquet zstd,
// into a local folder and into S3 (versitygw): the peak RSS of the apply.
//
//	go test -run '^$' -bench ManyFolders -benchtime 1x ./internal/e2e/
func BenchmarkManyFolders(b *testing.B) {
	if raceEnabled {
		b.Skip("figures under the race detector mean nothing")
	}
	srv := testenv.S3(b)
	srv.CreateBucket(b, "folders")
	prefixes := 0 // one bucket for every run, -count included
	for _, dest := range []struct{ name, block string }{
		{"local", localDestination("lake", "out/lake")},
		{"s3", s3Destination(srv, "lake", "folders", "lake")},
	} {
		b.Run(dest.name, func(b *testing.B) {
			var peak int64
			for b.Loop() {
				b.StopTimer()
				block := dest.block
				if dest.name == "s3" { // a fresh prefix each time
					prefixes++
					block = s3Destination(srv, "lake", "folders", fmt.Sprintf("lake-%d", prefixes))
				}
				dir := b.TempDir()
				hcl := `
source "generate" "orders" {
  partitions            = 4
  records_per_partition = 100000
  payload_bytes         = 32
}
sink "orders" {
  source       = source.generate.orders
  format       = "parquet"
  compression  = "zstd"
  partition_by = ["bucket(1250, customer_id)", "country"]
  column "id" { type = "int64" }
  column "ts" { type = "timestamp" }
  column "customer_id" { type = "int64" }
  column "country" { type = "string" }
  column "amount" { type = "double" }
  column "note" { type = "string" }
  batch { max_records = 400000 }
` + block + "}\n"
				if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(hcl), 0o644); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				cmd := command(dir, srv.Env(), "apply", "-auto-approve", "-no-color")
				out, err := cmd.CombinedOutput()
				if err != nil || !strings.Contains(string(out), "Apply complete!") {
					b.Fatalf("apply: %v\n%s", err, out)
				}
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					peak = max(peak, ru.Maxrss)
				}
			}
			b.ReportMetric(float64(peak)/1024, "peak-RSS-MB")
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/apply")
			b.ReportMetric(0, "ns/op")
		})
	}
}
