package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/ui/widgets"
)

// newStartPage is what bagscope shows without a file: open buttons, the
// recent files and a hint about drag and drop.
func newStartPage(c *controller, w fyne.Window) fyne.CanvasObject {
	icon := canvas.NewImageFromResource(iconResource)
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(88, 88))
	title := widget.NewLabelWithStyle("bagscope", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameHeadingText
	tagline := widgets.DimWrapped("Inspect ROS 1 bags and ROS 2 recordings (MCAP, rosbag2 folders): topics, chunks, records and messages.", fyne.TextAlignLeading)
	head := container.NewBorder(nil, nil, icon, nil, container.NewVBox(layout.NewSpacer(), title, tagline, layout.NewSpacer()))

	open := widget.NewButtonWithIcon("Open…", theme.FolderOpenIcon(), func() { c.showOpenDialog(w) })
	open.Importance = widget.HighImportance
	sample := widget.NewButtonWithIcon("Open the sample bag", theme.FileIcon(), func() { c.openSample(w) })
	buttons := container.NewGridWithColumns(2, open, sample)

	recentTitle := widget.NewLabelWithStyle("Recent files", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	recent := container.NewVBox(recentTitle)
	paths := c.recent.Paths()
	if len(paths) == 0 {
		recent.Add(widgets.DimText("No recent files yet.", theme.SizeNameText, fyne.TextAlignLeading))
	}
	for _, path := range paths {
		recent.Add(newRecentRow(path, func() { c.openPath(path, w) }))
	}

	hint := widgets.DimText("Tip: drop recordings (.bag, .mcap, .db3, bag folders) on this window to open them.", theme.SizeNameText, fyne.TextAlignCenter)

	page := container.NewVBox(head, widgets.Gap(theme.Padding()*2), buttons, widget.NewSeparator(), recent, widget.NewSeparator(), hint)
	return container.NewVScroll(container.NewPadded(widgets.NewCentered(620, page)))
}

// newRecentRow is one recent file on the start page: its name, then its
// folder cut with an ellipsis (the whole path in a tooltip), over a flat
// button that opens it. A long path never spills or is clipped mid-letter.
func newRecentRow(path string, open func()) fyne.CanvasObject {
	b := widget.NewButton("", open)
	b.Importance = widget.LowImportance
	name := widget.NewLabelWithStyle(bag.Base(path), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	dir := widgets.DimClip(bag.Shown(bag.Dir(path)), theme.SizeNameText, fyne.TextAlignLeading)
	dir.Tip = bag.Shown(path)
	indent := canvas.NewRectangle(color.Transparent) // the icon where a button's would be
	indent.SetMinSize(fyne.NewSize(theme.InnerPadding()-theme.Padding(), 0))
	lead := container.NewHBox(indent, widget.NewIcon(theme.DocumentIcon()), name)
	return container.NewStack(b, container.NewBorder(nil, nil, lead, nil, dir))
}
