package rosmsg

// Validate checks that data is one whole message of the plan's type: that
// it decodes and consumes exactly its bytes (in CDR, up to 3 bytes of
// padding may follow). It walks the message without building a tree, so it
// costs no allocation for a good message; for a bad one it returns the
// error Decode gives, with the field path and byte offset.
func (p *Plan) Validate(data []byte) error {
	if !p.needsDecode() {
		end, ok := p.skip(data)
		if ok && (end == len(data) || p.cdr && len(data)-end <= maxCDRPadding) {
			return nil
		}
	}
	_, err := p.Decode(data)
	return err
}

// skip walks data as a message of the plan and returns where it ends.
func (p *Plan) skip(data []byte) (int, bool) {
	if !p.cdr {
		return skipMsg(p.Root, data, 0)
	}
	be, err := cdrHeader(data)
	if err != nil {
		return 0, false
	}
	return cdrSkipMsgFast(p.Root, data, 4, be)
}

// needsDecode reports whether the plan has checks the skip functions do
// not make (bounded sequences and strings), so only Decode can validate.
func (p *Plan) needsDecode() bool {
	p.boundsOnce.Do(func() { p.bounded = hasBounds(p.Root, map[*MsgPlan]bool{}) })
	return p.bounded
}

func hasBounds(m *MsgPlan, seen map[*MsgPlan]bool) bool {
	if m == nil || seen[m] {
		return false
	}
	seen[m] = true
	for i := range m.Fields {
		f := &m.Fields[i]
		if f.Bound > 0 || f.StrBound > 0 || hasBounds(f.Msg, seen) {
			return true
		}
	}
	return false
}
