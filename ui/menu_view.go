package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// viewNames are the tabs a bag window can have; Ctrl+1… Ctrl+9 and Ctrl+0
// show them. Each view keeps its key whether or not the recording has the
// Sensor, Log, TF and 3D tabs (they show only for images, clouds, scans,
// /rosout and transforms), so a key always means the same view; the key of
// a tab the window lacks does nothing. TF and then 3D came last, so they
// have the last keys (3D the tenth, Ctrl+0).
var viewNames = []string{"Topics", "Message", "Sensor", "Log", "Plots", "Chunk", "Records", "Findings", "TF", "3D"}

func viewShortcut(i int) *desktop.CustomShortcut {
	key := rune('1' + i)
	if i == 9 {
		key = '0'
	}
	return &desktop.CustomShortcut{KeyName: fyne.KeyName(key), Modifier: fyne.KeyModifierShortcutDefault}
}

// Alt+Left and Alt+Right step to the previous and next message of the
// selected topics, whichever view shows. They are menu shortcuts, so a
// focused widget (the bytes, a plot's field) does not take them.
var (
	shortcutPrevMessage = &desktop.CustomShortcut{KeyName: fyne.KeyLeft, Modifier: fyne.KeyModifierAlt}
	shortcutNextMessage = &desktop.CustomShortcut{KeyName: fyne.KeyRight, Modifier: fyne.KeyModifierAlt}
	// shortcutDiagnostics shows the Diagnostics tab: Ctrl+1 … Ctrl+0 are
	// the other tabs'.
	shortcutDiagnostics = &desktop.CustomShortcut{KeyName: fyne.KeyD, Modifier: fyne.KeyModifierAlt}
	// shortcutSaveRepaired is the Findings tab's "Save repaired copy…".
	shortcutSaveRepaired = &desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
)

// viewMenu lists the views of a bag window with their shortcuts (the
// Diagnostics tab, which came after the ten Ctrl+digits, has Alt+D), and
// the message steps.
func (c *controller) viewMenu(w fyne.Window) *fyne.Menu {
	items := make([]*fyne.MenuItem, len(viewNames), len(viewNames)+12)
	for i, name := range viewNames {
		items[i] = fyne.NewMenuItem(name, func() { c.showView(w, name) })
		items[i].Shortcut = viewShortcut(i)
	}
	diag := fyne.NewMenuItem("Diagnostics", func() { c.showView(w, "Diagnostics") })
	diag.Shortcut = shortcutDiagnostics
	items = append(items, diag)
	prev := fyne.NewMenuItem("Previous Message", func() { c.stepMessage(w, -1) })
	prev.Shortcut = shortcutPrevMessage
	next := fyne.NewMenuItem("Next Message", func() { c.stepMessage(w, +1) })
	next.Shortcut = shortcutNextMessage
	items = append(items, fyne.NewMenuItemSeparator(), prev, next, fyne.NewMenuItemSeparator())
	items = append(items, c.playbackMenuItems(w)...)
	return fyne.NewMenu("View", items...)
}

// saveRepaired offers to save a repaired copy of window w's recording
// when its Findings tab can (it shows the tab either way).
func (c *controller) saveRepaired(w fyne.Window) {
	if v := c.views[w]; v != nil && v.link != nil && v.link.Actions().SaveRepaired != nil {
		v.link.Actions().SaveRepaired()
	}
}

// stepMessage selects the previous (-1) or next (+1) message of the
// selected topics in window w, once its bag has loaded.
func (c *controller) stepMessage(w fyne.Window, delta int) {
	if v := c.views[w]; v != nil && v.link != nil {
		v.link.StepMessage(delta)
	}
}

// showView shows a view of the bag in window w, once it has loaded.
func (c *controller) showView(w fyne.Window, name string) {
	if v := c.views[w]; v != nil && v.link != nil {
		v.link.SelectTab(name)
	}
}

// keyHelpRow is one line of Help > Keyboard and mouse. keys_test.go
// presses every row that is not Mouse in a real bag window and checks its
// effect, so the list names only what works.
type keyHelpRow struct {
	Keys, What string
	// Mouse rows are done with the mouse (they may name modifier keys).
	Mouse bool
}

// keyHelp is what Help > Keyboard and mouse lists.
var keyHelp = []keyHelpRow{
	{Keys: "Ctrl+O", What: "open a recording: a file (.bag, .mcap, .db3, metadata.yaml) or a folder; type or paste its path and press Enter"},
	{Keys: "Ctrl+L", What: "open a recording by URL (http://, https://, s3://, gs://), read in place"},
	{Keys: "Ctrl+Shift+O", What: "open a library: a folder of recordings (or a catalogue) as a table to sort, filter, open (Enter, double-click) and compare (Ctrl+click two)"},
	{Keys: "Ctrl+Shift+D", What: "compare with another recording (a file, a folder or a URL): the Diff tab, as bagscope diff compares; click a topic to go to its first differing message"},
	{Keys: "Ctrl+W / Ctrl+Q", What: "close the window, quit"},
	{Keys: "Ctrl+1 … Ctrl+9, Ctrl+0", What: "Topics, Message, Sensor, Log, Plots, Chunk, Records, Findings, TF, 3D (Sensor, Log, TF and 3D where the recording has images, point clouds, scans, /rosout or /tf)"},
	{Keys: "Alt+D", What: "the Diagnostics tab, where the recording has diagnostic_msgs/DiagnosticArray topics"},
	{Keys: "Alt+Left / Alt+Right", What: "previous, next message in time of the selected topics (or of the message's topic), from any view"},
	{Keys: "Space", What: "play, pause (when no text field or the bytes have the keyboard; click the timeline first if one does)"},
	{Keys: "Alt+Shift+Left / Alt+Shift+Right", What: "move the current time back, forward by 1 s, from any view"},
	{Keys: "Alt+Up / Alt+Down", What: "play faster, slower: 0.1× … 10×, then Max (every message in turn)"},
	{Keys: "Alt+L", What: "loop playback over the selected range (else the whole bag), or stop at its end"},
	{Keys: "Ctrl+F", What: "find: open the Find bar and type an expression (level >= ERROR, /imu.linear_acceleration.z > 12, msg ~ \"timeout\"); Enter searches every message, Escape closes the bar"},
	{Keys: "F3 / Shift+F3, Ctrl+G / Ctrl+Shift+G", What: "move the current time to the next, previous search hit (F3 in the Find bar, on the timeline or where no field has the keyboard; Ctrl+G from any view)"},
	{Keys: "Ctrl+E", What: "save the selected topics (all when none is) over the selected range (the whole recording when none is) as a new .bag, .mcap or .db3, as bagscope filter does"},
	{Keys: "Ctrl+B", What: "add a bookmark at the current time, with a name and a note: kept beside the recording (FILE.bookmarks.json, never inside it) and flagged on the timeline"},
	{Keys: "Ctrl+T", What: "hide or show the timeline's lanes (drag the divider under them to resize)"},
	{Keys: "Ctrl+Shift+H", What: "fold the header's figures into one line, or show them again (remembered)"},
	{Keys: "Ctrl+Shift+S", What: "save a repaired copy of a damaged recording (once Findings has found something)"},
	{Keys: "Timeline: + - 0", What: "zoom in, out, fit (click the timeline first)"},
	{Keys: "Timeline: Home End Left Right", What: "go to the start, the end, pan earlier, later"},
	{Keys: "Timeline: Z, Esc", What: "zoom to the selected range, clear it"},
	{Keys: "Plots: type TOPIC.FIELD, Down, Enter", What: "suggestions show as you type; Down, Enter take one, Enter again adds it"},
	{Keys: "Diff: Escape", What: "stop the comparison running (as its Cancel button does; Compare runs it again)"},
	{Keys: "Diagnostics: [ ]", What: "move the current time to the previous, next change of any status's level (click the table first)"},
	{Keys: "Bytes: arrows, Page Up/Down, Home, End", What: "move the byte cursor (the tree follows it)"},
	{Keys: "Bytes: Shift+arrows, Ctrl+A, Ctrl+C", What: "select bytes, select all, copy them as hex"},
	{Keys: "Message: Ctrl+C, Ctrl+Shift+C, Ctrl+Shift+Y, Ctrl+Shift+J", What: "copy the selected field's value, its path as plots take it, the message as YAML (rostopic echo), as JSON"},
	{Keys: "Timeline: wheel, drag", What: "zoom about the mouse, pan (over the lane titles, or dragging the bar at the right, scroll the lanes)", Mouse: true},
	{Keys: "Timeline: Shift+drag, drag on the axis", What: "select a time range", Mouse: true},
	{Keys: "Timeline: click, double-click", What: "move the current time there (the message at or before it shows everywhere), fit (or zoom to the range)", Mouse: true},
	{Keys: "Timeline: drag the red cursor", What: "move the current time, every view following", Mouse: true},
	{Keys: "Timeline: click a chunk or a lane title", What: "open the chunk, show only that topic", Mouse: true},
	{Keys: "Plots: wheel, Ctrl+wheel", What: "scroll the plots, zoom time about the mouse", Mouse: true},
	{Keys: "Plots: drag, Shift+drag", What: "pan, zoom to a box", Mouse: true},
	{Keys: "Plots: click a legend swatch, ×", What: "hide or show the series, remove it (the toolbar puts the legend at the side, below, or away)", Mouse: true},
	{Keys: "Plots: double-click, click a point", What: "fit, select the point's message everywhere", Mouse: true},
	{Keys: "Plots: drag a field from Fields", What: "onto a plot to add it there, below the plots for a new plot (double-click or + adds to the last)", Mouse: true},
	{Keys: "Topics: click a row", What: "show only the selected topics in the other views", Mouse: true},
	{Keys: "Bytes: click, drag, Shift+click", What: "move the byte cursor, select bytes", Mouse: true},
	{Keys: "Message: right-click a field", What: "copy its value or path, the message as YAML or JSON; plot it; list an array one element per row", Mouse: true},
	{Keys: "3D: drag, right-drag or Shift+drag, wheel", What: "orbit about the target, pan, zoom (Top, Side and 3D set the view; Follow keeps a frame in the middle)", Mouse: true},
	{Keys: "3D: click a point", What: "show its fields (x, y, z in the fixed frame and the message's own)", Mouse: true},
	{Keys: "Drop files or folders on a window", What: "open them", Mouse: true},
}

// showKeys lists the keyboard and mouse controls.
func showKeys(w fyne.Window) {
	rows := make([]fyne.CanvasObject, 0, 2*len(keyHelp))
	for _, k := range keyHelp {
		rows = append(rows, widget.NewLabelWithStyle(k.Keys, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), widget.NewLabel(k.What))
	}
	dialog.ShowCustom("Keyboard and mouse", "Close", container.New(layout.NewFormLayout(), rows...), w)
}
