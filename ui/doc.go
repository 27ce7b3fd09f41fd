// Package ui is bagscope's window: the app and its start page, the bag
// windows with their header, banners, menus and keys, --screenshot, and
// newViews, which builds a recording's views (each in a package of its
// own below ui: timeline, topics, message, sensor, logview, plots, chunk,
// records, findings) and links them through a link.Hub. Only ui and the
// packages below it touch widgets. Callbacks run on Fyne's UI goroutine;
// background work hands its results back with fyne.Do.
package ui
