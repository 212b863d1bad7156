package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the units ParseSize takes, as DuckDB and the SI read them:
// KB is 1000 bytes, KiB 1024.
var sizeUnits = []struct {
	name  string
	bytes int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
	{"B", 1},
}

// ParseSize reads a size of at least one byte: a whole number of bytes
// ("1048576") or a number and a unit ("128MB", "1.5 GiB", "64kib"), units
// in any case.
func ParseSize(text string) (int64, error) {
	s := strings.TrimSpace(text)
	unit := int64(1)
	for _, u := range sizeUnits {
		if len(s) > len(u.name) && strings.EqualFold(s[len(s)-len(u.name):], u.name) {
			s, unit = strings.TrimSpace(s[:len(s)-len(u.name)]), u.bytes
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || strings.ContainsAny(s, "xXpP_") {
		return 0, fmt.Errorf("%q is not a size: write bytes (1048576) or a number and a unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), such as \"128MB\"", text)
	}
	n := v * float64(unit)
	if n < 1 || n > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is out of range: a size is at least 1 byte and at most 4 EiB", text)
	}
	if n != math.Trunc(n) {
		return 0, fmt.Errorf("%q is not a whole number of bytes", text)
	}
	return int64(n), nil
}
