package db3

import (
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// A remote .db3 opened alone would count its rows with a GROUP BY over
// the messages table, which reads the whole file through the VFS page by
// page (rosbag2#2434). rosbag2 (schema 3 and later) writes the bag's
// metadata into the file's metadata table when it closes the file; when
// that metadata describes this file alone, its per-topic counts and times
// stand for the file's, as a folder's metadata.yaml does (PresetCounts),
// and Check still counts the rows and compares (checkMetadata).

// tableMetadata is what presetFromTable reads of the metadata table's
// YAML (the body of metadata.yaml, without its
// rosbag2_bagfile_information key).
type tableMetadata struct {
	MessageCount uint64 `yaml:"message_count"`
	StartingTime struct {
		Nanos *int64 `yaml:"nanoseconds_since_epoch"`
	} `yaml:"starting_time"`
	Duration struct {
		Nanos *int64 `yaml:"nanoseconds"`
	} `yaml:"duration"`
	Topics []struct {
		Metadata struct {
			Name string `yaml:"name"`
		} `yaml:"topic_metadata"`
		MessageCount uint64 `yaml:"message_count"`
	} `yaml:"topics_with_message_count"`
	RelativeFilePaths []string `yaml:"relative_file_paths"`
	Files             []struct {
		Path         string `yaml:"path"`
		MessageCount uint64 `yaml:"message_count"`
	} `yaml:"files"`
}

// tableCounts reads the per-topic counts and the times of the file named
// path from its metadata table's YAML. ok is false unless the metadata
// lists this one file (by its base name, in files and in
// relative_file_paths) and agrees with itself: the topics' counts add up
// to its message_count and to the file's, and it has a start and a
// duration. A split recording's later file holds the counts of the files
// before it too, so it never qualifies.
func tableCounts(metadata, path string) (byTopic map[string]uint64, start, end int64, ok bool) {
	if strings.TrimSpace(metadata) == "" {
		return nil, 0, 0, false
	}
	var md tableMetadata
	if yaml.Unmarshal([]byte(metadata), &md) != nil {
		return nil, 0, 0, false
	}
	base := filepath.Base(filepath.FromSlash(path))
	if i := strings.LastIndexAny(path, "/"); i >= 0 {
		base = path[i+1:]
	}
	if q := strings.IndexAny(base, "?#"); q >= 0 {
		base = base[:q]
	}
	same := func(p string) bool { return filepath.Base(filepath.FromSlash(p)) == base }
	if len(md.Files) != 1 || !same(md.Files[0].Path) || md.Files[0].MessageCount != md.MessageCount {
		return nil, 0, 0, false
	}
	if len(md.RelativeFilePaths) > 1 || len(md.RelativeFilePaths) == 1 && !same(md.RelativeFilePaths[0]) {
		return nil, 0, 0, false
	}
	if md.StartingTime.Nanos == nil || md.Duration.Nanos == nil || *md.Duration.Nanos < 0 {
		return nil, 0, 0, false
	}
	byTopic = map[string]uint64{}
	var sum uint64
	for _, t := range md.Topics {
		if t.Metadata.Name == "" {
			return nil, 0, 0, false
		}
		byTopic[t.Metadata.Name] += t.MessageCount
		sum += t.MessageCount
	}
	if sum != md.MessageCount {
		return nil, 0, 0, false
	}
	start = *md.StartingTime.Nanos
	return byTopic, start, start + *md.Duration.Nanos, true
}

// presetFromTable presets the counts from the metadata table (see
// tableCounts) and reports whether it did.
func (s *Store) presetFromTable() bool {
	byTopic, start, end, ok := tableCounts(s.metadata, s.path)
	if !ok || !s.PresetCounts(byTopic, start, end, true) {
		return false
	}
	s.preset.fromTable = true
	return true
}
