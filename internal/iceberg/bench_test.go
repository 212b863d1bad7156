package iceberg_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/streamctl/streamctl/internal/pipeline"
)

// BenchmarkAppendWithHistory: the cost of one batch's commit into a table
// that already holds a history of batches, each its own snapshot. A
// streaming sink commits for years: the cost must not grow with them.
func BenchmarkAppendWithHistory(b *testing.B) {
	for _, history := range []int{10, 300} {
		b.Run(fmt.Sprintf("history=%d", history), func(b *testing.B) {
			ctx := context.Background()
			root := b.TempDir()
			layout := pipeline.Layout{Columns: columns}
			tb := open(b, config(root))
			batch := int64(0)
			appendOne := func() {
				files := writeBatch(b, root, layout, batch, records(int(batch)*10, int(batch)*10+10))
				if err := tb.Append(ctx, "orders", batch, fmt.Sprintf(`{"0":[%d,%d]}`, batch*10, batch*10+10), files); err != nil {
					b.Fatal(err)
				}
				batch++
			}
			for range history {
				appendOne()
			}
			b.ResetTimer()
			for b.Loop() {
				appendOne()
			}
		})
	}
}
