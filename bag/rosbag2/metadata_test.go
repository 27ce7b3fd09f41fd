package rosbag2_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/rosbag2"
)

// metadataOf writes a metadata.yaml as rosbag2 writes version v: the
// fields each version added, in the order its writer puts them.
func metadataOf(v int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "rosbag2_bagfile_information:\n  version: %d\n  storage_identifier: mcap\n", v)
	b.WriteString("  duration:\n    nanoseconds: 2000000000\n  starting_time:\n    nanoseconds_since_epoch: 1700000000000000000\n  message_count: 30\n")
	b.WriteString("  topics_with_message_count:\n")
	key := "topic_metadata"
	if v == 1 {
		key = "topic_and_type"
	}
	for i, topic := range []string{"/a", "/b"} {
		fmt.Fprintf(&b, "    - %s:\n        name: %s\n        type: std_msgs/msg/String\n        serialization_format: cdr\n", key, topic)
		switch {
		case v >= 9:
			b.WriteString(`        offered_qos_profiles:
          - history: keep_last
            depth: 10
            reliability: reliable
            durability: transient_local
            deadline:
              sec: 9223372036
              nsec: 854775807
            lifespan:
              sec: 10
              nsec: 0
            liveliness: automatic
            liveliness_lease_duration:
              sec: 9223372036
              nsec: 854775807
            avoid_ros_namespace_conventions: false
`)
		case v >= 4:
			b.WriteString(`        offered_qos_profiles: "- history: 1\n  depth: 10\n  reliability: 1\n  durability: 1\n  deadline:\n    sec: 2147483647\n    nsec: 4294967295\n  lifespan:\n    sec: 10\n    nsec: 0\n  liveliness: 1\n  liveliness_lease_duration:\n    sec: 9223372036\n    nsec: 854775807\n  avoid_ros_namespace_conventions: false"` + "\n")
		case v >= 2:
			b.WriteString("        offered_qos_profiles: \"\"\n")
		}
		if v >= 7 {
			fmt.Fprintf(&b, "        type_description_hash: RIHS01_%064d\n", i)
		}
		fmt.Fprintf(&b, "      message_count: %d\n", 10+10*i)
	}
	if v >= 3 {
		b.WriteString("  compression_format: zstd\n  compression_mode: MESSAGE\n")
	}
	b.WriteString("  relative_file_paths:\n    - bag/bag_0.mcap\n    - bag/bag_1.mcap\n")
	if v >= 5 {
		b.WriteString(`  files:
    - path: bag_0.mcap
      starting_time:
        nanoseconds_since_epoch: 1700000000000000000
      duration:
        nanoseconds: 1000000000
      message_count: 12
    - path: bag_1.mcap
      starting_time:
        nanoseconds_since_epoch: 1700000001000000000
      duration:
        nanoseconds: 1000000000
      message_count: 18
`)
	}
	if v >= 6 {
		b.WriteString("  custom_data:\n    robot: r2\n    run: 7\n")
	}
	if v >= 8 {
		b.WriteString("  ros_distro: jazzy\n")
	}
	return b.String()
}

func TestMetadataVersions(t *testing.T) {
	for v := 1; v <= rosbag2.MaxMetadataVersion; v++ {
		t.Run(fmt.Sprint("version ", v), func(t *testing.T) {
			m, err := rosbag2.ParseMetadata([]byte(metadataOf(v)))
			if err != nil {
				t.Fatal(err)
			}
			if m.Version != v || m.StorageIdentifier != "mcap" || m.MessageCount != 30 || !m.HasStart || m.StartingTime != 1700000000000000000 || m.Duration != 2e9 {
				t.Fatalf("%+v", m)
			}
			if len(m.Topics) != 2 || m.Topics[1].Name != "/b" || m.Topics[1].MessageCount != 20 || m.Topics[0].SerializationFormat != "cdr" {
				t.Fatalf("topics %+v", m.Topics)
			}
			wantFiles := []string{"bag/bag_0.mcap", "bag/bag_1.mcap"}
			if v >= 5 {
				wantFiles = []string{"bag_0.mcap", "bag_1.mcap"}
				if f := m.FileEntry("bag_1.mcap"); f == nil || f.MessageCount != 18 || f.StartingTime != 1700000001000000000 || f.Duration != 1e9 {
					t.Fatalf("files %+v", m.Files)
				}
			}
			if got := m.FilePaths(); !reflect.DeepEqual(got, wantFiles) {
				t.Fatalf("files %v, want %v", got, wantFiles)
			}
			if (v >= 3) != (m.CompressionMode == "MESSAGE" && m.CompressionFormat == "zstd") {
				t.Fatalf("compression %q %q", m.CompressionFormat, m.CompressionMode)
			}
			if (v >= 6) != reflect.DeepEqual(m.CustomData, map[string]string{"robot": "r2", "run": "7"}) {
				t.Fatalf("custom data %v", m.CustomData)
			}
			if (v >= 7) != strings.HasPrefix(m.Topics[1].TypeDescriptionHash, "RIHS01_") {
				t.Fatalf("hash %q", m.Topics[1].TypeDescriptionHash)
			}
			if (v >= 8) != (m.ROSDistro == "jazzy") {
				t.Fatalf("distro %q", m.ROSDistro)
			}
			q := m.Topics[0].QoS
			if v < 4 {
				if len(q) != 0 {
					t.Fatalf("QoS %+v", q)
				}
				return
			}
			if len(q) != 1 {
				t.Fatalf("QoS %+v", q)
			}
			p := q[0]
			if p.History != "keep_last" || p.Depth != 10 || p.Reliability != "reliable" || p.Durability != "transient_local" || p.Liveliness != "automatic" || p.AvoidROSNamespaceConventions {
				t.Fatalf("QoS %+v", p)
			}
			if !p.Deadline.Infinite || !p.LivelinessLeaseDuration.Infinite || p.Lifespan.Infinite || p.Lifespan.Sec != 10 || p.Lifespan.String() != "10.000000000 s" {
				t.Fatalf("QoS durations %+v", p)
			}
			if (v < 9) != (m.Topics[0].QoSText != "") {
				t.Fatalf("QoS text %q", m.Topics[0].QoSText)
			}
		})
	}
}

func TestMetadataEdges(t *testing.T) {
	// An empty bag writes INT64_MAX as its start.
	m, err := rosbag2.ReadMetadata(filepath.Join(need(t, r2+"rosbag2_tests/resources/compressed_bag"), "metadata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if m.HasStart || m.CompressionMode != "FILE" || m.CompressionFormat != "zstd" || m.Version != 4 {
		t.Fatalf("%+v", m)
	}
	if q := m.Topics[1].QoS; len(q) != 1 || q[0].Durability != "transient_local" || !q[0].Deadline.Infinite || q[0].Lifespan.Sec != 10 {
		t.Fatalf("QoS %+v", q)
	}
	// custom_data: ~ and a version-8 file.
	m, err = rosbag2.ReadMetadata(filepath.Join(need(t, r2+"rosbag2_tests/resources/mcap/bag_with_topics_and_service_events"), "metadata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Version != 8 || m.CustomData != nil || m.Topics[0].TypeDescriptionHash == "" {
		t.Fatalf("%+v", m)
	}
	for _, bad := range []string{"", "a: b", "rosbag2_bagfile_information: [", "rosbag2_bagfile_information:\n  topics_with_message_count:\n    - message_count: 1\n"} {
		if _, err := rosbag2.ParseMetadata([]byte(bad)); err == nil {
			t.Errorf("%q parses", bad)
		}
	}
}
