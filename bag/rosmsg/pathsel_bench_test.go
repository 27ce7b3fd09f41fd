package rosmsg

import "testing"

type nopSink struct{ n int }

func (s *nopSink) Value(name []byte, v float64) { s.n++ }

// BenchmarkSelectionWalk measures one message's walk: a JointState (3
// joints) and a TFMessage (3 frames) from the golden samples.
func BenchmarkSelectionWalk(b *testing.B) {
	for _, tc := range []struct{ typ, path string }{
		{"sensor_msgs/JointState", "position[1]"},
		{"sensor_msgs/JointState", "position[frame]"},
		{"sensor_msgs/JointState", "position[*]"},
		{"tf2_msgs/TFMessage", "transforms[2].transform.translation.x"},
		{"tf2_msgs/TFMessage", "transforms[frame].transform.translation.x"},
		{"tf2_msgs/TFMessage", "transforms[*].transform.translation.x"},
	} {
		b.Run(tc.path, func(b *testing.B) {
			p, data := goldenSample(b, tc.typ, "long")
			s, err := CompileSelection(p, tc.path)
			if err != nil {
				b.Fatal(err)
			}
			var sink nopSink
			buf := make([]byte, 0, 256)
			b.ReportAllocs()
			for b.Loop() {
				if buf, err = s.Walk(data, buf, &sink); err != nil {
					b.Fatal(err)
				}
			}
			if sink.n == 0 {
				b.Fatal("no values")
			}
			b.ReportMetric(float64(sink.n)/float64(b.N), "values/op")
		})
	}
}
