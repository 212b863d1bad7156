package delta

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	pq "github.com/parquet-go/parquet-go/format"
)

// FileStats is an add action's stats (the protocol's "Per-file
// Statistics"): numRecords, and, from the data file's Parquet footer,
// minValues, maxValues and nullCount of its leaf columns.
type FileStats struct {
	NumRecords int64          `json:"numRecords"`
	MinValues  map[string]any `json:"minValues,omitempty"`
	MaxValues  map[string]any `json:"maxValues,omitempty"`
	NullCount  map[string]any `json:"nullCount,omitempty"`
}

// StatsFromFooter reads a data file's statistics from its Parquet footer
// (the thrift FileMetaData), for the table's columns of schema but the
// partition columns (which the file's folders hold). Readers skip files
// on these bounds, so a column gets a min and a max only when every row
// group has bounds for it that JSON can carry: a bound is left out rather
// than guessed. Booleans and binaries get a null count only, as Delta's
// own writers do. Bounds are the protocol's JSON encodings: numbers,
// strings, dates as 2006-01-02, timestamps as UTC ISO-8601 with
// milliseconds (a timestamp's max rounded up to the millisecond, its min
// down, so that they stay bounds).
func StatsFromFooter(footer []byte, records int64, schema StructType, partitionColumns []string) (FileStats, error) {
	st := FileStats{NumRecords: records}
	var md pq.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), footer, &md); err != nil {
		return st, fmt.Errorf("read the Parquet footer: %w", err)
	}
	if md.NumRows != records {
		return st, fmt.Errorf("the Parquet footer counts %d rows, and the file %d records", md.NumRows, records)
	}
	elements := map[string]pq.SchemaElement{}
	for _, el := range md.Schema {
		elements[el.Name] = el
	}
	st.MinValues, st.MaxValues, st.NullCount = map[string]any{}, map[string]any{}, map[string]any{}
	for _, f := range schema.Fields {
		if slices.Contains(partitionColumns, f.Name) {
			continue
		}
		el, ok := elements[f.Name]
		if !ok {
			continue // a column added after the file was written
		}
		var chunks []pq.ColumnChunk
		for _, rg := range md.RowGroups {
			for _, c := range rg.Columns {
				if len(c.MetaData.PathInSchema) == 1 && c.MetaData.PathInSchema[0] == f.Name {
					chunks = append(chunks, c)
				}
			}
		}
		if len(chunks) != len(md.RowGroups) {
			continue
		}
		var nulls int64
		for _, c := range chunks {
			nulls += c.MetaData.Statistics.NullCount
		}
		st.NullCount[f.Name] = nulls
		// A struct, array or map column gets no bounds: the protocol nests
		// its leaves' bounds, which this writer does not collect.
		typ, primitive := f.Type.(string)
		if !primitive {
			continue
		}
		if lo, hi, ok := bounds(typ, el, md.RowGroups, chunks); ok {
			st.MinValues[f.Name], st.MaxValues[f.Name] = lo, hi
		}
	}
	return st, nil
}

// bounds are a column's min and max over the row groups, as JSON values;
// ok is false when a row group with values has none, or the type gets none.
func bounds(typ string, el pq.SchemaElement, groups []pq.RowGroup, chunks []pq.ColumnChunk) (lo, hi any, ok bool) {
	var los, his [][]byte
	for i, c := range chunks {
		s := c.MetaData.Statistics
		if s.NullCount >= groups[i].NumRows {
			continue // only nulls: no bound to take
		}
		// Our writer leaves both bounds out when it has no short one;
		// an empty pair is read as none, never as the empty string.
		if len(s.MinValue) == 0 && len(s.MaxValue) == 0 {
			return nil, nil, false
		}
		los, his = append(los, s.MinValue), append(his, s.MaxValue)
	}
	if len(los) == 0 {
		return nil, nil, false
	}
	switch typ {
	case "long", "integer", "date", "timestamp":
		width := 8
		if typ == "integer" || typ == "date" {
			width = 4
		}
		lo, hi, ok := intBounds(los, his, width)
		if !ok {
			return nil, nil, false
		}
		switch typ {
		case "date":
			return dateText(lo), dateText(hi), true
		case "timestamp":
			unit, ok := timestampUnit(el)
			if !ok {
				return nil, nil, false
			}
			return timestampText(floorDiv(lo, unit)), timestampText(-floorDiv(-hi, unit)), true
		}
		return lo, hi, true
	case "double", "float":
		width := 8
		if typ == "float" {
			width = 4
		}
		lo, hi, ok := floatBounds(los, his, width)
		return lo, hi, ok
	case "string":
		lo, hi := los[0], his[0]
		for i := range los {
			if bytes.Compare(los[i], lo) < 0 {
				lo = los[i]
			}
			if bytes.Compare(his[i], hi) > 0 {
				hi = his[i]
			}
		}
		if !utf8.Valid(lo) || !utf8.Valid(hi) {
			return nil, nil, false
		}
		return string(lo), string(hi), true
	}
	return nil, nil, false
}

func intBounds(los, his [][]byte, width int) (lo, hi int64, ok bool) {
	read := func(b []byte) (int64, bool) {
		switch {
		case len(b) != width:
			return 0, false
		case width == 4:
			return int64(int32(binary.LittleEndian.Uint32(b))), true
		}
		return int64(binary.LittleEndian.Uint64(b)), true
	}
	for i := range los {
		l, ok1 := read(los[i])
		h, ok2 := read(his[i])
		if !ok1 || !ok2 {
			return 0, 0, false
		}
		if i == 0 || l < lo {
			lo = l
		}
		if i == 0 || h > hi {
			hi = h
		}
	}
	return lo, hi, true
}

func floatBounds(los, his [][]byte, width int) (lo, hi float64, ok bool) {
	read := func(b []byte) (float64, bool) {
		switch {
		case len(b) != width:
			return 0, false
		case width == 4:
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), true
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b)), true
	}
	for i := range los {
		l, ok1 := read(los[i])
		h, ok2 := read(his[i])
		// JSON has no NaN nor infinity.
		if !ok1 || !ok2 || math.IsNaN(l) || math.IsNaN(h) || math.IsInf(l, 0) || math.IsInf(h, 0) {
			return 0, 0, false
		}
		if i == 0 || l < lo {
			lo = l
		}
		if i == 0 || h > hi {
			hi = h
		}
	}
	// The writer's -0 min (for readers that order -0 before +0) is 0 to
	// JSON's readers: written plain.
	return lo + 0, hi + 0, true
}

// timestampUnit is how many of the column's units make a millisecond.
func timestampUnit(el pq.SchemaElement) (int64, bool) {
	ts, ok := el.LogicalType.Value.(*pq.TimestampType)
	if !ok {
		return 0, false
	}
	switch ts.Unit.Value.(type) {
	case *pq.MilliSeconds:
		return 1, true
	case *pq.MicroSeconds:
		return 1000, true
	case *pq.NanoSeconds:
		return 1000000, true
	}
	return 0, false
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func dateText(days int64) string {
	return time.Unix(days*86400, 0).UTC().Format(time.DateOnly)
}

func timestampText(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// statsJSON is an add action's stats string.
func statsJSON(st FileStats) (string, error) {
	if len(st.MinValues) == 0 {
		st.MinValues, st.MaxValues = nil, nil
	}
	if len(st.NullCount) == 0 {
		st.NullCount = nil
	}
	b, err := json.Marshal(st)
	return string(b), err
}
