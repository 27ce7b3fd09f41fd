//go:build !race

package mcap

const raceEnabled = false
