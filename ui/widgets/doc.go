// Package widgets holds the Fyne widgets and layouts that several views
// of a bagscope window share: text that cuts with an ellipsis and a
// tooltip (ClipLabel, LineLabel), rasters for text and rectangles drawn
// many times a second, the hex view, splits that remember where the user
// left them, the completion entry, sparklines, compact rows and columns,
// banners and empty states, and the time axis's ticks. It knows nothing
// of the views or the window.
package widgets
