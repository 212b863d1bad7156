package format

import (
	"io"

	"github.com/streamctl/streamctl/internal/jsonstr"
)

// csvEncoder writes a header row, then one row per record. Nulls are empty
// fields; empty strings are "" (see appendCSVField). Rows end with LF, as
// encoding/csv and DuckDB write them; fields holding CR or LF are quoted.
type csvEncoder struct {
	textBuffer
	kinds []Kind
	types []*Type
	text  []byte
}

func newCSVEncoder(w io.Writer, s *Schema) *csvEncoder {
	e := &csvEncoder{textBuffer: textBuffer{w: w}, kinds: s.Kinds, types: s.Types}
	for i, c := range s.Columns {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = appendCSVField(e.buf, []byte(c.Name))
	}
	e.buf = append(e.buf, '\n')
	return e
}

func (e *csvEncoder) Append(_ []byte, vals []Value) error {
	for i, v := range vals {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if v.Null {
			continue
		}
		switch k := e.kinds[i]; k {
		case KindString, KindJSON, KindBytes:
			e.text = AppendText(e.text[:0], v, k)
			e.buf = appendCSVField(e.buf, e.text)
		case KindDecimal:
			e.buf = AppendDecimal(e.buf, v, e.types[i])
		default: // numbers, booleans, dates and timestamps never need quotes
			e.buf = AppendText(e.buf, v, k)
		}
	}
	e.buf = append(e.buf, '\n')
	return e.maybeFlush()
}

func (e *csvEncoder) Close() error { return e.flush() }
func (e *csvEncoder) Abort()       {}

// jsonlEncoder writes one JSON object per record with the columns as keys,
// in column order, nulls included. Timestamps and dates are RFC 3339 strings,
// bytes are base64 strings, json columns are embedded as JSON.
type jsonlEncoder struct {
	textBuffer
	kinds []Kind
	types []*Type
	keys  [][]byte // `{"name":` for the first column, `,"name":` for the others
}

func newJSONLEncoder(w io.Writer, s *Schema) *jsonlEncoder {
	e := &jsonlEncoder{textBuffer: textBuffer{w: w}, kinds: s.Kinds, types: s.Types, keys: make([][]byte, len(s.Columns))}
	for i, c := range s.Columns {
		sep := byte(',')
		if i == 0 {
			sep = '{'
		}
		e.keys[i] = append(jsonstr.Append([]byte{sep}, c.Name), ':')
	}
	return e
}

func (e *jsonlEncoder) Append(_ []byte, vals []Value) error {
	for i, v := range vals {
		e.buf = append(e.buf, e.keys[i]...)
		if v.Null {
			e.buf = append(e.buf, "null"...)
			continue
		}
		switch k := e.kinds[i]; k {
		case KindString:
			e.buf = jsonstr.Append(e.buf, v.Bytes)
		case KindJSON:
			// A record may spread a nested value over several lines; one
			// record must stay one line.
			if hasNewline(v.Bytes) {
				e.buf = appendCompactJSON(e.buf, v.Bytes)
			} else {
				e.buf = append(e.buf, v.Bytes...)
			}
		case KindDecimal: // the exact number, never rounded through a float
			e.buf = AppendDecimal(e.buf, v, e.types[i])
		case KindTimestamp, KindDate, KindBytes:
			e.buf = append(e.buf, '"')
			e.buf = AppendText(e.buf, v, k)
			e.buf = append(e.buf, '"')
		default:
			e.buf = AppendText(e.buf, v, k)
		}
	}
	if len(vals) == 0 {
		e.buf = append(e.buf, '{')
	}
	e.buf = append(e.buf, '}', '\n')
	return e.maybeFlush()
}

func hasNewline(b []byte) bool {
	for _, c := range b {
		if c == '\n' || c == '\r' {
			return true
		}
	}
	return false
}

func (e *jsonlEncoder) Close() error { return e.flush() }
func (e *jsonlEncoder) Abort()       {}
