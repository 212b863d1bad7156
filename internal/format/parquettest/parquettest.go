// Package parquettest reads Parquet files back with parquet-go, as a user's
// program would: the one oracle of the tests of format and format/parquet,
// which write them (format/parquet cannot import format's tests, nor they it).
package parquettest

import (
	"bytes"
	"io"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// Open opens the Parquet file data, failing the test when it cannot.
func Open(t testing.TB, data []byte) *parquet.File {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("open parquet: %v", err)
	}
	return f
}

// ReadRows reads the Parquet file data with parquet-go's generic reader into
// one map per row.
func ReadRows(t testing.TB, data []byte) []map[string]any {
	t.Helper()
	r := parquet.NewReader(Open(t, data))
	var rows []map[string]any
	for {
		m := map[string]any{}
		if err := r.Read(&m); err != nil {
			if err == io.EOF {
				break
			}
			t.Fatalf("read row %d: %v", len(rows), err)
		}
		rows = append(rows, m)
	}
	return rows
}
