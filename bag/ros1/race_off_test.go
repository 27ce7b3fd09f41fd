//go:build !race

package ros1

const raceEnabled = false
