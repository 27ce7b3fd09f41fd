package ui

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestBannerScanOfAFolderNamesTheFile: in a split set of .db3 files (the
// reference's wbag) whose second file is cut, the banner says how far the
// read of that file got against that file's own size, naming it, not
// against the folder's size; opened alone, the file says the same without
// its name (the window's title names it).
func TestBannerScanOfAFolderNamesTheFile(t *testing.T) {
	src := uitest.SharedBags(t, "ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag")
	const cut = 50000
	folder := filepath.Join(t.TempDir(), "wbag")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		copyFile(t, filepath.Join(src, e.Name()), filepath.Join(folder, e.Name()))
	}
	file := filepath.Join(folder, "wbag_1.db3")
	if err := os.Truncate(file, cut); err != nil {
		t.Fatal(err)
	}
	parsed := regexp.MustCompile(`(?:(\S+\.(?:db3|mcap|bag)) )?parsed to byte ([\d,]+) of ([\d,]+)`)
	for _, c := range []struct{ path, named string }{{folder, "wbag_1.db3"}, {file, ""}} {
		d := uitest.OpenDoc(t, c.path)
		text, _ := scanWords(d)
		ms := parsed.FindAllStringSubmatch(text, -1)
		if len(ms) != 1 {
			t.Fatalf("%s: the banner says how far the read got %d times, want once: %q", c.path, len(ms), text)
		}
		num := func(s string) int64 {
			n, _ := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
			return n
		}
		m := ms[0]
		if to, of := num(m[2]), num(m[3]); m[1] != c.named || of != cut || to <= 0 || to > of {
			t.Errorf("%s: the banner says %q; want the file %q parsed to a byte in (0, %d] of its own %d bytes", c.path, m[0], c.named, cut, cut)
		}
	}
}

// TestBannerEstimatesACutDB3: a lone .db3 cut in half, with no count of
// its own, says about how many messages it lost (the figure verify
// gives), with the true floor beside it, not "at least 10".
func TestBannerEstimatesACutDB3(t *testing.T) {
	src := uitest.SharedBags(t, "facontidavide__PlotJuggler/datasamples/rosbag2_test/rosbag2_test_0.db3")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "cut.db3")
	if err := os.WriteFile(p, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	d := uitest.OpenDoc(t, p)
	_, loss, err := stats.CountBytes(context.Background(), d.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	dmg := bag.ReadDamage(d.Storage, loss.Skipped, loss.Tally, loss.Complete)
	c := dmg.Messages
	// The truth: the intact file's messages, less those read.
	whole := uitest.OpenDoc(t, src)
	_, all, err := stats.CountBytes(context.Background(), whole.Storage, nil)
	if err != nil || !all.Complete || all.Tally.Read <= dmg.Read {
		t.Fatalf("the intact file: %v, %+v", err, all.Tally)
	}
	truth := all.Tally.Read - dmg.Read
	if c.About == 0 || c.Min > truth || c.About < truth*3/4 || c.About > truth*5/4 {
		t.Fatalf("the window's loss is %v; %d were lost", c, truth)
	}
	line, _ := bannerText(d, dmg)
	want := "about " + human.Count(c.About) + " messages (at least " + human.Count(c.Min) + ") lost"
	if !strings.Contains(line, want) {
		t.Errorf("the banner does not say %q: %s", want, line)
	}
}
