package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/timeline"
)

// Playback keys. Space has no modifier, so it cannot be a shortcut (a
// focused text field types it): it plays or pauses when no widget has
// the keyboard, or the timeline has it. The others work from any view.
var (
	shortcutTimeBack    = &desktop.CustomShortcut{KeyName: fyne.KeyLeft, Modifier: fyne.KeyModifierAlt | fyne.KeyModifierShift}
	shortcutTimeForward = &desktop.CustomShortcut{KeyName: fyne.KeyRight, Modifier: fyne.KeyModifierAlt | fyne.KeyModifierShift}
	shortcutFaster      = &desktop.CustomShortcut{KeyName: fyne.KeyUp, Modifier: fyne.KeyModifierAlt}
	shortcutSlower      = &desktop.CustomShortcut{KeyName: fyne.KeyDown, Modifier: fyne.KeyModifierAlt}
	shortcutLoop        = &desktop.CustomShortcut{KeyName: fyne.KeyL, Modifier: fyne.KeyModifierAlt}
	shortcutLanes       = &desktop.CustomShortcut{KeyName: fyne.KeyT, Modifier: fyne.KeyModifierShortcutDefault}
	// shortcutHeader folds the header's figures into one line, or shows them.
	shortcutHeader = &desktop.CustomShortcut{KeyName: fyne.KeyH, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
)

// addPlaybackShortcuts registers the playback keys on w's canvas.
func (c *controller) addPlaybackShortcuts(w fyne.Window) {
	c.onTypedKey(w, func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeySpace {
			c.withPlayer(w, (*timeline.Player).Toggle)
		}
	})
	w.Canvas().AddShortcut(shortcutTimeBack, func(fyne.Shortcut) { c.withPlayer(w, func(p *timeline.Player) { p.StepTime(-timeline.TimeStep) }) })
	w.Canvas().AddShortcut(shortcutTimeForward, func(fyne.Shortcut) { c.withPlayer(w, func(p *timeline.Player) { p.StepTime(timeline.TimeStep) }) })
	w.Canvas().AddShortcut(shortcutFaster, func(fyne.Shortcut) {
		c.withPlayer(w, func(p *timeline.Player) { p.SetSpeed(model.Faster(p.Speed())) })
	})
	w.Canvas().AddShortcut(shortcutSlower, func(fyne.Shortcut) {
		c.withPlayer(w, func(p *timeline.Player) { p.SetSpeed(model.Slower(p.Speed())) })
	})
	w.Canvas().AddShortcut(shortcutLoop, func(fyne.Shortcut) { c.withPlayer(w, func(p *timeline.Player) { p.SetLoop(!p.Loop()) }) })
	w.Canvas().AddShortcut(shortcutLanes, func(fyne.Shortcut) { c.toggleLanes(w) })
}

// playbackMenuItems are the View menu's playback items.
func (c *controller) playbackMenuItems(w fyne.Window) []*fyne.MenuItem {
	play := fyne.NewMenuItem("Play / Pause (Space)", func() { c.withPlayer(w, (*timeline.Player).Toggle) })
	back := fyne.NewMenuItem("Back 1 s", func() { c.withPlayer(w, func(p *timeline.Player) { p.StepTime(-timeline.TimeStep) }) })
	back.Shortcut = shortcutTimeBack
	fwd := fyne.NewMenuItem("Forward 1 s", func() { c.withPlayer(w, func(p *timeline.Player) { p.StepTime(timeline.TimeStep) }) })
	fwd.Shortcut = shortcutTimeForward
	faster := fyne.NewMenuItem("Faster", func() { c.withPlayer(w, func(p *timeline.Player) { p.SetSpeed(model.Faster(p.Speed())) }) })
	faster.Shortcut = shortcutFaster
	slower := fyne.NewMenuItem("Slower", func() { c.withPlayer(w, func(p *timeline.Player) { p.SetSpeed(model.Slower(p.Speed())) }) })
	slower.Shortcut = shortcutSlower
	loop := fyne.NewMenuItem("Loop", func() { c.withPlayer(w, func(p *timeline.Player) { p.SetLoop(!p.Loop()) }) })
	loop.Shortcut = shortcutLoop
	lanes := fyne.NewMenuItem("Hide / Show Timeline Lanes", func() { c.toggleLanes(w) })
	lanes.Shortcut = shortcutLanes
	header := fyne.NewMenuItem("Fold / Unfold the Header", func() { c.toggleHeader(w) })
	header.Shortcut = shortcutHeader
	return []*fyne.MenuItem{play, back, fwd, faster, slower, loop, lanes, header}
}

// withPlayer calls f with window w's player, once its bag has loaded.
func (c *controller) withPlayer(w fyne.Window, f func(*timeline.Player)) {
	if v := c.views[w]; v != nil && v.views != nil && v.views.timeline != nil {
		f(v.views.timeline.Player())
	}
}

// toggleLanes hides or shows window w's timeline lanes.
func (c *controller) toggleLanes(w fyne.Window) {
	if v := c.views[w]; v != nil && v.views != nil && v.views.timeline != nil {
		v.views.timeline.ToggleCollapsed()
	}
}

// toggleHeader folds window w's header into one line, or shows it whole.
func (c *controller) toggleHeader(w fyne.Window) {
	if v := c.views[w]; v != nil && v.views != nil && v.views.header != nil {
		v.views.header.Toggle()
	}
}

// onTypedKey adds f to what w does with a key typed where no widget has
// the keyboard (Space plays, F3 steps through the hits).
func (c *controller) onTypedKey(w fyne.Window, f func(*fyne.KeyEvent)) {
	prev := w.Canvas().OnTypedKey()
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if prev != nil {
			prev(ev)
		}
		f(ev)
	})
}
