package model

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// Definitions finds the message definitions a recording does not carry (see
// rosmsg.Finder): in the folders of $BAGSCOPE_MSGS (separated as in PATH)
// and those added with AddDefinitionDirs, an installed ROS 2, then
// bagscope's standard definitions.
var Definitions = newFinder(nil)

func newFinder(extra []string) *rosmsg.Finder {
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("BAGSCOPE_MSGS")) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	return &rosmsg.Finder{Dirs: append(dirs, extra...)}
}

// AddDefinitionDirs makes Definitions search dirs too (before an installed
// ROS 2). Call it before opening recordings.
func AddDefinitionDirs(dirs ...string) {
	if len(dirs) > 0 {
		Definitions = newFinder(append(append([]string(nil), Definitions.Dirs...), dirs...))
	}
}

// FillDefinitions gives each connection of s that has ROS 2 messages but no
// definition the one Definitions finds, with its DefinitionSource; a
// connection whose definition is not found keeps none (its messages show as
// bytes). It returns how many it could not fill.
func FillDefinitions(s bag.Storage) (missing int) {
	for _, c := range s.Connections() {
		if c.Definition != "" || c.Encoding != "cdr" {
			continue
		}
		text, src, err := Definitions.Find(c.Type)
		if err != nil {
			missing++
			continue
		}
		c.Definition, c.SchemaEncoding, c.DefinitionSource = text, rosmsg.SchemaROS2Msg, src
	}
	return missing
}

// FindableDefinitions counts the connections of s with ROS 2 messages but
// no definition for which Definitions now has one: those a definition
// folder added since s was opened would decode (reopening s fills them).
func FindableDefinitions(s bag.Storage) int {
	n := 0
	for _, c := range s.Connections() {
		if c.Definition != "" || c.Encoding != "cdr" {
			continue
		}
		if _, _, err := Definitions.Find(c.Type); err == nil {
			n++
		}
	}
	return n
}

// OpenStorage opens the recording at path through the seam and fills in the
// definitions it lacks (FillDefinitions).
func OpenStorage(path string) (bag.Storage, error) { return OpenStorageWith(path, bag.OpenOptions{}) }

// OpenStorageWith is OpenStorage with the options of bag.OpenFileWith (the
// consent to read a remote file without an index whole).
func OpenStorageWith(path string, o bag.OpenOptions) (bag.Storage, error) {
	s, err := bag.OpenFileWith(path, o)
	if err != nil {
		return nil, err
	}
	FillDefinitions(s)
	return s, nil
}

// PartOfNote says that the file at path, read alone, is one file of the
// recording in the folder dir (see bag.FolderOf), and how to read all of
// it.
func PartOfNote(path, dir string) string {
	n := 0
	if files, err := bag.RecordingFiles(dir); err == nil {
		n = len(files)
	}
	what := "the recording"
	if n > 1 {
		what = fmt.Sprintf("the recording of %d files", n)
	}
	return fmt.Sprintf("%s is read alone: it is one file of %s in %s; open that folder to read the whole recording", filepath.Base(path), what, dir)
}

// MissingDefinitionHint says what to do about a connection whose messages
// cannot be decoded for want of a definition.
func MissingDefinitionHint(c *bag.Connection) string {
	return "no message definition for " + c.Type + " in the recording, an installed ROS 2 or bagscope's standard ones, so its messages are shown as bytes: " +
		"name a folder holding PKG/msg/TYPE.msg files to decode them (--msgs DIR or $BAGSCOPE_MSGS; in the window, File › Add Message Definition Folder…)"
}
