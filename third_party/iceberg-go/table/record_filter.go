package table

// PATCH(streamctl): this file is streamctl's, not upstream's. Upstream
// evaluates a row filter on record batches by converting it to Substrait
// here; streamctl's copy does not import Substrait (table/substrait,
// arrow-go's compute/exprs, substrait-go with its ANTLR type parser, YAML
// decoder and extension files). Their package initialisation alone linked
// them, 3.4 MB of the stripped binary, into every program importing
// this package, though only a scan or an overwrite with a row filter
// evaluates one. Package table/substrait sets the evaluator in its init.

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
)

// RecordFilter evaluates a bound row filter on a record batch. It takes
// ownership of the batch and returns one holding the rows that match, with
// one reference owned by the caller.
type RecordFilter func(context.Context, arrow.RecordBatch) (arrow.RecordBatch, error)

var recordFilterCompiler func(schema *iceberg.Schema, bound iceberg.BooleanExpression, caseSensitive bool) (RecordFilter, error)

// SetRecordFilterCompiler sets how row filters are evaluated on records:
// compile is given the schema a filter was bound to, the bound filter
// (neither AlwaysTrue nor AlwaysFalse) and whether binding was case
// sensitive. Package table/substrait calls it in its init; a program that
// scans or overwrites with a row filter imports that package, for its side
// effect if need be.
func SetRecordFilterCompiler(compile func(schema *iceberg.Schema, bound iceberg.BooleanExpression, caseSensitive bool) (RecordFilter, error)) {
	recordFilterCompiler = compile
}

func compileRecordFilter(schema *iceberg.Schema, bound iceberg.BooleanExpression, caseSensitive bool) (RecordFilter, error) {
	if recordFilterCompiler == nil {
		return nil, fmt.Errorf("%w: evaluating the row filter %s on records needs Substrait, which this program does not link: import _ \"github.com/apache/iceberg-go/table/substrait\"",
			iceberg.ErrNotImplemented, bound)
	}

	return recordFilterCompiler(schema, bound, caseSensitive)
}
