package sceneview

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model/scene"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// The window places each message with the transforms at its own stamp
// (model/scene's make_stamped.py: base_link moves, the pose is stamped
// 0.5 s before it is received), and the status line says which message
// is extrapolated (/early, stamped before any transform).
func TestScenePlacesAtStamp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stamped.bag")
	if out, err := exec.Command("/usr/bin/python3", "../../model/scene/testdata/make_stamped.py", "write", path).CombinedOutput(); err != nil {
		t.Fatalf("make_stamped.py: %v\n%s", err, out)
	}
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, path)
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	v := New(l)
	w := test.NewTempWindow(t, v.Content())
	w.Resize(fyne.NewSize(1000, 700))
	t0 := d.Summary.Start.Nanos() - 1e9 // the first message, /tf, is at 1 s
	l.SetCursor(t0 + 5_250_000_000)
	s := v.Scene()
	if s == nil || s.Frame != "odom" {
		t.Fatalf("scene %+v", s)
	}
	// /pose of 5.0 s, stamped 4.5 s, where the reference reader's
	// messages put it by tf2's rule (base_link at 4.5 s, not 5.2 s).
	out, err := exec.Command("/usr/bin/python3", "../../model/scene/testdata/make_stamped.py", "ref", path, "5.25").Output()
	if err != nil {
		t.Fatalf("make_stamped.py ref: %v", err)
	}
	var want map[string]struct{ X, Y, Used float64 }
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	if w := want["/pose"]; w.Used != 4.5 {
		t.Fatalf("the reference used the transform of %g s", w.Used)
	}
	var at *scene.Layer
	for i := range s.Layers {
		if s.Layers[i].Topic == "/pose" {
			at = &s.Layers[i]
		}
	}
	if at == nil || at.Count != 1 || at.Note != "" {
		t.Fatalf("/pose layer %+v", at)
	}
	found := false
	for _, ln := range s.Lines {
		if near(ln.A[0], want["/pose"].X, 1e-6) && near(ln.A[1], want["/pose"].Y, 1e-6) {
			found = true
		}
	}
	if !found {
		t.Errorf("no pose arrow from the place at its stamp; lines %+v", s.Lines)
	}
	if got := v.title.Text; !strings.Contains(got, "/early: extrapolated") || strings.Contains(got, "/pose: extrapolated") {
		t.Errorf("status %q", got)
	}
}

func near(a, b, tol float64) bool { return a-b <= tol && b-a <= tol }
