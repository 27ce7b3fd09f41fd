package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/marks"
)

// Several recordings in one window (issue 27): File › Add Recording…
// (or a drop) opens recording B and shows it with the window's own, its
// topics under "B:", its times moved by an offset (start to start at
// first). The window's document is then their combination
// (model.Combine), so every view shows B as it shows any recording.
// Aligning again or removing one combines the opened recordings anew,
// keeping the window's layout and current time.

var shortcutAddRecording = &desktop.CustomShortcut{KeyName: fyne.KeyA, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}

// addRecording asks for a recording to add to window w.
func (c *controller) addRecording(w fyne.Window) {
	v := c.views[w]
	if v == nil || v.doc == nil {
		dialog.ShowInformation("Add Recording", "Open a recording first: an added one is shown with it, its topics under B:, C:, …", w)
		return
	}
	c.showPickDialog(w, "Add a recording to this window", "Add", func(path string) { v.addPath(path, nil) })
}

// addedRec is a recording to add: its path, and when keep is set (a
// reload opening it again) the prefix and offset it had.
type addedRec struct {
	path   string
	prefix string
	offset int64
	keep   bool
}

// memberList returns the window's recordings, the first alone when
// nothing was added yet.
func (v *bagView) memberList() []model.Member {
	if v.members != nil {
		return v.members
	}
	return []model.Member{{Doc: v.doc}}
}

// addPath opens the recording at path in the background and adds it,
// aligned start to start; then calls done, if not nil.
func (v *bagView) addPath(path string, done func()) {
	v.addRec(addedRec{path: path}, done)
}

// addRec opens r's recording in the background and adds it, under its
// prefix at its offset when r.keep, else aligned start to start; then
// calls done, if not nil.
func (v *bagView) addRec(r addedRec, done func()) {
	path := r.path
	if !bag.IsURL(path) && !v.c.screenshotting {
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
	}
	name := recordingName(path)
	ctx, cancel := context.WithCancel(context.Background())
	bar := widget.NewProgressBarInfinite()
	prog := dialog.NewCustom("Adding "+name, "Cancel", container.NewVBox(widget.NewLabel("Reading its index…"), bar), v.win)
	prog.SetOnClosed(cancel)
	if !v.c.screenshotting {
		prog.Show()
	}
	v.c.async(func() {
		doc, err := model.Open(ctx, path, nil)
		fyne.Do(func() {
			prog.Hide()
			cancel()
			v.added(doc, err, name, r)
			if done != nil {
				done()
			}
		})
	})
}

// added adds an opened recording to the window, or says why it cannot.
func (v *bagView) added(doc *model.Document, err error, name string, r addedRec) {
	if v.closed || v.doc == nil {
		if doc != nil {
			doc.Close()
		}
		return
	}
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			dialog.ShowError(fmt.Errorf("%s could not be added: %w", name, err), v.win)
		}
		return
	}
	members := v.memberList()
	m := model.Member{Doc: doc, Prefix: model.PrefixLetter(members), Offset: model.StartOffset(members[0].Doc, doc)}
	if r.keep && r.prefix != "" && !slices.ContainsFunc(members, func(o model.Member) bool { return o.Prefix == r.prefix }) {
		m.Prefix, m.Offset = r.prefix, r.offset
	}
	if !v.recombine(append(members[:len(members):len(members)], m)) {
		doc.Close()
	}
}

// recombine shows members together (the first alone when it is the only
// one), keeping the layout and the current time; false when they cannot
// be combined (the window then shows what it showed).
func (v *bagView) recombine(members []model.Member) bool {
	doc := members[0].Doc
	if len(members) > 1 {
		var err error
		doc, err = model.Combine(members)
		if err != nil {
			dialog.ShowError(err, v.win)
			return false
		}
	} else {
		members = nil
	}
	var lay *winLayout
	if v.views != nil {
		l := layoutOf(v.views)
		lay = &l
	}
	var cur int64
	hasCur := false
	if v.link != nil {
		cur, hasCur = v.link.Cursor()
		v.link.Close()
		v.waitFetch()
	}
	// The previous combination holds nothing of its own: its members
	// stay open for this one.
	v.doc, v.members = doc, members
	dv := v.showDoc(doc)
	v.c.wireDiff(v, dv)
	if lay != nil {
		applyLayout(dv, *lay)
	}
	if hasCur && dv.timeline != nil {
		dv.link.SetCursor(cur)
	}
	v.win.SetTitle(doc.Name + " — bagscope")
	v.win.SetMainMenu(v.c.mainMenu(v.win))
	return true
}

// removeMember closes the added recording with prefix and shows the
// others.
func (v *bagView) removeMember(prefix string) {
	var keep []model.Member
	var gone *model.Document
	for _, m := range v.members {
		if m.Prefix == prefix && prefix != "" {
			gone = m.Doc
			continue
		}
		keep = append(keep, m)
	}
	if gone == nil || !v.recombine(keep) {
		return
	}
	gone.Close()
}

// setOffset aligns the added recording with prefix by off nanoseconds.
func (v *bagView) setOffset(prefix string, off int64) {
	members := append([]model.Member(nil), v.members...)
	for i := range members {
		if members[i].Prefix == prefix && prefix != "" {
			members[i].Offset = off
		}
	}
	v.recombine(members)
}

// openAdds opens the recordings to add (--add's, or those a reload
// keeps) after the window's own, then shows them together as present
// does one.
func (v *bagView) openAdds(doc *model.Document, paths []addedRec) {
	var next func(i int)
	next = func(i int) {
		if i == len(paths) {
			if v.members == nil {
				v.present(doc)
			} else {
				v.present(v.doc)
			}
			if v.c.onOpened != nil {
				v.c.onOpened(v)
			}
			return
		}
		v.addRec(paths[i], func() { next(i + 1) })
	}
	next(0)
}

// recordingItems are the File menu's items for the window's recordings:
// Add Recording…, and Align and Remove for each one added.
func (c *controller) recordingItems(w fyne.Window) []*fyne.MenuItem {
	add := fyne.NewMenuItem("Add Recording…", func() { c.addRecording(w) })
	add.Shortcut = shortcutAddRecording
	items := []*fyne.MenuItem{add}
	v := c.views[w]
	if v == nil {
		return items
	}
	for _, m := range v.members[min(1, len(v.members)):] {
		label := strings.TrimSuffix(m.Prefix, ":")
		items = append(items,
			fyne.NewMenuItem(fmt.Sprintf("Align %s (%s)…", label, m.Doc.Name), func() { v.showAlign(m.Prefix) }),
			fyne.NewMenuItem(fmt.Sprintf("Remove %s (%s)", label, m.Doc.Name), func() { v.removeMember(m.Prefix) }))
	}
	return items
}

// droppedOnRecording asks whether what was dropped on a window that
// shows a recording opens in new windows or joins this one.
func (c *controller) droppedOnRecording(w fyne.Window, v *bagView, paths []string) {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = recordingName(p)
	}
	var d *dialog.CustomDialog
	newWin := widget.NewButton("Open in new window", func() {
		d.Hide()
		for _, p := range paths {
			c.openPath(p, nil)
		}
	})
	add := widget.NewButton("Add to this window", func() {
		d.Hide()
		var next func(i int)
		next = func(i int) {
			if i < len(paths) {
				v.addPath(paths[i], func() { next(i + 1) })
			}
		}
		next(0)
	})
	add.Importance = widget.HighImportance
	text := widget.NewLabel(fmt.Sprintf("%s: open in a new window, or add to this window beside %s (topics under B:, C:, …, aligned start to start)?", strings.Join(names, ", "), v.memberList()[0].Doc.Name))
	text.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustomWithoutButtons("Dropped a recording", container.NewBorder(nil, container.NewHBox(newWin, add), nil, nil, text), w)
	d.Resize(fyne.NewSize(min(560, w.Canvas().Size().Width*0.9), 180))
	d.Show()
}

// alignment modes of the Align dialog.
const (
	alignStart  = "Start to start"
	alignEvent  = "First message of a topic in each"
	alignOffset = "Offset in seconds"
	alignMark   = "A bookmark in each"
)

// bookmarksOf returns the bookmarks of the recording at path (its
// sidecar's, or a URL's in the configuration folder; none for a file
// without).
func bookmarksOf(path string) []marks.Bookmark {
	if path == "" {
		return nil
	}
	b, err := marks.Load(path)
	if err != nil || b == nil {
		return nil
	}
	return b.List
}

// markLabels names bookmarks for a choice: name and time from start.
func markLabels(list []marks.Bookmark, start bag.Time) []string {
	out := make([]string, len(list))
	for i, b := range list {
		name := b.Name
		if name == "" {
			name = "bookmark"
		}
		out[i] = fmt.Sprintf("%d. %s at %+.3f s", i+1, name, float64(b.Time.Nanos()-start.Nanos())/1e9)
	}
	return out
}

// alignAtMarks aligns the added recording with prefix so that its
// bookmark b is shown at the first recording's bookmark a.
func (v *bagView) alignAtMarks(prefix string, a, b marks.Bookmark) {
	v.setOffset(prefix, a.Time.Nanos()-b.Time.Nanos())
}

// showAlign asks how the added recording with prefix aligns to the first:
// start to start, at an event (the first message of a topic in each), or
// by a typed offset (B's message at B-time is shown at B-time + offset).
func (v *bagView) showAlign(prefix string) {
	var member model.Member
	for _, m := range v.members {
		if m.Prefix == prefix {
			member = m
		}
	}
	if member.Doc == nil {
		return
	}
	first := v.members[0].Doc
	topicsOf := func(d *model.Document) []string {
		out := make([]string, len(d.Topics))
		for i, t := range d.Topics {
			out[i] = t.Topic
		}
		return out
	}
	topicA := widget.NewSelect(topicsOf(first), nil)
	topicB := widget.NewSelect(topicsOf(member.Doc), nil)
	if len(first.Topics) > 0 {
		topicA.SetSelectedIndex(0)
	}
	// The same topic in both, where B has A's first.
	for _, t := range topicsOf(member.Doc) {
		if t == topicA.Selected {
			topicB.SetSelected(t)
		}
	}
	if topicB.Selected == "" && len(member.Doc.Topics) > 0 {
		topicB.SetSelectedIndex(0)
	}
	secs := widget.NewEntry()
	secs.SetText(strconv.FormatFloat(float64(member.Offset)/1e9, 'f', 9, 64))
	status := widget.NewLabel("")
	status.Wrapping = fyne.TextWrapWord
	modes := []string{alignStart, alignEvent, alignOffset}
	// A bookmark of each, where both have some: A's are the window's
	// (at A's times), B's its own sidecar's (at B's).
	var marksA []marks.Bookmark
	if v.views != nil && v.views.marks != nil {
		marksA = v.views.marks.Bookmarks()
	} else {
		marksA = bookmarksOf(first.Path)
	}
	marksB := bookmarksOf(member.Doc.Path)
	markA := widget.NewSelect(markLabels(marksA, first.Summary.Start), nil)
	markB := widget.NewSelect(markLabels(marksB, member.Doc.Summary.Start), nil)
	if len(marksA) > 0 && len(marksB) > 0 {
		modes = append(modes, alignMark)
		markA.SetSelectedIndex(0)
		markB.SetSelectedIndex(0)
	}
	mode := widget.NewRadioGroup(modes, nil)
	mode.SetSelected(alignOffset)
	form := widget.NewForm(
		widget.NewFormItem("Align by", mode),
		widget.NewFormItem("Topic in "+first.Name, topicA),
		widget.NewFormItem("Topic in "+member.Doc.Name, topicB),
		widget.NewFormItem("Offset (s)", secs),
	)
	if len(marksA) > 0 && len(marksB) > 0 {
		form.Append("Bookmark in "+first.Name, markA)
		form.Append("Bookmark in "+member.Doc.Name, markB)
	}
	label := strings.TrimSuffix(prefix, ":")
	help := widget.NewLabel(fmt.Sprintf("%s's messages are shown at %s's time + offset. Start to start puts their first messages together; an event puts the first message of a topic in %s at the first of a topic in %s; a bookmark in each (where both have some) puts %s's at %s's.", label, label, label, first.Name, label, first.Name))
	help.Wrapping = fyne.TextWrapWord
	var d dialog.Dialog
	d = dialog.NewCustomConfirm("Align "+label+" ("+member.Doc.Name+")", "Align", "Cancel", container.NewVBox(help, form, status), func(ok bool) {
		if !ok {
			return
		}
		switch mode.Selected {
		case alignStart:
			v.setOffset(prefix, model.StartOffset(first, member.Doc))
		case alignMark:
			i, j := markA.SelectedIndex(), markB.SelectedIndex()
			if i < 0 || j < 0 {
				status.SetText("Choose a bookmark in each recording")
				d.Show()
				return
			}
			v.alignAtMarks(prefix, marksA[i], marksB[j])
		case alignEvent:
			a, b := topicA.Selected, topicB.Selected
			v.c.async(func() {
				off, err := model.EventOffset(first, a, member.Doc, b)
				fyne.Do(func() {
					if err != nil {
						dialog.ShowError(err, v.win)
						return
					}
					v.setOffset(prefix, off)
				})
			})
		default:
			f, err := strconv.ParseFloat(strings.TrimSpace(secs.Text), 64)
			if err != nil {
				status.SetText("The offset is a number of seconds, e.g. -2.5")
				d.Show()
				return
			}
			v.setOffset(prefix, int64(f*1e9))
		}
	}, v.win)
	d.Resize(fyne.NewSize(min(620, v.win.Canvas().Size().Width*0.9), 0))
	d.Show()
}
