package rosbag2

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"gopkg.in/yaml.v3"
)

// MetadataName is the name of a bag folder's metadata file.
const MetadataName = "metadata.yaml"

// MaxMetadataVersion is the newest metadata.yaml version this package
// knows.
const MaxMetadataVersion = 9

// Metadata is a bag folder's metadata.yaml (rosbag2_bagfile_information),
// versions 1 to 9: 1 the first; 2 64-bit counts; 3 compression format and
// mode; 4 QoS profiles as a YAML string; 5 files with their own start,
// duration and count; 6 custom_data; 7 type_description_hash; 8
// ros_distro; 9 QoS profiles as YAML structures with names.
type Metadata struct {
	Version           int
	StorageIdentifier string // "sqlite3", "mcap"
	// StartingTime is nanoseconds since the epoch; HasStart is false when
	// the file says none (an empty bag writes INT64_MAX).
	StartingTime int64
	HasStart     bool
	// Duration is in nanoseconds.
	Duration     int64
	MessageCount uint64
	Topics       []TopicInfo
	// CompressionFormat is "" or "zstd"; CompressionMode "", "FILE" or
	// "MESSAGE" (version 3 on).
	CompressionFormat, CompressionMode string
	RelativeFilePaths                  []string
	// Files lists each storage file with its own times and count
	// (version 5 on).
	Files []FileEntry
	// CustomData is the user's key-value data (version 6 on).
	CustomData map[string]string
	// ROSDistro names the distribution that wrote the bag (version 8 on).
	ROSDistro string
}

// TopicInfo is one entry of topics_with_message_count.
type TopicInfo struct {
	Name, Type, SerializationFormat string
	// QoS are the offered QoS profiles, read from the YAML string of
	// versions 4 to 8 or the structures of version 9; QoSText is the
	// string as written (versions 4-8).
	QoS     []QoSProfile
	QoSText string
	// TypeDescriptionHash is the RIHS01 hash of the type (version 7 on).
	TypeDescriptionHash string
	MessageCount        uint64
}

// FileEntry is one entry of files.
type FileEntry struct {
	Path         string
	StartingTime int64 // nanoseconds since the epoch
	Duration     int64 // nanoseconds
	MessageCount uint64
}

// QoSProfile is one offered QoS profile. The policies are named as
// version 9 writes them ("keep_last", "reliable", "transient_local",
// "automatic"); numbers from earlier versions are converted.
type QoSProfile struct {
	History                      string
	Depth                        uint64
	Reliability                  string
	Durability                   string
	Deadline                     QoSDuration
	Lifespan                     QoSDuration
	Liveliness                   string
	LivelinessLeaseDuration      QoSDuration
	AvoidROSNamespaceConventions bool
}

// QoSDuration is a QoS policy's duration. Infinite is set for either of
// the two sentinels rmw has written for "infinite": {2147483647,
// 4294967295} (Foxy and earlier) and {9223372036, 854775807} (INT64_MAX
// nanoseconds, Galactic on).
type QoSDuration struct {
	Sec, NSec uint64
	Infinite  bool
}

// String formats the duration as seconds, or "infinite".
func (d QoSDuration) String() string {
	if d.Infinite {
		return "infinite"
	}
	return fmt.Sprintf("%d.%09d s", d.Sec, d.NSec)
}

func qosDuration(sec, nsec uint64) QoSDuration {
	inf := (sec == math.MaxInt32 && nsec == math.MaxUint32) || (sec == 9223372036 && nsec == 854775807)
	return QoSDuration{Sec: sec, NSec: nsec, Infinite: inf}
}

// Policy names by the numbers of rmw's enums, as versions 4-8 write them.
var (
	historyNames     = []string{"system_default", "keep_last", "keep_all", "unknown"}
	reliabilityNames = []string{"system_default", "reliable", "best_effort", "unknown", "best_available"}
	durabilityNames  = []string{"system_default", "transient_local", "volatile", "unknown", "best_available"}
	livelinessNames  = []string{"system_default", "automatic", "manual_by_node", "manual_by_topic", "unknown", "best_available"}
)

// ReadMetadata reads and parses the metadata.yaml at path (a local path
// or a URL).
func ReadMetadata(path string) (*Metadata, error) {
	b, err := bag.ReadSmallFile(path, 64<<20)
	if err != nil {
		return nil, err
	}
	return ParseMetadata(b)
}

// The file's layout, as yaml.v3 decodes it.
type rawMetadata struct {
	Info *rawInfo `yaml:"rosbag2_bagfile_information"`
}

type rawInfo struct {
	Version           int             `yaml:"version"`
	StorageIdentifier string          `yaml:"storage_identifier"`
	Duration          rawNanos        `yaml:"duration"`
	StartingTime      rawEpoch        `yaml:"starting_time"`
	MessageCount      uint64          `yaml:"message_count"`
	Topics            []rawTopicCount `yaml:"topics_with_message_count"`
	CompressionFormat string          `yaml:"compression_format"`
	CompressionMode   string          `yaml:"compression_mode"`
	RelativeFilePaths []string        `yaml:"relative_file_paths"`
	Files             []rawFile       `yaml:"files"`
	CustomData        map[string]any  `yaml:"custom_data"`
	ROSDistro         string          `yaml:"ros_distro"`
}

type rawNanos struct {
	Nanoseconds int64 `yaml:"nanoseconds"`
}

type rawEpoch struct {
	Nanoseconds *int64 `yaml:"nanoseconds_since_epoch"`
}

type rawTopicCount struct {
	Metadata     *rawTopic `yaml:"topic_metadata"`
	TopicAndType *rawTopic `yaml:"topic_and_type"` // version 1
	MessageCount uint64    `yaml:"message_count"`
}

type rawTopic struct {
	Name                string    `yaml:"name"`
	Type                string    `yaml:"type"`
	SerializationFormat string    `yaml:"serialization_format"`
	QoS                 yaml.Node `yaml:"offered_qos_profiles"`
	TypeDescriptionHash string    `yaml:"type_description_hash"`
}

type rawFile struct {
	Path         string   `yaml:"path"`
	StartingTime rawEpoch `yaml:"starting_time"`
	Duration     rawNanos `yaml:"duration"`
	MessageCount uint64   `yaml:"message_count"`
}

// ParseMetadata parses a metadata.yaml's text.
func ParseMetadata(text []byte) (*Metadata, error) {
	var raw rawMetadata
	if err := yaml.Unmarshal(text, &raw); err != nil {
		return nil, fmt.Errorf("metadata.yaml: %w", err)
	}
	ri := raw.Info
	if ri == nil {
		return nil, errors.New("metadata.yaml: no rosbag2_bagfile_information")
	}
	m := &Metadata{
		Version: ri.Version, StorageIdentifier: ri.StorageIdentifier,
		Duration: ri.Duration.Nanoseconds, MessageCount: ri.MessageCount,
		CompressionFormat: ri.CompressionFormat, CompressionMode: ri.CompressionMode,
		RelativeFilePaths: ri.RelativeFilePaths, ROSDistro: ri.ROSDistro,
	}
	if ns := ri.StartingTime.Nanoseconds; ns != nil && *ns != math.MaxInt64 {
		m.StartingTime, m.HasStart = *ns, true
	}
	for i, t := range ri.Topics {
		rt := t.Metadata
		if rt == nil {
			rt = t.TopicAndType
		}
		if rt == nil {
			return nil, fmt.Errorf("metadata.yaml: topics_with_message_count entry %d has no topic_metadata", i+1)
		}
		ti := TopicInfo{Name: rt.Name, Type: rt.Type, SerializationFormat: rt.SerializationFormat, TypeDescriptionHash: rt.TypeDescriptionHash, MessageCount: t.MessageCount}
		qos, text, err := parseQoS(&rt.QoS)
		if err != nil {
			return nil, fmt.Errorf("metadata.yaml: offered_qos_profiles of %s: %w", rt.Name, err)
		}
		ti.QoS, ti.QoSText = qos, text
		m.Topics = append(m.Topics, ti)
	}
	for _, f := range ri.Files {
		fe := FileEntry{Path: f.Path, Duration: f.Duration.Nanoseconds, MessageCount: f.MessageCount}
		if f.StartingTime.Nanoseconds != nil {
			fe.StartingTime = *f.StartingTime.Nanoseconds
		}
		m.Files = append(m.Files, fe)
	}
	if len(ri.CustomData) > 0 {
		m.CustomData = map[string]string{}
		for k, v := range ri.CustomData {
			m.CustomData[k] = fmt.Sprint(v)
		}
	}
	return m, nil
}

// FilePaths returns the storage files the metadata lists, as written:
// from files when it has them, else relative_file_paths.
func (m *Metadata) FilePaths() []string {
	if len(m.Files) > 0 {
		out := make([]string, len(m.Files))
		for i, f := range m.Files {
			out[i] = f.Path
		}
		return out
	}
	return m.RelativeFilePaths
}

// FileEntry returns the files entry of a path as FilePaths gives it, or
// nil.
func (m *Metadata) FileEntry(path string) *FileEntry {
	for i := range m.Files {
		if m.Files[i].Path == path {
			return &m.Files[i]
		}
	}
	return nil
}

// parseQoS reads offered_qos_profiles: a YAML string holding a list
// (versions 4-8, "" when none) or a list (version 9).
func parseQoS(n *yaml.Node) ([]QoSProfile, string, error) {
	switch n.Kind {
	case 0:
		return nil, "", nil
	case yaml.ScalarNode:
		if n.Tag == "!!null" || strings.TrimSpace(n.Value) == "" {
			return nil, n.Value, nil
		}
		var inner yaml.Node
		if err := yaml.Unmarshal([]byte(n.Value), &inner); err != nil {
			return nil, n.Value, err
		}
		if inner.Kind == yaml.DocumentNode && len(inner.Content) == 1 {
			q, _, err := parseQoS(inner.Content[0])
			return q, n.Value, err
		}
		return nil, n.Value, fmt.Errorf("not a list of profiles: %q", n.Value)
	case yaml.SequenceNode:
		var out []QoSProfile
		for _, item := range n.Content {
			q, err := parseProfile(item)
			if err != nil {
				return nil, "", err
			}
			out = append(out, q)
		}
		return out, "", nil
	}
	return nil, "", fmt.Errorf("line %d: not a list of profiles", n.Line)
}

func parseProfile(n *yaml.Node) (QoSProfile, error) {
	var q QoSProfile
	if n.Kind != yaml.MappingNode {
		return q, fmt.Errorf("line %d: a profile is not a mapping", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		var err error
		switch k {
		case "history":
			q.History, err = policy(v, historyNames)
		case "depth":
			q.Depth, err = strconv.ParseUint(v.Value, 10, 64)
		case "reliability":
			q.Reliability, err = policy(v, reliabilityNames)
		case "durability":
			q.Durability, err = policy(v, durabilityNames)
		case "liveliness":
			q.Liveliness, err = policy(v, livelinessNames)
		case "deadline":
			q.Deadline, err = duration(v)
		case "lifespan":
			q.Lifespan, err = duration(v)
		case "liveliness_lease_duration":
			q.LivelinessLeaseDuration, err = duration(v)
		case "avoid_ros_namespace_conventions":
			q.AvoidROSNamespaceConventions, err = strconv.ParseBool(v.Value)
		}
		if err != nil {
			return q, fmt.Errorf("line %d: %s: %w", v.Line, k, err)
		}
	}
	return q, nil
}

// policy reads a policy as a number (versions 4-8) or a name (version 9).
func policy(v *yaml.Node, names []string) (string, error) {
	if n, err := strconv.Atoi(v.Value); err == nil {
		if n >= 0 && n < len(names) {
			return names[n], nil
		}
		return strconv.Itoa(n), nil
	}
	return strings.ToLower(v.Value), nil
}

func duration(v *yaml.Node) (QoSDuration, error) {
	if v.Kind == yaml.ScalarNode {
		if strings.EqualFold(v.Value, "infinite") {
			return QoSDuration{Infinite: true}, nil
		}
		return QoSDuration{}, fmt.Errorf("%q is not a duration", v.Value)
	}
	var d struct {
		Sec  uint64 `yaml:"sec"`
		NSec uint64 `yaml:"nsec"`
	}
	if err := v.Decode(&d); err != nil {
		return QoSDuration{}, err
	}
	return qosDuration(d.Sec, d.NSec), nil
}
