package library

import (
	"errors"
	"os"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"github.com/bagscope/bagscope/model/catalog"
	"github.com/bagscope/bagscope/ui/library/query"
)

// queryCatalog is the catalogue the query box reads recordings and
// topics from: the library's own when it was opened on one, else one
// written (once, in a temporary folder removed as the window closes) from
// the rows the library read, so no recording is read again.
type queryCatalog struct {
	mu     sync.Mutex
	source string // the library's catalogue ("" for a folder)
	recs   []catalog.Recording
	topics []catalog.Topic
	ready  bool   // the rows are read
	tmp    string // the catalogue written for a folder
}

// set gives the rows a folder's library read.
func (q *queryCatalog) set(recs []catalog.Recording, topics []catalog.Topic) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.recs, q.topics, q.ready = recs, topics, true
	q.removeLocked()
}

// dir returns the catalogue's folder, writing it when needed.
func (q *queryCatalog) dir() (string, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.source != "" {
		return q.source, nil
	}
	if !q.ready {
		return "", errors.New("the library is still reading its recordings: run the query once they are listed (or query messages('PATH', '/topic') alone)")
	}
	if q.tmp != "" {
		return q.tmp, nil
	}
	tmp, err := os.MkdirTemp("", "bagscope-library-")
	if err != nil {
		return "", err
	}
	if err := catalog.WriteRows(tmp, q.recs, q.topics); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	q.tmp = tmp
	written.Store(q, struct{}{})
	return tmp, nil
}

// written are the catalogues for query boxes whose folders may still be
// there: a quit closes no window.
var written sync.Map

// RemoveTemporary removes the catalogues written for query boxes of
// windows still open (the app calls it as it quits).
func RemoveTemporary() {
	written.Range(func(k, _ any) bool {
		k.(*queryCatalog).remove()
		return true
	})
}

func (q *queryCatalog) remove() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.removeLocked()
}

func (q *queryCatalog) removeLocked() {
	if q.tmp != "" {
		os.RemoveAll(q.tmp)
		q.tmp = ""
	}
	written.Delete(q)
}

// sample is a recording and topic for the query box's examples: the
// first recording shown and its topic with the most messages.
func (v *View) sample() (string, string) {
	for i := range v.rows.Len() {
		r := v.rows.Row(i)
		if r.Error != "" {
			continue
		}
		topic, n := "", int64(-1)
		v.qcat.mu.Lock()
		for _, t := range v.qcat.topics {
			if t.Path == r.Path && t.Messages > n {
				topic, n = t.Topic, t.Messages
			}
		}
		v.qcat.mu.Unlock()
		if topic != "" {
			return r.Path, topic
		}
	}
	return "", ""
}

// withQuery puts the recordings' table and the query box in two tabs.
func (v *View) withQuery(recordings fyne.CanvasObject) fyne.CanvasObject {
	v.qcat = &queryCatalog{}
	if catalog.IsCatalog(v.source) {
		v.qcat.source = v.source
	}
	v.query = query.New(v.win, query.Actions{Open: v.acts.Open, Catalog: v.qcat.dir, Sample: v.sample})
	v.tabs = container.NewAppTabs(
		container.NewTabItemWithIcon("Recordings", theme.ListIcon(), recordings),
		container.NewTabItemWithIcon("Query (SQL)", theme.SearchIcon(), v.query.Content),
	)
	v.tabs.OnSelected = func(t *container.TabItem) {
		if t.Content == v.query.Content {
			v.query.FocusEditor()
		}
	}
	return v.tabs
}

// Query returns the query box.
func (v *View) Query() *query.View { return v.query }

// ShowQuery shows the query box's tab.
func (v *View) ShowQuery() { v.tabs.SelectIndex(1) }

// queryShown reports whether the query box's tab is shown.
func (v *View) queryShown() bool { return v.tabs != nil && v.tabs.SelectedIndex() == 1 }
