package remote

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The URLs this package reads: http:// and https:// (presigned URLs
// included), s3://bucket/key through the S3 API, and gs://bucket/key
// through Google Cloud Storage's S3-compatible XML API.

// schemes are the URL schemes IsURL accepts, with their separator.
var schemes = []string{"http://", "https://", "s3://", "gs://"}

// IsURL reports whether name is a URL this package reads rather than a
// local path.
func IsURL(name string) bool {
	lower := strings.ToLower(name)
	for _, s := range schemes {
		if strings.HasPrefix(lower, s) && len(name) > len(s) {
			return true
		}
	}
	return false
}

// secretKeys are the query parameters that carry a signature, a credential
// or a token (AWS SigV4 and V2, GCS V4, Azure SAS, bearer tokens): their
// values are replaced by "…" wherever a URL is shown.
var secretKeys = map[string]bool{
	"x-amz-signature":      true,
	"x-amz-credential":     true,
	"x-amz-security-token": true,
	"awsaccesskeyid":       true,
	"signature":            true,
	"x-goog-signature":     true,
	"x-goog-credential":    true,
	"googleaccessid":       true,
	"sig":                  true,
	"token":                true,
	"access_token":         true,
	"x-auth-token":         true,
	"api_key":              true,
	"apikey":               true,
	"key":                  true,
	"password":             true,
	"secret":               true,
}

// Hidden is what a secret is replaced with.
const Hidden = "…"

// Redact returns name with its secrets hidden: the password of its user
// information and the values of signature, credential and token query
// parameters (X-Amz-Signature=…). A local path or an unparsable URL goes
// through RedactText. Redact is what every message, log, JSON output,
// window title and recent-files entry shows of a URL.
func Redact(name string) string {
	if !IsURL(name) {
		return RedactText(name)
	}
	scheme, rest, _ := strings.Cut(name, "://")
	// The authority ends at the first '/', '?' or '#'.
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	auth, tail := rest[:end], rest[end:]
	if at := strings.LastIndex(auth, "@"); at >= 0 {
		user := auth[:at]
		if u, _, ok := strings.Cut(user, ":"); ok {
			user = u + ":" + Hidden
		}
		auth = user + "@" + auth[at+1:]
	}
	tail, _, _ = strings.Cut(tail, "#")
	p, q, hasQ := strings.Cut(tail, "?")
	if !hasQ {
		return scheme + "://" + auth + p
	}
	parts := strings.Split(q, "&")
	for i, kv := range parts {
		k, _, ok := strings.Cut(kv, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			key = k
		}
		if secretKeys[strings.ToLower(key)] {
			if ok || k != "" {
				parts[i] = k + "=" + Hidden
			}
		}
	}
	return scheme + "://" + auth + p + "?" + strings.Join(parts, "&")
}

// Secrets returns the secrets a URL carries, as written and unescaped:
// its password and the values of its signature, credential and token
// parameters. A program that names the URL can hide exactly these in what
// it prints.
func Secrets(name string) []string {
	if !IsURL(name) {
		return nil
	}
	var out []string
	add := func(v string) {
		if len(v) < 4 {
			return // too short to hide without hiding other text
		}
		out = append(out, v)
		if u, err := url.QueryUnescape(v); err == nil && u != v {
			out = append(out, u)
		}
	}
	_, rest, _ := strings.Cut(name, "://")
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndex(rest[:end], "@"); at >= 0 {
		if _, pw, ok := strings.Cut(rest[:at], ":"); ok {
			add(pw)
		}
	}
	q := strings.SplitN(name, "#", 2)[0]
	if _, q, ok := strings.Cut(q, "?"); ok {
		for _, kv := range strings.Split(q, "&") {
			k, v, _ := strings.Cut(kv, "=")
			key, err := url.QueryUnescape(k)
			if err != nil {
				key = k
			}
			if secretKeys[strings.ToLower(key)] {
				add(v)
			}
		}
	}
	return out
}

// The redaction regexps are compiled on first use (an error to print),
// not in every command's start-up.
var (
	secretParamRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(x-amz-signature|x-amz-credential|x-amz-security-token|awsaccesskeyid|signature|x-goog-signature|x-goog-credential|googleaccessid|sig|token|access_token|x-auth-token|api_key|apikey|password|secret)(=|%3D)[^&\s"'<>]*`)
	})
	userinfoRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://[^/\s:@"']*):[^@/\s"']*@`)
	})
)

// RedactText hides the secrets of every URL in a free text (an error
// message from a library that quotes the URL it fetched).
func RedactText(s string) string {
	s = secretParamRE().ReplaceAllString(s, "${1}=…")
	return userinfoRE().ReplaceAllString(s, "${1}:…@")
}

// location is a parsed URL: an HTTP URL as given, or a bucket and key of an
// S3-compatible store.
type location struct {
	raw    string // as given
	scheme string // "http", "https", "s3", "gs"
	bucket string // s3, gs
	key    string // s3, gs: the object key (no leading slash)
}

func parseLocation(name string) (location, error) {
	if !IsURL(name) {
		return location{}, fmt.Errorf("%s is not an http(s), s3 or gs URL", Redact(name))
	}
	scheme, rest, _ := strings.Cut(name, "://")
	scheme = strings.ToLower(scheme)
	l := location{raw: name, scheme: scheme}
	switch scheme {
	case "http", "https":
		u, err := url.Parse(name)
		if err != nil {
			return location{}, fmt.Errorf("%s: %s", Redact(name), RedactText(err.Error()))
		}
		if u.Host == "" {
			return location{}, fmt.Errorf("%s: the URL has no host", Redact(name))
		}
		return l, nil
	default:
		bucket, key, _ := strings.Cut(rest, "/")
		if bucket == "" {
			return location{}, fmt.Errorf("%s: the URL has no bucket (%s://bucket/key)", Redact(name), scheme)
		}
		if strings.ContainsAny(key, "?#") {
			return location{}, fmt.Errorf("%s: an %s URL has no query or fragment", Redact(name), scheme)
		}
		l.bucket, l.key = bucket, key
		return l, nil
	}
}

func (l location) isS3() bool { return l.scheme == "s3" || l.scheme == "gs" }

// Dir returns the folder of a URL, ending with "/": the URL without its
// last path element, query and fragment. A URL ending with "/" is its own
// folder.
func Dir(name string) string {
	base, _, _ := strings.Cut(name, "#")
	base, _, _ = strings.Cut(base, "?")
	scheme, rest, _ := strings.Cut(base, "://")
	i := strings.Index(rest, "/")
	if i < 0 {
		return scheme + "://" + rest + "/"
	}
	auth, p := rest[:i], rest[i:]
	if !strings.HasSuffix(p, "/") {
		p = p[:strings.LastIndex(p, "/")+1]
	}
	return scheme + "://" + auth + p
}

// Base returns the last element of a URL's path, unescaped, without the
// query ("x.mcap" of https://host/run/x.mcap?X-Amz-Signature=…); a folder
// URL ("…/run42/") gives its own name.
func Base(name string) string {
	base, _, _ := strings.Cut(name, "#")
	base, _, _ = strings.Cut(base, "?")
	_, rest, _ := strings.Cut(base, "://")
	i := strings.Index(rest, "/")
	if i < 0 {
		return rest
	}
	p := strings.TrimRight(rest[i:], "/")
	if p == "" {
		return rest[:i]
	}
	b := path.Base(p)
	if u, err := url.PathUnescape(b); err == nil {
		return u
	}
	return b
}

// Join returns the URL of the file elem in the folder dir (a URL, with or
// without its final "/"). elem is a slash-separated relative path; it is
// escaped for an HTTP URL. The query of dir is dropped: a presigned URL
// signs one object.
func Join(dir string, elem string) string {
	d, _, _ := strings.Cut(dir, "#")
	d, _, _ = strings.Cut(d, "?")
	if !strings.HasSuffix(d, "/") {
		d += "/"
	}
	elem = strings.TrimLeft(elem, "/")
	lower := strings.ToLower(d)
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") {
		segs := strings.Split(elem, "/")
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		elem = strings.Join(segs, "/")
	}
	return d + elem
}

// expiry returns when a presigned URL stops being valid (SigV4's
// X-Amz-Date + X-Amz-Expires, V2's Expires, GCS's X-Goog-Date +
// X-Goog-Expires), or the zero time when it does not say.
func expiry(name string) time.Time {
	_, q, ok := strings.Cut(strings.SplitN(name, "#", 2)[0], "?")
	if !ok {
		return time.Time{}
	}
	v, err := url.ParseQuery(q)
	if err != nil {
		return time.Time{}
	}
	get := func(k string) string {
		for key, vals := range v {
			if strings.EqualFold(key, k) && len(vals) > 0 {
				return vals[0]
			}
		}
		return ""
	}
	for _, pre := range []string{"X-Amz-", "X-Goog-"} {
		d, e := get(pre+"Date"), get(pre+"Expires")
		if d == "" || e == "" {
			continue
		}
		t, err := time.Parse("20060102T150405Z", d)
		secs, err2 := strconv.ParseInt(e, 10, 64)
		if err == nil && err2 == nil {
			return t.Add(time.Duration(secs) * time.Second)
		}
	}
	if e := get("Expires"); e != "" {
		if secs, err := strconv.ParseInt(e, 10, 64); err == nil && secs > 1e9 {
			return time.Unix(secs, 0)
		}
	}
	return time.Time{}
}
