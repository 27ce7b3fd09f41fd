package ros1

import "sort"

// Summary describes a bag as `rosbag info` does, from the index section and
// the chunk record headers.
type Summary struct {
	Path        string
	Version     string
	Size        int64
	Indexed     bool
	Start, End  Time
	Messages    uint64
	Chunks      int
	Compression map[string]int // chunk count per compression
	// CompressedBytes and UncompressedBytes add up the chunks' data sizes.
	CompressedBytes, UncompressedBytes uint64
	Topics                             []TopicSummary // sorted by topic
	Types                              []TypeSummary  // sorted by type
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

// ConnectionCounts returns the number of messages of each connection, from
// the chunk infos.
func (b *Bag) ConnectionCounts() map[uint32]uint64 {
	n := map[uint32]uint64{}
	for _, ci := range b.ChunkInfos {
		for _, cc := range ci.Conns {
			n[cc.Conn] += uint64(cc.Count)
		}
	}
	return n
}

// TimeRange returns the earliest chunk start and the latest chunk end.
func (b *Bag) TimeRange() (start, end Time) {
	for i, ci := range b.ChunkInfos {
		if i == 0 || ci.Start.Before(start) {
			start = ci.Start
		}
		if i == 0 || end.Before(ci.End) {
			end = ci.End
		}
	}
	return start, end
}

// Summary computes the bag's summary. It reads the header of every chunk
// record (a few dozen bytes each) for the compression figures; a chunk
// header that cannot be read is counted under "unknown" and returned as
// the error alongside a complete summary otherwise.
func (b *Bag) Summary() (*Summary, error) {
	s := &Summary{
		Path:        b.path,
		Version:     b.Version,
		Size:        b.size,
		Indexed:     b.Scan == nil,
		Chunks:      len(b.ChunkInfos),
		Compression: map[string]int{},
	}
	s.Start, s.End = b.TimeRange()
	var firstErr error
	for _, ci := range b.ChunkInfos {
		s.Messages += ci.Messages()
		ch, err := b.ChunkHeader(ci)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			s.Compression["unknown"]++
			continue
		}
		s.Compression[ch.Compression]++
		s.CompressedBytes += uint64(ch.DataLen)
		s.UncompressedBytes += uint64(ch.Size)
	}
	counts := b.ConnectionCounts()
	byTopic := map[string]*TopicSummary{}
	types := map[TypeSummary]bool{}
	for _, c := range b.Connections {
		t := byTopic[c.Topic]
		if t == nil {
			t = &TopicSummary{Topic: c.Topic, Type: c.Type, MD5Sum: c.MD5Sum}
			byTopic[c.Topic] = t
		}
		t.Messages += counts[c.ID]
		t.Connections = append(t.Connections, c)
		if c.Type != t.Type && !containsStr(t.Types, c.Type) {
			if len(t.Types) == 0 {
				t.Types = append(t.Types, t.Type)
			}
			t.Types = append(t.Types, c.Type)
		}
		types[TypeSummary{c.Type, c.MD5Sum}] = true
	}
	for _, t := range byTopic {
		s.Topics = append(s.Topics, *t)
	}
	sort.Slice(s.Topics, func(i, j int) bool { return s.Topics[i].Topic < s.Topics[j].Topic })
	for t := range types {
		s.Types = append(s.Types, t)
	}
	sort.Slice(s.Types, func(i, j int) bool {
		if s.Types[i].Type != s.Types[j].Type {
			return s.Types[i].Type < s.Types[j].Type
		}
		return s.Types[i].MD5Sum < s.Types[j].MD5Sum
	})
	return s, firstErr
}

func containsStr(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// CompressionNames returns the compressions of the bag's chunks, most
// chunks first (as rosbag info lists them), ties by name.
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
