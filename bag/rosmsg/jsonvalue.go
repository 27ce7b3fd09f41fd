package rosmsg

// AppendJSONFloat appends f as AppendJSON writes a float: as Python's
// json.dumps writes repr(f), with NaN and the infinities as the strings
// "NaN", "Infinity" and "-Infinity".
func AppendJSONFloat(b []byte, f float64) []byte { return appendPyFloat(b, f) }

// AppendJSONString appends s as AppendJSON writes a string (s must be
// valid UTF-8; control characters are escaped).
func AppendJSONString(b []byte, s string) []byte { return appendJSONString(b, s) }

// DecodeText decodes a string field's bytes as Decode does (and genpy):
// UTF-8, each invalid sequence replaced by U+FFFD as Python's "replace"
// error handler does.
func DecodeText(b []byte) string { return decodeUTF8(b) }
