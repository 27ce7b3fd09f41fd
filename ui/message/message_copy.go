package message

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/echo"
	"github.com/bagscope/bagscope/model/human"
)

// The Message view's copy shortcuts, taken by the field tree while it has
// the focus. Ctrl+C copies what has the focus: the selected field's value
// in the tree, the selected bytes in the hex view.
var (
	shortcutCopyPath = &desktop.CustomShortcut{KeyName: fyne.KeyC, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	shortcutCopyYAML = &desktop.CustomShortcut{KeyName: fyne.KeyY, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	shortcutCopyJSON = &desktop.CustomShortcut{KeyName: fyne.KeyJ, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
)

// typedShortcut does a copy shortcut typed in the field tree.
func (p *messagePanel) typedShortcut(s fyne.Shortcut) {
	switch s.ShortcutName() {
	case (&fyne.ShortcutCopy{}).ShortcutName():
		p.copyValue(p.sel)
	case shortcutCopyPath.ShortcutName():
		p.copyPath(p.sel)
	case shortcutCopyYAML.ShortcutName():
		p.copyYAML()
	case shortcutCopyJSON.ShortcutName():
		p.copyJSON()
	}
}

// fieldPath is id's path in the plot syntax, after the topic:
// "/odom.pose.pose.position.x", "/joint_states.position[3]"; the topic
// alone for the message.
func (p *messagePanel) fieldPath(id string) string {
	if p.msg == nil {
		return ""
	}
	if id == "" || p.ft == nil {
		return p.msg.Conn.Topic
	}
	return p.msg.Conn.Topic + "." + p.ft.Path(id)
}

// copyText puts s on the clipboard and says what was copied.
func (p *messagePanel) copyText(s, what string) {
	fyne.CurrentApp().Clipboard().SetContent(s)
	lines := strings.Count(s, "\n") + 1
	p.setDetail(fmt.Sprintf("Copied %s (%s, %s).", what, human.Plural(uint64(lines), "line"), human.Plural(uint64(len(s)), "byte")))
}

// copyValue copies the value of id (the message when no field is selected).
func (p *messagePanel) copyValue(id string) {
	if p.ft == nil || p.msg == nil || model.IsMore(id) {
		return
	}
	if id == "" {
		p.copyYAML()
		return
	}
	p.copyText(p.ft.CopyText(id), "the value of "+p.fieldPath(id))
}

// copyPath copies id's path in the plot syntax.
func (p *messagePanel) copyPath(id string) {
	if p.msg == nil || model.IsMore(id) {
		return
	}
	path := p.fieldPath(id)
	p.copyText(path, "the path "+path)
}

// copyYAML copies the message as `rostopic echo` prints it.
func (p *messagePanel) copyYAML() {
	if p.ft == nil || p.msg == nil {
		return
	}
	p.copyText(echo.Message(p.ft.Root()), "the message as YAML (rostopic echo)")
}

// copyJSON copies the message as JSON ("bagscope cat --json").
func (p *messagePanel) copyJSON() {
	if p.ft == nil || p.msg == nil {
		return
	}
	p.copyText(echo.JSON(p.ft.Root()), "the message as JSON")
}

// copyItems are the copy menu's items for field id ("" for the message).
func (p *messagePanel) copyItems(id string) []*fyne.MenuItem {
	value := fyne.NewMenuItem("Copy value", func() { p.copyValue(id) })
	value.Shortcut = &fyne.ShortcutCopy{}
	path := fyne.NewMenuItem("Copy path  "+cutMiddle(p.fieldPath(id), 48), func() { p.copyPath(id) })
	path.Shortcut = shortcutCopyPath
	yaml := fyne.NewMenuItem("Copy message as YAML (rostopic echo)", p.copyYAML)
	yaml.Shortcut = shortcutCopyYAML
	json := fyne.NewMenuItem("Copy message as JSON", p.copyJSON)
	json.Shortcut = shortcutCopyJSON
	if id == "" {
		return []*fyne.MenuItem{path, yaml, json}
	}
	items := []*fyne.MenuItem{value, path}
	if p.ft != nil {
		if kp := p.ft.KeyPath(id); kp != "" {
			full := p.msg.Conn.Topic + "." + kp
			items = append(items, fyne.NewMenuItem("Copy path by key  "+cutMiddle(full, 48), func() { p.copyText(full, "the path "+full) }))
		}
	}
	return append(items, yaml, json)
}

// rowMenu selects row id and opens its menu at pos (absolute): copy the
// value, the path or the message, plot the field, list an array's
// elements one per row or several to a row.
func (p *messagePanel) rowMenu(id string, pos fyne.Position) {
	if p.ft == nil || p.msg == nil || model.IsMore(id) {
		return
	}
	p.tree.Select(id)
	if p.sel != id {
		p.selectField(id)
	}
	items := p.copyItems(id)
	if p.plottable(id) && p.l.Actions().AddSeries != nil {
		items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Plot field", p.plotField))
	}
	arr := id
	if model.IsGroup(id) {
		arr, _ = model.ParentID(id)
	}
	if n := p.ft.Node(arr); model.Groupable(n) {
		label := "One element per row"
		if p.ft.PerElement(arr) {
			label = fmt.Sprintf("Several %s per row", elemKind(n))
		}
		items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem(label, func() { p.togglePerElement(arr) }))
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(p.tree)
	if c == nil {
		return
	}
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", items...), c, pos)
}

// togglePerElement lists array id's elements one per row, or several to
// a row, keeping the array selected.
func (p *messagePanel) togglePerElement(id string) {
	p.ft.SetPerElement(id, !p.ft.PerElement(id))
	p.tree.OpenBranch(id)
	p.tree.Refresh()
	p.tree.Select(id)
	p.tree.ScrollTo(id)
	if p.sel != id {
		p.selectField(id)
	}
}

// cutMiddle shortens s to about n characters with an ellipsis in the
// middle, so a path keeps its topic and its last field.
func cutMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	half := (n - 1) / 2
	return string(r[:half]) + "…" + string(r[len(r)-(n-1-half):])
}

// plottable reports whether Plot field takes id: a single number, or a
// group row of an array of numbers (a series per element of its range).
func (p *messagePanel) plottable(id string) bool {
	if p.ft == nil {
		return false
	}
	if arr, _, _, ok := p.ft.Group(id); ok {
		return arr.Kind.Plottable()
	}
	return p.ft.Plottable(id)
}
