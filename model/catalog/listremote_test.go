package catalog

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/remote"
)

// TestGroupListingAsLocal: the recordings found among an S3 listing's keys
// are those the local lister finds among the same files: rosbag2 folders
// (a prefix holding a metadata.yaml, nothing below it looked into, the
// root itself one), recording files at any depth, other files left out;
// each with the size of its files.
func TestGroupListingAsLocal(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]int // path below the root: size
	}{
		{"mixed", map[string]int{
			"a.bag": 10, "notes.txt": 3, "site/b.mcap": 20, "site/deep/c.bag": 30,
			"site/run1/metadata.yaml": 4, "site/run1/run1_0.db3": 50, "site/run1/run1_1.db3": 60,
			"site/run1/sub/inner.bag": 70, "site/run1/sub/metadata.yaml": 5,
			"x/y/z/metadata.yaml": 6, "x/y/z/z_0.mcap": 80,
		}},
		{"the root is a rosbag2 folder", map[string]int{"metadata.yaml": 4, "r_0.db3": 9, "other/o.bag": 7}},
		{"nothing", map[string]int{"readme.md": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			var ents []remote.Entry
			for p, n := range tc.files {
				full := filepath.Join(root, filepath.FromSlash(p))
				os.MkdirAll(filepath.Dir(full), 0o755)
				if err := os.WriteFile(full, make([]byte, n), 0o644); err != nil {
					t.Fatal(err)
				}
				ents = append(ents, remote.Entry{URL: "s3://b/pre/" + p, Name: p, Size: int64(n), ETag: `"e"`})
			}
			local, err := list(context.Background(), []string{root})
			if err != nil {
				t.Fatal(err)
			}
			var want, got []string
			for _, e := range local {
				rel := strings.TrimPrefix(strings.TrimPrefix(e.path, root), "/")
				want = append(want, fmt.Sprintf("%s %d", rel, e.size))
			}
			for _, e := range groupListing("s3://b/pre/", ents) {
				rel := strings.TrimSuffix(strings.TrimPrefix(e.path, "s3://b/pre/"), "/")
				got = append(got, fmt.Sprintf("%s %d", rel, e.size))
				if e.validator == "" {
					t.Errorf("%s: no validator", e.path)
				}
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("from the listing %q; the local lister %q", got, want)
			}
		})
	}
}
