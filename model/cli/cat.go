package cli

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/echo"
	"github.com/bagscope/bagscope/model/human"
)

func newCat(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "cat [flags] FILE",
		Short: "print messages decoded, as text or one JSON object per line",
		Long: `cat prints the messages of a recording in receive-time order, decoded from the definitions in the
recording (or --msgs folders): for ROS 1 the text rostopic echo prints (genpy's), for ROS 2 the
text ros2 topic echo prints (rosidl_runtime_py's YAML: strings and arrays longer than
--truncate-length, 128 by default, cut with "...", unless --full-length), each message followed by
"---" and, when more than one topic is printed, preceded by a "# TOPIC  TIME  TYPE" line; or with
--json one JSON object per line: {"topic", "time": {"secs", "nsecs", "ns"}, "type", "msg"}. -n stops
after N messages; --fields prints only the fields named, each under its path, or for ROS 2 one field
alone bare, as ros2 topic echo --field prints it (a message as YAML, a value as Python prints it). In --json a uint8[] or char[] field is a base64 string, as
rosbridge and ros2 topic echo --json give it. A message of an encoding bagscope does not decode
is printed as its bytes ("data", base64). Damage costs only what it holds: what could not be read
is listed on stderr with offsets (exit 1).`,
		Example: `  bagscope cat x.bag --topics /rosout -n 3
  bagscope cat x.bag --topics /odom --fields header.stamp,pose.pose.position
  bagscope cat x.bag --topics '/camera/*' --exclude /camera/image_raw --range 5:12
  bagscope cat rosbag2_folder/ --json | jq .msg.header`,
		Args:              files("FILE"),
		ValidArgsFunction: completeFiles,
	}
	sel := addSelection(c)
	asJSON := c.Flags().Bool("json", false, `print one JSON object per message (a suspect one with "suspect": why, with its offset)`)
	limit := c.Flags().IntP("count", "n", 0, "print at most `N` messages (0: all)")
	fields := c.Flags().StringSlice("fields", nil, "print only the fields `F` of each message (comma-separated paths such as header.stamp,pose.pose.position)")
	truncate := c.Flags().IntP("truncate-length", "l", echo.ROS2TruncateLength, "ROS 2 text: cut strings and arrays longer than `N` (characters, elements) with \"...\", as ros2 topic echo does")
	full := c.Flags().BoolP("full-length", "f", false, "ROS 2 text: print strings and arrays whole (ros2 topic echo's --full-length)")
	noSuspect := c.Flags().Bool("no-suspect", false, "leave out the suspect messages: those read from a damaged chunk or page, or that do not decode exactly against their definition")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		b, err := e.openRecording(cmd, args[0])
		if err != nil {
			return err
		}
		defer b.Close()
		f, err := sel.resolve(b)
		if err != nil {
			return err
		}
		if *limit < 0 {
			return usagef("-n %d: want a count of messages, or 0 for all", *limit)
		}
		if *truncate < 0 {
			return usagef("--truncate-length %d: want a length of 0 or more", *truncate)
		}
		o := catOptions{json: *asJSON, noSuspect: *noSuspect, limit: *limit, fields: *fields,
			header: len(f.Topics) != 1, truncate: *truncate}
		if *full {
			o.truncate = -1
		}
		return status(runCat(b, args[0], f, sel, o, e.stdout, e.stderr))
	}
	return c
}

// inlineCatLimit is the largest -n for which cat formats the messages on
// the goroutine that prints them, rather than every message of the chunks
// read ahead.
const inlineCatLimit = 1000

// catOptions are how cat prints.
type catOptions struct {
	json bool
	// noSuspect leaves the suspect messages out (--no-suspect).
	noSuspect bool
	// limit is -n (0: no limit).
	limit int
	// fields are --fields' paths.
	fields []string
	// header prints "# TOPIC  TIME  TYPE" before each message in text:
	// when more than one topic is printed.
	header bool
	// truncate is the ROS 2 text's --truncate-length (-1: --full-length).
	truncate int
}

func runCat(b bag.Storage, path string, f bag.MessageFilter, sel *selection, o catOptions, stdout, stderr io.Writer) int {
	w := bufio.NewWriterSize(stdout, 256<<10)
	defer w.Flush()
	p := &catPrinter{w: w, stderr: stderr, json: o.json, noSuspect: o.noSuspect, header: o.header, fields: o.fields, truncate: o.truncate,
		warned: map[uint32]bool{}, exact: map[uint32]bool{}, b: b, path: path}
	// Each message is decoded and formatted on the goroutines that read
	// it (bag.PreparedMessages), this one writing them in time order; a
	// read of a few messages formats them here, not whole chunks ahead.
	var it bag.PreparedIter
	if o.limit > 0 && o.limit <= inlineCatLimit {
		it = bag.PrepareInline(b.Messages(f), p.prepare)
	} else {
		it = bag.PreparedMessages(b, f, p.prepare)
	}
	defer it.Close()
	var n uint64
	var t bag.Tally // by connection: which topics lost how many
	for it.Next() {
		m := it.Message()
		t.Add(m)
		body, ok := it.Prepared()
		p.print(m, body, ok)
		n++
		if o.limit > 0 && n >= uint64(o.limit) {
			break
		}
	}
	if err := it.Err(); err != nil {
		w.Flush()
		return fail(stderr, path, err)
	}
	w.Flush()
	sel.noteEmpty(stderr, path, n)
	// What could not be read goes to stderr, in text and --json alike.
	// Every message read (no limit cut it short): what was read, not
	// what an index counts.
	t.Suspects = max(t.Suspects, p.suspects) // a message that does not decode exactly is suspect too
	l := readLoss(b, it, t, f.Whole() && (o.limit == 0 || n < uint64(o.limit)))
	l.print(stderr, path)
	status := 0
	if l.any() {
		status = 1
	}
	if p.suspects > 0 {
		what := "marked"
		if o.noSuspect {
			what = "left out (--no-suspect)"
		}
		fmt.Fprintf(stderr, "bagscope: %s: %s: %s %s, the first here: read from a damaged chunk or page, or not decoding exactly against its definition\n", path, bag.Where(b, p.firstSuspect), human.Plural(p.suspects, "suspect message"), what)
	}
	if p.failed > 0 {
		fmt.Fprintf(stderr, "bagscope: %s: %s: %s could not be decoded, the first here\n", path, bag.Where(b, p.firstFailed), human.Plural(uint64(p.failed), "message"))
		status = 1
	}
	return status
}

// encodingName names a connection's message encoding for messages.
func encodingName(c *bag.Connection) string {
	if c.Encoding == "" {
		return "unknown-encoding"
	}
	return c.Encoding
}

// printUndecoded prints a message of an encoding bagscope does not decode:
// a json message as its JSON, any other as base64 ("data") with its
// encoding.
func (p *catPrinter) printUndecoded(m *bag.Message) {
	c := m.Conn
	if p.json {
		b := p.buf[:0]
		b = append(b, `{"topic": `...)
		b = appendJSONString(b, c.Topic)
		b = fmt.Appendf(b, `, "time": {"secs": %d, "nsecs": %d}, "type": `, m.Time.Sec, m.Time.NSec)
		b = appendJSONString(b, c.Type)
		b = append(b, `, "encoding": `...)
		b = appendJSONString(b, encodingName(c))
		if c.Encoding == "json" && json.Valid(m.Data) {
			b = append(b, `, "msg": `...)
			b = append(b, bytes.TrimSpace(m.Data)...)
		} else {
			b = append(b, `, "data": "`...)
			b = base64.StdEncoding.AppendEncode(b, m.Data)
			b = append(b, '"')
		}
		if m.Suspect != "" {
			b = append(b, `, "suspect": `...)
			b = appendJSONString(b, m.Suspect)
		}
		b = append(b, "}\n"...)
		p.w.Write(b)
		p.buf = b
		return
	}
	fmt.Fprintf(p.w, "# %s  %s  %s\n", c.Topic, m.Time, c.Type)
	if m.Suspect != "" {
		fmt.Fprintf(p.w, "# suspect: %s\n", m.Suspect)
	}
	if c.Encoding == "json" && utf8.Valid(m.Data) {
		fmt.Fprintf(p.w, "%s\n", bytes.TrimSpace(m.Data))
	} else {
		fmt.Fprintf(p.w, "(%d bytes of %s, not decoded)\n", len(m.Data), encodingName(c))
	}
	p.w.WriteString("---\n")
}

// catPrinter decodes and prints messages.
type catPrinter struct {
	w      *bufio.Writer
	stderr io.Writer
	json   bool
	// noSuspect leaves the suspect messages out.
	noSuspect bool
	header    bool
	fields    []string
	// truncate is ROS2Message's truncate.
	truncate int
	plans    rosmsg.Cache
	warned   map[uint32]bool
	// exact holds the connections one of whose messages decoded
	// exactly.
	exact  map[uint32]bool
	b      bag.Storage
	path   string
	failed int
	// firstFailed is where the first message not decoded is.
	firstFailed bag.Loc
	// suspects counts the suspect messages met, firstSuspect where the
	// first is.
	suspects     uint64
	firstSuspect bag.Loc
	buf          []byte
	body         []byte // print's message body (appendBody), beside buf
}

// noteFailed counts a message that does not decode.
func (p *catPrinter) noteFailed(m *bag.Message) {
	if p.failed == 0 {
		p.firstFailed = m.Loc
	}
	p.failed++
}

// noteSuspect counts a suspect message and reports whether to print it.
func (p *catPrinter) noteSuspect(m *bag.Message) bool {
	if p.suspects == 0 {
		p.firstSuspect = m.Loc
	}
	p.suspects++
	return !p.noSuspect
}

// joinWhy adds a reason to a message's suspect reason.
func joinWhy(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// appendJSONString appends s as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s)
	return append(b, q...)
}

func (p *catPrinter) warnOnce(c *bag.Connection, format string, args ...any) {
	if p.warned[c.ID] {
		return
	}
	p.warned[c.ID] = true
	fmt.Fprintf(p.stderr, "bagscope: warning: offset %d: connection %d (%s, %s): %s\n", c.Offset, c.ID, c.Topic, c.Type, fmt.Sprintf(format, args...))
}

// prepare decodes m and formats what print writes of it after its header
// and suspect lines (bag.Prepare): run on the goroutines that read the
// messages, so it reads only what does not change while printing. A
// message that does not decode exactly, or whose printing warns, is left
// to print.
func (p *catPrinter) prepare(m *bag.Message, dst []byte) ([]byte, bool) {
	c := m.Conn
	plan, err := model.PlanFor(&p.plans, c)
	if err != nil {
		return dst, false
	}
	sc := scratches.Get().(*rosmsg.Scratch)
	defer scratches.Put(sc)
	node, err := plan.DecodeScratch(m.Data, sc)
	if err != nil {
		return dst, false
	}
	if len(p.fields) == 1 && !p.json && c.Encoding == "cdr" {
		f := fieldAt(node, p.fields[0])
		if f == nil {
			return dst, false
		}
		text, ok := echo.ROS2Field(f, p.ros2Style(c))
		if !ok {
			text = echo.ROS2MessageStyled(selectFields(node, p.fields), p.ros2Style(c))
		}
		dst = append(dst, text...)
		return append(dst, "---\n"...), true
	}
	if len(p.fields) > 0 {
		node = selectFields(node, p.fields)
	}
	return p.appendBody(dst, c, node), true
}

// appendBody appends a decoded message as cat writes it, without its
// header and suspect lines: JSON, ROS 2 echo text or rostopic echo text,
// each with its separator.
func (p *catPrinter) appendBody(dst []byte, c *bag.Connection, node *rosmsg.Node) []byte {
	switch {
	case p.json:
		return rosmsg.AppendJSON(dst, node)
	case c.Encoding == "cdr":
		dst = echo.AppendROS2Message(dst, node, p.ros2Style(c))
		return append(dst, "---\n"...)
	}
	dst = echo.AppendMessage(dst, node)
	return append(dst, "\n---\n"...)
}

// scratches are the decoding memory of prepare's goroutines.
var scratches = sync.Pool{New: func() any { return new(rosmsg.Scratch) }}

// print prints m: body is what prepare made of it, when prepared.
func (p *catPrinter) print(m *bag.Message, body []byte, prepared bool) {
	c := m.Conn
	plan, err := model.PlanFor(&p.plans, c)
	if errors.Is(err, rosmsg.ErrUnsupportedEncoding) {
		if c.Definition == "" && (c.Encoding == "cdr" || c.Encoding == "ros1") {
			p.warnOnce(c, "%s", model.MissingDefinitionHint(c))
		} else {
			p.warnOnce(c, "messages of encoding %q are printed as they are: bagscope decodes ros1 and cdr", encodingName(c))
		}
		if m.Suspect != "" && !p.noteSuspect(m) {
			return
		}
		p.printUndecoded(m)
		return
	}
	if err != nil {
		p.noteFailed(m)
		p.warnOnce(c, "cannot compile the message definition: %v", err)
		return
	}
	if err := plan.CheckMD5(c.MD5Sum); err != nil {
		p.warnOnce(c, "%v", err)
	}
	suspect := m.Suspect
	var node *rosmsg.Node
	if !prepared {
		node, err = plan.Decode(m.Data)
	}
	if err == nil {
		p.exact[c.ID] = true
	}
	if err != nil {
		// A message that does not decode exactly against its definition
		// is suspect: its bytes are not what was recorded.
		where := bag.Where(p.b, m.Loc)
		trailing := node != nil && errors.Is(err, rosmsg.ErrTrailingBytes)
		switch {
		case trailing && c.DefinitionSource != "":
			// A definition from outside the recording that does not fit
			// its messages says nothing of damage.
			p.warnOnce(c, "%v (the definition is %s's)", err, c.DefinitionSource)
		case trailing && !p.exact[c.ID]:
			// Bytes left over by every message of the connection so far:
			// the definition does not fit them, which says nothing of
			// damage. Once one has decoded exactly, the others are
			// suspect.
			p.warnOnce(c, "%v (the definition does not fit the connection's messages)", err)
		default:
			suspect = joinWhy(suspect, fmt.Sprintf("%s: does not decode exactly against %s: %v", where, c.Type, err))
		}
		if !trailing {
			p.noteFailed(m)
			fmt.Fprintf(p.stderr, "bagscope: %s: %s: message at %s on %s: %v\n", p.path, where, m.Time, c.Topic, err)
			if p.noteSuspect(m) {
				mm := *m
				mm.Suspect = suspect
				p.printUndecoded(&mm)
			}
			return
		}
	}
	if suspect != "" && !p.noteSuspect(m) {
		return
	}
	if prepared {
		p.printPrepared(m, body, suspect)
		return
	}
	if len(p.fields) == 1 && !p.json && c.Encoding == "cdr" {
		p.printField(m, node, suspect)
		return
	}
	if len(p.fields) > 0 {
		node = selectFields(node, p.fields)
	}
	p.body = p.appendBody(p.body[:0], c, node)
	p.printPrepared(m, p.body, suspect)
}

// printPrepared writes a message formatted by appendBody (on a reading
// goroutine through prepare, or by print) with its header and suspect
// lines around body.
func (p *catPrinter) printPrepared(m *bag.Message, body []byte, suspect string) {
	c := m.Conn
	if p.json {
		b := p.buf[:0]
		b = append(b, `{"topic": `...)
		b = appendJSONString(b, c.Topic)
		b = fmt.Appendf(b, `, "time": {"secs": %d, "nsecs": %d, "ns": %d}, "type": `, m.Time.Sec, m.Time.NSec, m.Time.Nanos())
		b = appendJSONString(b, c.Type)
		b = append(b, `, "msg": `...)
		b = append(b, body...)
		if suspect != "" {
			b = append(b, `, "suspect": `...)
			b = appendJSONString(b, suspect)
		}
		b = append(b, "}\n"...)
		p.w.Write(b)
		p.buf = b
		return
	}
	if p.header {
		fmt.Fprintf(p.w, "# %s  %s  %s\n", c.Topic, m.Time, c.Type)
	}
	if suspect != "" {
		fmt.Fprintf(p.w, "# suspect: %s\n", suspect)
	}
	p.w.Write(body)
}

// ros2Style is how a connection's ROS 2 text is written.
func (p *catPrinter) ros2Style(c *bag.Connection) echo.ROS2Style {
	return echo.ROS2Style{Truncate: p.truncate, IDLChar: c.SchemaEncoding == rosmsg.SchemaROS2IDL}
}

// printField prints the one field --fields names of a ROS 2 message as
// `ros2 topic echo --field` does: the bare value, a nested message as its
// YAML, anything else as Python prints it. A message without that field is
// said once per connection on stderr and left out, where echo stops with
// "Invalid field"; an array of messages, whose Python repr is not
// reproduced, is printed under its path as with several fields.
func (p *catPrinter) printField(m *bag.Message, node *rosmsg.Node, suspect string) {
	c := m.Conn
	f := fieldAt(node, p.fields[0])
	if f == nil {
		p.warnOnce(c, "no field %q in %s: its messages are left out", p.fields[0], c.Type)
		return
	}
	text, ok := echo.ROS2Field(f, p.ros2Style(c))
	if !ok {
		text = echo.ROS2MessageStyled(selectFields(node, p.fields), p.ros2Style(c))
	}
	if p.header {
		fmt.Fprintf(p.w, "# %s  %s  %s\n", c.Topic, m.Time, c.Type)
	}
	if suspect != "" {
		fmt.Fprintf(p.w, "# suspect: %s\n", suspect)
	}
	p.w.WriteString(text)
	p.w.WriteString("---\n")
}

// fieldAt returns the field of n a dotted path names, or nil; a path
// through an array names nothing.
func fieldAt(n *rosmsg.Node, path string) *rosmsg.Node {
	cur := n
	for _, name := range strings.Split(path, ".") {
		if cur = cur.Field(name); cur == nil {
			return nil
		}
	}
	return cur
}

// selectFields returns a message of the fields of n that paths name
// ("pose.pose.position"), each under its path; a path that names no field
// is left out.
func selectFields(n *rosmsg.Node, paths []string) *rosmsg.Node {
	out := &rosmsg.Node{Kind: n.Kind, Type: n.Type, Index: -1}
	for _, p := range paths {
		cur := n
		for _, name := range strings.Split(p, ".") {
			var next *rosmsg.Node
			for i := range cur.Children {
				if cur.Children[i].Name == name && !cur.Array {
					next = &cur.Children[i]
					break
				}
			}
			if cur = next; cur == nil {
				break
			}
		}
		if cur != nil {
			f := *cur
			f.Name = p
			out.Children = append(out.Children, f)
		}
	}
	return out
}
