//go:build race

package e2e

// raceEnabled: the tests themselves run under the race detector, so that
// benchmarks mean nothing and the process needs more memory. The streamctl
// binary under test is then built with it too (raceBinary), as it is with
// raceBinaryEnv.
const raceEnabled = true
