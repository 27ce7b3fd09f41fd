package sensor

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/foxglove/mcap/go/mcap"

	"github.com/bagscope/bagscope/model/video"
)

// needFFmpeg skips without ffmpeg when CI is unset (CI installs it with
// make deps) and fails under CI.
func needFFmpeg(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		if os.Getenv("CI") == "" {
			t.Skip("skipped: ffmpeg is not installed (CI is unset; `make deps` installs it)")
		}
		t.Fatal("ffmpeg is not installed: run make deps")
	}
}

// videoStart is the generated recordings' first message time; frames are
// 100 ms apart.
const videoStart = int64(1_700_000_000) * 1e9

// testVideo is a generated 3-second 320×240 10 frames/s test pattern
// with a keyframe every 10 frames: its access units and ffmpeg's own
// decode of each frame as RGBA.
type testVideo struct {
	codec video.Codec
	units [][]byte
	ref   [][]byte
}

func makeTestVideo(t *testing.T, c video.Codec) testVideo {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "v.raw")
	args := []string{"-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "3"}
	if c == video.H264 {
		args = append(args, "-c:v", "libx264", "-g", "10", "-bf", "0", "-bsf:v", "h264_mp4toannexb", "-f", "h264", out)
	} else {
		args = append(args, "-c:v", "libx265", "-x265-params", "log-level=error:bframes=0:keyint=10:min-keyint=10:scenecut=0", "-f", "hevc", out)
	}
	if b, err := exec.Command("ffmpeg", args...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, b)
	}
	stream, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", c.FFmpegFormat(), "-i", out,
		"-fps_mode", "passthrough", "-pix_fmt", "rgba", "-f", "rawvideo", "pipe:1")
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("ffmpeg decode: %v", err)
	}
	v := testVideo{codec: c, units: video.SplitAccessUnits(c, stream)}
	for len(raw) >= 320*240*4 {
		v.ref = append(v.ref, raw[:320*240*4])
		raw = raw[320*240*4:]
	}
	if len(v.units) != 30 || len(v.ref) != 30 {
		t.Fatalf("%d access units, %d decoded frames; want 30", len(v.units), len(v.ref))
	}
	return v
}

// compressedVideoDef is foxglove_msgs/msg/CompressedVideo as a ros2msg
// schema with its dependency.
const compressedVideoDef = `builtin_interfaces/Time timestamp
string frame_id
uint8[] data
string format
================================================================================
MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
`

// cdrVideo encodes a CompressedVideo as little-endian CDR.
func cdrVideo(t int64, frameID, format string, data []byte) []byte {
	b := []byte{0, 1, 0, 0}
	align := func() {
		for (len(b)-4)%4 != 0 {
			b = append(b, 0)
		}
	}
	str := func(s string) {
		align()
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)+1))
		b = append(append(b, s...), 0)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(t/1e9))
	b = binary.LittleEndian.AppendUint32(b, uint32(t%1e9))
	str(frameID)
	align()
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	b = append(b, data...)
	str(format)
	return b
}

// writeVideoMCAP writes v's frames as foxglove_msgs/msg/CompressedVideo
// on /camera/video with the mcap library.
func writeVideoMCAP(t *testing.T, v testVideo, format string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "video.mcap")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 64 << 10, Compression: mcap.CompressionZSTD})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteHeader(&mcap.Header{Profile: "ros2"})
	w.WriteSchema(&mcap.Schema{ID: 1, Name: "foxglove_msgs/msg/CompressedVideo", Encoding: "ros2msg", Data: []byte(compressedVideoDef)})
	w.WriteChannel(&mcap.Channel{ID: 1, SchemaID: 1, Topic: "/camera/video", MessageEncoding: "cdr"})
	for i, u := range v.units {
		tm := videoStart + int64(i)*1e8
		if err := w.WriteMessage(&mcap.Message{ChannelID: 1, Sequence: uint32(i), LogTime: uint64(tm), PublishTime: uint64(tm), Data: cdrVideo(tm, "camera", format, u)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// writeVideoBag writes v's frames as sensor_msgs/CompressedImage with
// format "h264" (as ffmpeg_image_transport does) on /camera/image/ffmpeg
// with the reference writer, Debian's python3-rosbag.
func writeVideoBag(t *testing.T, v testVideo) string {
	t.Helper()
	dir := t.TempDir()
	for i, u := range v.units {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("au%04d", i)), u, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "video.bag")
	script := `
import glob, os, sys, rosbag, rospy
from sensor_msgs.msg import CompressedImage
d, out = sys.argv[1], sys.argv[2]
with rosbag.Bag(out, 'w') as b:
    for i, name in enumerate(sorted(glob.glob(os.path.join(d, 'au*')))):
        m = CompressedImage()
        t = rospy.Time(1700000000, i * 100000000)
        m.header.stamp, m.header.frame_id, m.header.seq = t, 'camera', i
        m.format = 'h264'
        m.data = open(name, 'rb').read()
        b.write('/camera/image/ffmpeg', m, t)
`
	if out, err := exec.Command("/usr/bin/python3", "-c", script, dir, p).CombinedOutput(); err != nil {
		t.Fatalf("python3 rosbag: %v\n%s", err, out)
	}
	return p
}

// shownPixels is the picture the panel shows, as RGBA bytes.
func shownPixels(t *testing.T, p *sensorPanel) []byte {
	t.Helper()
	if p.cur == nil || p.cur.pic == nil {
		t.Fatalf("no picture shown (result %+v)", p.cur)
	}
	return p.img.pic.Pix
}

// TestSensorVideo follows the time on H.264 and H.265 topics of an MCAP
// (foxglove_msgs/CompressedVideo) and a ROS 1 bag (CompressedImage
// "h264"): the frame at time T is ffmpeg's own decode of that frame, byte
// for byte; the arrows step; the strip marks keyframes and selects.
func TestSensorVideo(t *testing.T) {
	needFFmpeg(t)
	h264 := makeTestVideo(t, video.H264)
	h265 := makeTestVideo(t, video.H265)
	for _, tc := range []struct {
		name, path, topic string
		v                 testVideo
	}{
		{"mcap h264", writeVideoMCAP(t, h264, "h264"), "/camera/video", h264},
		{"mcap h265", writeVideoMCAP(t, h265, "h265"), "/camera/video", h265},
		{"bag h264", writeVideoBag(t, h264), "/camera/image/ffmpeg", h264},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, l, x, _ := newTestSensorPanel(t, tc.path)
			tm := x.Topic(tc.topic)
			if tm == nil || tm.Len() != 30 {
				t.Fatalf("topic %s: %v", tc.topic, tm)
			}
			p.topicSel.SetSelected(tc.topic)
			// Between frames 13 and 14: frame 13 (keyframe 10) shows.
			l.SetCursor(tm.At(13).T + 5e7)
			if !bytes.Equal(shownPixels(t, p), tc.v.ref[13]) {
				t.Fatal("frame 13 differs from ffmpeg's decode")
			}
			codec := tc.v.codec.String()
			if !strings.Contains(p.title.Text, codec+" frame 14 of 30, frame,") || !strings.Contains(p.title.Text, "320×240") {
				t.Errorf("title %q", p.title.Text)
			}
			if want := "10.0 frames/s · GOP 10 · 3 keyframes · 3 after keyframe 11"; p.note.Text != want {
				t.Errorf("note %q, want %q", p.note.Text, want)
			}
			if !p.strip.Visible() || p.strip.cur != 13 || p.strip.x == nil || !p.strip.x.Frames[10].Key || p.strip.x.Frames[13].Key {
				t.Errorf("strip visible %v at %d", p.strip.Visible(), p.strip.cur)
			}
			// Stepping forward: the next frames come from the decoded run.
			for i := 14; i <= 16; i++ {
				if _, ok := p.vs.dec.Cached(p.strip.x, i); !ok {
					t.Errorf("frame %d not cached after decoding 13", i)
				}
				test.Tap(p.next)
				if !bytes.Equal(shownPixels(t, p), tc.v.ref[i]) {
					t.Fatalf("stepped to frame %d: differs from ffmpeg's decode", i)
				}
			}
			// A keyframe, and a frame of the last GOP.
			for _, i := range []int{20, 27, 2} {
				l.SetCursor(tm.At(i).T)
				if !bytes.Equal(shownPixels(t, p), tc.v.ref[i]) {
					t.Fatalf("frame %d differs from ffmpeg's decode", i)
				}
			}
			if !strings.Contains(p.title.Text, "frame 3 of 30, frame,") {
				t.Errorf("title %q", p.title.Text)
			}
			// A tap on the strip's first slot selects frame 0, a keyframe.
			test.TapAt(p.strip, fyne.NewPos(1, 10))
			if m, _ := l.Message(); m != tm.At(0) || !strings.Contains(p.title.Text, "frame 1 of 30, keyframe,") {
				t.Errorf("strip tap selected %+v; title %q", m, p.title.Text)
			}
		})
	}
}

// TestSensorVideoNoDecoder: without ffmpeg on PATH the view says so, with
// the command that installs it, and still describes each frame and the
// stream from its NAL units.
func TestSensorVideoNoDecoder(t *testing.T) {
	needFFmpeg(t) // to make the recording
	path := writeVideoMCAP(t, makeTestVideo(t, video.H264), "h264")
	t.Setenv("PATH", t.TempDir())
	p, l, x, _ := newTestSensorPanel(t, path)
	tm := x.Topic("/camera/video")
	p.topicSel.SetSelected("/camera/video")
	l.SetCursor(tm.At(10).T)
	if p.cur == nil || p.cur.pic != nil || p.cur.video == nil || !p.cur.video.noDecoder {
		t.Fatalf("result %+v", p.cur)
	}
	if len(p.body.Objects) != 1 || p.body.Objects[0] != p.noDecPane {
		t.Fatal("the no-decoder notice is not shown")
	}
	txt := p.noDecoder.Text
	for _, want := range []string{"No video decoder is installed", "sudo apt-get install ffmpeg", "H.264 frame 11 of 30, keyframe,", "320×240", "10.0 frames/s · GOP 10 · 3 keyframes"} {
		if !strings.Contains(txt, want) {
			t.Errorf("notice %q lacks %q", txt, want)
		}
	}
	if !p.strip.Visible() || p.strip.cur != 10 {
		t.Error("the frame strip is not shown")
	}
	// The strip: one slot per frame (121 slots, frames 0..29 from the
	// left), keyframes 0 and 20 in the primary colour, frame 10 (shown) in
	// the foreground colour, frame 5 in neither.
	img := p.strip.draw(121*4, 36)
	th, v := fyne.CurrentApp().Settings().Theme(), fyne.CurrentApp().Settings().ThemeVariant()
	at := func(frame int) color.NRGBA { return img.(*image.NRGBA).NRGBAAt(frame*4+1, 35) }
	primary, fg := toNRGBAColor(th.Color(theme.ColorNamePrimary, v)), toNRGBAColor(th.Color(theme.ColorNameForeground, v))
	if at(0) != primary || at(20) != primary || at(10) != fg || at(5) == primary || at(5) == fg {
		t.Errorf("strip colours: frame 0 %v, 20 %v, 10 %v, 5 %v", at(0), at(20), at(10), at(5))
	}
	l.SetCursor(tm.At(12).T)
	if !strings.Contains(p.noDecoder.Text, "frame 13 of 30, frame,") || !strings.Contains(p.noDecoder.Text, "2 after keyframe 11") {
		t.Errorf("notice %q", p.noDecoder.Text)
	}
}
