package iceberg

import (
	"context"

	"github.com/apache/iceberg-go/table"

	"github.com/streamctl/streamctl/internal/fault"
)

// committer is the table a commit goes through. With fault points compiled
// in, its catalog commit passes the point "table-catalog-commit" first:
// iceberg-go has written the commit's manifests and manifest list, and the
// catalog has not recorded them, so a crash there leaves what a failed
// commit leaves.
func committer(tbl *table.Table, cat table.CatalogIO) *table.Table {
	if !fault.Enabled {
		return tbl
	}
	return table.New(tbl.Identifier(), tbl.Metadata(), tbl.MetadataLocation(), tbl.FS, faultCatalog{cat})
}

type faultCatalog struct{ table.CatalogIO }

func (c faultCatalog) CommitTable(ctx context.Context, ident table.Identifier, reqs []table.Requirement, updates []table.Update) (table.Metadata, string, error) {
	fault.Point("table-catalog-commit")
	return c.CatalogIO.CommitTable(ctx, ident, reqs, updates)
}
