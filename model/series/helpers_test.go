package series

import (
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"

	// The formats the tests open through the seam.
	_ "github.com/bagscope/bagscope/bag/db3"
	_ "github.com/bagscope/bagscope/bag/mcap"
	_ "github.com/bagscope/bagscope/bag/rosbag2"
)

// multichunk is a ROS 1 bag of several uncompressed chunks.
const multichunk = "../../testdata/none-multichunk.bag"

// openBag opens a ROS 1 bag (scanning it when unindexed), closed when the
// test ends.
func openBag(t testing.TB, path string) bag.Storage {
	t.Helper()
	b, err := ros1.OpenOrScan(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return ros1.NewStore(b)
}

// OpenStorage opens a recording of any format through the seam, as the
// document does (its definitions are the recording's own).
func OpenStorage(path string) (bag.Storage, error) { return bag.OpenFile(path) }
