package sensor_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/sensor"
)

// benchCloud returns a decoded PointCloud2 of n points (x, y, z,
// intensity as float32, 16 bytes each).
func benchCloud(b *testing.B, n int) *rosmsg.Node {
	const def = "uint32 height\nuint32 width\nPointField[] fields\nbool is_bigendian\nuint32 point_step\nuint32 row_step\nuint8[] data\nbool is_dense\n" +
		"================================================================================\nMSG: sensor_msgs/PointField\nstring name\nuint32 offset\nuint8 datatype\nuint32 count\n"
	var s ser
	s.u32(1)
	s.u32(uint32(n))
	s.u32(4)
	for i, name := range []string{"x", "y", "z", "intensity"} {
		s.str(name)
		s.u32(uint32(4 * i))
		s.u8(sensor.PointFloat32)
		s.u32(1)
	}
	s.u8(0)
	s.u32(16)
	s.u32(uint32(16 * n))
	s.u32(uint32(16 * n))
	p := make([]byte, 16)
	for i := 0; i < n; i++ {
		a := float64(i) * 0.001
		for k, v := range []float64{10 * math.Cos(a), 10 * math.Sin(a), a, float64(i % 256)} {
			binary.LittleEndian.PutUint32(p[4*k:], math.Float32bits(float32(v)))
		}
		s.Write(p)
	}
	s.u8(1)
	plan, err := rosmsg.Compile(sensor.PointCloud2Type, def)
	if err != nil {
		b.Fatal(err)
	}
	root, err := plan.Decode(s.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	return root
}

// BenchmarkDecodeCloud reads a 2-million-point cloud (32 MB) whole and
// decimated to MaxCloudPoints: the Sensor view's cost per cloud is
// bounded by the decimation, not by the cloud.
func BenchmarkDecodeCloud(b *testing.B) {
	const n = 2_000_000
	root := benchCloud(b, n)
	for _, bb := range []struct {
		name string
		max  int
	}{{"all", n}, {"decimated", 0}} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			var read int
			for b.Loop() {
				c, err := sensor.DecodeCloud(root, "intensity", bb.max)
				if err != nil {
					b.Fatal(err)
				}
				read = len(c.X)
			}
			b.ReportMetric(float64(read), "points/op")
			b.ReportMetric(float64(read)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpoints/s")
		})
	}
}
