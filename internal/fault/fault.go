//go:build !faultinject

// Package fault marks the points of the commit protocol where crash tests kill
// the process. Without the faultinject build tag every point is a no-op that
// the compiler removes.
package fault

import "time"

// Point marks a place where a crash test may kill the process.
func Point(name string) {}

// Enabled reports whether fault points are compiled in.
const Enabled = false

// Tunable returns def: only test builds let the environment change it.
func Tunable(name string, def int64) int64 { return def }

// ClockSkew returns 0: only test builds shift the clock.
func ClockSkew() time.Duration { return 0 }
