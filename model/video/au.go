package video

// SplitAccessUnits splits an Annex-B elementary stream into access units
// (one picture each, with the parameter sets and SEI before it), each
// keeping its start codes: what a camera driver publishes as one message.
// A unit starts at a parameter set, SEI or delimiter NAL that follows a
// picture's slice, or at a slice that is the first of its picture
// (first_mb_in_slice 0 in H.264, first_slice_segment_in_pic_flag in
// H.265).
func SplitAccessUnits(c Codec, stream []byte) [][]byte {
	var (
		out      [][]byte
		start    = -1 // start of the current unit
		hasSlice bool
	)
	hdr := 1
	if c == H265 {
		hdr = 2
	}
	forEachNAL(stream, func(at int, nal []byte) {
		t := NALType(c, nal)
		slice := isSliceNAL(c, t) && t >= 0
		firstSlice := slice && len(nal) > hdr && nal[hdr]&0x80 != 0
		prefix := !slice && (c == H264 && t >= 6 && t <= 9 || c == H265 && (t >= 32 && t <= 35 || t == 39))
		if start >= 0 && hasSlice && (prefix || firstSlice) {
			out = append(out, stream[start:at])
			start, hasSlice = at, false
		}
		if start < 0 {
			start = at
		}
		if slice {
			hasSlice = true
		}
	})
	if start >= 0 {
		out = append(out, stream[start:])
	}
	return out
}

// forEachNAL calls f with each NAL unit of stream and the offset of its
// start code (of the zero before a three-byte one, for four-byte codes).
func forEachNAL(stream []byte, f func(at int, nal []byte)) {
	base := 0
	NALUnits(stream, func(nal []byte) {
		// nal is a subslice of stream: its offset is found by capacity.
		off := cap(stream) - cap(nal)
		at := off - 3
		if at > 0 && stream[at-1] == 0 {
			at--
		}
		if at < base {
			at = base
		}
		base = off + len(nal)
		f(at, nal)
	})
}
