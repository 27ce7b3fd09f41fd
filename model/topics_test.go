package model

import (
	"fmt"
	"github.com/bagscope/bagscope/model/stats"
	"strings"
	"testing"
)

func names(rows []Topic) string {
	var s []string
	for _, r := range rows {
		s = append(s, r.Topic)
	}
	return strings.Join(s, " ")
}

func rate(hz float64) *stats.Topic { return &stats.Topic{Messages: 2, Rate: hz, HasRate: true} }

func TestTopicView(t *testing.T) {
	topics := []Topic{
		{Topic: "/imu", Type: "sensor_msgs/Imu", Messages: 100, Stats: rate(100), Connections: 1},
		{Topic: "/odom", Type: "nav_msgs/Odometry", Messages: 50, Stats: rate(50), Connections: 1},
		{Topic: "/tf", Type: "tf2_msgs/TFMessage", Messages: 100, Stats: rate(100), Connections: 2},
		{Topic: "/camera/image_raw", Type: "sensor_msgs/Image", Messages: 10, Stats: rate(10), Connections: 1},
		{Topic: "/once", Type: "std_msgs/Empty", Messages: 1, Stats: &stats.Topic{Messages: 1}, Connections: 1},
		{Topic: "/later", Type: "std_msgs/Empty", Messages: 5, Connections: 1},
	}
	tests := []struct {
		name   string
		filter string
		sorts  []TopicColumn
		want   string
	}{
		{"default by name", "", nil, "/camera/image_raw /imu /later /odom /once /tf"},
		{"name descending", "", []TopicColumn{ColTopic}, "/tf /once /odom /later /imu /camera/image_raw"},
		{"messages, most first, ties by name", "", []TopicColumn{ColMessages}, "/imu /tf /odom /camera/image_raw /later /once"},
		{"messages ascending", "", []TopicColumn{ColMessages, ColMessages}, "/once /later /camera/image_raw /odom /imu /tf"},
		{"type", "", []TopicColumn{ColType}, "/odom /camera/image_raw /imu /later /once /tf"},
		{"connections", "", []TopicColumn{ColConnections}, "/tf /camera/image_raw /imu /later /odom /once"},
		{"filter topic", "IM", nil, "/camera/image_raw /imu"},
		{"filter type", "sensor_msgs", nil, "/camera/image_raw /imu"},
		{"filter and sort", "sensor", []TopicColumn{ColFrequency}, "/imu /camera/image_raw"},
		{"filter none", "zzz", nil, ""},
		{"rate, fastest first, then no rate, then not yet known", "", []TopicColumn{ColFrequency}, "/imu /tf /odom /camera/image_raw /once /later"},
		{"rate ascending", "", []TopicColumn{ColFrequency, ColFrequency}, "/later /once /camera/image_raw /odom /imu /tf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := NewTopicView(topics)
			for _, c := range tt.sorts {
				v.SortBy(c)
			}
			v.SetFilter(tt.filter)
			if got := names(v.Rows()); got != tt.want {
				t.Errorf("rows = %q, want %q", got, tt.want)
			}
			if v.Total() != len(topics) {
				t.Errorf("total = %d", v.Total())
			}
		})
	}
}

// TestTopicViewGroupsRecordings: in a window of several recordings every
// column's sort, either way, lists A's topics, then B's (then C's), each
// sorted by the column, never interleaved by the column's values.
func TestTopicViewGroupsRecordings(t *testing.T) {
	topics := []Topic{
		{Topic: "B:/imu", Type: "sensor_msgs/Imu", Messages: 150, Bytes: 15, Stats: rate(150), Connections: 1, Member: 1},
		{Topic: "/imu", Type: "sensor_msgs/Imu", Messages: 100, Bytes: 10, Stats: rate(100), Connections: 1},
		{Topic: "/odom", Type: "nav_msgs/Odometry", Messages: 50, Bytes: 40, Stats: rate(50), Connections: 2},
		{Topic: "B:/odom", Type: "nav_msgs/Odometry", Messages: 75, Bytes: 5, Stats: rate(75), Connections: 3, Member: 1},
		{Topic: "C:/a", Type: "std_msgs/Empty", Messages: 1000, Bytes: 1, Stats: rate(1000), Connections: 1, Member: 2},
	}
	tests := []struct {
		name  string
		sorts []TopicColumn
		want  string
	}{
		{"name", nil, "/imu /odom B:/imu B:/odom C:/a"},
		{"name reversed", []TopicColumn{ColTopic}, "/odom /imu B:/odom B:/imu C:/a"},
		{"messages, most first", []TopicColumn{ColMessages}, "/imu /odom B:/imu B:/odom C:/a"},
		{"messages ascending", []TopicColumn{ColMessages, ColMessages}, "/odom /imu B:/odom B:/imu C:/a"},
		{"rate, fastest first", []TopicColumn{ColFrequency}, "/imu /odom B:/imu B:/odom C:/a"},
		{"bytes, most first", []TopicColumn{ColBytes}, "/odom /imu B:/imu B:/odom C:/a"},
		{"bytes ascending", []TopicColumn{ColBytes, ColBytes}, "/imu /odom B:/odom B:/imu C:/a"},
		{"type", []TopicColumn{ColType}, "/odom /imu B:/odom B:/imu C:/a"},
		{"connections, most first", []TopicColumn{ColConnections}, "/odom /imu B:/odom B:/imu C:/a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := NewTopicView(topics)
			for _, c := range tt.sorts {
				v.SortBy(c)
			}
			if got := names(v.Rows()); got != tt.want {
				t.Errorf("rows = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTopicCell(t *testing.T) {
	row := Topic{Topic: "/chatter", Type: "std_msgs/String", Types: []string{"std_msgs/String", "std_msgs/Int32"}, Messages: 12345, Stats: rate(9.876), Connections: 3, QoS: "reliable, volatile"}
	want := []string{"/chatter", "std_msgs/String, std_msgs/Int32", "12,345", "9.9", "…", "3", "reliable, volatile"}
	for c := ColTopic; c < NumTopicColumns; c++ {
		if got := row.Cell(c); got != want[c] {
			t.Errorf("%s = %q, want %q", c, got, want[c])
		}
	}
	row.Bytes, row.BytesKnown = 3<<20, true
	if got := row.Cell(ColBytes); got != "3.0 MiB" {
		t.Errorf("bytes = %q", got)
	}
	conn := ConnRow{ID: 4, CallerID: "/talker", Type: "std_msgs/String", MD5Sum: "992ce8a1687cec8c8bd883ec73ca41d1", Latching: true, Messages: 7, Stats: rate(0.5), QoS: "latched"}
	wantConn := []string{"connection 4 · /talker · latched", "std_msgs/String", "7", "0.5", "…", "md5 992ce8a1", "latched"}
	for c := ColTopic; c < NumTopicColumns; c++ {
		if got := conn.Cell(c); got != wantConn[c] {
			t.Errorf("conn %s = %q, want %q", c, got, wantConn[c])
		}
	}
}

// TestTopicLines checks that expanding a topic lists its connections under
// it, and that bytes add up per topic.
func TestTopicLines(t *testing.T) {
	topics := []Topic{
		{Topic: "/a", Messages: 3, Connections: 1, Conns: []ConnRow{{ID: 0, Messages: 3}}},
		{Topic: "/tf", Messages: 5, Connections: 2, Conns: []ConnRow{{ID: 1, Messages: 2}, {ID: 2, Messages: 3}}},
	}
	v := NewTopicView(topics)
	lines := func() string {
		var s []string
		for _, l := range v.Lines() {
			if l.Conn != nil {
				s = append(s, fmt.Sprintf("%s#%d", l.Topic.Topic, l.Conn.ID))
			} else {
				s = append(s, l.Topic.Topic)
			}
		}
		return strings.Join(s, " ")
	}
	if got := lines(); got != "/a /tf" {
		t.Errorf("collapsed: %q", got)
	}
	v.ToggleExpanded("/tf")
	if got := lines(); got != "/a /tf /tf#1 /tf#2" {
		t.Errorf("expanded: %q", got)
	}
	v.ToggleExpanded("/a") // one connection: nothing to show
	if got := lines(); got != "/a /tf /tf#1 /tf#2" {
		t.Errorf("single connection expanded: %q", got)
	}
	v.SetBytes(map[uint32]uint64{0: 10, 1: 100, 2: 1000})
	v.SortBy(ColBytes)
	if got := lines(); got != "/tf /tf#1 /tf#2 /a" {
		t.Errorf("by bytes: %q", got)
	}
	if b := v.Lines()[0].Topic.Bytes; b != 1100 {
		t.Errorf("topic bytes = %d, want 1100", b)
	}
	v.ToggleExpanded("/tf")
	if got := lines(); got != "/tf /a" {
		t.Errorf("collapsed again: %q", got)
	}
}

// TestTopicViewSetStats fills in the statistics: a topic's and each
// connection's, and empty ones (no rate: "—") for a connection without
// messages.
func TestTopicViewSetStats(t *testing.T) {
	v := NewTopicView([]Topic{{Topic: "/tf", Messages: 4, Connections: 2, Conns: []ConnRow{{ID: 1, Messages: 4}, {ID: 2}}}})
	if got := v.Rows()[0].Cell(ColFrequency); got != "…" {
		t.Errorf("before: %q", got)
	}
	s := stats.OfTimes([]int64{0, 1e8, 2e8, 3e8})
	v.SetStats(&stats.Set{Topics: map[string]*stats.Topic{"/tf": s}, Conns: map[uint32]*stats.Topic{1: s}})
	row := v.Rows()[0]
	if row.Cell(ColFrequency) != "10.0" || row.Conns[0].Cell(ColFrequency) != "10.0" || row.Conns[1].Cell(ColFrequency) != "—" {
		t.Errorf("after: %q %q %q", row.Cell(ColFrequency), row.Conns[0].Cell(ColFrequency), row.Conns[1].Cell(ColFrequency))
	}
}

// TestTopicViewSetRead: after a read of every message, a topic and a
// connection give the count read, with what the index counted beside it
// only where the two differ.
func TestTopicViewSetRead(t *testing.T) {
	v := NewTopicView([]Topic{
		{Topic: "/a", Messages: 356, Conns: []ConnRow{{ID: 1, Messages: 300}, {ID: 2, Messages: 56}}},
		{Topic: "/b", Messages: 10, Conns: []ConnRow{{ID: 3, Messages: 10}}},
	})
	read := map[uint32]uint64{1: 299, 2: 56, 3: 10}
	v.SetRead(func(id uint32) uint64 { return read[id] }, nil)
	want := map[string][3]string{
		"/a": {"355 of 356", "299 of 300", "56"},
		"/b": {"10", "10", ""},
	}
	for _, r := range v.Rows() {
		w := want[r.Topic]
		got := [3]string{r.Cell(ColMessages), r.Conns[0].Cell(ColMessages), ""}
		if len(r.Conns) > 1 {
			got[2] = r.Conns[1].Cell(ColMessages)
		}
		if got != w {
			t.Errorf("%s: %q, want %q", r.Topic, got, w)
		}
	}
}

// TestLineCellBytes: a Bytes cell is "…" while the bytes are counted,
// NotCounted while they wait for the user, and the size once known,
// whatever the wait.
func TestLineCellBytes(t *testing.T) {
	topics := []Topic{{Topic: "/a", Type: "std_msgs/String", Conns: []ConnRow{{ID: 1}}}}
	for _, tc := range []struct {
		name  string
		wait  bool
		bytes map[uint32]uint64
		want  string
	}{
		{"counting", false, nil, "…"},
		{"waiting", true, nil, NotCounted},
		{"counted", false, map[uint32]uint64{1: 2048}, "2.0 KiB"},
		{"counted while waiting", true, map[uint32]uint64{1: 2048}, "2.0 KiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := NewTopicView(topics)
			v.SetBytesWaiting(tc.wait)
			if tc.bytes != nil {
				v.SetBytes(tc.bytes)
			}
			if got := v.LineCell(v.Lines()[0], ColBytes); got != tc.want {
				t.Errorf("Bytes cell %q, want %q", got, tc.want)
			}
		})
	}
}
