package series

import (
	"encoding/binary"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// TestStampFixedReadsWhatThePathsRead compares Stamp.Nanos, which reads a
// ROS 2 header.stamp at its offset when the header's place is fixed, with
// the two compiled paths it stands for (Path.Float64 of sec and nanosec) on
// little- and big-endian messages, every cut of them, negative seconds and
// encapsulation kinds that are not CDR: the same value, or an error where
// the paths fail.
func TestStampFixedReadsWhatThePathsRead(t *testing.T) {
	const deps = "\n================================================================================\nMSG: std_msgs/Header\n" +
		"builtin_interfaces/Time stamp\nstring frame_id\n" +
		"================================================================================\nMSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n"
	tests := []struct {
		name  string
		text  string
		fixed bool
		pre   []byte // bytes before the header, after the encapsulation
	}{
		{"header first", "std_msgs/Header header\nfloat64 x", true, nil},
		{"a byte before the header", "uint8 k\nstd_msgs/Header header\nfloat64 x", true, []byte{7, 0, 0, 0}},
		{"a string before the header", "string s\nstd_msgs/Header header\nfloat64 x", false, []byte{2, 0, 0, 0, 'a', 0, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := rosmsg.CompileSchema(rosmsg.SchemaROS2Msg, rosmsg.EncodingCDR, "test/M", tc.text+deps)
			if err != nil {
				t.Fatal(err)
			}
			st, err := CompileStamp(plan)
			if err != nil {
				t.Fatal(err)
			}
			if st.fixed != tc.fixed {
				t.Fatalf("fixed %v, want %v", st.fixed, tc.fixed)
			}
			for _, sec := range []int32{1600000000, -5, 0, -1 << 31} {
				for _, be := range []bool{false, true} {
					msg := stampMessage(be, tc.pre, sec, 999999999)
					for n := 0; n <= len(msg); n++ {
						checkStamp(t, st, msg[:n])
					}
					for _, kind := range []byte{2, 3, 0xff} {
						bad := append([]byte(nil), msg...)
						bad[1] = kind
						checkStamp(t, st, bad)
					}
					bad := append([]byte(nil), msg...)
					bad[0] = 1
					checkStamp(t, st, bad)
				}
			}
		})
	}
}

// checkStamp compares st.Nanos(data) with its paths read one by one.
func checkStamp(t *testing.T, st Stamp, data []byte) {
	t.Helper()
	got, gerr := st.Nanos(data)
	var want int64
	s, werr := st.secs.Float64(data)
	if werr == nil {
		var n float64
		if n, werr = st.nsecs.Float64(data); werr == nil {
			want = int64(s)*1e9 + int64(n)
		}
	}
	if (gerr != nil) != (werr != nil) || got != want {
		t.Fatalf("% x: Nanos %d, %v; the paths read %d, %v", data, got, gerr, want, werr)
	}
}

// stampMessage writes a CDR message of pre, then a std_msgs/Header (sec,
// nanosec, frame_id "base"), then a float64.
func stampMessage(be bool, pre []byte, sec int32, nsec uint32) []byte {
	var o binary.AppendByteOrder = binary.LittleEndian
	b := []byte{0, 1, 0, 0}
	if be {
		o, b[1] = binary.BigEndian, 0
	}
	b = append(b, pre...)
	b = o.AppendUint32(b, uint32(sec))
	b = o.AppendUint32(b, nsec)
	frame := "base"
	b = o.AppendUint32(b, uint32(len(frame)+1))
	b = append(b, frame...)
	b = append(b, 0)
	for (len(b)-4)%8 != 0 {
		b = append(b, 0)
	}
	return o.AppendUint64(b, 0x3ff0000000000000)
}
