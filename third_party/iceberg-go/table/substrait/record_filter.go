package substrait

// PATCH(streamctl): this file is streamctl's, not upstream's. It holds what
// package table called filterRecords, and the part of its
// prepareBatchFilter that converted the filter, so that table need not
// import this package (table/record_filter.go says why).

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/compute/exprs"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

func init() { table.SetRecordFilterCompiler(compileRecordFilter) }

// compileRecordFilter converts a bound filter to Substrait once, and returns
// a function that evaluates it on each batch with arrow's compute.
func compileRecordFilter(schema *iceberg.Schema, bound iceberg.BooleanExpression, caseSensitive bool) (table.RecordFilter, error) {
	extSet, recordFilter, err := ConvertExpr(schema, bound, caseSensitive)
	if err != nil {
		return nil, err
	}

	return func(ctx context.Context, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
		defer rec.Release()

		// Attach a fresh extension-ID set to the call-site ctx so allocator
		// and deadline values flow through to compute, while the (immutable)
		// extSet computed once is reused across every batch.
		ctx = exprs.WithExtensionIDSet(ctx, exprs.NewExtensionSetDefault(*extSet))

		input := compute.NewDatumWithoutOwning(rec)
		mask, err := exprs.ExecuteScalarExpression(ctx, rec.Schema(), recordFilter, input)
		if err != nil {
			return nil, err
		}
		defer mask.Release()

		result, err := compute.Filter(ctx, input, mask, *compute.DefaultFilterOptions())
		if err != nil {
			return nil, err
		}

		return result.(*compute.RecordDatum).Value, nil
	}, nil
}
