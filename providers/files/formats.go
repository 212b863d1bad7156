package files

import (
	"bytes"
	"encoding/csv"
	"fmt"

	"github.com/streamctl/streamctl/internal/jsonstr"
)

// Input formats of the files source. Records always travel as JSON objects.
const (
	FormatJSONL = "jsonl" // each line is a JSON record, passed through
	FormatCSV   = "csv"   // a header row, then one record per line
	FormatLines = "lines" // each line becomes {"line": "<the line>"}
)

// lineConverter turns one line of a file into the record's JSON.
type lineConverter interface {
	// convert appends the record of line to dst. header reports that the line
	// is a header and yields no record.
	convert(dst, line []byte, offset int64) (out []byte, header bool, err error)
}

func newConverter(format string) (lineConverter, error) {
	switch format {
	case "", FormatJSONL:
		return nil, nil
	case FormatLines:
		return linesConverter{}, nil
	case FormatCSV:
		return &csvConverter{}, nil
	}
	return nil, fmt.Errorf("files: unknown format %q (jsonl, csv or lines)", format)
}

type linesConverter struct{}

func (linesConverter) convert(dst, line []byte, _ int64) ([]byte, bool, error) {
	dst = append(dst, `{"line":`...)
	dst = jsonstr.Append(dst, line)
	return append(dst, '}'), false, nil
}

// csvConverter reads the header row (offset 0) and gives each following row
// as an object keyed by the header's names. Fields that are JSON numbers
// become numbers, "true" and "false" booleans, empty fields null; anything
// else is a string. Each record is one line: quoted fields may not span lines,
// since the offset of a record is its line number.
type csvConverter struct {
	header [][]byte
}

func (c *csvConverter) convert(dst, line []byte, offset int64) ([]byte, bool, error) {
	r := csv.NewReader(bytes.NewReader(line))
	r.FieldsPerRecord = -1
	fields, err := r.Read()
	if err != nil {
		return dst, false, fmt.Errorf("line %d is not valid CSV: %w", offset+1, err)
	}
	if offset == 0 {
		c.header = make([][]byte, len(fields))
		for i, f := range fields {
			c.header[i] = jsonstr.Append(nil, []byte(f))
		}
		return dst, true, nil
	}
	if c.header == nil {
		return dst, false, fmt.Errorf("line %d: the CSV header (line 1) was not read", offset+1)
	}
	if len(fields) != len(c.header) {
		return dst, false, fmt.Errorf("line %d has %d fields, the header %d", offset+1, len(fields), len(c.header))
	}
	dst = append(dst, '{')
	for i, f := range fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, c.header[i]...)
		dst = append(dst, ':')
		switch {
		case f == "":
			dst = append(dst, "null"...)
		case f == "true" || f == "false" || isJSONNumber(f):
			dst = append(dst, f...)
		default:
			dst = jsonstr.Append(dst, []byte(f))
		}
	}
	return append(dst, '}'), false, nil
}

// isJSONNumber reports whether s is a number in JSON's grammar (so "007",
// "+1" and "1." stay strings).
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i == len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i == len(s) || s[i] < '0' || s[i] > '9' {
			return false
		}
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	}
	return i == len(s)
}
