package ros1

import "bytes"

// scanHeader is the allocation-free header walk that the read, the index
// check, the validator and the resync used before scanHeaderPlain served
// them all; kept here as TestScanHeaderPlain's reference. It finds the op,
// conn and time fields of a message data record; ok is false on any
// malformation.
func scanHeader(b []byte) (op Op, conn uint32, t Time, hasConn, hasTime, ok bool) {
	pos := 0
	for pos < len(b) {
		if len(b)-pos < 4 {
			return
		}
		n := int(le32(b[pos:]))
		if n < 0 || n > len(b)-pos-4 {
			return
		}
		f := b[pos+4 : pos+4+n]
		pos += 4 + n
		switch {
		case len(f) == 4 && f[0] == 'o' && f[1] == 'p' && f[2] == '=':
			op = Op(f[3])
		case len(f) == 9 && string(f[:5]) == "conn=":
			conn, hasConn = le32(f[5:]), true
		case len(f) == 13 && string(f[:5]) == "time=":
			t, hasTime = parseTime(f[5:]), true
		case bytes.IndexByte(f, '=') < 0:
			return
		}
	}
	ok = true
	return
}

// scanMessageHeader is the header walk that visitChunk and walkVouchFast
// used before scanHeaderPlain served them; kept here as
// TestScanHeaderPlain's reference: ok only when every field
// has a '=', op is there once, and a message data record has its conn and
// time once each, of their sizes, so that its values are those
// parseMessageData reads.
func scanMessageHeader(b []byte) (op Op, conn uint32, t Time, ok bool) {
	var nop, nconn, ntime int
	for pos := 0; pos < len(b); {
		if len(b)-pos < 4 {
			return
		}
		n := int(le32(b[pos:]))
		if n < 0 || n > len(b)-pos-4 {
			return
		}
		f := b[pos+4 : pos+4+n]
		pos += 4 + n
		eq := bytes.IndexByte(f, '=')
		if eq < 0 {
			return
		}
		switch string(f[:eq]) {
		case "op":
			if nop++; len(f) != 4 {
				return
			}
			op = Op(f[3])
		case "conn":
			if nconn++; len(f) != 9 {
				return
			}
			conn = le32(f[5:])
		case "time":
			if ntime++; len(f) != 13 {
				return
			}
			t = parseTime(f[5:])
		}
	}
	if nop != 1 || op == 0 || op == OpMessageData && (nconn != 1 || ntime != 1) {
		return
	}
	return op, conn, t, true
}
