package tf

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/internal/typed"
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
	return typed.Each(ctx, st, bag.MessageFilter{Conns: ids}, typed.Reader{Progress: opt.Progress, Done: opt.Done,
		Visit: b.message, Undecodable: b.undecodable})
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
	stamp, ok := typed.StampOf(h.Field("stamp"))
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
