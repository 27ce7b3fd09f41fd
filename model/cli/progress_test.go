package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestProgressLine(t *testing.T) {
	var buf bytes.Buffer
	if p := newProgress(&buf, "checking"); p.w != nil {
		t.Fatal("a buffer is not a terminal: the line must be off")
	}
	p := &progressLine{w: &buf, what: "checking"}
	p.update(1, 4)
	p.update(2, 4) // within 100 ms: not redrawn
	if got := buf.String(); got != "\rchecking  25% " {
		t.Errorf("drawn %q", got)
	}
	p.end()
	if got := buf.String(); !strings.HasSuffix(got, "\r              \r") {
		t.Errorf("not erased: %q", got)
	}
	// Off: nothing is written.
	buf.Reset()
	off := newProgress(&buf, "x")
	off.update(1, 2)
	off.end()
	if buf.Len() != 0 {
		t.Errorf("wrote %q while off", buf.String())
	}
}
