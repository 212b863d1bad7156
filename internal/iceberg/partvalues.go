package iceberg

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	ice "github.com/apache/iceberg-go"

	"github.com/streamctl/streamctl/internal/format"
	"github.com/streamctl/streamctl/internal/partition"
)

// partitionValues reads the Iceberg partition values of a data file from its
// folder, "name=value/…" as package partition writes it, one segment per
// partition_by field in order. The folder is the only copy of an identity
// partition's value (the column is not in the files), so the values come
// from it for every transform alike. It returns the values by partition
// field id.
func (t *Table) partitionValues(folder string) (map[int]any, error) {
	fields := t.parts
	spec := t.tbl.Spec()
	if len(fields) == 0 {
		if folder != "" {
			return nil, fmt.Errorf("partition folder %q given for an unpartitioned table", folder)
		}
		return nil, nil
	}
	segs := strings.Split(strings.Trim(folder, "/"), "/")
	if len(segs) != len(fields) {
		return nil, fmt.Errorf("partition folder %q: want %d name=value folders (%s)", folder, len(fields), t.cfg.PartitionBy)
	}
	out := make(map[int]any, len(fields))
	for i, f := range fields {
		name, raw, ok := strings.Cut(segs[i], "=")
		if !ok || partition.Unescape(name) != f.Name {
			return nil, fmt.Errorf("partition folder %q: folder %d is %q, want %s=…", folder, i+1, segs[i], f.Name)
		}
		if raw == partition.DefaultPartitionName {
			out[spec.Field(i).FieldID] = nil // iceberg-go wants every field, null ones too
			continue
		}
		k := t.kinds[f.Source]
		v, err := folderValue(f, k, partition.Unescape(raw))
		if err != nil {
			return nil, fmt.Errorf("partition folder %q: %s: %w", folder, f.Name, err)
		}
		out[spec.Field(i).FieldID] = v
	}
	return out, nil
}

// folderValue is the Iceberg partition value of one folder value: the value
// of the transform's result type, as iceberg-go represents it in manifests.
func folderValue(f partition.Field, k format.Kind, s string) (any, error) {
	tr := transform(f)
	switch f.Transform {
	case partition.BucketT:
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil || n < 0 || n >= f.Param {
			return nil, fmt.Errorf("bucket %q is not in 0…%d", s, f.Param-1)
		}
		return int32(n), nil
	case partition.Year, partition.Month, partition.Day, partition.Hour:
		lit, err := periodStart(f.Transform, k, s)
		if err != nil {
			return nil, err
		}
		return apply(tr, lit)
	}
	lit, err := literal(k, s)
	if err != nil {
		return nil, err
	}
	return apply(tr, lit)
}

func apply(tr ice.Transform, lit ice.Literal) (any, error) {
	out := tr.Apply(ice.Optional[ice.Literal]{Valid: true, Val: lit})
	if !out.Valid {
		return nil, fmt.Errorf("%s of %s gives no value", tr, lit)
	}
	return out.Val.Any(), nil
}

// literal is the value of kind k whose canonical text (format.AppendText)
// is s.
func literal(k format.Kind, s string) (ice.Literal, error) {
	bad := func() (ice.Literal, error) { return nil, fmt.Errorf("%q is not a %s", s, k) }
	switch k {
	case format.KindString, format.KindJSON:
		return ice.StringLiteral(s), nil
	case format.KindInt32:
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return bad()
		}
		return ice.Int32Literal(n), nil
	case format.KindInt64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return bad()
		}
		return ice.Int64Literal(n), nil
	case format.KindFloat:
		x, err := strconv.ParseFloat(s, 32)
		if err != nil {
			return bad()
		}
		return ice.Float32Literal(x), nil
	case format.KindDouble:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return bad()
		}
		return ice.Float64Literal(x), nil
	case format.KindBool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return bad()
		}
		return ice.BoolLiteral(b), nil
	case format.KindDate:
		d, ok := format.ParseDate([]byte(s))
		if !ok {
			return bad()
		}
		return ice.DateLiteral(d), nil
	case format.KindTimestamp:
		ms, ok := format.ParseTimestamp([]byte(s))
		if !ok {
			return bad()
		}
		return ice.TimestampLiteral(ms * 1000), nil
	case format.KindBytes:
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return bad()
		}
		return ice.BinaryLiteral(b), nil
	}
	return bad()
}

// periodStart is the first instant (a timestamp, or a date for a date
// column) of the period a time transform's folder names: "2026" (year),
// "2026-01" (month), "2026-01-02" (day), "2026-01-02-15" (hour).
func periodStart(t partition.Transform, k format.Kind, s string) (ice.Literal, error) {
	neg := strings.HasPrefix(s, "-")
	parts := strings.Split(strings.TrimPrefix(s, "-"), "-")
	want := map[partition.Transform]int{partition.Year: 1, partition.Month: 2, partition.Day: 3, partition.Hour: 4}[t]
	if len(parts) != want {
		return nil, fmt.Errorf("%q is not a %s folder value", s, t)
	}
	nums := []int{0, 1, 1, 0}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("%q is not a %s folder value", s, t)
		}
		nums[i] = n
	}
	if neg {
		nums[0] = -nums[0]
	}
	tm := time.Date(nums[0], time.Month(nums[1]), nums[2], nums[3], 0, 0, 0, time.UTC)
	if tm.Month() != time.Month(nums[1]) || tm.Day() != nums[2] || tm.Hour() != nums[3] {
		return nil, fmt.Errorf("%q is not a %s folder value", s, t)
	}
	if k == format.KindDate {
		return ice.DateLiteral(tm.Unix() / 86400), nil
	}
	return ice.TimestampLiteral(tm.UnixMicro()), nil
}
