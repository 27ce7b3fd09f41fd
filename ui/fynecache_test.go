package ui

import (
	"os"
	"testing"
	"time"
)

// TestFyneCacheDuration checks that the linked variables are Fyne's (they
// hold its default minute and half-minute, where unlinked ones would be
// zero) and that shortenFyneCache sets them unless FYNE_CACHE is set.
func TestFyneCacheDuration(t *testing.T) {
	if os.Getenv("FYNE_CACHE") != "" {
		t.Skip("FYNE_CACHE is set, so Fyne's cache time is not its default")
	}
	old, oldClean := fyneCacheValid, fyneCacheClean
	t.Cleanup(func() { fyneCacheValid, fyneCacheClean = old, oldClean })
	if old != time.Minute || oldClean != 30*time.Second {
		t.Fatalf("Fyne's cache time is %v (clean every %v), want its default minute: the linked variables are not Fyne's", old, oldClean)
	}
	shortenFyneCache(fyneCacheTime)
	if fyneCacheValid != fyneCacheTime || fyneCacheClean != fyneCacheTime/2 {
		t.Fatalf("cache time %v, clean %v after shortening", fyneCacheValid, fyneCacheClean)
	}
	t.Setenv("FYNE_CACHE", "5m")
	shortenFyneCache(time.Second)
	if fyneCacheValid != fyneCacheTime {
		t.Error("FYNE_CACHE set by the user was overridden")
	}
}
