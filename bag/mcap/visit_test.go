package mcap

import (
	"bytes"
	"context"
	"fmt"
	"hash/crc32"
	"slices"
	"sync"
	"testing"

	"github.com/bagscope/bagscope/bag"
	lib "github.com/foxglove/mcap/go/mcap"
	"github.com/klauspost/compress/zstd"
)

// visitRecs collects the messages VisitMessages hands over.
func visitRecs(t *testing.T, s bag.Storage, f bag.MessageFilter) []rec {
	t.Helper()
	var mu sync.Mutex
	var out []rec
	err := bag.VisitMessages(context.Background(), s, f, func(m *bag.Message) {
		r := rec{Time: uint64(m.Time.Nanos()), Pub: uint64(m.PublishTime.Nanos()), Topic: m.Conn.Topic, CRC: crc32.ChecksumIEEE(m.Data), Len: len(m.Data)}
		mu.Lock()
		out = append(out, r)
		mu.Unlock()
	})
	if err != nil {
		t.Fatalf("VisitMessages: %v", err)
	}
	sortRecs(out)
	return out
}

// TestVisitMessages: the parallel visit hands over exactly the messages
// the iterator gives, for every way of writing a file, with filters, and
// for a file cut in the middle of a chunk.
func TestVisitMessages(t *testing.T) {
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			data, _ := genMCAP(t, v, 700, 1024)
			for name, b := range map[string][]byte{"whole": data, "cut": data[:len(data)*2/3]} {
				r, err := NewReader(bytesReader(b), int64(len(b)), "")
				if err != nil {
					if name == "cut" {
						continue // nothing to read without the summary
					}
					t.Fatal(err)
				}
				const t0 = 1_700_000_000_000_000_000
				for _, f := range []bag.MessageFilter{{}, {Topics: []string{"/imu"}}, {Start: bag.TimeFromNanos(t0 + 200e6), End: bag.TimeFromNanos(t0 + 500e6)}} {
					want, _ := ourRecs(t, r, f)
					sortRecs(want)
					if len(want) == 0 {
						t.Fatalf("%s %+v: the iterator gives no message", name, f)
					}
					got := visitRecs(t, r, f)
					if len(got) != len(want) {
						t.Fatalf("%s %+v: %d messages visited, the iterator gives %d", name, f, len(got), len(want))
					}
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s %+v: message %d is %+v, the iterator's %+v", name, f, i, got[i], want[i])
						}
					}
				}
			}
		})
	}
}

// TestVisitMessagesCancel: a cancelled context ends the visit with its
// error.
func TestVisitMessagesCancel(t *testing.T) {
	data, _ := genMCAP(t, variants()[2], 700, 1024)
	r := openBytes(t, data)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	err := r.VisitMessages(ctx, bag.MessageFilter{}, func(*bag.Message) { n++ })
	if err != context.Canceled || n != 0 {
		t.Fatalf("%d messages, error %v; want none and context.Canceled", n, err)
	}
}

// TestMessageZstdInMCAP: messages stored as zstd frames (rosbag2's
// MESSAGE compression mode) in an MCAP come out decompressed through the
// seam, whether the iterator's hint (DataMayBeZstd, from the worker) or
// the parallel visit finds them, and plain ones come out as they are.
func TestMessageZstdInMCAP(t *testing.T) {
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := lib.NewWriter(&buf, &lib.WriterOptions{Chunked: true, ChunkSize: 4096, Compression: lib.CompressionLZ4, IncludeCRC: true})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteHeader(&lib.Header{Profile: "ros2"})
	w.WriteSchema(&lib.Schema{ID: 1, Name: "std_msgs/msg/String", Encoding: "ros2msg", Data: []byte("string data")})
	w.WriteChannel(&lib.Channel{ID: 1, SchemaID: 1, Topic: "/chatter", MessageEncoding: "cdr"})
	want := map[uint64]string{}
	for i := range 500 {
		text := fmt.Sprintf("hello %d %s", i, bytes.Repeat([]byte("x"), i%50))
		cdr := append([]byte{0, 1, 0, 0, byte(len(text) + 1), 0, 0, 0}, text...)
		cdr = append(cdr, 0)
		data := cdr
		if i%3 != 0 {
			data = enc.EncodeAll(cdr, nil)
		}
		ts := uint64(1e18) + uint64(i)
		want[ts] = string(cdr)
		if err := w.WriteMessage(&lib.Message{ChannelID: 1, LogTime: ts, Data: data}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	s, err := bag.NewStorage(bytes.NewReader(data), int64(len(data)), "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check := func(how string, m *bag.Message) {
		if w, ok := want[uint64(m.Time.Nanos())]; !ok || string(m.Data) != w {
			t.Fatalf("%s: message at %v is %q, want %q", how, m.Time, m.Data, w)
		}
	}
	it := s.Messages(bag.MessageFilter{})
	n := 0
	for ; it.Next(); n++ {
		check("iterator", it.Message())
	}
	it.Close()
	var mu sync.Mutex
	v := 0
	if err := bag.VisitMessages(context.Background(), s, bag.MessageFilter{}, func(m *bag.Message) {
		mu.Lock()
		defer mu.Unlock()
		check("visit", m)
		v++
	}); err != nil {
		t.Fatal(err)
	}
	if n != len(want) || v != len(want) {
		t.Fatalf("%d messages read, %d visited; want %d", n, v, len(want))
	}
}

// TestCheckVisits: a check carrying a message visitor hands it every
// message the iterator gives (each once), says so (Visited), and finds
// what the check without a visitor finds, for every way of writing a
// file and for a file cut in the middle of a chunk.
func TestCheckVisits(t *testing.T) {
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			data, _ := genMCAP(t, v, 700, 1024)
			for name, b := range map[string][]byte{"whole": data, "cut": data[:len(data)*2/3]} {
				r, err := NewReader(bytesReader(b), int64(len(b)), "")
				if err != nil {
					continue // the cut file without its summary
				}
				want, _ := ourRecs(t, r, bag.MessageFilter{})
				sortRecs(want)
				plain, err := r.Check(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				var mu sync.Mutex
				var got []rec
				ctx := bag.WithMessageVisitor(context.Background(), func(m *bag.Message) {
					r := rec{Time: uint64(m.Time.Nanos()), Pub: uint64(m.PublishTime.Nanos()), Topic: m.Conn.Topic, CRC: crc32.ChecksumIEEE(m.Data), Len: len(m.Data)}
					mu.Lock()
					got = append(got, r)
					mu.Unlock()
				})
				rep, err := r.Check(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !rep.Visited || plain.Visited {
					t.Fatalf("%s: Visited %v with a visitor, %v without; want true, false", name, rep.Visited, plain.Visited)
				}
				if fmt.Sprint(rep.Findings) != fmt.Sprint(plain.Findings) {
					t.Fatalf("%s: the findings differ with a visitor:\n%v\nwithout:\n%v", name, rep.Findings, plain.Findings)
				}
				sortRecs(got)
				if len(got) != len(want) {
					t.Fatalf("%s: %d messages visited, the iterator gives %d", name, len(got), len(want))
				}
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%s: message %d is %+v, the iterator's %+v", name, i, got[i], want[i])
					}
				}
			}
		})
	}
}

// TestCheckVisitsWantedConns: a check whose visitor wants one connection
// only (bag.WithVisitedConns) hands it exactly the messages of that
// connection the iterator gives, each once, says so (Visited), and finds
// what the check without a visitor finds, for every way of writing a file
// (loose messages too) and for a file cut in the middle of a chunk.
func TestCheckVisitsWantedConns(t *testing.T) {
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			data, _ := genMCAP(t, v, 700, 1024)
			for name, b := range map[string][]byte{"whole": data, "cut": data[:len(data)*2/3]} {
				r, err := NewReader(bytesReader(b), int64(len(b)), "")
				if err != nil || len(r.conns) < 2 {
					continue // the cut file without its summary
				}
				conn := r.conns[1]
				want, _ := ourRecs(t, r, bag.MessageFilter{Conns: []uint32{conn.ID}})
				sortRecs(want)
				plain, err := r.Check(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				var mu sync.Mutex
				var got []rec
				ctx := bag.WithVisitedConns(bag.WithMessageVisitor(context.Background(), func(m *bag.Message) {
					r := rec{Time: uint64(m.Time.Nanos()), Pub: uint64(m.PublishTime.Nanos()), Topic: m.Conn.Topic, CRC: crc32.ChecksumIEEE(m.Data), Len: len(m.Data)}
					mu.Lock()
					got = append(got, r)
					mu.Unlock()
				}), []uint32{conn.ID})
				rep, err := r.Check(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !rep.Visited {
					t.Fatalf("%s: not Visited", name)
				}
				if fmt.Sprint(rep.Findings) != fmt.Sprint(plain.Findings) {
					t.Fatalf("%s: the findings differ with a visitor:\n%v\nwithout:\n%v", name, rep.Findings, plain.Findings)
				}
				sortRecs(got)
				if len(want) == 0 || !slices.Equal(got, want) {
					t.Fatalf("%s: %d messages of %s visited, the iterator gives %d", name, len(got), conn.Topic, len(want))
				}
			}
		})
	}
}

// TestVisitMessagesSkipped: a chunk damaged inside (its compressed data
// garbled) is skipped by the parallel visit as by the iterator, and the
// visit says so with the same byte range.
func TestVisitMessagesSkipped(t *testing.T) {
	v := variants()[8] // chunked zstd with summary and message indexes
	data, _ := genMCAP(t, v, 700, 1024)
	r := openBytes(t, data)
	blocks := r.Blocks()
	if len(blocks) < 3 {
		t.Fatalf("%d chunks", len(blocks))
	}
	bad := bytes.Clone(data)
	mid := blocks[len(blocks)/2]
	for i := mid.Offset + mid.Len/2; i < mid.Offset+mid.Len/2+64; i++ {
		bad[i] ^= 0x5a
	}
	r = openBytes(t, bad)
	want, wantSkipped := ourRecs(t, r, bag.MessageFilter{})
	if len(wantSkipped) == 0 {
		t.Fatal("the iterator skips nothing")
	}
	var mu sync.Mutex
	n := 0
	skipped, err := bag.VisitMessagesSkipped(context.Background(), r, bag.MessageFilter{}, func(*bag.Message) {
		mu.Lock()
		n++
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Errorf("visited %d messages, the iterator gives %d", n, len(want))
	}
	if fmt.Sprint(skipped) != fmt.Sprint(wantSkipped) {
		t.Errorf("skipped %v, the iterator %v", skipped, wantSkipped)
	}
}
