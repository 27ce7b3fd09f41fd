package lz4frame

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pierrec/lz4/v4"
)

var errCut, errBad = errors.New("cut"), errors.New("bad")

// frame writes data as one LZ4 frame with pierrec/lz4's writer.
func frame(t *testing.T, data []byte, opts ...lz4.Option) []byte {
	t.Helper()
	var b bytes.Buffer
	w := lz4.NewWriter(&b)
	if err := w.Apply(opts...); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDecode decodes frames pierrec/lz4 writes, and damaged ones: a wrong
// content checksum fails unless SkipContentSum, a frame cut between
// blocks wraps Truncated, a wrong block checksum or a block cut short wraps
// Malformed.
func TestDecode(t *testing.T) {
	data := bytes.Repeat([]byte("sensor_msgs/msg/Imu 0.125 -9.81 base_link "), 20000)
	for i := range data {
		if i%97 == 0 {
			data[i] = byte(i)
		}
	}
	sums := frame(t, data, lz4.ChecksumOption(true), lz4.BlockChecksumOption(true), lz4.BlockSizeOption(lz4.Block64Kb))
	badContent := bytes.Clone(sums)
	badContent[len(badContent)-1] ^= 1
	badBlock := bytes.Clone(sums)
	// The first block's checksum follows its 4-byte size and its bytes.
	n := int(le32(badBlock[7:]) &^ (1 << 31))
	badBlock[7+4+n] ^= 1
	cases := []struct {
		name  string
		frame []byte
		skip  bool
		want  error
	}{
		{"checksums", sums, false, nil},
		{"no checksum", frame(t, data, lz4.ChecksumOption(false)), false, nil},
		{"4 MB blocks", frame(t, data, lz4.BlockSizeOption(lz4.Block4Mb)), false, nil},
		{"wrong content checksum", badContent, false, errBad},
		{"wrong content checksum, skipped", badContent, true, nil},
		{"wrong block checksum", badBlock, true, errBad},
		{"cut after a block", sums[:7+4+n+4], false, errCut},
		{"cut inside a block", sums[:7+4+n/2], false, errBad},
		{"not a frame", []byte("hello, world"), false, ErrUnusual},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Decode(nil, tc.frame, len(data), Options{SkipContentSum: tc.skip, Truncated: errCut, Malformed: errBad})
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("error %v, want %v", err, tc.want)
				}
				return
			}
			if err != nil || !bytes.Equal(out, data) {
				t.Fatalf("%d bytes, %v; want the %d bytes written", len(out), err, len(data))
			}
		})
	}
}

// TestXXH32 checks the hash against the specification's reference values.
func TestXXH32(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint32
	}{{"", 0x02cc5d05}, {"a", 0x550d7456}, {"abc", 0x32d153ff}, {"Nobody inspects the spammish repetition", 0xe2293b2f}} {
		if got := XXH32([]byte(c.in)); got != c.want {
			t.Errorf("XXH32(%q) = %#08x, want %#08x", c.in, got, c.want)
		}
	}
}

// TestBlockErrorSaysWhichBlock: a frame of 64 KiB blocks (pierrec/lz4's
// writer) with its second block damaged decodes to its first block, and
// the error says the second block's bytes, from its size field to the
// end of its checksum, as the frame format lays them out; without block
// checksums the block fails to decode, and the error says the same span
// without the checksum.
func TestBlockErrorSaysWhichBlock(t *testing.T) {
	data := bytes.Repeat([]byte("sensor_msgs/msg/Imu 0.125 -9.81 base_link "), 20000)
	for _, sums := range []bool{true, false} {
		f := frame(t, data, lz4.BlockChecksumOption(sums), lz4.BlockSizeOption(lz4.Block64Kb))
		sumLen := 0
		if sums {
			sumLen = 4
		}
		first := int(le32(f[7:]) &^ (1 << 31))
		second := 7 + 4 + first + sumLen // the second block's size field
		n := int(le32(f[second:]) &^ (1 << 31))
		bad := bytes.Clone(f)
		for i := second + 4; i < second+4+n; i++ {
			bad[i] = 0xff // the whole block: no decoder reads it as valid
		}
		out, err := Decode(nil, bad, len(data), Options{Truncated: errCut, Malformed: errBad})
		var be *BlockError
		if !errors.As(err, &be) || !errors.Is(err, errBad) {
			t.Fatalf("block checksums %v: error %v, want a BlockError wrapping Malformed", sums, err)
		}
		if be.Start != second || be.End != second+4+n+sumLen {
			t.Errorf("block checksums %v: the error says [%d, %d), the second block is [%d, %d)", sums, be.Start, be.End, second, second+4+n+sumLen)
		}
		if len(out) != 64<<10 || !bytes.Equal(out, data[:len(out)]) {
			t.Errorf("block checksums %v: %d bytes decoded, want the first block's %d", sums, len(out), 64<<10)
		}
	}
}
