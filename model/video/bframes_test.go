package video

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// encodeB makes a 320×240 10 frames/s test pattern of secs seconds with
// two B-frames between references and a keyframe every gop frames, in
// an MP4 (which keeps each packet's presentation time), and returns its
// Annex-B stream and each packet's presentation time in seconds, in
// decode order as ffprobe reads them from the MP4.
func encodeB(t *testing.T, c Codec, gop, secs int) ([]byte, []float64) {
	t.Helper()
	dir := t.TempDir()
	mp4 := filepath.Join(dir, "b.mp4")
	args := []string{"-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", strconv.Itoa(secs)}
	bsf := "h264_mp4toannexb"
	switch c {
	case H264:
		args = append(args, "-c:v", "libx264", "-g", strconv.Itoa(gop), "-bf", "2", "-b_strategy", "0", "-sc_threshold", "0")
	case H265:
		bsf = "hevc_mp4toannexb"
		args = append(args, "-c:v", "libx265", "-x265-params",
			"log-level=error:bframes=2:b-adapt=0:open-gop=0:keyint="+strconv.Itoa(gop)+":min-keyint="+strconv.Itoa(gop)+":scenecut=0")
	}
	if out, err := exec.Command("ffmpeg", append(args, mp4)...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	raw := filepath.Join(dir, "b."+c.FFmpegFormat())
	if out, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-i", mp4, "-c", "copy", "-bsf:v", bsf, "-f", c.FFmpegFormat(), raw).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v", "-show_packets", "-show_entries", "packet=pts_time", "-of", "csv=p=0", mp4).Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	var pts []float64
	for _, line := range strings.Fields(string(out)) {
		v, err := strconv.ParseFloat(strings.TrimSuffix(line, ","), 64)
		if err != nil {
			t.Fatalf("ffprobe pts %q: %v", line, err)
		}
		pts = append(pts, v)
	}
	b, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	return b, pts
}

// With B-frames the messages are in decode order and the pictures are
// shown in presentation order. The picture shown at a time T (the frame
// of the latest message at or before T) is the one whose presentation
// time, as the encoder stamped it, is the latest at or before T: ffmpeg's
// own decode of the whole stream, in presentation order, indexed by the
// rank of that presentation time. Checked at every frame time and
// between, from a fresh decoder and from the cache, in a stream whose
// GOP is longer than a run (so a run stops inside it).
func TestDecodeBFramesMatchFFmpeg(t *testing.T) {
	needFFmpeg(t)
	for _, c := range []Codec{H264, H265} {
		t.Run(c.String(), func(t *testing.T) {
			const gop, secs = 60, 9
			stream, pts := encodeB(t, c, gop, secs)
			units := SplitAccessUnits(c, stream)
			ref := referenceFrames(t, c, stream, 320, 240)
			if len(units) != len(pts) || len(ref) != len(units) || len(units) != 10*secs {
				t.Fatalf("%d access units, %d packets, %d reference pictures; want %d", len(units), len(pts), len(ref), 10*secs)
			}
			// The stream is reordered: some message's picture is not
			// the one shown at its time.
			sorted := slices.Clone(pts)
			slices.Sort(sorted)
			reordered := 0
			for i := range pts {
				if pts[i] != sorted[i] {
					reordered++
				}
			}
			if reordered < len(pts)/3 {
				t.Fatalf("only %d of %d frames out of decode order: the stream has no B-frames", reordered, len(pts))
			}
			// The messages' times: the frame slots from the first
			// presentation time, as a camera logs them.
			x, read := indexOf(t, c, units)
			shownAt := func(T float64) int { // ref's index of the picture with the latest pts <= T
				n, _ := slices.BinarySearch(sorted, T+1e-9)
				return n - 1
			}
			frameAt := func(T float64) int { // the latest message at or before T
				i := -1
				for j, f := range x.Frames {
					if float64(f.T)/1e9 <= T+1e-9 {
						i = j
					}
				}
				return i
			}
			for _, T := range []float64{0, 0.25, 1.3, 2.0, 4.65, 5.9, 6.0, 6.1, 7.75, 8.9} {
				d, _ := NewDecoder("")
				T0 := T + sorted[0]
				i, want := frameAt(T), shownAt(T0)
				if i < 0 || want < 0 {
					t.Fatalf("T %g: frame %d, picture %d", T, i, want)
				}
				p, err := d.Frame(context.Background(), x, i, read)
				if err != nil {
					t.Fatalf("T %g (frame %d): %v", T, i, err)
				}
				if !bytes.Equal(p.Pix, ref[want]) {
					t.Errorf("T %g: frame %d's picture is not ffmpeg's picture %d (pts %g)", T, i, want, sorted[want])
				}
				// Every picture the run kept is the one shown at its
				// message's time.
				for j := range x.Frames {
					if q, ok := d.Cached(x, j); ok && !bytes.Equal(q.Pix, ref[shownAt(float64(x.Frames[j].T)/1e9+sorted[0])]) {
						t.Errorf("T %g: cached frame %d is not the picture shown at its time", T, j)
					}
				}
			}
		})
	}
}
