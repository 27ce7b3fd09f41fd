package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"fyne.io/fyne/v2"
)

// closeState keeps what a window leaves behind as it closes: its place on
// the screen and the last layout of its kind of recording. Fyne's
// preferences save on a timer and from a file watcher; values set in the
// close intercept of the last window are sometimes lost on a busy machine
// (found by TestWindowPlaceRemembered under load: the value was set, the
// file written at exit did not hold it; fyne#3170 is the same class). So
// these are written to a file of their own, synchronously, by rename, as
// they are set. Values written by an older bagscope to the preferences are
// still read until the file has its own.
type closeState interface {
	String(key string) string
	SetString(key, value string)
}

// prefsState is closeState in Fyne's preferences: the tests' apps, which
// keep them in memory.
type prefsState struct{ p fyne.Preferences }

func (s prefsState) String(key string) string    { return s.p.String(key) }
func (s prefsState) SetString(key, value string) { s.p.SetString(key, value) }

// fileState is closeState in a JSON file.
type fileState struct {
	path     string
	fallback fyne.Preferences

	mu     sync.Mutex
	values map[string]string
}

// closeStateFile is the file beside Fyne's preferences.json.
const closeStateFile = "windows.json"

// openFileState reads the file at path; a missing or unreadable file is
// an empty one (it is only remembered state).
func openFileState(path string, fallback fyne.Preferences) *fileState {
	s := &fileState{path: path, fallback: fallback, values: map[string]string{}}
	if b, err := os.ReadFile(path); err == nil {
		var v map[string]string
		if json.Unmarshal(b, &v) == nil && v != nil {
			s.values = v
		}
	}
	return s
}

func (s *fileState) String(key string) string {
	s.mu.Lock()
	v, ok := s.values[key]
	s.mu.Unlock()
	if !ok && s.fallback != nil {
		return s.fallback.String(key)
	}
	return v
}

// SetString keeps the value and writes the file at once: a temporary
// file in the same folder renamed over the old one, so a crash leaves
// the old file or the new, never half of one. A failure to write is
// reported on stderr and otherwise ignored: the state is a convenience.
func (s *fileState) SetString(key, value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.values[key]; ok && old == value {
		return
	}
	s.values[key] = value
	b, err := json.MarshalIndent(s.values, "", "  ")
	if err == nil {
		err = writeFileAtomic(s.path, b)
	}
	if err != nil {
		fyne.LogError("bagscope could not keep the window's place and layout", err)
	}
}

// writeFileAtomic writes b to path through a temporary file and a rename.
func writeFileAtomic(path string, b []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".windows-*.json")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
