package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/streamctl/streamctl/internal/format"
)

// ColumnsFromSchema is the value of a sink's columns attribute that derives
// its columns from its source's schema registry subject.
const ColumnsFromSchema = "from_schema"

// DefaultRowGroupRecords is a sink's Parquet row group size when it declares
// none.
const DefaultRowGroupRecords = format.DefaultRowGroupRecords

// MaxRowGroupRecords bounds row_group_records: a Parquet page can hold
// every row of its row group (nulls take no room), and a page header counts
// its rows in 32 bits.
const MaxRowGroupRecords = math.MaxInt32

// Layout is a sink's output layout: the settings that decide which files its
// batches give. The loader builds it once per sink, checking each setting
// against the line that declares it and filling in the defaults; the
// workspace, the pipeline and the formats take it as built.
type Layout struct {
	// Format is "jsonl" (the default), "csv" or "parquet".
	Format string
	// Compression is Parquet's page codec: "zstd" unless declared. The
	// other formats are written uncompressed: "" or "none".
	Compression string
	// PartitionBy are the partition_by expressions (see package partition).
	PartitionBy []string
	// RouteBy names the field whose hash picks each record's destination;
	// "" sends every record to every destination.
	RouteBy string
	// MaxFileRecords rolls to a new file after this many records; 0: one
	// file per partition folder per batch.
	MaxFileRecords int64
	// MaxFileSize ends a file once it holds this many bytes; 0: no limit.
	MaxFileSize int64
	// RowGroupRecords is the most rows per Parquet row group: as declared,
	// 1 to MaxRowGroupRecords, or DefaultRowGroupRecords.
	RowGroupRecords int64
	// OnInvalid is "fail" (the default) or "reject".
	OnInvalid string
	// Columns are the sink's column blocks, in order; with ColumnsFrom,
	// none until the workspace derives them from the registry.
	Columns []Column
	// ColumnsFrom is ColumnsFromSchema when the sink's columns are those
	// of its source's schema registry subject (`columns = "from_schema"`),
	// else "".
	ColumnsFrom string

	// rowGroupDefaulted is set when RowGroupRecords was not declared.
	rowGroupDefaulted bool
}

// Hash identifies the settings that decide which files a batch gives. A
// batch in flight records it (state.Batch.Layout), and a retry under another
// hash is refused: it would write other files than those already promoted.
//
// The encoding is fixed: an in-flight batch logged by an older streamctl
// must still match. So a row group size the sink does not declare is hashed
// as 0, as it was before the default was filled in here. A field added to
// Layout must be hashed here or listed in hashExempt with the reason
// (TestLayoutHashCoversEveryField).
func (l Layout) Hash() string {
	rowGroup := l.RowGroupRecords
	if l.rowGroupDefaulted {
		rowGroup = 0
	}
	data, _ := json.Marshal(struct {
		Format, Compression, RouteBy, OnInvalid string
		PartitionBy                             []string
		MaxFileRecords                          int64
		RowGroupRecords                         int64
		Columns                                 []format.Column
	}{l.Format, l.Compression, l.RouteBy, l.OnInvalid, l.PartitionBy, l.MaxFileRecords, rowGroup, l.Columns})
	// Settings added later are appended only when set, so that the layouts
	// that do not set them keep their hash.
	if l.MaxFileSize != 0 {
		data = fmt.Appendf(data, "\nmax_file_size=%d", l.MaxFileSize)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// Settings renders the settings Hash covers, by the sink's attribute name,
// as HCL values: the state keeps them beside the hash (state.Layout), so
// that a plan can show which of them a configuration changed. A column is
// the attribute `column "NAME"`. As in Hash, a row group size not declared
// is left out: declaring the default is a change of hash, and names it.
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
	if l.RowGroupRecords != 0 && !l.rowGroupDefaulted {
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

// hashExempt are the Layout fields Hash leaves out, and why.
var hashExempt = map[string]string{
	"ColumnsFrom":       "the columns it derives are hashed, as declared ones are: the same columns give the same files",
	"rowGroupDefaulted": "it is hashed with RowGroupRecords: a size not declared is hashed as 0",
}
