package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
)

// Remote recordings are found by listing, never by reading them: an S3
// prefix is listed whole, at any depth (one request per 1,000 objects),
// and each object's size, ETag and Last-Modified come with the listing,
// so a run over an unchanged prefix makes no read at all. A prefix
// holding a metadata.yaml is one rosbag2 recording, as a local folder is. An http(s) URL names one recording; it is asked for its
// size and validators by the suffix read that opening it makes anyway.

// listRemote finds the recordings a URL names: below an S3 prefix, the
// S3 object itself, or the http(s) file. A recording that cannot be
// reached (403, 404) is an entry with its error; a prefix that cannot be
// listed fails the run, as a local folder that cannot be read does.
func listRemote(ctx context.Context, c *remote.Client, root string) ([]entry, error) {
	if scheme, _, _ := strings.Cut(strings.ToLower(root), "://"); scheme != "s3" && scheme != "gs" {
		info, err := c.Stat(ctx, root)
		if err != nil {
			return []entry{{path: root, err: err}}, nil
		}
		if info.Dir {
			return nil, &remote.Error{Op: "list", URL: remote.Redact(root), Err: remote.ErrNoListing, Detail: "name each recording (a rosbag2 folder by its metadata.yaml)"}
		}
		return []entry{fileEntry(root, info.Size, info.ETag, info.LastModified)}, nil
	}
	dir := root
	if !strings.HasSuffix(remote.Redact(root), "/") && !isBucketURL(root) {
		// A key or a prefix named without its "/": the parent's listing
		// says which, without reading the object.
		ents, err := c.List(ctx, remote.Dir(root))
		if err != nil {
			return nil, err
		}
		name := remote.Base(root)
		i := slices.IndexFunc(ents, func(e remote.Entry) bool { return e.Name == name })
		switch {
		case i < 0:
			return []entry{{path: root, err: &remote.Error{Op: "list", URL: remote.Redact(root), Err: remote.ErrNotFound, Detail: "no such object or prefix"}}}, nil
		case !ents[i].Dir:
			e := ents[i]
			return []entry{fileEntry(root, e.Size, e.ETag, e.LastModified)}, nil
		}
		dir = root + "/"
	}
	if !strings.HasSuffix(dir, "/") {
		dir += "/" // a bucket
	}
	ents, err := c.ListAll(ctx, dir)
	if err != nil {
		return nil, err
	}
	return groupListing(dir, ents), nil
}

// isBucketURL reports whether an s3:// or gs:// URL names a whole bucket.
func isBucketURL(u string) bool {
	_, rest, _ := strings.Cut(u, "://")
	return !strings.Contains(strings.TrimSuffix(rest, "/"), "/")
}

// groupListing finds the recordings among the objects below the prefix
// dir (Names relative to it), as the local lister finds them among files:
// a folder holding a metadata.yaml is one rosbag2 recording (what is
// below it is not looked into), and any other file with a recording's
// name is one.
func groupListing(dir string, ents []remote.Entry) []entry {
	byDir := map[string][]remote.Entry{}
	for _, e := range ents {
		d, name := "", e.Name
		if i := strings.LastIndex(e.Name, "/"); i >= 0 {
			d, name = e.Name[:i], e.Name[i+1:]
		}
		e.Name = name
		byDir[d] = append(byDir[d], e)
	}
	bagDirs := map[string]bool{}
	for d, files := range byDir {
		if slices.ContainsFunc(files, func(e remote.Entry) bool { return e.Name == "metadata.yaml" }) {
			bagDirs[d] = true
		}
	}
	// insideBag: a folder above d is a rosbag2 folder.
	insideBag := func(d string) bool {
		for d != "" {
			d = parentDir(d)
			if bagDirs[d] {
				return true
			}
		}
		return false
	}
	var out []entry
	for d, files := range byDir {
		url := dir
		if d != "" {
			url += d + "/"
		}
		switch {
		case insideBag(d):
			// Below a rosbag2 folder: not looked into.
		case bagDirs[d]:
			out = append(out, folderEntry(url, files))
		default:
			for _, f := range files {
				if bag.IsRecordingName(f.Name) {
					out = append(out, fileEntry(f.URL, f.Size, f.ETag, f.LastModified))
				}
			}
		}
	}
	return out
}

// parentDir is the folder above d ("" above a top one).
func parentDir(d string) string {
	if i := strings.LastIndex(d, "/"); i >= 0 {
		return d[:i]
	}
	return ""
}

// fileEntry is the entry of one remote file.
func fileEntry(url string, size int64, etag, modified string) entry {
	return entry{path: url, size: size, mtime: httpTime(modified), validator: validator(etag, modified)}
}

// folderEntry is the entry of a rosbag2 prefix: its objects' sizes added
// up, the latest of their times, and a hash of their names and validators
// (any object added, removed or rewritten changes it).
func folderEntry(dir string, ents []remote.Entry) entry {
	e := entry{path: dir}
	h := sha256.New()
	files := slices.DeleteFunc(slices.Clone(ents), func(f remote.Entry) bool { return f.Dir })
	slices.SortFunc(files, func(a, b remote.Entry) int { return strings.Compare(a.Name, b.Name) })
	for _, f := range files {
		e.size += f.Size
		e.mtime = latest(e.mtime, httpTime(f.LastModified))
		h.Write([]byte(f.Name + "\x00" + validator(f.ETag, f.LastModified) + "\x00"))
	}
	e.validator = "objects:" + hex.EncodeToString(h.Sum(nil)[:16])
	return e
}

// validator is an object's version as a row keeps it: its ETag, else its
// Last-Modified.
func validator(etag, modified string) string {
	switch {
	case etag != "":
		return "etag:" + etag
	case modified != "":
		return "modified:" + modified
	}
	return ""
}

// httpTime reads a Last-Modified (the zero time when there is none).
func httpTime(s string) time.Time {
	t, err := http.ParseTime(s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}
