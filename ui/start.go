package ui

import (
	"image/color"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	ttwidget "github.com/dweymouth/fyne-tooltip/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
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

	open := ttwidget.NewButtonWithIcon("Open…", theme.FolderOpenIcon(), func() { c.openRecording(w) })
	open.Importance = widget.HighImportance
	open.SetToolTip("Open a recording file or folder; type or paste its path (Ctrl+O)")
	url := ttwidget.NewButtonWithIcon("Open URL…", theme.ComputerIcon(), func() { c.showOpenURLDialog(w) })
	url.SetToolTip("Open a recording over HTTP(S) or from S3, read in place (Ctrl+L)")
	sample := ttwidget.NewButtonWithIcon("ROS 1 sample", theme.FileIcon(), func() { c.openSample(w) })
	sample.SetToolTip("Open the embedded ROS 1 bag: IMU, odometry, TF, a camera and /rosout, 20 s")
	sample2 := ttwidget.NewButtonWithIcon("ROS 2 sample", theme.FileIcon(), func() { c.openSample2(w) })
	sample2.SetToolTip("Open the embedded ROS 2 MCAP that rosbag2 recorded of its talker demo: /topic and /rosout")
	buttons := container.NewGridWithColumns(2, open, url, sample, sample2)

	recentTitle := widget.NewLabelWithStyle("Recent files and folders", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	recent := container.NewVBox(recentTitle)
	paths := c.recent.Paths()
	if len(paths) == 0 {
		recent.Add(widgets.DimText("No recent files yet.", theme.SizeNameText, fyne.TextAlignLeading))
	}
	for _, path := range paths {
		recent.Add(newRecentRow(path, func() { c.openPath(path, w) }))
	}

	hint := widgets.DimText("Tip: drop recordings (.bag, .mcap, .db3, rosbag2 folders) on this window to open them.", theme.SizeNameText, fyne.TextAlignCenter)

	page := container.NewVBox(head, widgets.Gap(theme.Padding()*2), buttons, widget.NewSeparator(), recent, widget.NewSeparator(), hint)
	return container.NewVScroll(container.NewPadded(widgets.NewCentered(620, page)))
}

// newRecentRow is one recent file or folder on the start page: its name,
// then its folder cut with an ellipsis (the whole path in a tooltip) and
// its kind and size, over a flat button that opens it. A long path never
// spills or is clipped mid-letter.
func newRecentRow(path string, open func()) fyne.CanvasObject {
	b := widget.NewButton("", open)
	b.Importance = widget.LowImportance
	name := widget.NewLabelWithStyle(bag.Base(path), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	dir := widgets.DimClip(bag.Shown(bag.Dir(path)), theme.SizeNameText, fyne.TextAlignLeading)
	dir.Tip = bag.Shown(path)
	indent := canvas.NewRectangle(color.Transparent) // the icon where a button's would be
	indent.SetMinSize(fyne.NewSize(theme.InnerPadding()-theme.Padding(), 0))
	icon := theme.DocumentIcon()
	kind := recentKind(path)
	if strings.Contains(kind, "folder") {
		icon = theme.FolderIcon()
	}
	lead := container.NewHBox(indent, widget.NewIcon(icon), name)
	what := widgets.DimText(kind, theme.SizeNameText, fyne.TextAlignTrailing)
	what.Truncation = fyne.TextTruncateOff // the folder gives way first
	return container.NewStack(b, container.NewBorder(nil, nil, lead, container.NewPadded(what), dir))
}

// recentKind names what a recent path is, with its size: "MCAP, 12.6
// KiB", "rosbag2 folder", "gone" when it no longer exists. It costs a
// Stat or two; URLs are not fetched.
func recentKind(path string) string {
	if bag.IsURL(path) {
		return "URL"
	}
	st, err := os.Stat(path)
	if err != nil {
		return "not found"
	}
	if st.IsDir() {
		if isRecordingFolder(path) {
			return "rosbag2 folder"
		}
		return "folder"
	}
	lower := strings.ToLower(strings.TrimSuffix(strings.ToLower(path), ".zstd"))
	kind := "file"
	switch {
	case strings.HasSuffix(lower, ".bag"), strings.HasSuffix(lower, ".bag.active"):
		kind = "ROS 1 bag"
	case strings.HasSuffix(lower, ".mcap"):
		kind = "MCAP"
	case strings.HasSuffix(lower, ".db3"):
		kind = "rosbag2 SQLite"
	case strings.HasSuffix(lower, "metadata.yaml"):
		return "rosbag2 folder"
	}
	return kind + ", " + human.Size(st.Size())
}
