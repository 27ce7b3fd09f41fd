package tf

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// ErrNoTF says a recording has no transform topic.
var ErrNoTF = errors.New("the recording has no transform topic (/tf or /tf_static of type tf/tfMessage or tf2_msgs/TFMessage)")

// IsTFType reports whether typ is a transform message type:
// tf/tfMessage, tf2_msgs/TFMessage or tf2_msgs/msg/TFMessage.
func IsTFType(typ string) bool {
	switch rosmsg.NormalizeROS2Type(typ) {
	case "tf/msg/tfMessage", "tf2_msgs/msg/TFMessage":
		return true
	}
	return false
}

// IsStaticTopic reports whether topic carries static transforms: its last
// name is tf_static (/tf_static, /robot1/tf_static).
func IsStaticTopic(topic string) bool {
	return topic == "tf_static" || strings.HasSuffix(topic, "/tf_static")
}

// Connections returns the IDs of st's transform connections.
func Connections(st bag.Storage) []uint32 {
	var ids []uint32
	for _, c := range st.Connections() {
		if IsTFType(c.Type) {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// Options tune Read.
type Options struct {
	// Progress, when set, is told the transform messages read so far of
	// the total the index counts.
	Progress func(done, total int64)
	// Done, when set, is given the finished iterator before it is closed,
	// to ask what the read skipped (bag.DamageAfter).
	Done func(it bag.MessageIter)
}

// Read builds the transform tree of st at time at (a receive-time clock
// reading: the instant whose transforms are wanted; compared with each
// transform's header.stamp). A zero at reads the tree at the latest
// transform of every frame. It reads every transform message once, in
// bounded memory. A read that stops on damage returns the tree built so
// far with the error.
func Read(ctx context.Context, st bag.Storage, at bag.Time, opt Options) (*Tree, error) {
	ids := Connections(st)
	if len(ids) == 0 {
		return nil, ErrNoTF
	}
	b := newBuilder(at)
	err := readInto(ctx, st, ids, b, opt)
	return b.finish(st), err
}

// readInto gives builder b every transform message of connections ids.
func readInto(ctx context.Context, st bag.Storage, ids []uint32, b *builder, opt Options) error {
	var total int64
	if s, _ := st.Summary(); s != nil {
		for _, id := range ids {
			total += int64(s.ConnMessages[id])
		}
	}
	cache := &rosmsg.Cache{}
	// The builder keeps nothing of a message's tree (strings are copies):
	// each message's nodes reuse the last one's.
	var scratch rosmsg.Scratch
	it := st.Messages(bag.MessageFilter{Conns: ids})
	defer it.Close()
	var done int64
	for it.Next() {
		if done%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if opt.Progress != nil {
				opt.Progress(done, total)
			}
		}
		done++
		m := it.Message()
		plan, err := cache.GetSchema(m.Conn.SchemaEncoding, m.Conn.Encoding, m.Conn.Type, m.Conn.Definition)
		if err != nil {
			b.undecodable(m, err)
			continue
		}
		n, err := plan.DecodeScratch(m.Data, &scratch)
		if err != nil {
			b.undecodable(m, err)
			continue
		}
		b.message(m, n)
	}
	if opt.Progress != nil {
		opt.Progress(done, total)
	}
	if opt.Done != nil {
		opt.Done(it)
	}
	return it.Err()
}

// stampOf reads a time field: a ROS 1 time, or a ROS 2
// builtin_interfaces/Time message (sec, nanosec).
func stampOf(n *rosmsg.Node) (bag.Time, bool) {
	if n == nil {
		return bag.Time{}, false
	}
	if n.Kind == rosmsg.KindTime && !n.Array {
		t := n.Time()
		return bag.Time{Sec: t.Sec, NSec: t.Nsec}, true
	}
	s, ns := n.Field("sec"), n.Field("nanosec")
	if s == nil || ns == nil {
		return bag.Time{}, false
	}
	sec := s.Int()
	if sec < 0 || sec > 1<<32-1 || ns.Uint() >= 1e9 {
		return bag.Time{}, false
	}
	return bag.Time{Sec: uint32(sec), NSec: uint32(ns.Uint())}, true
}

// floats reads the named float fields of n.
func floats(n *rosmsg.Node, names ...string) ([]float64, bool) {
	if n == nil {
		return nil, false
	}
	out := make([]float64, len(names))
	for i, name := range names {
		f := n.Field(name)
		if f == nil {
			return nil, false
		}
		v, ok := f.Float64()
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// stamped is one geometry_msgs/TransformStamped of a message.
type stamped struct {
	parent, child string
	stamp         bag.Time
	tr            Transform
}

// decodeStamped reads element e of a message's transforms array.
func decodeStamped(e *rosmsg.Node) (stamped, error) {
	var s stamped
	h := e.Field("header")
	cf := e.Field("child_frame_id")
	tr := e.Field("transform")
	if h == nil || cf == nil || tr == nil {
		return s, errors.New("not a geometry_msgs/TransformStamped")
	}
	fid := h.Field("frame_id")
	if fid == nil {
		return s, errors.New("header without frame_id")
	}
	stamp, ok := stampOf(h.Field("stamp"))
	if !ok {
		return s, errors.New("header without a readable stamp")
	}
	p, ok1 := floats(tr.Field("translation"), "x", "y", "z")
	q, ok2 := floats(tr.Field("rotation"), "x", "y", "z", "w")
	if !ok1 || !ok2 {
		return s, errors.New("transform without translation or rotation")
	}
	s.parent, s.child, s.stamp = StripSlash(fid.Text()), StripSlash(cf.Text()), stamp
	copy(s.tr.Translation[:], p)
	copy(s.tr.Rotation[:], q)
	return s, nil
}

// StripSlash removes a frame name's leading "/", as tf2 does.
func StripSlash(frame string) string { return strings.TrimPrefix(frame, "/") }

func (b *builder) undecodable(m *bag.Message, err error) {
	b.tree.Undecodable++
	if b.tree.Undecodable == 1 {
		b.tree.FirstUndecodable = fmt.Sprintf("%s at %s: %v", m.Conn.Topic, m.Time, err)
	}
}
