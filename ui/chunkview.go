package ui

import "fyne.io/fyne/v2"

// newChunkPanel is a placeholder until the view is built.
func newChunkPanel(l *docLink) fyne.CanvasObject {
	return newEmptyState("The chunk view", "Not built yet.")
}
