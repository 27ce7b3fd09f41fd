package video

import (
	"context"
	"slices"
)

// Frame is one message of a video topic, as the index keeps it: no
// pixels, 16 bytes.
type Frame struct {
	T    int64 // the message's time, nanoseconds
	Size int32 // bytes of its data field
	Key  bool  // an IDR/IRAP picture: decoding can start here
	Bad  bool  // unreadable, another codec, or without a picture slice
	Seen bool  // read and inspected (a lazy index has not seen them all)
}

// Index is a video topic's frames in order, with the stream's codec and
// size (from an H.264 SPS; 0 when not known).
//
// An index is built whole (BuildIndex: every message read once, in the
// background), or lazily (NewLazyIndex and Locate: only the frames from
// the keyframe before the one shown), so that the first picture of a
// long topic costs one GOP's reading, not the topic's. A lazy index is
// copied when Locate sees new frames, so one handed to the UI is never
// written.
type Index struct {
	Codec         Codec
	Frames        []Frame
	Width, Height int

	// stream names the topic's frames for the decoder's cache: copies and
	// the whole index that follows a lazy one (Follows) share it.
	stream *byte
	// unseen counts the frames not yet inspected (0 when built whole).
	unseen int
}

// FrameData is one message of a video topic read for the index or the
// decoder: its time, format field and data field.
type FrameData struct {
	T      int64
	Format string
	Data   []byte
}

// ReadFunc reads message i (0-based, in time order) of a video topic.
type ReadFunc func(i int) (FrameData, error)

// BuildIndex reads the n messages of a video topic through read and
// parses each frame's NAL unit headers, calling progress (may be nil) now
// and then. A message that does not read is marked Bad and costs nothing
// else. It keeps 16 bytes a frame.
func BuildIndex(ctx context.Context, n int, read ReadFunc, progress func(done, total int)) (*Index, error) {
	x := &Index{Frames: make([]Frame, n), stream: new(byte)}
	for i := range n {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if progress != nil {
				progress(i, n)
			}
		}
		fd, err := read(i)
		x.inspect(i, fd, err)
	}
	if progress != nil {
		progress(n, n)
	}
	return x, nil
}

// inspect sets frame i from its message as read.
func (x *Index) inspect(i int, fd FrameData, err error) {
	f := &x.Frames[i]
	f.T, f.Seen = fd.T, true
	if err != nil {
		f.Bad = true
		return
	}
	f.Size = int32(min(len(fd.Data), 1<<31-1))
	c := CodecOfFormat(fd.Format)
	if x.Codec == CodecNone {
		x.Codec = c
	}
	if c != x.Codec || c == CodecNone {
		f.Bad = true
		return
	}
	fi := Inspect(c, fd.Data)
	f.Key, f.Bad = fi.Key, fi.Slices == 0
	if x.Width == 0 && fi.Width > 0 {
		x.Width, x.Height = fi.Width, fi.Height
	}
}

// NewLazyIndex returns the index of a topic of n frames of codec c, none
// read yet, frame i at time at(i) (the message index's times: no data
// is read). Locate reads the frames a picture needs.
func NewLazyIndex(c Codec, n int, at func(i int) int64) *Index {
	x := &Index{Codec: c, Frames: make([]Frame, n), stream: new(byte), unseen: n}
	for i := range x.Frames {
		x.Frames[i].T = at(i)
	}
	return x
}

// Complete says whether every frame has been read and inspected.
func (x *Index) Complete() bool { return x.unseen == 0 }

// Seen counts the frames read and inspected.
func (x *Index) Seen() int { return len(x.Frames) - x.unseen }

// Locate makes sure that the frames from the keyframe at or before frame
// i to i are inspected, reading backwards from i through read the frames
// not seen yet until a keyframe, the first frame, or MaxRun frames back.
// It returns x when it read nothing, else a copy with what it read (x
// itself is never written: the UI may be drawing it). Reading costs the
// frames since the keyframe, whatever the topic's length.
func (x *Index) Locate(ctx context.Context, i int, read ReadFunc) (*Index, error) {
	if i < 0 || i >= len(x.Frames) {
		return x, nil
	}
	y := x
	for j := i; j >= 0 && j > i-MaxRun; j-- {
		if !y.Frames[j].Seen {
			if err := ctx.Err(); err != nil {
				return x, err
			}
			if y == x {
				y = x.clone()
			}
			fd, err := read(j)
			fd.T = y.Frames[j].T
			y.inspect(j, fd, err)
			y.unseen--
		}
		if y.Frames[j].Key {
			break
		}
	}
	return y, nil
}

// clone copies x's frames, sharing its stream.
func (x *Index) clone() *Index {
	y := *x
	y.Frames = slices.Clone(x.Frames)
	return &y
}

// Follows makes x, the whole index of the topic a lazy index indexed
// lazily, share its decoded pictures: frame i is the same in both.
func (x *Index) Follows(lazy *Index) {
	if lazy != nil && len(lazy.Frames) == len(x.Frames) {
		x.stream = lazy.stream
	}
}

// KeyAtOrBefore returns the index of the last keyframe at or before
// frame i, or -1.
func (x *Index) KeyAtOrBefore(i int) int {
	for ; i >= 0; i-- {
		if i < len(x.Frames) && x.Frames[i].Key {
			return i
		}
	}
	return -1
}

// NextKey returns the index of the first keyframe after frame i, or
// len(Frames).
func (x *Index) NextKey(i int) int {
	for i++; i < len(x.Frames); i++ {
		if x.Frames[i].Key {
			return i
		}
	}
	return len(x.Frames)
}

// Keys counts the keyframes.
func (x *Index) Keys() int {
	n := 0
	for _, f := range x.Frames {
		if f.Key {
			n++
		}
	}
	return n
}

// GOP is the median distance in frames from one keyframe to the next; 0
// with fewer than two keyframes.
func (x *Index) GOP() int {
	var d []int
	last := -1
	for i, f := range x.Frames {
		if f.Key {
			if last >= 0 {
				d = append(d, i-last)
			}
			last = i
		}
	}
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// Rate is the frames per second from the first frame's time to the
// last's; 0 with fewer than two frames or no time between them.
func (x *Index) Rate() float64 {
	n := len(x.Frames)
	if n < 2 {
		return 0
	}
	dt := x.Frames[n-1].T - x.Frames[0].T
	if dt <= 0 {
		return 0
	}
	return float64(n-1) / (float64(dt) / 1e9)
}
