package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/stats"
)

// ros1Format is the Format of a ROS 1 bag.
const ros1Format = "ROS 1 bag"

// infoJSON is the `info --json` object.
type infoJSON struct {
	Path    string   `json:"path"`
	Format  string   `json:"format"`
	Version string   `json:"version"`
	Size    int64    `json:"size"`
	Indexed bool     `json:"indexed"`
	Start   timeJSON `json:"start"`
	End     timeJSON `json:"end"`
	// Duration is End - Start in seconds.
	Duration    float64         `json:"duration"`
	Messages    uint64          `json:"messages"`
	Chunks      int             `json:"chunks"`
	Compression map[string]int  `json:"compression"`
	Topics      []topicInfoJSON `json:"topics"`
	// Error is why the file could not be read.
	Error string `json:"error,omitempty"`
	// Lost is what a scan of a damaged file could not read.
	Lost *lossJSON `json:"lost,omitempty"`
	// Fetched is what reading a remote recording fetched (absent for a
	// local one).
	Fetched *fetchedJSON `json:"fetched,omitempty"`
}

type topicInfoJSON struct {
	Topic       string `json:"topic"`
	Type        string `json:"type"`
	MD5Sum      string `json:"md5sum"`
	Messages    uint64 `json:"messages"`
	Connections int    `json:"connections"`
	// The topic's rate and timing statistics, from the message index,
	// with --freq only.
	*topicStatsJSON
}

func newInfo(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "info [flags] FILE",
		Short: "print a summary of a recording (topics, types, counts, times, chunks)",
		Long: `info prints what rosbag info prints for a ROS 1 bag, and the same summary for MCAP files and
rosbag2 folders: format, duration, start and end, size, message count, compression, chunks, types
and topics. A recording that is unindexed, cut or damaged is read by scanning it, and what the scan
found is listed; what could not be read is said on stderr with its byte offset (exit 1).`,
		Example: `  bagscope info x.bag
  bagscope info x.bag --freq         # each topic's rate, intervals, jitter and gaps
  bagscope info rosbag2_folder/ --json`,
		Args:              files("FILE"),
		ValidArgsFunction: completeFiles,
	}
	asJSON := c.Flags().Bool("json", false, "print one JSON object (with each topic's rate and timing statistics)")
	freq := c.Flags().Bool("freq", false, "print each topic's rate as rosbag info --freq does, with its intervals, jitter, gaps and active span")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		msgDirs(cmd)
		return status(runInfo(args[0], *asJSON, *freq, e.openOptions(), e.stdout, e.stderr))
	}
	return c
}

func runInfo(path string, asJSON, freq bool, o bag.OpenOptions, stdout, stderr io.Writer) int {
	failJSON := func(err error) int {
		if asJSON {
			json.NewEncoder(stdout).Encode(infoJSON{Path: bag.Shown(path), Compression: map[string]int{}, Topics: []topicInfoJSON{}, Error: err.Error(), Fetched: fetchedObject()})
		}
		return fail(stderr, path, err)
	}
	b, err := bag.OpenFileWith(path, o)
	if err != nil {
		failJSON(err)
		return ExitUsage
	}
	defer b.Close()
	s, err := b.Summary()
	if err != nil {
		return failJSON(err)
	}
	var set *stats.Set
	if freq {
		// From the index records: no message is decompressed.
		if set, err = computeStats(b); err != nil {
			return failJSON(err)
		}
	}
	// A damaged file's summary counts what could be read; what could not
	// is said on stderr too, and the exit status is 1, as cat and check
	// report it.
	lost := fileLoss(b)
	lost.sort()
	status := 0
	if asJSON {
		status = printInfoJSON(stdout, s, set, lost)
	} else {
		printInfo(stdout, b, s, set)
	}
	if lost.any() {
		lost.print(stderr, path)
		status = 1
	}
	return status
}

func printInfoJSON(w io.Writer, s *bag.Summary, set *stats.Set, lost *loss) int {
	out := infoJSON{
		Path: s.Path, Format: s.Format, Version: s.Version, Size: s.Size, Indexed: s.Indexed,
		Start: toTimeJSON(s.Start), End: toTimeJSON(s.End), Duration: float64(s.End.Nanos()-s.Start.Nanos()) / 1e9,
		Messages: s.Messages, Chunks: s.Chunks, Compression: s.Compression,
		Topics: []topicInfoJSON{},
	}
	if lost.any() {
		lj := lost.json()
		out.Lost = &lj
	}
	out.Fetched = fetchedObject()
	for _, t := range s.Topics {
		tj := topicInfoJSON{Topic: t.Topic, Type: t.Type, MD5Sum: t.MD5Sum, Messages: t.Messages, Connections: len(t.Connections)}
		if set != nil {
			st := statsJSON(set.Topic(t.Topic))
			tj.topicStatsJSON = &st
		}
		out.Topics = append(out.Topics, tj)
	}
	enc := json.NewEncoder(w)
	if err := enc.Encode(out); err != nil {
		return 1
	}
	return 0
}

// printInfo prints the summary; with set (info --freq), each topic's rate
// and timing statistics too.
func printInfo(w io.Writer, b bag.Storage, s *bag.Summary, set *stats.Set) {
	fi := b.FileInfo()
	if s.Format == ros1Format && len(fi.Files) == 0 {
		printRosbagInfo(w, b, s, set)
		if set != nil {
			printStats(w, s, set)
		}
		return
	}
	if !strings.HasPrefix(s.Format, "ROS 1") {
		printROS2Info(w, b, s, set)
		if set != nil {
			printStats(w, s, set)
		}
		return
	}
	line := func(k, format string, args ...any) {
		fmt.Fprintf(w, "%-13s "+format+"\n", append([]any{k + ":"}, args...)...)
	}
	line("path", "%s", s.Path)
	format := s.Format
	if fi.Profile != "" {
		format += " (" + fi.Profile + " profile)"
	}
	line("format", "%s", format)
	line("version", "%s", s.Version)
	if s.Messages > 0 || s.Chunks > 0 {
		dur := s.End.Sub(s.Start)
		line("duration", "%s", humanDuration(dur))
		line("start", "%s", humanTime(s.Start))
		line("end", "%s", humanTime(s.End))
	}
	line("size", "%s", humanSize(float64(s.Size)))
	line("messages", "%d", s.Messages)
	if s.Chunks > 0 {
		line("compression", "%s", compressionLine(s))
		if s.UncompressedBytes > 0 && s.CompressedBytes != s.UncompressedBytes {
			line("uncompressed", "%s", humanSize(float64(s.UncompressedBytes)))
			line("compressed", "%s (%.2f%%)", humanSize(float64(s.CompressedBytes)), 100*float64(s.CompressedBytes)/float64(s.UncompressedBytes))
		}
	}
	line("chunks", "%d", s.Chunks)
	line("indexed", "%s", yesNo(s.Indexed))
	if st, ok := fetched(); ok {
		line("fetched", "%s", fetchedText(st))
	}
	if r := fi.Scanned; r != nil {
		printScan(w, r, s.Size)
	}
	printTypes(w, s)
	printTopics(w, s, rateColumn(s, set))
	if set != nil {
		printStats(w, s, set)
	}
}

func compressionLine(s *bag.Summary) string {
	names := s.CompressionNames()
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s [%d/%d chunks]", n, s.Compression[n], s.Chunks)
	}
	return strings.Join(parts, ", ")
}

func printTypes(w io.Writer, s *bag.Summary) {
	width := 0
	for _, t := range s.Types {
		width = max(width, len(t.Type))
	}
	for i, t := range s.Types {
		label := "types:"
		if i > 0 {
			label = ""
		}
		if t.MD5Sum == "" { // ROS 2 types have no md5sum
			fmt.Fprintf(w, "%-13s %s\n", label, t.Type)
			continue
		}
		fmt.Fprintf(w, "%-13s %-*s [%s]\n", label, width, t.Type, t.MD5Sum)
	}
}

// printTopics lists the topics; rates, when not nil, holds each one's
// " @ 50.0 Hz" (see rateColumn).
func printTopics(w io.Writer, s *bag.Summary, rates map[string]string) {
	tw, cw := 0, 0
	for _, t := range s.Topics {
		tw = max(tw, len(t.Topic))
		cw = max(cw, len(fmt.Sprint(t.Messages)))
	}
	for i, t := range s.Topics {
		label := "topics:"
		if i > 0 {
			label = ""
		}
		typ := t.Type
		if len(t.Types) > 0 {
			typ = strings.Join(t.Types, ", ")
		}
		extra := ""
		if n := len(t.Connections); n > 1 {
			extra = fmt.Sprintf(" (%d connections)", n)
		}
		fmt.Fprintf(w, "%-13s %-*s %*d msgs%s : %s%s\n", label, tw, t.Topic, cw, t.Messages, rates[t.Topic], typ, extra)
	}
}

// printScan says what scanning an unindexed or damaged file found.
func printScan(w io.Writer, r *bag.ScanInfo, size int64) {
	fmt.Fprintf(w, "%-13s %s\n", "scanned:", r.Reason)
	fmt.Fprintf(w, "%-13s parsed to byte %d of %d\n", "", r.ParsedTo, size)
	if r.LostMessages > 0 {
		fmt.Fprintf(w, "%-13s %d indexed messages lost in unreadable chunks\n", "", r.LostMessages)
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "%-13s skipped %s\n", "", s)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "%-13s %s\n", "", n)
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
