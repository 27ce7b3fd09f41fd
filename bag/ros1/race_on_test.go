//go:build race

package ros1

// raceEnabled: the test binary is built with -race (TestDecompressionBomb
// then runs its child from a binary built without it).
const raceEnabled = true
