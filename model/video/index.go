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
}

// Index is a video topic's frames in order, with the stream's codec and
// size (from an H.264 SPS; 0 when not known).
type Index struct {
	Codec         Codec
	Frames        []Frame
	Width, Height int
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
	x := &Index{Frames: make([]Frame, n)}
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
		f := &x.Frames[i]
		f.T = fd.T
		if err != nil {
			f.Bad = true
			continue
		}
		f.Size = int32(min(len(fd.Data), 1<<31-1))
		c := CodecOfFormat(fd.Format)
		if x.Codec == CodecNone {
			x.Codec = c
		}
		if c != x.Codec || c == CodecNone {
			f.Bad = true
			continue
		}
		fi := Inspect(c, fd.Data)
		f.Key, f.Bad = fi.Key, fi.Slices == 0
		if x.Width == 0 && fi.Width > 0 {
			x.Width, x.Height = fi.Width, fi.Height
		}
	}
	if progress != nil {
		progress(n, n)
	}
	return x, nil
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
