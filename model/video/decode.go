package video

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrNoDecoder says that no ffmpeg is installed: frames are indexed and
// described, not drawn.
var ErrNoDecoder = errors.New("no video decoder installed: install ffmpeg (sudo apt-get install ffmpeg) to see H.264/H.265 frames")

// InstallHint is the command that installs the decoder on Debian and
// Ubuntu.
const InstallHint = "sudo apt-get install ffmpeg"

// Bounds of one decode.
const (
	// MaxRun is the most frames decoded from a keyframe to the frame
	// asked for; a longer GOP is reported, not decoded.
	MaxRun = 600
	// Ahead is how many frames past the one asked for a run decodes (in
	// the same GOP, kept within CacheBytes), so stepping forward and
	// playback find them cached: a new process costs more than a frame
	// (0.48 s for a 30-frame 640×360 GOP at load 17 on 2 cores, most of
	// it the process), so one run a GOP rather than one every few frames.
	Ahead = 30
	// Behind is how many frames before the one asked for are kept.
	Behind = 4
	// CacheBytes bounds the decoded pictures kept (the one asked for is
	// kept whatever its size).
	CacheBytes = 96 << 20
	// ReorderSlack is the most pictures an H.264 or H.265 decoder may
	// hold back to put B-frames in presentation order (a DPB of 16).
	ReorderSlack = 16
	// maxPixels bounds one decoded picture: 64 megapixels.
	maxPixels = 64 << 20
)

// LookFFmpeg returns the path of the ffmpeg on PATH, or ErrNoDecoder.
func LookFFmpeg() (string, error) {
	p, err := exec.LookPath("ffmpeg")
	if err != nil {
		return "", ErrNoDecoder
	}
	return p, nil
}

// Decoder draws the frames of video topics with the ffmpeg process.
//
// A frame is decoded by feeding the Annex-B access units from the
// keyframe at or before it (at most MaxRun frames back) to a new
// `ffmpeg -f h264|hevc -i pipe:0 -pix_fmt rgba -c:v pam -f image2pipe
// pipe:1`, which writes each decoded picture as a PAM image (raw RGBA
// after a short header that carries the size, so nothing is parsed from
// ffmpeg's log).
//
// B-frames: the messages are in decode order, and the decoder gives its
// pictures in presentation order (a stream encoded with -bf 2 sends I0
// P3 B1 B2 and shows I0 B1 B2 P3). The messages' times are the frame
// slots: the n-th picture out from a keyframe is the one shown from the
// n-th picture-carrying message's time after it, so frame i is the
// picture whose presentation time is the latest at or before message
// i's time. Without B-frames the two orders are the same. A run that
// stops before its GOP's end cannot know the pictures still held back
// for reordering, so it keeps only the pictures at least ReorderSlack
// frames before its last.
//
// Design choice: the process is not kept alive between time moves.
// ffmpeg's raw-stream parser only finishes an access unit when it sees
// the next one, and its decoder holds pictures back, so a live process
// answers one frame late or needs flushing tricks. Instead each run
// decodes Ahead frames past the one asked for (within its GOP) and keeps
// the last run's pictures, from Behind frames before it, up to
// CacheBytes: stepping forward or back a few frames, as playback and the
// arrow keys do, is answered from the cache without a process; a step
// past the cached run decodes again from the keyframe. A context
// cancelled (the time moved on) kills the process.
type Decoder struct {
	FFmpeg string // the ffmpeg executable

	mu      sync.Mutex
	cache   *byte // the stream the cached pictures belong to (Index.stream)
	pics    map[int]*image.NRGBA
	oldSync bool // ffmpeg before 5.1: -vsync rather than -fps_mode
}

// NewDecoder returns a decoder running ffmpeg (the one on PATH when
// ffmpeg is ""), or ErrNoDecoder when there is none.
func NewDecoder(ffmpeg string) (*Decoder, error) {
	if ffmpeg == "" {
		p, err := LookFFmpeg()
		if err != nil {
			return nil, err
		}
		ffmpeg = p
	}
	return &Decoder{FFmpeg: ffmpeg}, nil
}

// Cached returns frame i of x's picture if the last run kept it.
func (d *Decoder) Cached(x *Index, i int) (*image.NRGBA, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.cache == nil || d.cache != x.stream {
		return nil, false
	}
	p, ok := d.pics[i]
	return p, ok
}

// Frame returns the picture of frame i of the topic x indexes, decoded
// from its keyframe with frames read through read, or from the cache.
func (d *Decoder) Frame(ctx context.Context, x *Index, i int, read ReadFunc) (*image.NRGBA, error) {
	if i < 0 || i >= len(x.Frames) {
		return nil, fmt.Errorf("frame %d of %d", i, len(x.Frames))
	}
	if p, ok := d.Cached(x, i); ok {
		return p, nil
	}
	if x.Codec == CodecNone {
		return nil, errors.New("the topic's format names no H.264 or H.265 codec")
	}
	k := x.KeyAtOrBefore(i)
	if k < 0 {
		return nil, fmt.Errorf("no keyframe at or before frame %d: the frames before the topic's first keyframe cannot be decoded", i+1)
	}
	if i-k >= MaxRun {
		return nil, fmt.Errorf("the keyframe before frame %d is %d frames back; decoding stops at %d", i+1, i-k, MaxRun)
	}
	next := x.NextKey(i)
	end := min(i+Ahead, next-1, len(x.Frames)-1)
	// Pictures after safe may be shown out of place when the run stops
	// inside a GOP: a B-frame shown before the last fed frame is not fed.
	safe := end
	if end < next-1 && end < len(x.Frames)-1 {
		safe = max(i, end-ReorderSlack)
	}
	pics, err := d.run(ctx, x.Codec, k, end, i, safe, read)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.cache, d.pics = x.stream, pics
	d.mu.Unlock()
	p, ok := pics[i]
	if !ok {
		return nil, fmt.Errorf("ffmpeg gave no picture for frame %d", i+1)
	}
	return p, nil
}

// run decodes frames first..last with one ffmpeg process and returns the
// pictures of those kept: target always, then the frames around it up to
// safe, within Behind and the budget. The n-th picture out is the n-th
// fed frame with a picture slice (presentation order: see Decoder).
func (d *Decoder) run(ctx context.Context, c Codec, first, last, target, safe int, read ReadFunc) (map[int]*image.NRGBA, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// One picture out per access unit in: -fps_mode passthrough (ffmpeg
	// 5.1 and later) or, before it, -vsync passthrough.
	syncArgs := []string{"-fps_mode", "passthrough"}
	d.mu.Lock()
	old := d.oldSync
	if old {
		syncArgs = []string{"-vsync", "passthrough"}
	}
	d.mu.Unlock()
	args := []string{"-hide_banner", "-nostats", "-loglevel", "error", "-f", c.FFmpegFormat(), "-i", "pipe:0", "-an"}
	args = append(append(args, syncArgs...), "-pix_fmt", "rgba", "-c:v", "pam", "-f", "image2pipe", "pipe:1")
	cmd := exec.CommandContext(ctx, d.FFmpeg, args...)
	cmd.WaitDelay = 2 * time.Second
	stderr := &tailBuffer{max: 4096}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting ffmpeg: %w", err)
	}
	// The frames fed, in order: the n-th picture out is fed[n]'s.
	var (
		fedMu   sync.Mutex
		fed     []int
		readErr error
	)
	feeding := make(chan struct{})
	go func() {
		defer close(feeding)
		defer stdin.Close()
		for j := first; j <= last && ctx.Err() == nil; j++ {
			fd, err := read(j)
			if err != nil {
				if j == target {
					fedMu.Lock()
					readErr = err
					fedMu.Unlock()
				}
				continue
			}
			// A message without a picture slice (parameter sets
			// alone, or damage) gives no picture: fed to the decoder,
			// not counted.
			if Inspect(c, fd.Data).Slices > 0 {
				fedMu.Lock()
				fed = append(fed, j)
				fedMu.Unlock()
			}
			if _, err := stdin.Write(fd.Data); err != nil {
				return
			}
		}
	}()
	pics := map[int]*image.NRGBA{}
	br := bufio.NewReaderSize(stdout, 64<<10)
	kept := 0
	var perr error
	for n := 0; ; n++ {
		w, h, err := readPAMHeader(br)
		if err == io.EOF {
			break
		}
		if err != nil {
			perr = err
			break
		}
		fedMu.Lock()
		j := -1
		if n < len(fed) {
			j = fed[n]
		}
		fedMu.Unlock()
		size := w * h * 4
		keep := j == target || (j >= target-Behind && j <= safe && kept+size <= CacheBytes-size)
		if !keep {
			if _, err := io.CopyN(io.Discard, br, int64(size)); err != nil {
				perr = err
				break
			}
			continue
		}
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		if _, err := io.ReadFull(br, img.Pix); err != nil {
			perr = err
			break
		}
		pics[j] = img
		kept += size
	}
	if perr != nil {
		cancel()
	}
	werr := cmd.Wait()
	// read is not called after Frame returns: the caller may read again.
	<-feeding
	if err := ctx.Err(); err != nil && perr == nil {
		return nil, err
	}
	if perr != nil {
		return nil, fmt.Errorf("reading ffmpeg's pictures: %w", perr)
	}
	fedMu.Lock()
	rerr := readErr
	fedMu.Unlock()
	if rerr != nil {
		return nil, rerr
	}
	if _, ok := pics[target]; !ok {
		msg := strings.TrimSpace(stderr.String())
		if werr != nil && msg == "" {
			msg = werr.Error()
		}
		if strings.Contains(msg, "fps_mode") && !old {
			// An ffmpeg older than 5.1: again with -vsync.
			d.mu.Lock()
			d.oldSync = true
			d.mu.Unlock()
			return d.run(ctx, c, first, last, target, safe, read)
		}
		if msg != "" {
			return nil, fmt.Errorf("ffmpeg decoded no picture for frame %d: %s", target+1, msg)
		}
		return nil, fmt.Errorf("ffmpeg decoded no picture for frame %d", target+1)
	}
	return pics, nil
}

// readPAMHeader reads a PAM header ("P7" … "ENDHDR") of an RGBA picture
// and returns its size; io.EOF before its first byte.
func readPAMHeader(br *bufio.Reader) (w, h int, err error) {
	line, err := br.ReadString('\n')
	if err != nil {
		if err == io.EOF && line == "" {
			return 0, 0, io.EOF
		}
		return 0, 0, io.ErrUnexpectedEOF
	}
	if line != "P7\n" {
		return 0, 0, fmt.Errorf("not a PAM picture: %q", strings.TrimSpace(line))
	}
	depth, maxval := 0, 0
	for range 16 {
		line, err = br.ReadString('\n')
		if err != nil {
			return 0, 0, io.ErrUnexpectedEOF
		}
		f := strings.Fields(line)
		if len(f) == 1 && f[0] == "ENDHDR" {
			if w <= 0 || h <= 0 || w > 1<<16 || h > 1<<16 || w*h > maxPixels || depth != 4 || maxval != 255 {
				return 0, 0, fmt.Errorf("PAM picture %d×%d depth %d maxval %d: not 8-bit RGBA within %d pixels", w, h, depth, maxval, maxPixels)
			}
			return w, h, nil
		}
		if len(f) != 2 {
			continue
		}
		v, _ := strconv.Atoi(f[1])
		switch f[0] {
		case "WIDTH":
			w = v
		case "HEIGHT":
			h = v
		case "DEPTH":
			depth = v
		case "MAXVAL":
			maxval = v
		}
	}
	return 0, 0, errors.New("PAM header too long")
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b.Write(p)
	if over := t.b.Len() - t.max; over > 0 {
		t.b.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.b.String()
}
