package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// loss is what a read could not use: the ranges a scan of the file skipped
// and those the message iterator skipped, and the messages known to be in
// them. Every command that reads messages reports it, so loss is never
// silent.
type loss struct {
	Ranges   []bag.ByteRange
	Messages uint64 // messages known lost (from the index)
	// Undecoded counts messages read but not decoded (cat).
	Undecoded int
}

// lossJSON is a loss in a command's --json output.
type lossJSON struct {
	Messages uint64          `json:"messages"`
	Bytes    int64           `json:"bytes"`
	Ranges   []rangeLossJSON `json:"ranges"`
}

type rangeLossJSON struct {
	Offset int64  `json:"offset"`
	Size   int64  `json:"size"`
	Why    string `json:"why"`
}

// fileLoss is what opening the file found lost: the skipped ranges of a
// scan (not zero padding, which holds nothing) and the messages of the
// chunks it could not read. A scan's ranges are the whole file's, so they
// count whatever the command selects.
func fileLoss(s bag.Storage) *loss {
	l := &loss{}
	if sc := s.FileInfo().Scanned; sc != nil {
		for _, r := range sc.Skipped {
			if !strings.HasPrefix(r.Why, "padding") {
				l.Ranges = append(l.Ranges, r)
			}
		}
		l.Messages += sc.LostMessages
	}
	return l
}

// addIter adds what a message iterator skipped, if it says (MCAP, ROS 1
// and the wrappers around them do).
func (l *loss) addIter(it bag.MessageIter) {
	if sk, ok := it.(interface{ Skipped() []bag.ByteRange }); ok {
		l.Ranges = append(l.Ranges, sk.Skipped()...)
	}
	for x := it; x != nil; {
		if lm, ok := x.(interface{ LostMessages() uint64 }); ok {
			l.Messages += lm.LostMessages()
			break
		}
		u, ok := x.(interface{ Unwrap() bag.MessageIter })
		if !ok {
			break
		}
		x = u.Unwrap()
	}
	l.sort()
}

func (l *loss) sort() {
	sort.SliceStable(l.Ranges, func(i, j int) bool { return l.Ranges[i].Start < l.Ranges[j].Start })
}

// any reports whether anything was lost.
func (l *loss) any() bool { return len(l.Ranges) > 0 || l.Messages > 0 || l.Undecoded > 0 }

// bytes adds up the lost ranges.
func (l *loss) bytes() int64 {
	var n int64
	for _, r := range l.Ranges {
		n += r.End - r.Start
	}
	return n
}

// maxLossLines is how many lost ranges a command prints; the rest are
// counted.
const maxLossLines = 20

// print says what was lost on w (stderr), one line per range with its
// offset and size, after a line with the totals.
func (l *loss) print(w io.Writer, path string) {
	if len(l.Ranges) > 0 {
		fmt.Fprintf(w, "bagscope: %s: offset %d: lost %d messages known to the index, %d bytes in %d ranges that could not be read, the first at offset %d\n", path, l.Ranges[0].Start, l.Messages, l.bytes(), len(l.Ranges), l.Ranges[0].Start)
	} else if l.Messages > 0 {
		fmt.Fprintf(w, "bagscope: %s: offset 0: lost %d messages known to the index\n", path, l.Messages)
	}
	for i, r := range l.Ranges {
		if i == maxLossLines {
			fmt.Fprintf(w, "bagscope: %s: ... and %d more lost ranges\n", path, len(l.Ranges)-i)
			break
		}
		fmt.Fprintf(w, "bagscope: %s: offset %d: lost %d bytes (%d..%d): %s\n", path, r.Start, r.End-r.Start, r.Start, r.End, r.Why)
	}
}

// json returns the loss for a --json output.
func (l *loss) json() lossJSON {
	out := lossJSON{Messages: l.Messages, Bytes: l.bytes(), Ranges: []rangeLossJSON{}}
	for _, r := range l.Ranges {
		out.Ranges = append(out.Ranges, rangeLossJSON{r.Start, r.End - r.Start, r.Why})
	}
	return out
}
