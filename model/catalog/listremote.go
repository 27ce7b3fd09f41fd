package catalog

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
)

// Remote recordings are found by listing, never by reading them: an S3
// prefix is listed folder by folder (one request per folder, a few in
// flight), and each object's size, ETag and Last-Modified come with the
// listing, so a run over an unchanged prefix makes no read at all. A
// prefix holding a metadata.yaml is one rosbag2 recording, as a local
// folder is. An http(s) URL names one recording; it is asked for its
// size and validators by the suffix read that opening it makes anyway.

// listInFlight bounds the listing requests in flight at once.
const listInFlight = 8

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
	w := &remoteWalk{c: c, sem: make(chan struct{}, listInFlight)}
	w.walk(ctx, dir)
	w.wg.Wait()
	if w.err != nil {
		return nil, w.err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return w.out, nil
}

// isBucketURL reports whether an s3:// or gs:// URL names a whole bucket.
func isBucketURL(u string) bool {
	_, rest, _ := strings.Cut(u, "://")
	return !strings.Contains(strings.TrimSuffix(rest, "/"), "/")
}

// remoteWalk lists a prefix's folders concurrently.
type remoteWalk struct {
	c   *remote.Client
	sem chan struct{}
	wg  sync.WaitGroup

	mu  sync.Mutex
	out []entry
	err error
}

func (w *remoteWalk) walk(ctx context.Context, dir string) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		select {
		case w.sem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		ents, err := w.c.List(ctx, dir)
		<-w.sem
		w.mu.Lock()
		defer w.mu.Unlock()
		if err != nil {
			if w.err == nil {
				w.err = err
			}
			return
		}
		if w.err != nil {
			return
		}
		if slices.ContainsFunc(ents, func(e remote.Entry) bool { return !e.Dir && e.Name == "metadata.yaml" }) {
			w.out = append(w.out, folderEntry(dir, ents))
			return
		}
		for _, e := range ents {
			switch {
			case e.Dir:
				w.walk(ctx, e.URL)
			case bag.IsRecordingName(e.Name):
				w.out = append(w.out, fileEntry(e.URL, e.Size, e.ETag, e.LastModified))
			}
		}
	}()
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
