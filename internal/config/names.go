package config

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/streamctl/streamctl/internal/partition"
)

// checkOutputNames refuses the output names of a sink that readers could not
// tell apart (partition.NameConflicts): a column beside a partition folder of
// its name, which readers of Hive folders read in its place, and names that
// differ only in case. The diagnostic points at the column, or at
// partition_by when two folders conflict.
func (l *loader) checkOutputNames(s *Sink, columns map[string]hcl.Range, partitionBy *hcl.Attribute) {
	if len(s.Columns) == 0 {
		return // JSONL passed through: the records' fields are not declared
	}
	names := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		names[i] = c.Name
	}
	var fields []partition.Field
	for _, expr := range s.PartitionBy {
		if f, err := partition.Parse(expr); err == nil {
			fields = append(fields, f)
		}
	}
	for _, c := range partition.NameConflicts(names, fields) {
		var subject *hcl.Range
		if r, ok := columns[c.Column]; ok && c.Column != "" {
			subject = r.Ptr()
		} else if partitionBy != nil {
			subject = partitionBy.Expr.Range().Ptr()
		} else {
			subject = s.DeclRange.Ptr()
		}
		l.errorf(subject, "Ambiguous output name", "Sink %q: %v.", s.Name, c)
	}
}
