package uitest

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	ttwidget "github.com/dweymouth/fyne-tooltip/widget"

	"github.com/bagscope/bagscope/ui/widgets"
)

// AssertMarkup compares c's markup with testdata/name, or rewrites it with
// -update.
func AssertMarkup(t *testing.T, name string, c fyne.Canvas) {
	t.Helper()
	if *update {
		path := filepath.Join("testdata", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(test.RenderToMarkup(c)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	test.AssertRendersToMarkup(t, name, c)
}

// Shown returns the markup of what w shows, to search for texts.
func Shown(w fyne.Window) string { return test.RenderToMarkup(w.Canvas()) }

// ShownLines is the window's markup followed by the texts of the line
// labels on screen: a LineLabel is a raster, so the markup has no text.
func ShownLines(w fyne.Window) string {
	var b strings.Builder
	b.WriteString(Shown(w))
	for _, o := range test.LaidOutObjects(w.Content()) {
		var l *widgets.LineLabel
		switch o := o.(type) {
		case *widgets.LineLabel:
			l = o
		case *widgets.TipLine:
			l = &o.LineLabel
		}
		if l != nil && l.Visible() && l.Text != "" {
			b.WriteString("\n" + l.Text)
		}
	}
	return b.String()
}

// ShownObjects returns o and everything it shows, through the renderers
// the canvas uses (test.LaidOutObjects makes new renderers, which leaves
// widgets such as Label updating renderers nobody draws).
func ShownObjects(o fyne.CanvasObject) []fyne.CanvasObject {
	out := []fyne.CanvasObject{o}
	switch c := o.(type) {
	case fyne.Widget:
		for _, child := range test.WidgetRenderer(c).Objects() {
			out = append(out, ShownObjects(child)...)
		}
	case *fyne.Container:
		for _, child := range c.Objects {
			out = append(out, ShownObjects(child)...)
		}
	}
	return out
}

// asButton is o as a button: a widget.Button, or the one inside a
// button with a tooltip.
func asButton(o fyne.CanvasObject) (*widget.Button, bool) {
	switch b := o.(type) {
	case *widget.Button:
		return b, true
	case *ttwidget.Button:
		return &b.Button, true
	}
	return nil, false
}

// FindButton returns the visible button whose text starts with prefix.
func FindButton(t *testing.T, o fyne.CanvasObject, prefix string) *widget.Button {
	t.Helper()
	for _, obj := range test.LaidOutObjects(o) {
		if b, ok := asButton(obj); ok && obj.Visible() && strings.HasPrefix(b.Text, prefix) {
			return b
		}
	}
	t.Fatalf("no button %q", prefix)
	return nil
}

// FindShownButton returns the visible button whose text starts with
// prefix, among what w shows.
func FindShownButton(t *testing.T, w fyne.Window, prefix string) *widget.Button {
	t.Helper()
	for _, o := range ShownObjects(w.Content()) {
		if b, ok := asButton(o); ok && o.Visible() && strings.HasPrefix(b.Text, prefix) {
			return b
		}
	}
	t.Fatalf("no button %q", prefix)
	return nil
}

// ContainsText says whether a canvas.Text among objs reads s.
func ContainsText(objs []fyne.CanvasObject, s string) bool {
	for _, o := range objs {
		if tx, ok := o.(*canvas.Text); ok && tx.Visible() && tx.Text == s {
			return true
		}
	}
	return false
}

// TapMenuItem taps the item of the menu shown over w whose label starts
// with label.
func TapMenuItem(t *testing.T, w fyne.Window, label string) {
	t.Helper()
	top := w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no menu shown")
	}
	var labels []string
	for _, it := range ShownObjects(top) {
		tap, ok := it.(fyne.Tappable)
		wid, isWidget := it.(fyne.Widget)
		if !ok || !isWidget {
			continue
		}
		for _, o := range test.WidgetRenderer(wid).Objects() { // an item draws its label itself
			tx, ok := o.(*canvas.Text)
			if !ok || tx.Text == "" {
				continue
			}
			labels = append(labels, tx.Text)
			if strings.HasPrefix(tx.Text, label) {
				test.Tap(tap)
				return
			}
		}
	}
	t.Fatalf("no menu item %q among %q", label, labels)
}

// Abs is the canvas position of x, y in o.
func Abs(o fyne.CanvasObject, x, y float32) fyne.Position {
	return fyne.CurrentApp().Driver().AbsolutePositionForObject(o).AddXY(x, y)
}

// Centre is the absolute position of o's centre.
func Centre(o fyne.CanvasObject) fyne.Position {
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	return at.Add(fyne.NewPos(o.Size().Width/2, o.Size().Height/2))
}

// Hover moves the mouse over v at p.
func Hover(v desktop.Hoverable, p fyne.Position) {
	v.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p}})
}

// Want returns "" when ok, else the formatted complaint.
func Want(ok bool, format string, args ...any) string {
	if ok {
		return ""
	}
	return fmt.Sprintf(format, args...)
}

// VariantTheme is a theme forced to one variant, to check contrast in
// both.
type VariantTheme struct {
	fyne.Theme
	V fyne.ThemeVariant
}

// Color is the theme's colour in the forced variant.
func (t VariantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.V)
}
