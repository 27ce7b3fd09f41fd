package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
)

var (
	shortcutOpen  = &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutClose = &desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutQuit  = &desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}
)

// mainMenu builds window w's menu bar.
func (c *controller) mainMenu(w fyne.Window) *fyne.MainMenu {
	open := fyne.NewMenuItem("Open…", func() { c.openRecording(w) })
	open.Shortcut = shortcutOpen
	openURL := fyne.NewMenuItem("Open URL…", func() { c.showOpenURLDialog(w) })
	openURL.Shortcut = shortcutOpenURL
	library := fyne.NewMenuItem("Open Library…", func() { c.openLibrary(w) })
	library.Shortcut = shortcutOpenLibrary
	libraryURL := fyne.NewMenuItem("Open Library at URL…", func() { c.showOpenLibraryURLDialog(w) })
	compare := fyne.NewMenuItem("Compare With…", func() { c.compareWith(w) })
	compare.Shortcut = shortcutCompare
	defs := fyne.NewMenuItem("Add Message Definition Folder…", func() { c.addDefinitionFolder(w) })
	saveLayout := fyne.NewMenuItem("Save Layout…", func() { c.saveLayout(w) })
	loadLayout := fyne.NewMenuItem("Load Layout…", func() { c.loadLayout(w) })
	recent := fyne.NewMenuItem("Open Recent", nil)
	recent.ChildMenu = c.recentMenu(w)
	sample := fyne.NewMenuItem("Open ROS 1 Sample", func() { c.openSample(w) })
	sample2 := fyne.NewMenuItem("Open ROS 2 Sample", func() { c.openSample2(w) })
	saveCut := fyne.NewMenuItem("Save Range/Topics As…", func() { c.saveCut(w) })
	saveCut.Shortcut = shortcutSaveCut
	repaired := fyne.NewMenuItem("Save Repaired Copy…", func() { c.saveRepaired(w) })
	repaired.Shortcut = shortcutSaveRepaired
	closeItem := fyne.NewMenuItem("Close", func() { c.closeWindow(w) })
	closeItem.Shortcut = shortcutClose
	quit := fyne.NewMenuItem("Quit", func() { c.quitApp() })
	quit.Shortcut = shortcutQuit
	quit.IsQuit = true
	items := append([]*fyne.MenuItem{open, openURL, library, libraryURL, recent, sample, sample2, fyne.NewMenuItemSeparator()}, c.recordingItems(w)...)
	items = append(items, compare)
	items = append(items, fyne.NewMenuItemSeparator(), saveCut, repaired, defs, saveLayout, loadLayout, fyne.NewMenuItemSeparator(), closeItem, quit)
	file := fyne.NewMenu("File", items...)
	help := fyne.NewMenu("Help", fyne.NewMenuItem("Keyboard and mouse", func() { showKeys(w) }), fyne.NewMenuItem("About bagscope", func() { c.showAbout(w) }))
	return fyne.NewMainMenu(file, c.viewMenu(w), c.findMenu(w), help)
}

func (c *controller) recentMenu(w fyne.Window) *fyne.Menu {
	paths := c.recent.Paths()
	if len(paths) == 0 {
		none := fyne.NewMenuItem("No recent files", nil)
		none.Disabled = true
		return fyne.NewMenu("", none)
	}
	items := make([]*fyne.MenuItem, 0, len(paths)+2)
	for _, p := range paths {
		items = append(items, fyne.NewMenuItem(bag.Base(p)+"  —  "+bag.Shown(bag.Dir(p)), func() { c.openPath(p, w) }))
	}
	items = append(items, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Clear Recent", func() {
		c.recent.Clear()
		c.refreshMenus()
	}))
	return fyne.NewMenu("", items...)
}

// refreshMenus rebuilds every window's menu, after the recent files change.
func (c *controller) refreshMenus() {
	for _, w := range c.app.Driver().AllWindows() {
		if w.MainMenu() != nil {
			w.SetMainMenu(c.mainMenu(w))
		}
	}
	if c.start != nil {
		setWindowContent(c.start, newStartPage(c, c.start))
	}
}

// addShortcuts registers the menu's shortcuts on w's canvas.
func (c *controller) addShortcuts(w fyne.Window) {
	w.Canvas().AddShortcut(shortcutOpen, func(fyne.Shortcut) { c.openRecording(w) })
	w.Canvas().AddShortcut(shortcutOpenURL, func(fyne.Shortcut) { c.showOpenURLDialog(w) })
	w.Canvas().AddShortcut(shortcutOpenLibrary, func(fyne.Shortcut) { c.openLibrary(w) })
	w.Canvas().AddShortcut(shortcutAddRecording, func(fyne.Shortcut) { c.addRecording(w) })
	w.Canvas().AddShortcut(shortcutClose, func(fyne.Shortcut) { c.closeWindow(w) })
	w.Canvas().AddShortcut(shortcutQuit, func(fyne.Shortcut) { c.quitApp() })
	w.Canvas().AddShortcut(shortcutHeader, func(fyne.Shortcut) { c.toggleHeader(w) })
	w.Canvas().AddShortcut(shortcutPrevMessage, func(fyne.Shortcut) { c.stepMessage(w, -1) })
	w.Canvas().AddShortcut(shortcutNextMessage, func(fyne.Shortcut) { c.stepMessage(w, +1) })
	w.Canvas().AddShortcut(shortcutSaveRepaired, func(fyne.Shortcut) { c.saveRepaired(w) })
	w.Canvas().AddShortcut(shortcutCompare, func(fyne.Shortcut) { c.compareWith(w) })
	c.addPlaybackShortcuts(w)
	c.addFindShortcuts(w)
	for i, name := range viewNames {
		w.Canvas().AddShortcut(viewShortcut(i), func(fyne.Shortcut) { c.showView(w, name) })
	}
}

func (c *controller) showAbout(w fyne.Window) {
	icon := canvas.NewImageFromResource(iconResource)
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(72, 72))
	title := widget.NewLabelWithStyle("bagscope "+Version, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	text := widget.NewLabelWithStyle("A desktop inspector for ROS1 bag files.\nTopics, chunks, records and messages, read straight from the file.", fyne.TextAlignCenter, fyne.TextStyle{})
	dialog.ShowCustom("About bagscope", "Close", container.NewVBox(container.NewCenter(icon), title, text), w)
}
