package ui

import "fyne.io/fyne/v2"

// newPlotsPanel is a placeholder until the view is built.
func newPlotsPanel(l *docLink) fyne.CanvasObject {
	return newEmptyState("Plots", "Not built yet.")
}
