package sensor

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	msensor "github.com/bagscope/bagscope/model/sensor"
	"github.com/bagscope/bagscope/model/video"
)

// H.264 and H.265 topics (foxglove_msgs/CompressedVideo, and
// CompressedImage with an h264/h265 format) are drawn in the image view
// of this tab rather than a tab of their own: they are camera pictures,
// and the zoom, pan, pixel read-out, topic chooser and stepping of the
// other images serve them as they are. What video adds: a frame needs
// the frames since its keyframe (model/video decodes them with the
// ffmpeg process), and a strip under the picture shows the frames around
// the current one: keyframes, sizes, damage.

// videoState is the panel's video work: the topics' frame indexes, the
// decoder, and the cancel of the decode in progress. Its methods run in
// the panel's read job (one at a time), except cancelDecode and the
// background index's (on the UI goroutine).
//
// The first show of a topic does not read the topic: a lazy index
// (video.NewLazyIndex, from the message index's times) reads back from
// the frame shown to its keyframe, the picture is decoded, and then the
// whole index is built in the background with progress in the note (its
// rate, GOP and keyframe counts, and the strip's sizes), cancelled when
// another topic is shown. When it is done it replaces the lazy one and
// keeps its decoded pictures.
type videoState struct {
	reader *model.MessageReader
	dec    *video.Decoder // nil until ffmpeg is found

	mu      sync.Mutex
	indexes map[string]*video.Index // whole, by topic
	lazy    map[string]*video.Index // lazy, by topic, until the whole one is built
	cancel  context.CancelFunc      // of the decode in progress
	// dataRead counts the frame data bytes the read job read for the
	// index and the decoder (not the background index's).
	dataRead int64

	// The background index (UI goroutine only): its topic and cancel.
	bgTopic  string
	bgCancel context.CancelFunc
}

// videoResult is what the panel shows of a video frame besides its
// picture.
type videoResult struct {
	x         *video.Index // nil while the topic's index is not built
	i         int          // the frame shown in the topic
	codec     video.Codec
	format    string
	info      video.FrameInfo
	size      int
	noDecoder bool  // ffmpeg is not installed: no picture
	decodeErr error // why the picture is not shown
}

// cancelDecode stops the decode in progress (the time moved on).
func (v *videoState) cancelDecode() {
	v.mu.Lock()
	if v.cancel != nil {
		v.cancel()
	}
	v.mu.Unlock()
}

// videoCodec returns the codec a video message's format names, and
// whether the message is one the video path draws: every
// CompressedVideo (with CodecNone when its format is not H.264/H.265),
// and CompressedImages whose format names h264 or h265.
func videoCodec(typ string, root *rosmsg.Node) (video.Codec, string, bool) {
	base := msensor.BaseType(typ)
	if base != video.CompressedVideoType && base != msensor.CompressedImageType {
		return video.CodecNone, "", false
	}
	f := root.Field("format")
	if f == nil {
		return video.CodecNone, "", base == video.CompressedVideoType
	}
	c := video.CodecOfFormat(f.Text())
	return c, f.Text(), base == video.CompressedVideoType || c != video.CodecNone
}

// frameReader reads frame i of a topic's messages for the index and the
// decoder through rd, adding the data bytes to *count (nil: not
// counted). A message from a damaged unit does not count as a frame.
func frameReader(rd *model.MessageReader, tm *model.TopicMessages, count *int64) video.ReadFunc {
	return func(i int) (video.FrameData, error) {
		ref := tm.At(i)
		fd := video.FrameData{T: ref.T}
		m, err := rd.Read(ref)
		if err != nil {
			return fd, err
		}
		if m.Suspect != "" {
			return fd, fmt.Errorf("read from a damaged unit: %s", m.Suspect)
		}
		root, _, err := rd.Decode(m)
		if err != nil {
			return fd, err
		}
		if f := root.Field("format"); f != nil {
			fd.Format = f.Text()
		}
		if f := root.Field("data"); f != nil {
			fd.Data = f.Bytes()
		}
		if count != nil {
			*count += int64(len(fd.Data))
		}
		return fd, nil
	}
}

// frameReader reads frames for the read job.
func (v *videoState) frameReader(tm *model.TopicMessages) video.ReadFunc {
	return frameReader(v.reader, tm, &v.dataRead)
}

// index returns the topic's index: the whole one when built, else its
// lazy one with the frames back to frame i's keyframe read.
func (v *videoState) index(ctx context.Context, topic string, tm *model.TopicMessages, c video.Codec, i int) (*video.Index, error) {
	v.mu.Lock()
	x, lz := v.indexes[topic], v.lazy[topic]
	v.mu.Unlock()
	if x != nil {
		return x, nil
	}
	if lz == nil {
		lz = video.NewLazyIndex(c, tm.Len(), func(i int) int64 { return tm.At(i).T })
	}
	lz, err := lz.Locate(ctx, i, v.frameReader(tm))
	v.mu.Lock()
	if v.indexes[topic] == nil {
		v.lazy[topic] = lz
	}
	v.mu.Unlock()
	return lz, err
}

// stopIndexing cancels the background index (UI goroutine).
func (v *videoState) stopIndexing() {
	if v.bgCancel != nil {
		v.bgCancel()
	}
	v.bgTopic, v.bgCancel = "", nil
}

// fillVideo shows a video message: its frame's NAL units at once, the
// topic's index (lazy until the whole one is built in the background),
// and the picture when ffmpeg is installed.
func (r *sensorResult) fillVideo(ctx context.Context, v *videoState, tm *model.TopicMessages, root *rosmsg.Node, c video.Codec, format string) {
	r.kind = msensor.KindImage
	var data []byte
	if f := root.Field("data"); f != nil {
		data = f.Bytes()
	}
	vr := &videoResult{codec: c, format: format, size: len(data), i: -1}
	r.video = vr
	r.frame = &msensor.ImageFrame{Info: msensor.ImageInfo{Encoding: format, Bytes: len(data)}}
	if c == video.CodecNone {
		if format == "" {
			format = `""`
		}
		r.err = fmt.Errorf("%s: not shown (shown: h264, h265)", format)
		return
	}
	vr.info = video.Inspect(c, data)
	r.frame.Info.Width, r.frame.Info.Height = vr.info.Width, vr.info.Height
	if tm == nil {
		return
	}
	vr.i = tm.IndexOf(r.ref)
	x, err := v.index(ctx, r.topic, tm, c, vr.i)
	if err != nil {
		r.err = err
		return
	}
	vr.x = x
	if r.frame.Info.Width == 0 {
		r.frame.Info.Width, r.frame.Info.Height = x.Width, x.Height
	}
	if v.dec == nil {
		if d, err := video.NewDecoder(""); err == nil {
			v.dec = d
		}
	}
	if v.dec == nil {
		vr.noDecoder = true
		return
	}
	if vr.i < 0 {
		vr.decodeErr = errors.New("the message is not in the topic's index")
		return
	}
	dctx, cancel := context.WithCancel(ctx)
	v.mu.Lock()
	v.cancel = cancel
	v.mu.Unlock()
	pic, err := v.dec.Frame(dctx, x, vr.i, v.frameReader(tm))
	v.mu.Lock()
	v.cancel = nil
	v.mu.Unlock()
	cancel()
	if err != nil {
		vr.decodeErr = err
		return
	}
	r.frame.Img = pic
	r.frame.W, r.frame.H = pic.Rect.Dx(), pic.Rect.Dy()
	r.frame.Info.Width, r.frame.Info.Height = r.frame.W, r.frame.H
	r.pic = pic
}

// frameKind names a frame: "keyframe", "frame", "damaged frame".
func frameKind(fi video.FrameInfo, bad bool) string {
	switch {
	case bad || fi.Slices == 0:
		return "frame without a picture"
	case fi.Key:
		return "keyframe"
	}
	return "frame"
}

// videoTitle is what the title says of a video frame after its topic,
// type and time: "H.264 frame 13 of 30, keyframe, 1,204 bytes, 320×240".
func videoTitle(r *sensorResult) string {
	vr := r.video
	var parts []string
	what := vr.codec.String()
	if vr.x != nil && vr.i >= 0 {
		what += fmt.Sprintf(" frame %s of %s", human.Count(uint64(vr.i+1)), human.Count(uint64(len(vr.x.Frames))))
	}
	parts = append(parts, what, frameKind(vr.info, false), human.Plural(uint64(vr.size), "byte"))
	if w, h := r.frame.Info.Width, r.frame.Info.Height; w > 0 {
		parts = append(parts, fmt.Sprintf("%d×%d", w, h))
	}
	return strings.Join(parts, ", ")
}

// videoNote says the stream's rate, GOP and keyframes, and where the
// frame's keyframe is.
func videoNote(vr *videoResult) string {
	x := vr.x
	if x == nil {
		return "Indexing the topic's frames…"
	}
	var parts []string
	if !x.Complete() {
		// A lazy index: only the frames back to the keyframe are known.
		parts = append(parts, "Indexing the topic's frames…")
		if vr.i >= 0 {
			if k := x.KeyAtOrBefore(vr.i); k >= 0 && k != vr.i {
				parts = append(parts, fmt.Sprintf("%d after keyframe %s", vr.i-k, human.Count(uint64(k+1))))
			}
		}
		return strings.Join(parts, " · ")
	}
	if r := x.Rate(); r > 0 {
		parts = append(parts, fmt.Sprintf("%.1f frames/s", r))
	}
	if g := x.GOP(); g > 0 {
		parts = append(parts, fmt.Sprintf("GOP %d", g))
	}
	parts = append(parts, human.Plural(uint64(x.Keys()), "keyframe"))
	if vr.i >= 0 {
		if k := x.KeyAtOrBefore(vr.i); k >= 0 && k != vr.i {
			parts = append(parts, fmt.Sprintf("%d after keyframe %s", vr.i-k, human.Count(uint64(k+1))))
		} else if k < 0 {
			parts = append(parts, "before the first keyframe")
		}
	}
	bad := 0
	for _, f := range x.Frames {
		if f.Bad {
			bad++
		}
	}
	if bad > 0 {
		parts = append(parts, human.Count(uint64(bad))+" without a picture")
	}
	return strings.Join(parts, " · ")
}

// noDecoderText is what the view says in place of the picture when
// ffmpeg is not installed.
func noDecoderText(r *sensorResult) string {
	return "No video decoder is installed, so H.264/H.265 pictures are not drawn.\n" +
		"Install ffmpeg (" + video.InstallHint + ") and show the frame again.\n\n" +
		"This frame: " + videoTitle(r) + ".\n" + videoNote(r.video) +
		"\nThe strip below shows the frames around it: keyframes in the accent colour, bar heights their sizes, this frame highlighted."
}

// stripFrames is how many frames the strip shows on each side of the
// current one.
const stripFrames = 60

// frameStrip draws the frames around the current one as bars: height the
// frame's size (over the frames shown), keyframes in the primary colour,
// frames without a picture in the error colour, the current frame in
// the foreground colour with a tick above. A tap selects the frame under it.
type frameStrip struct {
	widget.BaseWidget
	x        *video.Index
	cur      int
	raster   *canvas.Raster
	OnSelect func(i int)
}

func newFrameStrip() *frameStrip {
	s := &frameStrip{cur: -1}
	s.raster = canvas.NewRaster(s.draw)
	s.ExtendBaseWidget(s)
	return s
}

// Set shows x's frames around frame cur (x nil: nothing).
func (s *frameStrip) Set(x *video.Index, cur int) {
	s.x, s.cur = x, cur
	s.raster.Refresh()
}

func (s *frameStrip) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(s.raster)
}

func (s *frameStrip) MinSize() fyne.Size { return fyne.NewSize(120, 36) }

// window returns the frames shown: [lo, hi).
func (s *frameStrip) window() (lo, hi int) {
	if s.x == nil || s.cur < 0 {
		return 0, 0
	}
	n := len(s.x.Frames)
	lo = max(0, s.cur-stripFrames)
	hi = min(n, lo+2*stripFrames+1)
	lo = max(0, hi-2*stripFrames-1)
	return lo, hi
}

// Tapped selects the frame under the pointer.
func (s *frameStrip) Tapped(e *fyne.PointEvent) {
	lo, hi := s.window()
	if hi <= lo || s.OnSelect == nil || s.Size().Width <= 0 {
		return
	}
	i := lo + int(e.Position.X/s.Size().Width*float32(2*stripFrames+1))
	if i >= lo && i < hi {
		s.OnSelect(i)
	}
}

func (s *frameStrip) draw(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	lo, hi := s.window()
	if hi <= lo || w <= 0 || h <= 0 {
		return img
	}
	v := fyne.CurrentApp().Settings().ThemeVariant()
	th := fyne.CurrentApp().Settings().Theme()
	key := toNRGBAColor(th.Color(theme.ColorNamePrimary, v))
	plain := toNRGBAColor(th.Color(theme.ColorNameDisabled, v))
	bad := toNRGBAColor(th.Color(theme.ColorNameError, v))
	mark := toNRGBAColor(th.Color(theme.ColorNameForeground, v))
	var biggest int32 = 1
	for _, f := range s.x.Frames[lo:hi] {
		biggest = max(biggest, f.Size)
	}
	slot := float64(w) / float64(2*stripFrames+1)
	for i := lo; i < hi; i++ {
		f := s.x.Frames[i]
		x0 := int(float64(i-lo) * slot)
		x1 := max(x0+1, int(float64(i-lo+1)*slot)-1)
		bh := max(2, int(float64(h-4)*float64(f.Size)/float64(biggest)))
		c := plain
		switch {
		case f.Bad:
			c, bh = bad, h-4
		case f.Key:
			c = key
		}
		if i == s.cur {
			c = mark
		}
		for y := h - bh; y < h; y++ {
			for x := x0; x < x1 && x < w; x++ {
				img.SetNRGBA(x, y, c)
			}
		}
		if i == s.cur {
			for x := x0; x < x1 && x < w; x++ {
				img.SetNRGBA(x, 0, mark)
				img.SetNRGBA(x, 1, mark)
			}
		}
	}
	return img
}

// toNRGBAColor converts a theme colour.
func toNRGBAColor(c color.Color) color.NRGBA {
	return color.NRGBAModel.Convert(c).(color.NRGBA)
}

// videoJob is what a read job needs to draw a video frame: the panel's
// video state, the topic's messages (nil before the index is built) and
// the job's context.
type videoJob struct {
	ctx   context.Context
	state *videoState
	topic *model.TopicMessages
}

// indexVideo builds the whole index of a shown video frame's topic in
// the background when it is shown from a lazy one, with progress in the
// note, and shows it when done; showing another topic cancels it.
func (p *sensorPanel) indexVideo(r *sensorResult) {
	v := p.vs
	if r.video == nil || r.video.x == nil || r.video.x.Complete() {
		if v.bgTopic != "" && (r.video == nil || v.bgTopic != r.topic) {
			v.stopIndexing()
		}
		return
	}
	if v.bgTopic == r.topic {
		return // running
	}
	v.stopIndexing()
	var tm *model.TopicMessages
	p.l.WithIndex(func(x *model.MessageIndex) { tm = x.Topic(r.topic) })
	if tm == nil {
		return
	}
	topic := r.topic
	ctx, cancel := context.WithCancel(p.l.Context())
	v.bgTopic, v.bgCancel = topic, cancel
	rd := model.NewMessageReader(p.l.Doc().Storage, nil)
	var (
		mu   sync.Mutex
		full *video.Index
	)
	p.l.Go(func(context.Context) {
		x, err := video.BuildIndex(ctx, tm.Len(), frameReader(rd, tm, nil), func(done, total int) {
			fyne.Do(func() {
				if ctx.Err() == nil && p.cur != nil && p.cur.topic == topic && p.cur.video != nil && p.cur.video.x != nil && !p.cur.video.x.Complete() {
					p.note.SetText(fmt.Sprintf("Indexing video frames: %s of %s…", human.Count(uint64(done)), human.Count(uint64(total))))
				}
			})
		})
		if err == nil {
			mu.Lock()
			full = x
			mu.Unlock()
		}
	}, func() {
		cancel()
		if v.bgTopic == topic {
			v.bgTopic, v.bgCancel = "", nil
		}
		mu.Lock()
		x := full
		mu.Unlock()
		if x == nil {
			return
		}
		v.mu.Lock()
		x.Follows(v.lazy[topic])
		v.indexes[topic] = x
		delete(v.lazy, topic)
		v.mu.Unlock()
		if r := p.cur; r != nil && r.topic == topic && r.video != nil && r.video.x != nil {
			r.video.x = x
			p.showStrip(r)
			p.note.SetText(videoNote(r.video))
			if r.video.noDecoder {
				p.noDecoder.SetText(noDecoderText(r))
			}
		}
	})
}

// showStrip shows the frame strip for a video frame of an indexed topic.
func (p *sensorPanel) showStrip(r *sensorResult) {
	was := p.strip.Visible()
	if r.video == nil || r.video.x == nil {
		p.strip.Set(nil, -1)
		p.strip.Hide()
	} else {
		p.strip.Set(r.video.x, r.video.i)
		p.strip.Show()
	}
	if was != p.strip.Visible() {
		p.bottom.Refresh() // lay out the strip's room
	}
}

// selectFrame selects frame i of the shown video topic (a tap on the
// strip).
func (p *sensorPanel) selectFrame(i int) {
	if p.cur == nil || p.cur.video == nil {
		return
	}
	topic := p.cur.topic
	p.l.WithIndex(func(x *model.MessageIndex) {
		if tm := x.Topic(topic); tm != nil && i >= 0 && i < tm.Len() {
			p.l.SelectMessage(tm.At(i))
		}
	})
}
