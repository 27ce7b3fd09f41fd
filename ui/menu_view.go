package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// viewNames are the tabs of a bag window, in order; Ctrl+1… shows them.
var viewNames = []string{"Topics", "Message", "Plots", "Chunk", "Records", "Findings"}

func viewShortcut(i int) *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: fyne.KeyName(rune('1' + i)), Modifier: fyne.KeyModifierShortcutDefault}
}

// viewMenu lists the views of a bag window with their shortcuts.
func (c *controller) viewMenu(w fyne.Window) *fyne.Menu {
	items := make([]*fyne.MenuItem, len(viewNames))
	for i, name := range viewNames {
		items[i] = fyne.NewMenuItem(name, func() { c.showView(w, name) })
		items[i].Shortcut = viewShortcut(i)
	}
	return fyne.NewMenu("View", items...)
}

// showView shows a view of the bag in window w, once it has loaded.
func (c *controller) showView(w fyne.Window, name string) {
	if v := c.views[w]; v != nil && v.link != nil {
		v.link.selectTab(name)
	}
}

// keyHelp is what Help > Keyboard and mouse lists.
var keyHelp = [][2]string{
	{"Ctrl+O / Ctrl+Shift+O", "open a recording file (.bag, .mcap, .db3, metadata.yaml), open a recording folder"},
	{"Ctrl+W / Ctrl+Q", "close the window, quit"},
	{"Ctrl+1 … Ctrl+6", "Topics, Message, Plots, Chunk, Records, Findings"},
	{"Timeline: wheel, drag", "zoom about the mouse, pan"},
	{"Timeline: Shift+drag, drag on the axis", "select a time range (Z zooms to it, Esc clears it)"},
	{"Timeline: + - 0 Home End Left Right", "zoom in, out, fit, go to the start or end, pan"},
	{"Timeline: click, double-click", "select the nearest message, fit (or zoom to the range)"},
	{"Timeline: click a chunk or a lane title", "open the chunk, show only that topic"},
	{"Plots: type TOPIC.FIELD", "suggestions show as you type; Down, Enter take one, Enter again adds it"},
	{"Plots: wheel, drag, Shift+drag", "zoom time, pan, zoom to a box"},
	{"Plots: double-click, click a point", "fit, select the point's message everywhere"},
	{"Plots: drag a field from Fields", "onto a plot to add it there, below the plots for a new plot (double-click or + adds to the last)"},
	{"Topics: click a row", "show only the selected topics in the other views"},
	{"Message: Alt+Left, Alt+Right", "previous, next message of the topic"},
	{"Bytes: click, arrows, Page Up/Down", "move the byte cursor (the tree follows it)"},
	{"Bytes: drag, Shift+click, Shift+arrows", "select bytes; Ctrl+C copies them as hex, Ctrl+A selects all"},
	{"Drop files on a window", "open them"},
}

// showKeys lists the keyboard and mouse controls.
func showKeys(w fyne.Window) {
	rows := make([]fyne.CanvasObject, 0, 2*len(keyHelp))
	for _, k := range keyHelp {
		rows = append(rows, widget.NewLabelWithStyle(k[0], fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), widget.NewLabel(k[1]))
	}
	dialog.ShowCustom("Keyboard and mouse", "Close", container.New(layout.NewFormLayout(), rows...), w)
}
