package ui

import (
	"context"
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/bookmarks"
	"github.com/bagscope/bagscope/ui/chunk"
	"github.com/bagscope/bagscope/ui/diagview"
	"github.com/bagscope/bagscope/ui/diffview"
	"github.com/bagscope/bagscope/ui/fetch"
	findbar "github.com/bagscope/bagscope/ui/find"
	"github.com/bagscope/bagscope/ui/findings"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/logview"
	"github.com/bagscope/bagscope/ui/message"
	"github.com/bagscope/bagscope/ui/plots"
	"github.com/bagscope/bagscope/ui/records"
	"github.com/bagscope/bagscope/ui/sceneview"
	"github.com/bagscope/bagscope/ui/sensor"
	"github.com/bagscope/bagscope/ui/servicesview"
	"github.com/bagscope/bagscope/ui/tfview"
	"github.com/bagscope/bagscope/ui/timeline"
	"github.com/bagscope/bagscope/ui/topics"
	"github.com/bagscope/bagscope/ui/widgets"
)

// docViews are an open recording's link and the views the window drives
// itself (the menus, keys and command line): the timeline, with the
// player, and the plots. Both are nil for a recording without messages.
type docViews struct {
	link     *link.Hub
	timeline *timeline.Pane
	plots    *plots.View
	// header is the file's name and figures above the views.
	header *header
	// tabs are the views' tabs; nil for a recording without messages.
	tabs *container.AppTabs
	// find is the Find bar below the tabs (Ctrl+F); nil for a recording
	// without messages.
	find *findbar.Bar
	// marks are the bookmarks and events on the timeline.
	marks *bookmarks.Marks
	// splits are the views' dividers, which layouts save and restore.
	splits *widgets.SplitSet
	// fetch is a remote recording's status line; nil for a local one.
	fetch *fetch.Status
	// topics is the Topics tab; nil for a recording without messages.
	topics *topics.Panel
	// diff is the Diff tab, shown once File › Compare With… picks B; nil
	// for a recording without messages.
	diff *diffview.View
}

// newViews builds the linked views of a bag with messages: the timeline
// above, always visible, and the other views as tabs below it.
//
// Each view is built here and given the link; a view reaches the others
// only through it (link.Link, link.Actions). A new tab is one more item in
// tabs below; a view whose tab shows only for some recordings returns nil
// when it has nothing to show, as sensor.Tab and logview.Tab do.
//
// The window is winH high, of which the header and banners above take
// topH: the timeline's share is kept small enough on short windows that
// the tabs keep the height.
func newViews(d *model.Document, w fyne.Window, dv *docViews, winH, topH float32) fyne.CanvasObject {
	l := dv.link
	// A bag checked as it opens gets its topics' bytes from the check,
	// which reads every chunk anyway; others count them on their own.
	// A remote recording's window reads only what it shows: its bytes
	// wait for the user's Count (or a check), as they fetch every message.
	autoCheck := findings.AutoChecks(d)
	remote := bag.TransferOf(d.Storage).Remote
	topicsView := topics.New(d, l, autoCheck || remote)
	if remote {
		topicsView.OfferCount(d.Size)
	}
	tp := timeline.New(d, l)
	plotsView := plots.New(l)
	first := true
	recordsTab, findingsTab := recordsAndFindings(d, w, l, findings.Hooks{
		OnReport: func(fs []bag.Finding) { l.AddMarks(link.FindingMarks(fs, bag.DamageOf(d.Storage))...) },
		OnChecked: func(rep *bag.CheckReport, err error) {
			if remote && err == nil && rep.Errors() == 0 && !bag.DamageOf(d.Storage).Lost() {
				// The user's check fetched every chunk: its counts
				// are the bytes, with no second download.
				topicsView.SetBytes(rep.Bytes)
				return
			}
			if !autoCheck || !first || l.Context().Err() != nil {
				return
			}
			first = false
			if err == nil && rep.Errors() == 0 && !bag.DamageOf(d.Storage).Lost() {
				topicsView.SetBytes(rep.Bytes)
			} else {
				// Stopped, or a damaged bag: the check's counts may
				// differ from what the index reads, and the read marks
				// the suspect messages' ticks.
				topicsView.CountBytes()
			}
		},
	})
	tabs := container.NewAppTabs(
		container.NewTabItemWithIcon(fmt.Sprintf("Topics (%d)", len(d.Topics)), theme.ListIcon(), topicsView.Content),
		container.NewTabItemWithIcon("Message", theme.DocumentIcon(), message.New(l)),
		container.NewTabItemWithIcon("Plots", theme.GridIcon(), plotsView.Content()),
		container.NewTabItemWithIcon("Chunk", theme.StorageIcon(), chunk.New(l)),
		recordsTab,
		findingsTab,
	)
	at := 2 // the Sensor and Log tabs, where the bag has such topics, follow Message
	for _, it := range []*container.TabItem{sensor.Tab(l), logview.Tab(l)} {
		if it != nil {
			tabs.Items = slices.Insert(tabs.Items, at, it)
			at++
		}
	}
	// The TF and 3D tabs, where the bag has transforms (or something 3D
	// draws), came after the others: they are last, so every other tab
	// keeps its key.
	for _, it := range []*container.TabItem{tfview.Tab(l), sceneview.Tab(l), servicesview.Tab(l)} {
		if it != nil {
			tabs.Append(it)
		}
	}
	diagview.AppendTab(tabs, l)   // the Diagnostics tab, where the bag has diagnostics
	dv.diff = addDiffTab(l, tabs) // the Diff tab, once B is chosen
	l.SetTabs(func(name string) bool { return selectTabNamed(tabs, name) })
	tabs.OnSelected = func(*container.TabItem) { l.CatchUp(false) }
	dv.timeline, dv.plots, dv.tabs, dv.topics = tp, plotsView, tabs, topicsView
	l.ShowFollowed() // the Message tab opens on the message at the start
	// The Find bar (Ctrl+F) opens below the tabs, taking their height,
	// not the timeline's.
	dv.find = findbar.New(l, w)
	// F3 steps through the hits while the timeline has the keyboard too.
	tp.View().OnOtherKey = func(ev *fyne.KeyEvent, shift bool) {
		if ev.Name == fyne.KeyF3 {
			dv.find.Step(findbar.StepOf(shift))
		}
	}
	dv.marks = bookmarks.New(l, w)
	return timeline.NewSplit(tp, container.NewBorder(nil, dv.find.Content(), nil, dv.find.Side(), tabs), winH, topH)
}

// recordsAndFindings builds the Records and Findings tabs of document d,
// linked to each other and to l.
func recordsAndFindings(d *model.Document, w fyne.Window, l *link.Hub, h findings.Hooks) (recordsTab, findingsTab *container.TabItem) {
	recordsTab, rp := records.Tab(d)
	context.AfterFunc(l.Context(), rp.Stop)
	rp.SetLink(l)
	l.Actions().ShowRecord = func(off int64) {
		l.SelectTab("Records")
		rp.ShowOffset(off)
	}
	h.SelectRecord = rp.ShowOffset
	fp := findings.New(l.Context(), d, w, l.Actions().ShowRecord, h)
	l.Actions().SaveRepaired = func() {
		l.SelectTab("Findings")
		fp.SaveRepaired()
	}
	return recordsTab, fp.Tab()
}

// newEmptyViews builds the views of a recording without a message: the
// Topics tab says why there is none, in the words of the banner above
// it, and the Records and Findings tabs show what the file holds and
// what is wrong with it.
func newEmptyViews(d *model.Document, w fyne.Window, l *link.Hub) fyne.CanvasObject {
	title, detail := emptyText(d)
	recordsTab, findingsTab := recordsAndFindings(d, w, l, findings.Hooks{})
	tabs := container.NewAppTabs(
		container.NewTabItemWithIcon(fmt.Sprintf("Topics (%d)", len(d.Topics)), theme.ListIcon(), widgets.NewEmptyState(title, detail)),
		recordsTab,
		findingsTab,
	)
	// The TF tab, where the bag has transforms, came after the others:
	// it is last, so every other tab keeps its key. (No 3D tab: without a
	// message it would draw nothing.)
	if it := tfview.Tab(l); it != nil {
		tabs.Append(it)
	}
	l.SetTabs(func(name string) bool { return selectTabNamed(tabs, name) })
	return tabs
}

// emptyText says why a recording shows no topic, agreeing with the
// banner: a damaged file none of whose messages could be read, or one
// with no message written.
func emptyText(d *model.Document) (title, detail string) {
	if findings.Scanned(d) {
		return "No message could be read",
			"The file's index could not be used, so it was read record by record (the banner above says how far), and no message could be read from it. " +
				"Records lists what could be parsed; Findings says what is wrong with the file."
	}
	return "This bag has no messages",
		"It holds no connections and no chunks: the recording was opened and closed without any message being written. " +
			"Records lists its records; Findings checks them."
}

// newDocumentPanel shows an opened bag in a window winH high: the header
// above, the views below; addDefs asks for a definition folder (the
// window's File menu item). It returns the views, whose link the window
// closes.
func newDocumentPanel(d *model.Document, w fyne.Window, winH float32, addDefs func()) (fyne.CanvasObject, *docViews) {
	l := link.NewHub(d, link.Background)
	l.Actions().AddDefinitionFolder = addDefs
	dv := &docViews{link: l, header: newHeader(d, headerCollapsed(winH))}
	top := []fyne.CanvasObject{dv.header.root}
	if d.Summary.Messages == 0 && len(d.Topics) > 0 {
		top = append(top, widgets.Banner(theme.InfoIcon(), "This bag has connections but no messages: every topic below has 0 messages."))
	}
	// One banner says what the recording lost, with its actions; its
	// details stay collapsed until asked for.
	db := newDamageBanner(d, l)
	top = append(top, db.root)
	sep := widget.NewSeparator()
	top = append(top, sep)
	topBox := container.NewPadded(container.NewVBox(top...))
	l.OnReadLoss(func(loss stats.ReadLoss) {
		db.readLoss(loss)
		if loss.Complete {
			// The figure read, with what the recording claims beside it
			// (metadata.yaml, statistics), else what its index counts.
			counted := d.Summary.Messages
			if c := db.dmg.Claim; c != nil {
				counted = c.Messages
			}
			dv.header.setRead(loss.Read, counted)
		}
		// What the read lost is red on the timeline, over any note.
		l.AddMarks(link.LossMarks(db.dmg)...)
		// A suspect message's tick is marked on its lane.
		l.AddMarks(link.SuspectMarks(loss.SuspectAt)...)
	})
	var body fyne.CanvasObject
	if len(d.Topics) == 0 {
		body = newEmptyViews(d, w, l)
	} else {
		dv.splits = widgets.CollectSplits(func() {
			body = newViews(d, w, dv, winH, topBox.MinSize().Height)
		})
	}
	// A remote recording says, live, what reading it fetched.
	var bottom fyne.CanvasObject
	if st := fetch.NewStatus(l.Context(), d.Storage); st != nil {
		dv.fetch = st
		bottom = container.NewPadded(st.Root)
	}
	return container.NewBorder(topBox, bottom, nil, nil, body), dv
}

// repairHint is the scan banner's pointer to the window's own repair.
const repairHint = "Save repaired copy… writes an indexed copy with every message that could be read."
