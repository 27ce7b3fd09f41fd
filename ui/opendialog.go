package ui

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/widgets"
)

// The Open dialog is bagscope's own, for files and folders at once:
// Fyne's file dialog picks either files or folders, and takes no typed
// path. A path typed or pasted into its field opens with Enter: a file
// or a recording folder (a rosbag2 bag, with its metadata.yaml) opens, any
// other folder is listed. The list shows the folder's sub-folders and
// recordings with their size; a click on a folder lists it, on a
// recording picks it, and Open (or Enter) opens what is picked. "Open
// this folder" reads the listed folder as one recording (ROS 1 bags split
// by rosbag record --split).

// openEntry is one row of the Open dialog's list.
type openEntry struct {
	name string
	dir  bool
	// recording is a file bagscope opens, or a rosbag2 bag folder.
	recording bool
	size      int64
}

// isRecordingFolder says whether dir is a rosbag2 bag folder: it holds
// a metadata.yaml.
func isRecordingFolder(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "metadata.yaml"))
	return err == nil && !st.IsDir()
}

// isRecordingFile says whether a file's name is one the Open dialog
// lists.
func isRecordingFile(name string) bool {
	lower := strings.ToLower(name)
	for _, ext := range openExtensions {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

// listFolder lists dir's sub-folders (not hidden ones) and recordings,
// folders first, each by name.
func listFolder(dir string) ([]openEntry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []openEntry
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		full := filepath.Join(dir, name)
		st, err := os.Stat(full) // follows links
		if err != nil {
			continue
		}
		switch {
		case st.IsDir():
			out = append(out, openEntry{name: name, dir: true, recording: isRecordingFolder(full)})
		case isRecordingFile(name):
			out = append(out, openEntry{name: name, recording: true, size: st.Size()})
		}
	}
	slices.SortFunc(out, func(a, b openEntry) int {
		if a.dir != b.dir {
			if a.dir {
				return -1
			}
			return 1
		}
		return cmp.Compare(strings.ToLower(a.name), strings.ToLower(b.name))
	})
	return out, nil
}

// expandPath makes a typed path absolute: ~ is the home folder, and a
// relative path is taken from dir.
func expandPath(s, dir string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, `"'`) // a path pasted with its quotes
	s = strings.TrimPrefix(s, "file://")
	if s == "~" || strings.HasPrefix(s, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			s = filepath.Join(home, strings.TrimPrefix(s, "~"))
		}
	}
	if s != "" && !filepath.IsAbs(s) && !bag.IsURL(s) {
		s = filepath.Join(dir, s)
	}
	return s
}

// openDialog is the state of one Open dialog.
type openDialog struct {
	c       *controller
	w       fyne.Window
	dir     string
	entries []openEntry
	path    *widget.Entry
	list    *widget.List
	where   *widgets.ClipRich
	status  *widget.Label
	d       *dialog.ConfirmDialog
	// pick, when set, takes the path picked instead of opening it.
	pick func(path string)
}

// showOpenDialog asks for a recording, a file or a folder, to open in
// (or from) window w.
func (c *controller) showOpenDialog(w fyne.Window) *openDialog {
	return c.showPickDialog(w, "Open a recording", "Open", nil)
}

// showPickDialog is the Open dialog with another title and button; pick,
// when set, takes the path picked instead of opening it (File › Compare
// With…).
func (c *controller) showPickDialog(w fyne.Window, title, confirm string, pick func(path string)) *openDialog {
	o := &openDialog{c: c, w: w, pick: pick}
	o.path = widget.NewEntry()
	o.path.SetPlaceHolder("Type or paste a path: a recording file or folder, then Enter")
	o.path.OnSubmitted = func(string) { o.submit() }
	o.where = widgets.DimClip("", theme.SizeNameText, fyne.TextAlignLeading)
	o.status = widget.NewLabel("")
	o.status.Wrapping = fyne.TextWrapWord
	o.list = widget.NewList(
		func() int { return len(o.entries) },
		func() fyne.CanvasObject {
			return container.NewBorder(nil, nil, widget.NewIcon(theme.FolderIcon()), widget.NewLabel("size"), widget.NewLabel("name"))
		},
		func(id widget.ListItemID, obj fyne.CanvasObject) {
			e := o.entries[id]
			row := obj.(*fyne.Container)
			name, icon, size := row.Objects[0].(*widget.Label), row.Objects[1].(*widget.Icon), row.Objects[2].(*widget.Label)
			name.SetText(e.name)
			switch {
			case e.dir && e.recording:
				icon.SetResource(theme.StorageIcon())
				size.SetText("rosbag2 folder")
			case e.dir:
				icon.SetResource(theme.FolderIcon())
				size.SetText("")
			default:
				icon.SetResource(theme.FileIcon())
				size.SetText(human.Size(e.size))
			}
		})
	o.list.OnSelected = func(id widget.ListItemID) {
		if id < 0 || id >= len(o.entries) {
			return
		}
		e := o.entries[id]
		full := filepath.Join(o.dir, e.name)
		if e.dir && !e.recording {
			o.list.UnselectAll()
			o.navigate(full)
			return
		}
		o.path.SetText(full) // picked: Open or Enter opens it
		o.status.SetText("")
	}
	up := widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() { o.navigate(filepath.Dir(o.dir)) })
	home := widget.NewButtonWithIcon("", theme.HomeIcon(), func() {
		if h, err := os.UserHomeDir(); err == nil {
			o.navigate(h)
		}
	})
	thisFolder := widget.NewButtonWithIcon("Open this folder", theme.FolderOpenIcon(), func() { o.open(o.dir) })
	top := container.NewVBox(o.path, container.NewBorder(nil, nil, container.NewHBox(up, home), thisFolder, o.where))
	body := container.NewBorder(top, o.status, nil, nil, o.list)

	o.d = dialog.NewCustomConfirm(title, confirm, "Cancel", body, func(ok bool) {
		if ok {
			o.submit()
		}
	}, w)
	o.navigate(c.openStartDir())
	o.d.Show()
	o.d.Resize(fyne.NewSize(min(820, w.Canvas().Size().Width*0.92), min(600, w.Canvas().Size().Height*0.92)))
	w.Canvas().Focus(o.path)
	return o
}

// openStartDir is where the Open dialog starts: the folder of the last
// recording opened, else the working folder, else home.
func (c *controller) openStartDir() string {
	for _, p := range c.recent.Paths() {
		if bag.IsURL(p) {
			continue
		}
		if d := filepath.Dir(p); d != "" {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				return d
			}
		}
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	h, _ := os.UserHomeDir()
	return h
}

// navigate lists folder dir.
func (o *openDialog) navigate(dir string) {
	entries, err := listFolder(dir)
	if err != nil {
		o.status.SetText("Cannot list " + dir + ": " + err.Error())
		return
	}
	o.dir, o.entries = dir, entries
	o.where.SetText(dir)
	o.list.UnselectAll()
	o.list.Refresh()
	o.list.ScrollToTop()
	if len(entries) == 0 {
		o.status.SetText("No recordings or folders here.")
	} else {
		o.status.SetText("")
	}
}

// submit opens or lists what the path field names (Enter, Open): a file
// or a rosbag2 folder opens; another folder is listed; a URL opens in
// place; a path that does not exist says so.
func (o *openDialog) submit() {
	text := strings.TrimSpace(o.path.Text)
	if text == "" {
		o.status.SetText("Type or paste a path, or pick a recording in the list.")
		o.d.Show() // the Open button hid it
		return
	}
	if bag.IsURL(text) {
		o.open(text)
		return
	}
	p := expandPath(text, o.dir)
	st, err := os.Stat(p)
	switch {
	case err != nil:
		o.status.SetText("Not found: " + p)
		o.d.Show()
	case st.IsDir() && !isRecordingFolder(p):
		o.navigate(p)
		o.path.SetText("")
		o.d.Show()
	default:
		o.open(p)
	}
}

// open opens path and closes the dialog.
func (o *openDialog) open(path string) {
	o.d.Hide()
	if o.pick != nil {
		o.pick(path)
		return
	}
	o.c.openPath(path, o.w)
}
