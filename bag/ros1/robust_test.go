package ros1

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/bagscope/bagscope/bag/sweeptest"
)

// exercise opens data with NewReaderOrScan and, if that works, reads the
// summary, every message, every record and every chunk. It fails the test
// on an error that does not say where it happened.
func exercise(t *testing.T, data []byte, what string) {
	t.Helper()
	check := func(err error) {
		t.Helper()
		var fe *FormatError
		if err != nil && !errors.As(err, &fe) {
			t.Fatalf("%s: error without an offset: %T %v", what, err, err)
		}
	}
	b, err := NewReaderOrScan(bytes.NewReader(data), int64(len(data)))
	check(err)
	if err != nil {
		return
	}
	_, err = b.Summary()
	check(err)
	it := b.Messages(MessageFilter{})
	for it.Next() {
	}
	check(it.Err())
	w := b.Walk()
	for w.Next() {
	}
	check(w.Err())
}

// robustFixtures are the small real bags the robustness tests damage.
func robustFixtures(t *testing.T) map[string][]byte {
	paths, _ := filepath.Glob("../../testdata/*.bag")
	paths = append(paths,
		sharedBags+"/ros__ros_comm/tools/rosbag_storage/test/test.bag",
		sharedBags+"/aktaylor08__RosbagPandas/tests/data/rosout.bag",
		sharedBags+"/swri-robotics__bag-reader-java/src/test/resources/Bool.bag",
		sharedBags+"/embarktrucks__embag/test/test_2.bag",
	)
	out := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			if os.IsNotExist(err) && os.Getenv("CI") == "" {
				continue
			}
			t.Fatal(err)
		}
		if len(data) <= 80<<10 {
			out[filepath.Base(p)] = data
		}
	}
	if len(out) < 5 {
		t.Fatalf("only %d fixtures", len(out))
	}
	return out
}

// TestCutEverywhere cuts each fixture at every offset (every byte of the
// bag header's start and of the first 6 KB of records, then a stride): nothing panics, every error has an offset,
// and memory stays bounded.
//
// make test cuts at one in cutSample of those offsets of each fixture (the
// same offsets every run, see bag/sweeptest); -long (make test-long) at
// every one:
//
//	go test -race -run '^TestCutEverywhere$' ./bag/ros1/ -long
func TestCutEverywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	const cutSample = 4
	sweeptest.Note(t, cutSample, "each fixture's cut offsets")
	for name, data := range robustFixtures(t) {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			n := 0
			for i, cut := 0, 0; cut <= len(data); i++ {
				if sweeptest.Keep(i, cutSample) {
					exercise(t, data[:cut], "cut")
					n++
				}
				switch {
				case cut < 100, cut >= 4000 && cut < 4117+6<<10:
					cut++
				default:
					cut += 61
				}
			}
			runtime.ReadMemStats(&after)
			perCase := (after.TotalAlloc - before.TotalAlloc) / uint64(n)
			if limit := uint64(8*len(data) + 8<<20); perCase > limit {
				t.Fatalf("%d bytes allocated per cut on average, limit %d", perCase, limit)
			}
		})
	}
}

// TestFlipBytesInEveryRecord flips bytes in the lengths, header and data of
// every record (and of the records inside chunks): nothing panics and every
// error has an offset.
func TestFlipBytesInEveryRecord(t *testing.T) {
	for name, data := range robustFixtures(t) {
		t.Run(name, func(t *testing.T) {
			raw, err := NewRawReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			var spots []int64
			w := raw.Walk()
			for w.Next() {
				r := w.Record()
				spots = append(spots, r.Offset, r.Offset+3, r.HeaderOffset+5, r.HeaderOffset+int64(r.HeaderLen)/2,
					r.DataOffset-2, r.DataOffset, r.DataOffset+int64(r.DataLen)/2, r.End()-1)
			}
			// Every record of the small fixtures; of the multi-chunk ones
			// every spot with -long (make test-long), and an even sample
			// of about flipSample spots in make test (bz2 decompression
			// under -race is what this test's time goes to):
			//
			//	go test -race -run '^TestFlipBytesInEveryRecord$' ./bag/ros1/ -long
			const flipSample = 54
			step := 1
			if len(spots) > 160 && !sweeptest.Long() {
				step = len(spots) / flipSample
				t.Logf("sampled: %d of %d spots (-long: every one)", (len(spots)+step-1)/step, len(spots))
			}
			for i := sweeptest.Shift() % step; i < len(spots); i += step {
				at := spots[i]
				if at < 0 || at >= int64(len(data)) {
					continue
				}
				for _, x := range []byte{0xff, 0x80, 0x01} {
					c := bytes.Clone(data)
					c[at] ^= x
					exercise(t, c, "flip")
				}
			}
		})
	}
}
