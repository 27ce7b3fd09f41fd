package rosmsg

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"
)

// TestValidateAgreesWithDecode checks Validate against Decode on every real
// CDR message in testdata, cut at every length and with bytes flipped: it
// must accept exactly what Decode accepts without error, and give Decode's
// error otherwise.
func TestValidateAgreesWithDecode(t *testing.T) {
	type rec struct{ Type, Encoding, Text, Data string }
	cases := 0
	for _, file := range []string{"testdata/rosbags_rs_cdr.jsonl", "testdata/mcap_cdr_messages.jsonl"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		texts := map[string]string{}
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var r rec
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatal(err)
			}
			if r.Text != "" {
				texts[r.Type] = r.Text
			}
			p := mustSchema(t, r.Encoding, r.Type, texts[r.Type])
			data, _ := base64.StdEncoding.DecodeString(r.Data)
			// The skip program itself must accept every whole message
			// Decode accepts, or Validate would pay for Decode on each.
			if _, err := p.Decode(data); err == nil && !p.needsDecode() {
				if end, ok := p.skip(data); !ok || len(data)-end > maxCDRPadding || end > len(data) {
					t.Fatalf("%s: the skip program ends at %d (ok %v) of %d bytes", r.Type, end, ok, len(data))
				}
			}
			variants := [][]byte{data}
			for n := 0; n < len(data); n++ {
				variants = append(variants, data[:n])
			}
			for i := 4; i < len(data); i += 7 {
				v := bytes.Clone(data)
				v[i] ^= 0xa5
				variants = append(variants, v)
			}
			variants = append(variants, append(bytes.Clone(data), 0, 0, 0, 0, 0))
			for _, v := range variants {
				cases++
				_, derr := p.Decode(v)
				verr := p.Validate(v)
				if (derr == nil) != (verr == nil) || derr != nil && derr.Error() != verr.Error() {
					t.Fatalf("%s, %d bytes: Validate says %v, Decode says %v", r.Type, len(v), verr, derr)
				}
			}
		}
	}
	t.Logf("%d messages and damaged variants agree", cases)
}

// TestValidateAllocations: a good message is validated without allocating.
func TestValidateAllocations(t *testing.T) {
	p := mustSchema(t, SchemaROS2Msg, "sensor_msgs/msg/LaserScan", laserScanDef)
	data := laserScan(false, "laser", 360)
	if err := p.Validate(data); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = p.Validate(data) }); n != 0 {
		t.Errorf("%v allocations per Validate", n)
	}
}

// TestValidateROS1 checks Validate against Decode on a ROS 1 message with a
// header, strings and arrays, cut at every length and with trailing bytes.
func TestValidateROS1(t *testing.T) {
	const def = "Header header\nstring name\nfloat64[] values\nuint8[3] rgb\n" +
		"================================================================================\n" +
		"MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n"
	p, err := Compile("test_msgs/Thing", def)
	if err != nil {
		t.Fatal(err)
	}
	le := func(b []byte, v uint32) []byte { return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24)) }
	var data []byte
	data = le(data, 7)
	data = le(le(data, 1700000000), 5)
	data = append(le(data, 4), "base"...)
	data = append(le(data, 3), "arm"...)
	data = le(data, 2)
	data = append(data, make([]byte, 16)...)
	data = append(data, 1, 2, 3)
	if err := p.Validate(data); err != nil {
		t.Fatalf("good message: %v", err)
	}
	variants := [][]byte{append(bytes.Clone(data), 9)}
	for n := range len(data) {
		variants = append(variants, data[:n])
	}
	for _, v := range variants {
		_, derr := p.Decode(v)
		verr := p.Validate(v)
		if derr == nil || verr == nil || derr.Error() != verr.Error() {
			t.Fatalf("%d bytes: Validate says %v, Decode says %v", len(v), verr, derr)
		}
	}
}
