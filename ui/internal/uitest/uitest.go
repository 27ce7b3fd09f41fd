// Package uitest holds what the tests of bagscope's window and views
// share: opening recordings, golden markup and hex lines, finding and
// reading what a window shows. Only tests import it.
package uitest

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/assets"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/link"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// SyncRun runs f at once: background work made synchronous.
func SyncRun(f func()) { f() }

// Root returns the repository's root: the folder above the test's own
// holding go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = up
	}
}

// Testdata returns the path of name under the repository's testdata/.
func Testdata(t testing.TB, name string) string {
	return filepath.Join(Root(t), "testdata", name)
}

// OpenSample opens the embedded sample bag, closed when the test ends.
func OpenSample(t testing.TB) *model.Document {
	t.Helper()
	d, err := model.OpenBytes(context.Background(), assets.SampleName, assets.SampleBag, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// OpenDoc opens the recording at path, closed when the test ends.
func OpenDoc(t testing.TB, path string) *model.Document {
	t.Helper()
	d, err := model.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// SharedBags returns the path of rel under the shared recordings
// (../shared/bags beside the repository), skipping the test (failing it
// in CI) when they are missing.
func SharedBags(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(Root(t), "..", "shared", "bags", rel)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bag missing in CI: %v", err)
		}
		t.Skipf("skipping (CI never skips this): %v", err)
	}
	return p
}

// OpenShared opens a shared recording (see SharedBags).
func OpenShared(t testing.TB, rel string) *model.Document {
	t.Helper()
	return OpenDoc(t, SharedBags(t, rel))
}

// NewApp starts a test app for t and makes link.Background run its work
// at once, as the window's tests do; both are undone when t ends.
func NewApp(t testing.TB) fyne.App {
	t.Helper()
	a := test.NewTempApp(t)
	old := link.Background
	link.Background = SyncRun
	t.Cleanup(func() { link.Background = old })
	return a
}
