//go:build race

package mcap

// raceEnabled slows the exhaustive tests down: they sample instead.
const raceEnabled = true
