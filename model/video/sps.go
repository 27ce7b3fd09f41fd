package video

import "errors"

// bitReader reads an RBSP's bits, most significant first, and the
// Exp-Golomb codes of H.264's syntax; reads past the end set err.
type bitReader struct {
	b   []byte
	pos int // in bits
	err error
}

var errShort = errors.New("SPS ends early")

func (r *bitReader) u(n int) uint32 {
	var v uint32
	for range n {
		if r.pos >= 8*len(r.b) {
			r.err = errShort
			return 0
		}
		v = v<<1 | uint32(r.b[r.pos/8]>>(7-r.pos%8))&1
		r.pos++
	}
	return v
}

// ue is an unsigned Exp-Golomb code (at most 31 leading zeros).
func (r *bitReader) ue() uint32 {
	zeros := 0
	for r.u(1) == 0 {
		if r.err != nil || zeros == 31 {
			r.err = errShort
			return 0
		}
		zeros++
	}
	return (1<<zeros - 1) + r.u(zeros)
}

// se is a signed Exp-Golomb code.
func (r *bitReader) se() int32 {
	k := r.ue()
	if k&1 == 1 {
		return int32((k + 1) / 2)
	}
	return -int32(k / 2)
}

// unescape removes emulation-prevention bytes (00 00 03 → 00 00).
func unescape(nal []byte) []byte {
	out := make([]byte, 0, len(nal))
	zeros := 0
	for _, c := range nal {
		if zeros >= 2 && c == 3 {
			zeros = 0
			continue
		}
		if c == 0 {
			zeros++
		} else {
			zeros = 0
		}
		out = append(out, c)
	}
	return out
}

// H264Size returns the picture size an H.264 sequence parameter set NAL
// unit (type 7, with its header byte) gives, cropping applied (ITU-T
// H.264 7.3.2.1.1).
func H264Size(nal []byte) (width, height int, err error) {
	if len(nal) < 4 {
		return 0, 0, errShort
	}
	r := &bitReader{b: unescape(nal[1:])}
	profile := r.u(8)
	r.u(16) // constraint flags, level_idc
	r.ue()  // seq_parameter_set_id
	chroma := uint32(1)
	separate := uint32(0)
	switch profile {
	case 100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135:
		chroma = r.ue()
		if chroma == 3 {
			separate = r.u(1)
		}
		r.ue()           // bit_depth_luma_minus8
		r.ue()           // bit_depth_chroma_minus8
		r.u(1)           // qpprime_y_zero_transform_bypass_flag
		if r.u(1) == 1 { // seq_scaling_matrix_present_flag
			lists := 8
			if chroma == 3 {
				lists = 12
			}
			for i := range lists {
				if r.u(1) == 0 {
					continue
				}
				size := 16
				if i >= 6 {
					size = 64
				}
				last, next := int32(8), int32(8)
				for range size {
					if next != 0 {
						next = (last + r.se() + 256) % 256
					}
					if next != 0 {
						last = next
					}
					if r.err != nil {
						return 0, 0, r.err
					}
				}
			}
		}
	}
	r.ue()          // log2_max_frame_num_minus4
	switch r.ue() { // pic_order_cnt_type
	case 0:
		r.ue()
	case 1:
		r.u(1)
		r.se()
		r.se()
		n := r.ue()
		if n > 255 {
			return 0, 0, errors.New("SPS: num_ref_frames_in_pic_order_cnt_cycle out of range")
		}
		for range n {
			r.se()
		}
	}
	r.ue() // max_num_ref_frames
	r.u(1) // gaps_in_frame_num_value_allowed_flag
	wMbs := r.ue() + 1
	hMaps := r.ue() + 1
	frameMbsOnly := r.u(1)
	if frameMbsOnly == 0 {
		r.u(1) // mb_adaptive_frame_field_flag
	}
	r.u(1) // direct_8x8_inference_flag
	var cl, cr, ct, cb uint32
	if r.u(1) == 1 {
		cl, cr, ct, cb = r.ue(), r.ue(), r.ue(), r.ue()
	}
	if r.err != nil {
		return 0, 0, r.err
	}
	w := int64(wMbs) * 16
	h := int64(hMaps) * 16 * int64(2-frameMbsOnly)
	cropX, cropY := int64(1), int64(2-frameMbsOnly)
	if separate == 0 && chroma != 0 {
		subW, subH := int64(2), int64(2)
		if chroma == 2 {
			subH = 1
		} else if chroma == 3 {
			subW, subH = 1, 1
		}
		cropX, cropY = subW, subH*int64(2-frameMbsOnly)
	}
	w -= cropX * int64(cl+cr)
	h -= cropY * int64(ct+cb)
	if w <= 0 || h <= 0 || w > 1<<16 || h > 1<<16 {
		return 0, 0, errors.New("SPS: picture size out of range")
	}
	return int(w), int(h), nil
}
