package kafka

import (
	"encoding/binary"
	"reflect"
	"testing"
)

// TestSplitBatches cuts a fetch's bytes between record batches, in runs of
// at least pieceBytes, and stops at the first batch at or after end.
func TestSplitBatches(t *testing.T) {
	// batch is a record batch header of n bytes in all, first offset first.
	batch := func(first int64, n int, magic byte) []byte {
		b := make([]byte, n)
		binary.BigEndian.PutUint64(b, uint64(first))
		binary.BigEndian.PutUint32(b[8:], uint32(n-12))
		b[16] = magic
		return b
	}
	cat := func(bs ...[]byte) []byte {
		var out []byte
		for _, b := range bs {
			out = append(out, b...)
		}
		return out[:len(out):len(out)] // pieces are found by their capacity
	}
	big := pieceBytes / 2
	a, b, c, d := batch(0, big, 2), batch(10, big, 2), batch(20, 100, 2), batch(30, big, 2)
	in := cat(a, b, c, d)
	at := func(i int) int { return []int{0, len(a), len(a) + len(b), len(a) + len(b) + len(c), len(in)}[i] }

	for _, tc := range []struct {
		name   string
		in     []byte
		end    int64
		pieces [][2]int // [from, to) byte ranges of in
		done   bool
	}{
		{"runs of pieceBytes", in, 100, [][2]int{{0, at(2)}, {at(2), at(4)}}, false},
		{"end inside a batch", in, 15, [][2]int{{0, at(2)}}, true},
		{"end at a batch's first offset", in, 20, [][2]int{{0, at(2)}}, true},
		{"end in the last batch", in, 31, [][2]int{{0, at(2)}, {at(2), at(4)}}, false},
		{"first batch at end", in, 0, nil, true},
		{"empty", nil, 10, nil, false},
	} {
		pieces, done := splitBatches(nil, tc.in, tc.end)
		var got [][2]int
		for _, p := range pieces {
			from := len(tc.in) - cap(p) // pieces are subslices of in, up to its end
			got = append(got, [2]int{from, from + len(p)})
		}
		if !reflect.DeepEqual(got, tc.pieces) || done != tc.done {
			t.Errorf("%s: pieces %v, done %v; want %v, %v", tc.name, got, done, tc.pieces, tc.done)
		}
	}

	// Older message sets, and a truncated last batch, go whole into the
	// last piece: kgo reads (or skips) them.
	old := batch(40, 100, 1)
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"message set", cat(c, old, batch(50, 100, 2))},
		{"truncated", cat(c, batch(50, 100, 2)[:70])},
		{"short tail", cat(c, make([]byte, 10))},
	} {
		pieces, done := splitBatches(nil, tc.in, 100)
		if len(pieces) != 1 || len(pieces[0]) != len(tc.in) || done {
			t.Errorf("%s: %d pieces (first %d of %d bytes), done %v; want the whole input, not done", tc.name, len(pieces), len(pieces[0]), len(tc.in), done)
		}
	}
}
