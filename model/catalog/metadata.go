package catalog

import (
	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/rosbag2"
)

// metadataOf gathers what a recording says of itself: rosbag2's
// custom_data (under "custom_data"), and the metadata records of its MCAP
// files (by record name).
func metadataOf(b bag.Storage, path string) map[string]map[string]string {
	out := map[string]map[string]string{}
	dir := bag.FolderOf(path)
	if st, err := bag.FSFor(path).Stat(path); err == nil && st.IsDir() {
		dir = path
	}
	if dir != "" {
		if m, err := rosbag2.ReadMetadata(bag.Join(dir, "metadata.yaml")); err == nil && len(m.CustomData) > 0 {
			out["custom_data"] = m.CustomData
		}
	}
	parts := []bag.Storage{b}
	if m := bag.AsMulti(b); m != nil {
		parts = m.Parts()
	}
	for _, p := range parts {
		if x, ok := bag.Underlying(p).(*mcap.Reader); ok {
			for name, kv := range x.MetadataRecords() {
				if out[name] == nil {
					out[name] = map[string]string{}
				}
				for k, v := range kv {
					out[name][k] = v
				}
			}
		}
	}
	return out
}
