package model

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/assets"
	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

const sharedBags = "../../shared/bags"

func TestOpenFixtures(t *testing.T) {
	tests := []struct {
		path     string
		messages uint64
		topics   int
		chunks   int
	}{
		{"../testdata/single-message.bag", 1, 1, 1},
		{"../testdata/empty.bag", 0, 0, 0},
		{"../testdata/lz4-multichunk.bag", 286, 5, 47},
		{"../testdata/bz2-multichunk.bag", 286, 5, 47},
		{"../testdata/none-multichunk.bag", 286, 5, 47},
		{"../testdata/two-conns-one-topic.bag", 14, 2, -1},
		{sharedBags + "/cra-ros-pkg__robot_localization/test/test2.bag", 0, 0, -1},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil {
				t.Skipf("fixture missing: %v", err)
			}
			d, err := Open(context.Background(), tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if tt.messages != 0 || tt.topics != 0 {
				if d.Summary.Messages != tt.messages || len(d.Topics) != tt.topics {
					t.Errorf("messages, topics = %d, %d; want %d, %d", d.Summary.Messages, len(d.Topics), tt.messages, tt.topics)
				}
			}
			if tt.chunks >= 0 && d.Summary.Chunks != tt.chunks {
				t.Errorf("chunks = %d, want %d", d.Summary.Chunks, tt.chunks)
			}
			compareWithBag(t, tt.path, d)
		})
	}
}

// compareWithBag checks d against what package bag says about path.
func compareWithBag(t *testing.T, path string, d *Document) {
	t.Helper()
	b, err := ros1.OpenOrScan(path)
	if err != nil {
		t.Fatalf("ros1.OpenOrScan: %v", err)
	}
	defer b.Close()
	s, err := b.Summary()
	if err != nil {
		t.Fatalf("bag summary: %v", err)
	}
	if d.Summary.Messages != s.Messages || d.Summary.Chunks != s.Chunks || len(d.Topics) != len(s.Topics) {
		t.Fatalf("document has %d messages, %d chunks, %d topics; bag has %d, %d, %d",
			d.Summary.Messages, d.Summary.Chunks, len(d.Topics), s.Messages, s.Chunks, len(s.Topics))
	}
	var sum uint64
	for i, row := range d.Topics {
		want := s.Topics[i]
		if row.Topic != want.Topic || row.Type != want.Type || row.Messages != want.Messages || row.Connections != len(want.Connections) {
			t.Errorf("topic %d = %+v, bag says %s %s %d msgs %d conns", i, row, want.Topic, want.Type, want.Messages, len(want.Connections))
		}
		if dur := s.End.Sub(s.Start); dur > 0 && row.Frequency != float64(row.Messages)/dur {
			t.Errorf("%s frequency = %v, want %v", row.Topic, row.Frequency, float64(row.Messages)/dur)
		}
		sum += row.Messages
	}
	if sum != s.Messages {
		t.Errorf("topic messages add up to %d, bag has %d", sum, s.Messages)
	}
	if d.Size != s.Size || d.Path != path || d.Name != filepath.Base(path) {
		t.Errorf("size, path, name = %d, %q, %q", d.Size, d.Path, d.Name)
	}
}

// TestOpenSharedBags opens every bag under shared/bags and checks that the
// model agrees with package bag: the same counts, or the same error.
func TestOpenSharedBags(t *testing.T) {
	paths := reftest.SharedBagPaths(t, sharedBags)
	for _, p := range paths {
		t.Run(strings.TrimPrefix(p, sharedBags+"/"), func(t *testing.T) {
			b, berr := ros1.OpenOrScan(p)
			var serr error
			if berr == nil {
				_, serr = b.Summary()
				b.Close()
			}
			d, err := Open(context.Background(), p, nil)
			if errors.Is(berr, ros1.ErrNotBag) {
				// Another format's file: it opens through that format or
				// is refused as unknown.
				if err == nil {
					d.Close()
				} else if !errors.Is(err, bag.ErrUnknownFormat) {
					t.Errorf("error = %v, want one that says the format is unknown", err)
				}
				return
			}
			switch {
			case berr != nil || serr != nil:
				want := berr
				if want == nil {
					want = serr
				}
				if err == nil {
					d.Close()
					t.Fatalf("model opened a bag that package bag rejects: %v", want)
				}
				if err.Error() != want.Error() {
					t.Errorf("error = %v, bag says %v", err, want)
				}
			case err != nil:
				t.Fatalf("model: %v (package bag opens it)", err)
			default:
				defer d.Close()
				compareWithBag(t, p, d)
			}
		})
	}
}

func TestOpenBytesSample(t *testing.T) {
	d, err := OpenBytes(context.Background(), assets.SampleName, assets.SampleBag, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Path != "" || d.Name != "sample.bag" || d.Size != int64(len(assets.SampleBag)) {
		t.Errorf("path, name, size = %q, %q, %d", d.Path, d.Name, d.Size)
	}
	if d.Summary.Messages == 0 || len(d.Topics) < 4 {
		t.Errorf("sample has %d messages on %d topics", d.Summary.Messages, len(d.Topics))
	}
}

func TestOpenProgress(t *testing.T) {
	var stages []string
	var last int64
	d, err := Open(context.Background(), "../testdata/lz4-multichunk.bag", func(done, total int64, stage string) {
		if len(stages) == 0 || stages[len(stages)-1] != stage {
			stages = append(stages, stage)
			if stage == StageChunks && total != 0 {
				// Before the headers are read their number is not
				// known: 0, never a made-up "0 of 1".
				t.Errorf("the chunk stage starts with total %d, want 0 (not known yet)", total)
			}
		}
		if done > total && total != 0 {
			t.Errorf("%s: done %d > total %d", stage, done, total)
		}
		last = done
	})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if strings.Join(stages, ",") != StageIndex+","+StageChunks || last != 47 {
		t.Errorf("stages %q, last done %d", stages, last)
	}
}

func TestOpenCancel(t *testing.T) {
	t.Run("before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Open(ctx, "../testdata/lz4-multichunk.bag", nil); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
	for _, stage := range []string{StageIndex, StageChunks} {
		t.Run("during "+stage, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			d, err := Open(ctx, "../testdata/lz4-multichunk.bag", func(done, total int64, s string) {
				if s == stage {
					cancel()
				}
			})
			if !errors.Is(err, context.Canceled) {
				if d != nil {
					d.Close()
				}
				t.Errorf("err = %v, want context.Canceled", err)
			}
		})
	}
	t.Run("document outlives the context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		d, err := Open(ctx, "../testdata/lz4-multichunk.bag", nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		it := d.Storage.Messages(bag.MessageFilter{})
		n := 0
		for it.Next() {
			n++
		}
		if it.Err() != nil || n != 286 {
			t.Errorf("read %d messages after cancel, err %v", n, it.Err())
		}
	})
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	notBag := filepath.Join(dir, "notes.txt")
	os.WriteFile(notBag, []byte("hello, not a bag\n"), 0o644)
	sample, _ := os.ReadFile("../testdata/single-message.bag")
	oldVersion := filepath.Join(dir, "old.bag")
	os.WriteFile(oldVersion, append([]byte("#ROSBAG V1.2\n"), sample[13:]...), 0o644)
	tests := []struct {
		name string
		path string
		want error
	}{
		{"missing", filepath.Join(dir, "nope.bag"), fs.ErrNotExist},
		{"not a bag", notBag, bag.ErrUnknownFormat},
		{"old version", oldVersion, ros1.ErrUnsupportedVersion},
		{"directory", dir, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Open(context.Background(), tt.path, nil)
			if err == nil {
				d.Close()
				t.Fatal("opened")
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
			if tt.want != nil && Hint(err) == "" {
				t.Errorf("no hint for %v", err)
			}
		})
	}
}

// TestOpenScans checks that bags with a missing or damaged index open by
// scanning, and say so.
func TestOpenScans(t *testing.T) {
	dir := t.TempDir()
	sample, _ := os.ReadFile("../testdata/lz4-multichunk.bag")
	cut := filepath.Join(dir, "cut.bag")
	os.WriteFile(cut, sample[:len(sample)*2/3], 0o644)
	tests := []struct {
		name string
		path string
		want error
	}{
		{"cut", cut, ros1.ErrTruncated},
		{"unindexed", sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", ros1.ErrUnindexed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil {
				t.Skip("bag missing")
			}
			d, err := Open(context.Background(), tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if d.Scan == nil || !errors.Is(d.Scan.Reason, tt.want) {
				t.Fatalf("scan report %+v, want reason %v", d.Scan, tt.want)
			}
			if d.Summary.Messages == 0 {
				t.Error("scan found no messages")
			}
			compareWithBag(t, tt.path, d)
		})
	}
}

// TestOpenStorageFileOfFolder: a .db3 of a split rosbag2 folder opens
// alone in the window, as in every command, and the document says, as the
// commands do, that the folder is the whole recording; a lone .db3 says
// nothing of the kind.
func TestOpenStorageFileOfFolder(t *testing.T) {
	part := sharedBags + "/ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag/wbag_1.db3"
	if _, err := os.Stat(part); err != nil {
		t.Skipf("shared recording missing: %v", err)
	}
	lone := filepath.Join(t.TempDir(), "wbag_1.db3")
	b, err := os.ReadFile(part)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lone, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		note bool
	}{{part, true}, {lone, false}} {
		d, err := Open(context.Background(), tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := PartOfNote(tc.path, filepath.Dir(part))
		said := false
		for _, w := range d.Warnings {
			said = said || w.Error() == want
		}
		if said != tc.note || len(d.Info.Files) > 1 {
			t.Errorf("%s: the note %q said %v, want %v (warnings %v)", tc.path, want, said, tc.note, d.Warnings)
		}
		if !strings.Contains(want, "recording of 5 files") {
			t.Errorf("note %q does not count the folder's files", want)
		}
		d.Close()
	}
}
