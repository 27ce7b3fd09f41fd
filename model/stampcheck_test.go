package model

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

const stampedDef = "Header header\nfloat64 x\n" + "================================================================================\n" +
	"MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id"

// stampedBag writes a ROS 1 bag of test_msgs/Stamped messages on three
// topics, received every 10 ms from 1700000000: /good stamped 5 ms before
// it is received, /zero stamped 0 from the 3rd message on, /ahead stamped
// 2 s after from the 5th, /back stamped 0.5 s back at the 7th and 8th.
func stampedBag(t *testing.T) string {
	t.Helper()
	plan, err := rosmsg.Compile("test_msgs/Stamped", stampedDef)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "stamps.bag")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ros1.NewWriter(f, ros1.WriterOptions{ChunkThreshold: 512})
	if err != nil {
		t.Fatal(err)
	}
	topics := []string{"/good", "/zero", "/ahead", "/back"}
	for i, topic := range topics {
		c := &ros1.Connection{ID: uint32(i), Topic: topic, Type: plan.Type, MD5Sum: plan.MD5, MessageDefinition: stampedDef}
		for _, kv := range [][2]string{{"topic", topic}, {"type", plan.Type}, {"md5sum", plan.MD5}, {"message_definition", stampedDef}} {
			c.Fields = append(c.Fields, ros1.Field{Name: kv[0], Value: []byte(kv[1])})
		}
		if err := w.AddConnection(c); err != nil {
			t.Fatal(err)
		}
	}
	for k := 0; k < 20; k++ {
		for i, topic := range topics {
			recv := int64(1700000000)*1e9 + int64(k)*10e6 + int64(i)*1e6
			stamp := recv - 5e6
			switch {
			case topic == "/zero" && k >= 2:
				stamp = 0
			case topic == "/ahead" && k >= 4:
				stamp = recv + 2e9
			case topic == "/back" && (k == 6 || k == 7):
				stamp = recv - 500e6
			}
			var d []byte
			d = binary.LittleEndian.AppendUint32(d, uint32(k))
			d = binary.LittleEndian.AppendUint32(d, uint32(stamp/1e9))
			d = binary.LittleEndian.AppendUint32(d, uint32(stamp%1e9))
			d = binary.LittleEndian.AppendUint32(d, 0)
			d = binary.LittleEndian.AppendUint64(d, 0)
			if err := w.WriteMessage(uint32(i), ros1.Time{Sec: uint32(recv / 1e9), NSec: uint32(recv % 1e9)}, d); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// TestStampFindings: the doctor flags stamps in 1970, after their receive
// time and going backwards, per topic, at the chunk of the first message
// concerned, for a ROS 1 bag (whose doctor decodes the payloads itself
// and hands the stamps their messages as it reads them, model.StampsAsRead)
// and for the same recording as MCAP (read once too: the stamps are looked
// at where the chunks are decompressed).
func TestStampFindings(t *testing.T) {
	path := stampedBag(t)
	src, err := OpenStorage(path)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var buf bytes.Buffer
	if _, err := mcap.Write(&buf, src, mcap.WriteOptions{ChunkSize: 1024}); err != nil {
		t.Fatal(err)
	}
	mpath := filepath.Join(t.TempDir(), "stamps.mcap")
	if err := os.WriteFile(mpath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, mpath} {
		t.Run(filepath.Ext(p), func(t *testing.T) {
			s, err := OpenStorage(p)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			rep, err := CheckStorage(context.Background(), s, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{
				"/zero":  "18 of 20 messages have a header.stamp in 1970 (the first received at 1700000000.021000000",
				"/ahead": "16 of 20 messages have a header.stamp after the time they were received (the first received at 1700000000.042000000, stamped 2.000 s later",
				"/back":  "1 messages have a header.stamp earlier than the message received before them (the first received at 1700000000.063000000, 0.485000 s back; at most 0.485000 s)",
			}
			got := map[string]bag.Finding{}
			for _, f := range rep.Findings {
				for topic := range want {
					if strings.HasPrefix(f.Message, topic+": ") {
						if _, dup := got[topic]; dup {
							t.Errorf("two findings on %s: %s", topic, f.Message)
						}
						got[topic] = f
					}
				}
				if strings.HasPrefix(f.Message, "/good") {
					t.Errorf("a finding on /good: %s", f.Message)
				}
			}
			for topic, w := range want {
				f, ok := got[topic]
				if !ok || !strings.Contains(f.Message, w) || f.Severity != bag.Warning {
					t.Errorf("%s: finding %+v, want %q", topic, f, w)
					continue
				}
				if f.Offset <= 0 {
					t.Errorf("%s: offset %d", topic, f.Offset)
				}
			}
			// A quick check does not look.
			rep, err = CheckStorage(bag.WithQuickCheck(context.Background()), s, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Findings {
				if strings.Contains(f.Message, "header.stamp") {
					t.Errorf("quick check: %s", f.Message)
				}
			}
		})
	}
}

// backwardsRef is the order check on every message at once: sorted by
// receive time then place, the stamps earlier than the one before.
func backwardsRef(obs []stampObs) (backStep, int64) {
	s := append([]stampObs(nil), obs...)
	sort.Slice(s, func(i, j int) bool { return before(s[i], s[j]) })
	var b backStep
	var n int64
	for i := 1; i < len(s); i++ {
		if d := s[i-1].stamp - s[i].stamp; d > 0 {
			if n == 0 {
				b.first, b.firstBy = s[i], d
			}
			n++
			b.worst = max(b.worst, d)
		}
	}
	return b, n
}

// TestStampOrderRuns: the order check on runs, fed a connection's messages
// chunk by chunk the way parallel doctors do (several chunks at once,
// interleaved, finishing out of order), in far more chunks than it keeps
// runs, finds exactly what sorting every message finds; messages out of
// order inside a chunk, or chunks far out of time order, are said to be
// counted approximately unless the count is exact.
func TestStampOrderRuns(t *testing.T) {
	cases := []struct {
		name                  string
		chunks, per, inFlight int
		jitter                bool // log times out of order inside chunks
		shuffle               bool // chunks in random time order in the file
	}{
		{"one chunk at a time", 500, 40, 1, false, false},
		{"three at once", 500, 40, 3, false, false},
		{"five at once, tiny chunks", 2000, 3, 5, false, false},
		{"jitter inside chunks", 50, 40, 3, true, false},
		{"chunks out of time order", 500, 20, 3, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(tc.chunks)))
			// Chunk k holds messages received at increasing times; every
			// 37th stamp steps back by a varying amount.
			var all []stampObs
			chunks := make([][]stampObs, tc.chunks)
			order := rng.Perm(tc.chunks)
			for k := range chunks {
				tk := k
				if tc.shuffle {
					tk = order[k]
				}
				for i := range tc.per {
					log := int64(tk*tc.per+i) * 1000
					if tc.jitter && i%5 == 3 {
						log -= 2500
					}
					stamp := log - 100
					if (tk*tc.per+i)%37 == 0 {
						stamp -= int64(rng.IntN(5000))
					}
					o := stampObs{log: log, stamp: stamp, loc: bag.Loc{Block: int64(k+1) * 4096, Offset: uint32(i) * 16}}
					chunks[k] = append(chunks[k], o)
					all = append(all, o)
				}
			}
			st := &stampConn{}
			// Feed tc.inFlight chunks at a time, one message of a random
			// one of them after another.
			next := 0
			var open [][]stampObs
			for next < len(chunks) || len(open) > 0 {
				for len(open) < tc.inFlight && next < len(chunks) {
					open = append(open, chunks[next])
					next++
				}
				i := rng.IntN(len(open))
				st.see(open[i][0])
				if open[i] = open[i][1:]; len(open[i]) == 0 {
					open = append(open[:i], open[i+1:]...)
				}
				if len(st.runs) > maxStampRuns {
					t.Fatalf("%d runs kept", len(st.runs))
				}
			}
			gotB, gotN := st.order()
			wantB, wantN := backwardsRef(all)
			if wantN == 0 {
				t.Fatal("the test data has no stamp going backwards")
			}
			if st.loose {
				if !tc.jitter && !tc.shuffle {
					t.Errorf("said approximate on chunks in time order")
				}
				if gotN == wantN && gotB == wantB {
					t.Logf("approximate, yet exact: %d", gotN)
				}
				return
			}
			if gotN != wantN || gotB != wantB {
				t.Errorf("got %d back (%+v), want %d (%+v)", gotN, gotB, wantN, wantB)
			}
		})
	}
}
