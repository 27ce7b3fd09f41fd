package model

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/msgref"
)

// testBags are the sample bag and every shared bag that opens.
func testBags(t *testing.T) map[string]bag.Storage {
	t.Helper()
	out := map[string]bag.Storage{}
	out["sample"] = openSampleDoc(t).Storage
	for _, p := range reftest.SharedBagPaths(t, sharedBags) {
		b, err := ros1.OpenOrScan(p)
		if err != nil {
			continue // not a bag, or one that cannot be read: TestOpenSharedBags covers those
		}
		if b.Scan != nil {
			b.DropUnreadableChunks()
		}
		t.Cleanup(func() { b.Close() })
		out[strings.TrimPrefix(p, sharedBags+"/")] = ros1.NewStore(b)
	}
	return out
}

// TestReadMessageMatchesIterator reads every message the iterator yields
// (the first 3000 of each bag) by its location and compares what Read
// returns with what the iterator gave: the same connection, time and bytes,
// at the same place in the chunk.
func TestReadMessageMatchesIterator(t *testing.T) {
	for name, b := range testBags(t) {
		t.Run(name, func(t *testing.T) {
			r := NewMessageReader(b, nil)
			it := b.Messages(bag.MessageFilter{})
			defer it.Close()
			n := 0
			for it.Next() && n < 3000 {
				n++
				m := it.Message()
				ref := msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}}
				got, err := r.Read(ref)
				if err != nil {
					t.Fatalf("message %d at %+v: %v", n, ref, err)
				}
				if got.Conn.ID != m.Conn.ID || got.Time != m.Time || !bytes.Equal(got.Data, m.Data) ||
					got.DataOffset != m.DataOffset || got.RecordStart != int64(m.Loc.Offset) {
					t.Fatalf("message %d at %+v: read conn %d time %v %d bytes at %d (record %d); iterator conn %d time %v %d bytes at %d",
						n, ref, got.Conn.ID, got.Time, len(got.Data), got.DataOffset, got.RecordStart,
						m.Conn.ID, m.Time, len(m.Data), m.DataOffset)
				}
				if !bytes.Equal(got.Context[got.DataOffset:got.RecordEnd], got.Data) {
					t.Fatalf("message %d: Data is not the chunk's bytes at its record", n)
				}
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestMessageReaderKeepsTwoChunks reads messages from three chunks and
// checks that only the last two stay cached, and that a cached chunk is
// not read again.
func TestMessageReaderKeepsTwoChunks(t *testing.T) {
	d, x := openSampleIndexed(t)
	byChunk := map[int64]msgref.Ref{}
	for _, tm := range x.Topics {
		for _, ref := range tm.All() {
			byChunk[ref.ChunkPos] = ref
		}
	}
	if len(byChunk) < 3 {
		t.Fatalf("the sample has %d chunks", len(byChunk))
	}
	r := NewMessageReader(d.Storage, nil)
	var order []int64
	var first *Message
	for _, ci := range d.Bag.ChunkInfos[:3] {
		m, err := r.Read(byChunk[ci.ChunkPos])
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = m
		}
		order = append(order, ci.ChunkPos)
	}
	if r.chunks[0].pos != order[2] || r.chunks[1].pos != order[1] {
		t.Fatalf("cached chunks %d, %d; want %d, %d", r.chunks[0].pos, r.chunks[1].pos, order[2], order[1])
	}
	again, err := r.Read(byChunk[order[1]])
	if err != nil {
		t.Fatal(err)
	}
	if &again.Context[0] != &r.chunks[0].data[0] || r.chunks[1].pos != order[2] {
		t.Fatal("a cached chunk was read again or not moved to the front")
	}
	// A message of an evicted chunk keeps its bytes.
	if len(first.Data) == 0 || first.Conn == nil {
		t.Fatal("evicted message lost its data")
	}
}

// TestFieldTreeOffsets checks, for bytes of the first messages of each
// topic (every byte of small messages, 512 spread over big ones), that At
// finds a listed node holding the byte with no listed child holding it, and
// that the spans cover the record exactly once.
func TestFieldTreeOffsets(t *testing.T) {
	for name, b := range testBags(t) {
		t.Run(name, func(t *testing.T) {
			x, err := BuildMessageIndex(context.Background(), b, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := NewMessageReader(b, nil)
			for _, tm := range x.Topics {
				for _, ref := range tm.Range(0, 3) {
					m, err := r.Read(ref)
					if err != nil {
						t.Fatal(err)
					}
					root, _, err := r.Decode(m)
					if err != nil {
						continue // definitions the decoder rejects are tested in rosmsg
					}
					checkTreeOffsets(t, tm.Topic, m, root)
				}
			}
		})
	}
}

func checkTreeOffsets(t *testing.T, topic string, m *Message, root *rosmsg.Node) {
	t.Helper()
	ft := NewFieldTree(root)
	step := max(1, root.End/512)
	for off := 0; off < root.End; off += step {
		id := ft.At(off)
		n := ft.Node(id)
		if n == nil || off < n.Start || off >= n.End {
			t.Fatalf("%s: byte %d: At gives %q, a node at %v", topic, off, id, n)
		}
		if n.Array && len(n.Children) == 0 && n.Len() > 0 {
			// A compact array: At stops at it only in its length prefix
			// or too far in to list the element.
			s, e := n.ElemRange(0)
			if off >= s && (off-s)/(e-s) < fieldTreeAutoShow {
				t.Fatalf("%s: byte %d: At gives array %q, not its element", topic, off, id)
			}
			continue
		}
		for _, c := range ft.Children(id) {
			if cn := ft.Node(c); cn != nil && off >= cn.Start && off < cn.End {
				t.Fatalf("%s: byte %d: At gives %q but its child %q holds the byte", topic, off, id, c)
			}
		}
	}
	spans := MessageSpans(m, root)
	at := m.RecordStart
	for _, s := range spans {
		if s.Start != at || s.End <= s.Start {
			t.Fatalf("%s: span %v starts at %d, want %d (spans in order, without gaps)", topic, s, s.Start, at)
		}
		at = s.End
	}
	if at != m.RecordEnd {
		t.Fatalf("%s: spans end at %d, record at %d", topic, at, m.RecordEnd)
	}
}

// TestFieldTreePathsReadSameValues compiles the path of every plottable
// node with rosmsg.CompilePath, which reads a value by skipping over the
// bytes before it, and checks it reads the node's value.
func TestFieldTreePathsReadSameValues(t *testing.T) {
	for name, b := range testBags(t) {
		t.Run(name, func(t *testing.T) {
			x, err := BuildMessageIndex(context.Background(), b, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := NewMessageReader(b, nil)
			for _, tm := range x.Topics {
				m, err := r.Read(tm.At(tm.Len() / 2))
				if err != nil {
					t.Fatal(err)
				}
				root, _, err := r.Decode(m)
				if err != nil {
					continue
				}
				plan, _ := r.Cache.Get(m.Conn.Type, m.Conn.MD5Sum, m.Conn.Definition)
				ft := NewFieldTree(root)
				checked := 0
				walkTree(ft, "", func(id string) {
					if !ft.Plottable(id) {
						return
					}
					p, err := rosmsg.CompilePath(plan, ft.Path(id))
					if err != nil {
						t.Fatalf("%s: path %q of %q: %v", tm.Topic, ft.Path(id), id, err)
					}
					got, err := p.Float64(m.Data)
					want, _ := ft.Node(id).Float64()
					if err != nil || !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
						t.Fatalf("%s: %s reads %v (%v), the tree has %v", tm.Topic, ft.Path(id), got, err, want)
					}
					checked++
				})
				if checked == 0 && len(plan.Paths()) > 0 {
					t.Errorf("%s: no plottable node though the type has paths %v", tm.Topic, plan.Paths()[:1])
				}
			}
		})
	}
}

// walkTree calls f on every listed node under id, depth first.
func walkTree(ft *FieldTree, id string, f func(id string)) {
	for _, c := range ft.Children(id) {
		if IsMore(c) {
			continue
		}
		f(c)
		walkTree(ft, c, f)
	}
}

// refMessage is one line of testdata/msg_ref.py.
type refMessage struct {
	Topic  string         `json:"topic"`
	T      int64          `json:"t"`
	Fields map[string]any `json:"fields"`
}

// TestDecodeMatchesGenpy compares the tree's values with what genpy (the
// reference: rosbag's Python reader) decodes, path by path, for the first
// messages of every topic of the sample bag and a shared bag.
func TestDecodeMatchesGenpy(t *testing.T) {
	reftest.RequireRef(t)
	for _, path := range []string{"../assets/sample.bag", sharedBags + "/cra-ros-pkg__robot_localization/test/test2.bag"} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if _, err := os.Stat(path); err != nil {
				reftest.SkipOrFail(t, err)
			}
			const perTopic = 20
			cmd := exec.Command(reftest.Python, "testdata/msg_ref.py", path, strconv.Itoa(perTopic))
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("msg_ref.py: %v", err)
			}
			want := map[string][]refMessage{}
			sc := bufio.NewScanner(bytes.NewReader(out))
			sc.Buffer(nil, 64<<20)
			for sc.Scan() {
				var m refMessage
				if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
					t.Fatal(err)
				}
				want[m.Topic] = append(want[m.Topic], m)
			}
			rb, err := ros1.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer rb.Close()
			b := ros1.NewStore(rb)
			x, err := BuildMessageIndex(context.Background(), b, nil)
			if err != nil {
				t.Fatal(err)
			}
			r := NewMessageReader(b, nil)
			compared := 0
			for topic, refs := range want {
				tm := x.Topic(topic)
				if tm == nil || tm.Len() < len(refs) {
					t.Fatalf("%s: genpy reads %d messages, the index has %v", topic, len(refs), tm)
				}
				for i, rm := range refs {
					ref := tm.At(i)
					if ref.T != rm.T {
						t.Fatalf("%s message %d: time %d, genpy %d", topic, i, ref.T, rm.T)
					}
					m, err := r.Read(ref)
					if err != nil {
						t.Fatal(err)
					}
					root, _, err := r.Decode(m)
					if err != nil {
						t.Fatalf("%s message %d: %v", topic, i, err)
					}
					got := flatTree(NewFieldTree(root))
					for p, wv := range rm.Fields {
						gv, ok := got[p]
						if !ok {
							t.Fatalf("%s message %d: no field %s in the tree", topic, i, p)
						}
						if !sameValue(gv, wv) {
							t.Fatalf("%s message %d: %s is %v, genpy %v", topic, i, p, gv, wv)
						}
						compared++
					}
					if len(got) != len(rm.Fields) {
						t.Fatalf("%s message %d: %d fields in the tree, %d from genpy", topic, i, len(got), len(rm.Fields))
					}
				}
			}
			if compared == 0 {
				t.Fatal("nothing compared")
			}
			t.Logf("%d values compared", compared)
		})
	}
}

// flatTree maps the path of every value node of ft, as msg_ref.py lists
// them (no uint8 arrays, at most 64 elements of an array), to its value.
func flatTree(ft *FieldTree) map[string]any {
	out := map[string]any{}
	var walk func(id string)
	walk = func(id string) {
		for k, c := range ft.Children(id) {
			n := ft.Node(c)
			if n == nil || k >= 64 && ft.Node(id).Array {
				continue
			}
			switch {
			case n.Array && n.Kind == rosmsg.KindUint8:
			case n.Array || n.Kind == rosmsg.KindMessage:
				walk(c)
			case n.Kind == rosmsg.KindTime:
				tm := n.Time()
				out[ft.Path(c)] = []any{float64(tm.Sec), float64(tm.Nsec)}
			case n.Kind == rosmsg.KindDuration:
				d := n.Duration()
				out[ft.Path(c)] = []any{float64(d.Sec), float64(d.Nsec)}
			case n.Kind == rosmsg.KindString:
				out[ft.Path(c)] = n.Text()
			case n.Kind == rosmsg.KindBool:
				out[ft.Path(c)] = n.Bool()
			default:
				v, _ := n.Float64()
				out[ft.Path(c)] = v
			}
		}
	}
	walk("")
	return out
}

// sameValue compares a tree value with a JSON-decoded genpy value.
func sameValue(got, want any) bool {
	switch w := want.(type) {
	case float64:
		g, ok := got.(float64)
		return ok && g == w
	case bool:
		// genpy gives bool fields as ints.
		g, ok := got.(bool)
		return ok && g == w
	case string:
		g, ok := got.(string)
		if !ok {
			if f, isF := got.(float64); isF {
				return w == "nan" && math.IsNaN(f) || w == "inf" && math.IsInf(f, 1) || w == "-inf" && math.IsInf(f, -1)
			}
		}
		return ok && g == w
	case []any:
		g, ok := got.([]any)
		return ok && len(g) == len(w) && g[0] == w[0] && g[1] == w[1]
	}
	return false
}

func TestFieldTreeOpenFirst(t *testing.T) {
	d, x := openSampleIndexed(t)
	r := NewMessageReader(d.Storage, nil)
	tests := []struct {
		topic string
		want  string // paths of the opened branches
	}{
		{"/imu", "header orientation angular_velocity linear_acceleration"},
		{"/tf", "transforms transforms[0] transforms[0].header transforms[0].transform transforms[0].transform.translation transforms[0].transform.rotation"},
		{"/camera/image_raw", "header"},
	}
	for _, tt := range tests {
		t.Run(tt.topic, func(t *testing.T) {
			m, err := r.Read(x.Topic(tt.topic).At(0))
			if err != nil {
				t.Fatal(err)
			}
			root, _, err := r.Decode(m)
			if err != nil {
				t.Fatal(err)
			}
			ft := NewFieldTree(root)
			var got []string
			for _, id := range ft.OpenFirst(24) {
				got = append(got, ft.Path(id))
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("opens %v, want %s", got, tt.want)
			}
		})
	}
}
