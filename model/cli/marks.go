package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/marks"
)

// markJSON is one line of marks --json.
type markJSON struct {
	Kind     string      `json:"kind"` // "bookmark" or "event"
	Time     timeJSON    `json:"time"`
	Name     string      `json:"name"`
	Note     string      `json:"note,omitempty"`
	Topic    string      `json:"topic,omitempty"`
	End      *timeJSON   `json:"end,omitempty"`
	Metadata [][2]string `json:"metadata,omitempty"`
}

func newMarks(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "marks [flags] FILE",
		Short: "list a recording's bookmarks (its sidecar file) and events (foxglove_msgs/Event topics)",
		Long: `marks lists the markers the window's timeline shows: the user's bookmarks, kept beside the recording in
FILE.bookmarks.json (never inside it; the window adds them with Ctrl+B), and the events the recording
carries on foxglove_msgs/Event and foxglove.Event topics, in time order. --csv writes the bookmarks
(or, with --events, the events) as a table; --json one object per mark.`,
		Example: `  bagscope marks x.bag
  bagscope marks x.mcap --events --csv > events.csv`,
		Args:              files("FILE"),
		ValidArgsFunction: completeFiles,
	}
	onlyBookmarks := c.Flags().Bool("bookmarks", false, "only the bookmarks")
	onlyEvents := c.Flags().Bool("events", false, "only the events")
	asCSV := c.Flags().Bool("csv", false, "print a CSV table of the bookmarks (or, with --events, of the events)")
	asJSON := c.Flags().Bool("json", false, `print one object per mark: {"kind","time","name","note","topic","end","metadata"}`)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if *onlyBookmarks && *onlyEvents {
			return usagef("give --bookmarks or --events, not both")
		}
		if *asCSV && *asJSON {
			return usagef("give --csv or --json, not both")
		}
		b, err := e.openRecording(cmd, args[0])
		if err != nil {
			return err
		}
		defer b.Close()
		return runMarks(b, args[0], !*onlyEvents && !(*asCSV && *onlyEvents), !*onlyBookmarks && !(*asCSV && !*onlyEvents), *asCSV, *asJSON, e.stdout, e.stderr)
	}
	return c
}

func runMarks(b bag.Storage, path string, bookmarks, events, asCSV, asJSON bool, stdout, stderr io.Writer) error {
	start, _ := model.TimeRange(b)
	var bms []marks.Bookmark
	if bookmarks {
		bm, err := marks.Load(path)
		if err != nil {
			return status(fail(stderr, path, err))
		}
		bms = bm.List
	}
	var evs []marks.Event
	if events {
		var dropped int
		var err error
		evs, dropped, err = marks.ReadEvents(context.Background(), b)
		if err != nil {
			return status(fail(stderr, path, err))
		}
		if dropped > 0 {
			fmt.Fprintf(stderr, "bagscope: %s: %d more events not read\n", path, dropped)
		}
	}
	switch {
	case asCSV && events:
		return status(exitOnErr(stderr, path, marks.WriteEventsCSV(stdout, evs, start)))
	case asCSV:
		return status(exitOnErr(stderr, path, marks.WriteBookmarksCSV(stdout, bms, start)))
	}
	var all []markJSON
	for _, m := range bms {
		all = append(all, markJSON{Kind: "bookmark", Time: toTimeJSON(m.Time), Name: m.Name, Note: m.Note, Topic: m.Topic})
	}
	for _, ev := range evs {
		end := toTimeJSON(ev.End)
		all = append(all, markJSON{Kind: "event", Time: toTimeJSON(ev.Start), Name: ev.Label, Topic: ev.Topic, End: &end, Metadata: ev.Metadata})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Time.NS < all[j].Time.NS })
	enc := json.NewEncoder(stdout)
	for _, m := range all {
		if asJSON {
			enc.Encode(m)
			continue
		}
		at := bag.TimeFromNanos(m.Time.NS)
		fmt.Fprintf(stdout, "%-8s %s (+%s)  %s", m.Kind, at, secondsText(m.Time.NS-start.Nanos()), m.Name)
		if m.End != nil && m.End.NS != m.Time.NS {
			fmt.Fprintf(stdout, "  to +%s", secondsText(m.End.NS-start.Nanos()))
		}
		if m.Topic != "" {
			fmt.Fprintf(stdout, "  [%s]", m.Topic)
		}
		if m.Note != "" {
			fmt.Fprintf(stdout, "  %q", m.Note)
		}
		fmt.Fprintln(stdout)
	}
	if len(all) == 0 && !asJSON {
		fmt.Fprintf(stderr, "bagscope: %s: no bookmarks (%s) and no event topics\n", path, marks.SidecarPath(path))
	}
	return nil
}

// exitOnErr says err on stderr (ExitProblems), or is ExitOK.
func exitOnErr(stderr io.Writer, path string, err error) int {
	if err != nil {
		return fail(stderr, path, err)
	}
	return ExitOK
}
