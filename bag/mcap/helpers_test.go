package mcap

import (
	"bytes"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/bagscope/bagscope/bag"
	lib "github.com/foxglove/mcap/go/mcap"
)

const sharedBags = "../../../shared/bags"

// sharedMCAPs lists every .mcap file under the shared fixtures.
func sharedMCAPs(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(sharedBags, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && filepath.Ext(p) == ".mcap" {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Skipf("no shared bags: %v", err)
	}
	sort.Strings(out)
	return out
}

// rec is one message reduced to what tests compare.
type rec struct {
	Time, Pub uint64
	Topic     string
	CRC       uint32
	Len       int
	// Suspect is set for a message read with a reason not to trust it.
	Suspect bool
}

func sortRecs(r []rec) {
	sort.SliceStable(r, func(i, j int) bool {
		a, b := r[i], r[j]
		if a.Time != b.Time {
			return a.Time < b.Time
		}
		if a.Topic != b.Topic {
			return a.Topic < b.Topic
		}
		return a.CRC < b.CRC
	})
}

// libRecs reads every message with the library's reader.
func libRecs(t testing.TB, data []byte) []rec {
	t.Helper()
	rd, err := lib.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("library reader: %v", err)
	}
	it, err := rd.Messages(lib.UsingIndex(true), lib.InOrder(lib.LogTimeOrder))
	if err != nil {
		rd, _ = lib.NewReader(bytes.NewReader(data))
		if it, err = rd.Messages(lib.UsingIndex(false)); err != nil {
			t.Fatalf("library messages: %v", err)
		}
	}
	var out []rec
	for {
		_, ch, m, err := it.NextInto(nil)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("library next: %v", err)
		}
		out = append(out, rec{Time: m.LogTime, Pub: m.PublishTime, Topic: ch.Topic, CRC: crc32.ChecksumIEEE(m.Data), Len: len(m.Data)})
	}
	return out
}

// ourRecs reads every message through Messages and checks their order
// (readRecs, failing the test on its error).
func ourRecs(t testing.TB, s bag.Storage, f bag.MessageFilter) ([]rec, []bag.ByteRange) {
	t.Helper()
	out, skipped, err := readRecs(s, f)
	if err != nil {
		t.Fatal(err)
	}
	return out, skipped
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

func openBytes(t testing.TB, data []byte) *Reader {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), int64(len(data)), "")
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return r
}

func readFile(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
