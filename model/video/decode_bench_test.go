package video

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkDecode measures a time move on a 640×360 15 frames/s H.264
// camera with a keyframe every 30 frames (2 s): the last frame of a GOP
// decoded from its keyframe by a new ffmpeg process (the worst case of a
// time move), and a step forward answered from the last run.
func BenchmarkDecode(b *testing.B) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		b.Skip("ffmpeg is not installed")
	}
	out := filepath.Join(b.TempDir(), "cam.h264")
	if o, err := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=15",
		"-t", "4", "-c:v", "libx264", "-g", "30", "-bf", "0", "-tune", "zerolatency", "-f", "h264", out).CombinedOutput(); err != nil {
		b.Fatalf("ffmpeg: %v\n%s", err, o)
	}
	stream, _ := os.ReadFile(out)
	units := SplitAccessUnits(H264, stream)
	read := func(i int) (FrameData, error) {
		return FrameData{T: int64(i) * 66e6, Format: "h264", Data: units[i]}, nil
	}
	x, err := BuildIndex(context.Background(), len(units), read, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("gop-end-from-keyframe", func(b *testing.B) {
		for b.Loop() {
			d, _ := NewDecoder("")
			if _, err := d.Frame(context.Background(), x, 59, read); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("step-forward-cached", func(b *testing.B) {
		d, _ := NewDecoder("")
		if _, err := d.Frame(context.Background(), x, 31, read); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := d.Frame(context.Background(), x, 32, read); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			if _, err := BuildIndex(context.Background(), len(units), read, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
