package library

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model/catalog"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// copyTo copies the file or folder src to dst.
func copyTo(t *testing.T, src, dst string) {
	t.Helper()
	st, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	if st.IsDir() {
		ents, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			copyTo(t, filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()))
		}
		return
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// reference runs the reference rosbag on the ROS 1 bags: each one's
// message count, and a digest of its messages (topic, receive time and
// bytes, in order), so two bags holding the same messages digest alike.
func reference(t *testing.T, paths ...string) (counts []int, digests []string) {
	t.Helper()
	const script = `
import hashlib, rosbag, sys
for p in sys.argv[1:]:
    h, n = hashlib.sha256(), 0
    for topic, msg, t in rosbag.Bag(p).read_messages(raw=True):
        h.update(topic.encode()); h.update(str(t.to_nsec()).encode()); h.update(msg[1]); n += 1
    print(n, h.hexdigest())
`
	out, err := exec.Command("/usr/bin/python3", append([]string{"-c", script}, paths...)...).Output()
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("skipping (CI never skips this): the reference rosbag: %v", err)
		}
		t.Fatalf("the reference rosbag: %v", err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		n, d, _ := strings.Cut(l, " ")
		c, err := strconv.Atoi(n)
		if err != nil {
			t.Fatalf("reference said %q", l)
		}
		counts, digests = append(counts, c), append(digests, d)
	}
	return counts, digests
}

// fleet copies real recordings into a folder: two ROS 1 bags holding the
// same messages (one uncompressed, one lz4), a rosbag2 .db3 folder and an
// MCAP, in subfolders, with a file that is no recording.
func fleet(t *testing.T) (dir string, bags [2]string) {
	dir = t.TempDir()
	bags = [2]string{filepath.Join(dir, "day1", "example.bag"), filepath.Join(dir, "day2", "example-lz4.bag")}
	copyTo(t, uitest.SharedBags(t, "cruise-automation__rosbag.js/fixtures/example.bag"), bags[0])
	copyTo(t, uitest.SharedBags(t, "cruise-automation__rosbag.js/fixtures/example-lz4.bag"), bags[1])
	copyTo(t, uitest.SharedBags(t, "ros2__rosbag2/rosbag2_py/test/resources/sqlite3/talker"), filepath.Join(dir, "day2", "talker"))
	copyTo(t, uitest.SharedBags(t, "ros2__rosbag2/rosbag2_py/test/resources/mcap/talker/talker.mcap"), filepath.Join(dir, "talker.mcap"))
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a recording"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, bags
}

// cellsOf returns the table cells shown for row i.
func cellsOf(w fyne.Window, row int) []*cell {
	var out []*cell
	for _, o := range uitest.ShownObjects(w.Content()) {
		if c, ok := o.(*cell); ok && c.row == row && c.Visible() {
			out = append(out, c)
		}
	}
	return out
}

func newLibrary(t *testing.T, dir string, opened *[]string) (*View, fyne.Window) {
	t.Helper()
	a := uitest.NewApp(t)
	old := Background
	Background = uitest.SyncRun
	t.Cleanup(func() { Background = old })
	w := a.NewWindow("library")
	t.Cleanup(w.Close)
	loaded := false
	v := New(w, dir, Actions{Open: func(p string) { *opened = append(*opened, p) }}, func() { loaded = true })
	w.SetContent(v.Content)
	w.Canvas().SetOnTypedKey(v.TypedKey)
	w.Resize(fyne.NewSize(1280, 800))
	if !loaded {
		t.Fatal("the library did not say it had loaded")
	}
	return v, w
}

// TestLibraryShowsAFolder opens a folder of real recordings as a library
// and uses it as a user does: the rows (counts checked against the
// reference rosbag), sorting by a header, filtering, Enter and a double
// click opening a recording, and comparing two selected ones (equal by the
// reference's digest of their messages).
func TestLibraryShowsAFolder(t *testing.T) {
	dir, bags := fleet(t)
	counts, digests := reference(t, bags[0], bags[1])
	var opened []string
	v, w := newLibrary(t, dir, &opened)

	rows := v.Rows()
	if rows.Len() != 4 {
		t.Fatalf("%d rows, want the 4 recordings (2 bags, a rosbag2 folder, an MCAP)", rows.Len())
	}
	byPath := map[string]*catalog.Recording{}
	for i := range rows.Len() {
		r := rows.Row(i)
		byPath[r.Path] = r
		if catalog.Badge(r) != catalog.BadgeHealthy {
			t.Errorf("%s: badge %v, health %q; want healthy", r.Path, catalog.Badge(r), r.Health)
		}
	}
	for i, b := range bags {
		r := byPath[b]
		if r == nil {
			t.Fatalf("no row for %s; rows: %v", b, keys(byPath))
		}
		if r.Messages != int64(counts[i]) {
			t.Errorf("%s: %d messages, the reference rosbag reads %d", b, r.Messages, counts[i])
		}
	}
	if r := byPath[filepath.Join(dir, "day2", "talker")]; r == nil || r.Format != "rosbag2" && !strings.Contains(r.Format, "db3") && !strings.Contains(r.Format, "sqlite") {
		t.Errorf("the rosbag2 folder's row: %+v", r)
	}
	shown := uitest.ShownLines(w)
	for _, want := range []string{"day1/example.bag", "talker.mcap", "Messages", "OK"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the window does not show %q:\n%s", want, shown)
		}
	}

	// A click on the Messages header sorts by it, most first; again,
	// fewest first.
	for _, desc := range []bool{true, false} {
		test.Tap(uitest.FindButton(t, w.Content(), "Messages"))
		col, d := rows.SortedBy()
		if col != catalog.ColMessages || d != desc {
			t.Fatalf("sorted by %v (desc %v), want Messages (desc %v)", col, d, desc)
		}
		for i := 1; i < rows.Len(); i++ {
			a, b := rows.Row(i-1).Messages, rows.Row(i).Messages
			if desc && a < b || !desc && a > b {
				t.Errorf("row %d has %d messages after %d (desc %v)", i, b, a, desc)
			}
		}
	}

	// The filter leaves the lz4 bag; Enter in the box opens it.
	test.Type(v.Filter(), "lz4")
	if rows.Len() != 1 || rows.Row(0).Path != bags[1] {
		t.Fatalf("filter lz4: %d rows", rows.Len())
	}
	v.Filter().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !slices.Equal(opened, []string{bags[1]}) {
		t.Fatalf("Enter in the filter opened %v, want %s", opened, bags[1])
	}
	v.Filter().SetText("no such recording")
	if !v.empty.Visible() || !strings.Contains(v.emptyMsg.Text, "No recording matches") {
		t.Errorf("a filter matching nothing shows %q (visible %v)", v.emptyMsg.Text, v.empty.Visible())
	}
	v.Filter().SetText("")

	// A double click on a row opens its recording.
	i0 := v.rowIndex(bags[0])
	cs := cellsOf(w, i0)
	if len(cs) == 0 {
		t.Fatalf("no cell shown for row %d", i0)
	}
	test.DoubleTap(cs[0])
	if !slices.Equal(opened, []string{bags[1], bags[0]}) {
		t.Fatalf("the double click opened %v", opened)
	}

	// Down then Enter, from the window, opens the next row.
	w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyDown})
	w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(opened) != 3 || opened[2] != rows.Row(min(i0+1, rows.Len()-1)).Path {
		t.Fatalf("Down, Enter opened %v; rows: %v", opened, keys(byPath))
	}

	// Two selected bags compare equal, as the reference's digests of
	// their messages say they are.
	compare := uitest.FindButton(t, w.Content(), "Compare")
	v.Tap(v.rowIndex(bags[0]), false)
	if !compare.Disabled() {
		t.Error("Compare is enabled with one recording selected")
	}
	v.Tap(v.rowIndex(bags[1]), true)
	if compare.Disabled() {
		t.Fatalf("Compare is disabled with %v selected", v.Selected())
	}
	test.Tap(compare)
	c := v.LastComparison()
	if c == nil || c.Err != nil {
		t.Fatalf("no comparison: %+v", c)
	}
	if want := digests[0] == digests[1]; c.Result.Equal() != want {
		t.Errorf("comparison equal %v; the reference's digests equal %v (%v)", c.Result.Equal(), want, c.Lines())
	}
	if !strings.Contains(uitest.Shown(w), "Equal: the same") {
		t.Errorf("the comparison is not shown:\n%s", uitest.ShownLines(w))
	}

	// A bag and the rosbag2 folder differ, in every topic of each.
	c = Compare(context.Background(), bags[0], filepath.Join(dir, "day2", "talker"), nil)
	if c.Err != nil || c.Result.Equal() {
		t.Errorf("a ROS 1 bag and the talker compare equal: %v", c.Lines())
	}
}

// TestLibraryEmptyAndCancelled: a folder without recordings says so, and
// a reading cancelled says that.
func TestLibraryEmptyAndCancelled(t *testing.T) {
	var opened []string
	empty := t.TempDir()
	v, w := newLibrary(t, empty, &opened)
	if v.Rows().Len() != 0 || !v.empty.Visible() || !strings.Contains(uitest.ShownLines(w), "No recordings in") {
		t.Errorf("an empty folder shows:\n%s", uitest.ShownLines(w))
	}

	dir, _ := fleet(t)
	var pending func()
	old := Background
	Background = func(f func()) { pending = f }
	t.Cleanup(func() { Background = old })
	w2 := fyne.CurrentApp().NewWindow("library")
	t.Cleanup(w2.Close)
	v2 := New(w2, dir, Actions{}, nil)
	w2.SetContent(v2.Content)
	if !v2.busy.Visible() {
		t.Error("no progress shown while the folder is read")
	}
	test.Tap(v2.cancel)
	pending()
	if v2.busy.Visible() || v2.Rows().Len() != 0 || !strings.Contains(v2.emptyMsg.Text, "Cancelled") {
		t.Errorf("after Cancel: busy %v, %d rows, %q", v2.busy.Visible(), v2.Rows().Len(), v2.emptyMsg.Text)
	}
}

func keys(m map[string]*catalog.Recording) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestLibraryOfACatalogue: a catalogue bagscope catalog wrote shows its
// recordings, named from the folder they share.
func TestLibraryOfACatalogue(t *testing.T) {
	dir, bags := fleet(t)
	out := filepath.Join(t.TempDir(), "cat")
	if _, err := catalog.Build(context.Background(), []string{dir}, catalog.Options{Out: out}); err != nil {
		t.Fatal(err)
	}
	var opened []string
	v, w := newLibrary(t, out, &opened)
	if v.Rows().Len() != 4 {
		t.Fatalf("%d rows from the catalogue, want 4", v.Rows().Len())
	}
	if shown := uitest.ShownLines(w); !strings.Contains(shown, "day1/example.bag") || strings.Contains(shown, dir) {
		t.Errorf("the catalogue's paths are not shown from their shared folder %s:\n%s", dir, shown)
	}
	v.OpenRow(v.rowIndex(bags[1]))
	if !slices.Equal(opened, []string{bags[1]}) {
		t.Errorf("opened %v, want %s", opened, bags[1])
	}
}
