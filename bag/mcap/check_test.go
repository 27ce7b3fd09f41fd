package mcap

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

func errorsOf(r *bag.CheckReport) []string {
	var out []string
	for _, f := range r.Findings {
		if f.Severity == bag.Error {
			out = append(out, f.Record+": "+f.Message)
		}
	}
	return out
}

func TestCheckHealthy(t *testing.T) {
	for _, p := range sharedMCAPs(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			r := openBytes(t, readFile(t, p))
			var calls int
			rep, err := r.Check(context.Background(), func(done, total int64) { calls++ })
			if err != nil {
				t.Fatal(err)
			}
			if e := errorsOf(rep); len(e) > 0 {
				t.Errorf("errors on a healthy file:\n%s", strings.Join(e, "\n"))
			}
			s, _ := r.Summary()
			if rep.Messages != s.Messages {
				t.Errorf("check counts %d messages, summary %d", rep.Messages, s.Messages)
			}
			if calls == 0 {
				t.Error("no progress")
			}
		})
	}
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			data, want := genMCAP(t, v, 100, 1024)
			rep, err := openBytes(t, data).Check(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if e := errorsOf(rep); len(e) > 0 {
				t.Errorf("errors on a healthy file:\n%s", strings.Join(e, "\n"))
			}
			if rep.Messages != uint64(len(want)) {
				t.Errorf("%d messages, wrote %d", rep.Messages, len(want))
			}
		})
	}
}

// damage is one way of breaking a generated file, and what the doctor must
// then say.
type damage struct {
	name  string
	apply func(t *testing.T, data []byte, r *Reader) []byte
	want  string // a substring of one error finding
}

func TestCheckFindsDamage(t *testing.T) {
	v := variant{name: "zstd", compression: "zstd", chunked: true, attach: true}
	footerField := func(data []byte, field int) int { return len(data) - tailLen + recHeaderLen + field }
	cases := []damage{
		{"cut", func(t *testing.T, d []byte, r *Reader) []byte { return d[:len(d)-100] }, "does not end with the MCAP magic"},
		{"flipped chunk byte", func(t *testing.T, d []byte, r *Reader) []byte {
			b := r.Blocks()[1]
			d[b.Offset+b.Len/2] ^= 0xff
			return d
		}, "chunk"},
		{"chunk uncompressed size", func(t *testing.T, d []byte, r *Reader) []byte {
			b := r.Blocks()[0]
			binary.LittleEndian.PutUint64(d[b.Offset+recHeaderLen+16:], b.UncompressedSize+1)
			return d
		}, "uncompressed"},
		{"summary_start", func(t *testing.T, d []byte, r *Reader) []byte {
			p := footerField(d, 0)
			binary.LittleEndian.PutUint64(d[p:], binary.LittleEndian.Uint64(d[p:])+1)
			return d
		}, "summary_start"},
		{"summary crc", func(t *testing.T, d []byte, r *Reader) []byte {
			d[footerField(d, 16)] ^= 1
			return d
		}, "summary_crc"},
		{"statistics count", func(t *testing.T, d []byte, r *Reader) []byte {
			off := r.stats.Offset
			binary.LittleEndian.PutUint64(d[off+recHeaderLen:], 7)
			return d
		}, "message_count is 7"},
		{"message index entry", func(t *testing.T, d []byte, r *Reader) []byte {
			c := r.chunks[0]
			for _, o := range c.MsgIdx {
				binary.LittleEndian.PutUint64(d[int64(o)+recHeaderLen+6:], 12345) // first entry's time
				break
			}
			return d
		}, "log_time"},
		{"data end crc", func(t *testing.T, d []byte, r *Reader) []byte {
			b := r.Blocks()[0]
			d[b.Offset+recHeaderLen] ^= 1 // message_start_time's low byte
			return d
		}, "data_section_crc"},
		{"chunk index", func(t *testing.T, d []byte, r *Reader) []byte {
			b := r.Blocks()[0]
			d[b.Offset+recHeaderLen+8] ^= 1 // message_end_time, not covered by the chunk index
			return d
		}, "chunk index"},
		{"garbage", func(t *testing.T, d []byte, r *Reader) []byte {
			b := r.Blocks()[1]
			for i := range 40 {
				d[b.Offset+int64(i)] = 0
			}
			return d
		}, "not a readable record"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, _ := genMCAP(t, v, 200, 1024)
			bad := c.apply(t, data, openBytes(t, data))
			rep, err := openBytes(t, bad).Check(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			e := errorsOf(rep)
			found := false
			for _, m := range e {
				found = found || strings.Contains(m, c.want)
			}
			if !found {
				t.Errorf("no error mentions %q; errors:\n%s", c.want, strings.Join(e, "\n"))
			}
		})
	}
}

func TestCheckCancel(t *testing.T) {
	data, _ := genMCAP(t, variants()[0], 200, 1024)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := openBytes(t, data).Check(ctx, nil); err == nil {
		t.Error("a cancelled check returns no error")
	}
}
