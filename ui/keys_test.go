package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/sweeptest"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/echo"
	"github.com/bagscope/bagscope/ui/diagview"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/timeline"
	"github.com/bagscope/bagscope/ui/widgets"
)

// keysWindow is a bag window opened as the app opens one, with its menu
// and shortcuts, for pressing keys in.
type keysWindow struct {
	c    *controller
	w    fyne.Window
	v    *bagView
	tabs *container.AppTabs
}

// openKeysWindow opens a bag window as the app does (openKeysWindowSized),
// then gives it the default size whatever the test screen is.
func openKeysWindow(t *testing.T, c *controller, path string) *keysWindow {
	t.Helper()
	k := openKeysWindowSized(t, c, path)
	k.w.Resize(bagWindowSize)
	return k
}

// find returns the first shown object of type T in the window, after
// showing the tab that holds it.
func find[T fyne.CanvasObject](t *testing.T, k *keysWindow, tab string) T {
	t.Helper()
	if tab != "" && !k.v.link.SelectTab(tab) {
		t.Fatalf("no tab %s", tab)
	}
	for _, o := range uitest.ShownObjects(k.w.Content()) {
		if v, ok := o.(T); ok {
			return v
		}
	}
	var zero T
	t.Fatalf("no %T in the %s tab", zero, tab)
	return zero
}

// closeOverlays hides the dialogs a key showed.
func closeOverlays(w fyne.Window) {
	for w.Canvas().Overlays().Top() != nil {
		top := w.Canvas().Overlays().Top()
		top.Hide()
		w.Canvas().Overlays().Remove(top)
	}
}

// keyChecks press the keys of each keyboard row of Help > Keyboard and
// mouse in a real bag window and check what they did.
var keyChecks = map[string]func(t *testing.T, k *keysWindow){
	"Ctrl+O": func(t *testing.T, k *keysWindow) {
		uitest.PressShortcut(k.w, shortcutOpen)
		top := k.w.Canvas().Overlays().Top()
		if top == nil || !uitest.ContainsText(uitest.ShownObjects(top), "Open this folder") {
			t.Fatal("Ctrl+O showed no Open dialog")
		}
		if _, ok := k.w.Canvas().Focused().(*widget.Entry); !ok {
			t.Errorf("the path field does not have the keyboard: %T does", k.w.Canvas().Focused())
		}
		closeOverlays(k.w)
	},
	"Ctrl+L": func(t *testing.T, k *keysWindow) {
		uitest.PressShortcut(k.w, shortcutOpenURL)
		top := k.w.Canvas().Overlays().Top()
		if top == nil || !uitest.ContainsText(uitest.ShownObjects(top), "Open URL") {
			t.Error("Ctrl+L showed no Open URL dialog")
		}
		closeOverlays(k.w)
	},
	"Ctrl+Shift+O": func(t *testing.T, k *keysWindow) {
		uitest.PressShortcut(k.w, shortcutOpenLibrary)
		top := k.w.Canvas().Overlays().Top()
		if top == nil || !uitest.ContainsText(uitest.ShownObjects(top), "Open Library") {
			t.Error("Ctrl+Shift+O showed no Open Library folder dialog")
		}
		closeOverlays(k.w)
	},
	"Ctrl+W / Ctrl+Q": func(t *testing.T, k *keysWindow) {
		other := openKeysWindow(t, k.c, "../testdata/single-message.bag")
		n := len(k.c.views)
		uitest.PressShortcut(other.w, shortcutClose)
		if len(k.c.views) != n-1 || k.c.views[other.w] != nil {
			t.Error("Ctrl+W did not close the window")
		}
		quit := false
		k.c.quit = func() { quit = true }
		uitest.PressShortcut(k.w, shortcutQuit)
		if !quit {
			t.Error("Ctrl+Q did not quit")
		}
	},
	"Ctrl+1 … Ctrl+9, Ctrl+0": func(t *testing.T, k *keysWindow) {
		// Every tab of the window has a key, in tab order (the sample
		// has them all: it has an image topic, /rosout and /tf).
		if len(k.tabs.Items) != len(viewNames) {
			t.Fatalf("%d tabs, want %d: %v", len(k.tabs.Items), len(viewNames), viewNames)
		}
		for i, it := range k.tabs.Items {
			if !strings.HasPrefix(it.Text, viewNames[i]) {
				t.Errorf("tab %d is %q, but Ctrl+%d shows %s", i+1, it.Text, i+1, viewNames[i])
			}
		}
		for i := len(viewNames) - 1; i >= 0; i-- {
			uitest.PressShortcut(k.w, viewShortcut(i))
			if got := k.tabs.Selected().Text; !strings.HasPrefix(got, viewNames[i]) {
				t.Errorf("Ctrl+%d shows %q, want %s", i+1, got, viewNames[i])
			}
		}
	},
	"Alt+D": func(t *testing.T, k *keysWindow) {
		// The sample has no diagnostics: the key leaves the tab alone.
		before := k.tabs.Selected().Text
		uitest.PressShortcut(k.w, shortcutDiagnostics)
		if got := k.tabs.Selected().Text; got != before {
			t.Errorf("Alt+D without diagnostics shows %q", got)
		}
		d := openKeysWindow(t, k.c, "../testdata/diag.bag")
		defer d.w.Close()
		uitest.PressShortcut(d.w, viewShortcut(0))
		if got := d.tabs.Selected().Text; !strings.HasPrefix(got, "Topics") {
			t.Fatalf("Ctrl+1 shows %q", got)
		}
		uitest.PressShortcut(d.w, shortcutDiagnostics)
		if got := d.tabs.Selected().Text; got != "Diagnostics" {
			t.Errorf("Alt+D shows %q, want Diagnostics", got)
		}
		for i := range viewNames {
			if viewShortcut(i).ShortcutName() == shortcutDiagnostics.ShortcutName() {
				t.Errorf("Alt+D is also %s's key", viewNames[i])
			}
		}
	},
	"Ctrl+F": func(t *testing.T, k *keysWindow) {
		bar := k.v.views.find
		uitest.PressShortcut(k.w, shortcutFind)
		if !bar.Shown() || k.w.Canvas().Focused() != bar.Entry() {
			t.Fatalf("Ctrl+F: the bar shows %v, the keyboard is with %T", bar.Shown(), k.w.Canvas().Focused())
		}
		typeFocused(t, k.w, "/imu.linear_acceleration.x >")
		if !strings.HasPrefix(bar.Status(), "Column 29: ") {
			t.Errorf("an unfinished expression says %q, not where it is wrong", bar.Status())
		}
		typeFocused(t, k.w, " -100")
		typeKey(k.w, fyne.KeyReturn)
		if n := len(bar.Hits()); n == 0 || n != int(k.v.doc.Topics[slices.IndexFunc(k.v.doc.Topics, func(tp model.Topic) bool { return tp.Topic == "/imu" })].Messages) {
			t.Errorf("Enter found %d hits, want every /imu message: %s", n, bar.Status())
		}
		typeKey(k.w, fyne.KeyEscape)
		if bar.Shown() || k.w.Canvas().Focused() == bar.Entry() {
			t.Error("Escape left the bar open, or its entry with the keyboard")
		}
	},
	"F3 / Shift+F3, Ctrl+G / Ctrl+Shift+G": func(t *testing.T, k *keysWindow) {
		bar := k.v.views.find
		uitest.PressShortcut(k.w, shortcutFind)
		typeFocused(t, k.w, "@t < 1 && @topic == \"/imu\"")
		typeKey(k.w, fyne.KeyReturn)
		hits := bar.Hits()
		if len(hits) < 3 {
			t.Fatalf("%d hits: %s", len(hits), bar.Status())
		}
		at := func(key string, i int) {
			t.Helper()
			if cur, _ := k.v.link.Cursor(); bar.Current() != i || cur != hits[i].Time.Nanos() {
				t.Errorf("%s: hit %d, time %d; want hit %d at %d", key, bar.Current(), cur, i, hits[i].Time.Nanos())
			}
		}
		typeKey(k.w, fyne.KeyF3)
		at("F3", 0)
		typeKey(k.w, fyne.KeyF3)
		at("F3", 1)
		shiftF3(k.w)
		at("Shift+F3", 0)
		// Where no widget has the keyboard, and by Ctrl+G from any view.
		k.w.Canvas().Unfocus()
		typeKey(k.w, fyne.KeyF3)
		at("F3 unfocused", 1)
		uitest.PressShortcut(k.w, shortcutFindNext)
		at("Ctrl+G", 2)
		uitest.PressShortcut(k.w, shortcutFindPrev)
		at("Ctrl+Shift+G", 1)
		// And with the timeline's keyboard focus.
		tv := k.v.views.timeline.View()
		k.w.Canvas().Focus(tv)
		typeKey(k.w, fyne.KeyF3)
		at("F3 on the timeline", 2)
		shiftF3(k.w)
		at("Shift+F3 on the timeline", 1)
	},
	"Ctrl+E": func(t *testing.T, k *keysWindow) {
		// cut_test.go writes the cut; here the key asks where, saying
		// what the selection keeps.
		k.v.link.SetTopics([]string{"/imu"})
		uitest.PressShortcut(k.w, shortcutSaveCut)
		top := k.w.Canvas().Overlays().Top()
		if top == nil || !uitest.ContainsText(uitest.ShownObjects(top), "Save Range/Topics As") {
			t.Fatal("Ctrl+E showed no Save Range/Topics As dialog")
		}
		if _, ok := k.w.Canvas().Focused().(*widget.Entry); !ok {
			t.Errorf("the path does not have the keyboard: %T does", k.w.Canvas().Focused())
		}
		closeOverlays(k.w)
	},
	"Ctrl+B": func(t *testing.T, k *keysWindow) {
		// The sample is held in memory: the bookmark lives with the
		// window (bookmarks_test.go checks the sidecar).
		at := k.v.doc.Summary.Start.Nanos() + 2e9
		k.v.link.SetCursor(at)
		addBookmark(t, k, "here", "a note")
		if ms := k.v.views.timeline.View().Bookmarks(); len(ms) != 1 || ms[0].T != at || ms[0].Text != "here\na note" {
			t.Errorf("the timeline flags %+v", ms)
		}
	},
	"Alt+Left / Alt+Right": func(t *testing.T, k *keysWindow) {
		l := k.v.link
		var x *model.MessageIndex
		l.WithIndex(func(i *model.MessageIndex) { x = i })
		imu := x.Topic("/imu")
		l.SelectMessage(imu.At(0))
		// From another view, with a widget that takes shortcuts focused:
		// the bytes (Ctrl+C) once ate Alt+arrows.
		hex := find[*widgets.HexView](t, k, "Message")
		k.w.Canvas().Focus(hex)
		uitest.PressShortcut(k.w, viewShortcut(0))
		uitest.PressShortcut(k.w, shortcutNextMessage)
		if m, _ := l.Message(); m != imu.At(1) {
			t.Fatalf("Alt+Right selects %+v, want the next /imu message %+v", m, imu.At(1))
		}
		uitest.PressShortcut(k.w, shortcutPrevMessage)
		if m, _ := l.Message(); m != imu.At(0) {
			t.Fatalf("Alt+Left selects %+v, want %+v", m, imu.At(0))
		}
		// Two topics selected: both, in time order.
		l.SetTopics([]string{"/imu", "/odom"})
		seen := map[string]int{}
		last := int64(0)
		for range 40 {
			uitest.PressShortcut(k.w, shortcutNextMessage)
			m, _ := l.Message()
			if m.T < last {
				t.Fatalf("Alt+Right went back in time: %d after %d", m.T, last)
			}
			last = m.T
			seen[l.TopicName(m)]++
		}
		if seen["/imu"] == 0 || seen["/odom"] == 0 || len(seen) != 2 {
			t.Errorf("Alt+Right through /imu and /odom visited %v", seen)
		}
		l.SetTopics(nil)
	},
	"Space": func(t *testing.T, k *keysWindow) {
		p, _ := manualPlayer(k.v.views)
		space := &fyne.KeyEvent{Name: fyne.KeySpace}
		// Nothing has the keyboard: the window's Space.
		k.w.Canvas().Unfocus()
		k.w.Canvas().OnTypedKey()(space)
		if !p.Playing() {
			t.Fatal("Space did not play")
		}
		// The timeline has it.
		tv := find[*timeline.View](t, k, "")
		k.w.Canvas().Focus(tv)
		k.w.Canvas().Focused().TypedKey(space)
		if p.Playing() {
			t.Error("Space on the timeline did not pause")
		}
	},
	"Alt+Shift+Left / Alt+Shift+Right": func(t *testing.T, k *keysWindow) {
		l := k.v.link
		tv := find[*timeline.View](t, k, "Plots")
		start := tv.Timeline().Start + int64(2e9)
		l.SetCursor(start)
		uitest.PressShortcut(k.w, shortcutTimeForward)
		if c, _ := l.Cursor(); c != start+timeline.TimeStep {
			t.Errorf("Alt+Shift+Right moved the time %d ns", c-start)
		}
		if m, ok := l.Message(); !ok || m.T > start+timeline.TimeStep {
			t.Errorf("the message (%v) is after the time", ok)
		}
		uitest.PressShortcut(k.w, shortcutTimeBack)
		uitest.PressShortcut(k.w, shortcutTimeBack)
		if c, _ := l.Cursor(); c != start-timeline.TimeStep {
			t.Errorf("Alt+Shift+Left twice moved the time %d ns", c-start)
		}
	},
	"Alt+Up / Alt+Down": func(t *testing.T, k *keysWindow) {
		p := k.v.views.timeline.Player()
		uitest.PressShortcut(k.w, shortcutFaster)
		if speed, _ := k.v.views.timeline.Transport(); p.Speed() != 2 || speed != "2×" {
			t.Errorf("Alt+Up: speed %g, the menu shows %q", p.Speed(), speed)
		}
		uitest.PressShortcut(k.w, shortcutSlower)
		uitest.PressShortcut(k.w, shortcutSlower)
		if p.Speed() != 0.5 {
			t.Errorf("Alt+Down twice from 2×: %g", p.Speed())
		}
	},
	"Alt+L": func(t *testing.T, k *keysWindow) {
		p := k.v.views.timeline.Player()
		uitest.PressShortcut(k.w, shortcutLoop)
		if _, loop := k.v.views.timeline.Transport(); !p.Loop() || !loop {
			t.Error("Alt+L did not loop")
		}
		uitest.PressShortcut(k.w, shortcutLoop)
		if p.Loop() {
			t.Error("Alt+L again did not stop looping")
		}
	},
	"Ctrl+T": func(t *testing.T, k *keysWindow) {
		tp := k.v.views.timeline
		tv := find[*timeline.View](t, k, "")
		uitest.PressShortcut(k.w, shortcutLanes)
		if !tp.Collapsed() || tv.Visible() && k.v.views.timeline.LanesShown() {
			t.Error("Ctrl+T did not hide the lanes")
		}
		uitest.PressShortcut(k.w, shortcutLanes)
		if tp.Collapsed() || !k.v.views.timeline.LanesShown() || tv.Size().Height < timeline.LaneH*3 {
			t.Errorf("Ctrl+T again did not show the lanes (%v high)", tv.Size().Height)
		}
	},
	"Ctrl+Shift+H": func(t *testing.T, k *keysWindow) {
		h := k.v.views.header
		was := h.Collapsed()
		shown := func() string { return uitest.Shown(k.w) }
		before := shown()
		uitest.PressShortcut(k.w, shortcutHeader)
		if h.Collapsed() == was || shown() == before {
			t.Fatal("Ctrl+Shift+H did not fold or unfold the header")
		}
		if got, want := k.c.app.Preferences().String(prefHeaderCollapsed), map[bool]string{true: "yes", false: "no"}[!was]; got != want {
			t.Errorf("the choice is remembered as %q, want %q", got, want)
		}
		if headerCollapsed(2000) != !was || headerCollapsed(300) != !was {
			t.Error("the next window does not open as the header was left")
		}
		uitest.PressShortcut(k.w, shortcutHeader)
		if h.Collapsed() != was || shown() != before {
			t.Error("Ctrl+Shift+H again did not put the header back")
		}
	},
	"Ctrl+Shift+S": func(t *testing.T, k *keysWindow) {
		// A healthy bag: nothing to repair, so no dialog.
		uitest.PressShortcut(k.w, shortcutSaveRepaired)
		if got := k.tabs.Selected().Text; got != "Findings" {
			t.Errorf("Ctrl+Shift+S shows %q, want Findings", got)
		}
		if k.w.Canvas().Overlays().Top() != nil {
			t.Error("Ctrl+Shift+S offers to repair a bag without findings")
		}
		if b := uitest.FindShownButton(t, k.w, "Save repaired copy"); !b.Disabled() {
			t.Error("Save repaired copy… is enabled without findings")
		}
		// A damaged one: the save dialog.
		bad := openKeysWindow(t, k.c, "testdata/invalid.bag")
		defer bad.w.Close()
		uitest.PressShortcut(bad.w, shortcutSaveRepaired)
		if bad.w.Canvas().Overlays().Top() == nil {
			t.Error("Ctrl+Shift+S on a damaged bag shows no save dialog")
		}
		closeOverlays(bad.w)
	},
	"Timeline: + - 0": func(t *testing.T, k *keysWindow) {
		tv := find[*timeline.View](t, k, "")
		k.w.Canvas().Focus(tv)
		full := tv.Timeline().End - tv.Timeline().Start
		typeFocused(t, k.w, "+")
		if got := winEnd(tv) - winStart(tv); got != full/2 {
			t.Errorf("+: window %d of %d", got, full)
		}
		typeFocused(t, k.w, "-")
		if got := winEnd(tv) - winStart(tv); got != full {
			t.Errorf("-: window %d of %d", got, full)
		}
		typeFocused(t, k.w, "++0")
		if winStart(tv) != tv.Timeline().Start || winEnd(tv) != tv.Timeline().End {
			t.Errorf("0: window %d..%d", winStart(tv), winEnd(tv))
		}
	},
	"Timeline: Home End Left Right": func(t *testing.T, k *keysWindow) {
		tv := find[*timeline.View](t, k, "")
		k.w.Canvas().Focus(tv)
		typeFocused(t, k.w, "++")
		width := winEnd(tv) - winStart(tv)
		key := func(name fyne.KeyName) { k.w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: name}) }
		key(fyne.KeyEnd)
		if winEnd(tv) != tv.Timeline().End || winEnd(tv)-winStart(tv) != width {
			t.Errorf("End: window %d..%d, end %d", winStart(tv), winEnd(tv), tv.Timeline().End)
		}
		key(fyne.KeyHome)
		if winStart(tv) != tv.Timeline().Start || winEnd(tv)-winStart(tv) != width {
			t.Errorf("Home: window %d..%d, start %d", winStart(tv), winEnd(tv), tv.Timeline().Start)
		}
		before := winStart(tv)
		key(fyne.KeyRight)
		if winStart(tv) <= before {
			t.Errorf("Right: window starts at %d, was %d", winStart(tv), before)
		}
		before = winStart(tv)
		key(fyne.KeyLeft)
		if winStart(tv) >= before {
			t.Errorf("Left: window starts at %d, was %d", winStart(tv), before)
		}
		typeFocused(t, k.w, "0")
	},
	"Diagnostics: [ ]": func(t *testing.T, k *keysWindow) {
		d := openKeysWindow(t, k.c, "../testdata/diag.bag")
		defer d.w.Close()
		tb := find[*diagview.StatusTable](t, d, "Diagnostics")
		l := d.v.link
		l.SetCursor(d.v.doc.Summary.Start.Nanos() + 9_500_000_000)
		from, _ := l.Cursor()
		d.w.Canvas().Focus(tb)
		typeFocused(t, d.w, "]")
		next, _ := l.Cursor()
		if next <= from {
			t.Fatalf("]: the time went from %d to %d, not to a later change", from, next)
		}
		typeFocused(t, d.w, "[")
		if back, _ := l.Cursor(); back >= next || back > from {
			t.Errorf("[: the time went from %d to %d, not back to the change at or before %d", next, back, from)
		}
	},
	"Timeline: Z, Esc": func(t *testing.T, k *keysWindow) {
		tv := find[*timeline.View](t, k, "")
		l := k.v.link
		r0, r1 := tv.Timeline().Start+(tv.Timeline().End-tv.Timeline().Start)/4, tv.Timeline().Start+(tv.Timeline().End-tv.Timeline().Start)/2
		l.SetRange(r0, r1, true)
		k.w.Canvas().Focus(tv)
		typeFocused(t, k.w, "z")
		if winStart(tv) != r0 || winEnd(tv) != r1 {
			t.Errorf("Z: window %d..%d, range %d..%d", winStart(tv), winEnd(tv), r0, r1)
		}
		k.w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if _, _, ok := l.Range(); ok {
			t.Error("Esc left the range")
		}
		typeFocused(t, k.w, "0")
	},
	"Plots: type TOPIC.FIELD, Down, Enter": func(t *testing.T, k *keysWindow) {
		e := find[*widgets.CompletionEntry](t, k, "Plots")
		k.w.Canvas().Focus(e)
		test.Type(e, "/odom.twist.twist.l")
		f := k.w.Canvas().Focused()
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if !strings.HasPrefix(e.Text, "/odom.twist.twist.linear.") {
			t.Fatalf("Down, Enter took %q", e.Text)
		}
		k.w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if g := k.v.views.plots.Series(); len(g[0]) != 1 {
			t.Errorf("Enter again plotted %v", g[0])
		}
	},
	"Bytes: arrows, Page Up/Down, Home, End": func(t *testing.T, k *keysWindow) {
		h := bytesOfMessage(t, k)
		key := func(name fyne.KeyName) { k.w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: name}) }
		key(fyne.KeyHome)
		start := h.Cursor()
		for _, s := range []struct {
			key  fyne.KeyName
			want int64
		}{{fyne.KeyRight, start + 1}, {fyne.KeyDown, start + 1 + widgets.HexCols}, {fyne.KeyLeft, start + widgets.HexCols}, {fyne.KeyUp, start}} {
			key(s.key)
			if h.Cursor() != s.want {
				t.Errorf("%s: cursor at %d, want %d", s.key, h.Cursor(), s.want)
			}
		}
		key(fyne.KeyPageDown)
		if h.Cursor() <= start+widgets.HexCols {
			t.Errorf("Page Down: cursor at %d", h.Cursor())
		}
		key(fyne.KeyPageUp)
		if h.Cursor() != start {
			t.Errorf("Page Up: cursor at %d, want %d", h.Cursor(), start)
		}
		key(fyne.KeyEnd)
		if h.Cursor() != uitest.HexStart(h)+uitest.HexSize(h)-1 {
			t.Errorf("End: cursor at %d, want %d", h.Cursor(), uitest.HexStart(h)+uitest.HexSize(h)-1)
		}
	},
	"Bytes: Shift+arrows, Ctrl+A, Ctrl+C": func(t *testing.T, k *keysWindow) {
		h := bytesOfMessage(t, k)
		f := k.w.Canvas().Focused()
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
		h.KeyDown(&fyne.KeyEvent{Name: "LeftShift"})
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
		h.KeyUp(&fyne.KeyEvent{Name: "LeftShift"})
		if s, e, ok := h.Selection(); !ok || e-s != 3 {
			t.Errorf("Shift+Right twice selects %d..%d (%v)", s, e, ok)
		}
		uitest.PressShortcut(k.w, &fyne.ShortcutCopy{Clipboard: fyne.CurrentApp().Clipboard()})
		if got := fyne.CurrentApp().Clipboard().Content(); len(got) != len("00 00 00") {
			t.Errorf("Ctrl+C copied %q", got)
		}
		uitest.PressShortcut(k.w, &fyne.ShortcutSelectAll{})
		if s, e, ok := h.Selection(); !ok || s != uitest.HexStart(h) || e != uitest.HexStart(h)+uitest.HexSize(h) {
			t.Errorf("Ctrl+A selects %d..%d of %d..%d", s, e, uitest.HexStart(h), uitest.HexStart(h)+uitest.HexSize(h))
		}
	},
}

// bytesOfMessage shows the first message in the Message tab and focuses
// its bytes.
func bytesOfMessage(t *testing.T, k *keysWindow) *widgets.HexView {
	t.Helper()
	l := k.v.link
	l.WithIndex(func(x *model.MessageIndex) { l.SelectMessage(x.Topic("/imu").At(0)) })
	h := find[*widgets.HexView](t, k, "Message")
	k.w.Canvas().Focus(h)
	if uitest.HexSize(h) == 0 {
		t.Fatal("the bytes show nothing")
	}
	return h
}

// keysMessageCopy is the Help row of the Message view's copy keys. The
// message package tests what each copies (TestMessageCopyKeys); here the
// message keys must reach the Message view's field tree in a real window.
const keysMessageCopy = "Message: Ctrl+C, Ctrl+Shift+C, Ctrl+Shift+Y, Ctrl+Shift+J"

func init() {
	keyChecks[keysMessageCopy] = func(t *testing.T, k *keysWindow) {
		l := k.v.link
		var x *model.MessageIndex
		l.WithIndex(func(i *model.MessageIndex) { x = i })
		ref := x.Topic("/odom").At(2)
		l.SelectMessage(ref)
		rd := model.NewMessageReader(l.Doc().Storage, nil)
		m, err := rd.Read(ref)
		if err != nil {
			t.Fatal(err)
		}
		root, _, err := rd.Decode(m)
		if err != nil {
			t.Fatal(err)
		}
		// The field tree is the Message tab's focusable widget that takes
		// shortcuts, other than the bytes.
		var tree fyne.Focusable
		l.SelectTab("Message")
		for _, o := range uitest.ShownObjects(k.w.Content()) {
			if f, ok := o.(fyne.Focusable); ok && fmt.Sprintf("%T", o) == "*message.msgTree" {
				tree = f
			}
		}
		if tree == nil {
			t.Fatal("no field tree in the Message tab")
		}
		k.w.Canvas().Focus(tree) // as a click on a row does
		clip := fyne.CurrentApp().Clipboard()
		ctrlShift := fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift
		for _, tc := range []struct {
			s    fyne.Shortcut
			want string
		}{
			{&desktop.CustomShortcut{KeyName: fyne.KeyY, Modifier: ctrlShift}, echo.Message(root)},
			{&desktop.CustomShortcut{KeyName: fyne.KeyJ, Modifier: ctrlShift}, echo.JSON(root)},
		} {
			clip.SetContent("")
			uitest.PressShortcut(k.w, tc.s)
			if got := clip.Content(); got != tc.want || got == "" {
				t.Errorf("%s copies %.80q, want %.80q", tc.s.ShortcutName(), got, tc.want)
			}
		}
	}
}

// winStart and winEnd are the ends of the time window the timeline shows.
func winStart(tv *timeline.View) int64 { t0, _ := tv.Window(); return t0 }
func winEnd(tv *timeline.View) int64   { _, t1 := tv.Window(); return t1 }

// helpKeysEvery: without -long, TestHelpKeys presses one in so many of
// the keys Help lists (each in a window of its own, 6-26 s each under
// -race at load 20), in Help's order; BAGSCOPE_SAMPLE=K picks another
// fixed sample, and go test -long (make test-long) presses every one.
const helpKeysEvery = 3

// TestHelpKeys presses the keys Help > Keyboard and mouse lists (a fixed
// sample of them without -long, see helpKeysEvery) and checks that each
// does what Help says. Every key Help lists has a check, and every check
// is of a key Help lists, sampled or not.
func TestHelpKeys(t *testing.T) {
	sweeptest.Note(t, helpKeysEvery, "the keys Help lists")
	listed := map[string]bool{}
	i := 0
	for _, row := range keyHelp {
		if row.Mouse {
			continue
		}
		listed[row.Keys] = true
		check := keyChecks[row.Keys]
		if check == nil {
			t.Errorf("Help lists %q (%s) but no test presses it", row.Keys, row.What)
			continue
		}
		i++
		if !sweeptest.Keep(i-1, helpKeysEvery) {
			continue
		}
		t.Run(row.Keys, func(t *testing.T) {
			c := newTestController(t)
			k := openKeysWindow(t, c, "")
			defer k.w.Close()
			check(t, k)
		})
	}
	for keys := range keyChecks {
		if !listed[keys] {
			t.Errorf("%q is tested but Help does not list it", keys)
		}
	}
}

// TestHelpDialog shows Help > Keyboard and mouse with every row.
func TestHelpDialog(t *testing.T) {
	c := newTestController(t)
	k := openKeysWindow(t, c, "")
	help := c.mainMenu(k.w).Items[3]
	help.Items[0].Action()
	top := k.w.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog")
	}
	var texts []string
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok {
			texts = append(texts, l.Text)
		}
	}
	for _, row := range keyHelp {
		if !slices.Contains(texts, row.Keys) || !slices.Contains(texts, row.What) {
			t.Errorf("the dialog lacks %q: %q", row.Keys, row.What)
		}
	}
}

// typeFocused types s into the focused widget, as the keyboard does.
func typeFocused(t *testing.T, w fyne.Window, s string) {
	t.Helper()
	f := w.Canvas().Focused()
	if f == nil {
		t.Fatal("nothing has the focus")
	}
	test.Type(f, s)
}
