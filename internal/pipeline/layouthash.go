package pipeline

import (
	"strconv"
	"strings"
)

// A sink's layout hash (state.Batch.Layout) is config.Layout.Hash, over the
// settings the configuration declares: every field of Layout that decides
// the files must be one of config.Layout's, hashed there, or be listed in
// hashExempt with the reason (TestLayoutFieldsAreHashed).

// hashExempt are the Layout fields the layout hash leaves out, and why.
var hashExempt = map[string]string{
	"Schema":       "the columns derived from or checked against the version are hashed; the version alone does not decide the files",
	"Destinations": "a batch's destinations are logged with it (state.Batch.Destinations) and checked on their own",
	"Shard":        "a shard's files are named apart and its batches are its own: the shard is its checkpoint's, not an output setting",
	"Sequential":   "the files are the same on one goroutine or two",
	"budget":       "memory bounds where row groups end only within the row-group size: tests lower it",
	"maxOpen":      "past it, targets are sorted: the same files, names and records, only row groups end elsewhere; tests lower it",
	"runBytes":     "how sorted rows are cut into runs does not change their order: tests lower it",
}

// Settings renders the settings Hash covers, by the sink's attribute name,
// as HCL values: the state keeps them beside the hash (state.Layout), so
// that a plan can show which of them a configuration changed. A column is
// the attribute `column "NAME"`.
func (l Layout) Settings() map[string]string {
	s := map[string]string{"format": hclString(l.Format)}
	if l.Compression != "" {
		s["compression"] = hclString(l.Compression)
	}
	if l.RouteBy != "" {
		s["route_by"] = hclString(l.RouteBy)
	}
	if l.OnInvalid != "" {
		s["on_invalid"] = hclString(l.OnInvalid)
	}
	if len(l.PartitionBy) > 0 {
		parts := make([]string, len(l.PartitionBy))
		for i, p := range l.PartitionBy {
			parts[i] = hclString(p)
		}
		s["partition_by"] = "[" + strings.Join(parts, ", ") + "]"
	}
	if l.MaxFileRecords != 0 {
		s["max_file_records"] = strconv.FormatInt(l.MaxFileRecords, 10)
	}
	if l.MaxFileSize != 0 {
		s["max_file_size"] = strconv.FormatInt(l.MaxFileSize, 10)
	}
	if l.RowGroupRecords != 0 {
		s["row_group_records"] = strconv.FormatInt(l.RowGroupRecords, 10)
	}
	if l.Schema != "" {
		s["schema"] = l.Schema
	}
	if len(l.Columns) > 0 {
		// Their order decides the files' column order: it is a setting too.
		names := make([]string, len(l.Columns))
		for i, c := range l.Columns {
			names[i] = hclString(c.Name)
			attrs := []string{"type = " + hclString(c.Type)}
			if c.Nullable != nil {
				attrs = append(attrs, "nullable = "+strconv.FormatBool(*c.Nullable))
			}
			if c.From != "" {
				attrs = append(attrs, "from = "+hclString(c.From))
			}
			s["column "+hclString(c.Name)] = "{ " + strings.Join(attrs, ", ") + " }"
		}
		s["columns (order)"] = "[" + strings.Join(names, ", ") + "]"
	}
	return s
}

func hclString(v string) string { return strconv.Quote(v) }
