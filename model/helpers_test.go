package model

import (
	"context"
	"testing"

	"github.com/bagscope/bagscope/assets"
)

// openSampleDoc opens the embedded sample bag, closed when the test ends.
func openSampleDoc(t testing.TB) *Document {
	t.Helper()
	d, err := OpenBytes(context.Background(), assets.SampleName, assets.SampleBag, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// openSampleIndexed opens the sample bag and builds its message index.
func openSampleIndexed(t testing.TB) (*Document, *MessageIndex) {
	t.Helper()
	d := openSampleDoc(t)
	x, err := BuildMessageIndex(context.Background(), d.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d, x
}
