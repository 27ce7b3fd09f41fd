package model

import (
	"slices"
	"strings"
	"sync"
)

// MaxRecent is how many recent files are kept.
const MaxRecent = 10

// Recent is the list of recently opened files, most recent first. The UI
// persists it: it calls Load with the stored text at start and sets Save to
// store String() after every change. It is safe for concurrent use.
type Recent struct {
	// Save, when set, is called with String() after each change.
	Save func(string)

	mu    sync.Mutex
	paths []string
}

// Load replaces the list with one stored by String.
func (r *Recent) Load(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.paths = r.paths[:0]
	for _, p := range strings.Split(s, "\n") {
		if p != "" && !slices.Contains(r.paths, p) && len(r.paths) < MaxRecent {
			r.paths = append(r.paths, p)
		}
	}
}

// String returns the list as text for storage, one path a line.
func (r *Recent) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.paths, "\n")
}

// Paths returns a copy of the list, most recent first.
func (r *Recent) Paths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.paths)
}

// Add moves path to the front, dropping the oldest beyond MaxRecent.
func (r *Recent) Add(path string) {
	if path == "" {
		return
	}
	r.change(func() {
		r.paths = slices.DeleteFunc(r.paths, func(p string) bool { return p == path })
		r.paths = slices.Insert(r.paths, 0, path)
		if len(r.paths) > MaxRecent {
			r.paths = r.paths[:MaxRecent]
		}
	})
}

// Remove drops path from the list, e.g. when it no longer opens.
func (r *Recent) Remove(path string) {
	r.change(func() {
		r.paths = slices.DeleteFunc(r.paths, func(p string) bool { return p == path })
	})
}

// Clear empties the list.
func (r *Recent) Clear() { r.change(func() { r.paths = nil }) }

func (r *Recent) change(f func()) {
	r.mu.Lock()
	f()
	save := r.Save
	s := strings.Join(r.paths, "\n")
	r.mu.Unlock()
	if save != nil {
		save(s)
	}
}
