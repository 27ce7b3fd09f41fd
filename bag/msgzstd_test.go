package bag_test

import (
	"bytes"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/bagscope/bagscope/bag"
)

// memStorage is a Storage of messages held in memory, for the seam's tests.
type memStorage struct {
	bag.Storage // nil: only the methods below are called
	conns       []*bag.Connection
	msgs        []bag.Message
}

func (s *memStorage) Connections() []*bag.Connection { return s.conns }
func (s *memStorage) Messages(bag.MessageFilter) bag.MessageIter {
	return &memIter{msgs: s.msgs, i: -1}
}
func (s *memStorage) ReadMessage(_ uint32, loc bag.Loc) (*bag.Message, error) {
	m := s.msgs[loc.Offset]
	return &m, nil
}

type memIter struct {
	msgs []bag.Message
	i    int
}

func (it *memIter) Next() bool            { it.i++; return it.i < len(it.msgs) }
func (it *memIter) Message() *bag.Message { return &it.msgs[it.i] }
func (it *memIter) Err() error            { return nil }
func (it *memIter) Close()                {}

// TestMessageDecompression: CDR messages stored as zstd frames (rosbag2's
// MESSAGE mode) are read decompressed, plain ones as they are, a frame that
// does not decompress is skipped and reported, and ROS 1 messages are never
// touched even when they start with the zstd magic.
func TestMessageDecompression(t *testing.T) {
	enc, _ := zstd.NewWriter(nil)
	plain := []byte{0, 1, 0, 0, 42, 0, 0, 0}
	frame := enc.EncodeAll(plain, nil)
	bad := append(bytes.Clone(frame[:len(frame)-3]), 1, 2, 3)
	cdr := &bag.Connection{ID: 1, Topic: "/a", Encoding: "cdr"}
	ros1 := &bag.Connection{ID: 2, Topic: "/b", Encoding: "ros1"}
	src := &memStorage{conns: []*bag.Connection{cdr, ros1}, msgs: []bag.Message{
		{Conn: cdr, Data: frame, Loc: bag.Loc{Offset: 0}},
		{Conn: cdr, Data: plain, Loc: bag.Loc{Offset: 1}},
		{Conn: cdr, Data: bad, Loc: bag.Loc{Offset: 2}},
		{Conn: ros1, Data: frame, Loc: bag.Loc{Offset: 3}},
	}}
	s := bag.WithMessageDecompression(src)
	it := s.Messages(bag.MessageFilter{})
	var got [][]byte
	for it.Next() {
		got = append(got, bytes.Clone(it.Message().Data))
	}
	want := [][]byte{plain, plain, frame}
	if len(got) != len(want) {
		t.Fatalf("%d messages, want %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("message %d = % x, want % x", i, got[i], want[i])
		}
	}
	sk := it.(interface{ Skipped() []bag.ByteRange }).Skipped()
	if len(sk) != 1 {
		t.Errorf("skipped %v, want the bad frame", sk)
	}
	m, err := s.ReadMessage(1, bag.Loc{Offset: 0})
	if err != nil || !bytes.Equal(m.Data, plain) {
		t.Errorf("ReadMessage = % x, %v", m.Data, err)
	}
	if src.msgs[0].Data[0] != 0x28 {
		t.Error("ReadMessage changed the storage's own message")
	}
	if _, err := s.ReadMessage(1, bag.Loc{Offset: 2}); err == nil {
		t.Error("a bad frame read without error")
	}
	only1 := &memStorage{conns: []*bag.Connection{ros1}}
	if bag.WithMessageDecompression(only1) != bag.Storage(only1) {
		t.Error("a storage without CDR connections was wrapped")
	}
}
