package pipeline

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/streamctl/streamctl/internal/format"
)

// folderCache maps the partition value of recent records to their target.
// Partition values repeat (a few countries, a day's worth of dates), and a
// hit skips rendering, escaping and looking up the folder's name, which is a
// tenth of the decoding side's time. It serves sinks partitioned by one
// field; a hit needs the same destination and an identical value, and the
// folder is a function of those two, so a hit always gives the target the
// lookup would.
type folderCache struct {
	slots [folderSlots]folderSlot
}

const folderSlots = 64 // a power of two

type folderSlot struct {
	used   bool
	dest   int
	v      format.Value // v.Bytes is the slot's own copy
	target int32
}

// slot returns the one slot where (dest, v) may be cached.
func (c *folderCache) slot(dest int, v *format.Value) *folderSlot {
	h := uint64(dest+1)*0x9e3779b97f4a7c15 ^ uint64(v.Int) ^ math.Float64bits(v.Float) ^ uint64(len(v.Bytes))<<56
	if b := v.Bytes; len(b) >= 8 {
		h ^= binary.LittleEndian.Uint64(b) ^ binary.LittleEndian.Uint64(b[len(b)-8:])<<1
	} else {
		for i, c := range b {
			h ^= uint64(c) << (8 * i)
		}
	}
	h *= 0xbf58476d1ce4e5b9
	return &c.slots[h>>(64-6)]
}

// get returns the target of (dest, v), if cached.
func (c *folderCache) get(dest int, v *format.Value) (int32, bool) {
	s := c.slot(dest, v)
	if s.used && s.dest == dest && s.v.Null == v.Null && s.v.Token == v.Token && s.v.Int == v.Int &&
		math.Float64bits(s.v.Float) == math.Float64bits(v.Float) && bytes.Equal(s.v.Bytes, v.Bytes) {
		return s.target, true
	}
	return 0, false
}

// put caches target for (dest, v), replacing what shared its slot.
func (c *folderCache) put(dest int, v *format.Value, target int32) {
	s := c.slot(dest, v)
	own := append(s.v.Bytes[:0], v.Bytes...)
	s.used, s.dest, s.target = true, dest, target
	s.v = *v
	s.v.Bytes = own
}
