package model

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/bagscope/bagscope/bag"
)

// TestTimelineMissingFile removes one file of a real split set (the
// .db3 and the MCAP wbag of rosbag2's tests): the timeline names it as a
// gap. The expected span and count come from the other files, each
// opened on its own, and metadata.yaml's total: between the end of the
// file before and the start of the file after; a missing first or last
// file a point at the start or end of what is there.
func TestTimelineMissingFile(t *testing.T) {
	const res = "../../shared/bags/ros2__rosbag2/rosbag2_py/test/resources/"
	for _, set := range []struct{ dir, ext string }{{"sqlite3", ".db3"}, {"mcap", ".mcap"}} {
		src := res + set.dir + "/wbag"
		meta, err := os.ReadFile(filepath.Join(src, "metadata.yaml"))
		if err != nil {
			t.Skip(err)
		}
		// The recording's total: the first message_count, at the
		// bag's own level (two spaces in).
		m := regexp.MustCompile(`(?m)^  message_count: (\d+)`).FindSubmatch(meta)
		if m == nil {
			t.Fatalf("%s: no message_count in metadata.yaml", src)
		}
		total, _ := strconv.ParseUint(string(m[1]), 10, 64)
		// Each file on its own: its span and count.
		var starts, ends []int64
		var counts []uint64
		for i := 0; i < 5; i++ {
			s, err := bag.Open(filepath.Join(src, fmt.Sprintf("wbag_%d%s", i, set.ext)))
			if err != nil {
				t.Fatal(err)
			}
			sum, err := s.Summary()
			if err != nil {
				t.Fatal(err)
			}
			starts, ends, counts = append(starts, sum.Start.Nanos()), append(ends, sum.End.Nanos()), append(counts, sum.Messages)
			s.Close()
		}
		for _, gone := range []int{0, 2, 4} {
			name := fmt.Sprintf("wbag_%d%s", gone, set.ext)
			t.Run(name, func(t *testing.T) {
				dir := copySplitSet(t, src, name)
				d, err := Open(context.Background(), dir, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer d.Close()
				tl := BuildTimeline(d)
				if len(tl.Missing) != 1 {
					t.Fatalf("%d missing files on the timeline, want 1: %+v", len(tl.Missing), tl.Missing)
				}
				g := tl.Missing[0]
				var t0, t1 int64
				switch gone {
				case 0:
					t0, t1 = starts[1], starts[1]
				case 4:
					t0, t1 = ends[3], ends[3]
				default:
					t0, t1 = ends[gone-1], starts[gone+1]
				}
				read := uint64(0)
				for i, n := range counts {
					if i != gone {
						read += n
					}
				}
				lost := total - read
				want := fmt.Sprintf("%s is missing: %s messages lost (metadata.yaml counts them)", name, commas(lost))
				if g.Name != name || g.T0 != t0 || g.T1 != t1 || g.Messages != bag.Exactly(lost) || g.Text != want {
					t.Errorf("got %s %d..%d %v %q\nwant %s %d..%d %d %q", g.Name, g.T0, g.T1, g.Messages, g.Text, name, t0, t1, lost, want)
				}
				if g.T0 < tl.Start || g.T1 > tl.End {
					t.Errorf("the gap %d..%d is outside the timeline %d..%d", g.T0, g.T1, tl.Start, tl.End)
				}
				for _, c := range tl.Chunks {
					if c.Damaged != "" {
						t.Errorf("%s is marked damaged for the missing file: %s", c.Place, c.Damaged)
					}
				}
			})
		}
	}
}

// copySplitSet copies the split set src without the file gone.
func copySplitSet(t *testing.T, src, gone string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "wbag")
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() == gone {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// commas writes n with thousands separators, as people read it.
func commas(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestTimelineMissingFilesFromMetadata opens a real folder holding only
// the last of the 13 files its metadata.yaml names, with each file's
// start, duration and count: each missing file is a span of its own,
// with the count metadata.yaml gives it, placed where metadata.yaml
// puts it, cut to what was read (all of them end before the one file
// there starts, so each is a point at the timeline's start).
func TestTimelineMissingFilesFromMetadata(t *testing.T) {
	const dir = "../../shared/bags/rosbag-sharing-community__amber/tests/rosbag/soccer_goal"
	raw, err := os.ReadFile(filepath.Join(dir, "metadata.yaml"))
	if err != nil {
		t.Skip(err)
	}
	var meta struct {
		Info struct {
			Files []struct {
				Path         string `yaml:"path"`
				StartingTime struct {
					Nanos int64 `yaml:"nanoseconds_since_epoch"`
				} `yaml:"starting_time"`
				Duration struct {
					Nanos int64 `yaml:"nanoseconds"`
				} `yaml:"duration"`
				MessageCount uint64 `yaml:"message_count"`
			} `yaml:"files"`
		} `yaml:"rosbag2_bagfile_information"`
	}
	if err := yaml.Unmarshal(raw, &meta); err != nil {
		t.Fatal(err)
	}
	d, err := Open(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tl := BuildTimeline(d)
	var want []MissingSpan
	for _, f := range meta.Info.Files {
		if _, err := os.Stat(filepath.Join(dir, f.Path)); err == nil {
			continue
		}
		t0, t1 := f.StartingTime.Nanos, f.StartingTime.Nanos+f.Duration.Nanos
		clamp := func(x int64) int64 { return min(max(x, tl.Start), tl.End) }
		want = append(want, MissingSpan{Name: f.Path, T0: clamp(t0), T1: clamp(t1), Messages: bag.Exactly(f.MessageCount)})
	}
	if len(want) != 12 || len(tl.Missing) != len(want) {
		t.Fatalf("%d missing on the timeline, metadata.yaml names %d not there", len(tl.Missing), len(want))
	}
	for i, w := range want {
		g := tl.Missing[i]
		if g.Name != w.Name || g.T0 != w.T0 || g.T1 != w.T1 || g.Messages != w.Messages {
			t.Errorf("got %s %d..%d %v, want %s %d..%d %v", g.Name, g.T0, g.T1, g.Messages, w.Name, w.T0, w.T1, w.Messages)
		}
	}
}

// TestTimelineLaneUnit: the chunk lane of a folder of .db3 files holds the
// files, named, each spanning its own messages (the file opened alone); a
// folder of MCAP files and a chunked bag hold chunks.
func TestTimelineLaneUnit(t *testing.T) {
	const res = "../../shared/bags/ros2__rosbag2/rosbag2_py/test/resources/"
	for _, tc := range []struct {
		path, unit string
	}{
		{res + "sqlite3/wbag", "files"},
		{res + "mcap/wbag", "chunks"},
		{"../testdata/lz4-multichunk.bag", "chunks"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if _, err := os.Stat(tc.path); err != nil {
				if os.Getenv("CI") != "" {
					t.Fatal(err)
				}
				t.Skipf("skipping (CI never skips this): %v", err)
			}
			d, err := Open(context.Background(), tc.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			tl := BuildTimeline(d)
			if got := tl.LaneUnit(); got != tc.unit {
				t.Fatalf("lane unit %q, want %q", got, tc.unit)
			}
			if tc.unit != "files" {
				return
			}
			if len(tl.Chunks) != 5 {
				t.Fatalf("%d spans, want the 5 files", len(tl.Chunks))
			}
			for i, c := range tl.Chunks {
				name := fmt.Sprintf("wbag_%d.db3", i)
				if c.Place != name {
					t.Errorf("span %d: place %q, want %q", i, c.Place, name)
				}
				s, err := bag.Open(filepath.Join(tc.path, name))
				if err != nil {
					t.Fatal(err)
				}
				sum, err := s.Summary()
				s.Close()
				if err != nil {
					t.Fatal(err)
				}
				if c.T0 != sum.Start.Nanos() || c.T1 != sum.End.Nanos() || c.Messages != sum.Messages {
					t.Errorf("%s: span %d..%d, %d messages; the file alone: %d..%d, %d", name, c.T0, c.T1, c.Messages, sum.Start.Nanos(), sum.End.Nanos(), sum.Messages)
				}
			}
		})
	}
}
