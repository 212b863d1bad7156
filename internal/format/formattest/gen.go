// Package formattest generates records shaped like the generate source's
// (payload_bytes = 64) for tests and benchmarks of the record path.
package formattest

import (
	"strconv"

	"github.com/streamctl/streamctl/internal/format"
)

// Countries are the values of the country field, 8 of them like the
// benchmarks in PERF-NOTES.md.
var Countries = []string{"de", "fr", "it", "es", "nl", "pl", "se", "us"}

// Columns declares every field of Record. nullable says whether the columns
// are declared nullable (the default) or nullable = false.
func Columns(nullable bool) []format.Column {
	n := &nullable
	return []format.Column{
		{Name: "id", Type: "int64", Nullable: n},
		{Name: "partition", Type: "int32", Nullable: n},
		{Name: "offset", Type: "int64", Nullable: n},
		{Name: "ts", Type: "timestamp", Nullable: n},
		{Name: "customer_id", Type: "int64", Nullable: n},
		{Name: "country", Type: "string", Nullable: n},
		{Name: "amount", Type: "double", Nullable: n},
		{Name: "note", Type: "string", Nullable: n},
	}
}

// Row is one record's values, for writing the same rows from memory.
type Row struct {
	ID         int64
	Partition  int32
	Offset     int64
	TS         int64 // ms
	CustomerID int64
	Country    string
	Amount     float64
	Note       string
}

// mix is SplitMix64: a deterministic, well-spread function of its input.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// BaseTime is the ts of offset 0: 2026-01-01T00:00:00Z.
const BaseTime = 1767225600000

// MakeRow returns the values of the record at offset of partition.
func MakeRow(partition int, offset int64) Row {
	h := mix(uint64(partition)<<40 ^ uint64(offset))
	note := make([]byte, 64)
	s := h
	for i := range note {
		s = mix(s)
		note[i] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[s%52]
	}
	return Row{
		ID:         int64(partition)<<40 | offset,
		Partition:  int32(partition),
		Offset:     offset,
		TS:         BaseTime + offset*37,
		CustomerID: int64(h % 10000),
		Country:    Countries[(h>>20)%uint64(len(Countries))],
		Amount:     float64(h>>32%1000000) / 100,
		Note:       string(note),
	}
}

// AppendRecord appends the JSON of a row, about 200 bytes, in the field order
// of the generate source.
func AppendRecord(dst []byte, r Row) []byte {
	dst = append(dst, `{"id":`...)
	dst = strconv.AppendInt(dst, r.ID, 10)
	dst = append(dst, `,"partition":`...)
	dst = strconv.AppendInt(dst, int64(r.Partition), 10)
	dst = append(dst, `,"offset":`...)
	dst = strconv.AppendInt(dst, r.Offset, 10)
	dst = append(dst, `,"ts":"`...)
	dst = format.AppendTimestamp(dst, r.TS)
	dst = append(dst, `","customer_id":`...)
	dst = strconv.AppendInt(dst, r.CustomerID, 10)
	dst = append(dst, `,"country":"`...)
	dst = append(dst, r.Country...)
	dst = append(dst, `","amount":`...)
	dst = strconv.AppendFloat(dst, r.Amount, 'f', -1, 64)
	dst = append(dst, `,"note":"`...)
	dst = append(dst, r.Note...)
	return append(dst, `"}`...)
}
