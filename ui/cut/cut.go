// Package cut is the window's "Save Range/Topics As…": the selected
// topics (all when none is selected) over the selected time range (the
// whole recording when none is) written to a new ROS 1 bag, MCAP file or
// rosbag2 .db3, chosen by the name's extension. It is `bagscope filter`
// (model/query.Filter, the same code): payloads byte for byte,
// definitions and QoS kept, only the chunks in range read, in the
// background with progress and Cancel. The opened recording is never
// written.
package cut

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/query"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// Selection is what the window's cut keeps: its selected topics (none:
// all) and time range.
func Selection(l link.Link) bag.MessageFilter {
	f := bag.MessageFilter{Topics: l.Topics()}
	if t0, t1, ok := l.Range(); ok {
		f.Start, f.End = bag.TimeFromNanos(t0), bag.TimeFromNanos(t1)
	}
	return f
}

// Describe says what a selection keeps of l's recording, for the dialog.
func Describe(l link.Link, f bag.MessageFilter) string {
	d := l.Doc()
	topics := "all " + human.Plural(uint64(len(d.Topics)), "topic")
	if len(f.Topics) > 0 {
		topics = strings.Join(f.Topics, ", ")
	}
	start, _ := model.TimeRange(d.Storage)
	span := "the whole recording"
	if !f.Start.IsZero() || !f.End.IsZero() {
		span = fmt.Sprintf("%s .. %s", human.RelTime(f.Start.Nanos()-start.Nanos()), human.RelTime(f.End.Nanos()-start.Nanos()))
	}
	return fmt.Sprintf("Topics: %s.\nTime: %s.", topics, span)
}

// Write writes the selection f of l's recording to out (its format by
// extension), as `bagscope filter` does. progress gets the messages read
// and selected.
func Write(ctx context.Context, l link.Link, out string, f bag.MessageFilter, progress func(done, total int64)) (*query.FilterReport, error) {
	d := l.Doc()
	if err := model.CheckRepairOutput(d.Path, out, true); err != nil {
		return nil, err
	}
	if folder := recordingFolder(d.Path); folder != "" {
		if abs, err := filepath.Abs(out); err == nil && filepath.Dir(abs) == folder {
			return nil, fmt.Errorf("refusing to write into the recording's folder %s: name a file elsewhere", folder)
		}
	}
	if _, err := query.FilterFormat(out, ""); err != nil {
		return nil, err
	}
	return query.Filter(ctx, d.Storage, out, query.FilterOptions{Filter: f, Progress: progress})
}

// recordingFolder is the folder of a rosbag2 recording (opened by its
// folder or its metadata.yaml), whose files are all the recording; else
// "".
func recordingFolder(path string) string {
	if path == "" || bag.IsURL(path) {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	if filepath.Base(abs) == "metadata.yaml" {
		return filepath.Dir(abs)
	}
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		return abs
	}
	return ""
}

// Report says what a cut wrote, and what it could not read.
func Report(out string, rep *query.FilterReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Wrote %s (%s): %s of %s read, %s, %s compression.", out, rep.Format,
		human.Plural(rep.Messages, "message"), human.Count(uint64(rep.Read)), human.Plural(uint64(rep.Connections), "connection"), rep.Compression)
	if !rep.Complete() {
		fmt.Fprintf(&b, "\nParts of the recording could not be read: %s lost (Findings says where).", human.Plural(rep.LostMessages, "message"))
	}
	return b.String()
}

// Show asks where to save the window's cut and writes it in the
// background, with progress and Cancel.
func Show(l link.Link, w fyne.Window) {
	d := l.Doc()
	f := Selection(l)
	dir := ""
	if d.Path != "" && !bag.IsURL(d.Path) {
		dir = filepath.Dir(d.Path)
		if filepath.Base(d.Path) == "metadata.yaml" {
			dir = filepath.Dir(dir)
		}
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	ext := ".mcap"
	if d.Bag != nil {
		ext = ".bag"
	}
	path := widget.NewEntry()
	path.SetText(filepath.Join(dir, widgets.SiblingName(d.Name, "-cut"+ext)))
	path.CursorColumn = len([]rune(path.Text)) // the name shows, not the folder's start
	path.Validator = func(s string) error {
		_, err := query.FilterFormat(strings.TrimSpace(s), "")
		return err
	}
	browse := widget.NewButton("Folder…", func() {
		fd := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err == nil && u != nil {
				path.SetText(filepath.Join(u.Path(), filepath.Base(path.Text)))
			}
		}, w)
		if l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(path.Text))); err == nil {
			fd.SetLocation(l)
		}
		fd.Show()
	})
	what := widget.NewLabel(Describe(l, f) + "\nThe format follows the name: .bag (ROS 1), .mcap or .db3 (rosbag2). Payloads are copied byte for byte, as bagscope filter does.")
	what.Wrapping = fyne.TextWrapWord
	items := []*widget.FormItem{
		widget.NewFormItem("Save as", container.NewBorder(nil, nil, nil, browse, path)),
		widget.NewFormItem("", what),
	}
	dlg := dialog.NewForm("Save Range/Topics As", "Save", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		out := strings.TrimSpace(path.Text)
		if _, err := os.Stat(out); err == nil {
			dialog.ShowConfirm("Replace "+filepath.Base(out)+"?", out+" exists. Replace it?", func(yes bool) {
				if yes {
					run(l, w, out, f)
				}
			}, w)
			return
		}
		run(l, w, out, f)
	}, w)
	path.OnSubmitted = func(string) { dlg.Submit() }
	dlg.Resize(fyne.NewSize(640, 0))
	dlg.Show()
	w.Canvas().Focus(path)
}

// run writes the cut in the background behind a progress dialog with
// Cancel, then says what was written.
func run(l link.Link, w fyne.Window, out string, f bag.MessageFilter) {
	ctx, cancel := context.WithCancel(l.Context())
	bar := widget.NewProgressBar()
	status := widget.NewLabel("Reading the selected chunks…")
	prog := dialog.NewCustom("Saving "+filepath.Base(out), "Cancel", container.NewVBox(status, bar), w)
	finished := false
	prog.SetOnClosed(func() {
		if !finished {
			cancel() // the Cancel button
		}
	})
	prog.Resize(fyne.NewSize(480, 0))
	prog.Show()
	var (
		mu     sync.Mutex
		last   time.Time
		rep    *query.FilterReport
		err    error
		queued bool
		done   int64
		total  int64
	)
	progress := func(n, of int64) {
		mu.Lock()
		done, total = n, of
		now := time.Now()
		if queued || now.Sub(last) < 50*time.Millisecond && n < of {
			mu.Unlock()
			return
		}
		last, queued = now, true
		mu.Unlock()
		fyne.Do(func() {
			mu.Lock()
			n, of := done, total
			queued = false
			mu.Unlock()
			if of > 0 {
				bar.SetValue(min(1, float64(n)/float64(of)))
				status.SetText(fmt.Sprintf("%s of %s read", human.Count(uint64(n)), human.Plural(uint64(of), "message")))
			}
		})
	}
	l.Go(func(context.Context) {
		r, e := Write(ctx, l, out, f, progress)
		mu.Lock()
		rep, err = r, e
		mu.Unlock()
	}, func() {
		cancelled := ctx.Err() != nil
		finished = true
		prog.Hide()
		cancel()
		mu.Lock()
		r, e := rep, err
		mu.Unlock()
		switch {
		case cancelled || errors.Is(e, context.Canceled):
			dialog.ShowInformation("Not saved", "Cancelled: "+out+" was not written.", w)
		case e != nil:
			dialog.ShowError(fmt.Errorf("%s could not be written: %w", out, e), w)
		default:
			dialog.ShowInformation("Saved", Report(out, r), w)
		}
	})
}
