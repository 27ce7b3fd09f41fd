package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"

	"github.com/bagscope/bagscope/ui/diffview"
	"github.com/bagscope/bagscope/ui/link"
)

// shortcutCompare is File › Compare With… (Ctrl+Shift+D).
var shortcutCompare = &desktop.CustomShortcut{KeyName: fyne.KeyD, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}

// addDiffTab builds the Diff tab's view of a window (issue 27); the tab
// is appended, last, once a recording B is chosen (link.Actions'
// CompareWith), so a window that compares nothing has no empty tab.
func addDiffTab(l *link.Hub, tabs *container.AppTabs) *diffview.View {
	v := diffview.New(l, func() {
		if f := l.Actions().ChooseCompare; f != nil {
			f()
		}
	})
	var item *container.TabItem
	l.Actions().CompareWith = func(path string) {
		if item == nil {
			item = container.NewTabItemWithIcon(diffview.Title, theme.ContentCopyIcon(), v.Content())
			tabs.Append(item)
		}
		tabs.Select(item)
		v.CompareWith(path)
	}
	return v
}

// wireDiff connects a loaded window's Diff tab: Compare with… asks for B,
// and B given before the window loaded (--compare, the library's
// Compare) is compared at once.
func (c *controller) wireDiff(v *bagView, dv *docViews) {
	if dv.diff == nil {
		return
	}
	dv.link.Actions().ChooseCompare = func() { c.compareWith(v.win) }
	b := v.compare
	if b == "" {
		b = c.compare
	}
	if b != "" {
		dv.link.Actions().CompareWith(b)
	}
}

// compareWith asks for a recording (a file, a folder or a URL, as Open
// takes) and shows window w's Diff tab against it.
func (c *controller) compareWith(w fyne.Window) {
	v := c.views[w]
	if v == nil || v.link == nil {
		return
	}
	if v.views == nil || v.views.diff == nil {
		dialog.ShowInformation("Compare With", "This recording has no messages to compare: open one with messages.", w)
		return
	}
	c.showPickDialog(w, "Compare "+v.src.name+" with…", "Compare", v.link.Actions().CompareWith)
}

// openCompared opens recording a in a new window showing its Diff tab
// against b (the library's Compare).
func (c *controller) openCompared(a, b string) {
	before := map[fyne.Window]bool{}
	for w := range c.views {
		before[w] = true
	}
	c.openPath(a, nil)
	for w, v := range c.views {
		if before[w] {
			continue
		}
		v.compare = b
		if v.views != nil && v.views.diff != nil {
			// Loaded already (tests load at once).
			v.link.Actions().CompareWith(b)
		}
	}
}
