package rosmsg

import "testing"

func benchSample(b *testing.B, typ string) (*Plan, []byte) {
	p, data := goldenSample(b, typ, "rich")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	return p, data
}

func reportRate(b *testing.B) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

func BenchmarkDecodeImu(b *testing.B) {
	p, data := benchSample(b, "sensor_msgs/Imu")
	for b.Loop() {
		if _, err := p.Decode(data); err != nil {
			b.Fatal(err)
		}
	}
	reportRate(b)
}

func BenchmarkDecodeJSONImu(b *testing.B) {
	p, data := benchSample(b, "sensor_msgs/Imu")
	var buf []byte
	for b.Loop() {
		root, err := p.Decode(data)
		if err != nil {
			b.Fatal(err)
		}
		buf = AppendJSON(buf[:0], root)
	}
	reportRate(b)
}

func BenchmarkExtractImu(b *testing.B) {
	p, data := benchSample(b, "sensor_msgs/Imu")
	path, err := CompilePath(p, "linear_acceleration.x")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := path.Float64(data); err != nil {
			b.Fatal(err)
		}
	}
	reportRate(b)
}

// BenchmarkExtractTF extracts behind variable-length fields (frame ids),
// which are skipped by reading their lengths.
func BenchmarkExtractTF(b *testing.B) {
	p, data := benchSample(b, "tf2_msgs/TFMessage")
	path, err := CompilePath(p, "transforms[2].transform.translation.x")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := path.Float64(data); err != nil {
			b.Fatal(err)
		}
	}
	reportRate(b)
}
