package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestBannerSaysTopicLosses: a split set with one file missing, whose
// metadata.yaml counts each topic's messages: once the window's read of
// every message ends, the banner's details say which topics lost how many
// ("By topic, as metadata.yaml counts them: /x: N lost"), each N what the
// intact original holds of the topic and the copy no longer does.
func TestBannerSaysTopicLosses(t *testing.T) {
	src := uitest.SharedBags(t, "ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag")
	dir := filepath.Join(t.TempDir(), "wbag")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(src)
	for _, e := range ents {
		if e.Name() == "wbag_2.db3" || !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644)
	}
	perTopic := func(path string) map[string]int {
		s, err := model.OpenStorage(path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		n := map[string]int{}
		it := s.Messages(bag.MessageFilter{})
		for it.Next() {
			n[it.Message().Conn.Topic]++
		}
		it.Close()
		return n
	}
	orig, left := perTopic(src), perTopic(dir)
	d := uitest.OpenDoc(t, dir)
	_, loss, err := stats.CountBytes(context.Background(), d.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, details := bannerText(d, bag.ReadDamage(d.Storage, loss.Skipped, loss.Tally, loss.Complete))
	line := ""
	for _, s := range details {
		if strings.HasPrefix(s, "By topic, as metadata.yaml counts them: ") {
			line = s
		}
	}
	if line == "" {
		t.Fatalf("no line by topic in the banner's details: %q", details)
	}
	named, found := 0, 0
	for topic, n := range orig {
		lost := n - left[topic]
		if lost == 0 {
			continue
		}
		named++
		switch {
		case strings.Contains(line, fmt.Sprintf("%s: %d lost", topic, lost)):
			found++
		case strings.Contains(line, topic+": "):
			t.Errorf("%s lost %d messages; the banner says %s", topic, lost, line)
		}
	}
	more := 0
	fmt.Sscanf(line[strings.LastIndex(line, "and ")+4:], "%d more", &more)
	if found != min(named, maxBannerTopics) || found+more != named {
		t.Errorf("%d topics lost messages; the banner names %d and %d more: %s", named, found, more, line)
	}
	if named == 0 {
		t.Fatal("the missing file held no message of any topic")
	}
}
