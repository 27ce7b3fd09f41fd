package video

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// encodeLong makes a 160×120 10 frames/s H.264 test pattern of secs
// seconds with a keyframe every 50 frames (5 s), as a camera records for
// minutes.
func encodeLong(t *testing.T, secs int) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "long.h264")
	if b, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10",
		"-t", strconv.Itoa(secs), "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-bf", "0", "-f", "h264", out).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ffmpegFrame is ffmpeg's own decode of frame n of an H.264 stream, as
// RGBA.
func ffmpegFrame(t *testing.T, stream []byte, n int) []byte {
	t.Helper()
	cmd := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "h264", "-i", "pipe:0",
		"-vf", fmt.Sprintf(`select=eq(n\,%d)`, n), "-fps_mode", "passthrough", "-frames:v", "1", "-pix_fmt", "rgba", "-f", "rawvideo", "pipe:1")
	cmd.Stdin = bytes.NewReader(stream)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ffmpeg: %v", err)
	}
	return out
}

// The first picture of a topic shown at its middle reads the frames from
// the keyframe before it (and the run after it), not the whole topic:
// the bytes read do not grow with the topic's length (1 and 10 minutes),
// where the whole index read them all. The picture is ffmpeg's own
// decode of that frame, and what the lazy index saw is what the whole
// index says of those frames.
func TestLazyFirstFrameReadsOneGOP(t *testing.T) {
	needFFmpeg(t)
	lazyBytes := map[int]int64{}
	for _, secs := range []int{60, 600} {
		stream := encodeLong(t, secs)
		units := SplitAccessUnits(H264, stream)
		if len(units) != 10*secs {
			t.Fatalf("%d access units, want %d", len(units), 10*secs)
		}
		var read int64
		readFn := func(i int) (FrameData, error) {
			read += int64(len(units[i]))
			return FrameData{T: int64(i) * 1e8, Format: "h264", Data: units[i]}, nil
		}
		mid := len(units)/2 + 17 // 17 frames after a keyframe
		// Before: the whole index, then the decode.
		whole, err := BuildIndex(context.Background(), len(units), readFn, nil)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := NewDecoder("")
		if _, err := d.Frame(context.Background(), whole, mid, readFn); err != nil {
			t.Fatal(err)
		}
		before := read
		// After: the lazy index, located from the middle, then the decode.
		read = 0
		lazy := NewLazyIndex(H264, len(units), func(i int) int64 { return int64(i) * 1e8 })
		x, err := lazy.Locate(context.Background(), mid, readFn)
		if err != nil {
			t.Fatal(err)
		}
		if x == lazy || lazy.Seen() != 0 {
			t.Fatal("Locate wrote the index it was given")
		}
		k := x.KeyAtOrBefore(mid)
		if k != whole.KeyAtOrBefore(mid) || k != mid-17 || x.Seen() != 18 {
			t.Fatalf("lazy keyframe %d (%d seen), whole index's %d", k, x.Seen(), whole.KeyAtOrBefore(mid))
		}
		for j := k; j <= mid; j++ {
			if x.Frames[j] != whole.Frames[j] {
				t.Fatalf("frame %d: lazy %+v, whole %+v", j, x.Frames[j], whole.Frames[j])
			}
		}
		d, _ = NewDecoder("")
		p, err := d.Frame(context.Background(), x, mid, readFn)
		if err != nil {
			t.Fatal(err)
		}
		if want := ffmpegFrame(t, stream, mid); !bytes.Equal(p.Pix, want) {
			t.Fatalf("%d s: frame %d differs from ffmpeg's decode (%d bytes, ffmpeg %d)", secs, mid, len(p.Pix), len(want))
		}
		lazyBytes[secs] = read
		t.Logf("%d s topic (%d bytes), first picture at its middle: whole index %d bytes read, lazy %d", secs, len(stream), before, read)
		if before < int64(len(stream)) || secs == 600 && read*20 > before {
			t.Errorf("%d s: lazy read %d bytes, whole %d", secs, read, before)
		}
		// The whole index takes over the lazy one's decoded pictures.
		whole.Follows(lazy)
		if _, ok := d.Cached(whole, mid); !ok {
			t.Error("the whole index does not share the lazy one's pictures")
		}
	}
	if a, b := lazyBytes[60], lazyBytes[600]; b > a*3/2 {
		t.Errorf("lazy first picture read %d bytes on 1 min, %d on 10 min: it grows with the topic", a, b)
	}
}
