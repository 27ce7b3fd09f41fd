package mcap

import (
	"bytes"
	"context"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// FuzzOpen opens arbitrary bytes and uses every reading path: nothing may
// panic, hang or allocate from an unchecked length.
func FuzzOpen(f *testing.F) {
	for _, v := range variants() {
		data, _ := genMCAP(f, v, 6, 256)
		f.Add(data)
	}
	f.Add([]byte(Magic))
	f.Add([]byte(Magic + "\x01\xff\xff\xff\xff\xff\xff\xff\x7f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data), int64(len(data)), "")
		if err != nil {
			return
		}
		r.Summary()
		for _, b := range r.Blocks() {
			ents, _ := r.BlockIndex(b)
			for _, e := range ents[:min(len(ents), 4)] {
				r.ReadMessage(e.Conn, e.Loc)
			}
			r.BlockRecords(b.Offset)
		}
		it := r.Messages(bag.MessageFilter{})
		for it.Next() {
			_ = it.Message().Data
		}
		it.Close()
		n := 0
		r.Records(context.Background(), 0, func(*bag.Record) bool { n++; return n < 10000 })
		r.Check(context.Background(), nil)
		var out memWS
		r.Repair(&out, "")
	})
}
