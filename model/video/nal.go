// Package video indexes and decodes H.264 and H.265 camera topics
// (foxglove_msgs/CompressedVideo, and sensor_msgs/CompressedImage whose
// format names h264 or h265, as ffmpeg_image_transport writes them): the
// NAL unit types of each frame (keyframe or not), the stream's rate, GOP
// length and resolution, and pictures decoded by the system's ffmpeg
// process when it is installed. No Fyne.
package video

import (
	"strings"
)

// Codec is a video topic's compression.
type Codec int

// The codecs decoded.
const (
	CodecNone Codec = iota
	H264
	H265
)

// CompressedVideoType is Foxglove's video message (ROS 1 spelling; the
// ROS 2 spelling "foxglove_msgs/msg/CompressedVideo" is recognised too).
const CompressedVideoType = "foxglove_msgs/CompressedVideo"

// String names the codec as users know it: "H.264", "H.265".
func (c Codec) String() string {
	switch c {
	case H264:
		return "H.264"
	case H265:
		return "H.265"
	}
	return "none"
}

// FFmpegFormat is the codec's raw-stream demuxer name for ffmpeg's -f.
func (c Codec) FFmpegFormat() string {
	switch c {
	case H264:
		return "h264"
	case H265:
		return "hevc"
	}
	return ""
}

// CodecOfFormat returns the codec a CompressedVideo's or CompressedImage's
// format field names: "h264", "h265", "hevc", also as the first word of
// ffmpeg_image_transport's "h264; …" or "h264 …" forms, any case.
func CodecOfFormat(format string) Codec {
	f := strings.ToLower(strings.TrimSpace(format))
	if i := strings.IndexAny(f, "; "); i >= 0 {
		f = f[:i]
	}
	switch f {
	case "h264", "h.264", "avc", "avc1", "x264", "libx264", "h264_nvenc", "h264_vaapi":
		return H264
	case "h265", "h.265", "hevc", "hev1", "hvc1", "x265", "libx265", "hevc_nvenc", "hevc_vaapi":
		return H265
	}
	return CodecNone
}

// IsVideoType says whether typ (ROS 1 or ROS 2 spelling) is
// foxglove_msgs/CompressedVideo.
func IsVideoType(typ string) bool {
	return typ == CompressedVideoType || typ == "foxglove_msgs/msg/CompressedVideo"
}

// NALUnits calls f with each NAL unit of an Annex-B byte stream (the
// bytes after each 00 00 01 or 00 00 00 01 start code, up to the next
// one, trailing zero bytes removed). Bytes before the first start code
// are not a NAL unit and are skipped.
func NALUnits(data []byte, f func(nal []byte)) {
	start := -1
	for i := 0; i+2 < len(data); {
		if data[i+2] > 1 {
			i += 3
			continue
		}
		if data[i] == 0 && data[i+1] == 0 && data[i+2] == 1 {
			if start >= 0 {
				f(trimZeros(data[start:i]))
			}
			start = i + 3
			i += 3
			continue
		}
		i++
	}
	if start >= 0 && start < len(data) {
		f(trimZeros(data[start:]))
	}
}

// trimZeros removes the trailing zero bytes of a NAL unit (the leading
// zero of a four-byte start code, trailing_zero_8bits).
func trimZeros(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}

// NALType returns a NAL unit's type: H.264's 5 bits of its first byte,
// H.265's 6 bits after the forbidden bit; -1 for an empty unit.
func NALType(c Codec, nal []byte) int {
	if len(nal) == 0 {
		return -1
	}
	if c == H265 {
		return int(nal[0]>>1) & 0x3f
	}
	return int(nal[0]) & 0x1f
}

// IsKeyNAL says whether a NAL unit type starts a picture decodable on its
// own: H.264's IDR slice (5), H.265's IRAP pictures (BLA, IDR, CRA: 16–21).
func IsKeyNAL(c Codec, typ int) bool {
	if c == H265 {
		return typ >= 16 && typ <= 21
	}
	return typ == 5
}

// isParamNAL says whether a NAL unit type is a parameter set: H.264's SPS
// (7) and PPS (8); H.265's VPS, SPS and PPS (32–34).
func isParamNAL(c Codec, typ int) bool {
	if c == H265 {
		return typ >= 32 && typ <= 34
	}
	return typ == 7 || typ == 8
}

// isSliceNAL says whether a NAL unit type carries a picture's slice.
func isSliceNAL(c Codec, typ int) bool {
	if c == H265 {
		return typ <= 21 // VCL types 0..31, the reserved 22..31 unused
	}
	return typ >= 1 && typ <= 5
}

// FrameInfo is what one message's access unit says of itself.
type FrameInfo struct {
	Key    bool // an IDR (H.264) or IRAP (H.265) picture
	Params bool // carries parameter sets (SPS/PPS, and VPS for H.265)
	Slices int  // picture slices; 0: no picture (a damaged or empty frame)
	// Width and Height from an H.264 SPS in the frame; 0 when none (or
	// H.265, whose SPS is not parsed).
	Width, Height int
}

// Inspect parses the NAL unit headers of one frame's Annex-B data.
func Inspect(c Codec, data []byte) FrameInfo {
	var fi FrameInfo
	NALUnits(data, func(nal []byte) {
		t := NALType(c, nal)
		switch {
		case IsKeyNAL(c, t):
			fi.Key = true
			fi.Slices++
		case isSliceNAL(c, t):
			fi.Slices++
		case isParamNAL(c, t):
			fi.Params = true
			if c == H264 && t == 7 && fi.Width == 0 {
				fi.Width, fi.Height, _ = H264Size(nal)
			}
		}
	})
	return fi
}
