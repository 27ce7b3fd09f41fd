//go:build !bagscope_front

package remote

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
)

// S3Linked says whether this build reads s3:// and gs:// URLs itself. The
// command-line front is built with the tag bagscope_front, without the AWS
// SDK, whose package initialisers (endpoint tables, schemas: 665 KB
// allocated before main) every command would pay; it hands a command line
// naming such a URL to the full binary (model/cli's FullBinary).
const S3Linked = true

// s3Backend reads s3:// URLs (and gs:// through GCS's S3-compatible XML
// API) with the AWS SDK: the standard credential chain (environment,
// shared profile, SSO, container and instance roles) and GetObject with a
// Range. The SDK's own retries are off: this package retries every store
// alike and counts each attempt.
type s3Backend struct {
	stall    time.Duration
	endpoint string // Options.Endpoint; "" leaves it to AWS_ENDPOINT_URL or AWS
	region   string
	gcs      bool

	once   sync.Once
	client *s3.Client
	err    error
}

// gcsEndpoint is Google Cloud Storage's S3-compatible XML API; it takes
// HMAC keys as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
const gcsEndpoint = "https://storage.googleapis.com"

func (b *s3Backend) s3(ctx context.Context) (*s3.Client, error) {
	b.once.Do(func() {
		// The SDK's own buildable client, so that AWS_CA_BUNDLE can add
		// its roots to the transport.
		hc := awshttp.NewBuildableClient().WithTransportOptions(func(t *http.Transport) {
			t.MaxIdleConns = 64
			t.MaxIdleConnsPerHost = 16
			t.ResponseHeaderTimeout = b.stall
		})
		opts := []func(*config.LoadOptions) error{config.WithHTTPClient(hc)}
		if b.region != "" {
			opts = append(opts, config.WithRegion(b.region))
		}
		// Loading the configuration reads files and the environment,
		// and never the network: credentials are fetched on first use.
		cfg, err := config.LoadDefaultConfig(ctx, opts...)
		if err != nil {
			b.err = redactErr(err)
			return
		}
		if cfg.Region == "" {
			cfg.Region = "us-east-1"
			if b.gcs {
				cfg.Region = "auto"
			}
		}
		endpoint := b.endpoint
		if b.gcs && endpoint == "" {
			endpoint = gcsEndpoint
		}
		b.client = s3.NewFromConfig(cfg, func(o *s3.Options) {
			if endpoint != "" {
				o.BaseEndpoint = aws.String(endpoint)
			}
			if o.BaseEndpoint != nil && os.Getenv("AWS_S3_USE_VIRTUAL_HOSTS") == "" {
				// An S3-compatible store (MinIO, Ceph, R2, SeaweedFS,
				// versitygw) is reached as endpoint/bucket/key: its
				// buckets have no host names of their own.
				o.UsePathStyle = true
			}
			o.RetryMaxAttempts = 1
			o.Retryer = aws.NopRetryer{}
			// A range's checksum is not the object's: do not ask.
			o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
			o.DisableLogOutputChecksumValidationSkipped = true
		})
	})
	return b.client, b.err
}

func (b *s3Backend) get(ctx context.Context, l location, off, n int64, ver *version) (*answer, error) {
	c, err := b.s3(ctx)
	if err != nil {
		return nil, err
	}
	in := &s3.GetObjectInput{Bucket: aws.String(l.bucket), Key: aws.String(l.key), Range: aws.String(rangeHeader(off, n))}
	if ver != nil && ver.strongETag() {
		in.IfMatch = aws.String(ver.etag)
	}
	out, err := c.GetObject(ctx, in)
	if err != nil {
		return nil, b.fail(err, l)
	}
	got := version{etag: aws.ToString(out.ETag), modTime: lastModified(out.LastModified)}
	if ver != nil && !ver.matches(got) {
		out.Body.Close()
		return nil, &statusError{status: 200, err: ErrChanged, detail: "ETag " + orNone(got.etag) + ", first seen " + orNone(ver.etag)}
	}
	length := aws.ToInt64(out.ContentLength)
	if cr := aws.ToString(out.ContentRange); cr != "" {
		start, end, total, ok := contentRange(cr)
		if !ok || start < 0 || total < 0 {
			out.Body.Close()
			return nil, &statusError{status: 206, err: ErrBadResponse, detail: "Content-Range " + cr}
		}
		return &answer{body: out.Body, start: start, n: end - start + 1, size: total, ver: got}, nil
	}
	// No Content-Range: the store sent the whole object.
	if (n < 0 && length <= -n) || (n >= 0 && off == 0 && length <= n) {
		return &answer{body: out.Body, start: 0, n: length, size: length, ver: got}, nil
	}
	out.Body.Close()
	return nil, &statusError{status: 200, err: ErrNoRanges, detail: "it answered a range request with the whole object" + lengthText(length)}
}

// fail turns an SDK error into a statusError, or the transport's error.
func (b *s3Backend) fail(err error, l location) error {
	var re *awshttp.ResponseError
	status := 0
	if errors.As(err, &re) {
		status = re.HTTPStatusCode()
	}
	code, msg := "", ""
	var ae smithy.APIError
	if errors.As(err, &ae) {
		code, msg = ae.ErrorCode(), ae.ErrorMessage()
	}
	if status == 0 && code == "" {
		// No answer: the transport failed, or credentials could not be
		// found (that error says so).
		return redactErr(err)
	}
	if status == http.StatusRequestedRangeNotSatisfiable || code == "InvalidRange" {
		// Only an empty object has no byte to give a suffix range.
		return &statusError{status: status, code: code, detail: strings.TrimSpace(code + ": " + msg), err: errEmptyRange}
	}
	switch code {
	case "ExpiredToken", "TokenRefreshRequired":
		return &statusError{status: status, code: code, detail: code + ": " + msg, err: ErrExpired}
	case "InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "AllAccessDisabled", "InvalidToken":
		return &statusError{status: status, code: code, detail: strings.TrimSpace(code + ": " + msg), err: ErrForbidden}
	case "SlowDown", "InternalError", "ServiceUnavailable", "RequestTimeout":
		return &statusError{status: status, code: code, detail: code, err: errTransient}
	}
	detail := strings.TrimSpace(code + ": " + msg)
	if code == "" {
		detail = msg
	}
	return classify(status, code, detail, "")
}

func (b *s3Backend) list(ctx context.Context, l location) ([]Entry, error) {
	c, err := b.s3(ctx)
	if err != nil {
		return nil, err
	}
	prefix := l.key
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	base := l.scheme + "://" + l.bucket + "/"
	var out []Entry
	in := &s3.ListObjectsV2Input{Bucket: aws.String(l.bucket), Prefix: aws.String(prefix), Delimiter: aws.String("/")}
	p := s3.NewListObjectsV2Paginator(c, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, b.fail(err, l)
		}
		for _, o := range page.Contents {
			key := aws.ToString(o.Key)
			name := strings.TrimPrefix(key, prefix)
			if name == "" {
				continue // the folder's own marker object
			}
			out = append(out, Entry{URL: base + key, Name: name, Size: aws.ToInt64(o.Size), ETag: aws.ToString(o.ETag), LastModified: lastModified(o.LastModified)})
		}
		for _, cp := range page.CommonPrefixes {
			key := aws.ToString(cp.Prefix)
			name := strings.TrimSuffix(strings.TrimPrefix(key, prefix), "/")
			out = append(out, Entry{URL: base + key, Name: name, Dir: true})
		}
		if len(out) > 100000 {
			break
		}
	}
	return out, nil
}

// listAll lists every object below the prefix l (its key ends with "/"),
// at any depth, a page of up to 1,000 keys a request; each entry's Name is
// its key below the prefix. It says how many pages (requests) it took.
func (b *s3Backend) listAll(ctx context.Context, l location) ([]Entry, int, error) {
	c, err := b.s3(ctx)
	if err != nil {
		return nil, 0, err
	}
	prefix := l.key
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	base := l.scheme + "://" + l.bucket + "/"
	var out []Entry
	pages := 0
	p := s3.NewListObjectsV2Paginator(c, &s3.ListObjectsV2Input{Bucket: aws.String(l.bucket), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		pages++
		if err != nil {
			return nil, pages, b.fail(err, l)
		}
		for _, o := range page.Contents {
			key := aws.ToString(o.Key)
			name := strings.TrimPrefix(key, prefix)
			if name == "" || strings.HasSuffix(name, "/") {
				continue // folder marker objects
			}
			out = append(out, Entry{URL: base + key, Name: name, Size: aws.ToInt64(o.Size), ETag: aws.ToString(o.ETag), LastModified: lastModified(o.LastModified)})
		}
	}
	return out, pages, nil
}

// lastModified formats an S3 time as HTTP does.
func lastModified(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(http.TimeFormat)
}
