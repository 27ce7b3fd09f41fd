package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/widgets"
)

// talkerFolder is a rosbag2 bag folder rosbag2 wrote (metadata.yaml and
// one MCAP).
const talkerFolder = "ros2__rosbag2/rosbag2_py/test/resources/mcap/talker"

// openTestDialog shows the Open dialog in a fresh window of a test app.
func openTestDialog(t *testing.T) (*controller, fyne.Window, *openDialog) {
	t.Helper()
	c := newTestController(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1024, 640))
	return c, w, c.showOpenDialog(w)
}

// opened returns the path of the one bag window c has open, or "".
func opened(c *controller) []string {
	var out []string
	for _, v := range c.views {
		if v.doc != nil {
			out = append(out, v.doc.Path)
		}
	}
	slices.Sort(out)
	return out
}

// TestOpenDialogTypedPath types or pastes a path into the Open dialog and
// presses Enter: a file and a rosbag2 folder open, any other folder is
// listed, a path relative to the listed folder works, and a path that is
// not there says so.
func TestOpenDialogTypedPath(t *testing.T) {
	testdata, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	talker := filepath.Clean(uitest.SharedBags(t, talkerFolder))
	for _, tc := range []struct {
		name   string
		first  string // typed and entered before text, to list a folder
		text   string
		opens  string // the recording opened, or ""
		lists  string // the folder listed, or ""
		status string
	}{
		{name: "a file", text: filepath.Join(testdata, "single-message.bag"), opens: filepath.Join(testdata, "single-message.bag")},
		{name: "pasted with quotes", text: `"` + filepath.Join(testdata, "arm7.bag") + `"`, opens: filepath.Join(testdata, "arm7.bag")},
		{name: "a file URI", text: "file://" + filepath.Join(testdata, "arm7.bag"), opens: filepath.Join(testdata, "arm7.bag")},
		{name: "a rosbag2 folder", text: talker + "/", opens: talker},
		{name: "a plain folder is listed", text: testdata, lists: testdata},
		{name: "relative to the listed folder", first: testdata, text: "robot.bag", opens: filepath.Join(testdata, "robot.bag")},
		{name: "not there", text: filepath.Join(testdata, "no-such.bag"), status: "Not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, w, o := openTestDialog(t)
			if tc.first != "" {
				test.Type(o.path, tc.first)
				o.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			}
			o.path.SetText("")
			test.Type(o.path, tc.text)
			o.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			got := opened(c)
			switch {
			case tc.opens != "":
				if len(got) != 1 || got[0] != tc.opens {
					t.Errorf("opened %v, want %s", got, tc.opens)
				}
				if w.Canvas().Overlays().Top() != nil {
					t.Error("the dialog stayed open")
				}
			default:
				if len(got) != 0 {
					t.Errorf("opened %v, want nothing", got)
				}
				if w.Canvas().Overlays().Top() == nil {
					t.Error("the dialog closed without opening anything")
				}
			}
			if tc.lists != "" && o.dir != tc.lists {
				t.Errorf("lists %s, want %s", o.dir, tc.lists)
			}
			if tc.status != "" && !strings.Contains(o.status.Text, tc.status) {
				t.Errorf("says %q, want %q", o.status.Text, tc.status)
			}
		})
	}
}

// TestOpenDialogList lists a folder: its sub-folders, rosbag2 folders
// marked as recordings, then its recordings with their size; no hidden
// entries or other files. A click on a folder lists it, on a recording
// picks it, and Open opens what is picked; "Open this folder" opens the
// listed folder as one recording.
func TestOpenDialogList(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"sub", ".hidden", "r2"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bagData, err := os.ReadFile("../testdata/single-message.bag")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"r2/metadata.yaml": []byte("rosbag2_bagfile_information: {}\n"),
		"B.bag":            bagData,
		"a.mcap":           []byte("x"),
		"notes.txt":        []byte("x"),
		"sub/inner.bag":    bagData,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, _, o := openTestDialog(t)
	o.navigate(dir)
	var names []string
	for _, e := range o.entries {
		names = append(names, e.name)
	}
	if want := []string{"r2", "sub", "a.mcap", "B.bag"}; !slices.Equal(names, want) {
		t.Fatalf("lists %v, want %v", names, want)
	}
	if !o.entries[0].recording || o.entries[1].recording || o.entries[3].size != int64(len(bagData)) {
		t.Errorf("entries %+v", o.entries)
	}
	o.list.Select(1) // sub
	if o.dir != filepath.Join(dir, "sub") || len(o.entries) != 1 || o.entries[0].name != "inner.bag" {
		t.Fatalf("clicking sub lists %s: %+v", o.dir, o.entries)
	}
	o.list.Select(0)
	if o.path.Text != filepath.Join(dir, "sub", "inner.bag") || len(opened(c)) != 0 {
		t.Fatalf("clicking a recording: path %q, opened %v", o.path.Text, opened(c))
	}
	o.submit() // the Open button
	if got := opened(c); len(got) != 1 || got[0] != filepath.Join(dir, "sub", "inner.bag") {
		t.Errorf("Open opened %v", got)
	}
}

// TestDropOpens drops a file and a rosbag2 folder on a window: each opens.
func TestDropOpens(t *testing.T) {
	c := newTestController(t)
	w := test.NewTempWindow(t, widget.NewLabel(""))
	file, err := filepath.Abs("../testdata/single-message.bag")
	if err != nil {
		t.Fatal(err)
	}
	talker := filepath.Clean(uitest.SharedBags(t, talkerFolder))
	c.dropped(w, []fyne.URI{storage.NewFileURI(file), storage.NewFileURI(talker)})
	want := []string{talker, file}
	slices.Sort(want)
	if got := opened(c); !slices.Equal(got, want) {
		t.Errorf("dropping opened %v, want %v", got, want)
	}
}

// TestOpenDialogShots saves the start page and the Open dialog listing
// testdata, at 1024x640 in the test theme, to $BAGSCOPE_SHOTS to look at.
func TestOpenDialogShots(t *testing.T) {
	dir := os.Getenv("BAGSCOPE_SHOTS")
	if dir == "" {
		t.Skip("BAGSCOPE_SHOTS not set")
	}
	c := newTestController(t)
	testdata, err := filepath.Abs("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	c.recent.Load(testdata + "/arm7.bag\n" + filepath.Clean(uitest.SharedBags(t, talkerFolder)) + "\n/gone/run.db3")
	w := test.NewTempWindow(t, widget.NewLabel(""))
	c.start = w
	w.SetContent(newStartPage(c, w))
	w.Resize(fyne.NewSize(1024, 640))
	if err := widgets.WritePNG(filepath.Join(dir, "start-1024.png"), uitest.Capture(w.Canvas())); err != nil {
		t.Fatal(err)
	}
	o := c.showOpenDialog(w)
	o.navigate(testdata)
	o.path.SetText(testdata + "/arm7.bag")
	if err := widgets.WritePNG(filepath.Join(dir, "open-1024.png"), uitest.Capture(w.Canvas())); err != nil {
		t.Fatal(err)
	}
}
