package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestBannerSaysWhereTheReadStopped: a zstd chunk whose flipped bit
// decompresses to nonsense (testdata/ros2-mixed.mcap at byte 200,000):
// once the window's read of every message ends, the banner's line says
// the bytes unreadable that the lost ranges add up to, not the whole
// chunk, and its details give the chunk's range as verify does, saying
// what was recovered from which bytes and where the unreadable ones
// start.
func TestBannerSaysWhereTheReadStopped(t *testing.T) {
	data, err := os.ReadFile("../testdata/ros2-mixed.mcap")
	if err != nil {
		t.Fatal(err)
	}
	data[200000] ^= 0xff
	p := filepath.Join(t.TempDir(), "damaged.mcap")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	d := uitest.OpenDoc(t, p)
	_, loss, err := stats.CountBytes(context.Background(), d.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	dmg := bag.ReadDamage(d.Storage, loss.Skipped, loss.Tally, loss.Complete)
	var chunk *bag.LostRange
	var unreadable int64
	for i, r := range dmg.Ranges {
		unreadable += r.Unreadable()
		if r.Unit == bag.UnitChunk && chunk == nil {
			chunk = &dmg.Ranges[i]
		}
	}
	if chunk == nil || chunk.Readable <= 0 || chunk.Unreadable() >= chunk.End-chunk.Start {
		t.Fatalf("the chunk's range %+v says nothing was read from it", chunk)
	}
	line, details := bannerText(d, dmg)
	if !strings.Contains(line, human.Size(unreadable)+" unreadable") || strings.Contains(line, human.Size(chunk.End-chunk.Start)+" unreadable") {
		t.Errorf("the banner's line does not say the %s unreadable: %s", human.Size(unreadable), line)
	}
	want := []string{
		"recovered " + human.Plural(chunk.Recovered, "message") + " from its first " + human.Size(chunk.Readable),
		human.Size(chunk.Unreadable()) + " unreadable from offset " + human.Count(uint64(chunk.Start+chunk.Readable)),
	}
	found := false
	for _, s := range details {
		if strings.HasPrefix(s, human.LostUnit(*chunk)+":") {
			found = true
			for _, w := range want {
				if !strings.Contains(s, w) {
					t.Errorf("the banner's detail does not say %q: %s", w, s)
				}
			}
		}
	}
	if !found {
		t.Errorf("no detail for the chunk: %q", details)
	}
}
