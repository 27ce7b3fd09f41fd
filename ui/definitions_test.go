package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestDefinitionFolderAtOnce opens a .db3 whose custom type has no
// definition, then adds a folder holding it: the open window reopens and
// decodes the topic with it, a window that lacked nothing is left alone,
// and the folder is remembered for the next runs.
func TestDefinitionFolderAtOnce(t *testing.T) {
	custom := uitest.SharedBags(t, "UbiquityRobotics__fiducials/fiducial_slam/test/aruco_transforms.db3")
	saved := model.Definitions
	t.Cleanup(func() { model.Definitions = saved })

	c := newTestController(t)
	lacking := openKeysWindowSized(t, c, custom)
	fine := openKeysWindowSized(t, c, "")
	conn := func(v *bagView) string {
		for _, cn := range v.doc.Storage.Connections() {
			if strings.HasSuffix(cn.Type, "FiducialTransformArray") {
				return cn.DefinitionSource + "|" + cn.Definition
			}
		}
		t.Fatal("no FiducialTransformArray connection")
		return ""
	}
	if got := conn(lacking.v); got != "|" {
		t.Fatalf("the connection has a definition before the folder is added: %q", got)
	}
	oldFine := fine.v.doc
	// Its message offers to add a definition folder.
	addDefs := func(k *keysWindow) bool {
		k.v.link.SelectTab("Message")
		k.v.link.WithIndex(func(x *model.MessageIndex) { k.v.link.SelectMessage(x.Topic("/fiducial_transforms").At(0)) })
		for _, o := range uitest.ShownObjects(k.w.Content()) {
			if b, ok := o.(*widget.Button); ok && b.Visible() && b.Text == "Add definition folder…" {
				return true
			}
		}
		return false
	}
	if !addDefs(lacking) {
		t.Error("the undecoded message offers no Add definition folder… button")
	}

	root := t.TempDir()
	dir := filepath.Join(root, "fiducial_msgs", "msg")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"FiducialTransformArray.msg": "std_msgs/Header header\nint32 image_seq\nFiducialTransform[] transforms\n",
		"FiducialTransform.msg":      "int32 fiducial_id\ngeometry_msgs/Transform transform\nfloat64 image_error\nfloat64 object_error\nfloat64 fiducial_area\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var reopened *bagView
	c.onOpened = func(v *bagView) { reopened = v }
	if n := c.useDefinitionDir(root); n != 1 {
		t.Errorf("%d windows reopened, want 1", n)
	}
	if reopened != lacking.v || lacking.v.doc == nil || lacking.v.err != nil {
		t.Fatalf("the window did not reopen: %+v", reopened)
	}
	if got := conn(lacking.v); !strings.HasPrefix(got, dir) || !strings.Contains(got, "FiducialTransform[] transforms") {
		t.Errorf("after adding the folder the connection's definition is %q", got)
	}
	lacking.tabs = appTabs(t, lacking.w)
	if addDefs(lacking) {
		t.Error("the decoded message still offers to add a definition folder")
	}
	if fine.v.doc != oldFine {
		t.Error("a window that lacked no definition was reopened")
	}
	if got := c.app.Preferences().String(prefMsgDirs); got != root {
		t.Errorf("remembered folders %q, want %q", got, root)
	}
}

// TestScreenshotUsesSavedDefinitionFolders: the folders saved with File ›
// Add Message Definition Folder… are looked in by every run, --screenshot
// included, before --msgs.
func TestScreenshotUsesSavedDefinitionFolders(t *testing.T) {
	a := uitest.NewApp(t)
	a.Preferences().SetString(prefMsgDirs, "/saved/one\n/saved/two\n")
	for _, opts := range []options{{}, {screenshot: "out.png", files: []string{"x.db3"}}} {
		opts.msgs = []string{"/flag"}
		if got, want := definitionDirs(a, opts), []string{"/saved/one", "/saved/two", "/flag"}; strings.Join(got, ":") != strings.Join(want, ":") {
			t.Errorf("screenshot %q: folders %q, want %q", opts.screenshot, got, want)
		}
	}
}
