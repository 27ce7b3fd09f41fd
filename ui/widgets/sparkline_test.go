package widgets

import (
	"context"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"

	"math"
	"testing"
)

// TestSparkBands checks the buckets keep each one's extremes and leave
// out NaN and infinities.
func TestSparkBands(t *testing.T) {
	root := decodeRefPath(t, "../../testdata/custom-all-types.bag", "/all_types", 1)
	f32 := root.Field("f32_dyn") // NaN, 1.5, 1.4e-45, 3.4e38
	lo, hi := sparkBands(f32, 2)
	if lo[0] != 1.5 || hi[0] != 1.5 {
		t.Errorf("bucket 0 = %v..%v, want 1.5 (NaN left out)", lo[0], hi[0])
	}
	if lo[1] != float64(float32(1.401298464324817e-45)) || hi[1] != float64(math.MaxFloat32) {
		t.Errorf("bucket 1 = %v..%v", lo[1], hi[1])
	}
}

// decodeRefPath decodes message n of topic in the bag at path.
func decodeRefPath(t *testing.T, path, topic string, n int) *rosmsg.Node {
	t.Helper()
	b, err := ros1.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	s := ros1.NewStore(b)
	x, err := model.BuildMessageIndex(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := model.NewMessageReader(s, nil)
	m, err := r.Read(x.Topic(topic).At(n))
	if err != nil {
		t.Fatal(err)
	}
	root, _, err := r.Decode(m)
	if err != nil {
		t.Fatal(err)
	}
	return root
}
