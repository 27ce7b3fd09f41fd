package remote

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://b.s3.amazonaws.com/run/x.mcap?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=deadbeefcafe",
			"https://b.s3.amazonaws.com/run/x.mcap?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=…&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=…"},
		{"https://h/x.bag?X-Amz-Security-Token=SECRETTOKEN&x-amz-signature=abc", "https://h/x.bag?X-Amz-Security-Token=…&x-amz-signature=…"},
		{"https://user:hunter2@h:8443/x.db3", "https://user:…@h:8443/x.db3"},
		{"https://h/x.db3?sv=2020&sig=AZURESIG&se=2026", "https://h/x.db3?sv=2020&sig=…&se=2026"},
		{"https://h/x.db3?GoogleAccessId=me&Expires=1&Signature=SIG", "https://h/x.db3?GoogleAccessId=…&Expires=1&Signature=…"},
		{"https://h/x.db3#frag?token=abc", "https://h/x.db3"},
		{"s3://bucket/run42/x.mcap", "s3://bucket/run42/x.mcap"},
		{"http://h/plain/x.bag?versionId=3", "http://h/plain/x.bag?versionId=3"},
		{"/local/path.bag", "/local/path.bag"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := Redact(tc.in); got != tc.want {
				t.Errorf("Redact =\n %s\nwant\n %s", got, tc.want)
			}
			for _, secret := range []string{"deadbeefcafe", "AKIAEXAMPLE", "SECRETTOKEN", "hunter2", "AZURESIG", "SIG"} {
				if strings.Contains(tc.in, secret) && strings.Contains(Redact(tc.in), secret) {
					t.Errorf("%s shows %s", Redact(tc.in), secret)
				}
			}
		})
	}
}

func TestRedactText(t *testing.T) {
	// net/http quotes the URL it failed on.
	u := "https://user:pw@h/x.mcap?X-Amz-Credential=AKIA&X-Amz-Signature=s3cr3t"
	msg := fmt.Sprintf("Get %q: dial tcp: connection refused (%v)", u, &url.Error{Op: "Get", URL: u, Err: errors.New("EOF")})
	got := RedactText(msg)
	for _, secret := range []string{"s3cr3t", "AKIA", ":pw@"} {
		if strings.Contains(got, secret) {
			t.Errorf("RedactText left %s in %s", secret, got)
		}
	}
	if !strings.Contains(got, "X-Amz-Signature=…") {
		t.Errorf("RedactText = %s, want X-Amz-Signature=…", got)
	}
}

func TestPaths(t *testing.T) {
	tests := []struct{ in, dir, base string }{
		{"s3://bucket/run42/run42_0.db3", "s3://bucket/run42/", "run42_0.db3"},
		{"s3://bucket/run42/", "s3://bucket/run42/", "run42"},
		{"s3://bucket/x.mcap", "s3://bucket/", "x.mcap"},
		{"s3://bucket", "s3://bucket/", "bucket"},
		{"https://h:8080/a/b%20c.mcap?X-Amz-Signature=x", "https://h:8080/a/", "b c.mcap"},
		{"https://h/", "https://h/", "h"},
	}
	for _, tc := range tests {
		if got := Dir(tc.in); got != tc.dir {
			t.Errorf("Dir(%s) = %s, want %s", tc.in, got, tc.dir)
		}
		if got := Base(tc.in); got != tc.base {
			t.Errorf("Base(%s) = %s, want %s", tc.in, got, tc.base)
		}
	}
	joins := []struct{ dir, elem, want string }{
		{"s3://bucket/run42/", "metadata.yaml", "s3://bucket/run42/metadata.yaml"},
		{"s3://bucket/run42", "metadata.yaml", "s3://bucket/run42/metadata.yaml"},
		{"https://h/run 42/", "a b.db3", "https://h/run 42/a%20b.db3"},
		{"https://h/run/?X-Amz-Signature=x", "metadata.yaml", "https://h/run/metadata.yaml"},
	}
	for _, tc := range joins {
		if got := Join(tc.dir, tc.elem); got != tc.want {
			t.Errorf("Join(%s, %s) = %s, want %s", tc.dir, tc.elem, got, tc.want)
		}
	}
}

func TestIsURL(t *testing.T) {
	for in, want := range map[string]bool{
		"https://h/x": true, "HTTP://h/x": true, "s3://b/k": true, "gs://b/k": true,
		"s3://": false, "/tmp/x.bag": false, "x.bag": false, "file:///x": false, "C:\\x.bag": false,
	} {
		if got := IsURL(in); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestExpiry(t *testing.T) {
	u := "https://h/x?X-Amz-Date=20260101T000000Z&X-Amz-Expires=60&X-Amz-Signature=s"
	want := time.Date(2026, 1, 1, 0, 1, 0, 0, time.UTC)
	if got := expiry(u); !got.Equal(want) {
		t.Errorf("expiry = %v, want %v", got, want)
	}
	if got := expiry("https://h/x"); !got.IsZero() {
		t.Errorf("expiry of a plain URL = %v", got)
	}
	se := classify(403, "AccessDenied", "Request has expired", u)
	if !errors.Is(se, ErrExpired) {
		t.Errorf("a 403 past the expiry is %v, want ErrExpired", se)
	}
}

func TestSecrets(t *testing.T) {
	got := Secrets("https://user:hunter22@h/x?X-Amz-Signature=abcd%2Fef&X-Amz-Date=20300101T000000Z&token=tokn")
	want := map[string]bool{"hunter22": true, "abcd%2Fef": true, "abcd/ef": true, "tokn": true}
	if len(got) != len(want) {
		t.Fatalf("Secrets = %q, want %v", got, want)
	}
	for _, s := range got {
		if !want[s] {
			t.Errorf("Secrets gave %q", s)
		}
	}
	if s := Secrets("/local/x.bag"); s != nil {
		t.Errorf("a path has secrets %q", s)
	}
}
