package model

import (
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

func TestTopicView(t *testing.T) {
	topics := []Topic{
		{Topic: "/imu", Type: "sensor_msgs/Imu", Messages: 100, Frequency: 100, Connections: 1},
		{Topic: "/odom", Type: "nav_msgs/Odometry", Messages: 50, Frequency: 50, Connections: 1},
		{Topic: "/tf", Type: "tf2_msgs/TFMessage", Messages: 100, Frequency: 100, Connections: 2},
		{Topic: "/camera/image_raw", Type: "sensor_msgs/Image", Messages: 10, Frequency: 10, Connections: 1},
	}
	tests := []struct {
		name   string
		filter string
		sorts  []TopicColumn
		want   string
	}{
		{"default by name", "", nil, "/camera/image_raw /imu /odom /tf"},
		{"name descending", "", []TopicColumn{ColTopic}, "/tf /odom /imu /camera/image_raw"},
		{"messages, most first, ties by name", "", []TopicColumn{ColMessages}, "/imu /tf /odom /camera/image_raw"},
		{"messages ascending", "", []TopicColumn{ColMessages, ColMessages}, "/camera/image_raw /odom /imu /tf"},
		{"type", "", []TopicColumn{ColType}, "/odom /camera/image_raw /imu /tf"},
		{"connections", "", []TopicColumn{ColConnections}, "/tf /camera/image_raw /imu /odom"},
		{"filter topic", "IM", nil, "/camera/image_raw /imu"},
		{"filter type", "sensor_msgs", nil, "/camera/image_raw /imu"},
		{"filter and sort", "sensor", []TopicColumn{ColFrequency}, "/imu /camera/image_raw"},
		{"filter none", "zzz", nil, ""},
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
			if v.Total() != 4 {
				t.Errorf("total = %d", v.Total())
			}
		})
	}
}

func TestTopicCell(t *testing.T) {
	row := Topic{Topic: "/chatter", Type: "std_msgs/String", Types: []string{"std_msgs/String", "std_msgs/Int32"}, Messages: 12345, Frequency: 9.876, Connections: 3}
	want := []string{"/chatter", "std_msgs/String, std_msgs/Int32", "12,345", "9.9", "3"}
	for c := ColTopic; c < NumTopicColumns; c++ {
		if got := row.Cell(c); got != want[c] {
			t.Errorf("%s = %q, want %q", c, got, want[c])
		}
	}
}
