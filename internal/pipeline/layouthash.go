package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/streamctl/streamctl/internal/format"
)

// Hash identifies the settings that decide which files a batch gives. A
// batch in flight records it (state.Batch.Layout), and a retry under another
// hash is refused: it would write other files than those already promoted.
//
// The encoding is fixed: an in-flight batch logged by an older streamctl
// must still match. A field added to Layout must be hashed here or listed in
// hashExempt with the reason (TestLayoutHashCoversEveryField).
func (l Layout) Hash() string {
	data, _ := json.Marshal(struct {
		Format, Compression, RouteBy, OnInvalid string
		PartitionBy                             []string
		MaxFileRecords                          int64
		RowGroupRecords                         int
		Columns                                 []format.Column
	}{l.Format, l.Compression, l.RouteBy, l.OnInvalid, l.PartitionBy, l.MaxFileRecords, int(l.RowGroupRecords), l.Columns})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// hashExempt are the Layout fields Hash leaves out, and why.
var hashExempt = map[string]string{
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
	if l.RowGroupRecords != 0 {
		s["row_group_records"] = strconv.FormatInt(l.RowGroupRecords, 10)
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
