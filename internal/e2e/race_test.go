//go:build race

package e2e

// raceEnabled builds the streamctl binary under test with the race detector
// when the tests themselves run with it.
const raceEnabled = true
