package model

import (
	"fmt"
	"slices"
	"testing"
)

func TestRecent(t *testing.T) {
	var saved string
	r := &Recent{Save: func(s string) { saved = s }}
	r.Load("/a.bag\n/b.bag\n\n/a.bag")
	if got := r.Paths(); !slices.Equal(got, []string{"/a.bag", "/b.bag"}) {
		t.Fatalf("loaded %q", got)
	}
	r.Add("/b.bag")
	if saved != "/b.bag\n/a.bag" {
		t.Errorf("saved %q after moving /b.bag to the front", saved)
	}
	for i := range 12 {
		r.Add(fmt.Sprintf("/%d.bag", i))
	}
	got := r.Paths()
	if len(got) != MaxRecent || got[0] != "/11.bag" || got[MaxRecent-1] != "/2.bag" {
		t.Errorf("after 12 adds: %q", got)
	}
	r.Remove("/11.bag")
	if r.Paths()[0] != "/10.bag" || saved != r.String() {
		t.Errorf("after remove: %q, saved %q", r.Paths(), saved)
	}
	var r2 Recent
	r2.Load(r.String())
	if !slices.Equal(r2.Paths(), r.Paths()) {
		t.Errorf("round trip: %q != %q", r2.Paths(), r.Paths())
	}
	r.Clear()
	if len(r.Paths()) != 0 || saved != "" {
		t.Errorf("after clear: %q %q", r.Paths(), saved)
	}
}
