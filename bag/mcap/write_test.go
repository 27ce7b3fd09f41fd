package mcap

import (
	"bytes"
	"context"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// memWS is an in-memory io.WriteSeeker.
type memWS struct {
	b   []byte
	pos int64
}

func (m *memWS) Write(p []byte) (int, error) {
	if need := m.pos + int64(len(p)); need > int64(len(m.b)) {
		m.b = append(m.b, make([]byte, need-int64(len(m.b)))...)
	}
	copy(m.b[m.pos:], p)
	m.pos += int64(len(p))
	return len(p), nil
}

func (m *memWS) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		m.pos = off
	case io.SeekCurrent:
		m.pos += off
	case io.SeekEnd:
		m.pos = int64(len(m.b)) + off
	}
	if m.pos < 0 {
		return 0, errors.New("negative position")
	}
	return m.pos, nil
}

func TestRepair(t *testing.T) {
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			data, want := genMCAP(t, v, 300, 2048)
			inputs := map[string][]byte{"healthy": data, "cut": data[:len(data)*2/3]}
			if v.chunked {
				bad := bytes.Clone(data)
				b := openBytes(t, data).Blocks()[2]
				bad[b.Offset+b.Len/2] ^= 0xff
				inputs["flipped"] = bad
			}
			for name, in := range inputs {
				src := openBytes(t, in)
				read, skipped := ourRecs(t, src, bag.MessageFilter{})
				// The copy holds the messages that can be trusted.
				var salvaged []rec
				for _, m := range read {
					if !m.Suspect {
						salvaged = append(salvaged, m)
					}
				}
				if sus := uint64(len(read) - len(salvaged)); sus > 0 {
					if rep, err := src.Repair(&memWS{}, ""); err == nil && rep.Suspect != sus {
						t.Errorf("%s: %d suspect messages read, the report leaves out %d", name, sus, rep.Suspect)
					}
				}
				var out memWS
				rep, err := src.Repair(&out, "")
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if rep.Messages != uint64(len(salvaged)) {
					t.Errorf("%s: report says %d messages kept, %d salvaged", name, rep.Messages, len(salvaged))
				}
				if name == "healthy" && !rep.Complete() {
					t.Errorf("healthy: lost %v", rep.Lost)
				}
				if name != "healthy" && rep.Complete() && len(salvaged) < len(want) {
					t.Errorf("%s: %d of %d messages salvaged, but the report says nothing was lost", name, len(salvaged), len(want))
				}
				if len(skipped) > 0 && len(rep.Lost) == 0 {
					t.Errorf("%s: skipped %v, but nothing lost", name, skipped)
				}
				fixed := openBytes(t, out.b)
				if !fixed.FileInfo().Indexed || fixed.FileInfo().Scanned != nil {
					t.Errorf("%s: repaired file is not indexed", name)
				}
				back, sk := ourRecs(t, fixed, bag.MessageFilter{})
				if len(sk) > 0 {
					t.Errorf("%s: repaired file has damage %v", name, sk)
				}
				if !reflect.DeepEqual(back, salvaged) {
					t.Errorf("%s: repaired file holds %d messages, %d were salvaged", name, len(back), len(salvaged))
				}
				if lib := libRecs(t, out.b); len(lib) != len(back) {
					t.Errorf("%s: the library reads %d messages from the repaired file, we %d", name, len(lib), len(back))
				}
				crep, err := fixed.Check(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				if e := errorsOf(crep); len(e) > 0 {
					t.Errorf("%s: the doctor finds errors in the repaired file:\n%s", name, strings.Join(e, "\n"))
				}
				if name == "healthy" && v.attach && (len(fixed.Attachments()) != 1 || len(fixed.Metadata()) != 1) {
					t.Errorf("healthy: %d attachments, %d metadata after repair", len(fixed.Attachments()), len(fixed.Metadata()))
				}
			}
		})
	}
}

// memStorage is a bag.Storage over messages in memory, standing for
// another format's reader (a ROS 1 bag).
type memStorage struct {
	conns []*bag.Connection
	msgs  []bag.Message
}

func (m *memStorage) FileInfo() *bag.FileInfo        { return &bag.FileInfo{Format: "test"} }
func (m *memStorage) Connections() []*bag.Connection { return m.conns }
func (m *memStorage) Connection(id uint32) *bag.Connection {
	for _, c := range m.conns {
		if c.ID == id {
			return c
		}
	}
	return nil
}
func (m *memStorage) Summary() (*bag.Summary, error)                  { return &bag.Summary{}, nil }
func (m *memStorage) Blocks() []*bag.Block                            { return nil }
func (m *memStorage) BlockIndex(*bag.Block) ([]bag.IndexEntry, error) { return nil, nil }
func (m *memStorage) ReadMessage(uint32, bag.Loc) (*bag.Message, error) {
	return nil, errors.New("no")
}
func (m *memStorage) Check(context.Context, func(int64, int64)) (*bag.CheckReport, error) {
	return &bag.CheckReport{}, nil
}
func (m *memStorage) Close() error { return nil }
func (m *memStorage) Messages(bag.MessageFilter) bag.MessageIter {
	return &memIter{msgs: m.msgs, i: -1}
}

type memIter struct {
	msgs []bag.Message
	i    int
}

func (it *memIter) Next() bool            { it.i++; return it.i < len(it.msgs) }
func (it *memIter) Message() *bag.Message { return &it.msgs[it.i] }
func (it *memIter) Err() error            { return nil }
func (it *memIter) Close()                {}

func TestWriteROS1(t *testing.T) {
	c1 := &bag.Connection{ID: 0, Topic: "/chatter", Type: "std_msgs/String", Encoding: "ros1", Definition: "string data\n",
		MD5Sum: "992ce8a1687cec8c8bd883ec73ca41d1", CallerID: "/talker", Latching: true, Metadata: map[string]string{"message_definition_extra": "x"}}
	c2 := &bag.Connection{ID: 70000, Topic: "/imu", Type: "sensor_msgs/Imu", Encoding: "ros1", Definition: "float64 x\n", MD5Sum: "abc"}
	src := &memStorage{conns: []*bag.Connection{c1, c2}}
	for i := range 50 {
		c := c1
		if i%2 == 1 {
			c = c2
		}
		ts := bag.TimeFromNanos(int64(1e18) + int64(i)*1e6)
		src.msgs = append(src.msgs, bag.Message{Conn: c, Time: ts, PublishTime: ts, Data: genMessage(i)})
	}
	for _, comp := range []string{"none", "lz4", "zstd"} {
		var out bytes.Buffer
		rep, err := Write(&out, src, WriteOptions{Compression: comp, ChunkSize: 512})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Messages != 50 || rep.Kept["/chatter"] != 25 {
			t.Errorf("%s: report %+v", comp, rep)
		}
		r := openBytes(t, out.Bytes())
		if p, _ := r.Header(); p != "ros1" {
			t.Errorf("%s: profile %q", comp, p)
		}
		conns := r.Connections()
		if len(conns) != 2 {
			t.Fatalf("%s: %d channels", comp, len(conns))
		}
		var got *bag.Connection
		for _, c := range conns {
			if c.Topic == "/chatter" {
				got = c
			}
		}
		if got.Type != c1.Type || got.Encoding != "ros1" || got.SchemaEncoding != "ros1msg" || got.Definition != c1.Definition ||
			got.MD5Sum != c1.MD5Sum || got.CallerID != "/talker" || !got.Latching || got.Metadata["message_definition_extra"] != "x" {
			t.Errorf("%s: channel %+v", comp, got)
		}
		it := r.Messages(bag.MessageFilter{})
		i := 0
		for it.Next() {
			m := it.Message()
			if m.Time != src.msgs[i].Time || !bytes.Equal(m.Data, src.msgs[i].Data) || m.Conn.Topic != src.msgs[i].Conn.Topic {
				t.Fatalf("%s: message %d differs", comp, i)
			}
			i++
		}
		if i != 50 {
			t.Errorf("%s: %d messages read back", comp, i)
		}
		if s, _ := r.Summary(); s.Compression[compressionName(map[string]string{"none": ""}[comp]+map[string]string{"lz4": "lz4", "zstd": "zstd"}[comp])] == 0 {
			t.Errorf("%s: compressions %v", comp, s.Compression)
		}
	}
}
