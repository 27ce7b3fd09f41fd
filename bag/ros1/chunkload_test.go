package ros1

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// TestLoadInOrder checks that chunks come in the order given with the data
// ReadChunkData gives, and that an error from fn stops the loading.
func TestLoadInOrder(t *testing.T) {
	b, err := Open("../../testdata/lz4-multichunk.bag")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var chunks []*Chunk
	for i := len(b.ChunkInfos) - 1; i >= 0; i-- { // backwards: order is the caller's
		ch, err := b.ChunkAt(b.ChunkInfos[i].ChunkPos)
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, ch)
	}
	if len(chunks) < 5 {
		t.Fatalf("%d chunks; the test needs more than the workers' lead", len(chunks))
	}
	n := 0
	err = b.loadInOrder(context.Background(), chunks, func(ch *Chunk, data []byte, err error) error {
		if err != nil || ch != chunks[n] {
			t.Fatalf("call %d: chunk at %d (%v), want the one at %d", n, ch.Offset, err, chunks[n].Offset)
		}
		want, err := b.ReadChunkData(ch, nil)
		if err != nil || !bytes.Equal(data, want) {
			t.Fatalf("chunk at %d: data differs (%v)", ch.Offset, err)
		}
		n++
		return nil
	})
	if err != nil || n != len(chunks) {
		t.Fatalf("%v after %d of %d chunks", err, n, len(chunks))
	}

	stop := errors.New("stop")
	n = 0
	err = b.loadInOrder(context.Background(), chunks, func(*Chunk, []byte, error) error {
		if n++; n == 2 {
			return stop
		}
		return nil
	})
	if err != stop || n != 2 {
		t.Errorf("got %v after %d calls, want the stop after 2", err, n)
	}
}
