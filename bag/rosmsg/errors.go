package rosmsg

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinel errors. Every error returned by this package is an *Error that
// unwraps to one of these.
var (
	// ErrSyntax: the definition text cannot be parsed.
	ErrSyntax = errors.New("invalid message definition")
	// ErrUnknownType: a field refers to a type the definition does not contain.
	ErrUnknownType = errors.New("unknown message type")
	// ErrRecursive: a type contains itself, directly or indirectly.
	ErrRecursive = errors.New("recursive message definition")
	// ErrTruncated: the message data ends before a field does.
	ErrTruncated = errors.New("message data truncated")
	// ErrTooLarge: a length or count read from the data exceeds what the remaining bytes can hold.
	ErrTooLarge = errors.New("length or count too large")
	// ErrTrailingBytes: the message was decoded completely but bytes remain after it.
	// This condition is not fatal: Decode still returns the full tree.
	ErrTrailingBytes = errors.New("trailing bytes after message")
	// ErrPath: a field path does not name a plottable field of the type.
	ErrPath = errors.New("invalid field path")
	// ErrIndex: an array index in a field path is beyond the array's length in this message.
	ErrIndex = errors.New("array index out of range")
	// ErrMD5Mismatch: a connection's md5sum differs from the one computed from its definition.
	ErrMD5Mismatch = errors.New("md5sum mismatch")
	// ErrUnsupportedEncoding: a schema or message encoding (json, protobuf,
	// flatbuffer, ...) or a CDR encapsulation kind this package does not decode.
	// Callers show such messages as bytes.
	ErrUnsupportedEncoding = errors.New("unsupported encoding")
	// ErrBound: a bounded sequence or string (T[<=N], string<=N) holds more than N.
	ErrBound = errors.New("bound exceeded")
)

// Error reports a problem with a definition, a field path or message data.
type Error struct {
	Type   string // message type concerned, if known
	Path   string // field path such as "transforms[2].header.frame_id", if any
	Offset int    // byte offset in the message data, or -1 if not about data
	Msg    string // detail
	Err    error  // one of the sentinel errors
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("rosmsg: ")
	if e.Type != "" {
		b.WriteString(e.Type)
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Offset >= 0 {
		b.WriteString("offset ")
		b.WriteString(strconv.Itoa(e.Offset))
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	return b.String()
}

// Unwrap returns the sentinel error.
func (e *Error) Unwrap() error { return e.Err }

func defError(typ, path string, sentinel error, msg string) *Error {
	return &Error{Type: typ, Path: path, Offset: -1, Msg: msg, Err: sentinel}
}

// prefixPath puts a field name or an index in front of the error's path,
// as the error travels up from a nested field.
func (e *Error) prefixField(name string) {
	switch {
	case e.Path == "":
		e.Path = name
	case e.Path[0] == '[':
		e.Path = name + e.Path
	default:
		e.Path = name + "." + e.Path
	}
}

func (e *Error) prefixIndex(i int) {
	idx := "[" + strconv.Itoa(i) + "]"
	if e.Path == "" || e.Path[0] == '[' {
		e.Path = idx + e.Path
	} else {
		e.Path = idx + "." + e.Path
	}
}
