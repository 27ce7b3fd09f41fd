package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// version pins a file's content: the validators of the first answer. A
// later answer with other validators is ErrChanged.
type version struct {
	etag    string // as sent, quotes included
	modTime string // the Last-Modified header as sent (HTTP), or RFC 1123 (S3)
}

// matches reports whether an answer's validators agree with v: a validator
// both sides have must be equal.
func (v version) matches(o version) bool {
	if v.etag != "" && o.etag != "" && strings.TrimPrefix(v.etag, "W/") != strings.TrimPrefix(o.etag, "W/") {
		return false
	}
	if v.etag == "" && v.modTime != "" && o.modTime != "" && v.modTime != o.modTime {
		return false
	}
	return true
}

// strongETag reports whether the ETag can be sent in If-Match (a weak one
// never matches there).
func (v version) strongETag() bool { return v.etag != "" && !strings.HasPrefix(v.etag, "W/") }

// answer is one range response whose status was good.
type answer struct {
	body  io.ReadCloser
	start int64 // the offset of the body's first byte
	n     int64 // the bytes the body holds
	size  int64 // the file's size
	ver   version
}

// backend makes the requests of one kind of store.
type backend interface {
	// get asks for n bytes at off, or with n < 0 for the file's last -n
	// bytes (learning its size). When ver is set, the request is pinned
	// to it (If-Match) and an answer of another version is ErrChanged.
	get(ctx context.Context, l location, off, n int64, ver *version) (*answer, error)
	// list lists the files directly below the folder l (its key ends with
	// "/"), without descending.
	list(ctx context.Context, l location) ([]Entry, error)
}

// Entry is a file listed in a folder.
type Entry struct {
	// URL is the file's URL; Name its name in the folder.
	URL, Name string
	Size      int64
	// Dir is set for a sub-folder (an S3 common prefix).
	Dir bool
	// ETag and LastModified are a file's validators as the listing gave
	// them (Last-Modified's HTTP form): a catalogue compares them with
	// those of its last run without reading the file.
	ETag, LastModified string
}

// statusError is a failed request's HTTP status with what the server said.
type statusError struct {
	status int
	code   string // the S3 error code, if any
	detail string
	err    error // a sentinel, or errTransient
}

func (e *statusError) Error() string {
	if e.err == errTransient {
		return fmt.Sprintf("the server answered %d", e.status)
	}
	return e.err.Error()
}

func (e *statusError) Unwrap() error { return e.err }

// errTransient marks a failure worth retrying (5xx, 429, a dropped
// connection); after the last attempt it becomes ErrUnavailable.
var errTransient = errors.New("transient failure")

// classify maps an HTTP status (and the S3 error code, if any) to a
// statusError.
func classify(status int, code, detail, rawURL string) *statusError {
	e := &statusError{status: status, code: code, detail: detail}
	lowerDetail := strings.ToLower(detail + " " + code)
	switch {
	case status == 404 || status == 410 || code == "NoSuchKey" || code == "NoSuchBucket" || code == "NotFound":
		e.err = ErrNotFound
	case status == 412 || code == "PreconditionFailed":
		e.err = ErrChanged
	case status == 401 || status == 403:
		if t := expiry(rawURL); !t.IsZero() && time.Now().After(t) {
			e.err = expiredAt(t)
		} else if strings.Contains(lowerDetail, "expired") {
			e.err = ErrExpired
		} else {
			e.err = ErrForbidden
		}
	case status == 408 || status == 429 || status >= 500:
		e.err = errTransient
	default:
		e.err = ErrBadResponse
	}
	return e
}

// errEmptyRange is S3's InvalidRange: the object has no bytes.
var errEmptyRange = errors.New("the range is outside the object")

// The error-body regexps are compiled on first use, not in every
// command's start-up: their bounded repeats compile to programs of
// hundreds of instructions (most of the 347 KB the package allocated
// before main).
var (
	codeRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<Code>([^<]{1,200})</Code>`) })
	messageRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<Message>([^<]{1,500})</Message>`) })
)

// xmlDetail pulls an S3-style error's code and message out of a body.
func xmlDetail(body []byte) (code, msg string) {
	if m := codeRE().FindSubmatch(body); m != nil {
		code = string(m[1])
	}
	if m := messageRE().FindSubmatch(body); m != nil {
		msg = string(m[1])
	}
	return code, msg
}

// retryable reports whether err is worth another attempt.
func retryable(err error) bool {
	// A cancelled read is not retried; a deadline is one attempt's own
	// timeout (the caller stops when its context is done).
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	if errors.Is(err, errTransient) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, syscall.ECONNABORTED) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var se *statusError
	if errors.As(err, &se) {
		return se.err == errTransient
	}
	// Transport errors that carry no type ("connection reset by peer"
	// through TLS, "server closed idle connection").
	msg := err.Error()
	for _, s := range []string{"connection reset", "broken pipe", "server closed", "EOF", "timeout", "connection refused"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// contentRange parses "bytes a-b/total" ("*" for an unknown total: -1) and
// "bytes */total".
func contentRange(h string) (start, end, total int64, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(h), "bytes ")
	if !found {
		return 0, 0, 0, false
	}
	rng, tot, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, 0, false
	}
	total = -1
	if tot != "*" {
		t, err := strconv.ParseInt(tot, 10, 64)
		if err != nil || t < 0 {
			return 0, 0, 0, false
		}
		total = t
	}
	if rng == "*" {
		return -1, -1, total, true
	}
	a, b, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, 0, false
	}
	s, err1 := strconv.ParseInt(a, 10, 64)
	e, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || s < 0 || e < s || (total >= 0 && e >= total) {
		return 0, 0, 0, false
	}
	return s, e, total, true
}

// rangeHeader is the Range header of n bytes at off (n < 0: the last -n).
func rangeHeader(off, n int64) string {
	if n < 0 {
		return "bytes=-" + strconv.FormatInt(-n, 10)
	}
	return "bytes=" + strconv.FormatInt(off, 10) + "-" + strconv.FormatInt(off+n-1, 10)
}
