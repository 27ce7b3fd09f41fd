package catalog

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestFindNames: each recording found is named by its path below its root
// without its extension, keeping the extension where two would share a
// name and the whole path where two roots hold the same one; a root that
// is one recording is named by itself.
func TestFindNames(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a/run.bag", "a/run.mcap", "a/b/x.bag", "r2/metadata.yaml", "r2/r2_0.db3", "notes.txt", "other/x.bag"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roots := []string{filepath.Join(dir, "a") + "/", filepath.Join(dir, "r2"), filepath.Join(dir, "other", "x.bag"), dir}
	found, err := Find(context.Background(), roots)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a/b/x.bag":   "b/x",
		"a/run.bag":   "run.bag",
		"a/run.mcap":  "run.mcap",
		"r2":          "r2",
		"other/x.bag": "x",
	}
	if len(found) != len(want) {
		t.Fatalf("found %v; want %d recordings", found, len(want))
	}
	for _, f := range found {
		rel, _ := filepath.Rel(dir, f.Path)
		if want[rel] != f.Name {
			t.Errorf("%s: named %q; want %q", rel, f.Name, want[rel])
		}
	}
}
