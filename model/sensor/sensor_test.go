package sensor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/sensor"
)

// sensorRef runs testdata/sensor_ref.py and decodes its JSON lines into
// maps.
func sensorRef(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	reftest.RequireRef(t)
	cmd := exec.Command(reftest.Python, append([]string{"testdata/sensor_ref.py"}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sensor_ref.py %v: %v", args, err)
	}
	rows := oracletest.MustJSONLines(t, "sensor_ref.py", out)
	if len(rows) == 0 {
		t.Fatalf("sensor_ref.py %v printed nothing", args)
	}
	return rows
}

// refFloat reads a number the reference printed ("nan", "inf" and
// "-inf" as strings).
func refFloat(t *testing.T, v any) float64 {
	t.Helper()
	switch v := v.(type) {
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			t.Fatal(err)
		}
		return f
	case string:
		switch v {
		case "nan":
			return math.NaN()
		case "inf":
			return math.Inf(1)
		case "-inf":
			return math.Inf(-1)
		}
	}
	t.Fatalf("not a number: %#v", v)
	return 0
}

func refFloats(t *testing.T, v any) []float64 {
	t.Helper()
	var out []float64
	for _, x := range v.([]any) {
		out = append(out, refFloat(t, x))
	}
	return out
}

// sharedBags is the shared bags from this folder.
const sharedBags = "../../../shared/bags"

// openShared opens a bag under ../../shared/bags, skipping (failing in
// CI) when it is not there.
func openShared(t *testing.T, rel string) (*model.Document, string) {
	t.Helper()
	path := sharedBags + "/" + rel
	if _, err := os.Stat(path); err != nil {
		reftest.SkipOrFail(t, err)
	}
	d, err := model.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, path
}

// decodedMessages decodes every message of topic in d, in order.
func decodedMessages(t *testing.T, d *model.Document, topic string) (types []string, times []int64, roots []*rosmsg.Node) {
	t.Helper()
	it := d.Storage.Messages(bag.MessageFilter{Topics: []string{topic}})
	defer it.Close()
	cache := &rosmsg.Cache{}
	for it.Next() {
		m := it.Message()
		plan, err := model.PlanFor(cache, m.Conn)
		if err != nil {
			t.Fatal(err)
		}
		root, err := plan.Decode(m.Data)
		if err != nil {
			t.Fatalf("%s at %d: %v", topic, m.Time.Nanos(), err)
		}
		types = append(types, m.Conn.Type)
		times = append(times, m.Time.Nanos())
		roots = append(roots, root)
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return types, times, roots
}

// sameFloat compares two float32-derived values exactly, NaN equal to NaN.
func sameFloat(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// TestLaserScanMatchesRosbag decodes every LaserScan of ROS 1 bags and
// checks the points against the ranges the reference rosbag reads: the
// beams drawn are exactly those within [range_min, range_max], at
// angle_min + i·angle_increment.
func TestLaserScanMatchesRosbag(t *testing.T) {
	for _, tt := range []struct{ name, bag, topic string }{
		{"tilt_laser", "facontidavide__PlotJuggler/datasamples/tilt_laser.bag", "/scan"},
		{"embag", "embarktrucks__embag/@7695f345/test/test.bag", "/base_scan"},
		{"tiryoh", "Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample_no_rosout.bag", "/sensor/lidar/scan"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, path := openShared(t, tt.bag)
			ref := sensorRef(t, "scan", path, tt.topic)
			_, times, roots := decodedMessages(t, d, tt.topic)
			if len(roots) != len(ref) {
				t.Fatalf("%d scans, the reference's %d", len(roots), len(ref))
			}
			drawn, skipped := 0, 0
			for k, root := range roots {
				want := ref[k]
				if got := times[k]; got != refInt(t, want["t"]) {
					t.Fatalf("scan %d at %d, the reference's at %v", k, got, want["t"])
				}
				s, err := sensor.DecodeLaserScan(root)
				if err != nil {
					t.Fatal(err)
				}
				for name, got := range map[string]float64{"angle_min": s.AngleMin, "angle_max": s.AngleMax,
					"angle_increment": s.AngleIncrement, "range_min": s.RangeMin, "range_max": s.RangeMax} {
					if w := refFloat(t, want[name]); got != w {
						t.Errorf("scan %d %s = %v, the reference's %v", k, name, got, w)
					}
				}
				ranges := refFloats(t, want["ranges"])
				intens := refFloats(t, want["intensities"])
				if s.Beams != len(ranges) {
					t.Fatalf("scan %d: %d beams, the reference's %d", k, s.Beams, len(ranges))
				}
				j := 0
				for i, r := range ranges {
					if math.IsNaN(r) || math.IsInf(r, 0) || r < s.RangeMin || r > s.RangeMax {
						skipped++
						continue
					}
					if j >= len(s.Points) {
						t.Fatalf("scan %d: beam %d (range %v) not drawn", k, i, r)
					}
					p := s.Points[j]
					j++
					a := s.AngleMin + float64(i)*s.AngleIncrement
					if p.Index != i || p.Range != r || math.Abs(p.X-r*math.Cos(a)) > 1e-9 || math.Abs(p.Y-r*math.Sin(a)) > 1e-9 {
						t.Fatalf("scan %d beam %d: %+v, want range %v at angle %v", k, i, p, r, a)
					}
					if i < len(intens) && !sameFloat(p.Intensity, intens[i]) {
						t.Errorf("scan %d beam %d intensity %v, the reference's %v", k, i, p.Intensity, intens[i])
					}
				}
				if j != len(s.Points) {
					t.Errorf("scan %d: %d points, the reference's ranges give %d", k, len(s.Points), j)
				}
				drawn += len(s.Points)
			}
			t.Logf("%d scans: %d beams drawn, %d skipped, as the reference's ranges say", len(roots), drawn, skipped)
		})
	}
}

func refInt(t *testing.T, v any) int64 {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("not an integer: %#v", v)
	}
	i, err := n.Int64()
	if err != nil {
		t.Fatal(err)
	}
	return i
}

// TestCloudMatchesRosbag reads every point of ROS 1 PointCloud2 messages
// and compares x, y and the colour field with sensor_msgs.point_cloud2's
// read_points; decimated, it keeps every Stride-th of those points.
func TestCloudMatchesRosbag(t *testing.T) {
	for _, tt := range []struct{ name, bag, topic, field string }{
		{"swri-intensity", "swri-robotics__bag-reader-java/src/test/resources/PointCloud2.bag", "/pointcloud2", "intensity"},
		{"swri-ring-uint16", "swri-robotics__bag-reader-java/src/test/resources/PointCloud2.bag", "/pointcloud2", "ring"},
		{"ros_numpy-z", "eric-wieser__ros_numpy/test/test.bag", "/pointcloud", "z"},
		{"ros_numpy-uint8", "eric-wieser__ros_numpy/test/test.bag", "/pointcloud", "g"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, path := openShared(t, tt.bag)
			ref := sensorRef(t, "cloud", path, tt.topic, tt.field)
			_, _, roots := decodedMessages(t, d, tt.topic)
			if len(roots) != len(ref) {
				t.Fatalf("%d clouds, the reference's %d", len(roots), len(ref))
			}
			for k, root := range roots {
				var pts [][3]float64
				for _, p := range ref[k]["points"].([]any) {
					v := refFloats(t, p)
					pts = append(pts, [3]float64{v[0], v[1], v[2]})
				}
				for _, maxPoints := range []int{len(pts), 1000} {
					c, err := sensor.DecodeCloud(root, tt.field, maxPoints)
					if err != nil {
						t.Fatal(err)
					}
					if c.Total != len(pts) || c.PointStep != int(refInt(t, ref[k]["point_step"])) {
						t.Fatalf("%d points of %d bytes, the reference's %d of %v", c.Total, c.PointStep, len(pts), ref[k]["point_step"])
					}
					if c.ColorField != tt.field {
						t.Errorf("coloured by %q, want %q", c.ColorField, tt.field)
					}
					j, nan := 0, 0
					lo, hi := math.Inf(1), math.Inf(-1)
					for i := 0; i < len(pts); i += c.Stride {
						p := pts[i]
						if !sensor.Finite(p[0]) || !sensor.Finite(p[1]) {
							nan++
							continue
						}
						if j >= len(c.X) {
							t.Fatalf("point %d missing", i)
						}
						if float64(c.X[j]) != p[0] || float64(c.Y[j]) != p[1] || !sameFloat(float64(c.C[j]), p[2]) {
							t.Fatalf("stride %d: point %d = (%v, %v, %v), the reference's %v", c.Stride, i, c.X[j], c.Y[j], c.C[j], p)
						}
						if sensor.Finite(p[2]) {
							lo, hi = min(lo, p[2]), max(hi, p[2])
						}
						j++
					}
					if j != len(c.X) || nan != c.NaN {
						t.Errorf("stride %d: %d points and %d NaN, the reference's %d and %d", c.Stride, len(c.X), c.NaN, j, nan)
					}
					if c.Lo != lo || c.Hi != hi {
						t.Errorf("range %v..%v, the reference's %v..%v", c.Lo, c.Hi, lo, hi)
					}
					if maxPoints < len(pts) && (c.Stride < 2 || len(c.X)+c.NaN > maxPoints) {
						t.Errorf("%d points read with stride %d, more than %d", len(c.X)+c.NaN, c.Stride, maxPoints)
					}
				}
			}
		})
	}
}

// TestLogMatchesRosbag reads the log topics of ROS 1 bags and of a ROS 2
// MCAP written from the same messages, and compares every entry with
// what the reference rosbag reads from the ROS 1 bag.
func TestLogMatchesRosbag(t *testing.T) {
	for _, tt := range []struct {
		name, bag, topic string
		refBag, refTopic string // the ROS 1 twin of a ROS 2 recording
	}{
		{name: "plotjuggler-out", bag: "facontidavide__PlotJuggler/datasamples/out.bag", topic: "rosout"},
		{name: "example-3-conns", bag: "cruise-automation__rosbag.js/fixtures/example.bag", topic: "/rosout"},
		{name: "rosout-bz2", bag: "aktaylor08__RosbagPandas/tests/data/rosout.bag", topic: "/rosout"},
		{name: "tiryoh-agg", bag: "Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.bag", topic: "/rosout_agg"},
		{name: "tiryoh-ros2-mcap", bag: "Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.mcap", topic: "/rosout",
			refBag: "Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.bag", refTopic: "/rosout_agg"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, path := openShared(t, tt.bag)
			refPath, refTopic := path, tt.topic
			if tt.refBag != "" {
				refPath, refTopic = sharedBags+"/"+tt.refBag, tt.refTopic
			}
			ref := sensorRef(t, "log", refPath, refTopic)
			topics := model.LogTopics(d)
			if len(topics) == 0 {
				t.Fatal("no log topic found")
			}
			got, skipped, err := sensor.ReadLog(context.Background(), d.Storage, nil, []string{tt.topic})
			if err != nil || skipped != 0 {
				t.Fatalf("ReadLog: %d skipped, %v", skipped, err)
			}
			if len(got) != len(ref) {
				t.Fatalf("%d entries, the reference's %d", len(got), len(ref))
			}
			ros1Sev := map[int64]sensor.Severity{1: sensor.SevDebug, 2: sensor.SevInfo, 4: sensor.SevWarn, 8: sensor.SevError, 16: sensor.SevFatal}
			for k, e := range got {
				w := ref[k]
				if e.Ref.T != refInt(t, w["t"]) || e.Stamp != refInt(t, w["stamp"]) {
					t.Errorf("entry %d at %d stamped %d, the reference's %v %v", k, e.Ref.T, e.Stamp, w["t"], w["stamp"])
				}
				if sev := ros1Sev[refInt(t, w["level"])]; e.Severity != sev {
					t.Errorf("entry %d: %v (level %d), the reference's level %v", k, e.Severity, e.Level, w["level"])
				}
				if e.Node != w["name"] || e.Msg != w["msg"] || e.File != w["file"] || e.Function != w["function"] || int64(e.Line) != refInt(t, w["line"]) {
					t.Errorf("entry %d: %+v, the reference's %v", k, e, w)
				}
				if e.Topic != tt.topic {
					t.Errorf("entry %d on %q", k, e.Topic)
				}
			}
		})
	}
}

// TestLaserScanROS2 decodes the CDR LaserScans of one ROS 2 recording
// written as MCAP and as .db3: both agree, and the points follow the
// ranges. (The reference rosbag reads no ROS 2 recording.)
func TestLaserScanROS2(t *testing.T) {
	var scans [][]sensor.ScanPoint
	for _, rel := range []string{
		"geocamxyz__rosbags-rs/tests/test_bags/test_bag_mcap/test_bag_mcap.mcap",
		"geocamxyz__rosbags-rs/tests/test_bags/test_bag_sqlite3",
	} {
		d, _ := openShared(t, rel)
		types, _, roots := decodedMessages(t, d, "/test/sensor_msgs/laser_scan")
		if len(roots) == 0 || sensor.KindOf(types[0]) != sensor.KindLaser {
			t.Fatalf("%s: %d scans of type %v", rel, len(roots), types)
		}
		for _, root := range roots {
			s, err := sensor.DecodeLaserScan(root)
			if err != nil {
				t.Fatal(err)
			}
			ranges, _ := sensor.Float32s(root.Field("ranges"))
			if len(s.Points) != len(ranges) || s.Skipped() != 0 {
				t.Fatalf("%s: %d points of %d ranges", rel, len(s.Points), len(ranges))
			}
			for i, p := range s.Points {
				a := s.AngleMin + float64(i)*s.AngleIncrement
				if p.Range != float64(ranges[i]) || math.Abs(p.X-p.Range*math.Cos(a)) > 1e-12 {
					t.Errorf("%s point %d: %+v", rel, i, p)
				}
			}
			scans = append(scans, s.Points)
		}
	}
	if len(scans)%2 != 0 {
		t.Fatalf("%d scans", len(scans))
	}
	half := len(scans) / 2
	for i := range half {
		a, b := scans[i], scans[half+i]
		if len(a) != len(b) {
			t.Fatalf("scan %d: MCAP has %d points, .db3 %d", i, len(a), len(b))
		}
		for j := range a {
			if a[j] != b[j] && !(math.IsNaN(a[j].Intensity) && math.IsNaN(b[j].Intensity)) {
				t.Errorf("scan %d point %d: MCAP %+v, .db3 %+v", i, j, a[j], b[j])
			}
		}
	}
}

// TestLaserScanSkips checks which beams are drawn, on hand-made scans.
func TestLaserScanSkips(t *testing.T) {
	const def = "float32 angle_min\nfloat32 angle_max\nfloat32 angle_increment\nfloat32 time_increment\nfloat32 scan_time\nfloat32 range_min\nfloat32 range_max\nfloat32[] ranges\nfloat32[] intensities\n"
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, tt := range []struct {
		name                   string
		ranges, intens         []float32
		want                   []int // beam indexes drawn
		nan, inf, below, above int
	}{
		{"all valid", []float32{1, 2, 3}, []float32{10, 20, 30}, []int{0, 1, 2}, 0, 0, 0, 0},
		{"nan and inf", []float32{nan, 1, inf, -inf, 2}, nil, []int{1, 4}, 1, 2, 0, 0},
		{"limits inclusive", []float32{0.5, 0.49, 10, 10.01}, nil, []int{0, 2}, 0, 0, 1, 1},
		{"empty", nil, nil, nil, 0, 0, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var s ser
			for _, v := range []float32{-1, 1, 0.5, 0, 0.1, 0.5, 10} {
				binary32(&s, v)
			}
			s.u32(uint32(len(tt.ranges)))
			for _, v := range tt.ranges {
				binary32(&s, v)
			}
			s.u32(uint32(len(tt.intens)))
			for _, v := range tt.intens {
				binary32(&s, v)
			}
			sc, err := sensor.DecodeLaserScan(decodeTest(t, sensor.LaserScanType, def, s.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, p := range sc.Points {
				got = append(got, p.Index)
				a := -1 + 0.5*float64(p.Index)
				if math.Abs(p.Angle-a) > 1e-12 {
					t.Errorf("beam %d at angle %v, want %v", p.Index, p.Angle, a)
				}
				if tt.intens == nil && !math.IsNaN(p.Intensity) {
					t.Errorf("beam %d has intensity %v without intensities", p.Index, p.Intensity)
				}
				if tt.intens != nil && p.Intensity != float64(tt.intens[p.Index]) {
					t.Errorf("beam %d intensity %v", p.Index, p.Intensity)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("drawn %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("drawn %v, want %v", got, tt.want)
				}
			}
			if sc.NaN != tt.nan || sc.Inf != tt.inf || sc.Below != tt.below || sc.Above != tt.above {
				t.Errorf("skipped nan %d inf %d below %d above %d, want %d %d %d %d", sc.NaN, sc.Inf, sc.Below, sc.Above, tt.nan, tt.inf, tt.below, tt.above)
			}
		})
	}
}

func binary32(s *ser, v float32) { s.u32(math.Float32bits(v)) }

// TestCloudLayouts decodes hand-made clouds: big-endian, padded rows,
// integer and float64 fields, and the errors of broken layouts.
func TestCloudLayouts(t *testing.T) {
	const def = "uint32 height\nuint32 width\nPointField[] fields\nbool is_bigendian\nuint32 point_step\nuint32 row_step\nuint8[] data\nbool is_dense\n" +
		"================================================================================\nMSG: sensor_msgs/PointField\nstring name\nuint32 offset\nuint8 datatype\nuint32 count\n"
	type field struct {
		name   string
		offset uint32
		dtype  uint8
	}
	build := func(h, w uint32, fields []field, big bool, step, rowStep uint32, data []byte) *rosmsg.Node {
		var s ser
		s.u32(h)
		s.u32(w)
		s.u32(uint32(len(fields)))
		for _, f := range fields {
			s.str(f.name)
			s.u32(f.offset)
			s.u8(f.dtype)
			s.u32(1)
		}
		b := uint8(0)
		if big {
			b = 1
		}
		s.u8(b)
		s.u32(step)
		s.u32(rowStep)
		s.u32(uint32(len(data)))
		s.Write(data)
		s.u8(1)
		return decodeTest(t, sensor.PointCloud2Type, def, s.Bytes())
	}
	xyzF32 := []field{{"x", 0, sensor.PointFloat32}, {"y", 4, sensor.PointFloat32}, {"z", 8, sensor.PointFloat32}}
	pts := func(order func([]byte, uint32), step int, vals ...float32) []byte {
		out := make([]byte, 0)
		for i := 0; i+3 <= len(vals); i += 3 {
			p := make([]byte, step)
			for k := 0; k < 3; k++ {
				order(p[4*k:], math.Float32bits(vals[i+k]))
			}
			out = append(out, p...)
		}
		return out
	}
	le := func(b []byte, v uint32) { b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24) }
	be := func(b []byte, v uint32) { b[3], b[2], b[1], b[0] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24) }
	nan := float32(math.NaN())
	padded := append(append(pts(le, 12, 1, 2, 3), 0xee, 0xee, 0xee, 0xee), append(pts(le, 12, 4, 5, 6), 0xee, 0xee, 0xee, 0xee)...)
	ints := []byte{1, 0xff, 0x00, 0x02, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f} // int8 1, uint8 255, int16 512 (LE), float64 1.5 at 4
	for _, tt := range []struct {
		name    string
		node    *rosmsg.Node
		field   string
		x, y, c []float32
		rgb     []uint32
		nan     int
		wantErr string
	}{
		{name: "little-endian", node: build(1, 2, xyzF32, false, 12, 24, pts(le, 12, 1, 2, 3, 4, 5, 6)), x: []float32{1, 4}, y: []float32{2, 5}, c: []float32{3, 6}},
		{name: "big-endian", node: build(1, 2, xyzF32, true, 12, 24, pts(be, 12, 1, 2, 3, 4, 5, 6)), x: []float32{1, 4}, y: []float32{2, 5}, c: []float32{3, 6}},
		{name: "padded rows", node: build(2, 1, xyzF32, false, 12, 16, padded), x: []float32{1, 4}, y: []float32{2, 5}, c: []float32{3, 6}},
		{name: "nan skipped", node: build(1, 3, xyzF32, false, 12, 36, pts(le, 12, 1, 2, 3, nan, 5, 6, 7, 8, nan)), x: []float32{1, 7}, y: []float32{2, 8}, c: []float32{3, nan}, nan: 1},
		{name: "integer fields", node: build(1, 1, []field{{"x", 0, sensor.PointInt8}, {"y", 1, sensor.PointUint8}, {"i", 2, sensor.PointInt16}}, false, 12, 12, ints), field: "i", x: []float32{1}, y: []float32{255}, c: []float32{512}},
		{name: "float64 field", node: build(1, 1, []field{{"x", 0, sensor.PointInt8}, {"y", 1, sensor.PointUint8}, {"d", 4, sensor.PointFloat64}}, false, 12, 12, ints), field: "d", x: []float32{1}, y: []float32{255}, c: []float32{1.5}},
		{name: "packed rgb", node: build(1, 1, []field{{"x", 0, sensor.PointFloat32}, {"y", 4, sensor.PointFloat32}, {"rgb", 8, sensor.PointFloat32}}, false, 12, 12,
			append(pts(le, 12, 1, 2, 0)[:8], 0x30, 0x20, 0x10, 0x00)), field: "rgb", x: []float32{1}, y: []float32{2},
			c: []float32{math.Float32frombits(0x00102030)}, rgb: []uint32{0x00102030}},
		{name: "packed rgba uint32 big-endian", node: build(1, 1, []field{{"x", 0, sensor.PointFloat32}, {"y", 4, sensor.PointFloat32}, {"rgba", 8, sensor.PointUint32}}, true, 12, 12,
			append(pts(be, 12, 1, 2, 0)[:8], 0xff, 0x10, 0x20, 0x30)), field: "rgba", x: []float32{1}, y: []float32{2},
			c: []float32{float32(0xff102030)}, rgb: []uint32{0xff102030}},
		{name: "no colour field", node: build(1, 1, []field{{"x", 0, sensor.PointFloat32}, {"y", 4, sensor.PointFloat32}}, false, 8, 8, pts(le, 12, 1, 2, 3)[:8]), x: []float32{1}, y: []float32{2}},
		{name: "no y", node: build(1, 1, []field{{"x", 0, sensor.PointFloat32}}, false, 4, 4, make([]byte, 4)), wantErr: "no x and y"},
		{name: "unknown field", node: build(1, 1, xyzF32, false, 12, 12, make([]byte, 12)), field: "rgb", wantErr: "no field rgb"},
		{name: "field past point_step", node: build(1, 1, xyzF32, false, 8, 8, make([]byte, 8)), wantErr: "does not fit in point_step"},
		{name: "short data", node: build(1, 2, xyzF32, false, 12, 24, make([]byte, 20)), wantErr: "data has 20 bytes"},
		{name: "short row_step", node: build(1, 2, xyzF32, false, 12, 12, make([]byte, 24)), wantErr: "row_step 12 is less"},
		{name: "unknown datatype", node: build(1, 1, []field{{"x", 0, 9}, {"y", 4, sensor.PointFloat32}}, false, 12, 12, make([]byte, 12)), wantErr: "unknown datatype 9"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := sensor.DecodeCloud(tt.node, tt.field, 0)
			if tt.wantErr != "" {
				if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tt.wantErr)) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			eq := func(a, b []float32) bool {
				if len(a) != len(b) {
					return false
				}
				for i := range a {
					if !sameFloat(float64(a[i]), float64(b[i])) {
						return false
					}
				}
				return true
			}
			if !slices.Equal(c.RGB, tt.rgb) {
				t.Errorf("packed colours %x, want %x", c.RGB, tt.rgb)
			}
			if !eq(c.X, tt.x) || !eq(c.Y, tt.y) || !eq(c.C, tt.c) || c.NaN != tt.nan {
				t.Errorf("x %v y %v c %v nan %d, want %v %v %v %d", c.X, c.Y, c.C, c.NaN, tt.x, tt.y, tt.c, tt.nan)
			}
		})
	}
}

// TestLogLevelsAndFilter maps ROS 1 and ROS 2 levels and filters entries.
func TestLogLevelsAndFilter(t *testing.T) {
	for _, tt := range []struct {
		level int64
		ros2  bool
		want  sensor.Severity
	}{
		{1, false, sensor.SevDebug}, {2, false, sensor.SevInfo}, {4, false, sensor.SevWarn}, {8, false, sensor.SevError}, {16, false, sensor.SevFatal}, {3, false, sensor.SevUnknown},
		{10, true, sensor.SevDebug}, {20, true, sensor.SevInfo}, {30, true, sensor.SevWarn}, {40, true, sensor.SevError}, {50, true, sensor.SevFatal}, {2, true, sensor.SevUnknown},
	} {
		if got := sensor.SeverityOf(tt.level, tt.ros2); got != tt.want {
			t.Errorf("level %d (ros2 %v) is %v, want %v", tt.level, tt.ros2, got, tt.want)
		}
	}
	entries := []sensor.LogEntry{
		{Ref: msgref.Ref{T: 10}, Severity: sensor.SevDebug, Node: "/a", Msg: "starting"},
		{Ref: msgref.Ref{T: 20}, Severity: sensor.SevInfo, Node: "/b", Msg: "Scan rate: 10Hz"},
		{Ref: msgref.Ref{T: 30}, Severity: sensor.SevWarn, Node: "/a", Msg: "low battery", File: "power.cpp"},
		{Ref: msgref.Ref{T: 40}, Severity: sensor.SevError, Node: "/b", Msg: "lost scan"},
	}
	for _, tt := range []struct {
		name string
		f    sensor.LogFilter
		want []int
	}{
		{"none", sensor.LogFilter{}, []int{0, 1, 2, 3}},
		{"warn and above", sensor.LogFilter{MinLevel: sensor.SevWarn}, []int{2, 3}},
		{"node", sensor.LogFilter{Node: "/a"}, []int{0, 2}},
		{"text any case", sensor.LogFilter{Text: "SCAN"}, []int{1, 3}},
		{"text in file", sensor.LogFilter{Text: "power"}, []int{2}},
		{"all three", sensor.LogFilter{MinLevel: sensor.SevInfo, Node: "/b", Text: "lost"}, []int{3}},
		{"nothing", sensor.LogFilter{Text: "zzz"}, []int{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := sensor.FilterLog(entries, tt.f)
			if len(got) != len(tt.want) {
				t.Fatalf("%v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("%v, want %v", got, tt.want)
				}
			}
		})
	}
	rows := []int{0, 2, 3}
	for _, tt := range []struct {
		t    int64
		want int
	}{{5, -1}, {10, 0}, {29, 0}, {30, 1}, {35, 1}, {40, 2}, {1000, 2}} {
		if got := sensor.LogRowAt(entries, rows, tt.t); got != tt.want {
			t.Errorf("LogRowAt(%d) = %d, want %d", tt.t, got, tt.want)
		}
	}
}

// TestScalarImages decodes 16-bit and float images: values, their range,
// grey and colour-mapped drawing, and the pixel read-out.
func TestScalarImages(t *testing.T) {
	le16 := func(v ...uint16) []byte {
		var b []byte
		for _, x := range v {
			b = append(b, byte(x), byte(x>>8))
		}
		return b
	}
	f32 := func(v ...float32) []byte {
		var b []byte
		for _, x := range v {
			u := math.Float32bits(x)
			b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
		}
		return b
	}
	nan := float32(math.NaN())
	for _, tt := range []struct {
		name   string
		enc    string
		big    uint8
		data   []byte
		values []float32
		lo, hi float64
		pixel  string // the read-out of pixel (1, 0)
	}{
		{"16UC1, 0 no reading", "16UC1", 0, le16(100, 300, 200, 0), []float32{100, 300, 200, 0}, 100, 300, "300"},
		{"mono16 big-endian", "mono16", 1, []byte{0x01, 0x00, 0x00, 0x02, 0, 3, 0, 4}, []float32{256, 2, 3, 4}, 2, 256, "2"},
		{"16SC1", "16SC1", 0, le16(0xffff, 5, 0x8000, 0), []float32{-1, 5, -32768, 0}, -32768, 5, "5"},
		{"32FC1 with NaN", "32FC1", 0, f32(0.5, nan, 2.25, -1), []float32{0.5, nan, 2.25, -1}, -1, 2.25, "NaN"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bpp := len(tt.data) / 4
			root := rawMessage(t, 2, 2, tt.enc, tt.big, uint32(2*bpp), tt.data)
			f, err := sensor.DecodeImage("sensor_msgs/msg/Image", root)
			if err != nil {
				t.Fatal(err)
			}
			if !f.Scalar() || len(f.Values) != 4 {
				t.Fatalf("values %v", f.Values)
			}
			for i, v := range f.Values {
				if !sameFloat(float64(v), float64(tt.values[i])) {
					t.Errorf("value %d = %v, want %v", i, v, tt.values[i])
				}
			}
			if f.Lo != tt.lo || f.Hi != tt.hi {
				t.Errorf("range %v..%v, want %v..%v", f.Lo, f.Hi, tt.lo, tt.hi)
			}
			if got, ok := f.Pixel(1, 0); !ok || got != tt.pixel {
				t.Errorf("pixel (1,0) reads %q, want %q", got, tt.pixel)
			}
			if f.ZeroInvalid != (tt.enc == "16UC1") {
				t.Errorf("%s: ZeroInvalid %v", tt.enc, f.ZeroInvalid)
			}
			if got, _ := f.Pixel(1, 1); tt.enc == "16UC1" && got != "0 (no reading)" {
				t.Errorf("a 16UC1 zero reads %q", got)
			}
			if _, ok := f.Pixel(2, 0); ok {
				t.Error("a pixel outside the image reads")
			}
			// Grey over the automatic range: the minimum black, the maximum white.
			g := f.Picture()
			for i, v := range f.Values {
				c := g.At(i%2, i/2).(interface{ RGBA() (r, g, b, a uint32) })
				r, _, _, _ := c.RGBA()
				switch {
				case float64(v) == tt.lo && r != 0, float64(v) == tt.hi && r != 0xffff:
					t.Errorf("value %v drawn as grey %d", v, r>>8)
				}
			}
			// Turbo over a range the user set: values past it clamp to
			// its ends; NaN is transparent.
			img := f.Render(tt.lo, tt.hi, sensor.TurboMap)
			for i, v := range f.Values {
				_, _, _, a := img.At(i%2, i/2).RGBA()
				none := math.IsNaN(float64(v)) || (f.ZeroInvalid && v == 0)
				if none != (a == 0) {
					t.Errorf("value %v has alpha %d", v, a)
				}
			}
		})
	}
	if _, err := sensor.DecodeImage("sensor_msgs/Image", rawMessage(t, 1, 1, "yuv422", 0, 2, []byte{1, 2})); err == nil {
		t.Error("yuv422 decoded")
	}
}

// TestSensorKinds maps ROS 1 and ROS 2 type names to views.
func TestSensorKinds(t *testing.T) {
	for _, tt := range []struct {
		typ  string
		want sensor.Kind
		log  bool
	}{
		{"sensor_msgs/Image", sensor.KindImage, false},
		{"sensor_msgs/msg/Image", sensor.KindImage, false},
		{"sensor_msgs/msg/CompressedImage", sensor.KindImage, false},
		{"sensor_msgs/LaserScan", sensor.KindLaser, false},
		{"sensor_msgs/msg/LaserScan", sensor.KindLaser, false},
		{"sensor_msgs/msg/PointCloud2", sensor.KindCloud, false},
		{"sensor_msgs/PointCloud", sensor.KindNone, false},
		{"rosgraph_msgs/Log", sensor.KindNone, true},
		{"rcl_interfaces/msg/Log", sensor.KindNone, true},
		{"my_msgs/msg/sub/Log", sensor.KindNone, false},
	} {
		if got := sensor.KindOf(tt.typ); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.typ, got, tt.want)
		}
		if got := sensor.IsLogType(tt.typ); got != tt.log {
			t.Errorf("IsLogType(%s) = %v", tt.typ, got)
		}
	}
}

// TestDepthImagesMatchRosbag compares the values of testdata/depth.bag's
// 16UC1, 32FC1 and big-endian mono16 frames with those the reference
// rosbag's messages hold.
func TestDepthImagesMatchRosbag(t *testing.T) {
	const path = "../../testdata/depth.bag"
	d, err := model.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, topic := range []string{"/depth/image_raw", "/depth/image_float", "/depth/image_be"} {
		t.Run(topic, func(t *testing.T) {
			ref := sensorRef(t, "image", path, topic)
			types, _, roots := decodedMessages(t, d, topic)
			if len(roots) != len(ref) {
				t.Fatalf("%d frames, the reference's %d", len(roots), len(ref))
			}
			n := 0
			for k, root := range roots {
				f, err := sensor.DecodeImage(types[k], root)
				if err != nil {
					t.Fatal(err)
				}
				if f.Info.Encoding != ref[k]["encoding"] || f.W != int(refInt(t, ref[k]["width"])) || f.H != int(refInt(t, ref[k]["height"])) {
					t.Fatalf("frame %d: %+v, the reference's %v", k, f.Info, ref[k])
				}
				for _, p := range ref[k]["pixels"].([]any) {
					v := refFloats(t, p)
					x, y := int(v[0]), int(v[1])
					if got := float64(f.Values[y*f.W+x]); !sameFloat(got, v[2]) {
						t.Errorf("frame %d pixel %d,%d = %v, the reference's %v", k, x, y, got, v[2])
					}
					n++
				}
			}
			t.Logf("%d pixels compared", n)
		})
	}
}

// TestSensorROS2Twins decodes the same ROS 2 recording stored as MCAP and
// as .db3: images and point clouds read the same from both, with the ROS
// 2 type names. (Its images hold 30 bytes for 640×480: both say so.)
func TestSensorROS2Twins(t *testing.T) {
	const rr = "geocamxyz__rosbags-rs/tests/test_bags/"
	for _, topic := range []string{"/test/sensor_msgs/image", "/test/sensor_msgs/compressed_image", "/test/sensor_msgs/point_cloud2", "/test/sensor_msgs/laser_scan"} {
		t.Run(topic, func(t *testing.T) {
			var got [2][]string
			for k, rel := range []string{rr + "test_bag_mcap/test_bag_mcap.mcap", rr + "test_bag_sqlite3"} {
				d, _ := openShared(t, rel)
				types, _, roots := decodedMessages(t, d, topic)
				if len(roots) == 0 {
					t.Fatalf("%s: no message on %s", rel, topic)
				}
				for i, root := range roots {
					var line string
					switch sensor.KindOf(types[i]) {
					case sensor.KindImage:
						f, err := sensor.DecodeImage(types[i], root)
						line = fmt.Sprintf("%+v %v", f.Info, err)
						if err == nil {
							line += fmt.Sprint(f.Picture().Bounds())
						}
					case sensor.KindCloud:
						c, err := sensor.DecodeCloud(root, "", 0)
						if err != nil {
							t.Fatal(err)
						}
						line = fmt.Sprintf("%d %v %v %v %v", c.Total, c.Fields, c.X, c.Y, c.C)
					case sensor.KindLaser:
						s, err := sensor.DecodeLaserScan(root)
						if err != nil {
							t.Fatal(err)
						}
						line = fmt.Sprintf("%+v", *s)
					default:
						t.Fatalf("%s is %s", topic, types[i])
					}
					got[k] = append(got[k], line)
				}
			}
			if !slices.Equal(got[0], got[1]) {
				t.Errorf("MCAP and .db3 differ:\n%v\n%v", got[0], got[1])
			}
			t.Logf("%d messages agree, e.g. %.150s", len(got[0]), got[0][0])
		})
	}
}

// TestLogROS2 reads rcl_interfaces/msg/Log from ROS 2 recordings: an MCAP,
// a .db3 whose messages are zstd-compressed one by one, and a .db3 whose
// stored definition of Log is a stub ("uint8 level"), whose messages are
// counted as not read, with why.
func TestLogROS2(t *testing.T) {
	for _, tt := range []struct {
		name, rel string
		n         int
		skipped   int
		wantErr   string
	}{
		{"talker mcap", "ros2__rosbag2/rosbag2_py/test/resources/mcap/talker/talker.mcap", 10, 0, ""},
		{"zstd messages db3", "ros2__rosbag2/@a1dae364/rosbag2_tests/resources/reindex_test_bags/message_compression/message_compression_0.db3", 260, 0, ""},
		{"stub definition db3", "ros2__rosbag2/rosbag2_py/test/resources/sqlite3/talker/talker.db3", 0, 10, "no field name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := openShared(t, tt.rel)
			entries, skipped, err := sensor.ReadLog(context.Background(), d.Storage, nil, model.LogTopics(d))
			if len(entries) != tt.n || skipped != tt.skipped {
				t.Fatalf("%d entries, %d skipped (%v); want %d, %d", len(entries), skipped, err, tt.n, tt.skipped)
			}
			if (err == nil) != (tt.wantErr == "") || (err != nil && !bytes.Contains([]byte(err.Error()), []byte(tt.wantErr))) {
				t.Errorf("error %v, want %q", err, tt.wantErr)
			}
			for i, e := range entries {
				if e.Severity == sensor.SevUnknown || e.Level%10 != 0 || e.Node == "" || e.Stamp == 0 {
					t.Errorf("entry %d: %+v", i, e)
				}
				if i > 0 && e.Ref.T < entries[i-1].Ref.T {
					t.Errorf("entry %d received before entry %d", i, i-1)
				}
			}
		})
	}
}
