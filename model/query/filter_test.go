package query

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/model"
)

// rawMsg is one message as a reference reader reads it, payload untouched.
type rawMsg struct {
	Topic string
	T     int64
	Data  string
}

// rawConn is a connection as a reference reader reads it.
type rawConn struct {
	Topic, Type, Encoding, Definition, QoS, MD5Sum, CallerID string
	Latching                                                 bool
}

// rawDump reads file with its format's reference reader: rosbag (ROS 1),
// @mcap/core (MCAP), Python's sqlite3 (.db3).
func rawDump(t *testing.T, file string) ([]rawConn, []rawMsg) {
	t.Helper()
	var cmd *exec.Cmd
	if strings.HasSuffix(file, ".mcap") {
		oracletest.Require(t)
		cmd = oracletest.Command("mcap_raw.mjs", file)
	} else {
		if _, err := os.Stat("/usr/bin/python3"); err != nil {
			requireRef(t, "/usr/bin/python3 (python3-rosbag)", err)
		}
		cmd = exec.Command("/usr/bin/python3", testdata+"/raw_dump.py", file)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, errb.String())
	}
	var conns []rawConn
	var msgs []rawMsg
	for _, line := range bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n")) {
		var l struct {
			Conn *struct {
				Topic, Type, Encoding, Definition, QoS, MD5Sum, CallerID string
				Latching                                                 bool
			}
			Topic string
			T     json.Number
			Data  string
		}
		d := json.NewDecoder(bytes.NewReader(line))
		d.UseNumber()
		if err := d.Decode(&l); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if l.Conn != nil {
			conns = append(conns, rawConn(*l.Conn))
			continue
		}
		ns, _ := strconv.ParseInt(l.T.String(), 10, 64)
		msgs = append(msgs, rawMsg{l.Topic, ns, l.Data})
	}
	return conns, msgs
}

// TestFilterReadsBackEqual filters recordings of every format into every
// format that can hold their messages, by topics, time range and an
// expression, and reads the output back with the reference readers: the
// kept messages are exactly the input's the selection picks (predicates
// written by hand on the reference's decoding), in order, every payload
// byte-equal; the kept connections keep their type, definition, QoS and
// ROS 1 header fields.
func TestFilterReadsBackEqual(t *testing.T) {
	robot := testdata + "/robot.bag"
	ros2 := testdata + "/ros2-mixed.mcap"
	db3 := "../../../shared/bags/facontidavide__PlotJuggler/datasamples/rosbag2_test/rosbag2_test_0.db3"
	tests := []struct {
		name, in, out string
		topics        []string
		from, to      float64 // seconds from the start; to 0: the end
		where         string
		pred          func(topic string, m map[string]any) bool // on the reference's decoding; nil: all
	}{
		{"bag to bag by topics and range", robot, "out.bag", []string{"/odom", "/tf", "/rosout"}, 2, 6.5, "", nil},
		{"bag to mcap with an expression", robot, "out.mcap", nil, 0, 0, "/odom.twist.twist.linear.x > 1.2",
			func(topic string, m map[string]any) bool {
				return topic == "/odom" && num(field(m, "twist", "twist", "linear", "x")) > 1.2
			}},
		{"mcap to db3", ros2, "out.db3", []string{"/imu", "/chatter"}, 1, 3, "", nil},
		{"mcap to mcap with an expression", ros2, "out.mcap", nil, 0, 0, `header.frame_id == "imu_link" && linear_acceleration.z > 9.85`,
			func(topic string, m map[string]any) bool {
				return field(m, "header", "frame_id") == "imu_link" && num(field(m, "linear_acceleration", "z")) > 9.85
			}},
		{"mcap to bag refused", ros2, "out.bag", nil, 0, 0, "", nil},
		{"db3 to mcap", db3, "out.mcap", nil, 0, 0, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := os.Stat(tc.in); err != nil {
				t.Fatal(err)
			}
			s, err := model.OpenStorage(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			start, _ := model.TimeRange(s)
			f := bag.MessageFilter{Topics: tc.topics}
			if tc.from > 0 {
				f.Start = bag.TimeFromNanos(start.Nanos() + int64(tc.from*1e9))
			}
			if tc.to > 0 {
				f.End = bag.TimeFromNanos(start.Nanos() + int64(tc.to*1e9))
			}
			out := filepath.Join(t.TempDir(), tc.out)
			rep, err := Filter(context.Background(), s, out, FilterOptions{Filter: f, Where: tc.where})
			if strings.Contains(tc.name, "refused") {
				if err == nil || !strings.Contains(err.Error(), "ROS 1") {
					t.Fatalf("error %v", err)
				}
				if _, err := os.Stat(out); err == nil {
					t.Fatal("a refused filter left a file")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			inConns, inMsgs := rawDump(t, tc.in)
			outConns, outMsgs := rawDump(t, out)
			var decoded map[string][]refMsg
			if tc.pred != nil {
				decoded = map[string][]refMsg{}
				for _, c := range inConns {
					if _, ok := decoded[c.Topic]; !ok {
						decoded[c.Topic] = refMessages(t, tc.in, c.Topic)
					}
				}
			}
			// The input's messages the selection picks, in order.
			var want []rawMsg
			seen := map[string]int{}
			for _, m := range inMsgs {
				i := seen[m.Topic]
				seen[m.Topic]++
				if len(tc.topics) > 0 && !slices.Contains(tc.topics, m.Topic) {
					continue
				}
				if !f.Start.IsZero() && m.T < f.Start.Nanos() || !f.End.IsZero() && m.T > f.End.Nanos() {
					continue
				}
				if tc.pred != nil {
					d := decoded[m.Topic][i]
					if d.ns() != m.T {
						t.Fatalf("the references disagree on %s message %d", m.Topic, i)
					}
					if !tc.pred(m.Topic, d.Msg) {
						continue
					}
				}
				want = append(want, m)
			}
			narrowed := tc.topics != nil || tc.where != "" || tc.from > 0 || tc.to > 0
			if len(want) == 0 || narrowed && len(want) == len(inMsgs) {
				t.Fatalf("the selection keeps %d of %d messages: it tests nothing", len(want), len(inMsgs))
			}
			if len(outMsgs) != len(want) || int(rep.Messages) != len(want) {
				t.Fatalf("%d messages read back, %d reported written, want %d", len(outMsgs), rep.Messages, len(want))
			}
			for i := range want {
				if outMsgs[i] != want[i] {
					t.Fatalf("message %d: %s at %d (%d bytes), want %s at %d (%d bytes)", i, outMsgs[i].Topic, outMsgs[i].T,
						len(outMsgs[i].Data), want[i].Topic, want[i].T, len(want[i].Data))
				}
			}
			// Every kept connection keeps what defines it.
			for _, oc := range outConns {
				var ic *rawConn
				for i := range inConns {
					if inConns[i].Topic == oc.Topic && inConns[i].Type == oc.Type {
						ic = &inConns[i]
					}
				}
				if ic == nil {
					t.Fatalf("connection %s (%s) is not in the input", oc.Topic, oc.Type)
				}
				if strings.TrimSpace(oc.Definition) != strings.TrimSpace(ic.Definition) && ic.Definition != "" {
					t.Errorf("%s: the definition changed:\n%s\n---\n%s", oc.Topic, oc.Definition, ic.Definition)
				}
				if ic.QoS != "" && oc.QoS != ic.QoS {
					t.Errorf("%s: QoS %q, the input's %q", oc.Topic, oc.QoS, ic.QoS)
				}
				if ic.MD5Sum != "" && oc.MD5Sum != "" && oc.MD5Sum != ic.MD5Sum {
					t.Errorf("%s: md5sum %s, the input's %s", oc.Topic, oc.MD5Sum, ic.MD5Sum)
				}
				if oc.Encoding != ic.Encoding {
					t.Errorf("%s: encoding %s, the input's %s", oc.Topic, oc.Encoding, ic.Encoding)
				}
			}
			t.Logf("%d of %d messages kept, byte-equal as the reference reads them", len(want), len(inMsgs))
		})
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// TestFilterReadsOnlyTheRange: a short range of a recording of many chunks
// reads a fraction of the file.
func TestFilterReadsOnlyTheRange(t *testing.T) {
	path := testdata + "/robot.bag" // 9 chunks over 10 s
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	cr := &countingReader{r: f}
	s, err := bag.NewStorage(cr, st.Size(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	opened := cr.n.Load()
	start, _ := model.TimeRange(s)
	rng := bag.MessageFilter{Start: bag.TimeFromNanos(start.Nanos() + 4e9), End: bag.TimeFromNanos(start.Nanos() + 5e9)}
	rep, err := Filter(context.Background(), s, filepath.Join(t.TempDir(), "cut.mcap"), FilterOptions{Filter: rng})
	if err != nil {
		t.Fatal(err)
	}
	read := cr.n.Load() - opened
	if rep.Messages == 0 || read > st.Size()/3 {
		t.Fatalf("wrote %d messages reading %d of %d bytes", rep.Messages, read, st.Size())
	}
	t.Logf("1 s of 10: %d messages, %d of %d bytes read", rep.Messages, read, st.Size())
}

// TestFilterFormat: the output's format comes from --format, else its
// extension.
func TestFilterFormat(t *testing.T) {
	tests := []struct{ out, format, want, err string }{
		{"x.bag", "", "ROS 1 bag", ""},
		{"x.MCAP", "", "MCAP", ""},
		{"x.db3", "", "rosbag2 SQLite (.db3)", ""},
		{"x.out", "mcap", "MCAP", ""},
		{"x.out", "", "", "name the output"},
		{"x.bag", "parquet", "", "unknown output format"},
	}
	for _, tc := range tests {
		f, err := FilterFormat(tc.out, tc.format)
		got := ""
		if f != nil {
			got = f.Name
		}
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s %s: %q %v, want %q %q", tc.out, tc.format, got, err, tc.want, tc.err)
		}
	}
}
