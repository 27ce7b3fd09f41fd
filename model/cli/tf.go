package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/tf"
)

func newTF(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "tf [flags] FILE",
		Short: "print the transform tree at a time, its problems, or one frame in another",
		Long: `tf reads the recording's /tf and /tf_static topics (tf/tfMessage, tf2_msgs/TFMessage) and prints
the frames as a tree at one time: each static or dynamic, with its topic and publisher, its rate,
the stamp of its latest transform and that transform's age. Then the problems: frames that go
stale, change parent, form several roots or loops, or carry stamps in the future.

Times follow tf2: a transform is placed at its header.stamp; on each dynamic edge the tree takes the
latest transform stamped at or before the time, and static transforms hold at every time. --at is
seconds from the recording's start (as in --range), @SECONDS since the epoch, or an RFC 3339 time;
without it, each frame's latest transform. Transforms a recorder repeats in every file of a split
recording count once.

--lookup TARGET SOURCE prints the transform of SOURCE in TARGET, as tf2's
lookupTransform(TARGET, SOURCE, time) gives it and tf2_echo prints it: it maps points of SOURCE into
TARGET. With --json: {"translation": {"x","y","z"}, "rotation": {"x","y","z","w"}}.

--lookup TARGET SOURCE --over-time prints that lookup over the recording instead: one row at each
header stamp where a transform on the chain between the two frames changes (the chain followed as
frames change parent), with the translation, the quaternion and roll, pitch and yaw in radians, as
the lookup at that time gives them; a time where the lookup fails says why, once. --csv prints the
rows as CSV: stamp,seconds,x,y,z,qx,qy,qz,qw,roll,pitch,yaw,error (seconds from the start).`,
		Example: `  bagscope tf run.bag
  bagscope tf run.mcap --at 12.5 --json
  bagscope tf run/ --at 12.5 --lookup map base_link
  bagscope tf run.bag --at 30 --lookup odom laser --json
  bagscope tf run.bag --lookup map base_link --over-time --csv > base_link.csv`,
		Args:              cobra.RangeArgs(1, 2),
		ValidArgsFunction: completeFiles,
	}
	at := c.Flags().String("at", "", "read the tree at `T`: seconds from the start (12.5), @SECONDS since the epoch, or an RFC 3339 time (default: each frame's latest)")
	lookup := c.Flags().String("lookup", "", "print frame SOURCE (the argument after TARGET) in frame `TARGET`, as tf2_echo TARGET SOURCE does")
	asJSON := c.Flags().Bool("json", false, "print one JSON object: the tree, or with --lookup the transform")
	overTime := c.Flags().Bool("over-time", false, "with --lookup: print the lookup at each stamp a transform on the chain changes, over the recording")
	asCSV := c.Flags().Bool("csv", false, "with --over-time: print CSV (stamp,seconds,x,y,z,qx,qy,qz,qw,roll,pitch,yaw,error)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		file, source, err := tfArgs(args, *lookup != "")
		if err != nil {
			return err
		}
		switch {
		case *overTime && *lookup == "":
			return usagef("--over-time plots a lookup: give --lookup TARGET SOURCE")
		case *overTime && (*at != "" || *asJSON):
			return usagef("--over-time reads the whole recording: it takes neither --at nor --json (--csv prints CSV)")
		case *asCSV && !*overTime:
			return usagef("--csv prints the lookup over time: give --lookup TARGET SOURCE --over-time")
		}
		b, err := e.openRecording(cmd, file)
		if err != nil {
			return err
		}
		defer b.Close()
		when, err := atFlag(b, *at)
		if err != nil {
			return err
		}
		if *overTime {
			return runTFSeries(b, file, *lookup, source, *asCSV, e.stdout, e.stderr)
		}
		return runTF(b, file, when, *lookup, source, *asJSON, e.stdout, e.stderr)
	}
	return c
}

// tfArgs sorts the positional arguments: FILE, and with --lookup the
// SOURCE frame, in either order (flags and arguments go anywhere, so
// "--lookup map base_link FILE" and "FILE --lookup map base_link" both
// read). FILE is the argument that names something that exists.
func tfArgs(args []string, lookup bool) (file, source string, err error) {
	if !lookup {
		if len(args) != 1 {
			return "", "", usagef("give one recording (%d arguments given); --lookup TARGET SOURCE names two frames", len(args))
		}
		return args[0], "", nil
	}
	if len(args) != 2 {
		return "", "", usagef("--lookup TARGET SOURCE: give the SOURCE frame after TARGET, and the recording")
	}
	exists := func(p string) bool {
		if strings.Contains(p, "://") {
			return true
		}
		_, err := os.Stat(p)
		return err == nil
	}
	switch {
	case exists(args[0]):
		return args[0], args[1], nil
	case exists(args[1]):
		return args[1], args[0], nil
	}
	return args[0], args[1], nil
}

// cliHistorySamples bounds the transforms tf holds (80 bytes each): one
// tree needs none of them, the frames past it are read around the time.
const cliHistorySamples = 1 << 16

func runTF(b bag.Storage, path string, at bag.Time, target, source string, asJSON bool, stdout, stderr io.Writer) error {
	pl := newProgress(stderr, "reading transforms")
	var lost *loss
	// The history, read once, gives the tree at the time; it holds few
	// transforms, a frame with more being read again around the time.
	h, err := tf.BuildHistory(context.Background(), b, tf.HistoryOptions{MaxSamples: cliHistorySamples,
		Options: tf.Options{Progress: pl.update, Done: func(it bag.MessageIter) { lost = readLoss(b, it, bag.Tally{Suspects: iterSuspects(it)}, false) }}})
	pl.end()
	var t *tf.Tree
	if h != nil {
		var terr error
		if t, terr = h.TreeAt(context.Background(), at); err == nil {
			err = terr
		}
	}
	if errors.Is(err, tf.ErrNoTF) {
		fmt.Fprintf(stderr, "bagscope: %s: %v\n", bag.Shown(path), err)
		return status(ExitProblems)
	}
	if err != nil && t == nil {
		return status(fail(stderr, path, err))
	}
	code := ExitOK
	if err != nil {
		fail(stderr, path, err)
		code = ExitProblems
	}
	w := bufio.NewWriter(stdout)
	if target != "" {
		tr, lerr := t.Lookup(target, source)
		if lerr != nil {
			fmt.Fprintf(stderr, "bagscope: %s: %v\n", bag.Shown(path), lerr)
			if t.Frames[tf.StripSlash(target)] == nil || t.Frames[tf.StripSlash(source)] == nil {
				return usagef("%v", lerr)
			}
			return status(ExitProblems)
		}
		if asJSON {
			writeJSON(w, tfLookupJSON{vec3JSON{jsonFloat(tr.Translation[0]), jsonFloat(tr.Translation[1]), jsonFloat(tr.Translation[2])},
				quatJSON{jsonFloat(tr.Rotation[0]), jsonFloat(tr.Rotation[1]), jsonFloat(tr.Rotation[2]), jsonFloat(tr.Rotation[3])}})
		} else {
			printEcho(w, t, tr)
		}
	} else if asJSON {
		writeJSON(w, treeJSON(t, b))
	} else {
		printTree(w, t, b)
	}
	if ferr := w.Flush(); ferr != nil {
		return status(fail(stderr, path, ferr))
	}
	return endOfRead(stderr, path, code, "transform", t.Undecodable, t.FirstUndecodable, lost)
}

// printEcho prints a transform as tf2_echo does.
func printEcho(w io.Writer, t *tf.Tree, tr tf.Transform) {
	io.WriteString(w, tf.EchoText(t.At, tr))
}

// printTree prints the frames as a tree, then the findings.
func printTree(w io.Writer, t *tf.Tree, b bag.Storage) {
	start, _ := model.TimeRange(b)
	when := "each frame's latest transform"
	if !t.At.IsZero() {
		when = fmt.Sprintf("+%ss (%s)", secondsText(t.At.Nanos()-start.Nanos()), t.At)
	}
	n := len(t.Frames)
	fmt.Fprintf(w, "Transform tree at %s: %d frames, %d %s\n", when, n, len(t.Roots), plural(len(t.Roots), "root", "roots"))
	width := 0
	t.Walk(func(f *tf.Frame, depth int) {
		width = max(width, 3*depth+len(f.Name))
	})
	t.Walk(func(f *tf.Frame, depth int) {
		name := strings.Repeat("   ", depth) + f.Name
		if f.Root {
			fmt.Fprintf(w, "%-*s  root\n", width, name)
			return
		}
		kind := "dynamic"
		if f.Static {
			kind = "static"
		}
		line := fmt.Sprintf("%-*s  %-7s  parent %s  %s", width, name, kind, f.Parent, f.Topic)
		if f.Publisher != "" {
			line += " (" + f.Publisher + ")"
		}
		if !f.Static {
			line += fmt.Sprintf("  %.2f Hz  stamp %s  age %.3fs", f.RateHz, f.Stamp, f.Age)
		}
		if f.Stale {
			line += "  STALE"
		}
		if f.Suspect != "" {
			line += "  SUSPECT"
		}
		fmt.Fprintln(w, line)
	})
	if len(t.Later) > 0 {
		fmt.Fprintf(w, "Not yet published at this time: %s\n", strings.Join(t.Later, ", "))
	}
	if len(t.Findings) == 0 {
		fmt.Fprintln(w, "No problems found.")
		return
	}
	fmt.Fprintf(w, "%d %s:\n", len(t.Findings), plural(len(t.Findings), "problem", "problems"))
	for _, f := range t.Findings {
		fmt.Fprintf(w, "  %s: %s\n", f.Kind, f.Message)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

type vec3JSON struct {
	X jsonFloat `json:"x"`
	Y jsonFloat `json:"y"`
	Z jsonFloat `json:"z"`
}

type quatJSON struct {
	X jsonFloat `json:"x"`
	Y jsonFloat `json:"y"`
	Z jsonFloat `json:"z"`
	W jsonFloat `json:"w"`
}

// tfLookupJSON is tf --lookup --json: the transform alone.
type tfLookupJSON struct {
	Translation vec3JSON `json:"translation"`
	Rotation    quatJSON `json:"rotation"`
}

type tfFrameJSON struct {
	Frame       string    `json:"frame"`
	Parent      string    `json:"parent"`
	Root        bool      `json:"root"`
	Static      bool      `json:"static"`
	Topic       string    `json:"topic,omitempty"`
	Publisher   string    `json:"publisher,omitempty"`
	Updates     uint64    `json:"updates"`
	RateHz      jsonFloat `json:"rate_hz"`
	Stamp       *timeJSON `json:"stamp,omitempty"`
	Received    *timeJSON `json:"received,omitempty"`
	Age         jsonFloat `json:"age"`
	Stale       bool      `json:"stale"`
	Suspect     string    `json:"suspect,omitempty"`
	Children    []string  `json:"children"`
	Translation *vec3JSON `json:"translation,omitempty"`
	Rotation    *quatJSON `json:"rotation,omitempty"`
}

type tfFindingJSON struct {
	Kind    string    `json:"kind"`
	Frame   string    `json:"frame,omitempty"`
	Time    *timeJSON `json:"time,omitempty"`
	Message string    `json:"message"`
}

type tfTreeJSON struct {
	At         *timeJSON       `json:"at"`
	AtSeconds  *jsonFloat      `json:"at_seconds"`
	Frames     []tfFrameJSON   `json:"frames"`
	Roots      []string        `json:"roots"`
	Later      []string        `json:"later"`
	Findings   []tfFindingJSON `json:"findings"`
	Messages   uint64          `json:"messages"`
	Transforms uint64          `json:"transforms"`
	OK         bool            `json:"ok"`
}

func treeJSON(t *tf.Tree, b bag.Storage) tfTreeJSON {
	out := tfTreeJSON{Roots: append([]string{}, t.Roots...), Later: append([]string{}, t.Later...), Frames: []tfFrameJSON{},
		Findings: []tfFindingJSON{}, Messages: t.Messages, Transforms: t.Transforms, OK: len(t.Findings) == 0 && t.Undecodable == 0}
	if !t.At.IsZero() {
		start, _ := model.TimeRange(b)
		at := toTimeJSON(t.At)
		s := jsonFloat(float64(t.At.Nanos()-start.Nanos()) / 1e9)
		out.At, out.AtSeconds = &at, &s
	}
	t.Walk(func(f *tf.Frame, _ int) {
		j := tfFrameJSON{Frame: f.Name, Parent: f.Parent, Root: f.Root, Static: f.Static, Topic: f.Topic, Publisher: f.Publisher,
			Updates: f.Updates, RateHz: jsonFloat(f.RateHz), Age: jsonFloat(f.Age), Stale: f.Stale, Suspect: f.Suspect,
			Children: append([]string{}, f.Children...)}
		if !f.Root {
			s, r := toTimeJSON(f.Stamp), toTimeJSON(f.Received)
			j.Stamp, j.Received = &s, &r
			tr := f.Transform
			j.Translation = &vec3JSON{jsonFloat(tr.Translation[0]), jsonFloat(tr.Translation[1]), jsonFloat(tr.Translation[2])}
			j.Rotation = &quatJSON{jsonFloat(tr.Rotation[0]), jsonFloat(tr.Rotation[1]), jsonFloat(tr.Rotation[2]), jsonFloat(tr.Rotation[3])}
		}
		out.Frames = append(out.Frames, j)
	})
	for _, f := range t.Findings {
		j := tfFindingJSON{Kind: f.Kind, Frame: f.Frame, Message: f.Message}
		if !f.Time.IsZero() {
			tj := toTimeJSON(f.Time)
			j.Time = &tj
		}
		out.Findings = append(out.Findings, j)
	}
	return out
}
