package ros1

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag/sweeptest"
	"github.com/pierrec/lz4/v4"
)

// lz4TestData returns n bytes that compress a little: words with random
// runs, so frames get compressed and (with noise) uncompressed blocks.
func lz4TestData(n int, noise bool) []byte {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	var b bytes.Buffer
	for b.Len() < n {
		if noise && r.IntN(4) == 0 {
			for range 300 {
				b.WriteByte(byte(r.Uint32()))
			}
			continue
		}
		fmt.Fprintf(&b, "msg %d value %.3f frame_id base_link ", r.IntN(1000), r.Float64())
	}
	return b.Bytes()[:n]
}

func lz4Frame(t testing.TB, data []byte, opts ...lz4.Option) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := lz4.NewWriter(&buf)
	if err := w.Apply(opts...); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestXXH32(t *testing.T) {
	// Known answers from the xxHash reference (seed 0).
	for _, c := range []struct {
		in   string
		want uint32
	}{
		{"", 0x02CC5D05},
		{"a", 0x550D7456},
		{"abc", 0x32D153FF},
		{"Nobody inspects the spammish repetition", 0xE2293B2F},
	} {
		if got := xxh32([]byte(c.in)); got != c.want {
			t.Errorf("xxh32(%q) = %#08x, want %#08x", c.in, got, c.want)
		}
	}
}

// TestDecodeLZ4Frame decodes frames with every option the frame format has
// and compares with the frame reader; the frames' checksums also check xxh32
// at many lengths.
func TestDecodeLZ4Frame(t *testing.T) {
	type tc struct {
		name  string
		frame []byte
		data  []byte
	}
	var cases []tc
	for _, n := range []int{0, 1, 15, 16, 17, 1000, 64 << 10, 300 << 10, 1<<20 + 7} {
		for _, noise := range []bool{false, true} {
			data := lz4TestData(n, noise)
			for _, o := range []struct {
				name string
				opts []lz4.Option
			}{
				{"default", nil},
				{"64k-blocksum-size", []lz4.Option{lz4.BlockSizeOption(lz4.Block64Kb), lz4.BlockChecksumOption(true), lz4.SizeOption(uint64(n))}},
				{"4m-nosum", []lz4.Option{lz4.BlockSizeOption(lz4.Block4Mb), lz4.ChecksumOption(false)}},
			} {
				cases = append(cases, tc{fmt.Sprintf("%d-noise=%v-%s", n, noise, o.name), lz4Frame(t, data, o.opts...), data})
			}
		}
	}
	// Linked blocks, as the lz4 command writes them with -BD.
	if _, err := exec.LookPath("lz4"); err == nil {
		for _, n := range []int{200 << 10, 1 << 20} {
			data := lz4TestData(n, true)
			in := filepath.Join(t.TempDir(), "in")
			if err := os.WriteFile(in, data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, flags := range [][]string{{"-BD", "-B4"}, {"-BD", "-B4", "-BX", "--content-size"}} {
				frame, err := exec.Command("lz4", append(flags, "-c", in)...).Output()
				if err != nil {
					t.Fatal(err)
				}
				if frame[4]&0x20 != 0 { // FLG: blocks are independent
					t.Fatalf("lz4 %v wrote independent blocks", flags)
				}
				cases = append(cases, tc{fmt.Sprintf("lz4cmd-%d%v", n, flags), frame, data})
			}
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := decodeLZ4Frame(nil, c.frame, len(c.data))
			if err != nil {
				t.Fatalf("decodeLZ4Frame: %v", err)
			}
			if !bytes.Equal(got, c.data) {
				t.Fatalf("decoded %d bytes, differ from the %d written", len(got), len(c.data))
			}
			ref, err := io.ReadAll(lz4.NewReader(bytes.NewReader(c.frame)))
			if err != nil || !bytes.Equal(ref, got) {
				t.Fatalf("frame reader disagrees (err %v)", err)
			}
			// Reusing a too-small and a large buffer gives the same.
			for _, dst := range [][]byte{make([]byte, 3), make([]byte, 10, len(c.data)+100)} {
				if again, err := decodeLZ4Frame(dst, c.frame, len(c.data)); err != nil || !bytes.Equal(again, c.data) {
					t.Fatalf("with a reused buffer: %v", err)
				}
			}
		})
	}
}

// lz4DamageEvery: without -long, TestDecodeLZ4FrameDamage flips one in
// so many of its byte positions (every 97th byte of the two frames; the
// sample shifts with BAGSCOPE_SAMPLE): the whole sweep, ~2,000 decodes of
// 200 KiB under -race, was 76 s of bag/ros1 at load 17-20. go test -long
// (make test-long) flips every one.
const lz4DamageEvery = 4

// TestDecodeLZ4FrameDamage checks that damaged frames give errors, never
// panics or wrong data, and that a lying size is caught.
func TestDecodeLZ4FrameDamage(t *testing.T) {
	sweeptest.Note(t, lz4DamageEvery, "the flipped byte positions")
	data := lz4TestData(200<<10, true)
	frame := lz4Frame(t, data, lz4.BlockSizeOption(lz4.Block64Kb), lz4.BlockChecksumOption(true))
	plain := lz4Frame(t, data)
	if out, err := Decompress(CompressionLZ4, nil, plain, uint32(len(data)-1)); err == nil {
		t.Fatalf("a chunk size one too small gave no error (%d bytes)", len(out))
	}
	if _, err := Decompress(CompressionLZ4, nil, plain, uint32(len(data)+1)); err == nil {
		t.Fatal("a chunk size one too large gave no error")
	}
	for k, i := 0, 4; i < len(frame); k, i = k+1, i+97 {
		// Byte 4, the frame descriptor's flags, is always flipped.
		if k > 0 && !sweeptest.Keep(k, lz4DamageEvery) {
			continue
		}
		for _, f := range [][]byte{frame, plain} {
			if i >= len(f) {
				continue
			}
			bad := bytes.Clone(f)
			bad[i] ^= 0x5a
			out, err := Decompress(CompressionLZ4, nil, bad, uint32(len(data)))
			if err == nil && !bytes.Equal(out, data) {
				t.Fatalf("flipping byte %d gave wrong data without an error", i)
			}
			// Frames that leave the fast path get the frame reader's
			// errors, which ReadChunkData files under ErrMalformed.
			if err != nil && i > 5 && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrTruncated) {
				t.Fatalf("flipping byte %d: error %v is not ErrMalformed or ErrTruncated", i, err)
			}
		}
	}
	for _, n := range []int{0, 3, 6, 7, 11, 100, len(plain) - 4, len(plain) - 1} {
		if _, err := Decompress(CompressionLZ4, nil, plain[:n], uint32(len(data))); err == nil {
			t.Fatalf("frame cut to %d bytes gave no error", n)
		}
	}
}

// BenchmarkLZ4Frame compares the block walker with the frame reader on a
// chunk-sized frame like roslz4's.
func BenchmarkLZ4Frame(b *testing.B) {
	data := lz4TestData(768<<10, false)
	frame := lz4Frame(b, data, lz4.BlockSizeOption(lz4.Block1Mb))
	b.Run("blocks", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		var dst []byte
		for b.Loop() {
			var err error
			if dst, err = decodeLZ4Frame(dst, frame, len(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reader", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		var d lz4Decompressor
		var dst []byte
		for b.Loop() {
			d.src.Reset(frame)
			if d.r == nil {
				d.r = lz4.NewReader(&d.src)
			} else {
				d.r.Reset(&d.src)
			}
			var err error
			if dst, err = readAllLimited(dst, d.r, len(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("xxh32", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			xxh32(data)
		}
	})
}
