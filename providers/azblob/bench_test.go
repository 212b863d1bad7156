package azblob

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/streamctl/streamctl/internal/testenv"
	"github.com/streamctl/streamctl/providers"
)

// BenchmarkPromote measures the two ways the design allows to promote a staged
// file on Azure, against Azurite, with the default block size:
//
//   - copy-delete: the file is written whole to _temporary/N/… and promoted by a
//     server-side copy to its final name, then the delete of the staged blob
//     (what the engine does through providers.Storage today);
//   - block-commit: the file's blocks are staged, uncommitted, on the final
//     name, and promoted by the one Put Block List that commits them.
//
// stage-ms/op is the writing, promote-ms/op the promotion, total-ms/op both;
// the final blob is deleted between iterations, untimed.
func BenchmarkPromote(b *testing.B) {
	srv := testenv.Azurite(b)
	s := newStorage(b, keyConfig(b, srv))
	ctx := b.Context()
	for _, size := range []int{1 << 20, 32 << 20} {
		data := make([]byte, size)
		rng := rand.New(rand.NewPCG(uint64(size), 1))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		report := func(b *testing.B, stage, promote time.Duration) {
			n := float64(b.N)
			b.ReportMetric(float64(stage.Microseconds())/1e3/n, "stage-ms/op")
			b.ReportMetric(float64(promote.Microseconds())/1e3/n, "promote-ms/op")
			b.ReportMetric(float64((stage+promote).Microseconds())/1e3/n, "total-ms/op")
			b.ReportMetric(0, "ns/op")
		}

		b.Run(fmt.Sprintf("copy-delete/%dMiB", size>>20), func(b *testing.B) {
			var stage, promote time.Duration
			for i := range b.N {
				tmp := fmt.Sprintf("_temporary/%d/country=de/part-%08d-00000.parquet", i, i)
				final := fmt.Sprintf("country=de/part-%08d-00000.parquet", i)
				t0 := time.Now()
				if err := providers.Put(ctx, s, tmp, data); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				stage += t1.Sub(t0)
				if err := s.Copy(ctx, tmp, final); err != nil {
					b.Fatal(err)
				}
				if err := s.Delete(ctx, tmp); err != nil {
					b.Fatal(err)
				}
				promote += time.Since(t1)
				if err := s.Delete(ctx, final); err != nil {
					b.Fatal(err)
				}
			}
			report(b, stage, promote)
		})

		b.Run(fmt.Sprintf("block-commit/%dMiB", size>>20), func(b *testing.B) {
			var stage, promote time.Duration
			for i := range b.N {
				final := fmt.Sprintf("country=de/part-%08d-00000.parquet", i)
				t0 := time.Now()
				w, err := s.Create(ctx, final)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := w.Write(data); err != nil {
					b.Fatal(err)
				}
				if err := w.(*writer).stageAll(); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				stage += t1.Sub(t0)
				if err := w.Commit(); err != nil {
					b.Fatal(err)
				}
				promote += time.Since(t1)
				if err := s.Delete(ctx, final); err != nil {
					b.Fatal(err)
				}
			}
			report(b, stage, promote)
		})
	}
}

// BenchmarkBlockSize stages 32 MiB on one blob in blocks of each size, two in
// flight as the writer does, and commits them: MB/s of the staging, and the
// commit's milliseconds. It tells how a store's speed depends on the block
// size (Azurite writes each block to its own extent file and records it in
// its metadata database; Azure's per-block cost is a round trip).
func BenchmarkBlockSize(b *testing.B) {
	srv := testenv.Azurite(b)
	const total = 32 << 20
	data := make([]byte, total)
	rng := rand.New(rand.NewPCG(7, 1))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	for _, bs := range []int64{256 << 10, 1 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20} {
		b.Run(fmt.Sprintf("%dKiB", bs>>10), func(b *testing.B) {
			cfg := keyConfig(b, srv)
			cfg.BlockSize = bs
			s := newStorage(b, cfg)
			var stage, commit time.Duration
			for i := range b.N {
				t0 := time.Now()
				w, err := s.Stage(b.Context(), fmt.Sprintf("blob-%d", i), providers.StageOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := w.Write(data); err != nil {
					b.Fatal(err)
				}
				u, err := w.Finish()
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if err := u.Publish(b.Context()); err != nil {
					b.Fatal(err)
				}
				stage += t1.Sub(t0)
				commit += time.Since(t1)
			}
			b.ReportMetric(float64(total)*float64(b.N)/1e6/stage.Seconds(), "stage-MB/s")
			b.ReportMetric(float64(commit.Microseconds())/1e3/float64(b.N), "commit-ms/op")
			b.ReportMetric(0, "ns/op")
		})
	}
}
