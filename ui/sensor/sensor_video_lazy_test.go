package sensor

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/model/video"
)

// makeLongVideo is a generated 10-minute 160×120 10 frames/s H.264 test
// pattern with a keyframe every 50 frames (5 s), and ffmpeg's own decode
// of frame mid as RGBA (in ref[mid]; the other frames are not decoded).
func makeLongVideo(t *testing.T, mid int) testVideo {
	t.Helper()
	out := filepath.Join(t.TempDir(), "long.h264")
	if b, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10",
		"-t", "600", "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-bf", "0", "-f", "h264", out).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, b)
	}
	stream, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	pic, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "h264", "-i", out,
		"-vf", fmt.Sprintf(`select=eq(n\,%d)`, mid), "-fps_mode", "passthrough", "-frames:v", "1", "-pix_fmt", "rgba", "-f", "rawvideo", "pipe:1").Output()
	if err != nil {
		t.Fatalf("ffmpeg decode: %v", err)
	}
	v := testVideo{codec: video.H264, units: video.SplitAccessUnits(video.H264, stream)}
	if len(v.units) != 6000 || len(pic) != 160*120*4 {
		t.Fatalf("%d access units, %d bytes of picture", len(v.units), len(pic))
	}
	v.ref = make([][]byte, len(v.units))
	v.ref[mid] = pic
	return v
}

// The first picture of a 10-minute video topic, shown at its middle,
// reads the frames from its keyframe, not the topic (as the window did
// before: every frame's data, to index them): in an MCAP
// (foxglove_msgs/CompressedVideo) and a ROS 1 bag the reference writer
// wrote (CompressedImage "h264"). The picture is ffmpeg's own decode of
// that frame. The whole index is then built in the background (the note
// says so until it is done), and then the note has the stream's rate,
// GOP and keyframes. Another topic shown meanwhile cancels it.
func TestSensorVideoFirstFrameIsLazy(t *testing.T) {
	needFFmpeg(t)
	const mid = 3017 // 17 frames after keyframe 3000
	v := makeLongVideo(t, mid)
	var total int64
	for _, u := range v.units {
		total += int64(len(u))
	}
	for _, tc := range []struct{ name, path, topic string }{
		{"mcap", writeVideoMCAP(t, v, "h264"), "/camera/video"},
		{"bag", writeVideoBag(t, v), "/camera/image/ffmpeg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, l, x, _ := newTestSensorPanel(t, tc.path)
			tm := x.Topic(tc.topic)
			if tm == nil || tm.Len() != 6000 {
				t.Fatalf("topic %s: %v", tc.topic, tm)
			}
			var queue []func()
			l.SetAsync(func(f func()) { queue = append(queue, f) })
			run := func() {
				t.Helper()
				if len(queue) == 0 {
					t.Fatal("no background work queued")
				}
				f := queue[0]
				queue = queue[1:]
				f()
			}
			if p.vs.dataRead != 0 || p.cur != nil {
				t.Fatalf("%d bytes read before the time moves", p.vs.dataRead)
			}
			// The panel follows its only sensor topic.
			l.SetCursor(tm.At(mid).T)
			run() // the read of frame mid
			if p.topic != tc.topic {
				t.Fatalf("the panel follows %q", p.topic)
			}
			after := p.vs.dataRead
			t.Logf("%s: first picture at frame %d of 6,000: %d bytes of frame data read (the whole topic's: %d)", tc.name, mid, after, total)
			if !bytes.Equal(shownPixels(t, p), v.ref[mid]) {
				t.Fatal("the frame differs from ffmpeg's decode")
			}
			if after <= 0 || after*20 > total {
				t.Errorf("the first picture read %d bytes of %d", after, total)
			}
			if p.cur.video.x.Complete() || !strings.HasPrefix(p.note.Text, "Indexing the topic's frames… · 17 after keyframe 3,001") {
				t.Errorf("note %q before the whole index", p.note.Text)
			}
			if len(queue) != 1 {
				t.Fatalf("%d jobs queued, want the whole index", len(queue))
			}
			if tc.name == "bag" {
				// Another topic shown before the whole index is built
				// cancels it; showing the video again starts it again.
				shown := p.cur
				p.indexVideo(&sensorResult{topic: "/other"})
				run() // the cancelled index
				if p.vs.indexes[tc.topic] != nil || p.vs.bgCancel != nil {
					t.Fatal("the whole index was built after another topic was shown")
				}
				p.indexVideo(shown)
				if len(queue) != 1 {
					t.Fatalf("%d jobs queued, want the whole index again", len(queue))
				}
			}
			run() // the whole index
			if !p.cur.video.x.Complete() || p.note.Text != "10.0 frames/s · GOP 50 · 120 keyframes · 17 after keyframe 3,001" {
				t.Errorf("note %q after the whole index", p.note.Text)
			}
			// The whole index keeps the decoded run: the next frame is cached.
			if _, ok := p.vs.dec.Cached(p.cur.video.x, mid+1); !ok {
				t.Error("frame mid+1 is not cached after the whole index")
			}
		})
	}
}
