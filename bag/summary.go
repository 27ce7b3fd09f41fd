package bag

import (
	"slices"
	"sort"
)

// Summary describes a recording as `rosbag info` does, from its index or
// summary section.
type Summary struct {
	Path string
	// Format and Version say what the file is ("ROS 1 bag" "2.0").
	Format, Version string
	Size            int64
	Indexed         bool
	Start, End      Time
	Messages        uint64
	Chunks          int
	// Compression counts the chunks per compression.
	Compression map[string]int
	// CompressedBytes and UncompressedBytes add up the chunks' data sizes.
	CompressedBytes, UncompressedBytes uint64
	Topics                             []TopicSummary // sorted by topic
	// ConnMessages counts the messages of each connection, by ID.
	ConnMessages map[uint32]uint64
	Types        []TypeSummary // sorted by type
	// Files lists the files of a recording of several files (see Multi),
	// in file order; empty for one file.
	Files []FileSummary
}

// FileSummary is one file of a recording of several files.
type FileSummary struct {
	// Path is the file as the user knows it.
	Path       string
	Format     string
	Size       int64
	Start, End Time
	Messages   uint64
	Chunks     int
}

// TopicSummary describes one topic.
type TopicSummary struct {
	Topic    string
	Type     string // type of the topic's first connection
	MD5Sum   string
	Messages uint64
	// Connections on this topic, by ID.
	Connections []*Connection
	// Types lists every type seen on the topic when there is more than one.
	Types []string
}

// TypeSummary is one message type with its md5sum.
type TypeSummary struct {
	Type   string
	MD5Sum string
}

// AddTopics fills s.Topics and s.Types from connections and their message
// counts.
func (s *Summary) AddTopics(conns []*Connection, counts map[uint32]uint64) {
	s.ConnMessages = counts
	byTopic := map[string]*TopicSummary{}
	types := map[TypeSummary]bool{}
	for _, c := range conns {
		t := byTopic[c.Topic]
		if t == nil {
			t = &TopicSummary{Topic: c.Topic, Type: c.Type, MD5Sum: c.MD5Sum}
			byTopic[c.Topic] = t
		}
		t.Messages += counts[c.ID]
		t.Connections = append(t.Connections, c)
		if c.Type != t.Type && !slices.Contains(t.Types, c.Type) {
			if len(t.Types) == 0 {
				t.Types = append(t.Types, t.Type)
			}
			t.Types = append(t.Types, c.Type)
		}
		types[TypeSummary{c.Type, c.MD5Sum}] = true
	}
	s.Topics = s.Topics[:0]
	for _, t := range byTopic {
		s.Topics = append(s.Topics, *t)
	}
	sort.Slice(s.Topics, func(i, j int) bool { return s.Topics[i].Topic < s.Topics[j].Topic })
	s.Types = s.Types[:0]
	for t := range types {
		s.Types = append(s.Types, t)
	}
	sort.Slice(s.Types, func(i, j int) bool {
		if s.Types[i].Type != s.Types[j].Type {
			return s.Types[i].Type < s.Types[j].Type
		}
		return s.Types[i].MD5Sum < s.Types[j].MD5Sum
	})
}

// CompressionNames returns the compressions of the chunks, most chunks
// first (as rosbag info lists them), ties by name.
func (s *Summary) CompressionNames() []string {
	names := make([]string, 0, len(s.Compression))
	for n := range s.Compression {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if s.Compression[names[i]] != s.Compression[names[j]] {
			return s.Compression[names[i]] > s.Compression[names[j]]
		}
		return names[i] < names[j]
	})
	return names
}
