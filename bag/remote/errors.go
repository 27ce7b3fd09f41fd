package remote

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// The errors a remote read ends with. Each is wrapped in an *Error that
// names the URL (redacted) and what the server said; test with errors.Is.
var (
	// ErrNotFound: the server has no such file (404, S3 NoSuchKey).
	ErrNotFound = errors.New("no such file on the server")
	// ErrForbidden: the server refuses the request (401, 403): missing or
	// wrong credentials, or a URL whose signature does not match.
	ErrForbidden = errors.New("access denied")
	// ErrExpired: a presigned URL's validity has run out.
	ErrExpired = errors.New("the presigned URL has expired")
	// ErrNoRanges: the server answers a range request with the whole
	// file: it cannot serve a file in parts.
	ErrNoRanges = errors.New("the server does not support range requests")
	// ErrChanged: the file changed on the server while it was open (its
	// ETag or Last-Modified differ from the first answer's).
	ErrChanged = errors.New("the file changed on the server while it was open")
	// ErrUnavailable: the server kept failing (5xx, dropped connections,
	// timeouts) after every retry.
	ErrUnavailable = errors.New("the server kept failing")
	// ErrBadResponse: the server answered something this package cannot
	// use (a range other than the one asked, a short body).
	ErrBadResponse = errors.New("unexpected answer from the server")
	// ErrNoListing: the URL names a folder, but the server cannot list
	// it (plain HTTP): name its metadata.yaml or its files instead.
	ErrNoListing = errors.New("an HTTP server cannot list a folder")
	// ErrClosed: the file was closed.
	ErrClosed = errors.New("the remote file is closed")
)

// Error is a failed remote operation: the URL (always redacted), the HTTP
// status when there was one, and the reason, which wraps one of the Err
// values above or the transport's error.
type Error struct {
	Op     string // "open", "read", "list"
	URL    string // redacted
	Status int    // HTTP status, 0 when none came back
	// Detail is what the server's body or the library said (redacted).
	Detail string
	Err    error
	// Attempts is how many requests were made, retries included.
	Attempts int
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("%s %s: ", e.Op, e.URL)
	if e.Status != 0 {
		msg += fmt.Sprintf("HTTP %d %s: ", e.Status, http.StatusText(e.Status))
	}
	msg += RedactText(e.Err.Error())
	if e.Detail != "" {
		msg += " (" + RedactText(e.Detail) + ")"
	}
	if e.Attempts > 1 {
		msg += fmt.Sprintf(", after %d attempts", e.Attempts)
	}
	if hint := e.hint(); hint != "" {
		msg += ": " + hint
	}
	return msg
}

// hint says what the user can do.
func (e *Error) hint() string {
	switch {
	case errors.Is(e.Err, ErrExpired):
		return "ask for a new presigned URL"
	case errors.Is(e.Err, ErrForbidden):
		return "check the credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID, …) or the URL's signature"
	case errors.Is(e.Err, ErrNoRanges):
		return "download the file and open the local copy"
	case errors.Is(e.Err, ErrChanged):
		return "open it again to read the new version"
	case errors.Is(e.Err, ErrNoListing):
		return "open the folder's metadata.yaml URL, or a file's URL"
	}
	return ""
}

func (e *Error) Unwrap() error { return e.Err }

// redactedError hides the secrets of an error from a library (net/http's
// *url.Error quotes the whole URL), keeping it reachable by errors.Is.
type redactedError struct{ err error }

func (r redactedError) Error() string { return RedactText(r.err.Error()) }
func (r redactedError) Unwrap() error { return r.err }

func redactErr(err error) error {
	if err == nil {
		return nil
	}
	var re redactedError
	var e *Error
	if errors.As(err, &re) || errors.As(err, &e) {
		return err
	}
	return redactedError{err}
}

// expiredAt wraps ErrExpired with when the URL expired.
func expiredAt(t time.Time) error {
	return fmt.Errorf("%w (at %s)", ErrExpired, t.UTC().Format(time.RFC3339))
}
