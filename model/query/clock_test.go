package query

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
)

// TestFindClock: @clock is the sim time of the last /clock received at or
// before the message; a message before the first /clock has none.
func TestFindClock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clock.bag")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ros1.NewWriter(f, ros1.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range [][3]string{{"/clock", "rosgraph_msgs/Clock", "time clock"}, {"/x", "std_msgs/Int32", "int32 data"}} {
		plan, err := rosmsg.Compile(d[1], d[2])
		if err != nil {
			t.Fatal(err)
		}
		c := &ros1.Connection{ID: uint32(i), Topic: d[0], Type: d[1], MD5Sum: plan.MD5, MessageDefinition: d[2]}
		for _, kv := range [][2]string{{"topic", d[0]}, {"type", d[1]}, {"md5sum", plan.MD5}, {"message_definition", d[2]}} {
			c.Fields = append(c.Fields, ros1.Field{Name: kv[0], Value: []byte(kv[1])})
		}
		if err := w.AddConnection(c); err != nil {
			t.Fatal(err)
		}
	}
	// /x at 0, 10, ..., 90 ms; /clock at 25 and 55 ms, sim 7 s and 8 s.
	for k := 0; k < 10; k++ {
		ms := int64(k * 10)
		if ms == 30 || ms == 60 {
			sim := uint32(7 + (ms-30)/30)
			cl := int64(1700000000)*1e9 + (ms-5)*1e6
			w.WriteMessage(0, ros1.Time{Sec: uint32(cl / 1e9), NSec: uint32(cl % 1e9)}, binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, sim), 0))
		}
		at := int64(1700000000)*1e9 + ms*1e6
		if err := w.WriteMessage(1, ros1.Time{Sec: uint32(at / 1e9), NSec: uint32(at % 1e9)}, binary.LittleEndian.AppendUint32(nil, uint32(k))); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s, err := model.OpenStorage(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res, err := Find(context.Background(), s, "@clock >= 7", bag.MessageFilter{Topics: []string{"/x"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, h := range res.Hits {
		got = append(got, (h.Time.Nanos()-int64(1700000000)*1e9)/1e6)
		if v := h.Values[0]; v.Name != "@clock" || (got[len(got)-1] < 55) != (v.Int == 7e9) {
			t.Errorf("hit at %d ms: %s", got[len(got)-1], v)
		}
	}
	if len(got) != 7 || got[0] != 30 {
		t.Errorf("hits at %v ms, want 30..90", got)
	}
}
