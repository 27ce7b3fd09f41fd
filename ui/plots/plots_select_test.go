package plots

import (
	"slices"
	"testing"
)

// TestPlotSelectorPath adds a path with [*] (one series per /tf frame) and
// one that selects nothing, and checks the Fields list offers the frames
// the sampled messages hold.
func TestPlotSelectorPath(t *testing.T) {
	g, _ := newTestPlots(t, "../../testdata/none-multichunk.bag")
	listed := g.fields.paths()
	for _, want := range []string{"/tf.transforms[child_frame_id=laser].transform.translation.x", "/tf.transforms[*].transform.translation.x"} {
		if !slices.Contains(listed, want) {
			t.Errorf("the Fields list lacks %s", want)
		}
	}
	p := g.panels[0]
	g.add(p, "/tf.transforms[*].transform.translation.x")
	var names []string
	for _, s := range p.series {
		if s.err != nil || s.ms == nil {
			t.Fatalf("%s: %v", s.path, s.err)
		}
		names = append(names, s.name())
	}
	want := []string{"/tf.transforms[child_frame_id=base_link].transform.translation.x", "/tf.transforms[child_frame_id=laser].transform.translation.x"}
	if !slices.Equal(names, want) {
		t.Fatalf("series %q, want %q", names, want)
	}
	g.add(p, "/tf.transforms[5:].transform.translation.x")
	if last := p.series[len(p.series)-1]; last.err == nil {
		t.Error("a path selecting nothing has no error")
	}
}
