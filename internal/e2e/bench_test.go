package e2e

// Throughput of generate → S3 and generate → Azure Blob Storage through the
// streamctl binary, beside the raw limit measured in the same run: the same
// bytes (the files streamctl wrote, read back) uploaded with the plain SDK
// calls at the same concurrency. The ratio says what the record path and the
// commit protocol (staging, server-side copy, manifest, state) cost over the
// bare uploads; vs-local compares with the same apply into a local folder,
// which isolates what the object store adds to the record path.
//
//	go test -run '^$' -bench 'ApplyS3|ApplyAzure' -benchtime 3x ./internal/e2e/
//
// STREAMCTL_BENCH_RECORDS sets the records per run (default 1,000,000).

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/streamctl/streamctl/internal/engine"
	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
	"github.com/streamctl/streamctl/providers/azblob"
)

// storeBenchRecords is the records each apply writes.
func storeBenchRecords(b *testing.B) int64 { return benchRecordCount(b, 1_000_000) }

// storeBenchConfig is a generated stream of records in 4 partitions (about
// 200 bytes of JSON each, with a 32-byte note), in batches of a quarter of
// the records, written to the destination block given: as Parquet with zstd
// and 7 typed columns, or as JSONL passed through byte for byte.
func storeBenchConfig(format string, records int64, destination string) string {
	layout := `
  format = "jsonl"
`
	if format == "parquet" {
		layout = `
  format      = "parquet"
  compression = "zstd"

  column "id" {
    type = "int64"
  }
  column "offset" {
    type = "int64"
  }
  column "ts" {
    type = "timestamp"
  }
  column "customer_id" {
    type = "int64"
  }
  column "country" {
    type = "string"
  }
  column "amount" {
    type = "double"
  }
  column "note" {
    type = "string"
  }
`
	}
	return fmt.Sprintf(`
source "generate" "bench" {
  partitions            = 4
  records_per_partition = %d
  payload_bytes         = 32
}

sink "bench" {
  source = source.generate.bench
%s
  batch {
    max_records = %d
  }
%s}
`, records/4, layout, max(records/4, 1), destination)
}

// storeBench is one object store under benchmark.
type storeBench struct {
	env []string
	// destination is the block of a destination rooted at prefix.
	destination func(prefix string) string
	// open opens the store rooted at prefix, to read back what was written.
	open func(b *testing.B, prefix string) providers.Storage
	// raw uploads files (name → bytes) under prefix with plain SDK calls, at
	// streamctl's concurrency.
	raw func(ctx context.Context, prefix string, files []benchFile) error
	// promote moves the files raw uploaded under prefix+"/_temporary/" to
	// prefix with plain SDK calls: server-side copy, then delete, as the
	// commit protocol must on a store without rename. raw plus promote is the
	// least any exactly-once writer pays on this store.
	promote func(ctx context.Context, prefix string, files []benchFile) error
	// endpoint is the store's URL in destination blocks, which a proxy
	// counting the traffic replaces.
	endpoint string
	// serverCPU is the CPU time the store's server has used so far: on a
	// machine of few cores it shares them with streamctl.
	serverCPU func() (time.Duration, error)
}

type benchFile struct {
	name string
	data []byte
}

// benchApplyToStore runs, per iteration: an apply of the stream into a local
// folder (the record path alone: generate, encode, write a file), the same
// apply into a fresh prefix of the store, and plain SDK uploads of the files
// that apply wrote. It reports the medians over the iterations (other work on
// the machine skews single runs): records/s and MB/s of the apply to the
// store, raw-MB/s of the plain uploads, their ratio, and vs-local, the apply
// to the store's speed over the apply to the local folder's.
func benchApplyToStore(b *testing.B, sb storeBench, format string) {
	if raceEnabled {
		b.Skip("figures under the race detector mean nothing")
	}
	n := storeBenchRecords(b)
	ctx := context.Background()
	var (
		localTimes, storeTimes, rawTimes, promoteTimes []time.Duration
		storeCPU, serverCPU                            []time.Duration // streamctl's and the server's, in the apply to the store
		rawServerCPU                                   []time.Duration // the server's, in the plain uploads
		written                                        int64           // data bytes of one run
		files                                          int
	)
	server := func() time.Duration {
		d, err := sb.serverCPU()
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	var lastCPU time.Duration // streamctl's, in the last apply
	apply := func(destination string) time.Duration {
		dir := b.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(storeBenchConfig(format, n, destination)), 0o644); err != nil {
			b.Fatal(err)
		}
		cmd := command(dir, sb.env, "apply", "-auto-approve", "-no-color")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		err := cmd.Run()
		took := time.Since(start)
		if err != nil || !strings.Contains(out.String(), "Apply complete!") {
			b.Fatalf("streamctl apply: %v\n%s", err, out.String())
		}
		lastCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		return took
	}
	for b.Loop() {
		run := len(storeTimes) + 1
		prefix := fmt.Sprintf("%s-%d", format, run)
		localTimes = append(localTimes, apply(localDestination("disk", "out")))
		before := server()
		storeTimes = append(storeTimes, apply(sb.destination(prefix)))
		storeCPU, serverCPU = append(storeCPU, lastCPU), append(serverCPU, server()-before)

		b.StopTimer()
		var fs []benchFile
		written, fs = committedFiles(b, sb.open(b, prefix), "bench")
		if got := recordsIn(b, sb.open(b, prefix), "bench"); got != n {
			b.Fatalf("the manifests count %d records, not %d", got, n)
		}
		files = len(fs)
		b.StartTimer()

		before = server()
		start := time.Now()
		if err := sb.raw(ctx, "raw-"+prefix+"/_temporary", fs); err != nil {
			b.Fatalf("raw upload: %v", err)
		}
		rawTimes = append(rawTimes, time.Since(start))
		rawServerCPU = append(rawServerCPU, server()-before)
		start = time.Now()
		if err := sb.promote(ctx, "raw-"+prefix, fs); err != nil {
			b.Fatalf("raw promote: %v", err)
		}
		promoteTimes = append(promoteTimes, time.Since(start))
	}
	moved := bytesMoved(b, sb, format, n)
	mb := float64(written) / 1e6
	local, store, raw := medianDuration(localTimes).Seconds(), medianDuration(storeTimes).Seconds(), medianDuration(rawTimes).Seconds()
	promote := medianDuration(promoteTimes).Seconds()
	// The apply to the store cannot take less than its CPU time, streamctl's
	// and the server's, spread over every core: the ceiling of vs-local on
	// this machine, whatever streamctl overlaps.
	clientCPU, srvCPU := medianDuration(storeCPU).Seconds(), medianDuration(serverCPU).Seconds()
	cpuBound := (clientCPU + srvCPU) / float64(runtime.NumCPU())
	b.ReportMetric(float64(n)/store, "records/s")
	b.ReportMetric(mb/store, "MB/s")
	b.ReportMetric(mb/raw, "raw-MB/s")
	b.ReportMetric(raw/store, "ratio")
	b.ReportMetric((raw+promote)/store, "ratio-with-copy")
	b.ReportMetric(local/store, "vs-local")
	b.ReportMetric(moved, "moved/committed")
	b.ReportMetric(clientCPU, "streamctl-cpu-s")
	b.ReportMetric(srvCPU, "server-cpu-s")
	b.ReportMetric(medianDuration(rawServerCPU).Seconds(), "raw-server-cpu-s")
	b.ReportMetric(local/max(cpuBound, local), "cpu-ceiling-vs-local")
	// Encoding a file and then uploading it with plain SDK calls, one after
	// the other: where a file goes whole at promotion (up to the single-write
	// size) streamctl cannot overlap the two, so this is its bound.
	b.ReportMetric((local+raw)/store, "vs-serial")
	b.ReportMetric(0, "ns/op") // one op is two applies and an upload: the figures above say it
	b.Logf("%d records → %d %s files, %.1f MB; medians of %d runs: apply to the store %.2fs (%.0f records/s, %.1f MB/s); "+
		"plain uploads of the same files %.3fs (%.1f MB/s), ratio %.2f; plain copy+delete of them %.3fs, ratio with copy %.2f; "+
		"apply to a local folder %.2fs (%.0f records/s), vs-local %.2f; bytes the store moved per committed byte %.2f; "+
		"CPU of the apply to the store: streamctl %.2fs, the server %.2fs (%.2fs for the plain uploads), over %d cores at least %.2fs: vs-local at most %.2f here; "+
		"the local apply then the plain uploads, one after the other, %.2fs: vs-serial %.2f",
		n, files, format, mb, len(storeTimes), store, float64(n)/store, mb/store, raw, mb/raw, raw/store, promote, (raw+promote)/store,
		local, float64(n)/local, local/store, moved, clientCPU, srvCPU, medianDuration(rawServerCPU).Seconds(), runtime.NumCPU(), cpuBound, local/max(cpuBound, local),
		local+raw, (local+raw)/store)
}

// bytesMoved runs one more apply, untimed, through a proxy that counts what
// streamctl sends the store, and returns the bytes the store moved — request
// bodies, plus the size of every object it was asked to copy server-side —
// per byte of the data files committed.
func bytesMoved(b *testing.B, sb storeBench, format string, n int64) float64 {
	b.Helper()
	u, err := url.Parse(sb.endpoint)
	if err != nil {
		b.Fatal(err)
	}
	proxy := testenv.StartFaultProxy(b, "http://"+u.Host)
	defer proxy.Close()
	prefix := "moved-" + format
	dir := b.TempDir()
	dest := strings.Replace(sb.destination(prefix), "http://"+u.Host, proxy.Endpoint, 1)
	if err := os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(storeBenchConfig(format, n, dest)), 0o644); err != nil {
		b.Fatal(err)
	}
	// The credentials in the environment name the endpoint too (Azure's
	// connection string).
	env := make([]string, len(sb.env))
	for i, kv := range sb.env {
		env[i] = strings.ReplaceAll(kv, "http://"+u.Host, proxy.Endpoint)
	}
	if out, err := command(dir, env, "apply", "-auto-approve", "-no-color").CombinedOutput(); err != nil {
		b.Fatalf("streamctl apply through the counting proxy: %v\n%s", err, out)
	}
	committed, files := committedFiles(b, sb.open(b, prefix), "bench")
	traffic := proxy.Traffic()
	moved := traffic.BodyBytes
	for _, src := range traffic.CopySources {
		src, _ = url.PathUnescape(src)
		for _, f := range files {
			if strings.HasSuffix(src, "/"+f.name) {
				moved += int64(len(f.data))
				break
			}
		}
	}
	return float64(moved) / float64(committed)
}

// medianDuration is the median of ds (the lower one of an even count).
func medianDuration(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)/2]
}

// committedFiles reads back the data files the manifests of sink name list,
// and returns their total size and their bytes.
func committedFiles(b *testing.B, s providers.Storage, sink string) (int64, []benchFile) {
	b.Helper()
	ctx := context.Background()
	var total int64
	var out []benchFile
	for _, m := range benchManifests(b, s, sink) {
		for _, f := range m.Files {
			data, _, err := providers.ReadAll(ctx, s, f.Path)
			if err != nil {
				b.Fatal(err)
			}
			total += int64(len(data))
			out = append(out, benchFile{name: f.Path, data: data})
		}
	}
	return total, out
}

func recordsIn(b *testing.B, s providers.Storage, sink string) int64 {
	var n int64
	for _, m := range benchManifests(b, s, sink) {
		n += m.Records
	}
	return n
}

func benchManifests(b *testing.B, s providers.Storage, sink string) []*engine.Manifest {
	b.Helper()
	ms, err := engine.ReadManifests(context.Background(), s, sink, 0)
	if err != nil {
		b.Fatal(err)
	}
	return ms
}

// BenchmarkApplyS3 is generate → S3 (versitygw on 127.0.0.1), as Parquet zstd
// and as JSONL, each beside PutObject calls of the same files one at a time: streamctl uploads
// each file of a destination in one PutObject (below multipart_threshold),
// one file after another.
func BenchmarkApplyS3(b *testing.B) {
	srv := testenv.S3(b)
	srv.CreateBucket(b, "bench")
	client := srv.Client()
	sb := storeBench{
		env:         srv.Env(),
		endpoint:    srv.Endpoint,
		serverCPU:   srv.CPU,
		destination: func(prefix string) string { return s3Destination(srv, "lake", "bench", prefix) },
		open:        func(b *testing.B, prefix string) providers.Storage { return s3Storage(b, srv, "bench", prefix) },
		raw: func(ctx context.Context, prefix string, files []benchFile) error {
			for _, f := range files {
				_, err := client.PutObject(ctx, &awss3.PutObjectInput{
					Bucket:        aws.String("bench"),
					Key:           aws.String(prefix + "/" + f.name),
					Body:          bytes.NewReader(f.data),
					ContentLength: aws.Int64(int64(len(f.data))),
				})
				if err != nil {
					return err
				}
			}
			return nil
		},
		promote: func(ctx context.Context, prefix string, files []benchFile) error {
			for _, f := range files {
				tmp := prefix + "/_temporary/" + f.name
				_, err := client.CopyObject(ctx, &awss3.CopyObjectInput{
					Bucket:     aws.String("bench"),
					Key:        aws.String(prefix + "/" + f.name),
					CopySource: aws.String("bench/" + tmp),
				})
				if err == nil {
					_, err = client.DeleteObject(ctx, &awss3.DeleteObjectInput{Bucket: aws.String("bench"), Key: aws.String(tmp)})
				}
				if err != nil {
					return err
				}
			}
			return nil
		},
	}
	for _, format := range []string{"parquet", "jsonl"} {
		b.Run(format, func(b *testing.B) { benchApplyToStore(b, sb, format) })
	}
}

// BenchmarkApplyAzure is generate → Azure Blob Storage (Azurite on
// 127.0.0.1), as Parquet zstd and as JSONL, each beside uploads of the same
// files with the SDK's UploadBuffer, one file after another. UploadBuffer
// sends a file of up to 256 MiB with one Put Blob (its blocks, of
// azblob.DefaultBlockSize with two in flight, only past that), as streamctl
// does up to azblob.SingleUploadLimit.
func BenchmarkApplyAzure(b *testing.B) {
	az := testenv.Azurite(b)
	az.CreateContainer(b, "bench")
	cred, err := container.NewSharedKeyCredential(az.AccountName, az.AccountKey)
	if err != nil {
		b.Fatal(err)
	}
	client, err := container.NewClientWithSharedKeyCredential(az.BlobURL+"/bench", cred, nil)
	if err != nil {
		b.Fatal(err)
	}
	sb := storeBench{
		env:         az.Env(),
		endpoint:    az.BlobURL,
		serverCPU:   az.CPU,
		destination: func(prefix string) string { return azDestination(az, "lake", "bench", prefix) },
		open:        func(b *testing.B, prefix string) providers.Storage { return azStorage(b, az, "bench", prefix) },
		raw: func(ctx context.Context, prefix string, files []benchFile) error {
			for _, f := range files {
				_, err := client.NewBlockBlobClient(prefix+"/"+f.name).UploadBuffer(ctx, f.data, &blockblob.UploadBufferOptions{
					BlockSize:   azblob.DefaultBlockSize,
					Concurrency: 2,
				})
				if err != nil {
					return err
				}
			}
			return nil
		},
		promote: func(ctx context.Context, prefix string, files []benchFile) error {
			for _, f := range files {
				src := client.NewBlobClient(prefix + "/_temporary/" + f.name)
				dst := client.NewBlobClient(prefix + "/" + f.name)
				resp, err := dst.StartCopyFromURL(ctx, src.URL(), nil)
				if err != nil {
					return err
				}
				for resp.CopyStatus != nil && *resp.CopyStatus == blob.CopyStatusTypePending {
					time.Sleep(50 * time.Millisecond)
					props, err := dst.GetProperties(ctx, nil)
					if err != nil {
						return err
					}
					resp.CopyStatus = props.CopyStatus
				}
				if _, err := src.Delete(ctx, nil); err != nil {
					return err
				}
			}
			return nil
		},
	}
	for _, format := range []string{"parquet", "jsonl"} {
		b.Run(format, func(b *testing.B) { benchApplyToStore(b, sb, format) })
	}
}
