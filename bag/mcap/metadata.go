package mcap

// MetadataRecords reads the file's metadata records: each record's
// key-value pairs by its name (a later record of a name adds to an
// earlier one's). A record that cannot be read is left out.
func (x *Reader) MetadataRecords() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, m := range x.metas {
		b, err := x.readAt(int64(m.Offset), int64(m.Length))
		if err != nil || len(b) < recHeaderLen || Op(b[0]) != OpMetadata {
			continue
		}
		d := newDec(b[recHeaderLen:])
		md := parseMetadata(d)
		if d.err != nil {
			continue
		}
		kv := out[md.Name]
		if kv == nil {
			kv = map[string]string{}
			out[md.Name] = kv
		}
		for k, v := range md.Metadata {
			kv[k] = v
		}
	}
	return out
}
