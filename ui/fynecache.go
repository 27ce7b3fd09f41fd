package ui

import (
	"os"
	"time"
	_ "unsafe" // for go:linkname
)

// Fyne keeps what it drew (a GL texture per distinct string, renderers,
// canvas entries) for a minute after it was last shown; FYNE_CACHE sets
// that time, but Fyne reads it in an init function, before any of our code
// runs. During playback the views show new strings many times a second, so
// a minute of them is 20-30 MB of texture memory (Mesa keeps textures in
// the C heap). Twenty seconds keeps what was on screen a moment ago and
// frees the rest sooner (BENCHMARKS.md, GUI memory). These two variables
// are Fyne's own (internal/cache), at the version go.mod pins;
// TestFyneCacheDuration checks that they are.

//go:linkname fyneCacheValid fyne.io/fyne/v2/internal/cache.ValidDuration
var fyneCacheValid time.Duration

//go:linkname fyneCacheClean fyne.io/fyne/v2/internal/cache.cleanTaskInterval
var fyneCacheClean time.Duration

// fyneCacheTime is how long Fyne keeps what is no longer shown.
const fyneCacheTime = 20 * time.Second

// shortenFyneCache makes Fyne keep what it drew for d, unless the user set
// FYNE_CACHE.
func shortenFyneCache(d time.Duration) {
	if os.Getenv("FYNE_CACHE") != "" {
		return
	}
	fyneCacheValid, fyneCacheClean = d, d/2
}
