package remote

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// httpBackend reads http(s) URLs with GET and Range, never HEAD: a
// presigned URL is often signed for GET only.
type httpBackend struct {
	client *http.Client
}

func (h *httpBackend) get(ctx context.Context, l location, off, n int64, ver *version) (*answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.raw, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Range", rangeHeader(off, n))
	// No compression: offsets are the file's bytes.
	req.Header.Set("Accept-Encoding", "identity")
	if ver != nil {
		if ver.strongETag() {
			req.Header.Set("If-Match", ver.etag)
		} else if ver.modTime != "" {
			req.Header.Set("If-Unmodified-Since", ver.modTime)
		}
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, err
	}
	got := version{etag: resp.Header.Get("ETag"), modTime: resp.Header.Get("Last-Modified")}
	fail := func(e error) (*answer, error) {
		resp.Body.Close()
		return nil, e
	}
	if ver != nil && (resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusPartialContent) && !ver.matches(got) {
		return fail(&statusError{status: resp.StatusCode, err: ErrChanged, detail: fmt.Sprintf("ETag %s, Last-Modified %s; first seen ETag %s, Last-Modified %s", orNone(got.etag), orNone(got.modTime), orNone(ver.etag), orNone(ver.modTime))})
	}
	switch resp.StatusCode {
	case http.StatusPartialContent:
		cr := resp.Header.Get("Content-Range")
		if strings.HasSuffix(cr, "/0") && resp.ContentLength <= 0 {
			// An empty file (some servers answer a suffix range of one
			// with 206 and an empty range).
			resp.Body.Close()
			return &answer{body: http.NoBody, size: 0, ver: got}, nil
		}
		start, end, total, ok := contentRange(cr)
		if !ok || start < 0 {
			return fail(&statusError{status: resp.StatusCode, err: ErrBadResponse, detail: "Content-Range " + strconv.Quote(resp.Header.Get("Content-Range"))})
		}
		if total < 0 {
			if ver == nil {
				return fail(&statusError{status: resp.StatusCode, err: ErrBadResponse, detail: "the answer does not give the file's size"})
			}
			total = end + 1
		}
		return &answer{body: resp.Body, start: start, n: end - start + 1, size: total, ver: got}, nil
	case http.StatusOK:
		// The whole file came back: the server ignored Range. That is
		// only usable when the whole file is what was asked for.
		length := resp.ContentLength
		if length < 0 && n < 0 {
			// No length given: the whole file is usable if it is no
			// longer than the suffix asked for.
			b, err := io.ReadAll(io.LimitReader(resp.Body, -n+1))
			resp.Body.Close()
			if err != nil {
				return nil, err
			}
			if int64(len(b)) <= -n {
				return &answer{body: io.NopCloser(bytes.NewReader(b)), start: 0, n: int64(len(b)), size: int64(len(b)), ver: got}, nil
			}
			return nil, &statusError{status: resp.StatusCode, err: ErrNoRanges, detail: "it answered a range request with the whole file (200 OK)"}
		}
		if length >= 0 && ((n < 0 && length <= -n) || (n >= 0 && off == 0 && length <= n)) {
			return &answer{body: resp.Body, start: 0, n: length, size: length, ver: got}, nil
		}
		return fail(&statusError{status: resp.StatusCode, err: ErrNoRanges, detail: "it answered a range request with the whole file (200 OK" + lengthText(length) + ")"})
	case http.StatusRequestedRangeNotSatisfiable:
		_, _, total, ok := contentRange(resp.Header.Get("Content-Range"))
		if ok && total == 0 {
			resp.Body.Close()
			return &answer{body: http.NoBody, size: 0, ver: got}, nil
		}
		return fail(&statusError{status: resp.StatusCode, err: ErrBadResponse, detail: "range " + rangeHeader(off, n) + " is outside the file" + totalText(total, ok)})
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<10))
	resp.Body.Close()
	code, msg := xmlDetail(body)
	detail := msg
	if code != "" {
		detail = strings.TrimSpace(code + ": " + msg)
	}
	return nil, classify(resp.StatusCode, code, detail, l.raw)
}

func (h *httpBackend) list(ctx context.Context, l location) ([]Entry, error) {
	return nil, ErrNoListing
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func lengthText(n int64) string {
	if n < 0 {
		return ""
	}
	return fmt.Sprintf(", %d bytes", n)
}

func totalText(total int64, ok bool) string {
	if !ok || total < 0 {
		return ""
	}
	return fmt.Sprintf(" of %d bytes", total)
}
