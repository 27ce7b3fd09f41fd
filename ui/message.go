package ui

import "fyne.io/fyne/v2"

// newMessagePanel is a placeholder until the view is built.
func newMessagePanel(l *docLink) fyne.CanvasObject {
	return newEmptyState("The decoded message", "Not built yet.")
}
