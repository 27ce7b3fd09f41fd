package ros1

import (
	"fmt"
	"io"
	"sort"

	"github.com/bagscope/bagscope/bag"
)

// WriteFrom writes every message of src, a recording of any format whose
// messages are ROS 1 serialized (Encoding "ros1"), as an indexed ROS 1 bag
// on out. Each connection's header is rebuilt from the seam's fields and
// its Metadata (the fields another format kept, such as callerid), so a
// bag converted to MCAP and back keeps them. The report counts what was
// written and what the read of src skipped.
func WriteFrom(out io.WriteSeeker, src bag.Storage, opt WriterOptions) (*bag.RepairReport, error) {
	rep := &bag.RepairReport{Kept: map[string]uint64{}, Compression: opt.Compression}
	if rep.Compression == "" {
		rep.Compression = CompressionNone
	}
	conns := src.Connections()
	for _, c := range conns {
		if c.Encoding != "ros1" {
			return rep, fmt.Errorf("connection %d (%s) holds %q messages: a ROS 1 bag holds only ROS 1 serialized messages", c.ID, c.Topic, c.Encoding)
		}
	}
	w, err := NewWriter(out, opt)
	if err != nil {
		return rep, err
	}
	for _, c := range conns {
		if err := w.AddConnection(connectionFrom(c)); err != nil {
			return rep, err
		}
	}
	it := src.Messages(bag.MessageFilter{})
	defer it.Close()
	for it.Next() {
		m := it.Message()
		if m.Suspect != "" {
			rep.Suspect++
			continue
		}
		if err := w.WriteMessage(m.Conn.ID, m.Time, m.Data); err != nil {
			return rep, err
		}
		rep.Kept[m.Conn.Topic]++
		rep.Messages++
	}
	if err := it.Err(); err != nil {
		return rep, err
	}
	if sk, ok := it.(interface{ Skipped() []bag.ByteRange }); ok {
		rep.Lost = append(rep.Lost, sk.Skipped()...)
	}
	return rep, w.Close()
}

// connectionFrom builds a ROS 1 connection from the seam's: the header
// fields topic, type, md5sum and message_definition, then callerid and
// latching when set, then the remaining metadata in name order.
func connectionFrom(c *bag.Connection) *Connection {
	rc := &Connection{ID: c.ID, Topic: c.Topic, Type: c.Type, MD5Sum: c.MD5Sum, MessageDefinition: c.Definition, CallerID: c.CallerID, Latching: c.Latching}
	add := func(name, value string) {
		rc.Fields = append(rc.Fields, Field{Name: name, Value: []byte(value)})
	}
	add("topic", c.Topic)
	add("type", c.Type)
	add("md5sum", c.MD5Sum)
	add("message_definition", c.Definition)
	rest := make([]string, 0, len(c.Metadata))
	for k := range c.Metadata {
		switch k {
		case "topic", "type", "md5sum", "message_definition":
		default:
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	_, hasCaller := c.Metadata["callerid"]
	if c.CallerID != "" && !hasCaller {
		add("callerid", c.CallerID)
	}
	_, hasLatching := c.Metadata["latching"]
	if c.Latching && !hasLatching {
		add("latching", "1")
	}
	for _, k := range rest {
		add(k, c.Metadata[k])
	}
	return rc
}
