package video

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// needFFmpeg skips without ffmpeg and ffprobe when CI is unset (CI
// installs them with make deps) and fails under CI.
func needFFmpeg(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "" {
				t.Skipf("skipped: %s is not installed (CI is unset; `make deps` installs it)", tool)
			}
			t.Fatalf("%s is not installed: run make deps", tool)
		}
	}
}

// encode makes a 3-second 320×240 10 frames/s test pattern with a
// keyframe every gop frames as an Annex-B stream.
func encode(t *testing.T, c Codec, gop int) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out."+c.FFmpegFormat())
	args := []string{"-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "3"}
	switch c {
	case H264:
		args = append(args, "-c:v", "libx264", "-g", strconv.Itoa(gop), "-bf", "0", "-bsf:v", "h264_mp4toannexb", "-f", "h264")
	case H265:
		args = append(args, "-c:v", "libx265", "-x265-params", "log-level=error:bframes=0:keyint="+strconv.Itoa(gop)+":min-keyint="+strconv.Itoa(gop)+":scenecut=0", "-f", "hevc")
	}
	if out, err := exec.Command("ffmpeg", append(args, out)...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// probeKeys is ffprobe's key_frame of each frame of stream.
func probeKeys(t *testing.T, c Codec, stream []byte) []bool {
	t.Helper()
	cmd := exec.Command("ffprobe", "-v", "error", "-f", c.FFmpegFormat(), "-select_streams", "v", "-show_frames",
		"-show_entries", "frame=key_frame,pict_type", "-of", "csv=p=0", "pipe:0")
	cmd.Stdin = bytes.NewReader(stream)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	var keys []bool
	for _, line := range strings.Split(string(out), "\n") {
		// "1,I" or, with side data, "1,I,H.26[45] User Data …", or empty.
		f := strings.Split(line, ",")
		if len(f) < 2 {
			continue
		}
		keys = append(keys, f[0] == "1")
	}
	return keys
}

// referenceFrames is ffmpeg's own decode of the whole stream as RGBA.
func referenceFrames(t *testing.T, c Codec, stream []byte, w, h int) [][]byte {
	t.Helper()
	cmd := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", c.FFmpegFormat(), "-i", "pipe:0",
		"-fps_mode", "passthrough", "-pix_fmt", "rgba", "-f", "rawvideo", "pipe:1")
	cmd.Stdin = bytes.NewReader(stream)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ffmpeg: %v", err)
	}
	size := w * h * 4
	var frames [][]byte
	for len(out) >= size {
		frames = append(frames, out[:size])
		out = out[size:]
	}
	return frames
}

func indexOf(t *testing.T, c Codec, units [][]byte) (*Index, ReadFunc) {
	t.Helper()
	format := map[Codec]string{H264: "h264", H265: "h265"}[c]
	read := func(i int) (FrameData, error) {
		return FrameData{T: int64(i) * 1e8, Format: format, Data: units[i]}, nil
	}
	x, err := BuildIndex(context.Background(), len(units), read, nil)
	if err != nil {
		t.Fatal(err)
	}
	return x, read
}

// The NAL parser's keyframes are ffprobe's, frame for frame, and the
// access units split are ffprobe's frames.
func TestKeyframesMatchFFprobe(t *testing.T) {
	needFFmpeg(t)
	for _, c := range []Codec{H264, H265} {
		t.Run(c.String(), func(t *testing.T) {
			stream := encode(t, c, 10)
			units := SplitAccessUnits(c, stream)
			want := probeKeys(t, c, stream)
			if len(units) != len(want) || len(want) != 30 {
				t.Fatalf("%d access units, ffprobe %d frames, want 30", len(units), len(want))
			}
			x, _ := indexOf(t, c, units)
			for i, f := range x.Frames {
				if f.Key != want[i] || f.Bad {
					t.Errorf("frame %d: key %v bad %v, ffprobe key_frame %v", i, f.Key, f.Bad, want[i])
				}
			}
			if x.Keys() != 3 || x.GOP() != 10 {
				t.Errorf("%d keyframes, GOP %d; want 3, 10", x.Keys(), x.GOP())
			}
			if r := x.Rate(); r < 9.99 || r > 10.01 {
				t.Errorf("rate %g, want 10", r)
			}
			if c == H264 && (x.Width != 320 || x.Height != 240) {
				t.Errorf("SPS size %d×%d, want 320×240", x.Width, x.Height)
			}
		})
	}
}

// The SPS parser's size is ffprobe's on sizes that need cropping.
func TestH264SizeCropped(t *testing.T) {
	needFFmpeg(t)
	for _, size := range []string{"320x240", "1920x1080", "202x98"} {
		out := filepath.Join(t.TempDir(), "s.h264")
		if b, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size="+size+":rate=5",
			"-t", "0.2", "-c:v", "libx264", "-profile:v", "high", "-pix_fmt", "yuv420p", "-f", "h264", out).CombinedOutput(); err != nil {
			t.Fatalf("ffmpeg: %v\n%s", err, b)
		}
		b, _ := os.ReadFile(out)
		fi := Inspect(H264, SplitAccessUnits(H264, b)[0])
		if got := strconv.Itoa(fi.Width) + "x" + strconv.Itoa(fi.Height); got != size || !fi.Key || !fi.Params {
			t.Errorf("%s: size %s key %v params %v", size, got, fi.Key, fi.Params)
		}
	}
}

// The picture of frame i, decoded from its keyframe, is ffmpeg's own
// decode of the whole stream's frame i, byte for byte; stepping forward
// is answered from the cache until past the run, then decodes again.
func TestDecodeFrameMatchesFFmpeg(t *testing.T) {
	needFFmpeg(t)
	for _, c := range []Codec{H264, H265} {
		t.Run(c.String(), func(t *testing.T) {
			stream := encode(t, c, 10)
			units := SplitAccessUnits(c, stream)
			ref := referenceFrames(t, c, stream, 320, 240)
			if len(ref) != len(units) {
				t.Fatalf("reference has %d frames, stream %d", len(ref), len(units))
			}
			x, read := indexOf(t, c, units)
			d, err := NewDecoder("")
			if err != nil {
				t.Fatal(err)
			}
			check := func(i int) {
				t.Helper()
				p, err := d.Frame(context.Background(), x, i, read)
				if err != nil {
					t.Fatalf("frame %d: %v", i, err)
				}
				if p.Rect.Dx() != 320 || p.Rect.Dy() != 240 || !bytes.Equal(p.Pix, ref[i]) {
					t.Fatalf("frame %d (%v) differs from ffmpeg's decode", i, p.Rect)
				}
			}
			check(13) // keyframe 10: decodes 10..18
			for i := 14; i <= 19; i++ {
				_, cached := d.Cached(x, i)
				if want := i <= 19 && i <= 13+Ahead && i < 20; cached != want {
					t.Errorf("frame %d cached %v, want %v", i, cached, want)
				}
				check(i)
			}
			check(20) // the next GOP's keyframe
			if _, ok := d.Cached(x, 13); ok {
				t.Error("frame 13 still cached after a run of another GOP")
			}
			check(29)
			check(0)
			check(9)
			// Different content at different times: the test can tell frames apart.
			if bytes.Equal(ref[3], ref[17]) {
				t.Fatal("the test pattern does not change")
			}
		})
	}
}

// Cancelling the context stops a decode.
func TestDecodeCancelled(t *testing.T) {
	needFFmpeg(t)
	units := SplitAccessUnits(H264, encode(t, H264, 30))
	x, read := indexOf(t, H264, units)
	d, _ := NewDecoder("")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := d.Frame(ctx, x, 25, read); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
}

// Frames before the first keyframe are reported, not decoded.
func TestDecodeNoKeyframe(t *testing.T) {
	needFFmpeg(t)
	units := SplitAccessUnits(H264, encode(t, H264, 10))
	x, read := indexOf(t, H264, units[3:])
	d, _ := NewDecoder("")
	if _, err := d.Frame(context.Background(), x, 2, read); err == nil || !strings.Contains(err.Error(), "no keyframe") {
		t.Fatalf("err %v", err)
	}
	if _, err := d.Frame(context.Background(), x, 8, read); err != nil {
		t.Fatalf("frame after the keyframe: %v", err)
	}
}

// Without ffmpeg on PATH there is no decoder, and indexing still works.
func TestNoDecoder(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := NewDecoder(""); !errors.Is(err, ErrNoDecoder) {
		t.Fatalf("err %v, want ErrNoDecoder", err)
	}
	if !strings.Contains(ErrNoDecoder.Error(), InstallHint) {
		t.Errorf("%q does not say how to install", ErrNoDecoder)
	}
}

func TestCodecOfFormat(t *testing.T) {
	for _, tc := range []struct {
		format string
		want   Codec
	}{
		{"h264", H264}, {"H264", H264}, {"h264; libx264", H264}, {"h265", H265}, {"hevc", H265},
		{"jpeg", CodecNone}, {"rgb8; jpeg compressed bgr8", CodecNone}, {"", CodecNone},
	} {
		if got := CodecOfFormat(tc.format); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.format, got, tc.want)
		}
	}
}

// Damaged data never panics; a frame without a slice is Bad.
func TestInspectDamaged(t *testing.T) {
	for _, b := range [][]byte{nil, {0}, {0, 0, 1}, {0, 0, 0, 1, 0x67}, {0, 0, 1, 0x67, 0x64, 0, 0, 3}, bytes.Repeat([]byte{0xff}, 64)} {
		for _, c := range []Codec{H264, H265} {
			fi := Inspect(c, b)
			if fi.Slices != 0 || fi.Key {
				t.Errorf("%x: %+v", b, fi)
			}
		}
	}
}

// An ffmpeg before 5.1 does not know -fps_mode (it says "Unrecognized
// option 'fps_mode'"): the decoder runs it again with -vsync. The old
// ffmpeg is the real one behind a script that refuses -fps_mode as it
// did.
func TestDecodeOldFFmpeg(t *testing.T) {
	needFFmpeg(t)
	real, _ := exec.LookPath("ffmpeg")
	old := filepath.Join(t.TempDir(), "ffmpeg")
	script := "#!/bin/sh\nfor a in \"$@\"; do if [ \"$a\" = -fps_mode ]; then echo \"Unrecognized option 'fps_mode'.\" >&2; exit 1; fi; done\nexec " + real + " \"$@\"\n"
	if err := os.WriteFile(old, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	stream := encode(t, H264, 10)
	units := SplitAccessUnits(H264, stream)
	ref := referenceFrames(t, H264, stream, 320, 240)
	x, read := indexOf(t, H264, units)
	d, err := NewDecoder(old)
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.Frame(context.Background(), x, 17, read)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(p.Pix, ref[17]) || !d.oldSync {
		t.Fatalf("frame 17 differs from ffmpeg's decode, or -vsync not used (%v)", d.oldSync)
	}
}
