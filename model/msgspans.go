package model

import (
	"strconv"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// spanElems is how many elements of an array of messages or strings get
// spans of their own; the rest of the array is one span.
const spanElems = 256

// MessageSpans splits a message data record's bytes into spans: the
// record's lengths and header fields as RecordSpans names them, then the
// message's values, named by field path and type. Length prefixes of
// strings and arrays are SpanLength; values are SpanData whose Field is
// the top-level field they belong to, so neighbouring fields can be told
// apart. root is m.Data decoded; without it the data is one span.
func MessageSpans(m *Message, root *rosmsg.Node) []Span {
	spans := append([]Span(nil), m.Header...)
	data := spans[len(spans)-1]
	spans = spans[:len(spans)-1]
	if root == nil {
		return append(spans, data)
	}
	base := m.DataOffset
	first := len(spans)
	for i := range root.Children {
		c := &root.Children[i]
		spans = nodeSpans(spans, c, c.Name, i, base)
	}
	spans = fillGaps(spans, first, base)
	if end := base + int64(root.End); end < m.RecordEnd {
		spans = append(spans, Span{Name: "unused bytes after the message", Kind: SpanLength, Start: end, End: m.RecordEnd})
	}
	return spans
}

// fillGaps names the bytes of a message's data that no field holds: the
// 4-byte encapsulation header a CDR message starts with, and the padding
// CDR puts before a value to align it. spans[first:] are the data's spans,
// in order; the data starts at base.
func fillGaps(spans []Span, first int, base int64) []Span {
	if first == len(spans) {
		return spans
	}
	out := append([]Span(nil), spans[:first]...)
	at := base
	for _, s := range spans[first:] {
		if s.Start > at {
			name := "alignment padding"
			if at == base {
				name = "CDR encapsulation header"
			}
			out = append(out, Span{Name: name, Kind: SpanLength, Start: at, End: s.Start, Field: -1})
		}
		out = append(out, s)
		at = s.End
	}
	return out
}

// nodeSpans appends the spans of n, at path, part of top-level field top.
func nodeSpans(spans []Span, n *rosmsg.Node, path string, top int, base int64) []Span {
	add := func(kind SpanKind, name string, s, e int) {
		if e > s {
			spans = append(spans, Span{Name: name, Kind: kind, Start: base + int64(s), End: base + int64(e), Field: top})
		}
	}
	switch {
	case n.Array:
		body := n.End
		if n.Len() > 0 {
			body, _ = n.ElemRange(0)
		}
		add(SpanLength, path+" length", n.Start, body)
		if len(n.Children) == 0 {
			add(SpanData, path+" ("+n.Type+")", body, n.End)
			return spans
		}
		k := min(len(n.Children), spanElems)
		for i := range k {
			spans = nodeSpans(spans, &n.Children[i], path+"["+strconv.Itoa(i)+"]", top, base)
		}
		if k < len(n.Children) {
			add(SpanData, path+"["+strconv.Itoa(k)+":] ("+n.Type+")", n.Children[k].Start, n.End)
		}
	case n.Kind == rosmsg.KindMessage:
		for i := range n.Children {
			spans = nodeSpans(spans, &n.Children[i], path+"."+n.Children[i].Name, top, base)
		}
	case n.Kind == rosmsg.KindString:
		add(SpanLength, path+" length", n.Start, n.Start+4)
		add(SpanData, path+" (string)", n.Start+4, n.End)
	default:
		add(SpanData, path+" ("+n.Type+")", n.Start, n.End)
	}
	return spans
}
